"""The exact endgame of the fast engine: separation, longest knight paths, and who wins.

Once the pieces can no longer reach a common cell, each side's longest knight path through its own
region decides the game: the side to move wins iff its path is longer.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gridarena.games.isolation.fast.control import (
    ENDGAME_CALLS,
    ENDGAME_SOLVED,
    PATH_BUDGET,
    PATH_MAX,
    PATH_STEPS,
)
from gridarena.games.isolation.fast.movegen import MAX_CELLS, ONE, ZERO, close_cell, is_open, kernel, popcount
from gridarena.games.isolation.rules import State, knight_targets


@kernel
def _lowest(x: np.uint64) -> int:
    """Index of the lowest set bit of a non-zero word."""
    return popcount((x & (~x + ONE)) - ONE)


@kernel
def _ring(flo: np.uint64, fhi: np.uint64, masks: np.ndarray) -> tuple[np.uint64, np.uint64]:
    """Union of the knight masks of the cells in ``(flo, fhi)``."""
    rlo, rhi = ZERO, ZERO
    while flo != ZERO:
        c = _lowest(flo)
        flo &= flo - ONE
        rlo |= masks[c, 0]
        rhi |= masks[c, 1]
    while fhi != ZERO:
        c = _lowest(fhi) + 64
        fhi &= fhi - ONE
        rlo |= masks[c, 0]
        rhi |= masks[c, 1]
    return rlo, rhi


@kernel
def _flood(
    lo: np.uint64,
    hi: np.uint64,
    masks: np.ndarray,
    start: int,
    stop_lo: np.uint64,
    stop_hi: np.uint64,
) -> tuple[np.uint64, np.uint64, bool]:
    """Open cells reachable from ``start`` over open cells, as two words; stops early (True) at a stop cell.

    Ring by ring on the words: each ring is the OR of its cells' knight masks, less what is known.
    A first version kept a breadth-first queue and tested each cell's eight targets one by one;
    with the rings, one path bound per endgame and solved endgames kept in the table, the search
    went from 7.6-8.0 to 9.3-9.5 million nodes per CPU second at plies 12-14 (docs/isolation.md).
    """
    flo, fhi = masks[start, 0] & lo, masks[start, 1] & hi
    rlo, rhi = flo, fhi
    while True:
        if (flo & stop_lo) != ZERO or (fhi & stop_hi) != ZERO:
            return rlo, rhi, True
        if flo == ZERO and fhi == ZERO:
            return rlo, rhi, False
        nlo, nhi = _ring(flo, fhi, masks)
        flo, fhi = nlo & lo & ~rlo, nhi & hi & ~rhi
        rlo, rhi = rlo | flo, rhi | fhi


@kernel
def pieces_separated(
    lo: np.uint64,
    hi: np.uint64,
    masks: np.ndarray,
    me: int,
    other: int,
) -> bool:
    """Whether both pieces are placed and no open cell is reachable by both (the search's kernel)."""
    # The regions are unions of open components; they meet iff mine reaches one of the other's targets.
    if me < 0 or other < 0:
        return False
    return not _flood(lo, hi, masks, me, masks[other, 0] & lo, masks[other, 1] & hi)[2]


@njit(cache=True)
def separated(lo: np.uint64, hi: np.uint64, masks: np.ndarray, loc0: int, loc1: int) -> bool:
    """:func:`pieces_separated` for callers in Python (which need numba's reference counting)."""
    return pieces_separated(lo, hi, masks, loc0, loc1)


@kernel
def _path_bound(lo: np.uint64, hi: np.uint64, masks: np.ndarray, dark: np.ndarray, loc: int) -> int:
    """An upper bound on the longest path from ``loc``: knight moves alternate the square colour."""
    rlo, rhi, _ = _flood(lo, hi, masks, loc, ZERO, ZERO)
    on_dark = popcount(rlo & dark[0]) + popcount(rhi & dark[1])
    on_light = popcount(rlo) + popcount(rhi) - on_dark
    same, other = (on_dark, on_light) if is_open(dark[0], dark[1], loc) else (on_light, on_dark)
    return min(2 * other, 2 * same + 1)


@kernel
def _longest(
    lo: np.uint64,
    hi: np.uint64,
    loc: int,
    bound: int,
    nbr: np.ndarray,
    budget: int,
    path: np.ndarray,
    path_words: np.ndarray,
) -> tuple[int, int]:
    """(Longest path from ``loc`` over open cells, steps taken), depth first; stops at ``bound``.

    An explicit stack instead of recursion: level ``d`` keeps its cell and next neighbour index in
    ``path[:, d]`` and its board in ``path_words[:, d]``. The length is -1 once ``budget`` steps are spent.
    """
    path[0, 0], path[1, 0], path_words[0, 0], path_words[1, 0] = loc, 0, lo, hi
    top, best, steps = 0, 0, 0
    while top >= 0:
        steps += 1
        if steps > budget:
            return -1, steps
        i, c = path[1, top], path[0, top]
        if i >= 8 or nbr[c, i] < 0:
            top -= 1
            continue
        path[1, top] = i + 1
        t = nbr[c, i]
        if is_open(path_words[0, top], path_words[1, top], t):
            nlo, nhi = close_cell(path_words[0, top], path_words[1, top], t)
            top += 1
            path[0, top], path[1, top], path_words[0, top], path_words[1, top] = t, 0, nlo, nhi
            if top > best:
                best = top
                if best >= bound:
                    return best, steps
    return best, steps


@njit(cache=True)
def longest_path(
    lo: np.uint64,
    hi: np.uint64,
    nbr: np.ndarray,
    masks: np.ndarray,
    dark: np.ndarray,
    loc: int,
    budget: int,
    cap: int,
) -> int:
    """Longest knight path from ``loc`` over open cells, searched up to length ``cap``; -1 if ``budget`` runs out.

    The answer is exact when below ``cap``; a path of length ``cap`` ends the search at once.
    """
    path = np.empty((2, MAX_CELLS + 1), dtype=np.int64)
    path_words = np.empty((2, MAX_CELLS + 1), dtype=np.uint64)
    bound = min(_path_bound(lo, hi, masks, dark, loc), cap)
    return _longest(lo, hi, loc, bound, nbr, budget, path, path_words)[0]


def longest_path_ref(state: State, player: int) -> int:
    """Readable twin of :func:`longest_path`: exhaustive depth-first search over the reference state."""
    loc = state.locs[player]
    assert loc is not None
    best = 0
    for t in knight_targets(loc, state.width, state.height):
        if state.is_open(t):
            locs = (t, state.locs[1]) if player == 0 else (state.locs[0], t)
            child = State(state.width, state.height, state.blocked | 1 << t, locs, state.ply)
            best = max(best, 1 + longest_path_ref(child, player))
    return best


def separated_ref(state: State) -> bool:
    """Readable twin of :func:`separated`: the open cells each piece can reach are disjoint."""
    regions = []
    for loc in state.locs:
        if loc is None:
            return False
        seen: set[int] = set()
        frontier = [loc]
        while frontier:
            cell = frontier.pop()
            for t in knight_targets(cell, state.width, state.height):
                if state.is_open(t) and t not in seen:
                    seen.add(t)
                    frontier.append(t)
        regions.append(seen)
    return not regions[0] & regions[1]


@kernel
def solve_endgame(
    lo: np.uint64,
    hi: np.uint64,
    me: int,
    other: int,
    masks: np.ndarray,
    nbr: np.ndarray,
    dark: np.ndarray,
    ctl: np.ndarray,
    path: np.ndarray,
    path_words: np.ndarray,
) -> int:
    """Exact result of a separated position for the side to move, in plies to the end (0 if unknown).

    Positive: the mover wins and the opponent is stuck after that many plies; negative: it loses
    after that many. The mover wins iff its longest path is longer, so its own search stops at the
    opponent's length + 1. Regions whose bound exceeds the path limit are left to the search.
    """
    limit = ctl[PATH_MAX]
    mine_bound = _path_bound(lo, hi, masks, dark, me)
    if mine_bound > limit:
        return 0
    theirs_bound = _path_bound(lo, hi, masks, dark, other)
    if theirs_bound > limit:
        return 0
    ctl[ENDGAME_CALLS] += 1
    budget = ctl[PATH_BUDGET]
    theirs, steps = _longest(lo, hi, other, theirs_bound, nbr, budget, path, path_words)
    ctl[PATH_STEPS] += steps
    if theirs < 0:
        return 0
    mine, steps = _longest(lo, hi, me, min(mine_bound, theirs + 1), nbr, budget, path, path_words)
    ctl[PATH_STEPS] += steps
    if mine < 0:
        return 0
    ctl[ENDGAME_SOLVED] += 1
    return 2 * theirs + 1 if mine > theirs else -2 * mine
