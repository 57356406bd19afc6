"""ReversiXT: the clear reference implementation of every rule, as the reference server plays them.

This module is the test oracle. It follows the rules step by step and favours clarity over
speed: the fast kernels (``games/reversixt/fast``) are checked against it, and it is checked against
the reference server's traces, the probes and the bomb vectors.

Numbering. The map and the protocol number players 1..p ("map players"); the game API numbers
seats from 0 ("core players"): core player i is map player i + 1. Fields are (x, y) with x the
column; a cell index is ``y * width + x``.

Turn order is derived, as the reference server derives it: after the last mover L,
the first of L+1, ..., L+p (mod p, L last) who is not disqualified and can move is to move; the
players passed over are skipped silently. Phase 1 ends when nobody can place a stone, phase 2
(bombs) when nobody holds a bomb; the game also ends when at most one player is left who is not
disqualified. A state stores the derived player to move and phase, computed once by
:func:`settle` when the state is made.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import InitVar, dataclass, field
from functools import cached_property
from typing import Any, ClassVar, Final

from gridarena.core.errors import GridArenaError, StateFormatError
from gridarena.core.params import FileOrName, Param, ParamError, Text, check_params
from gridarena.core.types import JSON, TERMINAL, BaseState, Outcome, Player
from gridarena.games.reversixt.capture import (
    bomb,
    candidate_cells,
    competition_ranks,
    has_valid_cell,
    is_valid_placement,
    order_after,
    place,
    returns_from_ranks,
    stone_counts,
)
from gridarena.games.reversixt.formats import (
    BONUS,
    BONUS_BOMB,
    BONUS_OVERRIDE,
    CHOICE,
    DEFAULT_MAP,
    EXPANSION,
    HOLE,
    LEGEND,
    MAX_MAP_TEXT,
    Move,
    ReversiMap,
    board_lines,
    cells_to_symbols,
    is_stone,
    map_name,
    packaged_maps,
    parse_map,
    parse_move,
    read_map,
    resolve_map_path,
    symbols_to_cells,
    write_map,
)
from gridarena.games.reversixt.geometry import Arrivals, StepTable, arrivals, step_table

PHASE_STONES: Final = 1
PHASE_BOMBS: Final = 2
PHASE_OVER: Final = 3

INVALID_MOVE: Final = "Sorry, this move was invalid"
"""The reference server's words for an invalid move or bomb."""


@dataclass(frozen=True)
class ReversiXT:
    """The game on one map: ``map`` is a file (``.gz`` allowed) or a project map name.

    ``text`` gives the map's text instead (a game built from a parsed map keeps it, so its
    parameters rebuild it). Without either, the project's ``sampler`` map is used.

    >>> game = ReversiXT("othello8")
    >>> game.num_players, game.board.width, game.new_initial_state().current_player()
    (2, 8, 0)
    """

    map: str = ""
    text: str = ""
    parsed: InitVar[ReversiMap | None] = None
    name: str = field(default="reversixt", init=False)
    enumerable_actions: bool = field(default=True, init=False)
    zero_sum: bool = field(default=False, init=False)
    #: The parameters and their ranges (docs/reversixt.md lists them); ``parsed`` is for Python callers only.
    PARAMETERS: ClassVar[Mapping[str, Param]] = {
        "map": FileOrName("map", packaged_maps, unless="text"),
        "text": Text(MAX_MAP_TEXT),
    }

    @cached_property
    def board(self) -> ReversiMap:
        """The parsed map (read once)."""
        if self.text:
            return parse_map(self.text, "<map text>", name=self.map and map_name(self.map))
        return read_map(resolve_map_path(self.map or DEFAULT_MAP))

    def __post_init__(self, parsed: ReversiMap | None) -> None:
        check_params(self.name, self.PARAMETERS, {"map": self.map, "text": self.text})
        if parsed is not None and not isinstance(parsed, ReversiMap):
            raise ParamError(f"reversixt: parsed must be a ReversiMap, got {type(parsed).__name__}")
        if parsed is not None:  # keep the very map (and its name), even one read with strict=False
            self.__dict__["board"] = parsed
        _ = self.board  # a bad map fails here, where the game is made, with the map's own error

    @classmethod
    def from_map(cls, board: ReversiMap) -> ReversiXT:
        """The game on an already parsed map (its text becomes the ``text`` parameter)."""
        return cls(board.name, write_map(board), board)

    @property
    def num_players(self) -> int:
        """The map's number of players."""
        return self.board.players

    @property
    def params(self) -> Mapping[str, JSON]:
        """The game's parameters: the map's name, and its text unless it is a packaged map, so a replay
        or a stored game holds the whole map and is rebuilt without the file."""
        if self.text or (self.map or DEFAULT_MAP) in packaged_maps():
            return {"map": self.map, "text": self.text} if self.text else {"map": self.map}
        return {"map": map_name(self.map), "text": write_map(self.board)}

    @cached_property
    def steps(self) -> StepTable:
        """The map's step table (:func:`~gridarena.games.reversixt.geometry.step_table`)."""
        return step_table(self.board)

    @cached_property
    def arrivals(self) -> Arrivals:
        """The cells one step before each cell (:func:`~gridarena.games.reversixt.geometry.arrivals`)."""
        return arrivals(self.board)

    def new_initial_state(self, seed: int | None = None) -> ReversiState:
        """The map's start position (nothing is random: ``seed`` is unused)."""
        m = self.board
        p = m.players
        return settle(
            self,
            m.cells,
            (m.overrides,) * p,
            (m.bombs,) * p,
            (None,) * p,
            PHASE_STONES,
            p,
        )

    def state_from_json(self, data: Mapping[str, JSON]) -> ReversiState:
        """Inverse of ``ReversiState.to_json``; raises :class:`StateFormatError` naming the field."""
        return _state_from_json(self, data)

    def max_plies(self) -> int:
        """A bound on the game's length.

        A stone move fills an empty or special field (at most one per field), an override move
        spends an override stone (at most the start stock plus one per bonus field), a bomb spends a
        bomb (the start stock plus one per bonus field).
        """
        m = self.board
        fields = sum(c != HOLE for c in m.cells)
        bonus = m.count(BONUS)
        return fields + m.players * (m.overrides + m.bombs) + 2 * bonus + 1


# ---------------------------------------------------------------------------------------------
# The rules as functions of the board (cells) and the step table (what a move does to the cells is
# capture.place and capture.bomb)


def valid_cells(state: ReversiState, k: int) -> list[int]:
    """The cells on which map player ``k`` may place a stone now, ascending (phase-1 rules)."""
    table, cells, ov = state.game.steps, state.cells, state.overrides[k - 1]
    return [
        i
        for i in candidate_cells(state.game.arrivals, cells, k, ov)
        if is_valid_placement(table, cells, i, k, ov)
    ]


def settle(
    game: ReversiXT,
    cells: bytes,
    overrides: tuple[int, ...],
    bombs: tuple[int, ...],
    disqualified: tuple[str | None, ...],
    phase: int,
    last: int,
    *,
    forfeits: tuple[tuple[Player, str], ...] = (),
    last_move: Move | None = None,
    phase1_scores: tuple[int, ...] | None = None,
    ply: int = 0,
) -> ReversiState:
    """The state with the player to move and the phase derived from the rest.

    Ends phase 1 when nobody can place a stone (recording the phase-1 stone counts), ends the game
    when nobody holds a bomb, no field is left that is not a hole or at most one player is left who is not
    disqualified (then phase 1 ends without END1).
    """
    p = game.num_players
    active = [k for k in range(1, p + 1) if disqualified[k - 1] is None]
    mover = 0
    while phase != PHASE_OVER:
        if len(active) <= 1:
            phase = PHASE_OVER
            break
        if phase == PHASE_STONES:
            mover = next(
                (
                    k
                    for k in order_after(last, p)
                    if disqualified[k - 1] is None
                    and has_valid_cell(game.steps, game.arrivals, cells, k, overrides[k - 1])
                ),
                0,
            )
            if mover:
                break
            phase = PHASE_BOMBS
            phase1_scores = stone_counts(cells, p)
        else:
            mover = next(
                (k for k in order_after(last, p) if disqualified[k - 1] is None and bombs[k - 1] > 0), 0
            )
            if mover and any(c != HOLE for c in cells):
                break
            mover, phase = 0, PHASE_OVER
    return ReversiState(
        game,
        cells,
        overrides,
        bombs,
        disqualified,
        phase,
        last,
        mover,
        forfeits=forfeits,
        last_move=last_move,
        phase1_scores=phase1_scores,
        ply=ply,
    )


def wire_move(state: ReversiState, x: int, y: int, special: int) -> Move:
    """The action for a move answer off the wire: in phase 2 the special byte is ignored, as the reference does."""
    return Move(x, y, 0 if state.phase == PHASE_BOMBS else special)


# ---------------------------------------------------------------------------------------------
# The state


@dataclass(frozen=True, slots=True)
class ReversiState(BaseState[Move]):
    """A ReversiXT position.

    ``cells`` are the board's codes (holes included); ``overrides``, ``bombs`` and ``disqualified``
    (None, or the reason) are indexed by map player - 1; ``phase`` is 1, 2 or 3 (over); ``last`` is
    L, the last mover (map numbering; p before the first move); ``mover`` is the map
    player to move (0 when over), derived by :func:`settle`. ``forfeits`` (core player, termination
    kind, in order), ``last_move`` and ``phase1_scores`` are history for results and pictures: they
    take no part in equality, so transpositions compare equal.
    """

    game: ReversiXT = field(repr=False, compare=False)
    cells: bytes
    overrides: tuple[int, ...]
    bombs: tuple[int, ...]
    disqualified: tuple[str | None, ...]
    phase: int
    last: int
    mover: int
    forfeits: tuple[tuple[Player, str], ...] = field(default=(), compare=False)
    last_move: Move | None = field(default=None, compare=False)
    phase1_scores: tuple[int, ...] | None = field(default=None, compare=False)
    memo: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    """Legal moves once computed (the checker, bots and traces ask a state for them several times)."""
    ply: int = field(default=0, compare=False)  # moves played from the start: history, for pictures

    # -- the game API

    def current_player(self) -> Player:
        """The core player to move (map player - 1), or ``TERMINAL``."""
        return TERMINAL if self.phase == PHASE_OVER else self.mover - 1

    def legal_actions(self) -> list[Move]:
        """Every legal move of the player to move, sorted (x, then y, then the special byte).

        Phase 1: each valid field with each allowed special byte (1..p on a choice field, 20 and 21
        on a bonus field, else 0). Phase 2: every field that is not a hole, special 0.
        """
        if self.phase == PHASE_OVER:
            return []
        if "legal" in self.memo:
            return list(self.memo["legal"])
        m = self.game.board
        out: list[Move] = []
        if self.phase == PHASE_BOMBS:
            out = [Move(*m.xy(i)) for i, c in enumerate(self.cells) if c != HOLE]
        else:
            for i in self.valid_cells():
                x, y = m.xy(i)
                c = self.cells[i]
                if c == CHOICE:
                    out.extend(Move(x, y, s) for s in range(1, m.players + 1))
                elif c == BONUS:
                    out.extend((Move(x, y, BONUS_BOMB), Move(x, y, BONUS_OVERRIDE)))
                else:
                    out.append(Move(x, y))
        out.sort()
        self.memo["legal"] = out
        return list(out)

    def illegal_reason(self, action: Move) -> str | None:
        """None if the player to move may play ``action``, else why not, in the reference server's words."""
        if self.phase == PHASE_OVER:
            return "the game is over"
        if not isinstance(action, tuple) or len(action) != 3 or not all(isinstance(v, int) for v in action):
            return f"{action!r} is not a move (x, y, special)"
        m, k = self.game.board, self.mover
        x, y, s = action
        if not (0 <= x < m.width and 0 <= y < m.height):
            return f"{INVALID_MOVE}: ({x},{y}) is outside the {m.height}x{m.width} board"
        i = m.index(x, y)
        c = self.cells[i]
        if c == HOLE:
            return f"{INVALID_MOVE}: ({x},{y}) is a hole"
        if self.phase == PHASE_BOMBS:
            return None if s == 0 else f"a bomb carries special byte 0, not {s} (see wire_move)"
        if not self.is_valid_cell(i):
            occupied = is_stone(c) or c == EXPANSION
            why = "needs an override stone" if occupied and not self.overrides[k - 1] else "captures nothing"
            return f"{INVALID_MOVE}: ({x},{y}) {why}"
        if c == CHOICE:
            if not 1 <= s <= m.players:
                return f"invalid choice for choice-move: {s}"
        elif c == BONUS:
            if s not in (BONUS_BOMB, BONUS_OVERRIDE):
                return "invalid choice for bonus-move"
        elif s != 0:
            return "invalid choice for plain or inversion move"
        return None

    def _apply(self, action: Move) -> ReversiState:
        k, move = self.mover, Move(*action)
        if self.phase == PHASE_BOMBS:
            cells, bombs = bomb(self.game.steps, self.game.board, self.cells, self.bombs, move, k)
            overrides = self.overrides
        else:
            cells, overrides, bombs = place(
                self.game.steps, self.game.board, self.cells, self.overrides, self.bombs, move, k
            )
        return settle(
            self.game,
            cells,
            overrides,
            bombs,
            self.disqualified,
            self.phase,
            k,
            forfeits=self.forfeits,
            last_move=move,
            phase1_scores=self.phase1_scores,
            ply=self.ply + 1,
        )

    def is_terminal(self) -> bool:
        """True once the game is over (phase 3)."""
        return self.phase == PHASE_OVER

    def forfeit(self, player: Player, termination: str, reason: str) -> ReversiState:
        """Disqualify core ``player``: the game goes on without him.

        His stones stay, his stocks are never used again. When he was the player to move, play
        continues after him as if he had moved (gridarena's choice: never observed on the reference
        server); when at most one player is left, the game ends.
        """
        k = player + 1
        if self.phase == PHASE_OVER or self.disqualified[player] is not None:
            return self
        dq = tuple(reason if j == player else r for j, r in enumerate(self.disqualified))
        return settle(
            self.game,
            self.cells,
            self.overrides,
            self.bombs,
            dq,
            self.phase,
            k if k == self.mover else self.last,
            forfeits=(*self.forfeits, (player, termination)),
            last_move=self.last_move,
            phase1_scores=self.phase1_scores,
            ply=self.ply,
        )

    def scores(self) -> tuple[int | None, ...]:
        """Stones of each core player on the board; None for a disqualified player."""
        counts = stone_counts(self.cells, self.game.num_players)
        return tuple(None if dq is not None else n for n, dq in zip(counts, self.disqualified, strict=True))

    def ranks(self) -> tuple[int, ...]:
        """Ranks by the current scores (1 best; ties share the better rank; disqualified last)."""
        return competition_ranks(self.scores())

    def outcome(self) -> Outcome | None:
        """The final ranking as returns (:func:`returns_from_ranks`); None while the game goes on.

        The termination is "normal" unless somebody was disqualified; then it is the last
        disqualification's kind, with that player as ``forfeit_player`` (the arena counts it).
        """
        if self.phase != PHASE_OVER:
            return None
        scores = self.scores()
        text = ", ".join(
            f"player {i + 1}: {'disqualified' if s is None else s}" for i, s in enumerate(scores)
        )
        if not self.forfeits:
            return Outcome(returns_from_ranks(self.ranks()), "normal", f"scores {text}")
        player, termination = self.forfeits[-1]
        why = "; ".join(f"player {p + 1} disqualified: {self.disqualified[p]}" for p, _ in self.forfeits)
        return Outcome(returns_from_ranks(self.ranks()), termination, f"scores {text} ({why})", player)

    def result_info(self) -> dict[str, JSON]:
        """Scores, ranks, the phase-1 stone counts and the disqualifications (by map player)."""
        return {
            "scores": list(self.scores()),
            "ranks": list(self.ranks()),
            "phase1_scores": None if self.phase1_scores is None else list(self.phase1_scores),
            "disqualified": {str(p + 1): self.disqualified[p] for p, _ in self.forfeits},
        }

    def action_to_string(self, action: Move) -> str:
        """``"x,y,special"``."""
        return Move(*action).to_text()

    def string_to_action(self, text: str) -> Move:
        """Inverse of :meth:`action_to_string` (``"x,y"`` means special 0)."""
        return parse_move(text)

    def to_json(self) -> dict[str, JSON]:
        """The state as JSON: board rows as symbol strings, stocks, flags, phase, L and history."""
        m = self.game.board
        w = m.width
        return {
            "board": [cells_to_symbols(self.cells[y * w : (y + 1) * w]) for y in range(m.height)],
            "overrides": list(self.overrides),
            "bombs": list(self.bombs),
            "disqualified": list(self.disqualified),
            "phase": self.phase,
            "last": self.last,
            "forfeits": [[p, t] for p, t in self.forfeits],
            "last_move": None if self.last_move is None else list(self.last_move),
            "phase1_scores": None if self.phase1_scores is None else list(self.phase1_scores),
        }

    def to_text(self) -> str:
        """The board with valid moves marked, a legend, the stocks and who is to move."""
        return state_text(self)

    # -- helpers for bots, traces and pictures

    @property
    def players(self) -> int:
        """p, the number of players."""
        return self.game.num_players

    def valid_cells(self, k: int | None = None) -> list[int]:
        """Cells on which map player ``k`` (default: the player to move) may place a stone now."""
        if k is not None and k != self.mover:
            return valid_cells(self, k)
        if "valid" not in self.memo:
            self.memo["valid"] = valid_cells(self, self.mover)
        return list(self.memo["valid"])

    def is_valid_cell(self, i: int) -> bool:
        """Whether the player to move may place a stone on cell ``i`` (phase-1 rules).

        One cell is checked on its own unless the valid cells are known already: a server or a
        client checking one answer on a large board must not list every valid cell for it."""
        if "valid" in self.memo:
            if "valid_set" not in self.memo:
                self.memo["valid_set"] = frozenset(self.memo["valid"])
            return i in self.memo["valid_set"]
        k = self.mover
        return is_valid_placement(self.game.steps, self.cells, i, k, self.overrides[k - 1])


def _state_from_json(game: ReversiXT, data: Mapping[str, JSON]) -> ReversiState:
    m, p = game.board, game.num_players
    try:
        rows = data["board"]
        if not isinstance(rows, list) or len(rows) != m.height or any(len(r) != m.width for r in rows):
            raise StateFormatError(f"reversixt: 'board' must be {m.height} rows of {m.width} symbols")
        try:
            cells = symbols_to_cells("".join(rows))
        except ValueError as error:
            raise StateFormatError(f"reversixt: 'board': {error}") from None
        if any(is_stone(c) and c > p for c in set(cells)):
            raise StateFormatError(f"reversixt: 'board' holds a stone of a player above {p}")

        def ints(key: str) -> tuple[int, ...]:
            values = tuple(int(v) for v in data[key])
            if len(values) != p or any(v < 0 for v in values):
                raise StateFormatError(f"reversixt: {key!r} must be {p} non-negative integers")
            return values

        dq = tuple(None if r is None else str(r) for r in data["disqualified"])
        if len(dq) != p:
            raise StateFormatError(f"reversixt: 'disqualified' must have {p} entries")
        phase, last = int(data["phase"]), int(data["last"])
        if phase not in (1, 2, 3) or not 1 <= last <= p:
            raise StateFormatError("reversixt: 'phase' must be 1..3 and 'last' a player 1..p")
        lm = data.get("last_move")
        p1 = data.get("phase1_scores")
        forfeits = tuple((int(a), str(b)) for a, b in data.get("forfeits", []))
        return settle(
            game,
            cells,
            ints("overrides"),
            ints("bombs"),
            dq,
            phase,
            last,
            forfeits=forfeits,
            last_move=None if lm is None else Move(*(int(v) for v in lm)),
            phase1_scores=None if p1 is None else tuple(int(v) for v in p1),
        )
    except (KeyError, TypeError, ValueError, OverflowError) as error:
        if isinstance(error, GridArenaError):
            raise
        raise StateFormatError(f"reversixt: not a state: {error!r}") from error


def status_lines(state: ReversiState) -> list[str]:
    """Phase, player to move, last move, and each player's stones and stocks."""
    p = state.players
    counts = [state.cells.count(k) for k in range(1, p + 1)]
    lines = []
    if state.is_terminal():
        scores = ", ".join("disqualified" if s is None else str(s) for s in state.scores())
        ranks = ", ".join(str(r) for r in state.ranks())
        lines.append(f"game over: scores {scores}; ranks {ranks}")
    else:
        kind = "stones" if state.phase == 1 else "bombs"
        n = len(state.valid_cells()) if state.phase == 1 else sum(c != HOLE for c in state.cells)
        lines.append(f"phase {state.phase} ({kind}): player {state.mover} to move on one of {n} fields")
    if state.last_move is not None:
        lines.append(f"last move: player {state.last} played {state.last_move.to_text()}")
    for k in range(p):
        dq = state.disqualified[k]
        tail = f", disqualified: {dq}" if dq is not None else ""
        lines.append(
            f"player {k + 1}: stones {counts[k]}, overrides {state.overrides[k]}, bombs {state.bombs[k]}{tail}"
        )
    lines.append(f"legend: {LEGEND}; bomb radius {state.game.board.radius}")
    return lines


def state_text(state: ReversiState) -> str:
    """The board, the status lines and the legend (``ReversiState.to_text``)."""
    marks = set(state.valid_cells()) if state.phase == 1 else set()
    return "\n".join(board_lines(state.game.board, state.cells, marks) + status_lines(state))
