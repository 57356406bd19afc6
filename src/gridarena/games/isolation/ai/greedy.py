"""One-ply greedy Isolation (the 2018 AIND ``GreedyPlayer``)."""

from __future__ import annotations

from typing import Any

from gridarena.core.bot import BaseBot, Decision
from gridarena.core.clock import TimeControl
from gridarena.core.types import GameState
from gridarena.games.isolation.rules import State


class GreedyBot(BaseBot):
    """One-ply search: the move after which the mover has the most moves (ties: lowest cell).

    This is the 2018 AIND ``GreedyPlayer`` with liberties counted by the reference rules.
    """

    name = "greedy"

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        """Pick the move that keeps the most follow-up moves for the mover."""
        assert isinstance(state, State)
        mover = state.current_player()
        best = max(state.legal_actions(), key=lambda cell: (len(state.child(cell).moves_of(mover)), -cell))
        return Decision(best)
