"""Isolation's own bot (one-ply greedy) and its evaluation functions."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gridarena.core.bot import BaseBot, Decision
from gridarena.core.clock import TimeControl
from gridarena.core.types import Game, GameState
from gridarena.games.isolation import heuristics
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


def make_greedy_bot(game: Game[Any], seed: int | None = None) -> GreedyBot:
    """Registry factory of :class:`GreedyBot`."""
    return GreedyBot(seed)


#: Evaluation functions for the search bots (``alphabeta(heuristic=improved)``); ``default`` is
#: what a search bot uses when no heuristic is named: AIND's baseline, ``improved``.
EVALUATORS: dict[str, Callable[[State, int], float]] = {
    "default": heuristics.improved,
    **heuristics.HEURISTICS,
}
