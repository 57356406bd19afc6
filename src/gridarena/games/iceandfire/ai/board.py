"""The bots' own board: a mutable, seat-relative model of one turn, built from the CodinGame input.

Bots plan inside one turn: they try a chain of trains, undo it, try a tower, and so on. The referee's
states are immutable and keep the full history (messages, ids, both clocks); the bots need a flat,
cheap copy of what the input shows. The rules a plan touches (who may enter which cell, the MOVE
step, activity, income) are the referee's own, inherited from
:class:`~gridarena.games.iceandfire.cells.Cells`; this module adds what only planning needs: copies,
a cache of searches, chains whose activity is settled once at their end, and a look one turn ahead.
Everything here is relative to the bot: player 0 is the bot (``ME``), player 1 its opponent
(``OPP``), exactly as in the CodinGame input, so the same code runs inside the arena and behind a
CodinGame submission.

Cells are integers ``i = y * 12 + x``. The tests hold the board to the referee: every command a bot
emits through :meth:`Board.train` / :meth:`Board.move` / :meth:`Board.build` must be one the referee
executes.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from gridarena.core.clock import TimeControl
from gridarena.games.iceandfire.cells import Cells
from gridarena.games.iceandfire.formats import TurnInput, parse_spots
from gridarena.games.iceandfire.geometry import (
    CELLS,
    HQ,
    HQ_CELLS,
    MINE,
    NEUTRAL,
    NO_BUILDING,
    SIZE,
    TOWER,
    TOWER_COST,
    UNIT_COST,
    VOID,
    build_refused,
    cell_of,
    cells_mask,
    make_board,
    mask_indices,
    max_level,
)
from gridarena.games.iceandfire.geometry import (
    Board as Layout,
)
from gridarena.games.iceandfire.protocol import CodinGameBot

ME: Final = 0
OPP: Final = 1

#: What the bots' distance rows hold between cells with no path (a void cell): farther than any path.
FAR: Final = CELLS * 4


@dataclass(frozen=True, slots=True)
class MapInfo:
    """The map as the bots read it: void cells, mine spots, neighbours, distance rows and near cells,
    all derived from the referee's :class:`~gridarena.games.iceandfire.geometry.Board` (``layout``)."""

    layout: Layout
    void: tuple[bool, ...]
    spots: frozenset[int]
    neighbours: tuple[tuple[int, ...], ...]  # non-void 4-neighbours of each cell (none for a void cell)
    dist: tuple[tuple[int, ...], ...]  # shortest path over non-void cells (the referee's Pathfinding)
    near: tuple[tuple[int, ...], ...]  # non-void cells within path distance 2 of each cell

    @classmethod
    def build(cls, layout: Layout, spots: Sequence[int]) -> MapInfo:
        """The tables of ``layout`` (``spots``: the mine spots as cells, in input order)."""
        return _map_info(layout, tuple(spots))


@lru_cache(maxsize=64)
def _map_info(layout: Layout, spots: tuple[int, ...]) -> MapInfo:
    void = tuple(bool(v) for v in layout.void)
    neighbours = tuple(() if void[i] else layout.neighbours[i] for i in range(CELLS))
    flat = layout.dist
    dist = tuple(
        tuple(FAR if d == 255 else d for d in flat[s * CELLS : (s + 1) * CELLS])
        if not void[s]
        else (FAR,) * CELLS
        for s in range(CELLS)
    )
    near = tuple(tuple(c for c in range(CELLS) if dist[s][c] <= 2) for s in range(CELLS))
    return MapInfo(layout, void, frozenset(spots), neighbours, dist, near)


class Board(Cells):
    """One turn's position from the bot's side, with the referee's rules; mutable, cheap to copy.

    Besides the cells of :class:`~gridarena.games.iceandfire.cells.Cells` (``owner``: ME, OPP,
    ``NEUTRAL`` or ``VOID``): ``unit_owner[i]`` (``NEUTRAL`` for none) and ``unit_id[i]``;
    ``moved[i]``: the unit on i can no longer act this turn; gold and incomes; ``won``.
    """

    __slots__ = (
        "cache",
        "floods",
        "gold",
        "income",
        "info",
        "league",
        "moved",
        "pending",
        "red",
        "stop",
        "unit_id",
        "unit_owner",
        "won",
    )

    def __init__(self, info: MapInfo, red: bool, rules: str = "contest", league: str = "bronze") -> None:
        self.info = info
        self.layout = info.layout
        self.rules, self.league, self.max_level = rules, league, max_level(league)
        self.owner = bytearray(VOID if v else NEUTRAL for v in info.void)
        self.active = bytearray(CELLS)
        self.owned = [0, 0]
        self.act = [0, 0]
        self.unit_level = bytearray(CELLS)
        self.unit_owner = bytearray([NEUTRAL]) * CELLS
        self.unit_id = [0] * CELLS
        self.moved = [False] * CELLS
        self.building = [NO_BUILDING] * CELLS
        self.gold = [0, 0]
        self.income = [0, 0]
        self.hq = list(HQ_CELLS) if red else [HQ_CELLS[1], HQ_CELLS[0]]
        ordered = info.layout.ordered
        self.orders = ordered if red else (ordered[1], ordered[0])
        self.red = red
        self.won: int | None = None  # the player whose unit took the other HQ during the plan
        #: Deferred takes (cell, owner before, active before) that :meth:`settle` has not resolved.
        self.pending: list[tuple[int, int, int]] = []
        #: Floods that changed cells other than the one taken (a chain's score reads only its cells
        #: when this has not moved: tactics.summary_after).
        self.floods = 0
        #: Asked by the searches (:func:`~gridarena.games.iceandfire.ai.tactics.check_time`): once it
        #: has expired they raise :class:`~gridarena.search.errors.SearchAborted`. Copies share it.
        self.stop: TimeControl | None = None
        #: Searches of this exact position (see :meth:`cached`), shared with copies until either changes.
        self.cache: dict[tuple[object, ...], object] | None = None

    def copy(self) -> Board:
        """A copy to try a plan on (the cells copied; the map shared)."""
        b = Board.__new__(Board)
        b.info, b.layout, b.red, b.rules, b.league, b.won = (
            self.info,
            self.layout,
            self.red,
            self.rules,
            self.league,
            self.won,
        )
        b.max_level, b.hq, b.orders = self.max_level, self.hq[:], self.orders
        b.owner = self.owner[:]
        b.active = self.active[:]
        b.owned = self.owned[:]
        b.act = self.act[:]
        b.unit_level = self.unit_level[:]
        b.unit_owner = self.unit_owner[:]
        b.unit_id = self.unit_id[:]
        b.moved = self.moved[:]
        b.building = self.building[:]
        b.gold = self.gold[:]
        b.income = self.income[:]
        b.pending = self.pending[:] if self.pending else []
        b.floods = self.floods
        b.stop = self.stop
        b.cache = self.cache
        return b

    def changed(self) -> None:
        """Forget the cached searches: every change of the position calls this (the mutators below,
        and code that writes the lists of a fresh copy directly)."""
        self.cache = None

    def cached(self, key: tuple[object, ...]) -> object | None:
        """A search of this position stored under ``key`` by :meth:`remember`, or None."""
        return None if self.cache is None else self.cache.get(key)

    def remember(self, key: tuple[object, ...], value: object) -> None:
        """Store a search of this position (copies made before a change see it too)."""
        if self.cache is None:
            self.cache = {}
        self.cache[key] = value

    # -- reading ------------------------------------------------------------------------------

    def free(self, i: int) -> bool:
        """No unit and no building on i."""
        return self.unit_level[i] == 0 and self.building[i] == NO_BUILDING

    def units(self, player: int) -> Iterator[int]:
        """Cells holding a unit of ``player``, by unit id (the input order)."""
        cells = [i for i in range(CELLS) if self.unit_level[i] and self.unit_owner[i] == player]
        return iter(sorted(cells, key=lambda i: self.unit_id[i]))

    def min_level(self, i: int, player: int) -> int:
        """The cheapest level that may enter i (0 if none may: own buildings and units)."""
        for level in range(1, self.max_level + 1):
            if self.capturable(i, player, level):
                return level
        return 0

    def min_levels(self, player: int) -> list[int]:
        """:meth:`min_level` of every cell at once, 0 on void cells and ``player``'s active ones.

        The same answers in one pass (the chain search asks for all 144): an own cell takes a level-1
        unit if it is free; another cell needs level 3 behind a tower's protection, else one level
        above the unit on it, or the top level, which takes any unit.
        """
        owner, active, building = self.owner, self.active, self.building
        unit_level, neighbours, void = self.unit_level, self.info.neighbours, self.info.void
        top = self.max_level
        guarded = 3 if top >= 3 else 0
        # By the level of the unit on a cell (0: none): one above it, or the top level, which kills any.
        enter = (1, min(2, top), min(3, top), top)
        shielded = [False] * CELLS  # protected(i) for cells of an active tower's owner
        for t in range(CELLS):
            if building[t] == TOWER:
                o = owner[t]
                shielded[t] = True
                if active[t]:
                    for n in neighbours[t]:
                        if owner[n] == o:
                            shielded[n] = True
        out = [0] * CELLS
        for i in range(CELLS):
            if void[i]:
                continue
            o = owner[i]
            if o == player:
                if not active[i] and unit_level[i] == 0 and building[i] == NO_BUILDING:
                    out[i] = 1
                continue
            if building[i] == TOWER or (active[i] and shielded[i]):
                out[i] = guarded
                continue
            out[i] = enter[unit_level[i]]
        return out

    def active_lead(self) -> int:
        """Our active cells less the opponent's (the judge's ``cells_leaf``, the oracle's measure)."""
        return (self.act[ME] & self.owned[ME]).bit_count() - (self.act[OPP] & self.owned[OPP]).bit_count()

    def cells_of(self, player: int, active: bool = True) -> list[int]:
        """Cells owned by ``player`` (only the active ones unless ``active`` is False)."""
        return mask_indices(self.act[player] & self.owned[player] if active else self.owned[player])

    # -- activity ---------------------------------------------------------------------------------

    def recompute_activity(self) -> None:
        """Flood fill from both HQs (activity): the oracle the incremental updates below must equal."""
        self.activate(ME)
        self.activate(OPP)
        self.show_activity()
        self.pending = []
        self.floods += 1
        self.cache = None

    def _join(self, i: int, player: int) -> None:
        """``player`` now owns i: it and the own cells it reconnects become active if it touches the
        active territory (counted in ``floods`` when cells besides i join)."""
        joined = self.join(i, player)
        if joined == 1 << i or not joined:
            self.active[i] = 1 if joined else 0
            return
        self.floods += joined.bit_count() - 1
        active = self.active
        for c in mask_indices(joined):
            active[c] = 1

    def settle(self) -> None:
        """Resolve the deferred takes of a chain: what :meth:`recompute_activity` would give, faster.

        The board was consistent before the chain and a chain only adds cells to its player, so the
        player's side grows from the chain's cells, and the opponent is flooded again only when the
        chain took one of its active cells that may cut it (the simple-point test, with the chain's
        cells not yet resolved still counted as the opponent's).
        """
        pending = self.pending
        if not pending:
            return
        self.pending = []
        self.cache = None
        owner = self.owner
        inside = self.act[:]  # each player's active cells before the chain, less those resolved
        refloods = set()
        for i, prev, was_active in pending:
            player = owner[i]
            if prev == player and was_active:
                continue
            self._join(i, player)
            if prev == 1 - player and was_active:
                inside[prev] &= ~(1 << i)
                if prev not in refloods and self.may_cut(i, prev, inside[prev]):
                    refloods.add(prev)
        for p in (ME, OPP):
            if p in refloods:
                self.activate(p)
                self.floods += 1
            else:
                self.act[p] &= self.owned[p]  # the cells the chain took from p leave its active set
        if refloods:
            self.show_activity()

    def _clear(self, i: int, player: int) -> None:
        if self.unit_level[i] and self.unit_owner[i] != player:
            self.unit_level[i], self.unit_owner[i], self.unit_id[i] = 0, NEUTRAL, 0
        if self.building[i] in (MINE, TOWER) and self.owner[i] != player:
            self.building[i] = NO_BUILDING

    def _take(self, i: int, player: int, defer: bool = False) -> None:
        self.cache = None
        was_active = self.active[i]
        prev = self.claim(i, player)
        if i == self.hq[1 - player]:
            self.won = player
        if defer:
            # A chain cell joins an active own neighbour: it is active at once; the opponent's side
            # (cells this one cut off) waits for the caller's settle().
            self.act[player] |= 1 << i
            self.active[i] = 1
            self.pending.append((i, prev, was_active))
            return
        if self.pending:
            self.pending.append((i, prev, was_active))
            self.settle()
            return
        if prev == player and was_active:
            return
        self._join(i, player)
        if prev == 1 - player and was_active and self.lose(i, prev):
            self.floods += 1
            self.show_activity()

    # -- changing -----------------------------------------------------------------------------

    def can_train(self, i: int, level: int, player: int = ME) -> bool:
        """TRAIN's execution checks (and the league's highest level, checked when the line is read)."""
        return (
            not self.info.void[i]
            and level <= self.max_level
            and self.playable(i, player)
            and self.gold[player] >= UNIT_COST[level]
            and self.capturable(i, player, level)
        )

    def train(self, i: int, level: int, player: int = ME, defer: bool = False) -> bool:
        """TRAIN if the referee would accept it; returns whether it did.

        ``defer`` leaves the opponent's activity stale until :meth:`settle` (chains).
        """
        if not self.can_train(i, level, player):
            return False
        self.cache = None
        self._clear(i, player)
        self.unit_level[i], self.unit_owner[i], self.unit_id[i] = level, player, 10_000 + i
        self.moved[i] = True
        self.gold[player] -= UNIT_COST[level]
        self._take(i, player, defer)
        return True

    def step(self, src: int, target: int) -> int:
        """The cell the unit on ``src`` would step to for MOVE to ``target``, or -1."""
        player, level = self.unit_owner[src], self.unit_level[src]
        if self.layout.dist[src * CELLS + target] == 1 and not self.capturable(target, player, level):
            return -1
        return self.path_step(src, target, player, level)

    def move(self, src: int, target: int, defer: bool = False) -> int:
        """MOVE the unit on ``src`` towards ``target``; the cell it reached, or -1 (nothing happened)."""
        if not self.unit_level[src] or self.moved[src]:
            return -1
        dst = self.step(src, target)
        if dst < 0:
            return -1
        player = self.unit_owner[src]
        self.cache = None
        self._clear(dst, player)
        self.unit_level[dst], self.unit_owner[dst], self.unit_id[dst] = (
            self.unit_level[src],
            player,
            self.unit_id[src],
        )
        self.unit_level[src], self.unit_owner[src], self.unit_id[src] = 0, NEUTRAL, 0
        self.moved[src], self.moved[dst] = False, True
        self._take(dst, player, defer and bool(self.active[src]))
        return dst

    def can_build(self, i: int, kind: int, player: int = ME) -> bool:
        """BUILD's execution checks, the league's included."""
        if self.info.void[i] or not self.playable(i, player) or not self.free(i) or self.owner[i] != player:
            return False
        if build_refused(self.rules, self.league, kind):
            return False
        if kind == MINE:
            return i in self.info.spots and self.gold[player] >= self.mine_cost(player)
        return i not in self.info.spots and self.gold[player] >= TOWER_COST

    def build(self, i: int, kind: int, player: int = ME) -> bool:
        """BUILD if the referee would accept it."""
        if not self.can_build(i, kind, player):
            return False
        self.cache = None
        self.gold[player] -= self.mine_cost(player) if kind == MINE else TOWER_COST
        self.building[i] = kind
        return True

    def start_turn(self, player: int) -> None:
        """What the referee does at the start of ``player``'s turn, for looking one turn ahead.

        Units on inactive cells die, the income is credited, a bankrupt player loses every unit, and
        the player's units may act again.
        """
        self.cache = None
        for i in range(CELLS):
            if self.unit_level[i] and self.unit_owner[i] == player and not self.active[i]:
                self.unit_level[i], self.unit_owner[i], self.unit_id[i] = 0, NEUTRAL, 0
        income = self.compute_income(player)
        self.income[player] = income
        self.gold[player] += income
        if self.gold[player] < 0:
            self.gold[player] = 0
            for i in range(CELLS):
                if self.unit_level[i] and self.unit_owner[i] == player:
                    self.unit_level[i], self.unit_owner[i], self.unit_id[i] = 0, NEUTRAL, 0
        for i in range(CELLS):
            if self.unit_owner[i] == player:
                self.moved[i] = False

    def flipped(self) -> Board:
        """The board from the opponent's side: players swapped, every unit free to act."""
        b = self.copy()
        b.owner = self.owner.translate(_SWAP)
        b.unit_owner = self.unit_owner.translate(_SWAP)
        b.owned = [self.owned[OPP], self.owned[ME]]
        b.act = [self.act[OPP], self.act[ME]]
        b.moved = [False] * CELLS
        b.changed()
        b.gold = [self.gold[OPP], self.gold[ME]]
        b.income = [self.income[OPP], self.income[ME]]
        b.hq = [self.hq[OPP], self.hq[ME]]
        b.orders = (self.orders[OPP], self.orders[ME])
        b.red = not self.red
        b.won = None if self.won is None else 1 - self.won
        return b


_SWAP: Final = bytes([OPP, ME, *range(2, 256)])


# -- the CodinGame input ----------------------------------------------------------------------


def parse_init(lines: Sequence[str]) -> list[int]:
    """The initialization input: the mine spots as cells, in input order."""
    return [cell_of(x, y) for x, y in parse_spots(lines)]


def board_from_input(
    turn: TurnInput,
    spots: Sequence[int],
    info: MapInfo | None = None,
    rules: str = "contest",
    league: str = "bronze",
) -> Board:
    """The :class:`Board` of a turn's input (``info`` reused from an earlier turn when given)."""
    if info is None:
        rows = tuple("".join("#" if ch == "#" else "." for ch in row) for row in turn.rows)
        layout = make_board(rows, tuple(sorted((c % SIZE, c // SIZE) for c in spots)))
        info = MapInfo.build(layout, spots)
    red = turn.my_hq() == (0, 0)
    b = Board(info, red, rules, league)
    marks = "".join(turn.rows).encode()
    for i, ch in enumerate(marks):
        if ch in b"Oo":
            b.owner[i] = ME
        elif ch in b"Xx":
            b.owner[i] = OPP
    b.owned = [cells_mask(b.owner, ME), cells_mask(b.owner, OPP)]
    shown = cells_mask(marks.translate(_ACTIVE_MARKS), 1)
    b.act = [b.owned[ME] & shown, b.owned[OPP] & shown]
    b.show_activity()
    for owner, kind, x, y in turn.buildings:
        i = cell_of(x, y)
        b.building[i] = kind
        if kind == HQ:
            b.hq[owner] = i
    for owner, uid, level, x, y in turn.units:
        i = cell_of(x, y)
        b.unit_level[i], b.unit_owner[i], b.unit_id[i] = level, owner, uid
    b.gold = [turn.gold, turn.opp_gold]
    b.income = [turn.income, turn.opp_income]
    return b


#: The input's map characters to 1 for an active cell (``O``, ``X``), 0 otherwise.
_ACTIVE_MARKS: Final = bytes(1 if chr(c) in "OX" else 0 for c in range(256))


class BoardBot(CodinGameBot):
    """A bot that plans on the bots' board: each turn's input becomes a :class:`Board` and
    :meth:`plan` returns the commands (the map's tables are built on the first turn and kept)."""

    def new_game(self) -> None:
        """Forget the map."""
        self.spots: list[int] = []
        self.info: MapInfo | None = None

    def start(self, lines: Sequence[str]) -> None:
        """Mine spots."""
        self.spots = parse_init(lines)

    def turn(self, lines: Sequence[str]) -> str:
        """Read the input, plan, and return the line."""
        board = board_from_input(TurnInput.parse(lines), self.spots, self.info, self.rules, self.league)
        self.info = board.info
        commands = self.plan(board)
        return ";".join(commands) if commands else "WAIT"

    def plan(self, board: Board) -> list[str]:
        """The turn's commands."""
        return self.play_turn(board)[0]

    def play_turn(self, board: Board) -> tuple[list[str], Board]:
        """The turn's commands and the board after them (``board`` may be changed): what a bot
        playing as an opponent model inside another's search answers."""
        raise NotImplementedError

    def out_of_time(self, margin: float = 0.01) -> bool:
        """Whether the turn's deadline is less than ``margin`` seconds away (no deadline: never)."""
        return self.control.time_left() < margin
