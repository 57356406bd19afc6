"""The anytime schedule: quick weighted IDA* answers first, then the optimal search, the best answer kept.

A weighted search (``f = g + w h``) finds an answer within ``w`` times the optimum in a fraction of the
optimal search's nodes, so a caller with a deadline (``gridarena puzzle solve --anytime``, the solver bot
under a clock) has an answer early and the optimum if time allows. If the optimal search is stopped, the
best weighted answer is returned with the proven lower bound as its gap.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from typing import Final

from gridarena.games.slidingpuzzle.ai.idastar import IdaStar, Progress
from gridarena.games.slidingpuzzle.board import Action
from gridarena.games.slidingpuzzle.formats import PuzzleCase
from gridarena.games.slidingpuzzle.solvability import check_solvable
from gridarena.search import Solution

#: The weights of the quick searches after the first (``2.0`` unless the caller names one), heaviest first.
ANYTIME_WEIGHTS: Final = (1.5, 1.25)
#: Each quick search's node budget: a weighted answer that needs more is not worth waiting for.
ANYTIME_NODES: Final = 5_000_000

#: ``solver_for(weight)``: the IDA* of the caller's heuristic with that weight (made once, tables reused).
SolverFor = Callable[[float], IdaStar]


def weighted_answers(
    case: PuzzleCase,
    solver_for: SolverFor,
    *,
    first: float = 2.0,
    deadline: float | None = None,
    stop: threading.Event | None = None,
    on_answer: Callable[[Solution[Action], int], None] | None = None,
) -> Solution[Action] | None:
    """The best of the weighted answers (heaviest weight first), or None; ``on_answer(found, bound)`` hears each better one."""
    best: Solution[Action] | None = None
    bound = solver_for(1.0).h0(case.start)
    for weight in sorted({first, *(w for w in ANYTIME_WEIGHTS if w < first)}, reverse=True):
        if (stop is not None and stop.is_set()) or (deadline is not None and time.perf_counter() > deadline):
            break
        quick = solver_for(weight).solve(case.start, max_nodes=ANYTIME_NODES, deadline=deadline, stop=stop)
        if quick.path is not None and (best is None or len(quick.path) < len(best.path or ())):
            best = quick
            if on_answer is not None:
                on_answer(quick, bound)
    return best


def solve_anytime(
    case: PuzzleCase,
    solver_for: SolverFor,
    *,
    anytime: bool = True,
    first: float = 2.0,
    max_nodes: int = 1 << 62,
    deadline: float | None = None,
    stop: threading.Event | None = None,
    progress: Callable[[Progress], None] | None = None,
    on_answer: Callable[[Solution[Action], int], None] | None = None,
) -> Solution[Action]:
    """The optimal answer if it is found within the limits, else the best weighted one with its gap.

    With ``anytime=False`` only the optimal search runs (the weighted ones are skipped).

    >>> from gridarena.games.slidingpuzzle.ai.heuristics import make_heuristic
    >>> from gridarena.games.slidingpuzzle.board import Board, goal_board
    >>> goal = goal_board(2, 2, blanks=1)
    >>> case = PuzzleCase(Board(2, 2, (0, 1, 3, 2)), goal)
    >>> solvers = {}
    >>> def solver_for(w):
    ...     return solvers.setdefault(w, IdaStar(make_heuristic(goal), weight=w))
    >>> found = solve_anytime(case, solver_for)
    >>> found.length, found.status
    (2, 'solved')
    """
    optimal = solver_for(1.0)
    verdict = check_solvable(case.start, case.goal)
    if verdict.verdict == "unsolvable":
        return Solution(None, math.inf, 0, 0, reason=verdict.reason, algorithm=optimal.name)
    started = time.perf_counter()
    best = (
        weighted_answers(case, solver_for, first=first, deadline=deadline, stop=stop, on_answer=on_answer)
        if anytime
        else None
    )
    found = optimal.solve(
        case.start, max_nodes=max_nodes, deadline=deadline, progress=progress, interval=1.0, stop=stop
    )
    if found.path is not None or best is None or best.path is None:
        return found
    length = len(best.path)
    gap = f"best answer so far {length} slides, the optimum is {found.bound}..{length}"
    return Solution(
        best.path,
        float(length),
        best.expanded + found.expanded,
        best.generated + found.generated,
        stopped=True,
        reason=f"{found.reason}; {gap}",
        bound=found.bound,
        h0=found.h0,
        weight=max(1.0, length / max(found.bound, 1)),
        algorithm=f"{best.algorithm}+{found.algorithm}",
        seconds=time.perf_counter() - started,
    )
