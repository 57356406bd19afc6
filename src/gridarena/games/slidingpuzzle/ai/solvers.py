"""Solving boards: the puzzle as a search ``Problem``, and the one table of algorithms by name.

``bfs`` and ``astar`` are the generic searches of :mod:`gridarena.search` over :class:`PuzzleProblem`
(A*'s ties go to the lower h, then to the older entry; ``weight`` > 1 makes it weighted A*); ``idastar``
is the numba kernel (:mod:`~gridarena.games.slidingpuzzle.ai.idastar`), the fast path. Every solver
answers a :class:`gridarena.search.Solution`; :func:`solution_stats` is its report. The CLI, the
``solver`` bot and :func:`solve` all pick algorithms from :data:`ALGORITHMS` through
:func:`make_solver`, and check solvability first (:func:`solve_case`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Final, Literal, Protocol, TypeAlias

from gridarena.core.clock import TimeControl
from gridarena.games.slidingpuzzle.ai.heuristics import Heuristic, SolverError, make_heuristic
from gridarena.games.slidingpuzzle.ai.idastar import IdaStar
from gridarena.games.slidingpuzzle.board import Action, Board, legal_slides, slide
from gridarena.games.slidingpuzzle.formats import PuzzleCase
from gridarena.games.slidingpuzzle.solvability import EXHAUSTED, check_solvable
from gridarena.search import SearchAborted, Solution, astar, bfs

AlgorithmName: TypeAlias = Literal["bfs", "astar", "idastar"]

#: A weight is a factor on the optimal length the answer may reach; beyond 64 it guides no better.
MAX_WEIGHT: Final = 64.0


@dataclass(frozen=True, slots=True)
class PuzzleProblem:
    """The puzzle as a :class:`gridarena.search.Problem`: boards are states, each slide costs 1."""

    board: Board
    goal: Board

    def start(self) -> Board:
        """The board to solve."""
        return self.board

    def is_goal(self, board: Board) -> bool:
        """Whether ``board`` is the goal."""
        return board == self.goal

    def successors(self, board: Board) -> Iterator[tuple[Action, Board]]:
        """Every legal slide and the board after it, in ascending order of the slides."""
        for action in legal_slides(board):
            yield action, slide(board, action)


class Solver(Protocol):
    """What an entry of :data:`ALGORITHMS` builds: a solver of boards for one goal and heuristic."""

    @property
    def heuristic(self) -> Heuristic: ...

    @property
    def name(self) -> str: ...

    def solve(
        self, board: Board, *, max_nodes: int = ..., deadline: float | None = None
    ) -> Solution[Action]: ...


def _search(
    name: str, run: Callable[[TimeControl], Solution[Action]], max_nodes: int, deadline: float | None
) -> Solution[Action]:
    """Run a generic search under a node budget and a deadline; the answer, stopped or not, timed."""
    started = time.perf_counter()
    try:
        found = run(TimeControl(deadline=deadline, nodes=max_nodes))
    except SearchAborted as stop:
        assert stop.partial is not None  # the single-agent searches always hand back their figures
        found = stop.partial
    reason = EXHAUSTED if found.status == "unsolvable" else found.reason
    return replace(found, reason=reason, algorithm=name, seconds=time.perf_counter() - started)


@dataclass(frozen=True)
class BreadthFirst:
    """Breadth-first search (:func:`gridarena.search.bfs`): small boards; proves unsolvability by
    exhausting the space. ``heuristic`` gives the goal only."""

    heuristic: Heuristic

    @property
    def name(self) -> str:
        """``bfs``."""
        return "bfs"

    def solve(
        self, board: Board, *, max_nodes: int = 5_000_000, deadline: float | None = None
    ) -> Solution[Action]:
        """A shortest solution of ``board`` (status ``limit`` once ``max_nodes`` expansions are spent)."""
        problem = PuzzleProblem(board, self.heuristic.goal)
        return _search(self.name, lambda clock: bfs(problem, clock), max_nodes, deadline)


@dataclass(frozen=True)
class AStar:
    """A* with a closed set (:func:`gridarena.search.astar`) and the heuristic's readable estimate.

    ``weight`` > 1 orders by g + weight * h (weighted A*): the answer is at most ``weight`` times the
    optimal length, and hard boards take far fewer expansions. With the closed set it behaves much
    better than a weighted IDA*, which on the homework board gave answers of twice the optimum.
    """

    heuristic: Heuristic
    weight: float = 1.0

    def __post_init__(self) -> None:
        if not 1.0 <= self.weight <= MAX_WEIGHT:
            raise SolverError(
                f"weight {self.weight} is out of range: it must be between 1 and {MAX_WEIGHT:g}"
            )

    @property
    def name(self) -> str:
        """E.g. ``astar/manhattan`` or ``astar/pdb(6-6-3r)/w=1.5``."""
        return f"astar/{self.heuristic.name}" + (f"/w={self.weight:g}" if self.weight != 1.0 else "")

    def solve(
        self, board: Board, *, max_nodes: int = 5_000_000, deadline: float | None = None
    ) -> Solution[Action]:
        """A shortest solution of ``board`` (within ``weight`` of it), or status ``limit`` or ``unsolvable``."""
        problem = PuzzleProblem(board, self.heuristic.goal)

        def run(clock: TimeControl) -> Solution[Action]:
            return astar(problem, self.heuristic.estimate, clock, weight=self.weight)

        return _search(self.name, run, max_nodes, deadline)


@dataclass(frozen=True)
class Algorithm:
    """An entry of :data:`ALGORITHMS`: how to build its solver, and whether it takes a weight."""

    build: Callable[[Heuristic, float], Solver]
    weighted: bool
    summary: str


#: The puzzle's algorithms by name (the CLI's ``--algo`` choices and the ``solver`` bot's ``algorithm``).
ALGORITHMS: Final[dict[str, Algorithm]] = {
    "bfs": Algorithm(lambda h, w: BreadthFirst(h), False, "breadth-first search (small boards)"),
    "astar": Algorithm(lambda h, w: AStar(h, w), True, "A* with a closed set; weighted with --weight"),
    "idastar": Algorithm(lambda h, w: IdaStar(h), False, "numba IDA* (the fast path)"),
}


def make_solver(algorithm: str, heuristic: Heuristic, *, weight: float = 1.0) -> Solver:
    """The solver named ``algorithm`` in :data:`ALGORITHMS`, for ``heuristic`` (and ``weight``).

    >>> from gridarena.games.slidingpuzzle.board import goal_board
    >>> make_solver("astar", make_heuristic(goal_board(3, 3)), weight=1.5).name
    'astar/manhattan+lc/w=1.5'
    """
    entry = ALGORITHMS.get(algorithm)
    if entry is None:
        raise SolverError(f"unknown algorithm {algorithm!r}; choose one of {', '.join(ALGORITHMS)}")
    if weight != 1.0 and not entry.weighted:
        raise SolverError(f"a weight needs A*; {algorithm} searches only optimally")
    return entry.build(heuristic, weight)


def default_algorithm(weight: float = 1.0) -> AlgorithmName:
    """The algorithm for a weight: the numba IDA* for optimal answers, weighted A* above 1."""
    return "idastar" if weight == 1.0 else "astar"


def solve_case(
    solver: Solver, case: PuzzleCase, *, max_nodes: int = 50_000_000, deadline: float | None = None
) -> Solution[Action]:
    """Solve ``case`` with ``solver``, first refusing a case that is provably unsolvable (no search)."""
    verdict = check_solvable(case.start, case.goal)
    if verdict.verdict == "unsolvable":
        return Solution(None, math.inf, 0, 0, reason=verdict.reason, algorithm=solver.name)
    if solver.heuristic.goal != case.goal:
        raise SolverError("the heuristic's tables were made for another goal board")
    return solver.solve(case.start, max_nodes=max_nodes, deadline=deadline)


def solve(
    case: PuzzleCase,
    algorithm: str | None = None,
    heuristic: Heuristic | None = None,
    *,
    max_nodes: int = 50_000_000,
    deadline: float | None = None,
    weight: float = 1.0,
) -> Solution[Action]:
    """Solve ``case`` with ``algorithm`` (default: :func:`default_algorithm` of ``weight``).

    ``heuristic`` defaults to the distance sum of the case's goal. ``weight`` > 1 (A* only): an
    answer at most that many times the optimal length, found much sooner.

    >>> from gridarena.games.slidingpuzzle.formats import parse_line
    >>> solve(parse_line("1 2 3 4 5 6 0 7 8")).length
    2
    """
    solver = make_solver(
        algorithm or default_algorithm(weight), heuristic or make_heuristic(case.goal), weight=weight
    )
    return solve_case(solver, case, max_nodes=max_nodes, deadline=deadline)


def solution_stats(found: Solution[Action]) -> dict[str, object]:
    """A solution's statistics as a JSON-ready dict, in slides (the CLI's report and the bot's info).

    >>> solution_stats(Solution((5, 9), 2.0, 2, 6, h0=2, algorithm="idastar/manhattan"))["lower_bound"]
    2
    """
    return {
        "algorithm": found.algorithm,
        "status": found.status,
        "length": found.length,
        "expanded": found.expanded,
        "generated": found.generated,
        "seconds": round(found.seconds, 6),
        "h0": found.h0,
        "reason": found.reason,
        "lower_bound": math.ceil(found.lower_bound),  # lengths are whole slides
        "weight": found.weight,
    }
