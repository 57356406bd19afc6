"""AIND players as gridarena bots: :class:`AindBot` (the registry's ``aind``, ``mm_*`` and ``ab_*`` build it).

Each move builds an AIND board of the reference state, so any object with AIND's
``get_move(game, time_left)`` plays in the arena: AIND's own agents, an agent file's, or ours
(:class:`AindBestPlayer`, :class:`AindImprovedDepthPlayer`: the players of ``ai/best.py`` with AIND's
interface; ``aind/`` stands above ``ai/``, which knows nothing of AIND's Board).
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from typing import Any

from gridarena.core.bot import BaseBot, Decision, WarmUp
from gridarena.core.clock import TimeControl
from gridarena.core.types import Game, GameState
from gridarena.games.isolation.ai.best import BestPlayer, ImprovedDepthPlayer
from gridarena.games.isolation.aind.agents import AlphaBetaPlayer, CpuClock, IsolationPlayer
from gridarena.games.isolation.aind.board import (
    NO_MOVE,
    Board,
    Move,
    TimeLeft,
    board_from_state,
    state_from_aind,
)
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


def _aind_move(cell: Cell, game: Board) -> Move:
    """A cell of the reference state as AIND's ``(row, col)``; -1 (no move) as ``(-1, -1)``."""
    return NO_MOVE if cell < 0 else (cell // game.width, cell % game.width)


class AindBestPlayer(BestPlayer):
    """:class:`~gridarena.games.isolation.ai.best.BestPlayer` with AIND's ``get_move``."""

    def get_move(self, game: Board, time_left: TimeLeft) -> Move:
        """AIND's entry point: the engine's move on this board, or ``(-1, -1)``."""
        state = state_from_aind(game)
        self.engine(game.width, game.height)  # built before the clock is read: a new size costs a table
        return _aind_move(self.search(state, (time_left() - self.margin) / 1000.0), game)


class AindImprovedDepthPlayer(ImprovedDepthPlayer):
    """:class:`~gridarena.games.isolation.ai.best.ImprovedDepthPlayer` with AIND's ``get_move``."""

    def get_move(self, game: Board, time_left: TimeLeft) -> Move:
        """AIND's entry point: the proxy's move, or ``(-1, -1)`` (it ignores the clock)."""
        return _aind_move(self.choose(state_from_aind(game)), game)


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
        if isinstance(self.player, WarmUp):
            self.player.warm_up(game)

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
