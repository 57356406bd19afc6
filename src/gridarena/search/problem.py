"""Single-agent search problems and the answer every solver gives.

A :class:`Problem` names a start state, a goal test and the successors of a state. ``successors``
yields ``(action, state)`` pairs, each step costing 1, or ``(action, state, cost)`` triples with a
non-negative cost. States must be hashable (the solvers keep them in sets and dicts).

What the counters mean, identically in :func:`~gridarena.search.bfs.bfs`,
:func:`~gridarena.search.astar.astar` and :func:`~gridarena.search.idastar.idastar`:

* ``expanded``: how many times ``successors`` was called, that is states whose children were
  listed (with repeats: IDA* expands a state again in every iteration that reaches it).
* ``generated``: how many successor items those calls yielded, duplicates and already-seen states
  included. The start state is not counted.

They differ in where the goal is tested: BFS when a state is generated (so it never expands the
goal), A* and IDA* when a state is selected for expansion (needed for optimality with costs;
the goal itself is then selected but not expanded).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol, TypeAlias, TypeVar

from gridarena.core.clock import TimeControl
from gridarena.search.errors import InvalidProblemError, SearchAborted

S = TypeVar("S", bound=Hashable)
Action: TypeAlias = Hashable
Heuristic: TypeAlias = Callable[[Any], float]
"""``h(state) -> float``: an estimate of the cost to the nearest goal (admissible: never above it)."""


class Problem(Protocol[S]):
    """A single-agent search problem over hashable states."""

    def start(self) -> S: ...
    def is_goal(self, state: S) -> bool: ...
    def successors(self, state: S) -> Iterable[tuple[Action, S]] | Iterable[tuple[Action, S, float]]: ...


@dataclass(frozen=True, slots=True)
class Solution:
    """A solver's answer: the actions from the start to a goal (None if there is none) and counts.

    >>> Solution((1, 2), 2.0, expanded=3, generated=5).found
    True
    >>> Solution(None, float("inf"), expanded=4, generated=4)
    Solution(path=None, cost=inf, expanded=4, generated=4)
    """

    path: tuple[Action, ...] | None
    cost: float
    expanded: int
    generated: int

    @property
    def found(self) -> bool:
        """Whether a goal was reached."""
        return self.path is not None


def steps(problem: Problem[S], state: S) -> Iterator[tuple[Action, S, float]]:
    """The successors of ``state`` as ``(action, state, cost)`` triples (unit cost when not given).

    >>> class Line:
    ...     def start(self): return 0
    ...     def is_goal(self, s): return s == 2
    ...     def successors(self, s): return [("+", s + 1)]
    >>> list(steps(Line(), 0))
    [('+', 1, 1.0)]
    """
    for item in problem.successors(state):
        if len(item) == 2:
            yield item[0], item[1], 1.0
        else:
            action, child, cost = item
            if cost < 0:
                raise InvalidProblemError(
                    f"{type(problem).__name__}: action {action!r} has negative cost {cost}"
                )
            yield action, child, float(cost)


def walk_back(parents: dict[Any, tuple[Any, Action] | None], goal: Any) -> tuple[Action, ...]:
    """The actions from the root of ``parents`` (a state mapped to None) to ``goal``.

    >>> walk_back({0: None, 1: (0, "a"), 2: (1, "b")}, 2)
    ('a', 'b')
    """
    path: list[Action] = []
    link = parents[goal]
    while link is not None:
        state, action = link
        path.append(action)
        link = parents[state]
    return tuple(reversed(path))


def tick(clock: TimeControl | None) -> None:
    """Count one expansion on ``clock``; raise :class:`SearchAborted` once it says stop."""
    if clock is not None and clock.tick():
        raise SearchAborted("the time control stopped the search")
