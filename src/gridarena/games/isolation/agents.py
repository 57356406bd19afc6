"""The AIND agents (``game_agent.py`` as a typical 2017 solution) and their gridarena bot wrappers.

``MinimaxPlayer`` is fixed-depth minimax (depth 3), ``AlphaBetaPlayer`` iterative-deepening
alpha-beta; both follow the TIMER_THRESHOLD convention: every search routine first checks
``self.time_left() < self.TIMER_THRESHOLD`` and raises :class:`SearchTimeout`, and ``get_move``
returns the best move of the last completed search. They run on the AIND
:class:`~gridarena.games.isolation.aind.Board`, so their speed is the AIND speed the tournament
measures. :class:`AindBot` plays such a player as a gridarena bot on the reference state.

Two choices the template leaves open, made as most students did: the fallback move is the first
legal move (not ``(-1, -1)``, which forfeits a game whose depth-1 search did not finish), and
the first of equally valued moves is kept (AIND's shuffled move lists make that random).
"""

from __future__ import annotations

import math
import time
from collections.abc import Hashable
from dataclasses import replace
from typing import Any, Final

from gridarena.core.bot import BaseBot, Decision
from gridarena.core.clock import TimeControl
from gridarena.core.types import Game, GameState
from gridarena.games.isolation import aind_samples as samples
from gridarena.games.isolation.aind import Board, Move, TimeLeft, board_from_state, state_from_aind
from gridarena.games.isolation.fast import MAX_CELLS, WIN, Engine, SearchResult
from gridarena.games.isolation.rules import Cell, State

NO_MOVE: Final[Move] = (-1, -1)
BEST_MARGIN_MS: Final = 25.0
"""How long before the deadline the best agent stops searching."""
BEST_NODES: Final = 1_600_000
"""The best agent's nodes per move in load-independent matches: about 120 ms on an idle core (13 M nodes/s)."""
UNTIMED_DEPTH: Final = 10
"""The best agent's depth when nothing limits it (no deadline, depth or node budget)."""
PROXY_DEPTHS: Final = ((10, 7), (20, 9), (MAX_CELLS + 1, 13))
"""``(below ply, depth)``: the spec's (section 11) depths of AB_Improved at 150 ms; on its CPU clock it
completes 1-3 plies more (docs/isolation.md), so the proxy converts fewer won games than it does."""
TRAP_DEPTHS: Final = (5, 6, 7, 8, 9)
"""The horizons at which the best agent models AB_Improved's reply when it has a proven loss."""
TRAP_NODES: Final = 100_000
"""Node cap of each of the best agent's searches that test whether a modelled reply is a mistake."""


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


class _Seat:
    """The opponent's stand-in on a bot's AIND board: hashable, distinct, never asked to move."""

    def __repr__(self) -> str:
        return "opponent"


def clock_time_left(clock: TimeControl) -> TimeLeft:
    """AIND's ``time_left()`` in ms from a time control; a spent node budget reads as ``-inf``.

    >>> left = clock_time_left(TimeControl(nodes=1)); left() == math.inf, left() == -math.inf
    (True, True)
    """

    def time_left() -> float:
        clock.count += 1
        if clock.nodes is not None and clock.count > clock.nodes:
            return -math.inf
        return clock.time_left() * 1000.0

    return time_left


class AindBot(BaseBot):
    """An AIND player (anything with ``get_move(game, time_left)``) as a gridarena bot.

    Each move builds an AIND board of the reference state, the bot in its seat; the shuffles draw
    from the bot's seeded RNG. The time control's ``depth`` caps an AlphaBetaPlayer's iterations.
    """

    def __init__(self, player: Any, name: str, seed: int | None = None) -> None:
        super().__init__(seed)
        self.player, self.name = player, name

    def reset(self, game: Game[Any], seat: int, seed: int) -> None:
        """A new game: the RNG is reseeded, and a player that draws (RandomPlayer) draws from it."""
        super().reset(game, seat, seed)
        if hasattr(self.player, "rng"):
            self.player.rng = self.rng

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        """The AIND player's move on this state, with the completed depth and the node count."""
        assert isinstance(state, State)
        opponent: Hashable = _Seat()
        seats = (self.player, opponent) if state.ply % 2 == 0 else (opponent, self.player)
        board = board_from_state(state, seats[0], seats[1], rng=self.rng)
        if isinstance(self.player, AlphaBetaPlayer) and clock.depth is not None:
            self.player.max_depth = clock.depth
        row, col = self.player.get_move(board, clock_time_left(clock))
        info: dict[str, Any] = {}
        if isinstance(self.player, IsolationPlayer):
            info = {"depth": self.player.completed_depth, "nodes": self.player.nodes}
        cell: Cell = row * state.width + col if (row, col) != NO_MOVE else -1
        return Decision(cell, info)


def proxy_depth(ply: int, depths: tuple[tuple[int, int], ...] = PROXY_DEPTHS) -> int:
    """The fixed depth AB_Improved's proxy searches at ``ply``.

    >>> proxy_depth(2), proxy_depth(12), proxy_depth(25)
    (7, 9, 13)
    """
    return next(depth for below, depth in depths if ply < below)


class ImprovedModel:
    """AB_Improved's search on the fast engine: alpha-beta over ``own - opp`` moves, no table between calls.

    Leaf values equal ``improved_score``'s, so a depth-``d`` search has the AIND player's value;
    where moves tie, the engine's move order (not AIND's shuffle) breaks the tie. A leaf whose
    opponent is stuck counts as a win (AIND scores it ``own - 0``), a small gain in strength.
    """

    def __init__(self, width: int = 7, height: int = 7) -> None:
        self.engine = Engine(width, height, tt_bits=16, endgame=False, weights=(1, 1))
        self.nodes = 0  # nodes of the last call

    def replies(self, state: State, depths: tuple[int, ...], deadline: float | None = None) -> list[Cell]:
        """The move the model plays at each of ``depths`` (a proven result ends the deepening early).

        Past the ``deadline``, the deepest completed depth stands in for the deeper ones.
        """
        self.engine.clear()
        result = self.engine.search(state, deadline, max_depth=max(depths))
        self.nodes = result.nodes
        history = result.history or (result.move,)
        return [history[min(d, len(history)) - 1] for d in depths]


class ImprovedDepthPlayer:
    """A load-independent stand-in for AB_Improved at 150 ms: fixed depths by ply (:data:`PROXY_DEPTHS`).

    It ignores the clock, so a match against it depends on no machine's load.
    """

    def __init__(self, depths: tuple[tuple[int, int], ...] = PROXY_DEPTHS) -> None:
        self.depths = depths
        self._models: dict[tuple[int, int], ImprovedModel] = {}

    def choose(self, state: State) -> Cell:
        """The proxy's move (-1 without a legal move)."""
        if not state.legal_actions():
            return -1
        size = (state.width, state.height)
        if size not in self._models:
            self._models[size] = ImprovedModel(*size)
        return self._models[size].replies(state, (proxy_depth(state.ply, self.depths),))[0]

    def get_move(self, game: Board, time_left: TimeLeft) -> Move:
        """AIND's entry point: the proxy's move, or ``(-1, -1)``."""
        cell = self.choose(state_from_aind(game))
        return NO_MOVE if cell < 0 else (cell // game.width, cell % game.width)


def trap_value(result: SearchResult) -> float:
    """A position's value for its mover by a bounded search: its score, or -WIN if no depth completed.

    A proven loss scores below every open position, a proven win above; a longer loss scores higher.

    >>> trap_value(SearchResult(3, -12, 4, 100, 0.0)), trap_value(SearchResult(3, 40, 0, 100, 0.0))
    (-12.0, -1000000.0)
    """
    return float(result.score) if result.depth > 0 else float(-WIN)


class BestPlayer:
    """Our strongest agent with the AIND interface: the fast engine's iterative deepening.

    It stops ``margin`` ms before the move's deadline and keeps its transposition table between
    moves. The kernel reads the clock every 1,024 nodes (well under a millisecond); the rest of
    the margin absorbs the scheduler on a loaded machine, where 10 ms proved too little.
    ``nodes`` caps the nodes of a move (searches and trap tests together), so that a match does
    not depend on the machine's load. With ``trap``, a proven loss is not resigned to the longest
    defence: the time the proof left over goes to finding the move whose likely AB_Improved replies
    (:class:`ImprovedModel` at :data:`TRAP_DEPTHS`) give the win back. It is off by default: against
    AB_Improved on the CPU clock it saved 5 of 50 lost games, the longest defence 12 (docs/isolation.md).
    """

    def __init__(
        self,
        margin: float = BEST_MARGIN_MS,
        engine_options: dict[str, Any] | None = None,
        nodes: int | None = None,
        trap: bool = False,
    ) -> None:
        self.margin, self.nodes, self.trap = margin, nodes, trap
        self.engine_options = engine_options or {}
        self._engines: dict[tuple[int, int], Engine] = {}
        self._models: dict[tuple[int, int], ImprovedModel] = {}
        self.last: SearchResult | None = None
        self.trapped = 0  # moves chosen by the trap search (not the longest defence)
        # Load the compiled kernels now (about a second from numba's cache), not inside a timed move.
        Engine(3, 3, tt_bits=2).search(State(3, 3).child(0), max_depth=2)

    def engine(self, width: int, height: int) -> Engine:
        """The engine of this board size (built on first use), and the model of the opponent beside it."""
        if (width, height) not in self._engines:
            self._engines[width, height] = Engine(width, height, **self.engine_options)
            self._models[width, height] = ImprovedModel(width, height)
        return self._engines[width, height]

    def search(
        self, state: State, seconds: float | None, depth: int | None = None, nodes: int | None = None
    ) -> Cell:
        """The move for ``state`` within ``seconds`` (a cell; -1 without a legal move)."""
        deadline = None if seconds is None else time.perf_counter() + max(0.0, seconds)
        nodes = self.nodes if nodes is None else nodes
        if deadline is None and depth is None and nodes is None:
            depth = UNTIMED_DEPTH
        engine = self.engine(state.width, state.height)
        self.last = engine.search(state, deadline, depth, nodes)
        if self.trap and self.last.proven and self.last.score < 0 and self.last.move >= 0 and state.ply >= 2:
            left = None if nodes is None else nodes - self.last.nodes
            move = self.trap_move(state, self.last.move, deadline, left)
            self.trapped += move != self.last.move
            self.last = replace(self.last, move=move)
        return self.last.move

    def trap_move(self, state: State, first: Cell, deadline: float | None, nodes: int | None) -> Cell:
        """In a proven loss, the move that leaves this side best placed after the modelled replies.

        Each move is scored by :func:`trap_value` of the position after each modelled reply, from
        this side, averaged over the model's depths: a reply that the search cannot refute within
        its budget (a likely mistake) beats a refutation it proves. The moves are tried ``first``
        first (it wins ties), until the ``deadline`` or the ``nodes`` run out.
        """
        engine, model = self.engine(state.width, state.height), self._models[state.width, state.height]
        moves = [first] + [m for m in state.legal_actions() if m != first]
        best, best_value = first, -math.inf
        for move in moves:
            if (deadline is not None and time.perf_counter() >= deadline) or (
                nodes is not None and nodes <= 0
            ):
                break
            child = state.child(move)
            replies = model.replies(child, TRAP_DEPTHS, deadline)
            nodes = None if nodes is None else nodes - model.nodes
            value = 0.0
            for reply in set(replies):
                cap = TRAP_NODES if nodes is None else max(1, min(TRAP_NODES, nodes))
                result = engine.search(child.child(reply), deadline, nodes=cap)
                nodes = None if nodes is None else nodes - result.nodes
                value += trap_value(result) * replies.count(reply) / len(replies)
            if value > best_value:
                best, best_value = move, value
        return best

    def get_move(self, game: Board, time_left: TimeLeft) -> Move:
        """AIND's entry point: the engine's move on this board, or ``(-1, -1)``."""
        state = state_from_aind(game)
        self.engine(game.width, game.height)  # built before the clock is read: a new size costs a table
        cell = self.search(state, (time_left() - self.margin) / 1000.0)
        return NO_MOVE if cell < 0 else (cell // game.width, cell % game.width)


class BestBot(BaseBot):
    """:class:`BestPlayer` as a gridarena bot (registered as ``best``)."""

    name = "best"

    def __init__(
        self, seed: int | None = None, margin: float = BEST_MARGIN_MS, **engine_options: Any
    ) -> None:
        super().__init__(seed)
        self.player = BestPlayer(margin, engine_options)

    def reset(self, game: Game[Any], seat: int, seed: int) -> None:
        """A new game: the transposition tables are cleared."""
        super().reset(game, seat, seed)
        for engine in self.player._engines.values():
            engine.clear()

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        """Search until the clock's deadline less the margin, or to its depth or node limit."""
        assert isinstance(state, State)
        self.player.engine(state.width, state.height)  # built before the clock is read
        seconds = None if clock.deadline is None else clock.time_left() - self.player.margin / 1000.0
        cell = self.player.search(state, seconds, clock.depth, clock.nodes)
        last = self.player.last
        assert last is not None
        info: dict[str, Any] = {"depth": last.depth, "score": last.score, "nodes": last.nodes}
        return Decision(cell, info)


def make_best(game: Game[Any], seed: int | None = None, margin: float = BEST_MARGIN_MS) -> BestBot:
    """Our strongest Isolation bot: fast alpha-beta with table, ordering and exact endgame."""
    return BestBot(seed, margin)


def make_ab_improved_depth(game: Game[Any], seed: int | None = None) -> AindBot:
    """AB_Improved's load-independent proxy: improved_score alpha-beta to fixed depths by ply."""
    return AindBot(ImprovedDepthPlayer(), "ab_improved_depth", seed)


def _bot(player: Any, name: str, seed: int | None) -> AindBot:
    return AindBot(player, name, seed)


def make_random(game: Game[Any], seed: int | None = None) -> AindBot:
    """AIND's RandomPlayer as a bot (uniform over the legal moves)."""
    bot = AindBot(None, "random", seed)
    bot.player = samples.RandomPlayer(rng=bot.rng)
    return bot


def _minimax_factory(name: str, score: samples.Score) -> Any:
    def make(
        game: Game[Any], seed: int | None = None, search_depth: int = 3, timeout: float = 10.0
    ) -> AindBot:
        return _bot(MinimaxPlayer(search_depth, score, timeout), name, seed)

    make.__doc__ = f"AIND {name}: fixed-depth minimax with {score.__name__}."
    return make


def _alphabeta_factory(name: str, score: samples.Score) -> Any:
    def make(game: Game[Any], seed: int | None = None, timeout: float = 10.0) -> AindBot:
        return _bot(AlphaBetaPlayer(score_fn=score, timeout=timeout), name, seed)

    make.__doc__ = f"AIND {name}: iterative-deepening alpha-beta with {score.__name__}."
    return make


make_mm_open = _minimax_factory("mm_open", samples.open_move_score)
make_mm_center = _minimax_factory("mm_center", samples.center_score)
make_mm_improved = _minimax_factory("mm_improved", samples.improved_score)
make_ab_open = _alphabeta_factory("ab_open", samples.open_move_score)
make_ab_center = _alphabeta_factory("ab_center", samples.center_score)
make_ab_improved = _alphabeta_factory("ab_improved", samples.improved_score)
make_ab_custom = _alphabeta_factory("ab_custom", samples.custom_score)
make_ab_custom_2 = _alphabeta_factory("ab_custom_2", samples.custom_score_2)
make_ab_custom_3 = _alphabeta_factory("ab_custom_3", samples.custom_score_3)
make_ab_custom_4 = _alphabeta_factory("ab_custom_4", samples.custom_score_4)


__all__ = [
    "AindBot",
    "AlphaBetaPlayer",
    "BestBot",
    "BestPlayer",
    "ImprovedDepthPlayer",
    "ImprovedModel",
    "IsolationPlayer",
    "MinimaxPlayer",
    "SearchTimeout",
    "make_ab_center",
    "make_ab_custom",
    "make_ab_custom_2",
    "make_ab_custom_3",
    "make_ab_custom_4",
    "make_ab_improved",
    "make_ab_improved_depth",
    "make_ab_open",
    "make_best",
    "make_mm_center",
    "make_mm_improved",
    "make_mm_open",
    "make_random",
]
