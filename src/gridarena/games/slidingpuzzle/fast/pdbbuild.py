"""The numba PDB builder: one breadth-first search backwards from the goal, and its readable oracle.

Because the tiles outside the pattern move for free, a blank can go anywhere in its region (the
connected set of cells not holding the pattern's tiles), so a search state keeps only how many blanks
each region holds, with the blanks put on the region's smallest cells: the zero-cost moves disappear
and the 0-1 search becomes a plain breadth-first search over these canonical states. States are
integers ``placement_rank * C(M - k, b) + blank_slot``, each with a 2-bit code of a frontier search,
so no Python object exists per state. Up to two blanks, on boards of up to 62 cells.
"""

from __future__ import annotations

import itertools
import math
from collections import deque
from collections.abc import Callable, Sequence
from math import comb, perm
from typing import Final

import numpy as np
from numba import njit

from gridarena.core.files import size_text
from gridarena.games.slidingpuzzle.board import Board, movable_neighbours
from gridarena.games.slidingpuzzle.fast.indexing import (
    BoardMasks,
    Geometry,
    bit_count,
    blank_slot,
    flood,
    free_regions,
    low_bit_index,
    placement_weights,
    rank_placement,
)
from gridarena.games.slidingpuzzle.formats import PdbError, pattern_problem

UNSET: Final = 255
"""The value byte of a placement the search has not reached (yet, or ever)."""
MAX_BLANKS: Final = 2

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
            state = w * 32 + (low_bit_index(low) >> 1)
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
                r1 = flood(free, _select(free, slot), cols, not_first, not_last)
                r2 = r1
            else:
                fy = 1
                while (fy + 1) * fy // 2 <= slot:
                    fy += 1
                b2 = _select(free, fy)
                r1 = flood(free, _select(free, slot - fy * (fy - 1) // 2), cols, not_first, not_last)
                r2 = r1 if r1 & b2 else flood(free, b2, cols, not_first, not_last)
            open_cells = r1 | r2
            for i in range(k):
                c = cells[i]
                targets = near[low_bit_index(c)] & open_cells
                while targets:
                    t = targets & -targets
                    targets ^= t
                    free2 = free ^ t ^ c
                    # The placement with tile i on t: digits count earlier tiles on smaller cells.
                    new_rank = 0
                    before = 0
                    for j in range(k):
                        cj = t if j == i else cells[j]
                        new_rank += (midx[low_bit_index(cj)] - bit_count(before & (cj - 1))) * weights[j]
                        before |= cj
                    base = new_rank * n_slot
                    rc = flood(free2, c, cols, not_first, not_last)
                    if nb == 1:
                        found += _visit(
                            base + blank_slot(free2, rc, rc, 1), new_rank, codes, values, depth, deltas
                        )
                        continue
                    n2 = free_regions(free2, cols, not_first, not_last, parts2)
                    region = r1 if t & r1 else r2
                    if r1 != r2:
                        # One blank moved to c; the other stays in its region, which c may have joined.
                        other = r2 if region == r1 else r1
                        y = rc if other & rc else other
                        found += _visit(
                            base + blank_slot(free2, rc, y, 2), new_rank, codes, values, depth, deltas
                        )
                        continue
                    # Both blanks were in the region: the second may be in any part of region - t.
                    left = region & ~t
                    for r in range(n2):
                        if parts2[r] & left:
                            found += _visit(
                                base + blank_slot(free2, rc, parts2[r], 2),
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


MAX_BUILD_BYTES: Final = 16 << 30
"""Memory a table's build may take (the homework's 8-tile pattern of 7-8 takes 9.1 GiB, a 4x4
pattern of 8 tiles 1.5 GiB); a larger one is refused before anything is allocated."""


def build_bytes(goal: Board, pattern: Sequence[int], storage: str = "auto") -> int:
    """Bytes the build of ``pattern``'s table allocates: a byte per placement, two bits per state
    (the breadth-first layers), and with ``r4`` storage four more bits per state.

    >>> from gridarena.games.slidingpuzzle.board import goal_board
    >>> build_bytes(goal_board(4, 4), range(1, 9)) >> 20   # 7-8's larger half: about 1.5 GiB (in MiB)
    1484
    """
    size, k = len(goal.cells) - len(goal.walls), len(pattern)
    placements = perm(size, k)
    states = placements * comb(max(0, size - k), len(goal.blanks))
    return placements + (states + 3) // 4 + ((states + 1) // 2 if storage == "r4" else 0)


def check_build_size(goal: Board, pattern: Sequence[int], storage: str = "auto") -> None:
    """Refuse a pattern whose build needs more than :data:`MAX_BUILD_BYTES`, before any allocation."""
    need = build_bytes(goal, pattern, storage)
    if need > MAX_BUILD_BYTES:
        raise PdbError(
            f"a pattern of {len(pattern)} tiles on this {goal.rows}x{goal.cols} board needs "
            f"{size_text(need)} to build, more than the {size_text(MAX_BUILD_BYTES)} allowed: "
            "use smaller patterns (e.g. 7-8 on 4x4, 6-6-6-6 on 5x5)"
        )


def build_values(
    goal: Board,
    pattern: Sequence[int],
    *,
    progress: Callable[[int, int], None] | None = None,
    deltas: np.ndarray | None = None,
) -> tuple[np.ndarray, int]:
    """The byte table of ``pattern`` (255 where a placement is unreachable) and the states searched.

    ``progress(depth, states so far)`` is called after each chunk of a breadth-first layer that found new
    states (a chunk is 2^27 states of the search space, about 0.1-0.2 s of work on the largest tables).
    ``deltas``, if given (``ceil(states / 2)`` bytes of 0xFF), receives each state's cost above its
    placement's least cost (see :func:`_visit`): a state is ``placement_rank * C(M - k, blanks) + slot``.
    """
    problem = pattern_problem(goal, pattern)
    if problem:
        raise PdbError(problem)
    blanks = len(goal.blanks)
    if blanks > MAX_BLANKS:
        raise PdbError(f"the PDB builder handles at most {MAX_BLANKS} blanks; the goal has {blanks}")
    if len(goal.cells) > 62:
        raise PdbError(f"the PDB builder handles boards of at most 62 cells; this one has {len(goal.cells)}")
    check_build_size(goal, pattern, "r4" if deltas is not None else "auto")
    geo, masks = Geometry.of(goal), BoardMasks.of(goal)
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
    start = prank * n_slot + masks.slot([home[t] for t in pattern], goal.blanks)
    codes[start >> 2] = CUR << (2 * (start & 3))
    values[prank] = 0
    if deltas.shape[0]:
        deltas[start >> 1] &= ~np.uint8(15 << (4 * (start & 1)))
    total, depth, found = 1, 0, 1
    while found:
        found = told = 0
        for w in range(0, n_words, CHUNK_WORDS):
            found += _expand_words(
                words, codes, w, min(n_words, w + CHUNK_WORDS), values, depth, k, blanks, n_slot, weights,
                masks.midx, masks.near, masks.movable, masks.cols, masks.not_first, masks.not_last,
                deltas,
            )  # fmt: skip
            if progress is not None and found > told:
                told = found
                progress(depth + 1, total + found)
        _next_layer(codes, _SHIFT_CODES)
        total += found
        depth += 1
    return values, total


def search_states(goal: Board, size: int) -> int:
    """The search states of a build for a pattern of ``size`` tiles: the work a progress bar counts.

    A state is a placement of the tiles and an arrangement of the blanks among the regions of the free
    cells; which regions there are depends only on the cells the tiles take, so this counts per set of
    cells. On the homework board and the 15-puzzle every state is reached (the count is the build's own);
    where some are not, it is an upper bound. Sets of cells too many to count give the plain bound.

    >>> from gridarena.games.slidingpuzzle.board import homework_goal
    >>> search_states(homework_goal(), 6)
    59489280
    """
    geo, masks = Geometry.of(goal), BoardMasks.of(goal)
    m, blanks = geo.size, len(goal.blanks)
    if not 0 <= size <= m or blanks > MAX_BLANKS or len(goal.cells) > 62:
        return 0
    if comb(m, size) > _MAX_COUNTED_SETS:
        return perm(m, size) * comb(m - size, blanks)
    per_set = 0
    for cells in itertools.combinations([int(c) for c in geo.cells], size):
        regions = [bin(r).count("1") for r in masks.parts(masks.movable & ~sum(1 << c for c in cells))]
        per_set += (1, len(regions), comb(len(regions), 2) + sum(r >= 2 for r in regions))[blanks]
    return per_set * math.factorial(size)


#: :func:`search_states` counts the sets of cells one by one (about 5 microseconds each: 0.05 s for a
#: 7-tile pattern of the homework board, 0.7 s for a 6-tile one of the 5x5 board) up to this many.
_MAX_COUNTED_SETS: Final = 1 << 18


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
