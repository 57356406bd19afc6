"""ReversiXT's sparring partner of another style: :class:`MctsBot`, UCT with random playouts on the
fast kernels (:mod:`..fast.mcts`).
"""

from __future__ import annotations

import time
from typing import Any, Final

from gridarena.core.bot import BaseBot, Decision
from gridarena.core.clock import TimeControl
from gridarena.core.types import Game, GameState
from gridarena.games.reversixt.ai.search import MARGIN
from gridarena.games.reversixt.fast.mcts import MctsEngine
from gridarena.games.reversixt.formats import Move, ReversiMap
from gridarena.games.reversixt.rules import ReversiState

UNTIMED_PLAYOUTS: Final = 2000
"""Playouts of a move when nothing limits the search."""


class MctsBot(BaseBot):
    """UCT with random playouts over the fast kernels (:mod:`..fast.mcts`): a sparring partner of
    another style. Plays until the move's deadline less the margin, or ``clock.nodes`` playouts;
    without either, :data:`UNTIMED_PLAYOUTS`."""

    name = "mcts"

    def __init__(self, seed: int | None = None, margin: float = MARGIN) -> None:
        super().__init__(seed)
        self.margin = margin
        self._engine: MctsEngine | None = None

    def _engine_for(self, m: ReversiMap) -> MctsEngine:
        if self._engine is None or self._engine.map != m:
            self._engine = MctsEngine(m)
        return self._engine

    def warm_up(self, game: Game[Any]) -> None:
        """Build the board and load the kernels outside the clock."""
        state = game.new_initial_state()
        assert isinstance(state, ReversiState)
        self._engine_for(state.game.board).search(state, None, 2)

    def reset(self, game: Game[Any], seat: int, seed: int) -> None:
        super().reset(game, seat, seed)
        state = game.new_initial_state()
        assert isinstance(state, ReversiState)
        self._engine_for(state.game.board).reseed(seed)

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        assert isinstance(state, ReversiState)
        engine = self._engine_for(state.game.board)
        cpu = clock.clock is time.thread_time
        deadline = None if clock.deadline is None else clock.clock() + clock.time_left() - self.margin
        playouts = clock.nodes if clock.nodes is not None or deadline is not None else UNTIMED_PLAYOUTS
        move, done = engine.search(state, deadline, playouts, cpu)
        if move is None:
            return Decision(state.legal_actions()[0], {"playouts": 0})
        return Decision(Move(*move), {"playouts": done})
