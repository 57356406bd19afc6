"""The numba IDA*, the puzzle's fast path: the kernel of one iteration and its driver, :class:`IdaStar`.

The kernel makes and unmakes slides on flat arrays (the one place the puzzle uses make/unmake) and
keeps the heuristic's components up to date slide by slide (``incremental.py``). Children come in the
order of the blanks' cells, then the direction from the blank (up, down, left, right); the undo of the
previous slide is skipped. With two or more blanks a table of the boards reached in the current
iteration (exact packed keys) prunes boards reached again no shallower; without the table, of two
slides into different blanks over disjoint cells (they commute) only one order is searched. A node is
*expanded* when its children are generated; every child created counts as *generated*, summed over
the iterations.
"""

from __future__ import annotations

import math
import time
from typing import Final

import numpy as np
from numba import njit

from gridarena.games.slidingpuzzle.heuristics import Heuristic
from gridarena.games.slidingpuzzle.incremental import (
    KernelHeuristic,
    combined_h,
    keep_components,
    move_tile,
    undo_move,
)
from gridarena.games.slidingpuzzle.rules import Action, Board, action_of
from gridarena.games.slidingpuzzle.solvability import EXHAUSTED
from gridarena.search import Solution

INFINITY: Final = 1 << 30


@njit(cache=True, inline="always")
def _rekey(key: np.ndarray, t: int, frm: int, to: int, kword: np.ndarray, kshift: np.ndarray) -> None:
    """Update the packed board key for tile ``t`` sliding from ``frm`` to ``to`` (its own inverse)."""
    key[kword[frm]] ^= np.int64(t) << kshift[frm]
    key[kword[to]] ^= np.int64(t) << kshift[to]


@njit(cache=True, inline="always")
def _tt_visit(
    key: np.ndarray, g: int, stamp: int, tt_keys: np.ndarray, tt_g: np.ndarray, tt_stamp: np.ndarray
) -> bool:
    """True if this board was reached at g' <= g earlier in this iteration (prune); else record g.

    The subtree below a board reached again no shallower was already searched with at least as much
    bound left, so pruning it loses no solution. Keys are the exact packed board, never a hash.
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
        if tt_stamp[s] == stamp:
            same = True
            for w in range(words):
                if tt_keys[s, w] != key[w]:
                    same = False
                    break
            if same:
                if tt_g[s] <= g:
                    return True
                tt_g[s] = g
                return False
        elif free < 0:
            free = s
    if free < 0:
        free = home  # all four slots hold this iteration's boards: replace the first
    tt_stamp[free] = stamp
    tt_g[free] = g
    for w in range(words):
        tt_keys[free, w] = key[w]
    return False


@njit(cache=True)
def _ida_iteration(
    bound: int,
    max_nodes: int,
    counts: np.ndarray,
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
    path_from: np.ndarray,
    path_dir: np.ndarray,
    key: np.ndarray,
    kword: np.ndarray,
    kshift: np.ndarray,
    tt_keys: np.ndarray,
    tt_g: np.ndarray,
    tt_stamp: np.ndarray,
    stamp: int,
    pat_slots: np.ndarray,
    cellbit: np.ndarray,
    rinfo: np.ndarray,
) -> tuple[int, int]:
    """One depth-first iteration to f <= bound: (solution length or -1 or -2 on the node limit, next bound)."""
    nb = blanks.shape[0]
    width = 4 * nb
    n_sets = pat_of.shape[0]
    scratch = np.empty(max(rows, cols, 64), dtype=np.int64)
    best = np.empty(max(rows, cols, 64), dtype=np.int64)
    cand_from = np.empty((bound + 1, width), dtype=np.int64)
    cand_blank = np.empty((bound + 1, width), dtype=np.int64)
    cand_dir = np.empty((bound + 1, width), dtype=np.int64)
    n_cand = np.zeros(bound + 1, dtype=np.int64)
    next_cand = np.zeros(bound + 1, dtype=np.int64)
    mv_tile = np.empty(bound + 1, dtype=np.int64)
    mv_from = np.empty(bound + 1, dtype=np.int64)
    mv_blank = np.empty(bound + 1, dtype=np.int64)
    sv_hc = np.empty((bound + 1, hc.shape[0]), dtype=np.int64)
    sv_pv = np.empty((bound + 1, 2 * pv.shape[0]), dtype=np.int64)
    sv_lc = np.empty((bound + 1, lc_lines.shape[0]), dtype=np.int64)
    next_bound = 1 << 30
    use_tt = tt_g.shape[0] > 0
    if use_tt:
        _tt_visit(key, 0, stamp, tt_keys, tt_g, tt_stamp)
    depth = 0
    generate = True
    while True:
        if generate:
            counts[0] += 1
            n = 0
            for j in range(nb):
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
                before_from = mv_from[depth - 1]
                before_to = pos[mv_tile[depth - 1]]
                if mv_tile[depth - 1] == t and before_from == to:
                    continue  # the undo of the previous slide
                if (
                    not use_tt
                    and before_to != frm
                    and before_from != to
                    and before_from != frm
                    and to < before_to
                ):
                    # Slides into different blanks over disjoint cells commute: keep one order only. The
                    # rule depends on the path, so with the table (which catches these) it is left out:
                    # a board pruned as seen must have had all its children searched the first time.
                    continue
            counts[1] += 1
            keep_components(depth, hc, pv, mpv, lc_on, lc_lines, sv_hc, sv_pv, sv_lc)
            move_tile(
                t, frm, to, occ, pos, dist, hc, lc_on, lc_lines, rows, cols, grow, gcol, pat_of, pat_tiles,
                pat_k, pat_w, tables, packed, pv, mpv, mirror_on, mcell, mtile, scratch, best, pat_slots,
                cellbit, rinfo,
            )  # fmt: skip
            blanks[j] = frm
            h = combined_h(hc, n_sets, mirror_on)
            f = depth + 1 + h
            if use_tt:
                _rekey(key, t, frm, to, kword, kshift)
            prune = f > bound
            if prune:
                next_bound = min(next_bound, f)
            elif use_tt and h > 0:
                prune = _tt_visit(key, depth + 1, stamp, tt_keys, tt_g, tt_stamp)
            if prune:
                if use_tt:
                    _rekey(key, t, frm, to, kword, kshift)
                undo_move(
                    t, to, frm, depth, occ, pos, hc, pv, mpv, lc_on, lc_lines, cellbit, rinfo, sv_hc, sv_pv,
                    sv_lc,
                )  # fmt: skip
                blanks[j] = to
                continue
            mv_tile[depth] = t
            mv_from[depth] = frm
            mv_blank[depth] = j
            path_from[depth] = frm
            path_dir[depth] = cand_dir[depth, i]
            if h == 0:
                return depth + 1, next_bound
            if counts[0] >= max_nodes:
                return -2, next_bound
            depth += 1
            generate = True
        else:
            if depth == 0:
                return -1, next_bound
            depth -= 1
            t = mv_tile[depth]
            j = mv_blank[depth]
            to = pos[t]
            if use_tt:
                _rekey(key, t, to, mv_from[depth], kword, kshift)
            undo_move(
                t, to, mv_from[depth], depth, occ, pos, hc, pv, mpv, lc_on, lc_lines, cellbit, rinfo, sv_hc,
                sv_pv, sv_lc,
            )  # fmt: skip
            blanks[j] = to


class IdaStar:
    """Numba IDA* for one heuristic; reusable across boards (tables are prepared once).

    ``transpositions``: log2 of the slots of a table of boards reached in the current iteration,
    which prunes boards reached again no shallower (0: off). By default it is on (2^20 slots) with
    two or more blanks, where independent slides make many paths to each board, and off with one.
    """

    def __init__(self, heuristic: Heuristic, *, transpositions: int | None = None) -> None:
        self.heuristic = heuristic
        self.kernel = KernelHeuristic(heuristic)
        self._layout(heuristic)
        bits = (20 if len(heuristic.goal.blanks) > 1 else 0) if transpositions is None else transpositions
        self.tt_bits = bits if self.key_words > 0 else 0
        self._tt: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self._stamp = 0

    @property
    def name(self) -> str:
        """The algorithm and the heuristic, e.g. ``idastar/pdb(6-6-3r)``."""
        return f"idastar/{self.heuristic.name}"

    def _layout(self, heuristic: Heuristic) -> None:
        """Where each movable cell's tile number sits in the exact packed board key (int64 words)."""
        bits = max(1, max(heuristic.goal.tiles, default=1).bit_length())
        per_word = 63 // bits
        size = heuristic.geo.size
        words = -(-size // per_word)
        self.key_words = words if words <= 4 else 0  # bigger boards go without the table
        self.kword = np.array([m // per_word for m in range(size)], dtype=np.int64)
        self.kshift = np.array([bits * (m % per_word) for m in range(size)], dtype=np.int64)

    def _table(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if self._tt is None:
            slots = 1 << self.tt_bits if self.tt_bits else 0
            self._tt = (
                np.zeros((slots, max(1, self.key_words)), dtype=np.int64),
                np.zeros(slots, dtype=np.int32),
                np.zeros(slots, dtype=np.int32),
            )
        return self._tt

    def _next_stamp(self) -> int:
        # Stamps tell this iteration's entries from older ones, so the table is never cleared.
        self._stamp += 1
        return self._stamp

    def _key(self, occ: np.ndarray) -> np.ndarray:
        key = np.zeros(max(1, self.key_words), dtype=np.int64)
        if self.key_words:
            for m, t in enumerate(occ):
                key[self.kword[m]] ^= int(t) << int(self.kshift[m])
        return key

    def h0(self, board: Board) -> int:
        """The kernel's heuristic value of ``board`` (tests compare it with ``Heuristic.estimate``)."""
        return self.kernel.value(self.kernel.start(board)[3])

    def solve(
        self, board: Board, *, max_nodes: int = 1 << 62, deadline: float | None = None
    ) -> Solution[Action]:
        """An optimal solution of ``board`` (status ``limit`` once ``max_nodes`` expansions are spent).

        ``deadline`` (a ``time.perf_counter`` value) is checked between iterations.
        """
        heur, k = self.heuristic, self.kernel
        started = time.perf_counter()
        occ, pos, blanks, hc, lc_lines, pv, mpv = k.start(board)
        key = self._key(occ)
        h0 = bound = k.value(hc)
        counts = np.zeros(2, dtype=np.int64)

        def answer(path: tuple[int, ...] | None, stopped: bool = False, reason: str = "") -> Solution[Action]:
            return Solution(
                path,
                math.inf if path is None else float(len(path)),
                int(counts[0]),
                int(counts[1]),
                stopped=stopped,
                reason=reason,
                bound=bound if stopped else 0,  # a stopped search proved its last bound
                h0=h0,
                algorithm=self.name,
                seconds=time.perf_counter() - started,
            )

        if h0 == 0:
            return answer(())
        while True:
            path_from = np.zeros(bound + 1, dtype=np.int64)
            path_dir = np.zeros(bound + 1, dtype=np.int64)
            length, next_bound = _ida_iteration(
                bound, max_nodes, counts, occ, pos, blanks, heur.geo.neighbours, heur.dist, hc,
                heur.linear_conflict, lc_lines, k.rows, k.cols, k.grow, k.gcol, k.pat_of, k.pat_tiles,
                k.pat_k, k.pat_w, k.tables, k.packed, pv, mpv, heur.mirror, heur.mirror_cell,
                heur.mirror_tile, path_from, path_dir, key, self.kword, self.kshift, *self._table(),
                self._next_stamp(), k.pat_slots, k.cellbit, k.rinfo,
            )  # fmt: skip
            if length >= 0:
                cells = heur.geo.cells
                return answer(
                    tuple(action_of(int(cells[path_from[i]]), int(path_dir[i])) for i in range(length))
                )
            if length == -2 or (deadline is not None and time.perf_counter() > deadline):
                why = "node limit reached" if length == -2 else "time limit reached"
                why += f" (no solution shorter than {bound} slides)"
                return answer(None, stopped=True, reason=why)
            if next_bound >= INFINITY:
                return answer(None, reason=EXHAUSTED)
            bound = next_bound
