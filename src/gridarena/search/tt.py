"""A transposition table: states (hashable, immutable) mapped to what a search learnt about them.

An entry keeps the depth searched, the value and whether it is exact or a bound, the best action
(tried first when the state is met again) and ``resolved``: no leaf below was cut by the depth
limit, so the value holds at any greater depth too. A value is reused only at the same depth, or
at a greater one when resolved, which keeps every search's result equal to the search without the
table (using deeper entries at shallower depths, as engines often do, would change the values).

Values depend on whose point of view and which evaluation produced them, so a table serves one
(player, evaluate) pair; :meth:`TranspositionTable.bind` refuses a second one.

A table's memory is bounded by a budget in bytes (:data:`DEFAULT_BUDGET`), not by a count of entries:
the states of a 26x26 board are larger than those of a 7x7 one, and a count that suits one overruns
with the other. The bytes of an entry are measured on the states stored (every :data:`MEASURE_EVERY`
entries, the largest seen counts).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Final

from gridarena.core.types import Player
from gridarena.search.errors import UnsupportedGameError

DEFAULT_BUDGET: Final = 64 * 1024**2
"""The bytes a table may hold by default (about 180,000 entries of 7x7 Isolation, 110,000 of 26x26)."""
MEASURE_EVERY: Final = 1024
DICT_SLOT: Final = 48
"""Bytes a dict spends per entry beyond its key and value: hash and two pointers, and its spare room."""


def footprint(value: object, depth: int = 3) -> int:
    """Bytes of ``value`` and of what it holds (tuples, lists, slots), ``depth`` levels down; the
    small integers and singletons Python shares are free.

    >>> footprint((1, 2)) == sys.getsizeof((1, 2)), footprint((10**30,)) > sys.getsizeof((10**30,))
    (True, True)
    """
    if value is None or isinstance(value, bool) or (isinstance(value, int) and -5 <= value <= 256):
        return 0
    size = sys.getsizeof(value)
    if depth == 0 or isinstance(value, str | bytes | int | float):
        return size
    if isinstance(value, tuple | list | frozenset | set):
        return size + sum(footprint(item, depth - 1) for item in value)
    slots = [name for cls in type(value).__mro__ for name in getattr(cls, "__slots__", ())]
    return size + sum(footprint(getattr(value, name, None), depth - 1) for name in slots)


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
    """A dict within ``budget`` bytes (and at most ``capacity`` entries, if given); when full it is
    emptied (cheap, and keeps no stale ages).

    >>> tt = TranspositionTable(capacity=2)
    >>> tt.store("a", Entry(1, 0.5, Bound.EXACT, None, False)); len(tt)
    1
    >>> tt.get("a").value, tt.get("b")
    (0.5, None)
    """

    def __init__(self, capacity: int | None = None, budget: int = DEFAULT_BUDGET) -> None:
        self.capacity = capacity
        self.budget = budget
        self.entry_bytes = 0
        self.limit = capacity if capacity is not None else 1
        self._entries: dict[object, Entry] = {}
        self._owner: tuple[Player, Callable[..., float]] | None = None
        self._stores = 0

    def _measure(self, state: object, entry: Entry) -> None:
        """Update the bytes an entry takes (the largest seen) and the entries the budget allows."""
        self.entry_bytes = max(self.entry_bytes, footprint(state) + footprint(entry) + DICT_SLOT)
        allowed = max(1, self.budget // self.entry_bytes)
        self.limit = allowed if self.capacity is None else min(self.capacity, allowed)

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, state: object) -> Entry | None:
        """The entry of ``state``, or None."""
        return self._entries.get(state)

    def store(self, state: object, entry: Entry) -> None:
        """Keep ``entry`` for ``state`` (the newest search of a state replaces the older one)."""
        if self._stores % MEASURE_EVERY == 0:
            self._measure(state, entry)
        self._stores += 1
        if len(self._entries) >= self.limit and state not in self._entries:
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
