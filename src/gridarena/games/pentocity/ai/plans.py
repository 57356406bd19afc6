"""What a placement needs besides the building: its road, and the water or park cells that earn a bonus.

A bonus needs a pond (4+ connected WATER cells) or a field (4+ PARK cells) next to the building. The
cheapest plan extends a group that is already there by a short path of new cells; otherwise a new group of
4 cells is grown beside the building as a random walk, and of several walks the one with the least
exposed perimeter (fewest EMPTY neighbours) is kept, as group 1's final player did.

>>> from gridarena.games.pentocity.land import empty_land
>>> land = np.asarray(empty_land()).copy(); land[10, 10:14] = CellType.WATER
>>> sorted(extend_group(land, ((12, 12),), CellType.WATER, frozenset()))
[(11, 12)]
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable
from typing import Final

import numpy as np
from numpy.typing import NDArray

from gridarena.games.pentocity.ai.simple import UNREACHABLE
from gridarena.games.pentocity.buildings import Cell, Shape
from gridarena.games.pentocity.land import SIDE, CellType, Land, Mask, group_mask
from gridarena.games.pentocity.sequencers import grid_neighbours, trace_back

_FAR_ROAD: Final = UNREACHABLE
_EMPTY: Final = int(CellType.EMPTY)  # plain ints: enum attribute lookups dominated the profile

#: Longest path of new cells worth laying to reach an existing group (a new group costs 4).
MAX_EXTENSION: Final = 3
GROUP_SIZE: Final = 4


def around(cells: Iterable[Cell]) -> set[Cell]:
    """In-grid cells orthogonally next to ``cells`` and not among them.

    >>> sorted(around([(0, 0)]))
    [(0, 1), (1, 0)]
    """
    inside = set(cells)
    return {n for c in inside for n in grid_neighbours(c)} - inside


def extend_group(
    land: Land, cells: Shape, kind: CellType, reserved: frozenset[Cell], groups_mask: Mask | None = None
) -> frozenset[Cell] | None:
    """The fewest new ``kind`` cells (at most :data:`MAX_EXTENSION`) joining ``cells`` to an existing
    pond or field; empty when one already touches them, None when no short path exists.

    The path runs through EMPTY cells outside ``cells`` and ``reserved`` (this move's other cells).
    ``groups_mask`` is ``group_mask(land, kind)`` when the caller already has it.
    """
    groups = (group_mask(land, kind) if groups_mask is None else groups_mask).tolist()
    grid = land.tolist()
    if any(groups[i][j] for i, j in around(cells)):
        return frozenset()
    start = [(i, j) for i, j in sorted(around(cells)) if grid[i][j] == _EMPTY and (i, j) not in reserved]
    blocked = set(cells) | reserved
    previous: dict[Cell, Cell | None] = {c: None for c in start}
    queue: deque[tuple[Cell, int]] = deque((c, 1) for c in start)
    while queue:
        cell, length = queue.popleft()
        if any(groups[i][j] for i, j in grid_neighbours(cell)):
            return trace_back(previous, cell)
        if length == MAX_EXTENSION:
            continue
        for n in grid_neighbours(cell):
            if n not in previous and n not in blocked and grid[n[0]][n[1]] == _EMPTY:
                previous[n] = cell
                queue.append((n, length + 1))
    return None


def exposed(land: Land, cells: Iterable[Cell], taken: set[Cell]) -> int:
    """EMPTY cells next to ``cells`` that are not in ``taken``: the perimeter a new group leaves open."""
    grid = land.tolist()
    return sum(1 for i, j in around(cells) if grid[i][j] == _EMPTY and (i, j) not in taken)


def walk_group(
    land: Land, cells: Shape, reserved: frozenset[Cell], rng: random.Random, tries: int = 8
) -> frozenset[Cell] | None:
    """A new 4-cell group beside ``cells``: of ``tries`` random walks, the one with the least exposed
    perimeter (ties: the first drawn); None when no walk finds 4 free cells."""
    blocked = set(cells) | reserved
    grid = land.tolist()
    start = [(i, j) for i, j in sorted(around(cells)) if grid[i][j] == _EMPTY and (i, j) not in blocked]
    if not start:
        return None
    best: frozenset[Cell] | None = None
    best_open = SIDE * SIDE
    for _ in range(tries):
        group = _grow(grid, rng.choice(start), blocked, rng)
        if group is None:
            continue
        open_cells = exposed(land, group, blocked | group)
        if open_cells < best_open:
            best, best_open = frozenset(group), open_cells
    return best


def _grow(grid: list[list[int]], first: Cell, blocked: set[Cell], rng: random.Random) -> set[Cell] | None:
    """Grow a connected set from ``first``, adding a random free neighbour of the set each step."""
    group = {first}
    while len(group) < GROUP_SIZE:
        frontier = sorted(n for n in around(group) if n not in blocked and grid[n[0]][n[1]] == _EMPTY)
        if not frontier:
            return None
        group.add(rng.choice(frontier))
    return group


def compact_group(land: Land, cells: Shape, reserved: frozenset[Cell]) -> frozenset[Cell] | None:
    """A new 4-cell group beside ``cells`` chosen greedily: each added cell is the free neighbour of the
    group with the most built-on or off-land neighbours (it fills a hole rather than open land)."""
    blocked = set(cells) | reserved
    grid = land.tolist()
    start = [(i, j) for i, j in sorted(around(cells)) if grid[i][j] == _EMPTY and (i, j) not in blocked]
    if not start:
        return None
    taken = blocked
    best: frozenset[Cell] | None = None
    best_open = SIDE * SIDE
    for first in start:
        group = {first}
        while len(group) < GROUP_SIZE:
            frontier = [n for n in around(group) if n not in taken and grid[n[0]][n[1]] == _EMPTY]
            if not frontier:
                break
            near = taken | group
            group.add(max(sorted(frontier), key=lambda n: _closed(grid, n, near)))
        if len(group) == GROUP_SIZE:
            open_cells = sum(1 for i, j in around(group) if grid[i][j] == _EMPTY and (i, j) not in taken)
            if open_cells < best_open:
                best, best_open = frozenset(group), open_cells
    return best


def _closed(grid: list[list[int]], cell: Cell, taken: set[Cell]) -> int:
    """Sides of ``cell`` that are off the land, built on, or taken by this move."""
    i, j = cell
    sides = 0
    for a, b in ((i, j + 1), (i, j - 1), (i + 1, j), (i - 1, j)):
        if not (0 <= a < SIDE and 0 <= b < SIDE) or grid[a][b] != _EMPTY or (a, b) in taken:
            sides += 1
    return sides


def with_cells(land: Land, cells: Iterable[Cell], kind: CellType) -> Land:
    """A copy of ``land`` with ``cells`` set to ``kind`` (for planning the next part of a move)."""
    out = np.array(land, copy=True)
    for cell in cells:
        out[cell] = kind
    return out


def descend_road(
    distance: NDArray[np.int32], cells: Shape, land: Land | None = None
) -> frozenset[Cell] | None:
    """A shortest road to ``cells`` read off ``distance`` (``road_distance`` of the land): from the
    cheapest free cell beside the building, step down the distance to 1 (a cell on the edge or next to a
    road). None when every such descent would cross the building (then a breadth-first search decides).

    With ``land``, ties go to the cell with the most sides against built cells, the edge or the
    building (the perimeter tie-break: the road hugs what is there); without it, to the first in order.

    >>> from gridarena.games.pentocity.ai.simple import road_distance
    >>> from gridarena.games.pentocity.land import empty_land
    >>> sorted(descend_road(road_distance(empty_land()), ((3, 7),)))
    [(0, 7), (1, 7), (2, 7)]
    """
    inside = set(cells)
    dist = distance.tolist()
    grid = None if land is None else land.tolist()

    def key(c: Cell) -> tuple[int, int]:
        return dist[c[0]][c[1]], 0 if grid is None else -_closed(grid, c, inside)

    start = min(sorted(around(cells)), key=key)
    if dist[start[0]][start[1]] >= _FAR_ROAD:
        return None
    path = [start]
    cell = start
    while dist[cell[0]][cell[1]] > 1:
        level = dist[cell[0]][cell[1]] - 1
        steps = [n for n in grid_neighbours(cell) if n not in inside and dist[n[0]][n[1]] == level]
        if not steps:
            return None
        cell = min(steps, key=key)
        path.append(cell)
    return frozenset(path)
