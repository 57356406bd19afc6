"""How the pattern databases index their states: movable cells, placement ranks, blank regions and slots.

A placement of a pattern's k tiles on the M movable cells is ranked as an ordered k-permutation (a
perfect hash, :func:`rank_placement`). The builder and the IDA* kernel work on cells as bits of one
int64 in board coordinates (``row * cols + col``), so the region a blank can reach is a few
shift-and-mask rounds (:func:`flood`) and a rank digit one hardware popcount; a blank arrangement is
named by its *slot*, the colex rank of the blanks' cells among the free cells (:func:`blank_slot`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import perm
from typing import Any

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from gridarena.games.slidingpuzzle.board import WALL, Board, movable_neighbours


@dataclass(frozen=True)
class Geometry:
    """The movable cells of a goal board, renumbered 0..M-1, with their neighbours (-1: none)."""

    goal: Board
    cells: np.ndarray  # movable index -> board cell
    index: np.ndarray  # board cell -> movable index (-1 for walls)
    neighbours: np.ndarray  # (M, 4), movable indices in direction order up, down, left, right

    @classmethod
    def of(cls, goal: Board) -> Geometry:
        """The geometry of ``goal``'s board."""
        cells = np.array([c for c, v in enumerate(goal.cells) if v != WALL], dtype=np.int64)
        index = np.full(len(goal.cells), -1, dtype=np.int64)
        index[cells] = np.arange(len(cells))
        near = np.full((len(cells), 4), -1, dtype=np.int64)
        adjacent = movable_neighbours(goal)
        for m, c in enumerate(cells):
            for n in adjacent[c]:
                dr, dc = divmod(n, goal.cols)[0] - c // goal.cols, n % goal.cols - c % goal.cols
                near[m, ((-1, 0), (1, 0), (0, -1), (0, 1)).index((dr, dc))] = index[n]
        return cls(goal, cells, index, near)

    @property
    def size(self) -> int:
        """M, the number of movable cells."""
        return len(self.cells)


@intrinsic
def _ctpop(typingctx: Any, x: Any) -> Any:
    """Set bits of an int64: one hardware instruction (LLVM ``ctpop``) instead of a dozen shifts."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(context.cast(builder, args[0], x, types.int64))

    return types.int64(x), codegen


@intrinsic
def _cttz(typingctx: Any, x: Any) -> Any:
    """Index of the lowest set bit of a nonzero int64 (LLVM ``cttz``)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.cttz(context.cast(builder, args[0], x, types.int64), ir.Constant(ir.IntType(1), 0))

    return types.int64(x), codegen


@njit(cache=True, inline="always")
def bit_count(x: int) -> int:
    return _ctpop(x)  # type: ignore[call-arg]  # numba passes the typing context itself


@njit(cache=True, inline="always")
def low_bit_index(x: int) -> int:
    return _cttz(x)  # type: ignore[call-arg]


@njit(cache=True)
def popcount(x: int) -> int:
    """Number of set bits of a non-negative int64.

    >>> popcount(0b1011), popcount(0)
    (3, 0)
    """
    return bit_count(x)


def placement_weights(m: int, k: int) -> np.ndarray:
    """Mixed-radix weights of the k-permutation rank: ``W[i] = P(m - i - 1, k - i - 1)``.

    >>> placement_weights(5, 3).tolist()
    [12, 3, 1]
    """
    return np.array([perm(m - i - 1, k - i - 1) for i in range(k)], dtype=np.int64)


def rank_placement_ref(cells: Sequence[int], m: int) -> int:
    """Readable reference: lexicographic rank of distinct ``cells`` among k-permutations of range(m).

    >>> [rank_placement_ref(p, 3) for p in ((0, 1), (0, 2), (1, 0), (2, 1))]
    [0, 1, 2, 5]
    """
    rank, k = 0, len(cells)
    for i, c in enumerate(cells):
        digit = c - sum(1 for d in cells[:i] if d < c)
        rank += digit * perm(m - i - 1, k - i - 1)
    return rank


@njit(cache=True, inline="always")
def rank_placement(pos: np.ndarray, k: int, weights: np.ndarray) -> int:
    """Numba twin of :func:`rank_placement_ref` (``pos[:k]`` are movable indices < 63)."""
    rank = 0
    used = np.int64(0)
    for i in range(k):
        c = pos[i]
        rank += (c - bit_count(used & ((np.int64(1) << c) - 1))) * weights[i]
        used |= np.int64(1) << c
    return rank


@njit(cache=True)
def unrank_placement(rank: int, k: int, m: int, weights: np.ndarray, pos: np.ndarray) -> None:
    """Inverse of :func:`rank_placement`, written into ``pos[:k]``."""
    used = np.int64(0)
    for i in range(k):
        digit = rank // weights[i]
        rank -= digit * weights[i]
        c = 0
        while True:
            if not (used >> c) & 1:
                if digit == 0:
                    break
                digit -= 1
            c += 1
        pos[i] = c
        used |= np.int64(1) << c


@njit(cache=True, inline="always")
def flood(free: int, seed: int, cols: int, not_first: int, not_last: int) -> int:
    """The cells of ``free`` connected to the cells of ``seed`` (bit-parallel breadth-first fill)."""
    region = seed
    while True:
        grown = region | (region << cols) | (region >> cols) | ((region & not_last) << 1)
        grown = (grown | ((region & not_first) >> 1)) & free
        if grown == region:
            return region
        region = grown


@njit(cache=True)
def free_regions(free: int, cols: int, not_first: int, not_last: int, out: np.ndarray) -> int:
    """The connected parts of ``free`` in order of their smallest cell, into ``out``; their number."""
    n = 0
    while free:
        part = flood(free, free & -free, cols, not_first, not_last)
        out[n] = part
        n += 1
        free &= ~part
    return n


@njit(cache=True, inline="always")
def blank_slot(free: int, x: int, y: int, nb: int) -> int:
    """Blank slot of canonical blanks in regions ``x`` and ``y`` (``y == x``: both in it, on its two
    smallest cells; else on each one's smallest): the colex rank of their indices among the free cells.
    """
    a = x & -x
    if nb == 1:
        return bit_count(free & (a - 1))
    b = (x & ~a) & -(x & ~a) if y == x else y & -y
    if a > b:
        a, b = b, a
    fx = bit_count(free & (a - 1))
    fy = bit_count(free & (b - 1))
    return fx + fy * (fy - 1) // 2


@njit(cache=True)
def _slot_from_python(free: int, x: int, y: int, nb: int) -> int:
    """:func:`blank_slot` callable from Python (inlined functions have no dispatcher of their own)."""
    return blank_slot(free, x, y, nb)


@dataclass(frozen=True)
class BoardMasks:
    """Bit masks and tables of a goal board for the builder and IDA* kernels."""

    movable: int
    cols: int
    not_first: int
    not_last: int
    midx: np.ndarray  # board cell -> movable index
    near: np.ndarray  # board cell -> mask of movable neighbours

    @classmethod
    def of(cls, goal: Board) -> BoardMasks:
        """The masks of ``goal``'s board (at most 62 cells)."""
        cells = len(goal.cells)
        movable = sum(1 << c for c, v in enumerate(goal.cells) if v != WALL)
        not_first = sum(1 << c for c in range(cells) if c % goal.cols != 0)
        not_last = sum(1 << c for c in range(cells) if c % goal.cols != goal.cols - 1)
        midx = np.maximum(Geometry.of(goal).index, 0)
        adjacent = movable_neighbours(goal)
        near = np.array([sum(1 << n for n in adjacent[c]) for c in range(cells)], dtype=np.int64)
        return cls(movable, goal.cols, not_first, not_last, midx, near)

    def parts(self, free: int) -> list[int]:
        """The connected parts of ``free``, in order of their smallest cell."""
        out = np.empty(64, dtype=np.int64)
        return [int(p) for p in out[: free_regions(free, self.cols, self.not_first, self.not_last, out)]]

    def slot(self, cells: Sequence[int], blanks: Sequence[int]) -> int:
        """The blank slot with the pattern's tiles on ``cells``: the blanks moved to the smallest cells of
        their regions."""
        free = self.movable & ~sum(1 << c for c in cells)
        regions = [next(p for p in self.parts(free) if p >> b & 1) for b in blanks]
        return int(_slot_from_python(free, regions[0], regions[-1], len(blanks)))
