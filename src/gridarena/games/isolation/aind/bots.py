"""AIND players as gridarena bots: :class:`AindBot`, and the registry's ``aind``, ``mm_*`` and ``ab_*``.

Each move builds an AIND board of the reference state, so any object with AIND's
``get_move(game, time_left)`` plays in the arena: AIND's own agents, an agent file's, or ours.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from typing import Any

from gridarena.core.bot import BaseBot, Decision
from gridarena.core.clock import TimeControl
from gridarena.core.types import Game, GameState
from gridarena.games.isolation.aind import samples
from gridarena.games.isolation.aind.agents import AlphaBetaPlayer, CpuClock, IsolationPlayer
from gridarena.games.isolation.aind.board import NO_MOVE, TimeLeft, board_from_state
from gridarena.games.isolation.aind.loader import agent_file
from gridarena.games.isolation.rules import Cell, State


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

    def warm_up(self, game: Game[Any]) -> None:
        """Let a player that has kernels to load (``ImprovedDepthPlayer``) load them, outside the clock."""
        hook = getattr(self.player, "warm_up", None)
        if hook is not None:
            hook(game)

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
        searcher = self.player.player if isinstance(self.player, CpuClock) else self.player
        if isinstance(searcher, IsolationPlayer):
            info = {"depth": searcher.completed_depth, "nodes": searcher.nodes}
        cell: Cell = row * state.width + col if (row, col) != NO_MOVE else -1
        return Decision(cell, info)


def make_aind(
    game: Game[Any],
    seed: int | None = None,
    file: str | None = None,
    player: str = "AlphaBetaPlayer",
    score: str | None = None,
    **options: Any,
) -> AindBot:
    """Any AIND player as a bot: the class ``player`` with ``score_fn`` the function ``score``.

    Both names are looked up in the agent ``file`` (an unmodified ``game_agent.py``, loaded once per
    process), then in the ``sample_players`` it was loaded with; without a file, in gridarena's
    AIND agents and samples. ``options`` go to the class (``search_depth=2``, ``timeout=20``).

    >>> from gridarena.games.isolation.rules import Isolation
    >>> bot = make_aind(Isolation(), player="MinimaxPlayer", score="center_score")
    >>> type(bot.player).__name__, bot.player.score.__name__, bot.player.search_depth
    ('MinimaxPlayer', 'center_score', 3)
    """
    source = agent_file(file)
    if score is not None:
        options["score_fn"] = source.find(score)
    return AindBot(source.find(player)(**options), "aind", seed)


def _preset(name: str, player: str, score: str) -> Callable[..., AindBot]:
    def make(game: Game[Any], seed: int | None = None, **options: Any) -> AindBot:
        bot = make_aind(game, seed, player=player, score=score, **options)
        bot.name = name
        return bot

    kind = "fixed-depth minimax" if player == "MinimaxPlayer" else "iterative-deepening alpha-beta"
    make.__doc__ = f"AIND {name}: {kind} with {score}."
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


make_mm_open = _preset("mm_open", "MinimaxPlayer", "open_move_score")
make_mm_center = _preset("mm_center", "MinimaxPlayer", "center_score")
make_mm_improved = _preset("mm_improved", "MinimaxPlayer", "improved_score")
make_ab_open = _preset("ab_open", "AlphaBetaPlayer", "open_move_score")
make_ab_center = _preset("ab_center", "AlphaBetaPlayer", "center_score")
make_ab_improved = _preset("ab_improved", "AlphaBetaPlayer", "improved_score")
make_ab_custom = _preset("ab_custom", "AlphaBetaPlayer", "custom_score")
make_ab_custom_2 = _preset("ab_custom_2", "AlphaBetaPlayer", "custom_score_2")
make_ab_custom_3 = _preset("ab_custom_3", "AlphaBetaPlayer", "custom_score_3")
make_ab_custom_4 = _preset("ab_custom_4", "AlphaBetaPlayer", "custom_score_4")
