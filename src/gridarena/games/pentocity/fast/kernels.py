"""Pentocity's placement grids and g0's shortest road as numba kernels over the 50x50 land.

Each kernel takes a whole job (every corner of a rotation, a whole breadth-first search), since every
call from Python has a fixed cost. The placement kernels keep each row of the land in one 64-bit
word (bit ``j`` is column ``j``), so a shape's cells are tested for fifty corners at once: a first
version over a boolean grid, corner by corner, took about 20 us a rotation, these about 2. Their readable twins, which the tests hold them to, are
:func:`gridarena.games.pentocity.encoding.placement_mask_ref` (numpy shifts over whole grids) and
:func:`gridarena.games.pentocity.ai.simple.shortest_road` (a breadth-first search over tuples).

Cell codes are :class:`~gridarena.games.pentocity.land.CellType`'s: 0 EMPTY, 5 ROAD.
"""

from __future__ import annotations

import numpy as np
from numba import njit

SIDE = 50
EMPTY = 0
ROAD = 5
_DI = (0, 0, 1, -1)
_DJ = (1, -1, 0, 0)
"""Java's ``Cell.neighbors()`` order: right, left, down, up (the search's tie-breaks depend on it)."""


@njit(cache=True)
def land_rows(land: np.ndarray, bad: int, faithful: bool, rows: np.ndarray) -> None:
    """Three grids of ``land`` as bit rows (bit ``j`` of ``rows[g, i]`` is cell ``(i, j)``).

    ``rows[0]`` buildable: EMPTY with no neighbour of code ``bad`` (the opposite building type).
    ``rows[1]`` access: a building cell here has road access as it is (faithful: a neighbour that is
    ROAD or on the edge; statement: on the edge or next to ROAD). ``rows[2]`` reach: EMPTY cells
    joined through EMPTY cells to a start of g0's road search (an EMPTY cell on the edge or next to
    ROAD), filled by sweeps down and up the rows until nothing changes.
    """
    one = np.uint64(1)
    full = (one << np.uint64(SIDE)) - one
    empty = np.zeros(SIDE, dtype=np.uint64)
    road = np.zeros(SIDE, dtype=np.uint64)
    near = np.zeros(SIDE, dtype=np.uint64)  # first the bad cells, then their neighbours
    for i in range(SIDE):
        for j in range(SIDE):
            code = land[i, j]
            bit = one << np.uint64(j)
            if code == EMPTY:
                empty[i] |= bit
            elif code == ROAD:
                road[i] |= bit
            elif code == bad:
                near[i] |= bit
    side_columns = one | (one << np.uint64(SIDE - 1))
    inner_edge = (one << one) | (one << np.uint64(SIDE - 2))  # cells whose neighbour is a side column
    for i in range(SIDE):
        edge = full if i == 0 or i == SIDE - 1 else side_columns
        bad_near = ((near[i] << one) | (near[i] >> one)) & full
        road_near = ((road[i] << one) | (road[i] >> one)) & full
        if i > 0:
            bad_near |= near[i - 1]
            road_near |= road[i - 1]
        if i < SIDE - 1:
            bad_near |= near[i + 1]
            road_near |= road[i + 1]
        rows[0, i] = empty[i] & ~bad_near
        if faithful:
            edge_near = full if i <= 1 or i >= SIDE - 2 else side_columns | inner_edge
            rows[1, i] = road_near | edge_near
        else:
            rows[1, i] = road_near | edge
        rows[2, i] = empty[i] & (road_near | edge)
    changed = True
    while changed:
        changed = False
        for sweep in range(2 * SIDE):
            i = sweep if sweep < SIDE else 2 * SIDE - 1 - sweep
            x = rows[2, i]
            if i > 0:
                x |= rows[2, i - 1] & empty[i]
            if i < SIDE - 1:
                x |= rows[2, i + 1] & empty[i]
            while True:  # along the row, inside its EMPTY runs
                grown = (x | (x << one) | (x >> one)) & empty[i]
                if grown == x:
                    break
                x = grown
            if x != rows[2, i]:
                rows[2, i] = x
                changed = True


@njit(cache=True)
def corner_rows(
    rows: np.ndarray, cells: np.ndarray, border: np.ndarray, valid: np.ndarray, as_is: np.ndarray
) -> None:
    """Every top-left corner of one rotation at once, a row of corners a word (from ``land_rows``).

    ``as_is[i, j]``: every cell of the shape at corner ``(i, j)`` is buildable and one has access as
    it is; ``valid[i, j]``: buildable, and access as it is or a cell of ``border`` (the cells next to
    the shape) in reach. ``cells`` and ``border`` are ``(n, 2)`` offsets from the corner; both outputs
    are 50x50 and 0 on corners that put the shape off the land.
    """
    one = np.uint64(1)
    h = 0
    w = 0
    for k in range(cells.shape[0]):
        h = max(h, cells[k, 0])
        w = max(w, cells[k, 1])
    corners = (one << np.uint64(SIDE - w)) - one
    valid[:, :] = 0
    as_is[:, :] = 0
    for i in range(SIDE - h):
        ok = corners
        access = np.uint64(0)
        for k in range(cells.shape[0]):
            shift = np.uint64(cells[k, 1])
            ok &= rows[0, i + cells[k, 0]] >> shift
            access |= rows[1, i + cells[k, 0]] >> shift
        if ok == 0:
            continue
        touch = np.uint64(0)
        for k in range(border.shape[0]):
            a, dj = i + border[k, 0], border[k, 1]
            if 0 <= a < SIDE:
                touch |= rows[2, a] >> np.uint64(dj) if dj >= 0 else rows[2, a] << np.uint64(-dj)
        for j in range(SIDE - w):
            bit = one << np.uint64(j)
            if ok & bit:
                as_is[i, j] = (access & bit) != 0
                valid[i, j] = ((access | touch) & bit) != 0


@njit(cache=True)
def road_search(land: np.ndarray, building: np.ndarray, path: np.ndarray) -> int:
    """g0's road to the building (``building``: 50x50 booleans), written to ``path`` as cell numbers
    ``i * 50 + j`` from the building back to the start: the number of cells, 0 when the building
    touches the edge, -1 when no road reaches it.

    Breadth-first from the EMPTY edge cells and the EMPTY cells next to ROAD (row by row), through
    EMPTY cells not in the building; the first cell taken from the queue that has a neighbour in
    the building (neighbours right, left, down, up) ends the search."""
    for i in range(SIDE):
        for j in range(SIDE):
            if building[i, j] and (i == 0 or j == 0 or i == SIDE - 1 or j == SIDE - 1):
                return 0
    previous = np.full(SIDE * SIDE, -2, dtype=np.int32)  # -2 not seen, -1 a start
    queue = np.empty(SIDE * SIDE, dtype=np.int32)
    tail = 0
    for i in range(SIDE):
        for j in range(SIDE):
            if land[i, j] != EMPTY or building[i, j]:
                continue
            start = i == 0 or j == 0 or i == SIDE - 1 or j == SIDE - 1
            for k in range(4):
                a, b = i + _DI[k], j + _DJ[k]
                if 0 <= a < SIDE and 0 <= b < SIDE and land[a, b] == ROAD:
                    start = True
            if start:
                previous[i * SIDE + j] = -1
                queue[tail] = i * SIDE + j
                tail += 1
    head = 0
    while head < tail:
        p = queue[head]
        head += 1
        i, j = divmod(p, SIDE)
        for k in range(4):
            a, b = i + _DI[k], j + _DJ[k]
            if not (0 <= a < SIDE and 0 <= b < SIDE):
                continue
            if building[a, b]:
                n = 0
                while p >= 0:
                    path[n] = p
                    n += 1
                    p = previous[p]
                return n
            x = a * SIDE + b
            if previous[x] == -2 and land[a, b] == EMPTY:
                previous[x] = p
                queue[tail] = x
                tail += 1
    return -1
