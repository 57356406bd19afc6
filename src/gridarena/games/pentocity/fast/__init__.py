"""Pentocity's hot loops as numba kernels: every placement of a request, and g0's shortest road.

:func:`placement_grids` finds, for every rotation and top-left corner, whether the request can be
built there with road access as it is, or with a road of EMPTY cells that can reach it; this is the
learners' mask (:mod:`gridarena.games.pentocity.encoding`), 10,000 placements a request. The
readable twin is :func:`~gridarena.games.pentocity.encoding.placement_mask_ref` (numpy shifts over
whole grids, about ten times slower). :func:`shortest_road` is the course example player's (g0's)
road search, the same road as :func:`gridarena.games.pentocity.ai.simple.shortest_road` (a
breadth-first search over tuples, a hundred times slower), which the tests hold it to. The kernels
are in :mod:`.kernels`; the first call compiles them (or loads numba's cache).

>>> from gridarena.games.pentocity.land import empty_land
>>> sorted(shortest_road(empty_land(), ((3, 7),)))
[(0, 7), (1, 7), (2, 7)]
>>> valid, as_is = placement_grids(empty_land(), [((0, 0),)], Kind.FACTORY, Mode.FAITHFUL)
>>> bool(valid[0, 1, 1]), bool(as_is[0, 1, 1]), bool(valid[0, 20, 20]), bool(as_is[0, 20, 20])
(True, True, True, False)
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from gridarena.core import kernelcache  # noqa: F401  (first: every file of the game stamps its kernels)
from gridarena.games.pentocity.buildings import Cell, Kind, Shape, boundary
from gridarena.games.pentocity.fast.kernels import corner_rows, land_rows, road_search
from gridarena.games.pentocity.land import SIDE, Land, Mode, opposite

__all__ = ["placement_grids", "shortest_road"]


@functools.lru_cache(maxsize=1024)
def _offsets(shape: Shape) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """The shape's cells and the cells next to it (:func:`~gridarena.games.pentocity.buildings.boundary`)
    as ``(n, 2)`` arrays, made once per shape."""
    cells = np.array(shape, dtype=np.int64).reshape(-1, 2)
    border = np.array(boundary(shape), dtype=np.int64).reshape(-1, 2)
    cells.flags.writeable = border.flags.writeable = False
    return cells, border


def placement_grids(
    land: Land,
    rotations: Sequence[Shape],
    kind: Kind,
    mode: Mode,
    valid: NDArray[Any] | None = None,
    as_is: NDArray[Any] | None = None,
) -> tuple[NDArray[Any], NDArray[Any]]:
    """``(valid, as_is)``, each ``(len(rotations), 50, 50)`` over top-left corners: ``valid`` where
    the rotation can be built with road access as it is or with a road of EMPTY cells joined to the
    edge or the road network; ``as_is`` where it can be built and needs no road. Corners that put the
    shape off the land are 0 in both. They are written into ``valid`` and ``as_is`` when given (any
    array of that shape: the encoding passes views of its flat mask), else into new boolean arrays."""
    shape3 = (len(rotations), SIDE, SIDE)
    valid = np.empty(shape3, dtype=np.bool_) if valid is None else valid
    as_is = np.empty(shape3, dtype=np.bool_) if as_is is None else as_is
    rows = np.empty((3, SIDE), dtype=np.uint64)
    land_rows(land, int(opposite(kind)), mode is Mode.FAITHFUL, rows)
    for r, shape in enumerate(rotations):
        cells, border = _offsets(shape)
        corner_rows(rows, cells, border, valid[r], as_is[r])
    return valid, as_is


def shortest_road(land: Land, cells: Shape) -> frozenset[Cell] | None:
    """g0's road to a building on ``cells`` (all on the land): empty when it touches the edge, None
    when no road can reach it."""
    building = np.zeros((SIDE, SIDE), dtype=np.bool_)
    rows, cols = zip(*cells, strict=True)
    building[list(rows), list(cols)] = True
    path = np.empty(SIDE * SIDE, dtype=np.int32)
    n = road_search(land, building, path)
    if n < 0:
        return None
    return frozenset(divmod(int(c), SIDE) for c in path[:n])
