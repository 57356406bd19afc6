"""Additive pattern databases: a numba builder, an on-disk format, memory-mapped loading.

A PDB for pattern P stores, for every placement of P's tiles on the movable cells, the least number
of slides *of P's tiles* that bring them home, when every other tile is indistinguishable and moves
for free. Each slide moves one tile, so the values of disjoint patterns add up admissibly.

The builder runs one breadth-first search backwards from the goal over abstract states (placement
of P's tiles, blanks). Because the other tiles move for free, a blank can go anywhere in its region
(the connected set of cells not holding P's tiles), so a state keeps only how many blanks each region
holds, with the blanks put on the region's smallest cells: the zero-cost moves disappear and the 0-1
search becomes a plain breadth-first search over these canonical states. The stored value is the
minimum over the blank arrangements (Korf and Felner's style), keyed by a perfect hash of the
placement alone: the rank of the ordered k-permutation of P's cells among the M movable cells.

States are integers ``placement_rank * C(M - k, b) + blank_rank`` (``blank_rank``: the colex rank
of the blanks' indices among the non-pattern cells), each with a 2-bit code of a frontier search
(see the kernel), so no Python object exists per state. Up to two blanks are supported (the homework
has two, the classic puzzles one), on boards of up to 62 cells.
"""

from __future__ import annotations

import json
import os
import time
import zlib
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from math import comb, perm
from pathlib import Path
from typing import Any, Final

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from gridarena.core.errors import GridArenaError
from gridarena.games.slidingpuzzle.formats import pattern_problem
from gridarena.games.slidingpuzzle.rules import WALL, Board, goal_board, homework_goal, movable_neighbours

MAGIC: Final = b"GAPDB\r\n\x1a"  # the PNG trick: text-mode copies and truncations show at once
FORMAT_VERSION: Final = 1
ALIGN: Final = 64
UNSET: Final = 255
MAX_BLANKS: Final = 2


class PdbError(GridArenaError, ValueError):
    """A pattern database that cannot be built or used as asked."""


class PdbFileError(PdbError):
    """A PDB file that is not ours, truncated, corrupted, or built for another board or pattern."""

    def __init__(self, path: str | os.PathLike[str], message: str) -> None:
        super().__init__(f"{path}: {message}")


# ---------------------------------------------------------------------------------------------
# Geometry on movable cells


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
def _popcount(x: int) -> int:
    return _ctpop(x)  # type: ignore[call-arg]  # numba passes the typing context itself


@njit(cache=True, inline="always")
def _low_index(x: int) -> int:
    return _cttz(x)  # type: ignore[call-arg]


@njit(cache=True)
def popcount(x: int) -> int:
    """Number of set bits of a non-negative int64.

    >>> popcount(0b1011), popcount(0)
    (3, 0)
    """
    return _popcount(x)


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
        rank += (c - _popcount(used & ((np.int64(1) << c) - 1))) * weights[i]
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


# ---------------------------------------------------------------------------------------------
# The builder kernel. Cells are bits of an int64 in board coordinates (row * cols + col), so a region
# is a few shift-and-mask rounds and a rank digit one popcount. The search is a frontier search over
# two bits per state (0 unseen or old, 1 previous layer, 2 current, 3 next): moves are reversible, so a
# successor of the current layer that is new lies in none of the three layers. Layers are scanned in
# state order (no queue, and successors of nearby states land on nearby words). Together about ten times
# faster than per-cell loops over a queue, in two bits per state instead of a bit set plus 8-byte queues.

PREV: Final = 1
CUR: Final = 2
NEXT: Final = 3


@njit(cache=True, inline="always")
def _select(x: int, d: int) -> int:
    """The bit (as a mask) of the ``d``-th lowest set bit of ``x``."""
    for _ in range(d):
        x &= x - 1
    return x & -x


@njit(cache=True, inline="always")
def _flood(free: int, seed: int, cols: int, not_first: int, not_last: int) -> int:
    """The cells of ``free`` connected to the cells of ``seed`` (bit-parallel breadth-first fill)."""
    region = seed
    while True:
        grown = region | (region << cols) | (region >> cols) | ((region & not_last) << 1)
        grown = (grown | ((region & not_first) >> 1)) & free
        if grown == region:
            return region
        region = grown


@njit(cache=True)
def _regions(free: int, cols: int, not_first: int, not_last: int, out: np.ndarray) -> int:
    """The connected parts of ``free`` in order of their smallest cell, into ``out``; their number."""
    n = 0
    while free:
        part = _flood(free, free & -free, cols, not_first, not_last)
        out[n] = part
        n += 1
        free &= ~part
    return n


@njit(cache=True, inline="always")
def _slot(free: int, x: int, y: int, nb: int) -> int:
    """Blank slot of canonical blanks in regions ``x`` and ``y`` (``y == x``: both in it, on its two
    smallest cells; else on each one's smallest): the colex rank of their indices among the free cells.
    """
    a = x & -x
    if nb == 1:
        return _popcount(free & (a - 1))
    b = (x & ~a) & -(x & ~a) if y == x else y & -y
    if a > b:
        a, b = b, a
    fx = _popcount(free & (a - 1))
    fy = _popcount(free & (b - 1))
    return fx + fy * (fy - 1) // 2


@njit(cache=True)
def _slot_py(free: int, x: int, y: int, nb: int) -> int:
    """:func:`_slot` callable from Python (inlined functions have no dispatcher of their own)."""
    return _slot(free, x, y, nb)


@njit(cache=True)
def _expand_words(
    words: np.ndarray,
    codes: np.ndarray,
    w_start: int,
    w_end: int,
    values: np.ndarray,
    depth: int,
    k: int,
    nb: int,
    n_slot: int,
    weights: np.ndarray,
    midx: np.ndarray,
    near: np.ndarray,
    movable: int,
    cols: int,
    not_first: int,
    not_last: int,
    deltas: np.ndarray,
) -> int:
    """Expand the current layer's states in ``words[w_start:w_end]`` (int64 view of ``codes``); the new count.

    A state is ``placement_rank * n_slot + slot``, its code bits ``2 * (state & 31)`` of word
    ``state >> 5``; new states get code NEXT, and placements not yet valued get ``depth + 1``
    (breadth-first, so that is their least cost).
    """
    cells = np.empty(k, dtype=np.int64)
    parts2 = np.empty(64, dtype=np.int64)
    found = 0
    for w in range(w_start, w_end):
        word = words[w]
        # One bit per state whose code is CUR (binary 10): high bit of the pair set, low bit clear.
        word = (word >> 1) & ~word & 0x5555555555555555
        while word:
            low = word & -word
            word ^= low
            state = w * 32 + (_low_index(low) >> 1)
            prank = state // n_slot
            slot = state - prank * n_slot
            used = 0
            rest = prank
            for i in range(k):
                digit = rest // weights[i]
                rest -= digit * weights[i]
                bit = _select(movable & ~used, digit)
                used |= bit
                cells[i] = bit
            free = movable & ~used
            if nb == 1:
                r1 = _flood(free, _select(free, slot), cols, not_first, not_last)
                r2 = r1
            else:
                fy = 1
                while (fy + 1) * fy // 2 <= slot:
                    fy += 1
                b2 = _select(free, fy)
                r1 = _flood(free, _select(free, slot - fy * (fy - 1) // 2), cols, not_first, not_last)
                r2 = r1 if r1 & b2 else _flood(free, b2, cols, not_first, not_last)
            open_cells = r1 | r2
            for i in range(k):
                c = cells[i]
                targets = near[_low_index(c)] & open_cells
                while targets:
                    t = targets & -targets
                    targets ^= t
                    free2 = free ^ t ^ c
                    # The placement with tile i on t: digits count earlier tiles on smaller cells.
                    new_rank = 0
                    before = 0
                    for j in range(k):
                        cj = t if j == i else cells[j]
                        new_rank += (midx[_low_index(cj)] - _popcount(before & (cj - 1))) * weights[j]
                        before |= cj
                    base = new_rank * n_slot
                    rc = _flood(free2, c, cols, not_first, not_last)
                    if nb == 1:
                        found += _visit(
                            base + _slot(free2, rc, rc, 1), new_rank, codes, values, depth, deltas
                        )
                        continue
                    n2 = _regions(free2, cols, not_first, not_last, parts2)
                    region = r1 if t & r1 else r2
                    if r1 != r2:
                        # One blank moved to c; the other stays in its region, which c may have joined.
                        other = r2 if region == r1 else r1
                        y = rc if other & rc else other
                        found += _visit(base + _slot(free2, rc, y, 2), new_rank, codes, values, depth, deltas)
                        continue
                    # Both blanks were in the region: the second may be in any part of region - t.
                    left = region & ~t
                    for r in range(n2):
                        if parts2[r] & left:
                            found += _visit(
                                base + _slot(free2, rc, parts2[r], 2),
                                new_rank,
                                codes,
                                values,
                                depth,
                                deltas,
                            )
    return found


@njit(cache=True, inline="always")
def _visit(
    state: int, prank: int, codes: np.ndarray, values: np.ndarray, depth: int, deltas: np.ndarray
) -> int:
    """Put ``state`` in the next layer if it is in none of the three; 1 if it was new, else 0.

    ``values`` gets the least cost per placement. A region-keyed build also fills ``deltas`` (a nibble
    per state, non-empty): the state's own cost minus its placement's least cost, capped at 14 (which
    keeps the sum a lower bound); 15 marks states never reached.
    """
    byte = state >> 2
    shift = 2 * (state & 3)
    if (codes[byte] >> shift) & 3:
        return 0
    codes[byte] |= np.uint8(NEXT << shift)
    if values[prank] == UNSET:
        values[prank] = depth + 1
    if deltas.shape[0]:
        nibble = 4 * (state & 1)
        delta = min(depth + 1 - values[prank], 14)
        deltas[state >> 1] = (deltas[state >> 1] & ~np.uint8(15 << nibble)) | np.uint8(delta << nibble)
    return 1


@dataclass(frozen=True)
class _Masks:
    """Bit masks and tables of a goal board for the builder kernel."""

    movable: int
    cols: int
    not_first: int
    not_last: int
    midx: np.ndarray  # board cell -> movable index
    near: np.ndarray  # board cell -> mask of movable neighbours

    @classmethod
    def of(cls, goal: Board) -> _Masks:
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
        return [int(p) for p in out[: _regions(free, self.cols, self.not_first, self.not_last, out)]]

    def start_slot(self, home: Sequence[int], blanks: Sequence[int]) -> int:
        """The goal's blank slot: its blanks moved to the smallest cells of their regions."""
        free = self.movable & ~sum(1 << c for c in home)
        regions = [next(p for p in self.parts(free) if p >> b & 1) for b in blanks]
        return int(_slot_py(free, regions[0], regions[-1], len(blanks)))


#: Words of the code array per kernel call, so progress can be reported and Ctrl-C works.
CHUNK_WORDS: Final = 1 << 22

#: Each code byte with its four states moved on one layer: previous -> old, current -> previous, next -> current.
_SHIFT_CODES: Final = np.array(
    [sum(((0, 0, PREV, CUR)[(byte >> (2 * i)) & 3]) << (2 * i) for i in range(4)) for byte in range(256)],
    dtype=np.uint8,
)


@njit(cache=True)
def _next_layer(codes: np.ndarray, table: np.ndarray) -> None:
    """Rewrite every code byte through ``table`` in place (no temporary the size of the array)."""
    for i in range(codes.shape[0]):
        codes[i] = table[codes[i]]


def build_values(
    goal: Board,
    pattern: Sequence[int],
    *,
    progress: Callable[[int, int], None] | None = None,
    deltas: np.ndarray | None = None,
) -> tuple[np.ndarray, int]:
    """The byte table of ``pattern`` (255 where a placement is unreachable) and the states searched.

    ``progress(depth, states so far)`` is called after each breadth-first layer. ``deltas``, if given
    (``ceil(states / 2)`` bytes of 0xFF), receives each state's cost above its placement's least cost
    (see :func:`_visit`): a state is ``placement_rank * C(M - k, blanks) + slot``.
    """
    problem = pattern_problem(goal, pattern)
    if problem:
        raise PdbError(problem)
    blanks = len(goal.blanks)
    if blanks > MAX_BLANKS:
        raise PdbError(f"the PDB builder handles at most {MAX_BLANKS} blanks; the goal has {blanks}")
    if len(goal.cells) > 62:
        raise PdbError(f"the PDB builder handles boards of at most 62 cells; this one has {len(goal.cells)}")
    geo, masks = Geometry.of(goal), _Masks.of(goal)
    m, k = geo.size, len(pattern)
    home = goal.positions()
    start_pos = np.array([geo.index[home[t]] for t in pattern], dtype=np.int64)
    weights = placement_weights(m, k)
    n_slot = comb(m - k, blanks)
    values = np.full(perm(m, k), UNSET, dtype=np.uint8)
    n_words = (perm(m, k) * n_slot + 31) // 32
    if deltas is None:
        deltas = np.zeros(0, dtype=np.uint8)
    elif deltas.shape[0] != (perm(m, k) * n_slot + 1) // 2:
        raise PdbError(f"deltas must hold {(perm(m, k) * n_slot + 1) // 2} bytes, not {deltas.shape[0]}")
    codes = np.zeros(8 * n_words, dtype=np.uint8)
    words = codes.view(np.int64)
    prank = rank_placement(start_pos, k, weights)
    start = prank * n_slot + masks.start_slot([home[t] for t in pattern], goal.blanks)
    codes[start >> 2] = CUR << (2 * (start & 3))
    values[prank] = 0
    if deltas.shape[0]:
        deltas[start >> 1] &= ~np.uint8(15 << (4 * (start & 1)))
    total, depth, found = 1, 0, 1
    while found:
        found = 0
        for w in range(0, n_words, CHUNK_WORDS):
            found += _expand_words(
                words, codes, w, min(n_words, w + CHUNK_WORDS), values, depth, k, blanks, n_slot, weights,
                masks.midx, masks.near, masks.movable, masks.cols, masks.not_first, masks.not_last,
                deltas,
            )  # fmt: skip
        _next_layer(codes, _SHIFT_CODES)
        total += found
        depth += 1
        if progress is not None and found:
            progress(depth, total)
    return values, total


def exact_costs_ref(goal: Board, pattern: Sequence[int]) -> dict[tuple[tuple[int, ...], frozenset[int]], int]:
    """Readable oracle: 0-1 BFS over (pattern cells, blank set) with exact blank positions.

    Keys are the pattern tiles' board cells in pattern order and the blank cells; only for tiny boards.
    """
    adjacent = movable_neighbours(goal)
    home = goal.positions()
    start = (tuple(home[t] for t in pattern), frozenset(goal.blanks))
    dist = {start: 0}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        cells, blanks = state
        d = dist[state]
        for blank in blanks:
            for source in adjacent[blank]:
                if source in blanks:
                    continue
                moved = cells.index(source) if source in cells else -1
                new_cells = cells if moved < 0 else (*cells[:moved], blank, *cells[moved + 1 :])
                nxt = (new_cells, (blanks - {blank}) | {source})
                cost = 0 if moved < 0 else 1
                if nxt not in dist or dist[nxt] > d + cost:
                    dist[nxt] = d + cost
                    queue.appendleft(nxt) if cost == 0 else queue.append(nxt)
    return dist


def build_values_ref(goal: Board, pattern: Sequence[int]) -> dict[tuple[int, ...], int]:
    """Readable oracle of :func:`build_values`: the least exact cost per placement of the pattern."""
    best: dict[tuple[int, ...], int] = {}
    for (cells, _), d in exact_costs_ref(goal, pattern).items():
        best[cells] = min(best.get(cells, d), d)
    return best


# ---------------------------------------------------------------------------------------------
# Files


@dataclass(frozen=True)
class PatternDatabase:
    """One loaded table: the goal, the pattern and its values.

    Storage ``u8`` (a byte per placement), ``u4`` (packed nibbles) or ``r4``, keyed by the placement
    *and* the regions of the blanks: a byte per placement (the least cost over the blanks' regions)
    followed by a nibble per state with the cost above it (:func:`build_values`).
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

        >>> goal = goal_board(2, 3)
        >>> build_pdb(goal, (1, 2)).lookup(goal)
        0
        """
        geo = Geometry.of(self.goal)
        where = board.positions()
        rank = rank_placement_ref([int(geo.index[where[t]]) for t in self.pattern], geo.size)
        if not self.regions:
            return self.value(rank)
        masks = _Masks.of(self.goal)
        free = masks.movable & ~sum(1 << where[t] for t in self.pattern)
        parts = masks.parts(free)
        regions = [next(p for p in parts if p >> b & 1) for b in board.blanks]
        return self.value(rank, int(_slot_py(free, regions[0], regions[-1], len(board.blanks))))

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


def build_pdb(
    goal: Board,
    pattern: Sequence[int],
    storage: str = "auto",
    *,
    progress: Callable[[int, int], None] | None = None,
) -> PatternDatabase:
    """Build the table of ``pattern`` in memory; ``auto`` storage packs 4 bits when values fit.

    ``progress(depth, states so far)`` is called after each breadth-first layer.

    >>> build_pdb(goal_board(2, 3), (4, 5)).storage
    'u4'
    """
    started = time.perf_counter()
    if storage not in ("u4", "u8", "r4", "auto"):
        raise PdbError(f"storage must be 'u4', 'u8', 'r4' or 'auto', not {storage!r}")
    deltas = None
    if storage == "r4":
        size = len(goal.cells) - len(goal.walls)
        states = perm(size, len(pattern)) * comb(size - len(pattern), len(goal.blanks))
        deltas = np.full((states + 1) // 2, 255, dtype=np.uint8)
    values, states = build_values(goal, pattern, progress=progress, deltas=deltas)
    unreachable = int(np.count_nonzero(values == UNSET))
    top = int(values.max()) if not unreachable else int(values[values != UNSET].max())
    if storage == "auto":
        storage = "u4" if top < 15 and not unreachable else "u8"
    if storage == "u4" and (top >= 15 or unreachable):
        raise PdbError(f"values up to {top} (or unreachable placements) do not fit 4 bits; use 'u8'")
    if deltas is not None:
        table = np.concatenate([values, deltas])
        del deltas
    else:
        table = pack_nibbles(values) if storage == "u4" else values
    header: dict[str, Any] = {
        "max_value": top,
        "states": states,
        "unreachable": unreachable,
        "build_seconds": round(time.perf_counter() - started, 3),
    }
    return PatternDatabase(goal, tuple(pattern), storage, table, None, header)


def save_pdb(pdb: PatternDatabase, path: str | os.PathLike[str]) -> Path:
    """Write ``pdb`` atomically (a temporary file, then a rename) with its header and checksum."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = np.ascontiguousarray(pdb.table)
    header = {
        "format_version": FORMAT_VERSION,
        "rows": pdb.goal.rows,
        "cols": pdb.goal.cols,
        "goal": list(pdb.goal.cells),
        "pattern": list(pdb.pattern),
        "storage": pdb.storage,
        "entries": pdb.entries,
        "data_bytes": int(data.nbytes),
        "crc32": zlib.crc32(data.data),
        **{
            k: v
            for k, v in pdb.header.items()
            if k in ("max_value", "states", "unreachable", "build_seconds")
        },
    }
    text = json.dumps(header, sort_keys=True).encode()
    prefix = len(MAGIC) + 4 + len(text)
    pad = -prefix % ALIGN
    temporary = path.with_name(path.name + f".tmp{os.getpid()}")
    with open(temporary, "wb") as out:
        out.write(MAGIC + len(text).to_bytes(4, "little") + text + b"\n" * pad)
        out.write(data.data)
    os.replace(temporary, path)
    return path


def read_header(path: str | os.PathLike[str]) -> tuple[dict[str, Any], int]:
    """The JSON header of a PDB file and the offset of its data; refuses files that are not ours."""
    try:
        with open(path, "rb") as f:
            head = f.read(len(MAGIC) + 4)
            if len(head) < len(MAGIC) + 4 or head[: len(MAGIC)] != MAGIC:
                raise PdbFileError(path, "not a gridarena PDB file (bad magic number)")
            size = int.from_bytes(head[len(MAGIC) :], "little")
            text = f.read(size)
    except OSError as error:
        raise PdbFileError(path, f"cannot read: {error.strerror}") from error
    if len(text) != size:
        raise PdbFileError(path, "truncated inside the header")
    try:
        header = json.loads(text)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise PdbFileError(path, f"corrupted header: {error}") from error
    if not isinstance(header, dict):
        raise PdbFileError(path, "corrupted header: not a JSON object")
    prefix = len(MAGIC) + 4 + size
    return header, prefix + (-prefix % ALIGN)


_REQUIRED: Final = (
    "format_version",
    "rows",
    "cols",
    "goal",
    "pattern",
    "storage",
    "entries",
    "data_bytes",
    "crc32",
)


def load_pdb(
    path: str | os.PathLike[str],
    *,
    goal: Board | None = None,
    pattern: Sequence[int] | None = None,
    verify: bool = True,
) -> PatternDatabase:
    """Memory-map a PDB file; refuse it if truncated, corrupted (``verify``: the CRC-32) or mismatched.

    ``goal`` and ``pattern``, when given, must equal the file's; the message names the field.
    """
    header, offset = read_header(path)
    missing = [k for k in _REQUIRED if k not in header]
    if missing:
        raise PdbFileError(path, f"header lacks the fields {missing}")
    if header["format_version"] != FORMAT_VERSION:
        raise PdbFileError(
            path, f"format version {header['format_version']}, this gridarena reads {FORMAT_VERSION}"
        )
    try:
        file_goal = Board(int(header["rows"]), int(header["cols"]), tuple(int(v) for v in header["goal"]))
    except (GridArenaError, TypeError, ValueError) as error:
        raise PdbFileError(path, f"header field 'goal': {error}") from error
    _expect(path, "goal", list(file_goal.cells), None if goal is None else list(goal.cells))
    _expect(
        path,
        "rows x cols",
        (file_goal.rows, file_goal.cols),
        None if goal is None else (goal.rows, goal.cols),
    )
    _expect(path, "pattern", list(header["pattern"]), None if pattern is None else list(pattern))
    storage, data_bytes = header["storage"], int(header["data_bytes"])
    size, k = len(file_goal.cells) - len(file_goal.walls), len(header["pattern"])
    entries = perm(size, k)
    states = entries * comb(size - k, len(file_goal.blanks))
    expected = {"u8": entries, "u4": (entries + 1) // 2, "r4": entries + (states + 1) // 2}.get(str(storage))
    if expected is None or header["entries"] != entries or data_bytes != expected:
        raise PdbFileError(
            path, f"header fields 'storage'/'entries'/'data_bytes' disagree ({storage}, {entries})"
        )
    available = os.path.getsize(path) - offset
    if available != data_bytes:
        kind = "truncated" if available < data_bytes else "has trailing bytes"
        raise PdbFileError(
            path, f"{kind}: expected {data_bytes} data bytes after the header, found {available}"
        )
    table = np.memmap(path, dtype=np.uint8, mode="r", offset=offset, shape=(data_bytes,))
    if verify and zlib.crc32(table.data) != header["crc32"]:
        raise PdbFileError(path, "checksum mismatch: the data is corrupted; rebuild the database")
    return PatternDatabase(file_goal, tuple(header["pattern"]), str(storage), table, Path(path), header)


def _expect(path: str | os.PathLike[str], name: str, found: object, wanted: object) -> None:
    if wanted is not None and found != wanted:
        raise PdbFileError(path, f"built for {name} {found}, but {wanted} was asked for")


# ---------------------------------------------------------------------------------------------
# Partitions, cache and PDB sets


def default_cache_dir() -> Path:
    """Where PDB files go: ``$GRIDARENA_CACHE`` (its ``pdb`` folder) or ``~/.cache/gridarena/pdb``."""
    root = os.environ.get("GRIDARENA_CACHE")
    return Path(root) / "pdb" if root else Path.home() / ".cache" / "gridarena" / "pdb"


def pdb_filename(goal: Board, pattern: Sequence[int], regions: bool = False) -> str:
    """A file name fixed by the goal, the pattern and the key, so builds are found again.

    >>> pdb_filename(goal_board(2, 3), (1, 2)), pdb_filename(goal_board(2, 3), (1, 2), regions=True)
    ('2x3-eaf9f2c8-1_2.pdb', '2x3-eaf9f2c8-1_2-r.pdb')
    """
    digest = zlib.crc32(json.dumps(list(goal.cells)).encode())
    return f"{goal.rows}x{goal.cols}-{digest:08x}-{'_'.join(map(str, pattern))}{'-r' if regions else ''}.pdb"


def split_set_name(name: str) -> tuple[str, bool]:
    """A set name and whether its tables are keyed by the blanks' regions too (a trailing ``r``).

    >>> split_set_name("6-6-3r"), split_set_name("7-8")
    (('6-6-3', True), ('7-8', False))
    """
    return (name[:-1], True) if name.endswith("r") else (name, False)


_BLANK_LAST_4X4: Final = {
    "5-5-5": ((1, 2, 5, 6, 9), (3, 4, 7, 8, 12), (10, 11, 13, 14, 15)),
    "6-6-3": ((1, 5, 6, 9, 10, 13), (7, 8, 11, 12, 14, 15), (2, 3, 4)),
    "7-8": ((9, 10, 11, 12, 13, 14, 15), (1, 2, 3, 4, 5, 6, 7, 8)),
}
_HOMEWORK: Final = {
    "5-5-5": ((1, 2, 3, 6, 7), (4, 5, 10, 14, 15), (8, 12, 16, 17, 18)),
    "6-6-3": ((1, 2, 3, 6, 7, 8), (12, 14, 15, 16, 17, 18), (4, 5, 10)),
    "7-8": ((1, 2, 3, 6, 7, 8, 12), (4, 5, 10, 14, 15, 16, 17, 18)),
    "7-7-1": ((1, 2, 6, 7, 12, 16, 17), (3, 4, 5, 8, 10, 14, 15), (18,)),
    "3-4-4-4": ((1, 2, 6, 7), (3, 4, 8), (5, 10, 14, 15), (12, 16, 17, 18)),
    "2-2-2-2-2-2-1-1-1": ((1, 6), (2, 3), (4, 5), (7, 8), (10, 15), (16, 17), (12,), (14,), (18,)),
}
_BLANK_LAST_5X5: Final = {
    "6-6-6-6": (
        (1, 2, 6, 7, 11, 12),
        (3, 4, 5, 8, 9, 10),
        (13, 14, 15, 18, 19, 20),
        (16, 17, 21, 22, 23, 24),
    ),
}


def partition(goal: Board, name: str) -> tuple[tuple[int, ...], ...]:
    """Disjoint patterns named by their sizes, e.g. ``"7-8"`` on the 15-puzzle.

    Named layouts exist for the 4x4 and 5x5 goals (either blank convention) and the homework board;
    elsewhere the tiles are cut in row-major order of their home cells into groups of those sizes.

    >>> partition(goal_board(2, 3), "3-2")
    ((1, 2, 3), (4, 5))
    >>> partition(goal_board(4, 4, blank_first=True), "7-8")[0]
    (1, 2, 3, 4, 5, 6, 7)
    """
    named = _named_partition(goal, name)
    if named is not None:
        return named
    try:
        sizes = [int(s) for s in name.split("-")]
    except ValueError:
        raise PdbError(f"partition {name!r} is not sizes joined by '-', such as '7-8'") from None
    tiles = sorted(goal.tiles, key=goal.positions().__getitem__)
    if sum(sizes) > len(tiles) or min(sizes) < 1:
        raise PdbError(f"partition {name!r} needs {sum(sizes)} tiles; the board has {len(tiles)}")
    groups, start = [], 0
    for size in sizes:
        groups.append(tuple(sorted(tiles[start : start + size])))
        start += size
    return tuple(groups)


def _named_partition(goal: Board, name: str) -> tuple[tuple[int, ...], ...] | None:
    if goal == homework_goal():
        return _HOMEWORK.get(name)
    for side, table in ((4, _BLANK_LAST_4X4), (5, _BLANK_LAST_5X5)):
        n = side * side
        if name not in table:
            continue
        if goal == goal_board(side, side):
            return table[name]
        if goal == goal_board(side, side, blank_first=True):
            # Blank-first is blank-last turned 180 degrees with tile v renamed n - v.
            return tuple(tuple(sorted(n - t for t in group)) for group in table[name])
    return None


def build_set(
    goal: Board,
    patterns: Sequence[Sequence[int]],
    directory: str | os.PathLike[str] | None = None,
    *,
    force: bool = False,
    paths: Sequence[str | os.PathLike[str]] | None = None,
    storage: str = "auto",
) -> list[Path]:
    """Build (or reuse, unless ``force``) one file per pattern in ``directory``; their paths.

    ``storage="r4"`` builds region-keyed tables (file names end in ``-r``).
    """
    folder = Path(directory) if directory is not None else default_cache_dir()
    out = []
    for number, pattern in enumerate(patterns):
        name = pdb_filename(goal, pattern, regions=storage == "r4")
        target = folder / (paths[number] if paths is not None else name)
        if force or not _usable(target, goal, pattern):
            save_pdb(build_pdb(goal, pattern, storage), target)
        out.append(target)
    return out


def _usable(path: Path, goal: Board, pattern: Sequence[int]) -> bool:
    if not path.exists():
        return False
    try:
        load_pdb(path, goal=goal, pattern=pattern)
    except PdbFileError:
        return False
    return True


def load_set(
    goal: Board,
    patterns: Sequence[Sequence[int]],
    directory: str | os.PathLike[str] | None = None,
    *,
    regions: bool = False,
) -> list[PatternDatabase]:
    """Load the files of a partition from ``directory`` (default: the cache), checked against it."""
    folder = Path(directory) if directory is not None else default_cache_dir()
    found = []
    for pattern in patterns:
        path = folder / pdb_filename(goal, pattern, regions)
        if not path.exists():
            raise PdbError(
                f"{path}: no database for pattern {list(pattern)}; build it with 'gridarena puzzle pdb build'"
            )
        found.append(load_pdb(path, goal=goal, pattern=pattern))
    return found
