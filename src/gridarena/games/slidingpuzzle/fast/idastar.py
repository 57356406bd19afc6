"""The numba IDA* kernel: one iteration over a task of the frontier, with make/unmake on flat arrays.

The kernel makes and unmakes slides on flat arrays (the one place the puzzle uses make/unmake) and keeps
the heuristic's components up to date slide by slide (:mod:`.incremental`). The driver that runs it in
threads, with limits and progress, is :class:`gridarena.games.slidingpuzzle.ai.idastar.IdaStar`.
"""

from __future__ import annotations

from typing import Final

import numpy as np
from numba import njit

from gridarena.games.slidingpuzzle.fast.incremental import (
    combined_h,
    keep_components,
    move_tile,
    undo_move,
)

INFINITY: Final = 1 << 30
_TASK_BITS: Final = 16  # a table entry's g word: g << 16 | task number
_TASK_MASK: Final = (1 << _TASK_BITS) - 1


@njit(cache=True, inline="always")
def _rekey(key: np.ndarray, t: int, frm: int, to: int, kword: np.ndarray, kshift: np.ndarray) -> None:
    """Update the packed board key for tile ``t`` sliding from ``frm`` to ``to`` (its own inverse)."""
    key[kword[frm]] ^= np.int64(t) << kshift[frm]
    key[kword[to]] ^= np.int64(t) << kshift[to]


@njit(cache=True, inline="always")
def _tt_check(tt_keys: np.ndarray, s: int, words: int, gword: int, stamp: int) -> int:
    """The check word of slot ``s``: its key words, g word and stamp mixed (torn entries fail it)."""
    mixed = np.int64(stamp) ^ (np.int64(gword) << 32)
    for w in range(words):
        mixed = (mixed ^ tt_keys[s, w]) * np.int64(-7046029254386353131)  # 0x9E3779B97F4A7C15, wrapping
    return int(mixed ^ (mixed >> 31))


@njit(cache=True, inline="always")
def _tt_write(
    key: np.ndarray,
    s: int,
    g: int,
    me: int,
    stamp: int,
    tt_keys: np.ndarray,
    tt_g: np.ndarray,
    tt_stamp: np.ndarray,
) -> None:
    words = key.shape[0]
    for w in range(words):
        tt_keys[s, w] = key[w]
    gword = (g << _TASK_BITS) | me
    tt_g[s] = gword
    tt_stamp[s] = stamp
    tt_keys[s, words] = _tt_check(tt_keys, s, words, gword, stamp)


@njit(cache=True, inline="always")
def _tt_visit(
    key: np.ndarray,
    g: int,
    me: int,
    stamp: int,
    tt_keys: np.ndarray,
    tt_g: np.ndarray,
    tt_stamp: np.ndarray,
) -> bool:
    """True if this board was reached in this iteration at g' < g, or at g' = g on a path that comes
    earlier in depth-first order (prune); else record g and the task ``me``.

    ``me`` is the number of the task (the tasks of a parallel iteration are numbered in depth-first
    order; a serial search is task 0), so an entry at the same g from a task numbered no higher was
    reached on an earlier path: within a task the depth-first search met it first. Pruning only then
    never cuts the first optimal path in depth-first order, whichever thread wrote the entry and
    whether or not it is still searching below it (docs/slidingpuzzle.md). An entry from a later task
    at the same g is taken over by the earlier one. Keys are the exact packed board, never a hash, and
    each slot carries a check word over its key, g and stamp, so an entry half-written by the other
    thread (no locks) fails the check and counts as empty.
    """
    size = tt_g.shape[0]
    words = key.shape[0]
    mixed = np.int64(0)
    for w in range(words):
        mixed = (mixed ^ key[w]) * np.int64(-7046029254386353131)  # 0x9E3779B97F4A7C15, wrapping
    home = (mixed ^ (mixed >> 29)) & (size - 1)
    free = -1
    for probe in range(4):
        s = (home + probe) & (size - 1)
        st = tt_stamp[s]
        gword = tt_g[s]
        if st == stamp and tt_keys[s, words] == _tt_check(tt_keys, s, words, gword, st):
            same = True
            for w in range(words):
                if tt_keys[s, w] != key[w]:
                    same = False
                    break
            if same:
                seen, who = gword >> _TASK_BITS, gword & _TASK_MASK
                if seen < g or (seen == g and who <= me):
                    return True
                _tt_write(key, s, g, me, stamp, tt_keys, tt_g, tt_stamp)  # shallower, or an earlier task
                return False
        elif free < 0:
            free = s
    if free < 0:
        free = home  # all four slots hold this iteration's boards: replace the first
    _tt_write(key, free, g, me, stamp, tt_keys, tt_g, tt_stamp)
    return False


@njit(cache=True, inline="always")
def _commute(f1: int, t1: int, f2: int, t2: int) -> bool:
    """Two slides commute when they use disjoint cells (so they go into different blanks)."""
    return f1 != f2 and f1 != t2 and t1 != f2 and t1 != t2


@njit(cache=True, nogil=True)
def ida_task(
    bound: int,
    max_nodes: int,
    counts: np.ndarray,
    stop: np.ndarray,
    occ: np.ndarray,
    pos: np.ndarray,
    blanks: np.ndarray,
    near: np.ndarray,
    dist: np.ndarray,
    hc: np.ndarray,
    lc_on: bool,
    lc_lines: np.ndarray,
    rows: int,
    cols: int,
    grow: np.ndarray,
    gcol: np.ndarray,
    pat_of: np.ndarray,
    pat_tiles: np.ndarray,
    pat_k: np.ndarray,
    pat_w: np.ndarray,
    tables: tuple[np.ndarray, ...],
    packed: np.ndarray,
    pv: np.ndarray,
    mpv: np.ndarray,
    mirror_on: bool,
    mcell: np.ndarray,
    mtile: np.ndarray,
    moves: np.ndarray,
    n_prefix: int,
    collect: int,
    frontier: np.ndarray,
    key: np.ndarray,
    kword: np.ndarray,
    kshift: np.ndarray,
    tt_keys: np.ndarray,
    tt_g: np.ndarray,
    tt_stamp: np.ndarray,
    stamp: int,
    me: int,
    pat_slots: np.ndarray,
    cellbit: np.ndarray,
    rinfo: np.ndarray,
    prune_commute: bool,
    prune_chain: bool,
    wg: int,
    wh: int,
) -> tuple[int, int]:
    """One depth-first iteration to f <= bound below a prefix of slides; (result, next bound).

    ``moves[d] = (tile, from, to, direction)`` of the slide at depth d: the first ``n_prefix`` rows are
    given (the kernel plays them first, on the root board it is handed, and never backtracks above
    them); the rest are the search's path, the solution's on return. The result is the solution's
    length, -1 when the iteration is exhausted, -2 at the node limit, -3 when ``stop[0]`` was set.
    ``wg`` and ``wh`` weigh g and h (1 and 1: optimal; ``bound`` is in those units).
    ``collect > 0``: instead of expanding the boards at that depth, append their slides to
    ``frontier`` (rows of ``moves``; ``counts[2]`` is their number; -4 when it is full), the tasks of a
    parallel iteration.

    Children come in the order of the blanks' cells, then the direction from the blank. Of two
    commuting slides in a row only the order that a depth-first search meets first is searched
    (``prune_commute``: the second goes into the smaller blank cell), and a slide that undoes an
    earlier one across slides that commute with it is never made (``prune_chain``; the immediate undo
    always). The table prunes a board reached again at g no smaller than before in this iteration.
    Every pruning keeps the first optimal path in depth-first order (that path has no undo, no pair
    out of the order, and no board reached earlier as cheaply), so the search stays optimal and the
    next bound stays a lower bound.
    """
    nb = blanks.shape[0]
    width = 4 * nb
    n_sets = pat_of.shape[0]
    scratch = np.empty(max(rows, cols, 64), dtype=np.int64)
    best = np.empty(max(rows, cols, 64), dtype=np.int64)
    most = bound // wg + 2  # the deepest a slide can go, plus one
    cand_from = np.empty((most, width), dtype=np.int64)
    cand_blank = np.empty((most, width), dtype=np.int64)
    cand_dir = np.empty((most, width), dtype=np.int64)
    n_cand = np.zeros(most, dtype=np.int64)
    next_cand = np.zeros(most, dtype=np.int64)
    mv_blank = np.empty(most, dtype=np.int64)
    order = np.empty(nb, dtype=np.int64)
    sv_hc = np.empty((most, hc.shape[0]), dtype=np.int64)
    sv_pv = np.empty((most, 2 * pv.shape[0]), dtype=np.int64)
    sv_lc = np.empty((most, lc_lines.shape[0]), dtype=np.int64)
    next_bound = 1 << 30
    use_tt = tt_g.shape[0] > 0
    # Play the prefix (its slides were checked when the frontier was collected).
    for d in range(n_prefix):
        t, frm, to = moves[d, 0], moves[d, 1], moves[d, 2]
        for j in range(nb):
            if blanks[j] == to:
                mv_blank[d] = j
        keep_components(d, hc, pv, mpv, lc_on, lc_lines, sv_hc, sv_pv, sv_lc)
        move_tile(
            t, frm, to, occ, pos, dist, hc, lc_on, lc_lines, rows, cols, grow, gcol, pat_of, pat_tiles,
            pat_k, pat_w, tables, packed, pv, mpv, mirror_on, mcell, mtile, scratch, best, pat_slots,
            cellbit, rinfo,
        )  # fmt: skip
        blanks[mv_blank[d]] = frm
        if use_tt:
            _rekey(key, t, frm, to, kword, kshift)
    if use_tt and _tt_visit(key, n_prefix, me, stamp, tt_keys, tt_g, tt_stamp) and n_prefix > 0:
        return -1, next_bound  # an earlier task of this thread reached this board as cheaply
    depth = n_prefix
    generate = True
    while True:
        if generate:
            counts[0] += 1
            if stop[0] != 0:
                return -3, next_bound
            # The blanks in the order of their cells (insertion sort: there are one or two).
            for j in range(nb):
                order[j] = j
                i = j
                while i > 0 and blanks[order[i - 1]] > blanks[order[i]]:
                    order[i - 1], order[i] = order[i], order[i - 1]
                    i -= 1
            n = 0
            for jj in range(nb):
                j = order[jj]
                for d in range(4):
                    src = near[blanks[j], d]
                    if src >= 0 and occ[src] > 0:
                        cand_from[depth, n] = src
                        cand_blank[depth, n] = j
                        cand_dir[depth, n] = d ^ 1  # the tile moves opposite to where it sits
                        n += 1
            n_cand[depth] = n
            next_cand[depth] = 0
            generate = False
        if next_cand[depth] < n_cand[depth]:
            i = next_cand[depth]
            next_cand[depth] += 1
            frm = cand_from[depth, i]
            j = cand_blank[depth, i]
            to = blanks[j]
            t = occ[frm]
            if depth > 0:
                pf, pt = moves[depth - 1, 1], moves[depth - 1, 2]
                if moves[depth - 1, 0] == t and pf == to:
                    continue  # the undo of the previous slide
                if prune_commute and to < pt and _commute(pf, pt, frm, to):
                    continue  # the other order of two commuting slides is searched instead
                if prune_chain:
                    undoes = False
                    e = depth - 1
                    while e >= 0:
                        ef, et = moves[e, 1], moves[e, 2]
                        if moves[e, 0] == t and ef == to and et == frm:
                            undoes = True
                            break
                        if not _commute(ef, et, frm, to):
                            break
                        e -= 1
                    if undoes:
                        continue  # it undoes a slide that every slide since commutes with
            counts[1] += 1
            keep_components(depth, hc, pv, mpv, lc_on, lc_lines, sv_hc, sv_pv, sv_lc)
            move_tile(
                t, frm, to, occ, pos, dist, hc, lc_on, lc_lines, rows, cols, grow, gcol, pat_of, pat_tiles,
                pat_k, pat_w, tables, packed, pv, mpv, mirror_on, mcell, mtile, scratch, best, pat_slots,
                cellbit, rinfo,
            )  # fmt: skip
            blanks[j] = frm
            h = combined_h(hc, n_sets, mirror_on)
            f = wg * (depth + 1) + wh * h  # weighted IDA* scales both (f = g + w h with w = wh / wg)
            if use_tt:
                _rekey(key, t, frm, to, kword, kshift)
            prune = f > bound
            if prune:
                next_bound = min(next_bound, f)
            elif use_tt and h > 0:
                prune = _tt_visit(key, depth + 1, me, stamp, tt_keys, tt_g, tt_stamp)
            moves[depth, 0] = t
            moves[depth, 1] = frm
            moves[depth, 2] = to
            moves[depth, 3] = cand_dir[depth, i]
            mv_blank[depth] = j
            if not prune and h > 0 and depth + 1 == collect:
                row = counts[2]
                if row >= frontier.shape[0]:
                    return -4, next_bound
                for e in range(collect):
                    for c in range(4):
                        frontier[row, e * 4 + c] = moves[e, c]
                counts[2] += 1
                prune = True
            if prune:
                if use_tt:
                    _rekey(key, t, frm, to, kword, kshift)
                undo_move(
                    t, to, frm, depth, occ, pos, hc, pv, mpv, lc_on, lc_lines, cellbit, rinfo, sv_hc, sv_pv,
                    sv_lc,
                )  # fmt: skip
                blanks[j] = to
                continue
            if h == 0:
                return depth + 1, next_bound
            if counts[0] >= max_nodes:
                return -2, next_bound
            depth += 1
            generate = True
        else:
            if depth == n_prefix:
                return -1, next_bound
            depth -= 1
            t = moves[depth, 0]
            j = mv_blank[depth]
            to = moves[depth, 2]
            frm = moves[depth, 1]
            if use_tt:
                _rekey(key, t, to, frm, kword, kshift)
            undo_move(
                t, to, frm, depth, occ, pos, hc, pv, mpv, lc_on, lc_lines, cellbit, rinfo, sv_hc,
                sv_pv, sv_lc,
            )  # fmt: skip
            blanks[j] = to
