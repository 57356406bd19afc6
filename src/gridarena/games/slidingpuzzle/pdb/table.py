"""One pattern database in memory: the goal, the pattern and the table of values, and its lookups."""

from __future__ import annotations

from dataclasses import dataclass, field
from math import comb, perm
from pathlib import Path
from typing import Any

import numpy as np

from gridarena.games.slidingpuzzle.board import Board
from gridarena.games.slidingpuzzle.fast.indexing import BoardMasks, Geometry, rank_placement_ref


@dataclass(frozen=True)
class PatternDatabase:
    """One loaded table: the goal, the pattern and its values.

    Storage ``u8`` (a byte per placement), ``u4`` (packed nibbles) or ``r4``, keyed by the placement
    *and* the regions of the blanks: a byte per placement (the least cost over the blanks' regions)
    followed by a nibble per state with the cost above it (:func:`~gridarena.games.slidingpuzzle.fast.pdbbuild.build_values`).
    """

    goal: Board
    pattern: tuple[int, ...]
    storage: str
    table: np.ndarray = field(repr=False)
    path: Path | None = None
    header: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def entries(self) -> int:
        """Number of placements (M!/(M-k)!)."""
        return perm(len(self.goal.cells) - len(self.goal.walls), len(self.pattern))

    @property
    def regions(self) -> bool:
        """Whether values depend on the blanks' regions too (storage ``r4``)."""
        return self.storage == "r4"

    @property
    def slots(self) -> int:
        """Blank slots per placement in a region-keyed table: C(M - k, blanks) (1 otherwise)."""
        size = len(self.goal.cells) - len(self.goal.walls)
        return comb(size - len(self.pattern), len(self.goal.blanks)) if self.regions else 1

    def value(self, rank: int, slot: int = 0) -> int:
        """The stored value of placement ``rank`` (and blank ``slot`` in a region-keyed table)."""
        if self.storage == "u4":
            return int(self.table[rank >> 1] >> (4 * (rank & 1))) & 15
        if self.regions:
            state = rank * self.slots + slot
            return int(self.table[rank]) + (
                int(self.table[self.entries + (state >> 1)] >> (4 * (state & 1))) & 15
            )
        return int(self.table[rank])

    def lookup(self, board: Board) -> int:
        """The database's lower bound for ``board``.

        >>> from gridarena.games.slidingpuzzle.pdb.build import build_pdb
        >>> from gridarena.games.slidingpuzzle.board import goal_board
        >>> goal = goal_board(2, 3)
        >>> build_pdb(goal, (1, 2)).lookup(goal)
        0
        """
        geo = Geometry.of(self.goal)
        where = board.positions()
        rank = rank_placement_ref([int(geo.index[where[t]]) for t in self.pattern], geo.size)
        if not self.regions:
            return self.value(rank)
        cells = [where[t] for t in self.pattern]
        return self.value(rank, BoardMasks.of(self.goal).slot(cells, board.blanks))

    def unpacked(self) -> np.ndarray:
        """The values as one byte per placement (the least over the blanks' regions for ``r4``)."""
        if self.storage in ("u8", "r4"):
            return np.asarray(self.table[: self.entries])
        both = np.empty(2 * len(self.table), dtype=np.uint8)
        both[0::2], both[1::2] = self.table & 15, self.table >> 4
        return both[: self.entries]


def pack_nibbles(values: np.ndarray) -> np.ndarray:
    """Two values per byte, low nibble first (every value must be below 16).

    >>> pack_nibbles(np.array([1, 2, 3], dtype=np.uint8)).tolist()
    [33, 3]
    """
    padded = np.zeros(len(values) + (len(values) & 1), dtype=np.uint8)
    padded[: len(values)] = values
    return (padded[0::2] | (padded[1::2] << 4)).astype(np.uint8)
