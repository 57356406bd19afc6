"""Knight Isolation (Udacity AIND, 2017): the clear reference implementation of the rules.

Any ``width`` x ``height`` board. Each player first places its piece on any blank cell, then
jumps like a chess knight to a blank cell; every cell a piece has entered stays blocked. The
player to move with no legal move loses (no draws). Cells are row-major integers,
``cell = row * width + col``; a cell's text is its column letter and row number (``c2``).

This module is the oracle: it favours clarity over speed (the fast engine is the ``fast`` package).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TypeAlias

from gridarena.core.errors import StateFormatError
from gridarena.core.types import JSON, TERMINAL, BaseState, Outcome, Player, zero_sum_forfeit_returns
from gridarena.games.isolation import formats

Cell: TypeAlias = int
"""A board cell, row-major: ``row * width + col``."""

KNIGHT_OFFSETS: tuple[tuple[int, int], ...] = (
    (-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1),
)  # fmt: skip
MAX_SIDE = 26  # column letters a..z


@cache
def knight_targets(cell: Cell, width: int, height: int) -> tuple[Cell, ...]:
    """Cells a knight on ``cell`` reaches on an empty ``width`` x ``height`` board, ascending.

    >>> knight_targets(0, 7, 7)
    (9, 15)
    >>> len(knight_targets(24, 7, 7))
    8
    """
    row, col = divmod(cell, width)
    targets = [
        (row + dr) * width + col + dc
        for dr, dc in KNIGHT_OFFSETS
        if 0 <= row + dr < height and 0 <= col + dc < width
    ]
    return tuple(sorted(targets))


@dataclass(frozen=True, slots=True)
class Isolation:
    """The game: board size and the ``faithful`` AIND ending (see ``Outcome.reason``).

    >>> Isolation().new_initial_state()
    State(width=7, height=7, blocked=0, locs=(None, None), ply=0, forfeited=None)
    """

    width: int = 7
    height: int = 7
    name: str = field(default="isolation", init=False)
    num_players: int = field(default=2, init=False)
    enumerable_actions: bool = field(default=True, init=False)
    zero_sum: bool = field(default=True, init=False)

    def __post_init__(self) -> None:
        for label, size in (("width", self.width), ("height", self.height)):
            if not isinstance(size, int) or not 1 <= size <= MAX_SIDE:
                raise StateFormatError(
                    f"isolation: {label} must be an integer from 1 to {MAX_SIDE}, got {size!r}"
                )
        if self.width * self.height < 2:
            raise StateFormatError("isolation: the board needs at least 2 cells for the two placements")

    @property
    def params(self) -> Mapping[str, JSON]:
        """The game's parameters, as given to ``make``."""
        return {"width": self.width, "height": self.height}

    def new_initial_state(self, seed: int | None = None) -> State:
        """The empty board, player 0 to place (Isolation draws nothing at random: ``seed`` is unused)."""
        return State(self.width, self.height)

    def state_from_json(self, data: Mapping[str, JSON]) -> State:
        """Inverse of ``State.to_json``; raises :class:`StateFormatError` naming the bad field."""
        return _state_from_json(self, data)

    def max_plies(self) -> int:
        """Every ply blocks a new cell, so a game lasts at most ``width * height`` plies."""
        return self.width * self.height


@dataclass(frozen=True, slots=True)
class State(BaseState[Cell]):
    """A knight Isolation position. ``blocked`` bit c set: cell c has been entered."""

    width: int = 7
    height: int = 7
    blocked: int = 0
    locs: tuple[Cell | None, Cell | None] = (None, None)
    ply: int = 0
    forfeited: tuple[Player, str, str] | None = None  # (player, termination, reason)

    @property
    def game(self) -> Isolation:
        """The game this state belongs to."""
        return Isolation(self.width, self.height)

    def mover(self) -> Player:
        """The player whose turn it is by ply parity (also in terminal states)."""
        return self.ply % 2

    def is_open(self, cell: Cell) -> bool:
        """Whether ``cell`` is on the board and has never been entered."""
        return 0 <= cell < self.width * self.height and not self.blocked >> cell & 1

    def moves_of(self, player: Player) -> list[Cell]:
        """Cells ``player`` could enter if it were to move: any blank cell before its placement."""
        loc = self.locs[player]
        if loc is None:
            return [c for c in range(self.width * self.height) if self.is_open(c)]
        return [c for c in knight_targets(loc, self.width, self.height) if self.is_open(c)]

    def has_move(self, player: Player) -> bool:
        """Whether ``moves_of(player)`` is non-empty, without building the list."""
        loc = self.locs[player]
        if loc is None:
            return self.blocked.bit_count() < self.width * self.height
        return any(self.is_open(c) for c in knight_targets(loc, self.width, self.height))

    def current_player(self) -> Player:
        """The player to move, or ``TERMINAL``."""
        return TERMINAL if self.is_terminal() else self.mover()

    def legal_actions(self) -> list[Cell]:
        """The cells the player to move may enter, ascending; empty when the game is over."""
        return [] if self.forfeited else self.moves_of(self.mover())

    def illegal_reason(self, action: Cell) -> str | None:
        """None if ``action`` is legal, else why not."""
        if self.is_terminal():
            return "the game is over"
        if not isinstance(action, int) or not 0 <= action < self.width * self.height:
            return f"{action!r} is not a cell of the {self.width}x{self.height} board"
        text = formats.cell_to_text(action, self.width)
        if not self.is_open(action):
            return f"{text} is blocked"
        loc = self.locs[self.mover()]
        if loc is not None and action not in knight_targets(loc, self.width, self.height):
            return f"{text} is not a knight move from {formats.cell_to_text(loc, self.width)}"
        return None

    def _apply(self, action: Cell) -> State:
        mover = self.mover()
        locs = (action, self.locs[1]) if mover == 0 else (self.locs[0], action)
        return State(self.width, self.height, self.blocked | 1 << action, locs, self.ply + 1)

    def random_action(self, rng: random.Random) -> Cell:
        """A uniformly random legal cell."""
        return rng.choice(self.legal_actions())

    def is_terminal(self) -> bool:
        """True once the player to move is stuck (or somebody forfeited)."""
        return self.forfeited is not None or not self.has_move(self.mover())

    def outcome(self) -> Outcome | None:
        """The loser is the player to move with no move; AIND itself reports this as "illegal move"."""
        if self.forfeited is not None:
            player, termination, reason = self.forfeited
            return Outcome(zero_sum_forfeit_returns(2, player), termination, reason, player)
        if not self.is_terminal():
            return None
        loser = self.mover()
        returns = (-1.0, 1.0) if loser == 0 else (1.0, -1.0)
        return Outcome(returns, "normal", f"player {loser + 1} has no legal move")

    def forfeit(self, player: Player, termination: str, reason: str) -> State:
        """The finished game in which ``player`` lost by forfeit."""
        return State(
            self.width, self.height, self.blocked, self.locs, self.ply, (player, termination, reason)
        )

    def action_to_string(self, action: Cell) -> str:
        """``24 -> "d4"`` on 7x7: column letter, then row number counted from 1."""
        return formats.cell_to_text(action, self.width)

    def string_to_action(self, text: str) -> Cell:
        """Inverse of :meth:`action_to_string`; raises ``ActionParseError``."""
        return formats.text_to_cell(text, self.width, self.height)

    def board_string(self) -> str:
        """The compact board: rows from the top joined by ``/``.

        >>> State(3, 2, blocked=0b100001, locs=(0, 5), ply=2).board_string()
        '1../..2'
        """
        return formats.board_string(self.width, self.height, self.blocked, self.locs)

    def to_json(self) -> dict[str, JSON]:
        """The state as JSON: size, compact board, ply and any forfeit."""
        return {
            "width": self.width,
            "height": self.height,
            "board": self.board_string(),
            "ply": self.ply,
            "forfeited": list(self.forfeited) if self.forfeited else None,
        }

    def to_text(self) -> str:
        """A picture with coordinates (``.`` blank, ``#`` blocked, ``1``/``2``), then who is to move."""
        outcome = self.outcome()
        footer = (
            f"player {self.mover() + 1} to move"
            if outcome is None
            else f"over: {outcome.reason or outcome.termination}"
        )
        return formats.board_picture(self.width, self.height, self.blocked, self.locs, footer)


def state_from_board(rows: Sequence[str], ply: int | None = None) -> State:
    """A state from text rows (``.`` blank, ``#`` blocked, ``1``/``2`` the pieces).

    The ply is the number of blocked cells unless given; the pieces must fit it.

    >>> state_from_board(["1..", "...", "..2"]).locs
    (0, 8)
    """
    board = formats.parse_board(rows)
    used = board.blocked.bit_count()
    ply = used if ply is None else ply
    expected = (ply >= 1, ply >= 2)
    if ply != used or tuple(loc is not None for loc in board.locs) != expected:
        raise StateFormatError(
            f"isolation board: {used} blocked cells and pieces {list(board.locs)} do not fit ply {ply} "
            "(every ply blocks one cell; player 1 places at ply 0, player 2 at ply 1)"
        )
    return State(board.width, board.height, board.blocked, board.locs, ply)


def _state_from_json(game: Isolation, data: Mapping[str, JSON]) -> State:
    """Inverse of :meth:`State.to_json`, checked against ``game``'s board size."""
    if not isinstance(data, Mapping):
        raise StateFormatError(f"isolation state: expected a JSON object, got {type(data).__name__}")
    for key in ("board", "ply"):
        if key not in data:
            raise StateFormatError(f"isolation state: missing field {key!r}")
    board, ply = data["board"], data["ply"]
    if not isinstance(board, str):
        raise StateFormatError(f"isolation state: field 'board' must be a string, got {board!r}")
    if not isinstance(ply, int) or isinstance(ply, bool) or ply < 0:
        raise StateFormatError(f"isolation state: field 'ply' must be a whole number >= 0, got {ply!r}")
    state = state_from_board(board.split("/"), ply)
    if (state.width, state.height) != (game.width, game.height):
        raise StateFormatError(
            f"isolation state: board is {state.width}x{state.height}, the game is {game.width}x{game.height}"
        )
    forfeited = data.get("forfeited")
    if forfeited:
        if not (
            isinstance(forfeited, list)
            and len(forfeited) == 3
            and forfeited[0] in (0, 1)
            and all(isinstance(v, str) for v in forfeited[1:])
        ):
            raise StateFormatError(
                f"isolation state: field 'forfeited' must be [player, termination, reason], got {forfeited!r}"
            )
        player, termination, reason = forfeited
        return state.forfeit(int(player), str(termination), str(reason))
    return state
