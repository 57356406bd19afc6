"""A*: the cheapest path to a goal, given an admissible heuristic ``h(state)``.

The frontier is a binary heap ordered by ``f = g + h``, then by smaller ``h`` (deeper first, which
reaches the goal sooner among equal ``f``), then first in, first out, so runs repeat exactly. Weighted
A* orders by ``f = g + w h`` instead: with ``w > 1`` and an admissible ``h`` the cost found is at most
``w`` times the optimum, usually after far fewer expansions (a closed set keeps it from the very long
answers a weighted IDA* gives). A state
is pushed again only when a strictly cheaper path to it is found; the stale heap entry is skipped
when popped and not counted. With a consistent heuristic every state is expanded at most once; with
an admissible but inconsistent one a state may be expanded again (reopened), and each time counts.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Hashable
from itertools import count
from typing import Any

from gridarena.core.clock import TimeControl
from gridarena.search.errors import InvalidProblemError
from gridarena.search.problem import Heuristic, Problem, Solution, steps, tick, walk_back


def zero_heuristic(state: object) -> float:
    """The trivial admissible heuristic: A* with it is uniform-cost search.

    >>> zero_heuristic("anything")
    0.0
    """
    return 0.0


def astar(
    problem: Problem[Any],
    h: Heuristic = zero_heuristic,
    clock: TimeControl | None = None,
    *,
    weight: float = 1.0,
) -> Solution[Any]:
    """A cheapest path from ``problem.start()`` to a goal when ``h`` is admissible, with the counts.

    The goal test is made when a state is popped for expansion (the goal is popped, not expanded).
    ``clock`` counts one node per expansion. ``weight`` multiplies ``h`` in the ordering (weighted A*).

    >>> class Line:  # steps of +1 (cost 1) or +3 (cost 2), from 0 to 6
    ...     def start(self): return 0
    ...     def is_goal(self, s): return s == 6
    ...     def successors(self, s): return [(d, s + d, (d + 1) / 2) for d in (1, 3) if s + d <= 6]
    >>> astar(Line(), lambda s: (6 - s) * 2 / 3)
    Solution(path=(3, 3), cost=4.0, expanded=2, generated=4, h0=4.0)
    """
    if not weight >= 0.0 or math.isinf(weight):
        raise InvalidProblemError(f"the heuristic's weight must be finite and not negative, not {weight}")
    start = problem.start()
    order = count()
    best_g: dict[Hashable, float] = {start: 0.0}
    parents: dict[Hashable, tuple[Hashable, Hashable] | None] = {start: None}
    h0 = h(start)
    frontier: list[tuple[float, float, int, float, Hashable]] = [(weight * h0, h0, next(order), 0.0, start)]
    expanded = generated = 0
    while frontier:
        _, _, _, g, state = heapq.heappop(frontier)
        if g > best_g[state]:
            continue  # a cheaper path to this state was pushed after this entry
        if problem.is_goal(state):
            return Solution(walk_back(parents, state), g, expanded, generated, h0=h0, weight=weight)
        tick(clock, expanded, generated, h0=h0, weight=weight)
        expanded += 1
        for action, child, cost in steps(problem, state):
            generated += 1
            g_child = g + cost
            if g_child < best_g.get(child, math.inf):
                best_g[child] = g_child
                parents[child] = (state, action)
                h_child = h(child)
                heapq.heappush(frontier, (g_child + weight * h_child, h_child, next(order), g_child, child))
    return Solution(None, math.inf, expanded, generated, h0=h0, weight=weight)
