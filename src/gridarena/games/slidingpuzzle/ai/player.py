"""The puzzle's player: an optimal solver that plans once and then replays its plan."""

from __future__ import annotations

from typing import Any

from gridarena.core.bot import BaseBot, Decision
from gridarena.core.clock import TimeControl
from gridarena.core.errors import GridArenaError
from gridarena.core.types import Game, GameState
from gridarena.games.slidingpuzzle.ai.anytime import solve_anytime
from gridarena.games.slidingpuzzle.ai.heuristics import make_heuristic, pdb_heuristic
from gridarena.games.slidingpuzzle.ai.idastar import IdaStar
from gridarena.games.slidingpuzzle.ai.solvers import make_solver, solution_stats, solve_case
from gridarena.games.slidingpuzzle.board import Action, Board, legal_slides, slide
from gridarena.games.slidingpuzzle.formats import PuzzleCase
from gridarena.games.slidingpuzzle.rules import PuzzleState
from gridarena.search import Solution


class SolverBot(BaseBot):
    """Plays an optimal solution: solves on its first move (or when the board is not the one planned).

    ``algorithm`` names an entry of ``solvers.ALGORITHMS`` (``idastar`` by default, ``astar``,
    ``bfs``); ``partition`` (e.g. ``"6-6-3"``) adds pattern databases from ``pdb_dir`` (built there
    first if missing). A provably unsolvable board is not searched. With ``anytime=True`` (IDA* only)
    the bot runs the anytime schedule of :mod:`.anytime`: under a clock it then follows the best
    weighted answer when the optimum is not found in time. Otherwise, if the search is cut short, the
    bot plays the slide with the smallest heuristic value.
    """

    name = "solver"

    def __init__(
        self,
        game: Game[Any],
        algorithm: str = "idastar",
        partition: str | None = None,
        pdb_dir: str | None = None,
        seed: int | None = None,
        anytime: bool = False,
    ) -> None:
        super().__init__(seed)
        self.anytime = anytime and algorithm == "idastar"
        self._weighted: dict[float, IdaStar] = {}
        goal: Board = getattr(game, "goal")  # noqa: B009 - any SlidingPuzzle
        self.heuristic = pdb_heuristic(goal, partition, pdb_dir) if partition else make_heuristic(goal)
        self.solver = make_solver(algorithm, self.heuristic)
        self.plan: list[Action] = []
        self.expect: Board | None = None
        self.last: Solution[Action] | None = None

    def warm_up(self, game: Game[Any]) -> None:
        """Solve a board one slide from the goal: the search's kernels load (or compile) outside the clock."""
        goal = self.heuristic.goal
        self._solve(slide(goal, legal_slides(goal)[0]), TimeControl())

    def _solve(self, board: Board, clock: TimeControl) -> Solution[Action]:
        nodes = clock.nodes if clock.nodes is not None else 1 << 62
        case = PuzzleCase(board, self.heuristic.goal)
        if self.anytime:
            return solve_anytime(case, self._solver_for, max_nodes=nodes, deadline=clock.deadline)
        return solve_case(self.solver, case, max_nodes=nodes, deadline=clock.deadline)

    def _solver_for(self, weight: float) -> IdaStar:
        if weight == 1.0 and isinstance(self.solver, IdaStar):
            return self.solver
        return self._weighted.setdefault(weight, IdaStar(self.heuristic, weight=weight))

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        """The next slide of the plan (planning first when needed)."""
        if not isinstance(state, PuzzleState):
            raise GridArenaError(f"the solver plays sliding puzzles, not {state.game.name}")
        board = state.board
        if board != self.expect or not self.plan:
            self.last = self._solve(board, clock)
            self.plan = list(self.last.path or ())
        if not self.plan:
            slides = legal_slides(board)
            if not slides:
                raise GridArenaError("no tile can slide on this board")
            action = min(slides, key=lambda a: self.heuristic.estimate(slide(board, a)))
            return Decision(action, {"status": self.last.status if self.last else "none"})
        action = self.plan.pop(0)
        self.expect = slide(board, action)
        info = {} if self.last is None else {**solution_stats(self.last), "remaining": len(self.plan)}
        return Decision(action, info)
