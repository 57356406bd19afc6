"""The heuristic inside the IDA* kernel: flat tables, and components updated slide by slide.

The kernel keeps h as components ``hc``: the distance sum, the linear conflicts, then per disjoint set
its PDB sum plus the distance of the tiles it leaves out, then the same sums on the mirrored board;
h is the largest of (distance + conflicts) and the sets' sums (:func:`combined_h`). A slide updates only
the moved tile's terms (:func:`move_tile`): its distance, the two lines it touches, the PDB value of its
pattern, normal and mirrored (a pattern's rank costs one hardware popcount per tile). The search keeps
the components before each slide (:func:`keep_components`) so undoing it costs no lookups
(:func:`undo_move`). :class:`KernelHeuristic` lays a heuristic out in flat arrays and computes a
board's components from scratch; the readable twin is ``ai.heuristics.Heuristic.estimate``. The kernel
reads a heuristic through :class:`HeuristicTables` (what it needs of one), so ``fast/`` imports nothing
above it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np
from numba import njit

from gridarena.games.slidingpuzzle.board import Board
from gridarena.games.slidingpuzzle.fast.indexing import (
    BoardMasks,
    Geometry,
    blank_slot,
    flood,
    placement_weights,
    rank_placement,
)


@njit(cache=True, inline="always")
def _pdb_value(table: np.ndarray, packed: bool, rank: int) -> int:
    if packed:
        return int((table[rank >> 1] >> ((rank & 1) * 4)) & 15)
    return int(table[rank])


@njit(cache=True, inline="always")
def _pattern_value(
    p: int,
    pos: np.ndarray,
    pat_tiles: np.ndarray,
    pat_k: np.ndarray,
    pat_w: np.ndarray,
    tables: tuple[np.ndarray, ...],
    packed: np.ndarray,
    mirrored: bool,
    mcell: np.ndarray,
    mtile: np.ndarray,
    scratch: np.ndarray,
    pat_slots: np.ndarray,
    cellbit: np.ndarray,
    rinfo: np.ndarray,
) -> int:
    """PDB value of pattern ``p`` on the board (``mirrored``: on its reflection).

    A region-keyed table (``pat_slots[p] = (slots per placement, placements)``, slots > 0) is read at the blanks' canonical slot: each blank moved
    to the smallest free cell of its region (``rinfo``: movable cells, cols, column masks, blank cells).
    """
    k = pat_k[p]
    for i in range(k):
        t = pat_tiles[p, i]
        scratch[i] = mcell[pos[mtile[t]]] if mirrored else pos[t]
    rank = rank_placement(scratch, k, pat_w[p])
    slots = pat_slots[p, 0]
    if slots == 0:
        return _pdb_value(tables[p], packed[p], rank)
    used = 0
    for i in range(k):
        used |= cellbit[scratch[i]]
    free = rinfo[0] & ~used
    blanks = rinfo[4]
    first = blanks & -blanks
    second = blanks ^ first
    r1 = flood(free, first, rinfo[1], rinfo[2], rinfo[3])
    if second == 0:
        slot = blank_slot(free, r1, r1, 1)
    else:
        r2 = r1 if r1 & second else flood(free, second, rinfo[1], rinfo[2], rinfo[3])
        slot = blank_slot(free, r1, r2, 2)
    table = tables[p]
    state = rank * slots + slot
    return int(table[rank]) + int((table[pat_slots[p, 1] + (state >> 1)] >> ((state & 1) * 4)) & 15)


@njit(cache=True, inline="always")
def _line_conflicts(
    line: int,
    is_row: bool,
    occ: np.ndarray,
    rows: int,
    cols: int,
    grow: np.ndarray,
    gcol: np.ndarray,
    scratch: np.ndarray,
    best: np.ndarray,
) -> int:
    """2 x (tiles to lift out of a row or column so the rest are in goal order); walls not allowed."""
    n = 0
    span = cols if is_row else rows
    for i in range(span):
        t = occ[line * cols + i] if is_row else occ[i * cols + line]
        if t > 0 and (grow[t] if is_row else gcol[t]) == line:
            scratch[n] = gcol[t] if is_row else grow[t]
            n += 1
    longest = 0
    for i in range(n):
        best[i] = 1
        for j in range(i):
            if scratch[j] < scratch[i] and best[j] + 1 > best[i]:
                best[i] = best[j] + 1
        longest = max(longest, best[i])
    return 2 * (n - longest)


@njit(cache=True, inline="always")
def move_tile(
    t: int,
    frm: int,
    to: int,
    occ: np.ndarray,
    pos: np.ndarray,
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
    scratch: np.ndarray,
    best: np.ndarray,
    pat_slots: np.ndarray,
    cellbit: np.ndarray,
    rinfo: np.ndarray,
) -> None:
    """Slide tile ``t`` from ``frm`` to ``to`` and update every heuristic component incrementally.

    hc = [distance sum, linear conflicts, then per disjoint set g: hc[2 + g] its PDB sum plus the distance
    of the tiles it leaves out, hc[2 + G + g] the same on the mirrored board]. ``pat_of[g, t]``: the
    pattern of set g holding tile t, or -1. The search undoes a slide with :func:`undo_move` (this call with
    ``frm`` and ``to`` swapped would do too, at the cost of the lookups).
    ``rinfo[4]`` holds the blank cells as bits (``rinfo[5]``: whether to track them). A region-keyed
    value changes only when one of its own tiles slides: any other slide moves a blank to an adjacent
    cell outside the pattern, in the same region, so the canonical slot stays.
    """
    occ[to] = t
    occ[frm] = 0
    pos[t] = to
    if rinfo[5]:
        rinfo[4] ^= cellbit[frm] | cellbit[to]
    step = dist[t, to] - dist[t, frm]
    hc[0] += step
    if lc_on:
        vertical = frm // cols != to // cols
        for cell in (frm, to):
            line = cell // cols if vertical else cell % cols
            slot = line if vertical else rows + line
            hc[1] -= lc_lines[slot]
            lc_lines[slot] = _line_conflicts(line, vertical, occ, rows, cols, grow, gcol, scratch, best)
            hc[1] += lc_lines[slot]
    n_sets = pat_of.shape[0]
    for g in range(n_sets):
        p = pat_of[g, t]
        if p < 0:
            hc[2 + g] += step
        else:
            hc[2 + g] -= pv[p]
            pv[p] = _pattern_value(
                p, pos, pat_tiles, pat_k, pat_w, tables, packed, False, mcell, mtile, scratch,
                pat_slots, cellbit, rinfo,
            )  # fmt: skip
            hc[2 + g] += pv[p]
        if mirror_on:
            q = pat_of[g, mtile[t]]  # mirroring needs every set to cover every tile
            hc[2 + n_sets + g] -= mpv[q]
            mpv[q] = _pattern_value(
                q, pos, pat_tiles, pat_k, pat_w, tables, packed, True, mcell, mtile, scratch,
                pat_slots, cellbit, rinfo,
            )  # fmt: skip
            hc[2 + n_sets + g] += mpv[q]


@njit(cache=True, inline="always")
def keep_components(
    d: int,
    hc: np.ndarray,
    pv: np.ndarray,
    mpv: np.ndarray,
    lc_on: bool,
    lc_lines: np.ndarray,
    sv_hc: np.ndarray,
    sv_pv: np.ndarray,
    sv_lc: np.ndarray,
) -> None:
    """Keep the heuristic's components in row ``d`` before a slide, so that undoing it costs no lookups."""
    for i in range(hc.shape[0]):
        sv_hc[d, i] = hc[i]
    n = pv.shape[0]
    for i in range(n):
        sv_pv[d, i] = pv[i]
        sv_pv[d, n + i] = mpv[i]
    if lc_on:
        for i in range(lc_lines.shape[0]):
            sv_lc[d, i] = lc_lines[i]


@njit(cache=True, inline="always")
def undo_move(
    t: int,
    frm: int,
    to: int,
    d: int,
    occ: np.ndarray,
    pos: np.ndarray,
    hc: np.ndarray,
    pv: np.ndarray,
    mpv: np.ndarray,
    lc_on: bool,
    lc_lines: np.ndarray,
    cellbit: np.ndarray,
    rinfo: np.ndarray,
    sv_hc: np.ndarray,
    sv_pv: np.ndarray,
    sv_lc: np.ndarray,
) -> None:
    """Slide tile ``t`` back from ``frm`` to ``to`` and restore the components kept in row ``d``.

    Recomputing them (a second rank, flood and table read per pattern) cost as much as the slide itself.
    """
    occ[to] = t
    occ[frm] = 0
    pos[t] = to
    if rinfo[5]:
        rinfo[4] ^= cellbit[frm] | cellbit[to]
    for i in range(hc.shape[0]):
        hc[i] = sv_hc[d, i]
    n = pv.shape[0]
    for i in range(n):
        pv[i] = sv_pv[d, i]
        mpv[i] = sv_pv[d, n + i]
    if lc_on:
        for i in range(lc_lines.shape[0]):
            lc_lines[i] = sv_lc[d, i]


@njit(cache=True, inline="always")
def combined_h(hc: np.ndarray, n_sets: int, mirror_on: bool) -> int:
    """h from its components: the larger of distance plus conflicts and every set's sum (mirrored too)."""
    h = hc[0] + hc[1]
    for g in range(n_sets):
        h = max(h, hc[2 + g])
        if mirror_on:
            h = max(h, hc[2 + n_sets + g])
    return int(h)


def _readonly(array: np.ndarray) -> np.ndarray:
    """A read-only plain-ndarray view, so memory-mapped and built tables share one numba type."""
    view = np.asarray(array).view(np.ndarray)
    view.flags.writeable = False
    return view


class PatternTable(Protocol):
    """What the kernel reads of a pattern database (``pdb.table.PatternDatabase``)."""

    @property
    def pattern(self) -> tuple[int, ...]: ...
    @property
    def table(self) -> np.ndarray: ...
    @property
    def storage(self) -> str: ...
    @property
    def entries(self) -> int: ...
    @property
    def regions(self) -> bool: ...
    @property
    def slots(self) -> int: ...


class HeuristicTables(Protocol):
    """What the kernel reads of a heuristic (``ai.heuristics.Heuristic``, its readable twin)."""

    @property
    def goal(self) -> Board: ...
    @property
    def geo(self) -> Geometry: ...
    @property
    def dist(self) -> np.ndarray: ...
    @property
    def linear_conflict(self) -> bool: ...
    @property
    def pdbs(self) -> Sequence[PatternTable]: ...
    @property
    def mirror(self) -> bool: ...
    @property
    def mirror_cell(self) -> np.ndarray: ...
    @property
    def mirror_tile(self) -> np.ndarray: ...
    @property
    def groups(self) -> tuple[int, ...]: ...


class KernelHeuristic:
    """A heuristic in the flat arrays the kernel reads, prepared once per heuristic.

    ``pat_of[g, t]``: the pattern of set g holding tile t, or -1; ``pat_tiles``, ``pat_k``, ``pat_w``:
    each pattern's tiles, size and rank weights; ``tables`` and ``packed``: its values and whether they
    are nibbles; ``pat_slots``, ``cellbit``, ``rinfo``: what region-keyed tables need (slots and
    placements per pattern, cell bits, the board masks, then the blanks' cells as bits and whether to
    track them); ``grow``, ``gcol``: each tile's home row and column (linear conflicts).
    """

    def __init__(self, heuristic: HeuristicTables) -> None:
        self.heuristic = heuristic
        geo, goal = heuristic.geo, heuristic.goal
        self.rows, self.cols = goal.rows, goal.cols
        n_tiles = heuristic.dist.shape[0]
        home = goal.positions()
        self.grow = np.zeros(n_tiles, dtype=np.int64)
        self.gcol = np.zeros(n_tiles, dtype=np.int64)
        for t, c in home.items():
            self.grow[t], self.gcol[t] = divmod(c, goal.cols)
        pdbs = heuristic.pdbs
        kmax = max((len(p.pattern) for p in pdbs), default=1)
        numbers = sorted(set(heuristic.groups or (0,) * len(pdbs)))
        self.pat_of = np.full((len(numbers), n_tiles), -1, dtype=np.int64)
        self.pat_tiles = np.zeros((len(pdbs), kmax), dtype=np.int64)
        self.pat_k = np.array([len(p.pattern) for p in pdbs], dtype=np.int64)
        self.pat_w = np.zeros((len(pdbs), kmax), dtype=np.int64)
        for number, (p, g) in enumerate(zip(pdbs, heuristic.groups or (0,) * len(pdbs), strict=True)):
            self.pat_tiles[number, : len(p.pattern)] = p.pattern
            self.pat_of[numbers.index(g), list(p.pattern)] = number
            self.pat_w[number, : len(p.pattern)] = placement_weights(geo.size, len(p.pattern))
        self.tables = tuple(_readonly(p.table) for p in pdbs) or (_readonly(np.zeros(1, dtype=np.uint8)),)
        self.packed = np.array([p.storage == "u4" for p in pdbs] or [False], dtype=np.bool_)
        # Region-keyed tables: slots and placements per pattern, cell bits and the board masks.
        self.pat_slots = np.array([(p.slots, p.entries) if p.regions else (0, 0) for p in pdbs] or [(0, 0)])
        self.pat_slots = self.pat_slots.astype(np.int64)
        self.rinfo = np.zeros(6, dtype=np.int64)
        self.cellbit = np.zeros(geo.size, dtype=np.int64)
        if any(p.regions for p in pdbs):
            masks = BoardMasks.of(goal)
            self.cellbit = np.array([1 << int(c) for c in geo.cells], dtype=np.int64)
            self.rinfo[:4] = (masks.movable, masks.cols, masks.not_first, masks.not_last)
            self.rinfo[5] = 1

    @property
    def n_sets(self) -> int:
        """The number of disjoint PDB sets (1 without PDBs: a set of none)."""
        return int(self.pat_of.shape[0])

    def start(self, board: Board) -> tuple[np.ndarray, ...]:
        """The kernel's state for ``board``: cells, tile positions, blanks, and the heuristic's components.

        Returns ``occ`` (movable cell -> tile), ``pos`` (tile -> movable cell), ``blanks`` (movable
        cells), ``hc``, ``lc_lines`` (the conflicts of each row, then each column), ``pv`` and ``mpv``
        (each pattern's value on the board and on its mirror image).
        """
        geo, heur = self.heuristic.geo, self.heuristic
        occ = np.array([board.cells[int(c)] for c in geo.cells], dtype=np.int64)
        pos = np.zeros(heur.dist.shape[0], dtype=np.int64)
        for m, t in enumerate(occ):
            if t > 0:
                pos[t] = m
        blanks = np.array([geo.index[c] for c in board.blanks], dtype=np.int64)
        n_sets = self.n_sets
        hc = np.zeros(2 + 2 * n_sets, dtype=np.int64)
        lc_lines = np.zeros(self.rows + self.cols, dtype=np.int64)
        for t in board.tiles:
            hc[0] += heur.dist[t, pos[t]]
            for g in range(n_sets):
                if self.pat_of[g, t] < 0:
                    hc[2 + g] += heur.dist[t, pos[t]]
        if heur.linear_conflict:
            scratch, best = np.empty(64, np.int64), np.empty(64, np.int64)
            for line in range(self.rows):
                lc_lines[line] = _line_conflicts(
                    line, True, occ, self.rows, self.cols, self.grow, self.gcol, scratch, best
                )
            for line in range(self.cols):
                lc_lines[self.rows + line] = _line_conflicts(
                    line, False, occ, self.rows, self.cols, self.grow, self.gcol, scratch, best
                )
            hc[1] = lc_lines.sum()
        pv = np.zeros(max(1, len(heur.pdbs)), dtype=np.int64)
        mpv = np.zeros_like(pv)
        scratch = np.empty(64, np.int64)
        if self.rinfo[5]:
            self.rinfo[4] = sum(1 << c for c in board.blanks)
        regions = (self.pat_slots, self.cellbit, self.rinfo)
        for p in range(len(heur.pdbs)):
            args = (pos, self.pat_tiles, self.pat_k, self.pat_w, self.tables, self.packed)
            pv[p] = _pattern_value(p, *args, False, heur.mirror_cell, heur.mirror_tile, scratch, *regions)
            if heur.mirror:
                mpv[p] = _pattern_value(p, *args, True, heur.mirror_cell, heur.mirror_tile, scratch, *regions)
        for g in range(n_sets):
            mine = np.unique(self.pat_of[g][self.pat_of[g] >= 0])
            hc[2 + g] += pv[mine].sum()
            hc[2 + n_sets + g] = mpv[mine].sum()
        return occ, pos, blanks, hc, lc_lines, pv, mpv

    def value(self, hc: np.ndarray) -> int:
        """h from the components ``hc``."""
        return int(combined_h(hc, self.n_sets, self.heuristic.mirror))
