"""The solvers' heuristic, readable: wall-respecting distances, linear conflicts, PDB sums, mirrored lookups.

All admissible: the sum over tiles of the wall-respecting distance home (Manhattan distance on a board
without walls), plus linear conflicts on wall-free one-blank boards; with pattern databases, the
maximum of that and the sum of the disjoint PDB values (plus the distance of tiles in no pattern), and,
on a goal symmetric about the main diagonal, the same sum over the mirrored board. Several disjoint
sets take the largest of their sums. :meth:`Heuristic.estimate` is the oracle of the IDA* kernel's
incremental twin (``incremental.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from gridarena.core.errors import GridArenaError
from gridarena.games.slidingpuzzle.board import WALL, Board, cell_distances
from gridarena.games.slidingpuzzle.fast.indexing import Geometry
from gridarena.games.slidingpuzzle.pdb.partitions import (
    BuildProgress,
    build_tables,
    load_set,
    pattern_sets,
    table_jobs,
)
from gridarena.games.slidingpuzzle.pdb.table import PatternDatabase


class SolverError(GridArenaError, ValueError):
    """A solver asked to do something it cannot (mismatched databases, a mirror that does not apply)."""


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

        >>> from gridarena.games.slidingpuzzle.board import goal_board
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

    >>> from gridarena.games.slidingpuzzle.board import goal_board, homework_goal
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


def pdb_heuristic(
    goal: Board,
    name: str,
    directory: str | None = None,
    *,
    mirror: bool | None = None,
    build: bool = True,
    progress: Callable[[BuildProgress], None] | None = None,
) -> Heuristic:
    """The heuristic of partition ``name``, its tables loaded from ``directory`` (default: the cache).

    ``build``: build the missing tables there first (``progress`` hears how far the build has come; see
    :func:`~gridarena.games.slidingpuzzle.pdb.partitions.build_tables`). ``a/b`` names several disjoint
    sets, e.g. ``7-7-1/6-6-3``: h is the maximum of their sums. A set name ending in ``r`` (``6-6-3r``)
    uses tables keyed by the blanks' regions too (storage ``r4``).
    """
    if build:
        for _ in build_tables(goal, table_jobs(goal, name, directory), progress):
            pass
    pdbs, groups = [], []
    for number, chosen in enumerate(pattern_sets(goal, name)):
        pdbs += load_set(goal, chosen.patterns, directory, regions=chosen.regions)
        groups += [number] * len(chosen.patterns)
    return make_heuristic(goal, pdbs, mirror=mirror, groups=groups)
