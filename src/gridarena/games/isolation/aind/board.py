"""The 2017 Udacity AIND ``isolation.Board``, faithful to its API and quirks.

Everything an AIND ``game_agent.py`` or ``sample_players.py`` may touch behaves as in the original:
column-major cells (``row + col * height``), the flat ``_board_state`` list with its three trailing
entries (side to move, player 2's cell, player 1's cell), ``NOT_MOVED = None``, legal moves shuffled
on every call, ``forecast_move`` on a copy, ``apply_move`` without any check, and ``play(time_limit)``
with the original order of checks and the reasons ``"timeout"``, ``"forfeit"`` and ``"illegal move"``,
played on the shared game loop (:func:`gridarena.core.play.play_game`).

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
import time
from collections.abc import Callable, Hashable
from typing import Any, Final, Protocol, TypeAlias

from gridarena.core.bot import Decision
from gridarena.core.clock import TimeControl, TurnClock
from gridarena.core.errors import GridArenaError
from gridarena.core.gameclock import GameClock, game_clock
from gridarena.core.play import GameRecord, Turn, play_game
from gridarena.core.types import Game, GameState, Player
from gridarena.games.isolation.rules import Isolation, State

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
        """Play to the end on the shared loop; ``(winner, moves made here as [row, col] lists, reason)`` as AIND.

        Each player gets a copy of the board and AIND's ``time_left()`` (``time_limit`` ms from the
        start of its move); the clock is read only after ``get_move`` returns, and a late move
        loses even when legal. Reasons: ``"timeout"`` first, then ``"forfeit"`` for a move that is
        not legal, and ``"illegal move"`` for the normal end. A player's exception goes through.
        Unlike AIND's loop, it needs a board the rules accept (1 to 26 cells a side, two cells at least).
        """
        seats = [
            _PlayerSeat(self, player, name)
            for player, name in ((self._player_1, "player 1"), (self._player_2, "player 2"))
        ]
        moves = _AppliedMoves(self)
        clock = game_clock(time_limit / 1000.0, 2, grace=0.0)
        game = Isolation(self.width, self.height)
        record = play_game(game, seats, seed=0, state=state_from_aind(self), clock=clock, recorders=[moves])
        outcome = record.outcome
        mover = self.move_count % 2  # the live board has every accepted move
        if outcome.termination == "crash":
            raise seats[mover].error or GridArenaError(outcome.reason)
        reason = aind_reason(outcome.termination)
        if outcome.termination == "normal" and _answers_late(seats[mover], clock, mover):
            reason = "timeout"  # AIND asks the player without a move too, and a late answer loses on time
        return self._inactive_player, moves.history, reason


def aind_reason(termination: str) -> str:
    """AIND's reason for an end that the game loop calls ``termination`` (any other forfeit: ``"forfeit"``).

    >>> aind_reason("normal"), aind_reason("timeout"), aind_reason("illegal")
    ('illegal move', 'timeout', 'forfeit')
    """
    return {"normal": "illegal move", "timeout": "timeout", "adjudicated": "adjudicated"}.get(
        termination, "forfeit"
    )


class _PlayerSeat:
    """An AIND player on the shared game loop, asked on a copy of the live board as ``Board.play`` asks it."""

    def __init__(self, board: Board, player: Any, name: str) -> None:
        self.board, self.player, self.name = board, player, name
        self.error: Exception | None = None

    def reset(self, game: Game[Any], seat: Player, seed: int) -> None:
        """Nothing to reset: the player is AIND's object, with whatever state it keeps."""

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        """The player's move as a cell, or -1 (illegal) when it is not in AIND's list of legal moves."""
        move = self.ask(clock)
        return Decision(-1 if move is None else move[0] * self.board.width + move[1])

    def ask(self, clock: TimeControl) -> Move | None:
        """AIND's turn: the legal moves, a copy, ``get_move`` with ``time_left``; the move if it is legal."""
        assert isinstance(clock, TurnClock) and clock.limit is not None
        limit_ms, now = 1000.0 * clock.limit, clock.clock
        try:
            legal = self.board.get_legal_moves()
            game_copy = self.board.copy()
            start = now()
            move = self.player.get_move(game_copy, lambda: limit_ms - 1000.0 * (now() - start))
            # List membership against tuples: a move returned as a list is never legal (AIND quirk).
            return legal[legal.index(move)] if move in legal else None
        except Exception as error:  # AIND's play() lets it through; the loop would make it a forfeit
            self.error = error
            raise


class _AppliedMoves:
    """A recorder of the game loop: applies each accepted move to the live board and keeps AIND's history."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.history: list[list[int]] = []

    def turn(self, turn: Turn, state: GameState[Any]) -> None:
        """Apply the move the loop just accepted (the mover's new cell)."""
        assert isinstance(state, State)
        cell = state.locs[turn.player]
        assert cell is not None
        move = divmod(cell, self.board.width)
        self.history.append(list(move))
        self.board.apply_move(move)

    def result(self, record: GameRecord) -> None:
        """Nothing to do at the end."""


def _answers_late(seat: _PlayerSeat, clock: GameClock, player: Player) -> bool:
    """Whether the player without a move, asked as AIND asks it, answers after its time limit."""
    turn_clock = clock.turn_clock(player)
    start = time.perf_counter()
    seat.ask(turn_clock)
    return clock.charge(player, time.perf_counter() - start, 0.0) is not None


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
