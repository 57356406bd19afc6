"""Optimal solvers: breadth-first search, A* and a numba IDA*, over one family of heuristics.

Heuristic (all admissible): the sum over tiles of the wall-respecting distance home (Manhattan
distance on a board without walls), plus linear conflicts on wall-free one-blank boards; with pattern
databases, the maximum of that and the sum of the disjoint PDB values (plus the distance of tiles in
no pattern), and, on a goal symmetric about the main diagonal, the same sum over the mirrored board.

Counting: a node is *expanded* when its children are generated, and every child created counts as
*generated* (IDA*: summed over all iterations; A*: stale heap entries are not expanded again).
Tie-breaking: children come in the order of the blanks' cells, then the direction from the blank
(up, down, left, right); A* pops the lowest f, then the lowest h, then the oldest entry. IDA* skips
the undo of the previous slide; without a transposition table it also searches only one order of two
commuting slides (into different blanks, over disjoint cells).
"""

from __future__ import annotations

import heapq
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final, Literal, TypeAlias

import numpy as np
from numba import njit

from gridarena.core.errors import GridArenaError
from gridarena.games.slidingpuzzle.formats import PuzzleCase
from gridarena.games.slidingpuzzle.pdb.indexing import (
    BoardMasks,
    Geometry,
    blank_slot,
    flood,
    placement_weights,
    rank_placement,
)
from gridarena.games.slidingpuzzle.pdb.table import PatternDatabase
from gridarena.games.slidingpuzzle.rules import (
    WALL,
    Action,
    Board,
    action_of,
    cell_distances,
    legal_slides,
    slide,
)
from gridarena.games.slidingpuzzle.solvability import check_solvable

Algorithm: TypeAlias = Literal["bfs", "astar", "idastar"]
ALGORITHMS: Final = ("bfs", "astar", "idastar")
INFINITY: Final = 1 << 30


class SolverError(GridArenaError, ValueError):
    """A solver asked to do something it cannot (mismatched databases, a mirror that does not apply)."""


@dataclass(frozen=True)
class Solution:
    """A solver's answer: the slides (None if none was found), why it stopped, and its statistics."""

    actions: tuple[Action, ...] | None
    status: Literal["solved", "unsolvable", "limit"]
    algorithm: str
    expanded: int
    generated: int
    seconds: float
    h0: int
    reason: str = ""
    bound: int = 0
    """A stopped search's proof: no solution is shorter than this (0: nothing proven)."""
    weight: float = 1.0
    """The heuristic's weight: above 1 the length is at most ``weight`` times the optimum, not optimal."""

    @property
    def length(self) -> int | None:
        """Number of slides, or None without a solution."""
        return None if self.actions is None else len(self.actions)

    @property
    def lower_bound(self) -> int:
        """The least length a solution can have, as far as this search knows: the length once solved optimally."""
        if self.actions is None:
            return self.bound
        return (
            len(self.actions)
            if self.weight == 1.0
            else max(self.h0, math.ceil(len(self.actions) / self.weight))
        )

    def stats(self) -> dict[str, object]:
        """The statistics as a JSON-ready dict."""
        return {
            "algorithm": self.algorithm,
            "status": self.status,
            "length": self.length,
            "expanded": self.expanded,
            "generated": self.generated,
            "seconds": round(self.seconds, 6),
            "h0": self.h0,
            "reason": self.reason,
            "lower_bound": self.lower_bound,
            "weight": self.weight,
        }


# ---------------------------------------------------------------------------------------------
# Heuristic tables


@dataclass(frozen=True)
class Heuristic:
    """Tables of the heuristic for one goal; :meth:`estimate` is the readable twin of the kernel's h."""

    goal: Board
    geo: Geometry
    dist: np.ndarray  # (tiles + 1, M): wall-respecting distance from a movable cell to the tile's home
    linear_conflict: bool
    pdbs: tuple[PatternDatabase, ...] = ()
    mirror: bool = False
    mirror_cell: np.ndarray = field(default_factory=lambda: np.zeros(1, dtype=np.int64))
    mirror_tile: np.ndarray = field(default_factory=lambda: np.zeros(1, dtype=np.int64))
    groups: tuple[int, ...] = ()  # the disjoint set each PDB belongs to (the sets' sums are maxed)

    @property
    def sets(self) -> list[list[PatternDatabase]]:
        """The PDBs grouped into their disjoint sets, in order of set number."""
        numbers = self.groups or (0,) * len(self.pdbs)
        return [[p for p, g in zip(self.pdbs, numbers, strict=True) if g == n] for n in sorted(set(numbers))]

    @property
    def name(self) -> str:
        """A short description, e.g. ``manhattan+lc``, ``pdb(7-8)+mirror`` or ``pdb(7-7-1/6-6-3r)``."""
        if not self.pdbs:
            return "manhattan+lc" if self.linear_conflict else "manhattan"
        sizes = "/".join(
            "-".join(str(len(p.pattern)) for p in group) + ("r" if all(p.regions for p in group) else "")
            for group in self.sets
        )
        return f"pdb({sizes})" + ("+mirror" if self.mirror else "")

    def estimate(self, board: Board) -> int:
        """The heuristic value of ``board`` (pure Python).

        >>> from gridarena.games.slidingpuzzle.rules import goal_board
        >>> make_heuristic(goal_board(3, 3)).estimate(Board(3, 3, (2, 1, 3, 4, 5, 6, 7, 8, 0)))
        4
        """
        where = board.positions()
        md = sum(int(self.dist[t, self.geo.index[c]]) for t, c in where.items())
        lc = _linear_conflicts_ref(board, self.goal) if self.linear_conflict else 0
        best = md + lc
        for group in self.sets:
            covered = {t for p in group for t in p.pattern}
            extra = sum(int(self.dist[t, self.geo.index[c]]) for t, c in where.items() if t not in covered)
            best = max(best, extra + sum(p.lookup(board) for p in group))
            if self.mirror:
                best = max(best, extra + sum(p.lookup(self.mirrored(board)) for p in group))
        return best

    def mirrored(self, board: Board) -> Board:
        """``board`` reflected about the main diagonal with tiles renamed (needs a symmetric goal)."""
        cells = [WALL] * len(board.cells)
        for m, c in enumerate(self.geo.cells):
            v = board.cells[c]
            cells[int(self.geo.cells[self.mirror_cell[m]])] = int(self.mirror_tile[v]) if v > 0 else v
        return Board(board.rows, board.cols, tuple(cells))


def _linear_conflicts_ref(board: Board, goal: Board) -> int:
    """Readable reference: 2 x (tiles to lift out of each row and column so the rest are in order)."""
    home = goal.positions()
    total = 0
    for is_row in (True, False):
        for line in range(board.rows if is_row else board.cols):
            span = range(board.cols) if is_row else range(board.rows)
            cells = [line * board.cols + i if is_row else i * board.cols + line for i in span]
            keys = []
            for c in cells:
                t = board.cells[c]
                if t > 0:
                    hr, hc = divmod(home[t], goal.cols)
                    if (hr if is_row else hc) == line:
                        keys.append(hc if is_row else hr)
            total += 2 * (len(keys) - _longest_increasing(keys))
    return total


def _longest_increasing(values: Sequence[int]) -> int:
    best = [1] * len(values)
    for i in range(len(values)):
        for j in range(i):
            if values[j] < values[i]:
                best[i] = max(best[i], best[j] + 1)
    return max(best, default=0)


def mirror_maps(goal: Board) -> tuple[np.ndarray, np.ndarray] | None:
    """Cell and tile maps of the reflection about the main diagonal, or None if the goal is not symmetric.

    >>> from gridarena.games.slidingpuzzle.rules import goal_board, homework_goal
    >>> mirror_maps(goal_board(3, 3)) is not None, mirror_maps(homework_goal())
    (True, None)
    """
    if goal.rows != goal.cols:
        return None
    n = goal.rows
    geo = Geometry.of(goal)
    tile_map = np.zeros(max(goal.tiles, default=0) + 1, dtype=np.int64)
    cell_map = np.zeros(geo.size, dtype=np.int64)
    for m, c in enumerate(geo.cells):
        r, col = divmod(int(c), n)
        image = col * n + r
        a, b = goal.cells[c], goal.cells[image]
        if b == WALL or (a > 0) != (b > 0):
            return None
        cell_map[m] = geo.index[image]
        if a > 0:
            tile_map[a] = b
    return cell_map, tile_map


def make_heuristic(
    goal: Board,
    pdbs: Sequence[PatternDatabase] = (),
    *,
    linear_conflict: bool | None = None,
    mirror: bool | None = None,
    groups: Sequence[int] | None = None,
) -> Heuristic:
    """Tables for ``goal``: ``mirror`` defaults to on where it applies, ``linear_conflict`` where it applies
    and no PDBs are given (next to a PDB sum it saves under 10% of the nodes and halves the node rate).

    ``groups`` puts each PDB in a numbered disjoint set (default: one set); h is the maximum of the sets'
    sums, each sum adding the distance of the tiles its set leaves out.
    """
    geo = Geometry.of(goal)
    table = cell_distances(goal)
    dist = np.zeros((max(goal.tiles, default=0) + 1, geo.size), dtype=np.int64)
    for t, home in goal.positions().items():
        dist[t] = [table[int(c)][home] for c in geo.cells]
    lc_ok = not goal.walls and len(goal.blanks) == 1
    if linear_conflict and not lc_ok:
        raise SolverError("linear conflicts are used only on boards without walls and with one blank")
    numbers = tuple(groups) if groups is not None else (0,) * len(pdbs)
    if len(numbers) != len(pdbs):
        raise SolverError(f"{len(numbers)} group numbers for {len(pdbs)} databases")
    for n in set(numbers):
        _check_pdbs(goal, [p for p, g in zip(pdbs, numbers, strict=True) if g == n])
    maps = mirror_maps(goal)
    every_set_covers = all(
        {t for p, g in zip(pdbs, numbers, strict=True) if g == n for t in p.pattern} == set(goal.tiles)
        for n in set(numbers)
    )
    regions = any(p.regions for p in pdbs)
    mirror_ok = maps is not None and bool(pdbs) and every_set_covers and not regions
    if mirror and not mirror_ok:
        raise SolverError(
            "mirrored lookups need a goal symmetric about the main diagonal and PDBs covering every tile"
            " (and no region-keyed PDBs)"
        )
    use_mirror = mirror_ok if mirror is None else mirror
    cell_map, tile_map = (
        maps if maps is not None and use_mirror else (np.zeros(1, np.int64), np.zeros(1, np.int64))
    )
    return Heuristic(
        goal,
        geo,
        dist,
        lc_ok and not pdbs if linear_conflict is None else linear_conflict,
        tuple(pdbs),
        use_mirror,
        cell_map,
        tile_map,
        numbers,
    )


def _check_pdbs(goal: Board, pdbs: Sequence[PatternDatabase]) -> None:
    seen: set[int] = set()
    for p in pdbs:
        if p.goal != goal:
            raise SolverError(f"the database of pattern {list(p.pattern)} was built for another goal")
        if seen & set(p.pattern):
            raise SolverError(
                f"pattern {list(p.pattern)} overlaps another: additive databases must be disjoint"
            )
        seen |= set(p.pattern)


# ---------------------------------------------------------------------------------------------
# The IDA* kernel


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
def _move(
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
    pattern of set g holding tile t, or -1. The search undoes a slide with :func:`_unmove` (this call with
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
def _save(
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
def _unmove(
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
def _h(hc: np.ndarray, n_sets: int, mirror_on: bool) -> int:
    h = hc[0] + hc[1]
    for g in range(n_sets):
        h = max(h, hc[2 + g])
        if mirror_on:
            h = max(h, hc[2 + n_sets + g])
    return int(h)


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
            _save(depth, hc, pv, mpv, lc_on, lc_lines, sv_hc, sv_pv, sv_lc)
            _move(
                t,
                frm,
                to,
                occ,
                pos,
                dist,
                hc,
                lc_on,
                lc_lines,
                rows,
                cols,
                grow,
                gcol,
                pat_of,
                pat_tiles,
                pat_k,
                pat_w,
                tables,
                packed,
                pv,
                mpv,
                mirror_on,
                mcell,
                mtile,
                scratch,
                best,
                pat_slots,
                cellbit,
                rinfo,
            )
            blanks[j] = frm
            h = _h(hc, n_sets, mirror_on)
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
                _unmove(
                    t,
                    to,
                    frm,
                    depth,
                    occ,
                    pos,
                    hc,
                    pv,
                    mpv,
                    lc_on,
                    lc_lines,
                    cellbit,
                    rinfo,
                    sv_hc,
                    sv_pv,
                    sv_lc,
                )
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
            _unmove(
                t,
                to,
                mv_from[depth],
                depth,
                occ,
                pos,
                hc,
                pv,
                mpv,
                lc_on,
                lc_lines,
                cellbit,
                rinfo,
                sv_hc,
                sv_pv,
                sv_lc,
            )
            blanks[j] = to


def _readonly(array: np.ndarray) -> np.ndarray:
    """A read-only plain-ndarray view, so memory-mapped and built tables share one numba type."""
    view = np.asarray(array).view(np.ndarray)
    view.flags.writeable = False
    return view


class IdaStar:
    """Numba IDA* for one heuristic; reusable across boards (tables are prepared once).

    ``transpositions``: log2 of the slots of a table of boards reached in the current iteration,
    which prunes boards reached again no shallower (0: off). By default it is on (2^20 slots) with
    two or more blanks, where independent slides make many paths to each board, and off with one.
    """

    def __init__(self, heuristic: Heuristic, *, transpositions: int | None = None) -> None:
        self.heuristic = heuristic
        self._layout(heuristic)
        bits = (20 if len(heuristic.goal.blanks) > 1 else 0) if transpositions is None else transpositions
        self.tt_bits = bits if self.key_words > 0 else 0
        self._tt: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self._stamp = 0
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

    def _start(self, board: Board) -> tuple[np.ndarray, ...]:
        geo, heur = self.heuristic.geo, self.heuristic
        occ = np.array([board.cells[int(c)] for c in geo.cells], dtype=np.int64)
        pos = np.zeros(heur.dist.shape[0], dtype=np.int64)
        for m, t in enumerate(occ):
            if t > 0:
                pos[t] = m
        blanks = np.array([geo.index[c] for c in board.blanks], dtype=np.int64)
        n_sets = self.pat_of.shape[0]
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

    def h0(self, board: Board) -> int:
        """The kernel's heuristic value of ``board`` (tests compare it with ``Heuristic.estimate``)."""
        hc = self._start(board)[3]
        return int(_h(hc, self.pat_of.shape[0], self.heuristic.mirror))

    def solve(self, board: Board, *, max_nodes: int = 1 << 62, deadline: float | None = None) -> Solution:
        """An optimal solution of ``board`` (status ``limit`` once ``max_nodes`` expansions are spent)."""
        heur = self.heuristic
        started = time.perf_counter()
        occ, pos, blanks, hc, lc_lines, pv, mpv = self._start(board)
        key = self._key(occ)
        h0 = bound = int(_h(hc, self.pat_of.shape[0], heur.mirror))
        counts = np.zeros(2, dtype=np.int64)
        name = f"idastar/{heur.name}"
        if h0 == 0:
            return Solution((), "solved", name, 0, 0, time.perf_counter() - started, 0)
        while True:
            path_from = np.zeros(bound + 1, dtype=np.int64)
            path_dir = np.zeros(bound + 1, dtype=np.int64)
            length, next_bound = _ida_iteration(
                bound,
                max_nodes,
                counts,
                occ,
                pos,
                blanks,
                heur.geo.neighbours,
                heur.dist,
                hc,
                heur.linear_conflict,
                lc_lines,
                self.rows,
                self.cols,
                self.grow,
                self.gcol,
                self.pat_of,
                self.pat_tiles,
                self.pat_k,
                self.pat_w,
                self.tables,
                self.packed,
                pv,
                mpv,
                heur.mirror,
                heur.mirror_cell,
                heur.mirror_tile,
                path_from,
                path_dir,
                key,
                self.kword,
                self.kshift,
                *self._table(),
                self._next_stamp(),
                self.pat_slots,
                self.cellbit,
                self.rinfo,
            )
            spent = time.perf_counter() - started
            if length >= 0:
                cells = heur.geo.cells
                actions = tuple(action_of(int(cells[path_from[i]]), int(path_dir[i])) for i in range(length))
                return Solution(actions, "solved", name, int(counts[0]), int(counts[1]), spent, h0)
            if length == -2 or (deadline is not None and time.perf_counter() > deadline):
                why = "node limit reached" if length == -2 else "time limit reached"
                why += f" (no solution shorter than {bound} slides)"
                return Solution(None, "limit", name, int(counts[0]), int(counts[1]), spent, h0, why, bound)
            if next_bound >= INFINITY:
                why = "every reachable board was searched"
                return Solution(None, "unsolvable", name, int(counts[0]), int(counts[1]), spent, h0, why)
            bound = next_bound


# ---------------------------------------------------------------------------------------------
# Python searches with a closed set: breadth-first search and A*


def _path(parents: dict[Board, tuple[Board, Action] | None], end: Board) -> tuple[Action, ...]:
    actions = []
    step = parents[end]
    while step is not None:
        end, action = step
        actions.append(action)
        step = parents[end]
    return tuple(reversed(actions))


def bfs(case: PuzzleCase, *, max_nodes: int = 5_000_000) -> Solution:
    """Breadth-first search; proves unsolvability by exhausting the space (small boards only)."""
    started = time.perf_counter()
    parents: dict[Board, tuple[Board, Action] | None] = {case.start: None}
    frontier, expanded, generated = [case.start], 0, 0
    while frontier:
        nxt = []
        for board in frontier:
            if board == case.goal:
                return Solution(
                    _path(parents, board),
                    "solved",
                    "bfs",
                    expanded,
                    generated,
                    time.perf_counter() - started,
                    0,
                )
            if expanded >= max_nodes:
                return Solution(
                    None,
                    "limit",
                    "bfs",
                    expanded,
                    generated,
                    time.perf_counter() - started,
                    0,
                    "node limit reached",
                )
            expanded += 1
            for action in legal_slides(board):
                child = slide(board, action)
                generated += 1
                if child not in parents:
                    parents[child] = (board, action)
                    nxt.append(child)
        frontier = nxt
    why = "every reachable board was searched"
    return Solution(None, "unsolvable", "bfs", expanded, generated, time.perf_counter() - started, 0, why)


def astar(
    case: PuzzleCase, heuristic: Heuristic, *, max_nodes: int = 5_000_000, weight: float = 1.0
) -> Solution:
    """A* with ``heuristic`` (ties: lower h first, then first in); the goal is tested when popped.

    ``weight`` > 1 orders by g + weight * h (weighted A*): the answer is at most ``weight`` times the
    optimal length, and hard boards take far fewer expansions. With the closed set it behaves much
    better than a weighted IDA*, which on the homework board gave answers of twice the optimum.
    """
    if not 1.0 <= weight <= 64.0:
        raise SolverError(f"weight {weight} is out of range: it must be between 1 and 64")
    started = time.perf_counter()
    h0 = heuristic.estimate(case.start)
    g_of: dict[Board, int] = {case.start: 0}
    parents: dict[Board, tuple[Board, Action] | None] = {case.start: None}
    heap: list[tuple[float, int, int, int, Board]] = [(weight * h0, h0, 0, 0, case.start)]
    expanded = generated = order = 0
    name = f"astar/{heuristic.name}" + (f"/w={weight:g}" if weight != 1.0 else "")
    while heap:
        _, _, _, g, board = heapq.heappop(heap)
        if g > g_of[board]:
            continue  # stale: a shorter path to this board was found after the push
        if board == case.goal:
            elapsed = time.perf_counter() - started
            return Solution(
                _path(parents, board), "solved", name, expanded, generated, elapsed, h0, weight=weight
            )
        if expanded >= max_nodes:
            return Solution(
                None,
                "limit",
                name,
                expanded,
                generated,
                time.perf_counter() - started,
                h0,
                "node limit reached",
            )
        expanded += 1
        for action in legal_slides(board):
            child = slide(board, action)
            generated += 1
            if child in g_of and g_of[child] <= g + 1:
                continue
            g_of[child], parents[child] = g + 1, (board, action)
            hc = heuristic.estimate(child)
            order += 1
            heapq.heappush(heap, (g + 1 + weight * hc, hc, order, g + 1, child))
    why = "every reachable board was searched"
    return Solution(None, "unsolvable", name, expanded, generated, time.perf_counter() - started, h0, why)


def solve(
    case: PuzzleCase,
    algorithm: str = "idastar",
    heuristic: Heuristic | None = None,
    *,
    max_nodes: int = 50_000_000,
    deadline: float | None = None,
    weight: float = 1.0,
) -> Solution:
    """Solve ``case`` optimally with ``algorithm`` (bfs, astar or idastar); refuses provably unsolvable cases.

    ``weight`` > 1 (A* only): an answer at most that many times the optimal length, found much sooner.

    >>> from gridarena.games.slidingpuzzle.formats import parse_line
    >>> solve(parse_line("1 2 3 4 5 6 0 7 8")).length
    2
    """
    if algorithm not in ALGORITHMS:
        raise SolverError(f"unknown algorithm {algorithm!r}; choose one of {', '.join(ALGORITHMS)}")
    verdict = check_solvable(case.start, case.goal)
    if verdict.verdict == "unsolvable":
        return Solution(None, "unsolvable", algorithm, 0, 0, 0.0, 0, verdict.reason)
    heuristic = heuristic or make_heuristic(case.goal)
    if heuristic.goal != case.goal:
        raise SolverError("the heuristic's tables were made for another goal board")
    if weight != 1.0 and algorithm != "astar":
        raise SolverError(f"a weight needs A*; {algorithm} searches only optimally")
    if algorithm == "bfs":
        return bfs(case, max_nodes=max_nodes)
    if algorithm == "astar":
        return astar(case, heuristic, max_nodes=max_nodes, weight=weight)
    return IdaStar(heuristic).solve(case.start, max_nodes=max_nodes, deadline=deadline)
