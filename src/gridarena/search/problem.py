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

A solver stopped by its :class:`~gridarena.core.clock.TimeControl` raises
:class:`~gridarena.search.errors.SearchAborted`, which carries what the search had reached
(``partial``: a :class:`Solution` with ``status == "limit"``, its counts and the bound it proved).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass, field, fields
from typing import Any, Final, Generic, Literal, Protocol, TypeAlias, TypeVar

from gridarena.core.clock import TimeControl
from gridarena.search.errors import InvalidProblemError, SearchAborted

S = TypeVar("S", bound=Hashable)
A = TypeVar("A")
Action: TypeAlias = Hashable
Heuristic: TypeAlias = Callable[[Any], float]
"""``h(state) -> float``: an estimate of the cost to the nearest goal (admissible: never above it)."""


class Problem(Protocol[S]):
    """A single-agent search problem over hashable states."""

    def start(self) -> S: ...
    def is_goal(self, state: S) -> bool: ...
    def successors(self, state: S) -> Iterable[tuple[Action, S]] | Iterable[tuple[Action, S, float]]: ...


Status: TypeAlias = Literal["solved", "unsolvable", "limit"]

_ALWAYS_SHOWN: Final = ("path", "cost", "expanded", "generated")


@dataclass(frozen=True, slots=True, repr=False)
class Solution(Generic[A]):
    """A solver's answer: the actions from the start to a goal (None if there is none) and counts.

    Beyond the path and the counts it says why a search without a path ended (``stopped`` by its
    limits, with the ``reason``, or the space was exhausted) and what it proved: ``bound``, the least
    cost a stopped search has ruled out going below, ``h0`` the heuristic at the start, ``weight`` the
    heuristic's weight (above 1 the cost is within that factor of the optimum, not optimal).
    ``algorithm`` and ``seconds`` describe the run rather than the answer: the solvers here leave them
    for the caller to fill (``dataclasses.replace``), and equality ignores them.

    >>> Solution((1, 2), 2.0, expanded=3, generated=5).status
    'solved'
    >>> Solution(None, float("inf"), expanded=4, generated=4)
    Solution(path=None, cost=inf, expanded=4, generated=4)
    >>> Solution(None, float("inf"), 9, 20, stopped=True, bound=7).status
    'limit'
    """

    path: tuple[A, ...] | None
    cost: float
    expanded: int
    generated: int
    stopped: bool = False
    reason: str = ""
    bound: float = 0
    h0: float = 0
    weight: float = 1.0
    algorithm: str = field(default="", compare=False)
    seconds: float = field(default=0.0, compare=False)

    def __repr__(self) -> str:
        # Like a constructor call, naming only what differs from the defaults.
        shown = (
            f"{f.name}={getattr(self, f.name)!r}"
            for f in fields(self)
            if f.name in _ALWAYS_SHOWN or getattr(self, f.name) != f.default
        )
        return f"Solution({', '.join(shown)})"

    @property
    def found(self) -> bool:
        """Whether a goal was reached."""
        return self.path is not None

    @property
    def status(self) -> Status:
        """``solved``, ``limit`` (stopped by the time control) or ``unsolvable`` (no goal is reachable)."""
        if self.path is not None:
            return "solved"
        return "limit" if self.stopped else "unsolvable"

    @property
    def length(self) -> int | None:
        """The number of actions, or None without a path."""
        return None if self.path is None else len(self.path)

    @property
    def lower_bound(self) -> float:
        """The least cost a solution can have, as far as this search knows (the cost, once solved optimally).

        >>> Solution((1,) * 12, 12.0, 40, 90, h0=5, weight=1.5).lower_bound
        8.0
        """
        if self.path is None:
            return self.bound
        return self.cost if self.weight == 1.0 else max(self.h0, self.cost / self.weight)


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


def tick(
    clock: TimeControl | None,
    expanded: int,
    generated: int,
    *,
    bound: float = 0,
    h0: float = 0,
    weight: float = 1.0,
) -> None:
    """Count one expansion on ``clock``; once it says stop, raise :class:`SearchAborted` with the partial answer.

    ``expanded``, ``generated`` and the proven ``bound`` are the search's figures so far.
    """
    if clock is not None and clock.tick():
        limit = "node" if clock.nodes is not None and clock.count > clock.nodes else "time"
        why = f"{limit} limit reached"
        partial: Solution[Any] = Solution(None, math.inf, expanded, generated, True, why, bound, h0, weight)
        raise SearchAborted("the time control stopped the search", partial)
