"""The sliding puzzle's bots, by registry name: factories only (the solvers live in ``ai/``)."""

from __future__ import annotations

from typing import Any

from gridarena.core.types import Game
from gridarena.games.slidingpuzzle.ai.player import SolverBot


def make_solver_bot(game: Game[Any], **params: Any) -> SolverBot:
    """Registry entry point: ``solver(algorithm=idastar,partition=6-6-3)``."""
    return SolverBot(game, **params)
