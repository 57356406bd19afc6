"""Breadth-first search: the fewest actions to a goal (the cheapest path when every step costs 1).

The goal test is made when a state is generated, so the goal is never expanded; each state is
entered once (a set of seen states), so ``expanded`` is at most the number of reachable states.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable
from typing import Any

from gridarena.core.clock import TimeControl
from gridarena.search.problem import Problem, Solution, steps, tick, walk_back


def bfs(problem: Problem[Any], clock: TimeControl | None = None) -> Solution[Any]:
    """A path with the fewest actions from ``problem.start()`` to a goal, with the search counts.

    ``cost`` is the summed step cost along that path (optimal only for unit costs). ``clock`` counts
    one node per expansion; :class:`~gridarena.search.errors.SearchAborted` is raised when it stops
    (its ``partial`` holds the counts so far). Without a path, every reachable state was expanded.

    >>> class Line:  # states 0..5, a step of +1 or +2, the goal is 5
    ...     def start(self): return 0
    ...     def is_goal(self, s): return s == 5
    ...     def successors(self, s): return [(d, s + d) for d in (1, 2) if s + d <= 5]
    >>> bfs(Line())
    Solution(path=(1, 2, 2), cost=3.0, expanded=4, generated=8)
    """
    start = problem.start()
    if problem.is_goal(start):
        return Solution((), 0.0, 0, 0)
    parents: dict[Hashable, tuple[Hashable, Hashable] | None] = {start: None}
    costs: dict[Hashable, float] = {start: 0.0}
    frontier = deque([start])
    expanded = generated = 0
    while frontier:
        state = frontier.popleft()
        tick(clock, expanded, generated)
        expanded += 1
        for action, child, cost in steps(problem, state):
            generated += 1
            if child in parents:
                continue
            parents[child] = (state, action)
            costs[child] = costs[state] + cost
            if problem.is_goal(child):
                return Solution(walk_back(parents, child), costs[child], expanded, generated)
            frontier.append(child)
    return Solution(None, float("inf"), expanded, generated)
