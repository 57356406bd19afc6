"""Iterative deepening under a clock, written once for every depth-limited search.

``deepen`` turns any ``search(depth) -> SearchResult`` into an anytime generator: it yields a
:class:`~gridarena.search.adversarial.Progress` after each completed depth and returns when the
clock stops (the search raises :class:`~gridarena.search.errors.SearchAborted` inside), when the
depth budget is reached, or when a result is exact (deeper searches cannot change it). The caller
owns the clock and keeps the last progress it saw: that is the best action of the last completed
depth, as AIND's agents return it.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace

from gridarena.core.clock import TimeControl
from gridarena.search.adversarial import WIN, Progress, SearchResult
from gridarena.search.errors import SearchAborted

DepthSearch = Callable[[int], SearchResult]
WindowSearch = Callable[[int, float, float], SearchResult]


def deepen(
    search: DepthSearch, clock: TimeControl | None = None, max_depth: int | None = None
) -> Iterator[Progress]:
    """Run ``search`` at depths 1, 2, ... and yield after each one that completes.

    >>> def search(depth):
    ...     return SearchResult(float(depth), "a", nodes=10 * depth, exact=depth == 3)
    >>> [p.depth for p in deepen(search)]
    [1, 2, 3]
    >>> [p.nodes for p in deepen(search, TimeControl(depth=2))]
    [10, 20]
    """
    for depth in itertools.count(1):
        if max_depth is not None and depth > max_depth:
            return
        if clock is not None and not clock.depth_allowed(depth):
            return
        try:
            result = search(depth)
        except SearchAborted:
            return
        yield Progress(depth, result.score, result.best, result.nodes, result.exact)
        if result.exact or result.best is None:
            return


def aspirated(search: WindowSearch, delta: float | None) -> DepthSearch:
    """``search`` with aspiration windows: each depth first tries ``previous score +- delta``.

    A result on or outside the window is searched again with that side opened to infinity, so the
    score is always the full-window score; the reported nodes include the failed tries. No window
    is used at the first depth, after a won or lost score, or when ``delta`` is None.

    >>> calls = []
    >>> def search(depth, alpha, beta):
    ...     calls.append((alpha, beta))
    ...     return SearchResult(min(max(5.0, alpha), beta), "a", nodes=1, exact=False)
    >>> run = aspirated(search, 1.0)
    >>> run(1).score, run(2).score, run(3).nodes
    (5.0, 5.0, 1)
    >>> calls
    [(-inf, inf), (4.0, 6.0), (4.0, 6.0)]
    """
    previous: list[float] = []

    def run(depth: int) -> SearchResult:
        if delta is None or not previous or abs(previous[-1]) >= WIN / 2:
            result = search(depth, -math.inf, math.inf)
        else:
            result = _search_in_window(search, depth, previous[-1] - delta, previous[-1] + delta)
        previous.append(result.score)
        return result

    return run


def _search_in_window(search: WindowSearch, depth: int, alpha: float, beta: float) -> SearchResult:
    """Search with (alpha, beta), opening the side that failed until the score is inside."""
    nodes = 0
    while True:
        result = search(depth, alpha, beta)
        nodes += result.nodes
        if result.score <= alpha and alpha > -math.inf:
            alpha = -math.inf
        elif result.score >= beta and beta < math.inf:
            beta = math.inf
        else:
            return replace(result, nodes=nodes)


def last(progress: Iterable[Progress]) -> Progress | None:
    """The last progress an anytime search yields (None if not even depth 1 completed).

    >>> last(iter([Progress(1, 0.0, 4, 5, False), Progress(2, 1.0, 7, 20, False)])).best
    7
    """
    final = None
    for final in progress:  # noqa: B007 - the loop runs the search; the last value is the answer
        pass
    return final
