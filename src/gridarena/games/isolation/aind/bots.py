"""AIND players as gridarena bots: :class:`AindBot`, and the factories of the registry's ``mm_*`` and ``ab_*``.

Each move builds an AIND board of the reference state, so any object with AIND's
``get_move(game, time_left)`` plays in the arena: AIND's own agents, an agent file's, or ours.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from typing import Any

from gridarena.core.bot import BaseBot, Decision
from gridarena.core.clock import TimeControl
from gridarena.core.types import Game, GameState
from gridarena.games.isolation.aind import samples
from gridarena.games.isolation.aind.agents import AlphaBetaPlayer, IsolationPlayer, MinimaxPlayer
from gridarena.games.isolation.aind.board import NO_MOVE, TimeLeft, board_from_state
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
