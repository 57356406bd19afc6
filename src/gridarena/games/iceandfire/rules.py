"""A Code of Ice and Fire (CodinGame, May 2019): the game and its states, as its referee plays it.

Two players alternate whole turns, red (player 0, HQ at (0,0)) first. One action is a
:data:`~gridarena.games.iceandfire.formats.Turn`, the commands of one output line. A state is always
*at the start of the mover's turn*: its activity recomputed, its cut-off units removed, its income
credited (and its army wiped out if the gold went negative), exactly as the referee does before it
sends the player its input. Applying a turn runs the referee (``referee.py``): its parse-time checks
on the position before any command, then each command in order (a failed check skips the command
with a message kept in :attr:`IceAndFireState.log`), then the next player's turn start, or the end of
the game. The state's text (``to_text``, the CodinGame input) and JSON are here too.

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
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import ClassVar

from gridarena.core.errors import IllegalActionError, StateFormatError
from gridarena.core.params import Choice, Param, check_params
from gridarena.core.types import JSON, TERMINAL, BaseState, Outcome, Player
from gridarena.games.iceandfire.formats import (
    LEAGUES,
    RULES,
    Command,
    Turn,
    TurnInput,
    check_turn,
    parse_line,
    spots_text,
    turn_to_text,
)
from gridarena.games.iceandfire.geometry import (
    BLUE,
    BLUE_START_CELL,
    CELLS,
    HQ,
    HQ_CELLS,
    MAX_TURNS,
    MINE,
    NEUTRAL,
    PLAYER_NAMES,
    RED,
    SIZE,
    START_GOLD,
    UNIT_COST,
    VOID,
    Board,
    make_board,
    max_level,
    mine_cost,
    xy,
)
from gridarena.games.iceandfire.mapgen import generate
from gridarena.games.iceandfire.referee import Building, Referee, Result, Unit, random_turn


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
    #: The parameters and their ranges (docs/iceandfire.md lists them).
    PARAMETERS: ClassVar[Mapping[str, Param]] = {"rules": Choice(RULES), "league": Choice(LEAGUES)}

    def __post_init__(self) -> None:
        check_params(self.name, self.PARAMETERS, self.params)

    @property
    def params(self) -> Mapping[str, JSON]:
        """The game's parameters, as given to ``make``."""
        return {"rules": self.rules, "league": self.league}

    @property
    def max_level(self) -> int:
        """The highest trainable level (``MAX_LEVEL``): 1 in Wood 3, else 3."""
        return max_level(self.league)

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
    """The referee's initial position on ``board`` (HQs, 20 gold each), then the start of red's first turn."""
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
    return frozen(state, referee, (), None)


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
        return frozen(self, referee, tuple(action), self.player, self.ply + 1)

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
        """The referee's line parser; ActionParseError for a line that loses."""
        return parse_line(text, self.rules)

    def to_json(self) -> dict[str, JSON]:
        """The whole state as JSON (the map, owners and activity as rows, units, buildings, ...)."""
        return state_to_json(self)

    def to_text(self) -> str:
        """The 12 rows with owners, activity, units and buildings, then gold, units and the log."""
        return state_to_text(self)

    # -- what bots need ------------------------------------------------------------------------

    @property
    def max_level(self) -> int:
        """The highest trainable level in this league."""
        return max_level(self.league)

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
        """May a level-``level`` unit of ``player`` enter ``cell`` (train on it or move onto it)?"""
        return Referee(self).capturable(cell, player, level)

    def playable(self, cell: int, player: Player) -> bool:
        """Own and active, or next to an own active cell: where TRAIN and BUILD may act."""
        return Referee(self).playable(cell, player)

    def valid_commands(self) -> list[Command]:
        """Every one-cell command the referee would carry out if the mover gave it next
        (:meth:`Referee.valid_commands <gridarena.games.iceandfire.referee.Referee.valid_commands>`)."""
        return Referee(self).valid_commands()

    def legal_texts(self) -> list[str]:
        """What an external program is offered as ``legal``: ``WAIT``, then every single command of
        :meth:`valid_commands` as text (``TRAIN 1 1 0``, ``MOVE 4 2 1``); empty at the end
        (:class:`~gridarena.core.types.OffersLegalTexts`).

        Each is a whole turn as it is; a program may join several with ``;`` (each is then checked on
        the position the ones before it leave, and skipped if it fails, as on CodinGame). At most 3
        TRAINs and 2 BUILDs per cell and 4 MOVEs per unit.

        >>> IceAndFire().new_initial_state(seed=1).legal_texts()
        ['WAIT', 'TRAIN 1 1 0', 'TRAIN 2 1 0', 'TRAIN 1 0 1', 'TRAIN 2 0 1']
        """
        if self.result is not None:
            return []
        return ["WAIT", *(command.to_text() for command in self.valid_commands())]

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
        return frozen(self, referee, self.last_turn, self.last_player, self.ply)

    def codingame_init(self, player: Player) -> str:
        """The statement's initialization input (mine spots), sent once before the first turn."""
        return spots_text(self.board.spots)

    def codingame_turn(self, player: Player) -> str:
        """``player``'s game turn input: its gold and income, the opponent's, the map from
        its side, the buildings and the units (its own first)."""
        other = 1 - player
        return TurnInput(
            self.gold[player],
            self.income[player],
            self.gold[other],
            self.income[other],
            owner_rows(self, "OX" if player == 0 else "XO"),
            sorted((int(b.owner != player), b.kind, b.x, b.y) for b in self.buildings),
            sorted((int(u.owner != player), u.id, u.level, u.x, u.y) for u in self.units),
        ).to_text()


def military_score(state: IceAndFireState, player: Player) -> int:
    """Gold plus the training cost of every unit alive (on active or inactive cells)."""
    return state.gold[player] + sum(UNIT_COST[u.level] for u in state.units if u.owner == player)


def frozen(
    state: IceAndFireState, referee: Referee, turn: Turn, played_by: Player | None, ply: int = 0
) -> IceAndFireState:
    """The immutable state the referee leaves after ``turn`` (played by ``played_by``) on ``state``."""
    return IceAndFireState(
        rules=state.rules,
        league=state.league,
        board=state.board,
        seed=state.seed,
        owner=bytes(referee.owner),
        active=bytes(referee.active),
        units=referee.units_frozen(),
        buildings=referee.buildings_frozen(),
        gold=(referee.gold[0], referee.gold[1]),
        income=(referee.income[0], referee.income[1]),
        turn=referee.turn,
        player=referee.player,
        next_id=referee.next_id,
        messages=(referee.messages[0], referee.messages[1]),
        last_turn=turn,
        last_player=played_by,
        log=tuple(referee.log),
        result=referee.result,
        ply=ply,
    )


# -- the state as text ----------------------------------------------------------------------

KIND_CHARS = "HMT"
"""What a building shows in pictures, by kind."""


def owner_rows(state: IceAndFireState, marks: str = "RB") -> list[str]:
    """The 12 rows of owners: ``#`` void, ``.`` neutral, else ``marks[owner]``, lower case when
    inactive (``RB`` for pictures and replays; ``OX`` or ``XO``, the reader's own first, for the
    CodinGame input)."""
    chars = []
    for c in range(CELLS):
        o = state.owner[c]
        if o == VOID:
            chars.append("#")
        elif o == NEUTRAL:
            chars.append(".")
        else:
            chars.append(marks[o] if state.active[c] else marks[o].lower())
    return ["".join(chars[y * SIZE : (y + 1) * SIZE]) for y in range(SIZE)]


def cell_chars(state: IceAndFireState) -> list[str]:
    """Two characters per cell: the owner (``#`` void, ``.`` neutral, ``R``/``r`` red active/inactive,
    ``B``/``b`` blue), then what stands there (``1``-``3`` a unit's level, ``H`` HQ, ``M`` mine, ``T``
    tower, ``*`` an empty mine spot, a space for nothing)."""
    owners = "".join(owner_rows(state))
    out = []
    for c in range(CELLS):
        first = owners[c]
        second = "*" if state.board.spot[c] else " "
        out.append(first + second)
    for b in state.buildings:
        out[b.cell] = out[b.cell][0] + KIND_CHARS[b.kind]
    for u in state.units:
        out[u.cell] = out[u.cell][0] + str(u.level)
    return out


def state_to_text(state: IceAndFireState) -> str:
    """Who is to move (or how the game ended) and both players' figures, the board (12 rows of 12
    two-character cells), the units, the turn just played and the referee's messages about it."""
    lines = status_lines(state)
    chars = cell_chars(state)
    lines.append("    " + " ".join(f"{x:<2d}" for x in range(SIZE)).rstrip())
    for y in range(SIZE):
        lines.append(f"{y:2d}  " + " ".join(chars[y * SIZE : (y + 1) * SIZE]).rstrip())
    return "\n".join(lines + detail_lines(state))


def status_lines(state: IceAndFireState) -> list[str]:
    """The first three lines of ``to_text``: the turn (or the end) and each player's gold and income."""
    if state.result is not None:
        lines = [f"game over after turn {min(state.turn, MAX_TURNS)}: {state.result.reason}"]
    else:
        lines = [f"turn {state.turn}, {PLAYER_NAMES[state.player]} to move"]
    for p, name in enumerate(PLAYER_NAMES):
        message = f", message {state.messages[p]!r}" if state.messages[p] else ""
        lines.append(f"{name}: gold {state.gold[p]}, income {state.income[p]}{message}")
    return lines


def detail_lines(state: IceAndFireState) -> list[str]:
    """The last lines of ``to_text``: units (owner, id, level, cell), the turn played, the referee's log."""
    lines = []
    if state.units:
        units = " ".join(f"{'rb'[u.owner]}{u.id}:L{u.level}({u.x},{u.y})" for u in state.units)
        lines.append(f"units {units}")
    if state.last_player is not None:
        lines.append(f"{PLAYER_NAMES[state.last_player]} played {turn_to_text(state.last_turn)}")
    lines.extend(f"referee: {line}" for line in state.log)
    return lines


# -- the state as JSON ----------------------------------------------------------------------


def state_to_json(state: IceAndFireState) -> dict[str, JSON]:
    """The state as a JSON object: ``cells`` rows use ``#`` void, ``.`` neutral, ``R``/``r`` red
    active/inactive, ``B``/``b`` blue."""
    result: JSON = None
    if state.result is not None:
        r = state.result
        result = {
            "returns": list(r.returns),
            "termination": r.termination,
            "reason": r.reason,
            "forfeit_player": r.forfeit_player,
            "scores": list(r.scores),
        }
    return {
        "rules": state.rules,
        "league": state.league,
        "seed": state.seed,
        "map": list(state.board.rows),
        "spots": [list(s) for s in state.board.spots],
        "cells": owner_rows(state),
        "units": [[u.id, u.owner, u.level, u.x, u.y, u.can_act] for u in state.units],
        "buildings": [[b.owner, b.kind, b.x, b.y] for b in state.buildings],
        "gold": list(state.gold),
        "income": list(state.income),
        "turn": state.turn,
        "player": state.player,
        "next_id": state.next_id,
        "messages": list(state.messages),
        "last_turn": None if state.last_player is None else turn_to_text(state.last_turn),
        "last_player": state.last_player,
        "log": list(state.log),
        "result": result,
    }


def _field(data: Mapping[str, JSON], name: str, kind: type | tuple[type, ...]) -> JSON:
    if name not in data:
        raise StateFormatError(f"iceandfire state: missing field {name!r}")
    value = data[name]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise StateFormatError(f"iceandfire state: field {name!r} has a bad value {value!r}")
    return value


def _pair(data: Mapping[str, JSON], name: str) -> tuple[int, int]:
    value = _field(data, name, list)
    if len(value) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise StateFormatError(f"iceandfire state: field {name!r} must be two integers, got {value!r}")
    return value[0], value[1]


def state_from_json(game: IceAndFire, data: Mapping[str, JSON]) -> IceAndFireState:
    """Inverse of :func:`state_to_json`; StateFormatError naming the bad field."""
    try:
        rules, league = _field(data, "rules", str), _field(data, "league", str)
        if (rules, league) != (game.rules, game.league):
            raise StateFormatError(
                f"iceandfire state: {rules}/{league} is not this game's {game.rules}/{game.league}"
            )
        seed = data.get("seed")
        if seed is not None and not isinstance(seed, int):
            raise StateFormatError(f"iceandfire state: field 'seed' has a bad value {seed!r}")
        rows = tuple(_field(data, "map", list))
        spots = tuple((int(s[0]), int(s[1])) for s in _field(data, "spots", list))
        board = make_board(rows, spots)
        cells = _field(data, "cells", list)
        if len(cells) != SIZE or any(not isinstance(r, str) or len(r) != SIZE for r in cells):
            raise StateFormatError("iceandfire state: field 'cells' must be 12 rows of 12 characters")
        owner, active = bytearray(CELLS), bytearray(CELLS)
        for c, ch in enumerate("".join(cells)):
            if ch not in "#.RrBb" or (ch == "#") != bool(board.void[c]):
                raise StateFormatError(
                    f"iceandfire state: field 'cells' has {ch!r} at {xy(c)} on a map cell {rows[c // SIZE][c % SIZE]!r}"
                )
            owner[c] = {"#": VOID, ".": NEUTRAL, "R": RED, "r": RED, "B": BLUE, "b": BLUE}[ch]
            active[c] = ch in "RB"
        units = tuple(
            Unit(int(i), int(o), int(lv), int(x), int(y), bool(a))
            for i, o, lv, x, y, a in _field(data, "units", list)
        )
        buildings = tuple(
            Building(int(o), int(k), int(x), int(y)) for o, k, x, y in _field(data, "buildings", list)
        )
        things: tuple[Unit | Building, ...] = (*units, *buildings)
        for thing in things:
            on_board = 0 <= thing.x < SIZE and 0 <= thing.y < SIZE
            captured_hq = (
                isinstance(thing, Building) and thing.kind == HQ
            )  # its cell changes owner at the end
            if not on_board or (owner[thing.cell] != thing.owner and not captured_hq):
                raise StateFormatError(f"iceandfire state: {thing!r} does not stand on a cell of its owner")
        raw_result = data.get("result")
        result = None
        if raw_result is not None:
            result = Result(
                (float(raw_result["returns"][0]), float(raw_result["returns"][1])),
                str(raw_result["termination"]),
                str(raw_result["reason"]),
                raw_result["forfeit_player"],
                (int(raw_result["scores"][0]), int(raw_result["scores"][1])),
            )
        last_text = data.get("last_turn")
        messages = _field(data, "messages", list)
        return IceAndFireState(
            rules=rules,
            league=league,
            board=board,
            seed=seed,
            owner=bytes(owner),
            active=bytes(active),
            units=units,
            buildings=buildings,
            gold=_pair(data, "gold"),
            income=_pair(data, "income"),
            turn=_field(data, "turn", int),
            player=_field(data, "player", int),
            next_id=_field(data, "next_id", int),
            messages=(str(messages[0]), str(messages[1])),
            last_turn=() if last_text is None else parse_line(str(last_text), rules),
            last_player=data.get("last_player"),
            log=tuple(str(line) for line in _field(data, "log", list)),
            result=result,
        )
    except (TypeError, ValueError, KeyError, IndexError) as exc:
        if isinstance(exc, StateFormatError):
            raise
        raise StateFormatError(f"iceandfire state: {exc}") from exc
