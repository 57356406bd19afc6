"""A Code of Ice and Fire (CodinGame, May 2019): the referee, rule for rule (spec sections 1-14).

Two players alternate whole turns, red (player 0, HQ at (0,0)) first. One action is a
:data:`~gridarena.games.iceandfire.formats.Turn`, the commands of one output line. A state is always
*at the start of the mover's turn*: its activity recomputed, its cut-off units removed, its income
credited (and its army wiped out if the gold went negative), exactly as the referee does before it
sends the player its input. Applying a turn runs the referee's parse-time checks on the position
before any command, then each command in order (a failed check skips the command with a message
kept in :attr:`IceAndFireState.log`), then the next player's turn start, or the end of the game.

This module is the clear oracle: plain lists, a breadth-first flood fill, one check after another in
the referee's order. The kernels in ``kernels.py`` are the fast twins bots call in inner loops.

>>> game = IceAndFire()
>>> state = game.new_initial_state(seed=1)
>>> state.gold, state.income, state.turn, state.current_player()
((21, 20), (1, 2), 1, 0)
>>> state = state.apply_action(state.string_to_action("TRAIN 1 1 0;TRAIN 1 0 2;MOVE 1 2 0"))
>>> state.log
('MOVE 1 2 0: ignored, no unit 1 alive at the start of the turn', 'TRAIN 1 0 2: ignored, (0,2) is not playable')
>>> [(u.id, u.x, u.y) for u in state.units], state.gold
([(1, 1, 0)], (11, 22))
"""

from __future__ import annotations

import os
import random
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import ClassVar, Final, NamedTuple

from gridarena.core.errors import IllegalActionError, StateFormatError
from gridarena.core.types import JSON, TERMINAL, BaseState, Outcome, Player
from gridarena.games.iceandfire import formats
from gridarena.games.iceandfire.formats import (
    JAVA_INT_MAX,
    Build,
    Command,
    Ignored,
    Move,
    Msg,
    Train,
    Turn,
    Wait,
    check_rules,
    check_turn,
    parse_line,
    state_from_json,
    state_to_json,
    turn_to_text,
    viewer_message,
)
from gridarena.games.iceandfire.mapgen import SIZE, check_league, generate

RED: Final = 0
BLUE: Final = 1
NEUTRAL: Final = 2
"""``owner`` of a neutral cell."""
VOID: Final = 3
"""``owner`` of a void cell (never entered, never changes)."""
CELLS: Final = SIZE * SIZE
PLAYER_NAMES: Final = ("red", "blue")

HQ: Final = 0
MINE: Final = 1
TOWER: Final = 2
BUILDING_NAMES: Final = ("HQ", "MINE", "TOWER")

MAX_TURNS: Final = 100
START_GOLD: Final = 20
UNIT_COST: Final = (0, 10, 20, 30)
"""Cost of a unit by level (index 0 unused)."""
UPKEEP: Final = (0, 1, 4, 20)
"""Upkeep per turn of a unit by level."""
MINE_INCOME: Final = 4
TOWER_COST: Final = 15
CAPTURE_LEVEL: Final = 3
MINE_BASE_COST: Final = 20
MINE_COST_STEP: Final = 4
MULTI_MINE_COST: Final = 15
HQ_CELLS: Final = (0, CELLS - 1)
"""The HQ cell of red (0,0) and blue (11,11)."""
BLUE_START_CELL: Final = 10 * SIZE + 11
"""(11,10): blue also owns it at the start (no building on it)."""

UP, RIGHT, DOWN, LEFT = (0, -1), (1, 0), (0, 1), (-1, 0)
DIRECTION_ORDER: Final = ((UP, RIGHT, DOWN, LEFT), (DOWN, LEFT, UP, RIGHT))
"""The order in which each player's MOVE tries the neighbours (blue's is red's turned by a half-turn)."""


def cell_of(x: int, y: int) -> int:
    """The cell index of (x, y): ``y * 12 + x``."""
    return y * SIZE + x


def xy(cell: int) -> tuple[int, int]:
    """(x, y) of a cell index."""
    return cell % SIZE, cell // SIZE


class Unit(NamedTuple):
    """A unit: its id (shared counter from 1), owner, level 1-3, place and whether it may still move."""

    id: int
    owner: Player
    level: int
    x: int
    y: int
    can_act: bool

    @property
    def cell(self) -> int:
        """The cell index it stands on."""
        return self.y * SIZE + self.x


class Building(NamedTuple):
    """A building: owner, kind (HQ 0, MINE 1, TOWER 2) and place."""

    owner: Player
    kind: int
    x: int
    y: int

    @property
    def cell(self) -> int:
        """The cell index it stands on."""
        return self.y * SIZE + self.x


class Result(NamedTuple):
    """How the game ended: returns, the arena's termination, a sentence, the forfeiter and the
    referee's numeric scores (-1 for a loser by HQ or deactivation, military scores otherwise)."""

    returns: tuple[float, float]
    termination: str
    reason: str
    forfeit_player: Player | None
    scores: tuple[int, int]


@dataclass(frozen=True, slots=True, eq=False)
class Board:
    """The fixed part of a game: void cells, mine spots and the distance table (spec section 7).

    ``owner``-independent and shared by every state of a game (one per map, cached).
    """

    rows: tuple[str, ...]
    spots: tuple[tuple[int, int], ...]
    void: bytes = field(repr=False)
    spot: bytes = field(repr=False)
    neighbours: tuple[tuple[int, ...], ...] = field(repr=False)
    """Non-void 4-neighbours of each cell in the order UP, RIGHT, DOWN, LEFT."""
    ordered: tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]] = field(repr=False)
    """Non-void neighbours of each cell in each player's MOVE direction order."""
    dist: bytes = field(repr=False)
    """``dist[a * 144 + b]``: shortest path length between non-void cells (255 where undefined)."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and (self.rows, self.spots) == (other.rows, other.spots)

    def __hash__(self) -> int:
        return hash((self.rows, self.spots))

    def distance(self, a: int, b: int) -> int:
        """d(a, b) over the non-void cells, ignoring units, buildings and owners."""
        return self.dist[a * CELLS + b]


@lru_cache(maxsize=256)
def make_board(rows: tuple[str, ...], spots: tuple[tuple[int, int], ...]) -> Board:
    """The board of a map (rows of ``#``/``.``, spots as (x, y)); checked, with its distance table."""
    if len(rows) != SIZE or any(len(r) != SIZE or set(r) - set("#.") for r in rows):
        raise StateFormatError(f"iceandfire: a map is {SIZE} rows of {SIZE} characters '#' or '.'")
    void = bytes(rows[y][x] == "#" for y in range(SIZE) for x in range(SIZE))
    spot = bytearray(CELLS)
    for x, y in spots:
        if not (0 <= x < SIZE and 0 <= y < SIZE) or void[cell_of(x, y)]:
            raise StateFormatError(f"iceandfire: mine spot ({x},{y}) is not a cell of the map")
        spot[cell_of(x, y)] = 1
    if void[HQ_CELLS[0]] or void[HQ_CELLS[1]] or void[BLUE_START_CELL]:
        raise StateFormatError("iceandfire: (0,0), (11,11) and (11,10) must not be void")

    def around(cell: int, order: Iterable[tuple[int, int]]) -> tuple[int, ...]:
        x, y = xy(cell)
        return tuple(
            cell_of(x + dx, y + dy)
            for dx, dy in order
            if 0 <= x + dx < SIZE and 0 <= y + dy < SIZE and not void[cell_of(x + dx, y + dy)]
        )

    neighbours = tuple(around(c, DIRECTION_ORDER[0]) for c in range(CELLS))
    ordered = (neighbours, tuple(around(c, DIRECTION_ORDER[1]) for c in range(CELLS)))
    dist = bytearray([255]) * (CELLS * CELLS)
    for source in range(CELLS):
        if void[source]:
            continue
        row = source * CELLS
        dist[row + source] = 0
        queue = deque([source])
        while queue:
            cell = queue.popleft()
            for n in neighbours[cell]:
                if dist[row + n] == 255:
                    dist[row + n] = dist[row + cell] + 1
                    queue.append(n)
    if dist[HQ_CELLS[0] * CELLS + HQ_CELLS[1]] == 255:
        raise StateFormatError("iceandfire: the two HQs are not connected")
    return Board(
        tuple(rows),
        tuple(sorted(spots, key=lambda s: (s[1], s[0]))),
        void,
        bytes(spot),
        neighbours,
        ordered,
        bytes(dist),
    )


@dataclass(frozen=True, slots=True)
class IceAndFire:
    """The game: rule version (``contest`` or ``multi``) and league (``wood3`` ... ``bronze``).

    >>> IceAndFire(rules="multi", league="wood1").params
    {'rules': 'multi', 'league': 'wood1'}
    """

    rules: str = "contest"
    league: str = "bronze"
    name: str = field(default="iceandfire", init=False)
    num_players: int = field(default=2, init=False)
    enumerable_actions: bool = field(default=False, init=False)
    zero_sum: bool = field(default=True, init=False)

    def __post_init__(self) -> None:
        check_rules(self.rules)
        check_league(self.league)

    @property
    def params(self) -> Mapping[str, JSON]:
        """The game's parameters, as given to ``make``."""
        return {"rules": self.rules, "league": self.league}

    @property
    def max_level(self) -> int:
        """The highest trainable level (``MAX_LEVEL``): 1 in Wood 3, else 3."""
        return 1 if self.league == "wood3" else 3

    def new_initial_state(self, seed: int | None = None) -> IceAndFireState:
        """Red to move on the map of ``seed`` (a Java long; None draws one, kept in the state)."""
        if seed is None:
            seed = int.from_bytes(os.urandom(8), "big")
        generated = generate(seed, self.rules, self.league)
        return initial_state(self, make_board(generated.rows, generated.spots), generated.seed)

    def state_from_json(self, data: Mapping[str, JSON]) -> IceAndFireState:
        """Inverse of ``IceAndFireState.to_json``; StateFormatError naming the bad field."""
        return state_from_json(self, data)

    def max_plies(self) -> int:
        """100 turns each."""
        return 2 * MAX_TURNS


def initial_state(game: IceAndFire, board: Board, seed: int | None = None) -> IceAndFireState:
    """Spec section 2 on ``board``, then the start of red's first turn."""
    owner = bytearray(VOID if v else NEUTRAL for v in board.void)
    owner[HQ_CELLS[0]] = RED
    owner[HQ_CELLS[1]] = owner[BLUE_START_CELL] = BLUE
    buildings = (Building(RED, HQ, 0, 0), Building(BLUE, HQ, SIZE - 1, SIZE - 1))
    state = IceAndFireState(
        rules=game.rules,
        league=game.league,
        board=board,
        seed=seed,
        owner=bytes(owner),
        active=bytes(o in (RED, BLUE) for o in owner),
        units=(),
        buildings=buildings,
        gold=(START_GOLD, START_GOLD),
        income=(1, 2),
        turn=0,
        player=BLUE,
        next_id=1,
    )
    referee = Referee(state)
    referee.next_turn()
    return referee.freeze((), None)


@dataclass(frozen=True, slots=True)
class IceAndFireState(BaseState[Turn]):
    """A position at the start of ``player``'s turn ``turn`` (or the end of the game).

    Cells are indices ``y * 12 + x``. ``owner[c]`` is ``RED`` (0), ``BLUE`` (1), ``NEUTRAL`` (2) or
    ``VOID`` (3); ``active[c]`` is 1 for an owned cell joined to its owner's HQ (0 elsewhere).
    ``units`` are sorted by id; ``buildings`` keep the referee's list order (HQs first).
    ``gold``/``income`` are per player as the referee last computed them (the income may be stale
    after a bankruptcy, as in the original). ``messages`` are the viewer's MSG texts; ``last_turn``
    is the turn just played (by ``last_player``) and ``log`` the referee's messages about it and the
    turn start that followed (ignored commands, units lost to a cut, a bankruptcy, the end).
    """

    ENUMERABLE: ClassVar[bool] = False

    rules: str
    league: str
    board: Board
    seed: int | None
    owner: bytes
    active: bytes
    units: tuple[Unit, ...]
    buildings: tuple[Building, ...]
    gold: tuple[int, int]
    income: tuple[int, int]
    turn: int
    player: Player
    next_id: int
    messages: tuple[str, str] = ("", "")
    last_turn: Turn = ()
    last_player: Player | None = None
    log: tuple[str, ...] = ()
    result: Result | None = None
    ply: int = field(default=0, compare=False)  # turns played from the start: history, for pictures

    # -- the API -----------------------------------------------------------------------------

    @property
    def game(self) -> IceAndFire:
        """The game this state belongs to."""
        return IceAndFire(self.rules, self.league)

    def current_player(self) -> Player:
        """The player to move, or ``TERMINAL``."""
        return TERMINAL if self.result is not None else self.player

    def is_terminal(self) -> bool:
        """True once an HQ fell, a player was deactivated or the 100 turns are over."""
        return self.result is not None

    def outcome(self) -> Outcome | None:
        """The result as an :class:`Outcome`, or None while the game goes on."""
        if self.result is None:
            return None
        r = self.result
        return Outcome(r.returns, r.termination, r.reason, r.forfeit_player)

    def illegal_reason(self, action: Turn) -> str | None:
        """None for any turn a bot could print; commands that fail the referee's checks are skipped,
        not illegal. A command that CodinGame would not recognise raises ActionParseError (a loss)."""
        if self.result is not None:
            return "the game is over"
        check_turn(action, self.rules)
        return None

    def _apply(self, action: Turn) -> IceAndFireState:
        referee = Referee(self)
        referee.play(tuple(action))
        return replace(referee.freeze(tuple(action), self.player), ply=self.ply + 1)

    def forfeit(self, player: Player, termination: str, reason: str) -> IceAndFireState:
        """``player`` is deactivated (timeout, crash, unrecognised command): it loses at once."""
        scores = [military_score(self, p) for p in (RED, BLUE)]
        scores[player] = -1
        returns = (-1.0, 1.0) if player == RED else (1.0, -1.0)
        result = Result(returns, termination, reason, player, (scores[0], scores[1]))
        return replace(self, result=result)

    def random_action(self, rng: random.Random) -> Turn:
        """A random turn of commands that pass the referee's checks on this position (moves of
        existing units towards a random neighbour, a few trains on the border, now and then a
        building); commands are checked one by one on the position they will meet."""
        return random_turn(self, rng)

    def result_info(self) -> dict[str, JSON]:
        """The referee's scores, the number of turns played, how it ended, seed and options."""
        if self.result is None:
            return {}
        return {
            "scores": list(self.result.scores),
            "turns": min(self.turn, MAX_TURNS),
            "termination": self.result.termination,
            "seed": self.seed,
            "rules": self.rules,
            "league": self.league,
        }

    def action_to_string(self, action: Turn) -> str:
        """The output line: commands joined by ``;`` (``;`` alone for the empty turn)."""
        return turn_to_text(tuple(action))

    def string_to_action(self, text: str) -> Turn:
        """Spec section 12's parser; ActionParseError for a line that loses."""
        return parse_line(text, self.rules)

    def to_json(self) -> dict[str, JSON]:
        """The whole state as JSON (the map, owners and activity as rows, units, buildings, ...)."""
        return state_to_json(self)

    def to_text(self) -> str:
        """The 12 rows with owners, activity, units and buildings, then gold, units and the log."""
        from gridarena.games.iceandfire.render import state_to_text

        return state_to_text(self)

    def to_svg(self, title: str = "") -> str:
        """An SVG picture (used by ``gridarena replay FILE --svg OUT``)."""
        from gridarena.games.iceandfire.render import state_to_svg

        return state_to_svg(self, title)

    # -- what bots need ------------------------------------------------------------------------

    @property
    def max_level(self) -> int:
        """The highest trainable level in this league."""
        return 1 if self.league == "wood3" else 3

    def unit_at(self, cell: int) -> Unit | None:
        """The unit on ``cell``, if any."""
        for unit in self.units:
            if unit.cell == cell:
                return unit
        return None

    def building_at(self, cell: int) -> Building | None:
        """The building on ``cell``, if any."""
        for building in self.buildings:
            if building.cell == cell:
                return building
        return None

    def mine_cost(self, player: Player) -> int:
        """What ``player``'s next MINE costs (contest: 20 + 4 per MINE it owns; multi: 15)."""
        return mine_cost(self.rules, sum(b.owner == player and b.kind == MINE for b in self.buildings))

    def capturable(self, cell: int, player: Player, level: int) -> bool:
        """Spec section 5: may a level-``level`` unit of ``player`` enter ``cell``?"""
        return Referee(self).capturable(cell, player, level)

    def playable(self, cell: int, player: Player) -> bool:
        """Own and active, or next to an own active cell: where TRAIN and BUILD may act."""
        return Referee(self).playable(cell, player)

    def valid_commands(self) -> list[Command]:
        """Every one-cell command the referee would carry out if the mover gave it next.

        Each MOVE of a unit that may still act to a 4-neighbour it can take (a MOVE towards a farther
        target steps onto one of these, so they reach every effect a MOVE can have), each TRAIN on a
        playable cell at a level the mover can pay and that can take the cell, each BUILD the mover
        can pay on a free own cell that allows it; TRAINs and BUILDs by cell, then MOVEs by unit id.
        On a position inside a turn (:meth:`after_commands`) it answers for the turn's next command.
        """
        return Referee(self).valid_commands()

    def after_commands(self, commands: Turn) -> IceAndFireState:
        """The position inside the mover's turn after ``commands``, before the turn ends.

        The same player is still to move, with gold, territory, units and incomes as the referee has
        them after those commands (a captured HQ ends the game here, as in a whole turn; skipped
        commands are logged). The turn itself is played by ``apply_action`` on the turn's first
        position with all of its commands. This lets a learner give one command per step.
        """
        if self.result is not None:
            raise IllegalActionError("iceandfire: the game is over")
        referee = Referee(self)
        if referee.run(check_turn(commands, self.rules)) and referee.result is None:
            referee.update_incomes()
        return replace(referee.freeze(self.last_turn, self.last_player), ply=self.ply)

    def codingame_init(self, player: Player) -> str:
        """The initial input of spec section 13 (mine spots), sent once before the first turn."""
        from gridarena.games.iceandfire.render import codingame_init

        return codingame_init(self, player)

    def codingame_turn(self, player: Player) -> str:
        """``player``'s turn input of spec section 13 (gold, incomes, map, buildings, units)."""
        from gridarena.games.iceandfire.render import codingame_turn

        return codingame_turn(self, player)


def mine_cost(rules: str, mines_owned: int) -> int:
    """The MINE price: contest 20 + 4 * (MINEs owned now, inactive ones included); multi 15 flat.

    >>> mine_cost("contest", 0), mine_cost("contest", 2), mine_cost("multi", 2)
    (20, 28, 15)
    """
    return MINE_BASE_COST + MINE_COST_STEP * mines_owned if rules == "contest" else MULTI_MINE_COST


def military_score(state: IceAndFireState, player: Player) -> int:
    """Gold plus the training cost of every unit alive (on active or inactive cells)."""
    return state.gold[player] + sum(UNIT_COST[u.level] for u in state.units if u.owner == player)


FULL_MASK: Final = (1 << CELLS) - 1
_COLUMN_0: Final = sum(1 << (y * SIZE) for y in range(SIZE))
_NOT_COLUMN_0: Final = FULL_MASK & ~_COLUMN_0
_NOT_COLUMN_11: Final = FULL_MASK & ~(_COLUMN_0 << (SIZE - 1))
_BITS_TO_CELLS: Final = bytes.maketrans(b"01", b"\x00\x01")
_MASK_TABLES: Final = tuple(bytes(49 if v == value else 48 for v in range(256)) for value in range(4))


def cells_mask(values: bytes, value: int) -> int:
    """The bit mask of the cells whose byte is ``value`` (bit c for cell c).

    >>> cells_mask(bytes([1, 0, 1]) + bytes(141), 1)
    5
    """
    return int(values.translate(_MASK_TABLES[value])[::-1], 2)


def mask_cells(mask: int) -> bytes:
    """Inverse of :func:`cells_mask` for 0/1 bytes: one byte per cell, 1 where the bit is set."""
    return format(mask, f"0{CELLS}b")[::-1].encode().translate(_BITS_TO_CELLS)


def mask_indices(mask: int) -> list[int]:
    """The cells of a bit mask, ascending.

    >>> mask_indices(0b1010)
    [1, 3]
    """
    cells = []
    while mask:
        low = mask & -mask
        cells.append(low.bit_length() - 1)
        mask ^= low
    return cells


def spread(mask: int) -> int:
    """``mask`` and every 4-neighbour of its cells (on the grid; void is not excluded here)."""
    return (
        mask
        | mask >> SIZE
        | (mask << SIZE) & FULL_MASK
        | (mask >> 1) & _NOT_COLUMN_11
        | (mask << 1) & _NOT_COLUMN_0
    )


def flood(start: int, within: int) -> int:
    """The cells of ``within`` joined to ``start`` by 4-steps inside ``within`` (bit masks).

    >>> bin(flood(1, 0b111 | 1 << 5))  # cells 0-2 joined to cell 0; cell 5 is not
    '0b111'
    """
    reach = start & within
    while True:
        grown = spread(reach) & within
        if grown == reach:
            return reach
        reach = grown


def territory_bfs(owner: bytes, neighbours: Sequence[Sequence[int]], player: Player) -> set[int]:
    """The active cells of ``player``, cell by cell: a breadth-first search from its HQ through its
    own cells. The clear statement of spec section 4, and the oracle of :func:`flood` and the kernels."""
    hq = HQ_CELLS[player]
    if owner[hq] != player:
        return set()
    seen, queue = {hq}, deque([hq])
    while queue:
        cell = queue.popleft()
        for n in neighbours[cell]:
            if owner[n] == player and n not in seen:
                seen.add(n)
                queue.append(n)
    return seen


class Referee:
    """The referee at work on one turn: mutable copies of a state's lists, the checks and effects of
    spec sections 3-10 in the referee's order, and :meth:`freeze` back to an immutable state."""

    def __init__(self, state: IceAndFireState) -> None:
        self.state = state
        self.board = state.board
        self.rules = state.rules
        self.league = state.league
        self.max_level = state.max_level
        self.owner = bytearray(state.owner)
        self.active = bytearray(state.active)
        self.owned = [cells_mask(state.owner, RED), cells_mask(state.owner, BLUE)]
        active_mask = cells_mask(state.active, 1)
        self.act = [active_mask & self.owned[RED], active_mask & self.owned[BLUE]]
        self.units: dict[int, list[int]] = {u.id: [u.owner, u.level, u.cell, u.can_act] for u in state.units}
        self.unit_at: list[int] = [0] * CELLS
        for u in state.units:
            self.unit_at[u.cell] = u.id
        self.buildings: list[list[int]] = [[b.owner, b.kind, b.cell] for b in state.buildings]
        self.building_at: list[list[int] | None] = [None] * CELLS
        for b in self.buildings:
            self.building_at[b[2]] = b
        self.gold = list(state.gold)
        self.income = list(state.income)
        self.turn = state.turn
        self.player = state.player
        self.next_id = state.next_id
        self.messages = list(state.messages)
        self.log: list[str] = []
        self.result: Result | None = state.result
        self.taken = (0, RED)  # the cell the last MOVE or TRAIN took, and its owner before

    # -- territory and money -------------------------------------------------------------------

    def set_owner(self, cell: int, player: Player) -> None:
        """``cell`` becomes ``player``'s (its activity is recomputed after the command)."""
        old = self.owner[cell]
        self.taken = (cell, old)
        if old in (RED, BLUE):
            self.owned[old] &= ~(1 << cell)
        self.owned[player] |= 1 << cell
        self.owner[cell] = player

    def compute_active(self, player: Player) -> None:
        """Spec section 4: ``player``'s cells joined to its HQ cell by own cells are active.

        A flood fill from the HQ over bit masks (see :func:`flood`); :func:`territory_bfs` is the
        same rule written cell by cell, and the tests hold the two together.
        """
        hq = HQ_CELLS[player]
        self.act[player] = flood(1 << hq, self.owned[player]) if self.owner[hq] == player else 0
        self.active = bytearray(mask_cells(self.act[RED] | self.act[BLUE]))

    def update_activity(self) -> None:
        """The referee's "recompute active cells of both players" after a MOVE or TRAIN, by its effect.

        The mover's territory gained one cell next to its active land, so its active set grows by
        what that cell joins (a flood through its inactive cells only); the opponent's changes only
        if the cell was the opponent's, and is then recomputed whole. The result equals two full
        recomputations (the tests check it after every ply of random games); it is just cheaper.
        """
        cell, old_owner = self.taken
        player = self.owner[cell]
        if (spread(1 << cell) & self.act[player]) or cell == HQ_CELLS[player]:
            joined = flood(1 << cell, self.owned[player] & ~self.act[player])
            self.act[player] |= joined
        if old_owner == 1 - player:
            hq = HQ_CELLS[old_owner]
            self.act[old_owner] = flood(1 << hq, self.owned[old_owner]) if self.owner[hq] == old_owner else 0
        self.active = bytearray(mask_cells(self.act[RED] | self.act[BLUE]))

    def compute_income(self, player: Player) -> int:
        """Spec section 9: active cells + 4 per MINE on an active cell - upkeep of units on active cells."""
        active = self.active
        total = self.act[player].bit_count()
        total += sum(
            MINE_INCOME for o, kind, c in self.buildings if o == player and kind == MINE and active[c]
        )
        total -= sum(UPKEEP[level] for o, level, c, _ in self.units.values() if o == player and active[c])
        return total

    def update_incomes(self) -> None:
        self.income = [self.compute_income(RED), self.compute_income(BLUE)]

    def military_score(self, player: Player) -> int:
        return self.gold[player] + sum(UNIT_COST[u[1]] for u in self.units.values() if u[0] == player)

    # -- the predicates ------------------------------------------------------------------------

    def is_tower(self, cell: int) -> bool:
        b = self.building_at[cell]
        return b is not None and b[1] == TOWER

    def protected(self, cell: int) -> bool:
        """An owned cell holding a TOWER, or next to an active cell of the same owner holding one."""
        o = self.owner[cell]
        if o not in (RED, BLUE):
            return False
        if self.is_tower(cell):
            return True
        return any(
            self.owner[n] == o and self.active[n] and self.is_tower(n) for n in self.board.neighbours[cell]
        )

    def capturable(self, cell: int, player: Player, level: int) -> bool:
        """Spec section 5, its six steps in order."""
        o = self.owner[cell]
        if o != player and level < CAPTURE_LEVEL:
            if self.active[cell] and self.protected(cell):
                return False
            if self.is_tower(cell):
                return False
        unit_id, building = self.unit_at[cell], self.building_at[cell]
        if not unit_id and building is None:
            return True
        if o == player:
            return False
        if unit_id and level != self.max_level and level <= self.units[unit_id][1]:  # noqa: SIM103 (steps 5 and 6 of spec section 5, kept apart)
            return False
        return True

    def playable(self, cell: int, player: Player) -> bool:
        """Own and active, or a 4-neighbour is own and active."""
        owner, active = self.owner, self.active
        if owner[cell] == player and active[cell]:
            return True
        return any(owner[n] == player and active[n] for n in self.board.neighbours[cell])

    # -- the turn ------------------------------------------------------------------------------

    def note(self, text: str) -> None:
        self.log.append(text)

    def skip(self, command: Command, why: str) -> None:
        self.note(f"{command.to_text()}: ignored, {why}")

    def parse_checks(self, turn: Turn) -> list[Command]:
        """Spec section 12's parse-time checks, all on the position before any command runs."""
        queue: list[Command] = []
        player = self.player
        for command in turn:
            if isinstance(command, Wait):
                continue
            if isinstance(command, Msg):
                self.messages[player] = viewer_message(formats.java_trim("MSG " + command.text)[4:])
                continue
            if isinstance(command, Ignored):
                self.skip(command, command.reason)
                continue
            numbers = command[1:] if isinstance(command, Build) else command
            if any(n > JAVA_INT_MAX for n in numbers):
                self.skip(command, "a number is not a Java int")
                continue
            x, y = command.x, command.y
            if not (x < SIZE and y < SIZE) or self.board.void[cell_of(x, y)]:
                self.skip(command, f"({x},{y}) is not a cell of the map")
                continue
            if isinstance(command, Train) and not 1 <= command.level <= self.max_level:
                self.skip(command, f"level {command.level} is not trainable in {self.league}")
                continue
            if isinstance(command, Move):
                unit = self.units.get(command.id)
                if unit is None:
                    self.skip(command, f"no unit {command.id} alive at the start of the turn")
                    continue
                if unit[0] != player:
                    self.skip(command, f"unit {command.id} is not {PLAYER_NAMES[player]}'s")
                    continue
            queue.append(command)
        return queue

    def play(self, turn: Turn) -> None:
        """The player to move plays ``turn``; then the next turn starts, or the game ends."""
        self.log = []
        if self.run(turn) and self.result is None:
            # The referee recomputes both incomes after every action; nothing reads them before the
            # next recomputation, so once after the last action leaves the same values.
            self.update_incomes()
        if self.result is None:
            self.next_turn()

    def run(self, commands: Turn) -> bool:
        """The commands of a turn in order, after the parse-time checks; True when one was carried out.

        Stops at a captured HQ (the game is then over). The turn itself does not end here.
        """
        changed = False
        for command in self.parse_checks(commands):
            if isinstance(command, Move):
                done = self.move(command)
            elif isinstance(command, Train):
                done = self.train(command)
            else:
                assert isinstance(command, Build)
                done = self.build(command)
            if done is not None:
                self.skip(command, done)
                continue
            changed = True
            if isinstance(command, Move | Train):
                self.update_activity()
                if self.check_hqs():
                    return True
        return changed

    def clear(self, cell: int) -> None:
        """An enemy unit on ``cell`` dies; an enemy MINE or TOWER is destroyed; an HQ stays."""
        unit_id = self.unit_at[cell]
        if unit_id:
            del self.units[unit_id]
            self.unit_at[cell] = 0
        building = self.building_at[cell]
        if building is not None and building[1] != HQ:
            self.buildings.remove(building)
            self.building_at[cell] = None

    def check_train(self, command: Train) -> str | None:
        """Spec section 6's checks: why the TRAIN would be skipped now, or None when it would be done."""
        player, level, cell = self.player, command.level, cell_of(command.x, command.y)
        if not self.playable(cell, player):
            return f"({command.x},{command.y}) is not playable"
        if level > self.max_level:
            return f"level {level} is above {self.max_level}"
        if self.gold[player] < UNIT_COST[level]:
            return f"not enough gold ({self.gold[player]} for {UNIT_COST[level]})"
        if not self.capturable(cell, player, level):
            return f"a level {level} unit cannot take ({command.x},{command.y})"
        return None

    def train(self, command: Train) -> str | None:
        """Spec section 6; the reason it is skipped, or None when done."""
        problem = self.check_train(command)
        if problem is not None:
            return problem
        player, level, cell = self.player, command.level, cell_of(command.x, command.y)
        self.clear(cell)
        self.set_owner(cell, player)
        self.units[self.next_id] = [player, level, cell, False]
        self.unit_at[cell] = self.next_id
        self.next_id += 1
        self.gold[player] -= UNIT_COST[level]
        return None

    def check_move(self, command: Move) -> int | str:
        """Spec section 7's checks and path-finding step: why the MOVE would be skipped now, else the
        cell the unit would enter."""
        player = self.player
        _, level, source, can_act = self.units[command.id]
        target = cell_of(command.x, command.y)
        if not can_act:
            return f"unit {command.id} has already moved or was trained this turn"
        sx, sy = xy(source)
        if abs(sx - command.x) + abs(sy - command.y) == 1 and not self.capturable(target, player, level):
            return f"unit {command.id} cannot take ({command.x},{command.y})"
        best, best_d = source, self.board.distance(source, target)
        for n in self.board.ordered[player][source]:
            d = self.board.distance(n, target)
            if d < best_d and self.capturable(n, player, level):
                best, best_d = n, d
        if best == source:
            return f"unit {command.id} has no free cell closer to ({command.x},{command.y})"
        return best

    def move(self, command: Move) -> str | None:
        """Spec section 7, with the path-finding step; the reason it is skipped, or None."""
        best = self.check_move(command)
        if isinstance(best, str):
            return best
        unit = self.units[command.id]
        source = unit[2]
        self.clear(best)
        self.unit_at[source] = 0
        self.unit_at[best] = command.id
        unit[2], unit[3] = best, False
        self.set_owner(best, self.player)
        return None

    def check_build(self, command: Build) -> tuple[int, int] | str:
        """Spec section 8's checks: why the BUILD would be skipped now, else the building's kind and cost."""
        player, cell = self.player, cell_of(command.x, command.y)
        where = f"({command.x},{command.y})"
        if not self.playable(cell, player):
            return f"{where} is not playable"
        if self.league in ("wood3", "wood2") or (
            self.rules == "multi" and self.league == "wood1" and command.kind == "TOWER"
        ):
            return f"no {command.kind} in {self.league}"
        if self.unit_at[cell] or self.building_at[cell] is not None:
            return f"{where} is not free"
        if self.owner[cell] != player:
            return f"{where} is not {PLAYER_NAMES[player]}'s"
        if command.kind == "MINE":
            mines = sum(1 for o, kind, _ in self.buildings if o == player and kind == MINE)
            cost, kind = mine_cost(self.rules, mines), MINE
        else:
            cost, kind = TOWER_COST, TOWER
        if self.gold[player] < cost:
            return f"not enough gold ({self.gold[player]} for {cost})"
        if kind == MINE and not self.board.spot[cell]:
            return f"{where} is not a mine spot"
        if kind == TOWER and self.board.spot[cell]:
            return f"{where} is a mine spot"
        return kind, cost

    def build(self, command: Build) -> str | None:
        """Spec section 8; the reason it is skipped, or None."""
        checked = self.check_build(command)
        if isinstance(checked, str):
            return checked
        (kind, cost), player, cell = checked, self.player, cell_of(command.x, command.y)
        building = [player, kind, cell]
        self.buildings.append(building)
        self.building_at[cell] = building
        self.gold[player] -= cost
        return None

    def valid_commands(self) -> list[Command]:
        """Every one-cell command the referee would carry out now (see
        :meth:`IceAndFireState.valid_commands`): TRAINs and BUILDs by cell, then MOVEs by unit id.

        Candidates are pruned where a check surely fails (TRAIN only where it may act, BUILD only on
        own cells); every candidate left is decided by the command's own checks.
        """
        player = self.player
        found: list[Command] = []
        reach = (self.act[player] | spread(self.act[player])) & ~cells_mask(self.board.void, 1)
        for cell in mask_indices(reach):
            x, y = xy(cell)
            for level in range(1, self.max_level + 1):
                train = Train(level, x, y)
                if self.check_train(train) is None:
                    found.append(train)
            if self.owner[cell] == player:
                for kind in ("MINE", "TOWER"):
                    build = Build(kind, x, y)
                    if not isinstance(self.check_build(build), str):
                        found.append(build)
        for uid, (owner, _, cell, can_act) in sorted(self.units.items()):
            if owner == player and can_act:
                for n in self.board.neighbours[cell]:
                    move = Move(uid, n % SIZE, n // SIZE)
                    if not isinstance(self.check_move(move), str):
                        found.append(move)
        return found

    def check_hqs(self) -> bool:
        """An HQ whose cell now has another owner: its owner loses at once (True if the game ended)."""
        for o, kind, cell in self.buildings:
            if kind == HQ and self.owner[cell] != o:
                self.update_incomes()
                scores = [self.military_score(RED), self.military_score(BLUE)]
                scores[o] = -1
                returns = (-1.0, 1.0) if o == RED else (1.0, -1.0)
                reason = f"{PLAYER_NAMES[1 - o]} captured {PLAYER_NAMES[o]}'s HQ on turn {self.turn}"
                self.result = Result(returns, "normal", reason, None, (scores[0], scores[1]))
                self.note(reason)
                return True
        return False

    def next_turn(self) -> None:
        """Spec section 3: the next player's turn start, or the end by score after turn 100."""
        player = 1 - self.player
        self.player = player
        if player == RED:
            self.turn += 1
            if self.turn > MAX_TURNS:
                self.end_by_score()
                return
        self.compute_active(player)
        lost = [uid for uid, u in self.units.items() if u[0] == player and not self.active[u[2]]]
        for uid in lost:
            self.unit_at[self.units.pop(uid)[2]] = 0
        if lost:
            self.note(f"{PLAYER_NAMES[player]} loses units {', '.join(map(str, lost))} cut off from its HQ")
        self.update_incomes()
        self.gold[player] += self.income[player]
        if self.gold[player] < 0:
            self.gold[player] = 0
            wiped = [uid for uid, u in self.units.items() if u[0] == player]
            for uid in wiped:
                self.unit_at[self.units.pop(uid)[2]] = 0
            self.note(
                f"{PLAYER_NAMES[player]} cannot pay its upkeep: gold 0 and all {len(wiped)} units removed"
            )
        for u in self.units.values():
            if u[0] == player:
                u[3] = True
        self.messages[player] = ""

    def end_by_score(self) -> None:
        """Spec section 10.3: gold plus the cost of the units alive; the higher wins, equal is a draw."""
        scores = (self.military_score(RED), self.military_score(BLUE))
        if scores[0] == scores[1]:
            returns, reason = (0.0, 0.0), f"turn limit: a draw at {scores[0]} each"
        else:
            winner = 0 if scores[0] > scores[1] else 1
            returns = (1.0, -1.0) if winner == 0 else (-1.0, 1.0)
            reason = f"turn limit: {PLAYER_NAMES[winner]} wins on military score {scores[0]} to {scores[1]}"
        self.result = Result(returns, "normal", reason, None, scores)
        self.note(reason)

    def freeze(self, turn: Turn, played_by: Player | None) -> IceAndFireState:
        """The immutable state after the turn."""
        units = tuple(
            Unit(uid, o, level, cell % SIZE, cell // SIZE, bool(can_act))
            for uid, (o, level, cell, can_act) in sorted(self.units.items())
        )
        buildings = tuple(Building(o, kind, cell % SIZE, cell // SIZE) for o, kind, cell in self.buildings)
        return IceAndFireState(
            rules=self.rules,
            league=self.league,
            board=self.board,
            seed=self.state.seed,
            owner=bytes(self.owner),
            active=bytes(self.active),
            units=units,
            buildings=buildings,
            gold=(self.gold[0], self.gold[1]),
            income=(self.income[0], self.income[1]),
            turn=self.turn,
            player=self.player,
            next_id=self.next_id,
            messages=(self.messages[0], self.messages[1]),
            last_turn=turn,
            last_player=played_by,
            log=tuple(self.log),
            result=self.result,
        )


def random_turn(state: IceAndFireState, rng: random.Random) -> Turn:
    """A random turn whose commands all pass the referee's checks when played in order.

    Each unit that may move steps, with probability 3/4, to a random capturable neighbour; then up to
    three TRAINs on random playable cells at an affordable random level (level 1 most of the time);
    then, one turn in five, a TOWER or MINE on a random own free cell. Every command is run on a
    private referee first, so chains and spent gold are taken into account.

    For speed the private referee recomputes only the mover's activity, and only before and during
    the trains. Stale flags are safe here: during its own turn a player's territory only grows and the
    opponent's only shrinks, so a stale check refuses more than the referee would, never less, and a
    one-cell MOVE ends on its target whenever it is accepted.
    """
    referee = Referee(state)
    player = state.player
    commands: list[Command] = []

    def attempt(command: Move | Train | Build, action: str | None) -> None:
        if action is None:
            commands.append(command)
            if isinstance(command, Train):
                referee.compute_active(player)

    for unit in state.units:
        if unit.owner != player or rng.random() < 0.25:
            continue
        options = [n for n in state.board.neighbours[unit.cell] if referee.capturable(n, player, unit.level)]
        if options:
            x, y = xy(rng.choice(options))
            command = Move(unit.id, x, y)
            attempt(command, referee.move(command))
    land = FULL_MASK & ~cells_mask(state.board.void, 1)
    referee.compute_active(player)
    for _ in range(rng.randrange(4)):
        frontier = spread(referee.act[player]) & land & ~referee.owned[player]
        if not frontier or referee.gold[player] < UNIT_COST[1]:
            break
        level = 1 if rng.random() < 0.8 else rng.randint(1, state.max_level)
        x, y = xy(rng.choice(mask_indices(frontier)))
        train = Train(level, x, y)
        attempt(train, referee.train(train))
    if rng.random() < 0.2 and state.league not in ("wood3", "wood2"):
        x, y = xy(rng.choice(mask_indices(referee.act[player])))
        build = Build(rng.choice(("MINE", "TOWER")), x, y)
        attempt(build, referee.build(build))
    return tuple(commands) if commands else (Wait(),)


def state_from_rows(
    cells: Sequence[str],
    *,
    game: IceAndFire | None = None,
    units: Sequence[tuple[int, int, int, int, int]] = (),
    buildings: Sequence[tuple[int, int, int, int]] = (),
    gold: tuple[int, int] = (100, 100),
    spots: Sequence[tuple[int, int]] = (),
    player: Player = RED,
    turn: int = 10,
) -> IceAndFireState:
    """A position drawn by hand, for tests and puzzles: ``cells`` rows as in the JSON (``#`` void,
    ``.`` neutral, ``R``/``B`` owned; activity is recomputed), units as (id, owner, level, x, y) (all
    may act), extra buildings as (owner, kind, x, y) (the HQs are added), incomes computed.

    The state is the one the player to move sees at the start of its turn, without the turn start
    (no income credited, no unit removed).
    """
    game = game or IceAndFire()
    rows = tuple("".join("#" if ch == "#" else "." for ch in row) for row in cells)
    board = make_board(rows, tuple(spots))
    owner = bytes(
        {"#": VOID, ".": NEUTRAL, "R": RED, "r": RED, "B": BLUE, "b": BLUE}[ch] for row in cells for ch in row
    )
    state = IceAndFireState(
        rules=game.rules,
        league=game.league,
        board=board,
        seed=None,
        owner=owner,
        active=bytes(CELLS),
        units=tuple(Unit(i, o, lv, x, y, True) for i, o, lv, x, y in sorted(units)),
        buildings=(
            Building(RED, HQ, 0, 0),
            Building(BLUE, HQ, SIZE - 1, SIZE - 1),
            *(Building(*b) for b in buildings),
        ),
        gold=gold,
        income=(0, 0),
        turn=turn,
        player=player,
        next_id=max((u[0] for u in units), default=0) + 1,
    )
    placed: tuple[Unit | Building, ...] = (*state.units, *state.buildings[2:])
    for thing in placed:
        if state.owner[thing.cell] != thing.owner:
            raise StateFormatError(f"iceandfire: {thing!r} does not stand on a cell of its owner")
    referee = Referee(state)
    referee.compute_active(RED)
    referee.compute_active(BLUE)
    referee.update_incomes()
    return referee.freeze((), None)
