"""Isolation's bot factories, each called through its declaration in ``catalogue.py`` (the strategies
live in ``ai/`` and ``aind/``)."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from gridarena.core.errors import SpecError
from gridarena.core.types import Game
from gridarena.games.isolation.ai import heuristics
from gridarena.games.isolation.ai.best import BEST_MARGIN_MS, BEST_NODES, BestBot
from gridarena.games.isolation.ai.greedy import GreedyBot
from gridarena.games.isolation.aind import samples
from gridarena.games.isolation.aind.adapter import AindBot, AindImprovedDepthPlayer
from gridarena.games.isolation.aind.agents import AlphaBetaPlayer, CpuClock, IsolationPlayer, MinimaxPlayer
from gridarena.games.isolation.aind.loader import agent_file
from gridarena.games.isolation.rules import State


def make_greedy_bot(game: Game[Any], seed: int | None = None) -> GreedyBot:
    """Registry factory of :class:`GreedyBot`."""
    return GreedyBot(seed)


def make_best(
    game: Game[Any], seed: int | None = None, margin: float = BEST_MARGIN_MS, nodes: int | None = None
) -> BestBot:
    """Our strongest Isolation bot: fast alpha-beta with table, ordering and exact endgame.

    ``nodes`` caps every move's search (the clock still stops it first if it comes first).
    """
    return BestBot(seed, margin, nodes)


def make_best_nodes(game: Game[Any], seed: int | None = None) -> BestBot:
    """``best`` with :data:`BEST_NODES` nodes a move: give it a long time limit, and no load changes its play."""
    bot = BestBot(seed, nodes=BEST_NODES)
    bot.name = "best_nodes"
    return bot


def make_ab_improved_depth(game: Game[Any], seed: int | None = None) -> AindBot:
    """AB_Improved's load-independent proxy: improved_score alpha-beta to fixed depths by ply."""
    return AindBot(AindImprovedDepthPlayer(), "ab_improved_depth", seed)


def make_aind(
    game: Game[Any],
    seed: int | None = None,
    file: str | None = None,
    player: str = "AlphaBetaPlayer",
    score: str | None = None,
    search_depth: int | None = None,
    timeout: float | None = None,
) -> AindBot:
    """Any AIND player as a bot: the class ``player`` with ``score_fn`` the function ``score``.

    Both names are looked up in the agent ``file`` (an unmodified ``game_agent.py``, loaded once per
    process), then in the ``sample_players`` it was loaded with, then in gridarena's AIND agents (so a
    file with only ``custom_score`` plays with our ``AlphaBetaPlayer``); without a file, in gridarena's
    AIND agents and samples. ``search_depth`` and ``timeout`` go to the class when given.

    >>> from gridarena.games.isolation.rules import Isolation
    >>> bot = make_aind(Isolation(), player="MinimaxPlayer", score="center_score")
    >>> type(bot.player).__name__, bot.player.score.__name__, bot.player.search_depth
    ('MinimaxPlayer', 'center_score', 3)
    """
    source = agent_file(file)
    options: dict[str, Any] = {}
    if search_depth is not None:
        options["search_depth"] = search_depth
    if timeout is not None:
        options["timeout"] = timeout
    if score is not None:
        options["score_fn"] = source.find(score)
        if not callable(options["score_fn"]):
            raise SpecError(f"aind: score={score!r} is not a function of the agent file or its samples")
    cls = source.find(player)
    if not inspect.isclass(cls):
        raise SpecError(f"aind: player={player!r} is not a class of the agent file or its samples")
    try:
        built = cls(**options)
    except (TypeError, ValueError) as exc:  # the player class is the agent file's code, not ours
        raise SpecError(f"aind: {player}(...) cannot be built from these options: {exc}") from None
    return AindBot(built, "aind", seed)


def _aind_player(name: str, built: IsolationPlayer, score: str, seed: int | None) -> AindBot:
    """An AIND preset: ``built`` with the score function ``score`` of gridarena's AIND samples."""
    built.score = agent_file().find(score)
    return AindBot(built, name, seed)


def _minimax_preset(name: str, score: str) -> Callable[..., AindBot]:
    def make(
        game: Game[Any], seed: int | None = None, search_depth: int = 3, timeout: float = 10.0
    ) -> AindBot:
        return _aind_player(name, MinimaxPlayer(search_depth=search_depth, timeout=timeout), score, seed)

    make.__name__ = make.__qualname__ = f"make_{name}"
    make.__doc__ = f"AIND {name}: fixed-depth minimax with {score}."
    return make


def _alphabeta_preset(name: str, score: str) -> Callable[..., AindBot]:
    def make(game: Game[Any], seed: int | None = None, timeout: float = 10.0) -> AindBot:
        return _aind_player(name, AlphaBetaPlayer(timeout=timeout), score, seed)

    make.__name__ = make.__qualname__ = f"make_{name}"
    make.__doc__ = f"AIND {name}: iterative-deepening alpha-beta with {score}."
    return make


def make_random(game: Game[Any], seed: int | None = None) -> AindBot:
    """AIND's RandomPlayer as a bot (uniform over the legal moves)."""
    bot = AindBot(None, "random", seed)
    bot.player = samples.RandomPlayer(rng=bot.rng)
    return bot


def make_ab_improved_cpu(game: Game[Any], seed: int | None = None, limit: float = 150.0) -> AindBot:
    """AB_Improved timed by its own process's CPU clock, ``limit`` ms a move: no machine load changes it.

    Give the tournament a long time limit; only the bot's own clock then stops its search.
    """
    player = CpuClock(AlphaBetaPlayer(score_fn=samples.improved_score), limit)
    return AindBot(player, "ab_improved_cpu", seed)


make_mm_open = _minimax_preset("mm_open", "open_move_score")
make_mm_center = _minimax_preset("mm_center", "center_score")
make_mm_improved = _minimax_preset("mm_improved", "improved_score")
make_ab_open = _alphabeta_preset("ab_open", "open_move_score")
make_ab_center = _alphabeta_preset("ab_center", "center_score")
make_ab_improved = _alphabeta_preset("ab_improved", "improved_score")
make_ab_custom = _alphabeta_preset("ab_custom", "custom_score")
make_ab_custom_2 = _alphabeta_preset("ab_custom_2", "custom_score_2")
make_ab_custom_3 = _alphabeta_preset("ab_custom_3", "custom_score_3")
make_ab_custom_4 = _alphabeta_preset("ab_custom_4", "custom_score_4")


#: Evaluation functions for the search bots (``alphabeta(heuristic=improved)``); ``default`` is
#: what a search bot uses when no heuristic is named: AIND's baseline, ``improved``.
EVALUATORS: dict[str, Callable[[State, int], float]] = {
    "default": heuristics.improved,
    **heuristics.HEURISTICS,
}
