"""Our strongest Isolation player, ``best``: the fast engine's search, as a player and as a bot.

:class:`BestPlayer` chooses a move for a reference state; :class:`BestBot` is the same search as a
gridarena bot (``aind.adapter.AindBestPlayer`` gives it AIND's ``get_move``, so it plays on the AIND
Board and in AIND's tournament). :class:`ImprovedModel` is AB_Improved's search on the fast engine,
which the trap play and the fixed-depth proxy (:class:`ImprovedDepthPlayer`, a load-independent
stand-in for AB_Improved) use.
"""

from __future__ import annotations

import math
import time
from dataclasses import replace
from typing import Any, Final

from gridarena.core.bot import BaseBot, Decision
from gridarena.core.clock import TimeControl
from gridarena.core.types import Game, GameState
from gridarena.games.isolation.fast import MAX_CELLS, WIN, WON, Engine, SearchResult
from gridarena.games.isolation.rules import Cell, State
from gridarena.games.isolation.solve import shipped_solution

BEST_MARGIN_MS: Final = 25.0
"""How long before the deadline the best agent stops searching."""
BEST_NODES: Final = 1_600_000
"""The best agent's nodes per move in load-independent matches: about 120 ms on an idle core (13 M nodes/s)."""
UNTIMED_DEPTH: Final = 10
"""The best agent's depth when nothing limits it (no deadline, depth or node budget)."""
PROXY_DEPTHS: Final = ((10, 7), (20, 9), (MAX_CELLS + 1, 13))
"""``(below ply, depth)``: depths of AB_Improved at 150 ms (an informal measurement on AIND's ``Board``);
on its CPU clock it completes 1-3 plies more (docs/isolation.md), so the proxy converts fewer won games than it does."""
TRAP_DEPTHS: Final = (5, 6, 7, 8, 9)
"""The horizons at which the best agent models AB_Improved's reply when it has a proven loss."""
TRAP_NODES: Final = 100_000
"""Node cap of each of the best agent's searches that test whether a modelled reply is a mistake."""


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

    def _model(self, state: State) -> ImprovedModel:
        size = (state.width, state.height)
        if size not in self._models:
            self._models[size] = ImprovedModel(*size)
        return self._models[size]

    def warm_up(self, game: Game[Any]) -> None:
        """Build the model of the game's board and load its kernels (numba's cache) outside the clock."""
        state = game.new_initial_state()
        assert isinstance(state, State)
        self._model(state).replies(state, (2,))

    def choose(self, state: State) -> Cell:
        """The proxy's move (-1 without a legal move)."""
        if not state.legal_actions():
            return -1
        return self._model(state).replies(state, (proxy_depth(state.ply, self.depths),))[0]


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
        self.source = "search"  # where the last move came from: "book", "proof" or "search"
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
        """The move for ``state`` within ``seconds`` (a cell; -1 without a legal move).

        A position of the shipped solution's book (the first plies of a solved board) is answered
        from it. Otherwise, unless a fixed depth is asked, a proof search gets the first half of the
        time (or nodes): a proven win is played at once. Then iterative deepening, which in a proven
        loss finds the longest defence.
        """
        deadline = None if seconds is None else time.perf_counter() + max(0.0, seconds)
        nodes = self.nodes if nodes is None else nodes
        if deadline is None and depth is None and nodes is None:
            depth = UNTIMED_DEPTH
        engine = self.engine(state.width, state.height)
        book = self.book_move(state)
        if book is not None:
            self.last, self.source = SearchResult(book, WON, 0, 0, 0.0), "book"
            return book
        proof = None if depth is not None else self.prove(engine, state, deadline, nodes)
        if proof is not None and proof.score >= WON:
            self.last, self.source = proof, "proof"
            return proof.move
        if nodes is not None and proof is not None:
            nodes -= proof.nodes
        self.last, self.source = engine.search(state, deadline, depth, nodes), "search"
        if self.trap and self.last.proven and self.last.score < 0 and self.last.move >= 0 and state.ply >= 2:
            left = None if nodes is None else nodes - self.last.nodes
            move = self.trap_move(state, self.last.move, deadline, left)
            self.trapped += move != self.last.move
            self.last = replace(self.last, move=move)
        return self.last.move

    @staticmethod
    def book_move(state: State) -> Cell | None:
        """The winning move the shipped solution names for the player to move, if it names one."""
        solution = shipped_solution(state.width, state.height)
        verdict = None if solution is None else solution.verdict(state)
        if verdict is None or verdict.winner != state.ply % 2 or verdict.move is None:
            return None
        return verdict.move

    @staticmethod
    def prove(engine: Engine, state: State, deadline: float | None, nodes: int | None) -> SearchResult | None:
        """The proof search with half of what is left (None when nothing is left, or nothing limits it)."""
        if deadline is None and nodes is None:
            return None
        half = None if deadline is None else time.perf_counter() + (deadline - time.perf_counter()) / 2
        if (half is not None and half <= time.perf_counter()) or (nodes is not None and nodes < 2):
            return None
        return engine.prove(state, half, None if nodes is None else nodes // 2)

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


class BestBot(BaseBot):
    """:class:`BestPlayer` as a gridarena bot (registered as ``best``)."""

    name = "best"

    def __init__(
        self,
        seed: int | None = None,
        margin: float = BEST_MARGIN_MS,
        nodes: int | None = None,
        **engine_options: Any,
    ) -> None:
        super().__init__(seed)
        self.player = BestPlayer(margin, engine_options, nodes)

    def warm_up(self, game: Game[Any]) -> None:
        """Build the engine of the game's board and run it once, outside the clock (the kernels are loaded)."""
        state = game.new_initial_state()
        assert isinstance(state, State)
        self.player.engine(state.width, state.height).search(state, max_depth=2)

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
        if self.player.source != "search":
            info["source"] = self.player.source
        return Decision(cell, info)
