"""A transposition table: states (hashable, immutable) mapped to what a search learnt about them.

An entry keeps the depth searched, the value and whether it is exact or a bound, the best action
(tried first when the state is met again) and ``resolved``: no leaf below was cut by the depth
limit, so the value holds at any greater depth too. A value is reused only at the same depth, or
at a greater one when resolved, which keeps every search's result equal to the search without the
table (using deeper entries at shallower depths, as engines often do, would change the values).

Values depend on whose point of view and which evaluation produced them, so a table serves one
(player, evaluate) pair; :meth:`TranspositionTable.bind` refuses a second one.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from gridarena.core.types import Player
from gridarena.search.errors import UnsupportedGameError


class Bound(IntEnum):
    """What a stored value says about the true value at that depth."""

    EXACT = 0
    LOWER = 1  # the true value is at least this (a beta cutoff)
    UPPER = 2  # the true value is at most this (every move failed low)


@dataclass(frozen=True, slots=True)
class Entry:
    """What one search of a state found."""

    depth: int
    value: float
    bound: Bound
    best: Hashable | None
    resolved: bool

    def usable(self, depth: int, alpha: float, beta: float) -> bool:
        """Whether this entry decides a search of ``depth`` plies with window (alpha, beta).

        >>> Entry(3, 5.0, Bound.LOWER, None, False).usable(3, 0.0, 4.0)
        True
        >>> Entry(3, 5.0, Bound.LOWER, None, False).usable(4, 0.0, 4.0)
        False
        """
        if not (self.depth == depth or (self.resolved and self.depth <= depth)):
            return False
        if self.bound == Bound.EXACT:
            return True
        return self.value >= beta if self.bound == Bound.LOWER else self.value <= alpha


def bound_of(value: float, alpha: float, beta: float) -> Bound:
    """The bound a fail-soft search's ``value`` gives for the window it was searched with.

    >>> bound_of(1.0, 2.0, 5.0), bound_of(3.0, 2.0, 5.0), bound_of(6.0, 2.0, 5.0)
    (<Bound.UPPER: 2>, <Bound.EXACT: 0>, <Bound.LOWER: 1>)
    """
    if value <= alpha:
        return Bound.UPPER
    return Bound.LOWER if value >= beta else Bound.EXACT


class TranspositionTable:
    """A dict of at most ``capacity`` entries; when full it is emptied (cheap, and keeps no stale ages).

    >>> tt = TranspositionTable(capacity=2)
    >>> tt.store("a", Entry(1, 0.5, Bound.EXACT, None, False)); len(tt)
    1
    >>> tt.get("a").value, tt.get("b")
    (0.5, None)
    """

    def __init__(self, capacity: int = 200_000) -> None:  # about 60 MB with 7x7 Isolation states
        self.capacity = capacity
        self._entries: dict[object, Entry] = {}
        self._owner: tuple[Player, Callable[..., float]] | None = None

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, state: object) -> Entry | None:
        """The entry of ``state``, or None."""
        return self._entries.get(state)

    def store(self, state: object, entry: Entry) -> None:
        """Keep ``entry`` for ``state`` (the newest search of a state replaces the older one)."""
        if len(self._entries) >= self.capacity and state not in self._entries:
            self._entries.clear()
        self._entries[state] = entry

    def clear(self) -> None:
        """Forget every entry and the owner."""
        self._entries.clear()
        self._owner = None

    def bind(self, player: Player, evaluate: Callable[..., Any]) -> None:
        """Tie the table to one point of view and evaluation; raise if it already serves another."""
        if self._owner is None:
            self._owner = (player, evaluate)
        elif self._owner != (player, evaluate):
            raise UnsupportedGameError(
                f"this transposition table holds values of player {self._owner[0]} with "
                f"{getattr(self._owner[1], '__name__', self._owner[1])!r}; use one table per player and evaluation"
            )
