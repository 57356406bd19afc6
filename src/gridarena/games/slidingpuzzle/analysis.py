"""The sliding puzzle's analyser: the exact distance to the goal before and after every slide.

The optimal solver (IDA* over the puzzle's heuristic) gives a board's distance and an optimal
path; a slide along that path leaves the distance one less with no new search, so analysing an
optimal game costs one solve. A slide off the path is searched again: it wastes two slides (a
slide changes the distance by exactly one), which :func:`gridarena.core.analysis.mark` marks
``wasted``. A board the solver cannot finish in time gets its proven lower bound, not exact.

>>> from gridarena import make
>>> game = make("slidingpuzzle(rows=2,cols=3,scramble=6)")
>>> state = game.new_initial_state(seed=1)
>>> distance = make_analyser(game, 1.0).evaluate(state, 0)
>>> distance.exact, distance.value == len(solve(PuzzleCase(state.board, game.goal)).path)
(True, True)
"""

from __future__ import annotations

import math
import time
from typing import Any, Final

from gridarena.core.analysis import Evaluation, Kind
from gridarena.core.types import Game, GameState, Player
from gridarena.games.slidingpuzzle.ai.heuristics import make_heuristic
from gridarena.games.slidingpuzzle.ai.idastar import IdaStar
from gridarena.games.slidingpuzzle.ai.solvers import solve, solve_case
from gridarena.games.slidingpuzzle.board import Action, Board, action_to_text, legal_slides, slide
from gridarena.games.slidingpuzzle.formats import PuzzleCase
from gridarena.games.slidingpuzzle.rules import PuzzleState

ANALYSIS_MEMORY: Final = 64 << 20
"""Bytes of the solver's transposition table (boards with two blanks or more): the analysis stays small."""


class PuzzleAnalyser:
    """Exact distances by the optimal solver, reusing each optimal path it found."""

    kind: Kind = "distance"

    def __init__(self, goal: Board, seconds: float) -> None:
        self.goal, self.seconds = goal, seconds
        self.solver = IdaStar(make_heuristic(goal), memory=ANALYSIS_MEMORY)
        self._paths: dict[Board, tuple[Action, ...]] = {}
        # Load the compiled kernels now, so that the first position's time goes to its search.
        solve_case(self.solver, PuzzleCase(slide(goal, legal_slides(goal)[0]), goal))

    def evaluate(self, state: GameState[Any], player: Player) -> Evaluation | None:
        """The slides still needed from ``state`` (its only player's value; fewer is better)."""
        assert isinstance(state, PuzzleState)
        board = state.board
        if board == self.goal:
            return Evaluation(0.0, exact=True, text="solved")
        path = self._paths.get(board)
        if path is None:
            deadline = time.perf_counter() + self.seconds
            found = solve_case(self.solver, PuzzleCase(board, self.goal), deadline=deadline)
            if found.path is None:
                bound = found.bound if found.stopped else math.inf
                return Evaluation(float(bound), text="unsolvable" if math.isinf(bound) else f">= {bound:g}")
            path = tuple(found.path)
            self._remember(board, path)
        return Evaluation(
            float(len(path)), exact=True, best=action_to_text(path[0]), text=f"{len(path)} slides"
        )

    def _remember(self, board: Board, path: tuple[Action, ...]) -> None:
        """Every board along an optimal path has the rest of the path as its own."""
        for i, action in enumerate(path):
            self._paths[board] = path[i:]
            board = slide(board, action)


def make_analyser(game: Game[Any], seconds: float) -> PuzzleAnalyser:
    """Registry entry: the analyser of a sliding puzzle, about ``seconds`` per position."""
    goal: Board = getattr(game, "goal")  # noqa: B009 - any SlidingPuzzle
    return PuzzleAnalyser(goal, seconds)


__all__ = ["PuzzleAnalyser", "make_analyser", "solve"]
