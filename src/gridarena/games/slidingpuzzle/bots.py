"""The sliding puzzle's bot factory, called through its declaration in ``catalogue.py`` (the solvers
live in ``ai/``)."""

from __future__ import annotations

from typing import Any

from gridarena.core.types import Game
from gridarena.games.slidingpuzzle.ai.player import SolverBot


def make_solver_bot(
    game: Game[Any],
    seed: int | None = None,
    algorithm: str = "idastar",
    partition: str | None = None,
    pdb_dir: str | None = None,
    anytime: bool = False,
) -> SolverBot:
    """Catalogue factory of :class:`SolverBot`: ``solver(algorithm=idastar,partition=6-6-3)``."""
    return SolverBot(game, algorithm, partition, pdb_dir, seed, anytime)
