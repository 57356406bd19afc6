"""The 2017 Udacity AIND ``isolation.Board``, faithful to its API and quirks.

Everything an AIND ``game_agent.py`` or ``sample_players.py`` may touch behaves as in the original:
column-major cells (``row + col * height``), the flat ``_board_state`` list with its three trailing
entries (side to move, player 2's cell, player 1's cell), ``NOT_MOVED = None``, legal moves shuffled
on every call, ``forecast_move`` on a copy, ``apply_move`` without any check, and ``play(time_limit)``
with the original order of checks and the reasons ``"timeout"``, ``"forfeit"`` and ``"illegal move"``.

The one deliberate difference: AIND shuffled with the global ``random`` module. Here every board
shuffles with a ``random.Random`` it is given, and by default with :data:`SHARED_RNG`, one
module-level generator shared by all boards and their copies (as the global module was), which
:func:`seed` reseeds, so a run can be repeated.

>>> board = Board("p1", "p2")
>>> board.apply_move((2, 3)); board.apply_move((0, 5))
>>> board._board_state[-3:]
[0, 35, 23]
>>> board.get_player_location("p2")
(0, 5)
"""

from __future__ import annotations

import random
import timeit
from collections.abc import Callable, Hashable
from typing import Any, Final, Protocol, TypeAlias

from gridarena.games.isolation.rules import State

TIME_LIMIT_MILLIS = 150

Move: TypeAlias = tuple[int, int]
"""An AIND move or location: ``(row, col)``; ``(-1, -1)`` means "no move"."""
NO_MOVE: Final[Move] = (-1, -1)

TimeLeft: TypeAlias = Callable[[], float]
"""AIND's ``time_left()``: milliseconds left for this move (negative once overrun)."""

#: Shared by every board built without its own generator, as AIND's global ``random`` was.
SHARED_RNG = random.Random(0)

_KNIGHT_STEPS: tuple[Move, ...] = ((-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1))


class AindPlayer(Protocol):
    """What ``Board.play`` needs of a player: ``get_move(game, time_left) -> (row, col)``."""

    def get_move(self, game: Board, time_left: TimeLeft) -> Move:
        """The move on ``game`` (a private copy), ``(-1, -1)`` for none."""
        ...


def seed(value: int) -> None:
    """Reseed :data:`SHARED_RNG`, the generator of boards built without their own."""
    SHARED_RNG.seed(value)


class Board:
    """Knight Isolation with the AIND API: ``Board(player_1, player_2, width=7, height=7)``.

    ``rng`` (not in AIND) is the generator used to shuffle legal moves; copies share it.

    >>> b = Board("a", "b", width=3, height=2)
    >>> b.get_blank_spaces()
    [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2)]
    >>> b.apply_move((1, 2)); b.to_string()
    '     0   1   2\\n\\r0  |   |   |   | \\n\\r1  |   |   | 1 | \\n\\r'
    """

    BLANK = 0
    NOT_MOVED = None

    def __init__(
        self,
        player_1: Hashable,
        player_2: Hashable,
        width: int = 7,
        height: int = 7,
        rng: random.Random | None = None,
    ) -> None:
        self.width = width
        self.height = height
        self.move_count = 0
        self._player_1 = player_1
        self._player_2 = player_2
        self._active_player: Any = player_1
        self._inactive_player: Any = player_2
        self._rng = SHARED_RNG if rng is None else rng
        # Trailing entries: side to move (0 = player 1), player 2's cell, player 1's cell.
        self._board_state: list[int | None] = [Board.BLANK] * (width * height + 3)
        self._board_state[-1] = Board.NOT_MOVED
        self._board_state[-2] = Board.NOT_MOVED

    def hash(self) -> int:
        """Python's hash of ``str(_board_state)`` (salted per process, as in AIND)."""
        return hash(str(self._board_state))

    @property
    def active_player(self) -> Any:
        """The player to move."""
        return self._active_player

    @property
    def inactive_player(self) -> Any:
        """The player waiting."""
        return self._inactive_player

    def get_opponent(self, player: Hashable) -> Any:
        """The other registered player; ``RuntimeError`` for an object that is not a player here."""
        if player == self._active_player:
            return self._inactive_player
        if player == self._inactive_player:
            return self._active_player
        raise RuntimeError("`player` must be an object registered as a player in the current game.")

    def copy(self) -> Board:
        """A complete copy (same players, size, counters, generator and a copy of the state list)."""
        new_board = Board(self._player_1, self._player_2, self.width, self.height, self._rng)
        new_board.move_count = self.move_count
        new_board._active_player = self._active_player
        new_board._inactive_player = self._inactive_player
        new_board._board_state = list(self._board_state)
        return new_board

    def forecast_move(self, move: Move) -> Board:
        """A copy with ``move`` applied; the board itself is unchanged."""
        new_board = self.copy()
        new_board.apply_move(move)
        return new_board

    def move_is_legal(self, move: Move) -> bool:
        """Whether ``move`` is an open cell on the board (AIND checks neither the knight jump nor the turn)."""
        idx = move[0] + move[1] * self.height
        return (
            0 <= move[0] < self.height and 0 <= move[1] < self.width and self._board_state[idx] == Board.BLANK
        )

    def get_blank_spaces(self) -> list[Move]:
        """Blank cells in column-major order."""
        state, h = self._board_state, self.height
        return [(i, j) for j in range(self.width) for i in range(h) if state[i + j * h] == Board.BLANK]

    def get_player_location(self, player: Hashable) -> Move | None:
        """``(row, col)`` of ``player``'s piece, or ``NOT_MOVED`` before its placement."""
        if player == self._player_1:
            idx = self._board_state[-1]
        elif player == self._player_2:
            idx = self._board_state[-2]
        else:
            raise RuntimeError(f"Invalid player in get_player_location: {player}")
        if idx is None:
            return Board.NOT_MOVED
        return (idx % self.height, idx // self.height)

    def get_legal_moves(self, player: Hashable | None = None) -> list[Move]:
        """Moves of ``player`` (default: the one to move), shuffled; every blank cell before placement."""
        if player is None:
            player = self._active_player
        return self._get_moves(self.get_player_location(player))

    def _get_moves(self, loc: Move | None) -> list[Move]:
        if loc is None:
            return self.get_blank_spaces()
        r, c = loc
        moves = [(r + dr, c + dc) for dr, dc in _KNIGHT_STEPS if self.move_is_legal((r + dr, c + dc))]
        # AIND shuffles on every call, and agents that keep the first of equal moves inherit it.
        self._rng.shuffle(moves)
        return moves

    def apply_move(self, move: Move) -> None:
        """Move the active player to ``move`` in place, checking nothing (as AIND)."""
        idx = move[0] + move[1] * self.height
        last_move_idx = int(self._active_player == self._player_2) + 1
        self._board_state[-last_move_idx] = idx
        self._board_state[idx] = 1
        side = self._board_state[-3]
        self._board_state[-3] = (0 if side is None else side) ^ 1
        self._active_player, self._inactive_player = self._inactive_player, self._active_player
        self.move_count += 1

    def is_winner(self, player: Hashable) -> bool:
        """Whether ``player`` waits and the player to move has no move."""
        return player == self._inactive_player and not self.get_legal_moves(self._active_player)

    def is_loser(self, player: Hashable) -> bool:
        """Whether ``player`` is to move and has no move."""
        return player == self._active_player and not self.get_legal_moves(self._active_player)

    def utility(self, player: Hashable) -> float:
        """``+inf`` for the winner, ``-inf`` for the loser, ``0.0`` while the game goes on."""
        if not self.get_legal_moves(self._active_player):
            if player == self._inactive_player:
                return float("inf")
            if player == self._active_player:
                return float("-inf")
        return 0.0

    def print_board(self) -> str:
        """Deprecated in AIND: returns :meth:`to_string` (it does not print)."""
        return self.to_string()

    def to_string(self, symbols: tuple[str, str] | list[str] = ("1", "2")) -> str:
        """AIND's text picture; every line ends with ``"\\n\\r"``."""
        p1_loc, p2_loc = self._board_state[-1], self._board_state[-2]
        margin = len(str(self.height - 1)) + 1
        out = " " * (margin + 3) + "   ".join(map(str, range(self.width))) + "\n\r"
        for i in range(self.height):
            out += f"{i:<{margin}}" + " | "
            for j in range(self.width):
                out += self._cell_char(i + j * self.height, p1_loc, p2_loc, symbols) + " | "
            out += "\n\r"
        return out

    def _cell_char(self, idx: int, p1_loc: int | None, p2_loc: int | None, symbols: Any) -> str:
        if not self._board_state[idx]:
            return " "
        if p1_loc == idx:
            return str(symbols[0])
        if p2_loc == idx:
            return str(symbols[1])
        return "-"

    def play(self, time_limit: float = TIME_LIMIT_MILLIS) -> tuple[Any, list[list[int]], str]:
        """Play to the end; ``(winner, moves made here as [row, col] lists, reason)`` as AIND returns it.

        The clock is read only after ``get_move`` returns, and a late move loses even when legal.
        """
        move_history: list[list[int]] = []
        while True:
            legal_player_moves = self.get_legal_moves()
            game_copy = self.copy()
            move_start = 1000 * timeit.default_timer()

            def time_left(start: float = move_start) -> float:
                return time_limit - (1000 * timeit.default_timer() - start)

            curr_move = self._active_player.get_move(game_copy, time_left)
            move_end = time_left()
            if curr_move is None:
                curr_move = Board.NOT_MOVED
            if move_end < 0:
                return self._inactive_player, move_history, "timeout"
            # List membership against tuples: a move returned as a list is never legal (AIND quirk).
            if curr_move not in legal_player_moves:
                reason = "forfeit" if legal_player_moves else "illegal move"
                return self._inactive_player, move_history, reason
            move_history.append(list(curr_move))
            self.apply_move(curr_move)


def board_from_state(
    state: State, player_1: Hashable, player_2: Hashable, rng: random.Random | None = None
) -> Board:
    """The AIND board of a reference state (row-major cells become column-major indices).

    >>> b = board_from_state(State(7, 7, blocked=(1 << 17) | (1 << 5), locs=(17, 5), ply=2), "a", "b")
    >>> b._board_state[-3:], b.active_player
    ([0, 35, 23], 'a')
    """
    board = Board(player_1, player_2, state.width, state.height, rng)
    height, width = state.height, state.width

    def index(cell: int) -> int:
        row, col = divmod(cell, width)
        return row + col * height

    for cell in range(width * height):
        if state.blocked >> cell & 1:
            board._board_state[index(cell)] = 1
    loc_1, loc_2 = state.locs
    board._board_state[-1] = None if loc_1 is None else index(loc_1)
    board._board_state[-2] = None if loc_2 is None else index(loc_2)
    board._board_state[-3] = state.ply % 2
    board.move_count = state.ply
    if state.ply % 2:
        board._active_player, board._inactive_player = player_2, player_1
    return board


def state_from_aind(board: Board) -> State:
    """The reference state of an AIND board (inverse of :func:`board_from_state`).

    >>> b = Board("a", "b"); b.apply_move((2, 3))
    >>> state_from_aind(b)
    State(width=7, height=7, blocked=131072, locs=(17, None), ply=1, forfeited=None)
    """
    height, width = board.height, board.width

    def cell(index: int | None) -> int | None:
        return None if index is None else (index % height) * width + index // height

    blocked = 0
    for index in range(width * height):
        if board._board_state[index]:
            blocked |= 1 << (index % height) * width + index // height
    locs = (cell(board._board_state[-1]), cell(board._board_state[-2]))
    return State(width, height, blocked, locs, board.move_count)
