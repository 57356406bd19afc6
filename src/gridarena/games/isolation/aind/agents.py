"""AIND's agents (``game_agent.py`` as a typical 2017 solution): ``MinimaxPlayer`` and ``AlphaBetaPlayer``.

``MinimaxPlayer`` is fixed-depth minimax (depth 3), ``AlphaBetaPlayer`` iterative-deepening
alpha-beta; both follow the TIMER_THRESHOLD convention: every search routine first checks
``self.time_left() < self.TIMER_THRESHOLD`` and raises :class:`SearchTimeout`, and ``get_move``
returns the best move of the last completed search. They run on the AIND
:class:`~gridarena.games.isolation.aind.board.Board`, so their speed is the AIND speed the
tournament measures. They are not the generic ``search/`` library on purpose: AIND's reference
players must search as AIND's did (its Board, its shuffled move order, its clock checks, its nodes).

Two choices the template leaves open, made as most students did: the fallback move is the first
legal move (not ``(-1, -1)``, which forfeits a game whose depth-1 search did not finish), and
the first of equally valued moves is kept (AIND's shuffled move lists make that random).
"""

from __future__ import annotations

import math
import time
from typing import Any, cast

from gridarena.games.isolation.aind import samples
from gridarena.games.isolation.aind.board import NO_MOVE, TIME_LIMIT_MILLIS, Board, Move, TimeLeft


class SearchTimeout(Exception):
    """Raised inside a search once ``time_left()`` falls below the player's threshold."""


class IsolationPlayer:
    """AIND's base agent: ``search_depth``, the ``score`` function and ``TIMER_THRESHOLD`` (ms)."""

    def __init__(
        self, search_depth: int = 3, score_fn: samples.Score = samples.improved_score, timeout: float = 10.0
    ) -> None:
        self.search_depth = search_depth
        self.score = score_fn
        self.time_left: TimeLeft | None = None
        self.TIMER_THRESHOLD = timeout
        self.nodes = 0  # nodes visited in the last get_move (not in AIND; for benchmarks)
        self.completed_depth = 0  # depth of the last completed search (not in AIND)

    def _check(self) -> None:
        self.nodes += 1
        assert self.time_left is not None
        if self.time_left() < self.TIMER_THRESHOLD:
            raise SearchTimeout()


class MinimaxPlayer(IsolationPlayer):
    """Fixed-depth minimax (AIND's MM opponents): ``(-1, -1)`` if depth ``search_depth`` does not finish."""

    def get_move(self, game: Board, time_left: TimeLeft) -> Move:
        """The minimax move of depth ``search_depth``, or ``(-1, -1)`` on timeout (AIND's given code)."""
        self.time_left, self.nodes, self.completed_depth = time_left, 0, 0
        best_move = NO_MOVE
        try:
            best_move = self.minimax(game, self.search_depth)
            self.completed_depth = self.search_depth
        except SearchTimeout:
            pass
        return best_move

    def minimax(self, game: Board, depth: int) -> Move:
        """The best move at ``depth`` plies (``(-1, -1)`` without a legal move)."""
        self._check()
        best_move, best_score = NO_MOVE, -math.inf
        for move in game.get_legal_moves():
            value = self._value(game.forecast_move(move), depth - 1, maximizing=False)
            if best_move == NO_MOVE or value > best_score:
                best_move, best_score = move, value
        return best_move

    def _value(self, game: Board, depth: int, maximizing: bool) -> float:
        self._check()
        legal = game.get_legal_moves()
        if depth <= 0 or not legal:
            return self.score(game, self)
        values = (self._value(game.forecast_move(m), depth - 1, not maximizing) for m in legal)
        return max(values) if maximizing else min(values)


class AlphaBetaPlayer(IsolationPlayer):
    """Iterative-deepening alpha-beta until ``TIMER_THRESHOLD`` ms before the move's deadline.

    ``max_depth`` (not in AIND) caps the iterations; without it they stop only on timeout or once
    the depth exceeds the number of blank cells (the whole game has been searched).
    """

    def __init__(
        self,
        search_depth: int = 3,
        score_fn: samples.Score = samples.improved_score,
        timeout: float = 10.0,
        max_depth: int | None = None,
    ) -> None:
        super().__init__(search_depth, score_fn, timeout)
        self.max_depth = max_depth

    def get_move(self, game: Board, time_left: TimeLeft) -> Move:
        """The move of the deepest completed iteration (the first legal move if none completed)."""
        self.time_left, self.nodes, self.completed_depth = time_left, 0, 0
        legal = game.get_legal_moves()
        best_move = legal[0] if legal else NO_MOVE
        limit = self.max_depth if self.max_depth is not None else game.width * game.height - game.move_count
        try:
            for depth in range(1, limit + 1):
                best_move = self.alphabeta(game, depth)
                self.completed_depth = depth
        except SearchTimeout:
            pass
        return best_move

    def alphabeta(self, game: Board, depth: int, alpha: float = -math.inf, beta: float = math.inf) -> Move:
        """The best move at ``depth`` plies by alpha-beta (``(-1, -1)`` without a legal move)."""
        self._check()
        legal = game.get_legal_moves()
        best_move, best_score = (legal[0], -math.inf) if legal else (NO_MOVE, -math.inf)
        for move in legal:
            value = self._min_value(game.forecast_move(move), depth - 1, alpha, beta)
            if value > best_score:
                best_move, best_score = move, value
            alpha = max(alpha, best_score)
        return best_move

    def _max_value(self, game: Board, depth: int, alpha: float, beta: float) -> float:
        self._check()
        legal = game.get_legal_moves()
        if depth <= 0 or not legal:
            return self.score(game, self)
        value = -math.inf
        for move in legal:
            value = max(value, self._min_value(game.forecast_move(move), depth - 1, alpha, beta))
            if value >= beta:
                return value
            alpha = max(alpha, value)
        return value

    def _min_value(self, game: Board, depth: int, alpha: float, beta: float) -> float:
        self._check()
        legal = game.get_legal_moves()
        if depth <= 0 or not legal:
            return self.score(game, self)
        value = math.inf
        for move in legal:
            value = min(value, self._max_value(game.forecast_move(move), depth - 1, alpha, beta))
            if value <= alpha:
                return value
            beta = min(beta, value)
        return value


class CpuClock:
    """An AIND player whose ``time_left()`` runs on this process's CPU clock, ``limit`` ms per move.

    Other processes' load then neither slows it nor makes it time out: the match keeps AIND's
    search and its 10 ms threshold, and ``late`` counts moves that overran the limit anyway.
    Play it with a long wall-clock time limit (registered as the bot ``ab_improved_cpu``).
    """

    def __init__(self, player: Any, limit: float = TIME_LIMIT_MILLIS) -> None:
        self.player, self.limit, self.late = player, limit, 0

    def get_move(self, game: Board, time_left: TimeLeft) -> Move:
        """The player's move, timed on the CPU clock (``time_left`` is ignored)."""
        start = time.process_time()

        def cpu_left() -> float:
            return self.limit - 1000.0 * (time.process_time() - start)

        # The game is the player's own copy: seat the wrapped player, whom its score functions ask about.
        for seat in ("_player_1", "_player_2", "_active_player", "_inactive_player"):
            if getattr(game, seat) is self:
                setattr(game, seat, self.player)
        move = self.player.get_move(game, cpu_left)
        self.late += cpu_left() < 0
        return cast(Move, move)
