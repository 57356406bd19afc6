"""Bots built from the generic searches, for every game that offers an evaluation function.

Each bot searches for the player to move. The deepening bots (minimax, alpha-beta, paranoid,
max^n, BRS) run iterative deepening until the move's :class:`TimeControl` stops them (deadline,
node budget or depth budget) or their own ``depth`` is reached, and play the best action of the
last completed depth, or the first legal action if not even depth 1 completed. ``Decision.info``
holds ``depth``, ``score`` (from the mover's point of view, wins are +-1e9) and ``nodes``.
The MCTS bot runs until ``iterations`` or the clock, whichever comes first.

The heuristic is a name from the game's table (``gridarena.core.registry.evaluator``), a function
``evaluate(state, player) -> float``, or None for the game's ``default`` entry if it has one, else
the first function it lists.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from gridarena.core import registry
from gridarena.core.bot import BaseBot, Decision
from gridarena.core.clock import TimeControl
from gridarena.core.types import Game, GameState
from gridarena.search.adversarial import Evaluate, Progress
from gridarena.search.alphabeta import alphabeta_deepening
from gridarena.search.brs import brs_deepening
from gridarena.search.errors import UnsupportedGameError
from gridarena.search.iterative import deepen
from gridarena.search.maxn import maxn_deepening
from gridarena.search.mcts import MCTS, Evaluator, HeuristicValue, RandomRollout
from gridarena.search.minimax import minimax
from gridarena.search.paranoid import paranoid_deepening
from gridarena.search.tt import TranspositionTable

Heuristic = str | Evaluate | None


def resolve_heuristic(game: Game[Any], heuristic: Heuristic) -> Evaluate:
    """The evaluation function named by ``heuristic`` for ``game`` (see the module docstring)."""
    if callable(heuristic):
        return heuristic
    if heuristic is not None:
        return registry.evaluator(game.name, heuristic)
    table = registry.evaluators(game.name)
    if not table:
        raise UnsupportedGameError(f"{game.name}: the game offers no evaluation function; pass heuristic=...")
    return table.get("default") or next(iter(table.values()))


def _check_searchable(game: Game[Any], algorithm: str, two_players: bool = False) -> None:
    if not game.enumerable_actions:
        raise UnsupportedGameError(f"{game.name}: {algorithm} needs a game whose actions can be listed")
    if two_players and game.num_players != 2:
        raise UnsupportedGameError(
            f"{game.name}: {algorithm} needs 2 players, the game has {game.num_players} (try paranoid, maxn or brs)"
        )


class DeepeningBot(BaseBot):
    """Plays the best action of the last depth its search completed; subclasses choose the search."""

    def __init__(self, evaluate: Evaluate, depth: int | None = None, seed: int | None = None) -> None:
        super().__init__(seed)
        self.evaluate = evaluate
        self.depth = depth

    def progress(self, state: GameState[Any], clock: TimeControl) -> Iterator[Progress]:
        """The anytime search of this bot (one progress per completed depth)."""
        raise NotImplementedError

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        """Deepen until the clock or the depth limit stops the search; answer the last best action."""
        start = clock.count
        final: Progress | None = None
        for step in self.progress(state, clock):
            final = step
        nodes = clock.count - start
        if final is None or final.best is None:
            return Decision(state.legal_actions()[0], {"depth": 0, "score": None, "nodes": nodes})
        return Decision(final.best, {"depth": final.depth, "score": final.score, "nodes": nodes})


class MinimaxBot(DeepeningBot):
    """Plain minimax, deepened up to ``depth`` plies (3 by default, as AIND's ``MinimaxPlayer``)."""

    name = "minimax"

    def progress(self, state: GameState[Any], clock: TimeControl) -> Iterator[Progress]:
        """Minimax at depths 1, 2, ... ``depth``."""
        return deepen(lambda d: minimax(state, d, self.evaluate, clock=clock), clock, self.depth)


class AlphaBetaBot(DeepeningBot):
    """Iterative-deepening alpha-beta with a transposition table kept for the whole game.

    With ``tt=False`` each move starts from an empty table (still used between its depths, to try
    the previous best action first).
    """

    name = "alphabeta"

    def __init__(
        self,
        evaluate: Evaluate,
        depth: int | None = None,
        seed: int | None = None,
        tt: bool = True,
        aspiration: float | None = None,
        history: bool = False,
    ) -> None:
        super().__init__(evaluate, depth, seed)
        self.use_tt, self.aspiration, self.history = tt, aspiration, history
        self.tables: dict[int, TranspositionTable] = {}

    def reset(self, game: Game[Any], seat: int, seed: int) -> None:
        """Start a new game: the tables of the previous one are dropped."""
        super().reset(game, seat, seed)
        self.tables.clear()

    def table(self, state: GameState[Any]) -> TranspositionTable | None:
        """The table of the player to move (values depend on the point of view), if tables are on."""
        if not self.use_tt:
            return None
        return self.tables.setdefault(state.current_player(), TranspositionTable())

    def progress(self, state: GameState[Any], clock: TimeControl) -> Iterator[Progress]:
        """Alpha-beta deepening with this bot's table and options."""
        return alphabeta_deepening(
            state,
            self.evaluate,
            clock,
            max_depth=self.depth,
            tt=self.table(state),
            aspiration=self.aspiration,
            history=self.history,
        )


class ParanoidBot(AlphaBetaBot):
    """Iterative-deepening paranoid alpha-beta (any number of players), table kept for the game."""

    name = "paranoid"

    def progress(self, state: GameState[Any], clock: TimeControl) -> Iterator[Progress]:
        """Paranoid deepening with this bot's table."""
        return paranoid_deepening(
            state,
            self.evaluate,
            clock,
            max_depth=self.depth,
            tt=self.table(state),
            aspiration=self.aspiration,
        )


class MaxNBot(DeepeningBot):
    """Iterative-deepening max^n; ``bounds=(lower, total)`` turns on shallow pruning."""

    name = "maxn"

    def __init__(
        self,
        evaluate: Evaluate,
        depth: int | None = None,
        seed: int | None = None,
        bounds: tuple[float, float] | None = None,
    ) -> None:
        super().__init__(evaluate, depth, seed)
        self.bounds = bounds

    def progress(self, state: GameState[Any], clock: TimeControl) -> Iterator[Progress]:
        """Max^n deepening."""
        return maxn_deepening(state, self.evaluate, clock, max_depth=self.depth, bounds=self.bounds)


class BestReplyBot(DeepeningBot):
    """Iterative-deepening best-reply search."""

    name = "brs"

    def progress(self, state: GameState[Any], clock: TimeControl) -> Iterator[Progress]:
        """BRS deepening."""
        return brs_deepening(state, self.evaluate, clock, max_depth=self.depth)


class MCTSBot(BaseBot):
    """UCT with random playouts, or with a heuristic squashed by ``tanh(value / scale)``."""

    name = "mcts"

    def __init__(
        self,
        evaluate: Evaluate | None = None,
        iterations: int | None = 1000,
        c: float = math.sqrt(2),
        scale: float = 1.0,
        seed: int | None = None,
    ) -> None:
        super().__init__(seed)
        self.evaluate, self.iterations, self.c, self.scale = evaluate, iterations, c, scale

    def evaluator(self) -> Evaluator:
        """The leaf evaluator: a heuristic if one was given, else random playouts with the bot's RNG."""
        if self.evaluate is not None:
            return HeuristicValue(self.evaluate, self.scale)
        return RandomRollout(self.rng)

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        """Search until ``iterations`` or the clock; play the most visited action."""
        start = clock.count
        result = MCTS(self.evaluator(), self.c, self.rng).search(state, self.iterations, clock)
        action = result.best if result.best is not None else state.legal_actions()[0]
        visits = result.visits.get(action, 0)
        info = {
            "iterations": result.iterations,
            "visits": visits,
            "score": result.value,
            "nodes": clock.count - start,
        }
        return Decision(action, info)


def make_minimax_bot(
    game: Game[Any], seed: int | None = None, heuristic: Heuristic = None, depth: int = 3
) -> MinimaxBot:
    """Registry factory: ``minimax(heuristic=improved,depth=3)``."""
    _check_searchable(game, "minimax", two_players=True)
    return MinimaxBot(resolve_heuristic(game, heuristic), depth, seed)


def make_alphabeta_bot(
    game: Game[Any],
    seed: int | None = None,
    heuristic: Heuristic = None,
    depth: int | None = None,
    tt: bool = True,
    aspiration: float | None = None,
    history: bool = False,
) -> AlphaBetaBot:
    """Registry factory: ``alphabeta(heuristic=improved)``, deepening until the clock stops it."""
    _check_searchable(game, "alphabeta", two_players=True)
    return AlphaBetaBot(resolve_heuristic(game, heuristic), depth, seed, tt, aspiration, history)


def make_paranoid_bot(
    game: Game[Any],
    seed: int | None = None,
    heuristic: Heuristic = None,
    depth: int | None = None,
    tt: bool = True,
    aspiration: float | None = None,
) -> ParanoidBot:
    """Registry factory: ``paranoid(heuristic=...)`` for any number of players."""
    _check_searchable(game, "paranoid")
    return ParanoidBot(resolve_heuristic(game, heuristic), depth, seed, tt, aspiration)


def make_maxn_bot(
    game: Game[Any],
    seed: int | None = None,
    heuristic: Heuristic = None,
    depth: int | None = None,
    bounds: tuple[float, float] | None = None,
) -> MaxNBot:
    """Registry factory: ``maxn(heuristic=...)``; ``bounds=(lower, total)`` enables shallow pruning."""
    _check_searchable(game, "maxn")
    pair = None if bounds is None else (float(bounds[0]), float(bounds[1]))
    return MaxNBot(resolve_heuristic(game, heuristic), depth, seed, pair)


def make_brs_bot(
    game: Game[Any], seed: int | None = None, heuristic: Heuristic = None, depth: int | None = None
) -> BestReplyBot:
    """Registry factory: ``brs(heuristic=...)``."""
    _check_searchable(game, "brs")
    return BestReplyBot(resolve_heuristic(game, heuristic), depth, seed)


def make_mcts_bot(
    game: Game[Any],
    seed: int | None = None,
    iterations: int | None = 1000,
    rollout: Heuristic = "random",
    c: float = math.sqrt(2),
    scale: float = 1.0,
) -> MCTSBot:
    """Registry factory: ``mcts(iterations=2000)``; ``rollout`` is ``random`` or a heuristic."""
    _check_searchable(game, "mcts")
    evaluate = None if rollout == "random" else resolve_heuristic(game, rollout)
    return MCTSBot(evaluate, iterations, c, scale, seed)
