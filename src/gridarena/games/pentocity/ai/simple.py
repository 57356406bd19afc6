"""Pentocity players: the course's example player (g0) and a naive row-by-row packer.

Candidate placements are scored for a whole rotation at once: each test (buildable, road access, cost of
the road still needed) is a boolean or integer grid over top-left corners, built from shifted copies of
the land, never a Python loop per cell.

>>> from gridarena.games.pentocity.simulator import play
>>> play(Pentocity(sequencer="g6"), RowByRowBot(), seed=1).final_state.score > 1000
True
"""

from __future__ import annotations

from collections import deque
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray
from scipy import ndimage

from gridarena.core.bot import BaseBot, Decision
from gridarena.core.clock import TimeControl
from gridarena.core.types import GameState
from gridarena.games.pentocity.buildings import Cell, Kind, Shape
from gridarena.games.pentocity.land import (
    SIDE,
    CellType,
    Land,
    Mask,
    Move,
    access_mask,
    buildable_cells,
    edge_mask,
    group_mask,
)
from gridarena.games.pentocity.rules import Pentocity, PentocityState
from gridarena.games.pentocity.sequencers import grid_neighbours, trace_back

UNREACHABLE: Final = 10_000
_FOUR: Final = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], dtype=bool)
_EDGE: Final = edge_mask(1)


def window_all(mask: Mask, shape: Shape) -> Mask:
    """For each top-left corner q that keeps ``shape`` on the land: every cell of ``shape + q`` in ``mask``."""
    h, w = max(i for i, _ in shape), max(j for _, j in shape)
    out = np.ones((SIDE - h, SIDE - w), dtype=bool)
    for di, dj in shape:
        out &= mask[di : di + SIDE - h, dj : dj + SIDE - w]
    return out


def boundary(shape: Shape) -> Shape:
    """Offsets next to ``shape`` but not in it (may be negative), sorted.

    >>> boundary(((0, 0),))
    ((-1, 0), (0, -1), (0, 1), (1, 0))
    """
    cells = set(shape)
    out = {(i + di, j + dj) for i, j in shape for di, dj in ((0, 1), (0, -1), (1, 0), (-1, 0))}
    return tuple(sorted(out - cells))


def road_distance(land: Land) -> NDArray[np.int32]:
    """Road cells needed so that a road reaches each EMPTY cell (1 on the border or next to a road;
    UNREACHABLE where no path of EMPTY cells exists), by repeated dilation inside the EMPTY cells."""
    empty = land == CellType.EMPTY
    dist = np.full((SIDE, SIDE), UNREACHABLE, dtype=np.int32)
    frontier = empty & (_EDGE | ndimage.binary_dilation(land == CellType.ROAD, structure=_FOUR))
    step = 1
    while frontier.any():
        dist[frontier] = step
        grown = ndimage.binary_dilation(frontier, structure=_FOUR) & empty & (dist == UNREACHABLE)
        frontier, step = grown, step + 1
    return dist


def road_cost(
    land: Land, shape: Shape, kind: Kind, pentocity: Pentocity, distance: NDArray[np.int32] | None = None
) -> NDArray[np.int32]:
    """For each top-left corner: UNREACHABLE if ``shape`` is not buildable there, 0 if it has road access
    as it is, else the fewest road cells (through EMPTY cells) that would give it access.

    ``distance`` is ``road_distance(land)`` when the caller already has it (one per move, not per rotation).
    A path counted here may run through the building's own cells, so the true road can be longer."""
    h, w = max(i for i, _ in shape), max(j for _, j in shape)
    ok = window_all(buildable_cells(land, kind), shape)
    access = np.zeros_like(ok)
    has_access = access_mask(land, pentocity.mode)
    for di, dj in shape:
        access |= has_access[di : di + SIDE - h, dj : dj + SIDE - w]
    distance = road_distance(land) if distance is None else distance
    dist = np.pad(distance, 1, constant_values=UNREACHABLE)
    cost = np.full(ok.shape, UNREACHABLE, dtype=np.int32)
    for di, dj in boundary(shape):
        np.minimum(cost, dist[di + 1 : di + 1 + SIDE - h, dj + 1 : dj + 1 + SIDE - w], out=cost)
    cost[access] = 0
    cost[~ok] = UNREACHABLE
    return cost


def shortest_road(land: Land, cells: Shape) -> frozenset[Cell] | None:
    """g0's road: breadth-first from the EMPTY border cells and the EMPTY cells next to roads, through EMPTY
    cells not in the building, to a cell next to it. Empty when the building touches the border; None when
    no road can reach it.

    >>> from gridarena.games.pentocity.land import empty_land
    >>> sorted(shortest_road(empty_land(), ((3, 7),)))
    [(0, 7), (1, 7), (2, 7)]
    """
    building = set(cells)
    if any(_EDGE[c] for c in building):
        return frozenset()
    empty = land == CellType.EMPTY
    previous: dict[Cell, Cell | None] = {}
    queue: deque[Cell] = deque()
    near_road = ndimage.binary_dilation(land == CellType.ROAD, structure=_FOUR)
    for i, j in zip(*np.nonzero(empty & (_EDGE | near_road)), strict=True):
        cell = (int(i), int(j))
        if cell not in building:
            previous[cell] = None
            queue.append(cell)
    while queue:
        p = queue.popleft()
        for x in grid_neighbours(p):
            if x in building:
                return trace_back(previous, p)
            if x not in previous and empty[x]:
                previous[x] = p
                queue.append(x)
    return None


def _state(state: GameState[Any]) -> PentocityState:
    if not isinstance(state, PentocityState) or state.request is None:
        raise TypeError("a Pentocity bot needs a Pentocity state with a pending request")
    return state


class ExampleBot(BaseBot):
    """The course's example player (``pentos/g0``): a random buildable placement, the shortest road to it
    (rejecting when there is none), and for residences a random 4-cell pond and field beside it."""

    name = "example"

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        st = _state(state)
        request, land = st.request, st.land
        assert request is not None
        rotations = request.rotations()
        corners = [np.argwhere(window_all(buildable_cells(land, request.kind), r)) for r in rotations]
        total = sum(len(c) for c in corners)
        if total == 0:
            return Decision(Move.reject())
        k = self.rng.randrange(total)
        rotation = 0
        while k >= len(corners[rotation]):
            k -= len(corners[rotation])
            rotation += 1
        qi, qj = (int(v) for v in corners[rotation][k])
        cells = tuple((i + qi, j + qj) for i, j in rotations[rotation])
        road = shortest_road(land, cells)
        if road is None:
            return Decision(Move.reject())
        water: frozenset[Cell] = frozenset()
        park: frozenset[Cell] = frozenset()
        if request.kind is Kind.RESIDENCE:
            water = self._walk(land, cells, set(road), 4)
            park = self._walk(land, cells, set(road) | water, 4)
        return Decision(Move.build((qi, qj), rotation, road, water, park), {"road_cells": len(road)})

    def _walk(self, land: Land, cells: Shape, marked: set[Cell], n: int) -> frozenset[Cell]:
        """g0's ``randomWalk``: n connected EMPTY cells from beside the building; none if a pond or field
        already touches it or the walk gets stuck."""
        building = set(cells)
        resort = group_mask(land, CellType.WATER) | group_mask(land, CellType.PARK)
        start: list[Cell] = []
        for p in cells:
            for q in grid_neighbours(p):
                if resort[q]:
                    return frozenset()
                if q not in building and q not in marked and land[q] == CellType.EMPTY:
                    start.append(q)
        if not start:
            return frozenset()
        tail = start[self.rng.randrange(len(start))]
        out: set[Cell] = set()
        for _ in range(n):
            free = [
                p
                for p in grid_neighbours(tail)
                if p not in building and p not in marked and land[p] == CellType.EMPTY and p not in out
            ]
            if not free:
                return frozenset()
            out.add(tail)
            tail = free[self.rng.randrange(len(free))]
        return frozenset(out)


class RowByRowBot(BaseBot):
    """Naive packing: residences at the first place row by row from the top, factories from the bottom,
    each with the shortest road it needs; no parks or water."""

    name = "rowbyrow"

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        st = _state(state)
        request = st.request
        assert request is not None
        candidates: list[tuple[int, int, int, int]] = []
        distance = road_distance(st.land)
        for rotation, shape in enumerate(request.rotations()):
            cost = road_cost(st.land, shape, request.kind, st.pentocity, distance)
            for i, j in np.argwhere(cost < UNREACHABLE):
                row = int(i) if request.kind is Kind.RESIDENCE else -int(i)
                column = int(j) if request.kind is Kind.RESIDENCE else -int(j)
                candidates.append((row, column, rotation, int(cost[i, j])))
        for row, column, rotation, needed in sorted(candidates)[:50]:
            location = (abs(row), abs(column))
            shape = request.rotations()[rotation]
            cells = tuple((i + location[0], j + location[1]) for i, j in shape)
            road = frozenset() if needed == 0 else shortest_road(st.land, cells)
            if road is not None:
                return Decision(Move.build(location, rotation, road), {"road_cells": len(road)})
        return Decision(Move.reject())
