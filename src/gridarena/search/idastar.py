"""IDA*: iterative-deepening A*, the cheapest path in memory linear in its length.

Each iteration is a depth-first search that cuts every path whose ``f = g + h`` exceeds the bound;
the next bound is the smallest ``f`` that was cut. A state already on the current path is skipped
(no cycles), but nothing else is remembered, so a state reached by several paths, or in several
iterations, is expanded (and counted) each time. The recursion is as deep as the solution is long.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from gridarena.core.clock import TimeControl
from gridarena.search.astar import zero_heuristic
from gridarena.search.problem import Heuristic, Problem, Solution, steps, tick


@dataclass(slots=True)
class _Walk:
    """One IDA* run: the problem, the current path and the running counts."""

    problem: Problem[Any]
    h: Heuristic
    clock: TimeControl | None
    on_path: set[Hashable] = field(default_factory=set)
    actions: list[Hashable] = field(default_factory=list)
    expanded: int = 0
    generated: int = 0
    goal_cost: float = math.inf
    bound: float = 0.0
    h0: float = 0.0

    def probe(self, state: Hashable, g: float, bound: float) -> float:
        """Search below ``state``; returns -1 when a goal is found, else the smallest ``f`` cut."""
        f = g + self.h(state)
        if f > bound:
            return f
        if self.problem.is_goal(state):
            self.goal_cost = g
            return -1.0
        tick(self.clock, self.expanded, self.generated, bound=self.bound, h0=self.h0)
        self.expanded += 1
        smallest = math.inf
        self.on_path.add(state)
        for action, child, cost in steps(self.problem, state):
            self.generated += 1
            if child in self.on_path:
                continue
            self.actions.append(action)
            t = self.probe(child, g + cost, bound)
            if t < 0:
                return t
            self.actions.pop()
            smallest = min(smallest, t)
        self.on_path.discard(state)
        return smallest


def idastar(
    problem: Problem[Any], h: Heuristic = zero_heuristic, clock: TimeControl | None = None
) -> Solution[Any]:
    """A cheapest path from ``problem.start()`` to a goal when ``h`` is admissible, with the counts.

    The goal test is made when a state is visited within the bound. ``expanded`` and ``generated``
    are summed over all iterations; ``clock`` counts one node per expansion. A stopped search has
    proved the bound of its last iteration: no path is cheaper (``SearchAborted.partial.bound``).

    >>> class Line:  # steps of +1 (cost 1) or +3 (cost 2), from 0 to 6
    ...     def start(self): return 0
    ...     def is_goal(self, s): return s == 6
    ...     def successors(self, s): return [(d, s + d, (d + 1) / 2) for d in (1, 3) if s + d <= 6]
    >>> idastar(Line(), lambda s: (6 - s) * 2 / 3)
    Solution(path=(3, 3), cost=4.0, expanded=2, generated=4, h0=4.0)
    """
    walk = _Walk(problem, h, clock)
    start = problem.start()
    walk.bound = walk.h0 = h(start)
    while True:
        walk.actions.clear()
        walk.on_path.clear()
        t = walk.probe(start, 0.0, walk.bound)
        if t < 0:
            return Solution(tuple(walk.actions), walk.goal_cost, walk.expanded, walk.generated, h0=walk.h0)
        if math.isinf(t):
            return Solution(None, math.inf, walk.expanded, walk.generated, h0=walk.h0)
        walk.bound = t
