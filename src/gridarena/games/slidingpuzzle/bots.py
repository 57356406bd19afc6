"""The sliding puzzle's bots, by registry name: factories only (the solvers live in ``ai/``)."""

from __future__ import annotations

from gridarena.games.slidingpuzzle.ai.player import SolverBot

#: The registry's entry point, ``solver(algorithm=idastar,partition=6-6-3)``: the class itself, so the
#: registry reads the parameters it takes from its signature.
make_solver_bot = SolverBot
