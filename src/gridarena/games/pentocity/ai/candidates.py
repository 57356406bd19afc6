"""Every placement of a request, with its features, computed as whole-grid numpy arrays.

For one rotation, a feature is a ``(50-h) × (50-w)`` grid over top-left corners, built by adding or
or-ing shifted copies of a padded land mask: one slice per cell (or boundary cell) of the shape, never a
Python loop per location. :func:`candidates` stacks the rotations into flat arrays, one entry per valid
placement, so a player ranks them all with one ``np.lexsort`` or one weighted sum.

>>> from gridarena.games.pentocity.buildings import rect
>>> from gridarena.games.pentocity.land import empty_land
>>> c = candidates(empty_land(), rect(2, 3), Pentocity())
>>> len(c), int(c.road.min()), int(c.contact.max())  # 49×48 + 48×49 corners; 5 off-land cells in a corner
(4704, 0, 5)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, TypeAlias

import numpy as np
from numpy.typing import NDArray

from gridarena.games.pentocity.ai.simple import UNREACHABLE, boundary, road_cost, road_distance
from gridarena.games.pentocity.buildings import Building, Cell, Kind, Shape
from gridarena.games.pentocity.land import SIDE, CellType, Land, Mask, group_mask
from gridarena.games.pentocity.rules import Pentocity

IntGrid: TypeAlias = NDArray[np.int32]

#: Cells a new pond or field takes when nothing can be extended (a group needs 4 cells to count).
NEW_GROUP_CELLS: Final = 4
_FAR: Final = 99


def window_reduce(grid: NDArray[np.int32], offsets: Shape, h: int, w: int, how: str, fill: int) -> IntGrid:
    """For each top-left corner q of an ``(h+1) × (w+1)`` box on the land: sum, min or max of ``grid``
    over ``offsets + q`` (offsets may reach one cell outside the box; cells off the land read ``fill``).

    >>> g = np.arange(SIDE * SIDE, dtype=np.int32).reshape(SIDE, SIDE)
    >>> int(window_reduce(g, ((0, 0), (0, 1)), 0, 1, "sum", 0)[0, 0]), int(window_reduce(g, ((-1, 0),), 0, 0, "min", 7)[0, 0])
    (1, 7)
    """
    padded = np.pad(grid.astype(np.int32), 1, constant_values=fill)
    rows, cols = SIDE - h, SIDE - w
    views = [padded[di + 1 : di + 1 + rows, dj + 1 : dj + 1 + cols] for di, dj in offsets]
    if how == "sum":
        return np.asarray(np.sum(views, axis=0), dtype=np.int32)
    if how == "min":
        return np.asarray(np.min(views, axis=0), dtype=np.int32)
    return np.asarray(np.max(views, axis=0), dtype=np.int32)


def group_distance(land: Land, kind: CellType) -> IntGrid:
    """Cells of ``kind`` needed on an EMPTY cell so that it joins a group of 4+ (a pond or a field):
    1 next to such a group, 2 next to those, ...; capped at :data:`NEW_GROUP_CELLS` (a new group).

    >>> land = np.zeros((SIDE, SIDE), dtype=np.uint8); land[0, :4] = CellType.WATER
    >>> d = group_distance(land, CellType.WATER)
    >>> int(d[1, 0]), int(d[2, 0]), int(d[9, 9]), int(d[0, 0])
    (1, 2, 4, 99)
    """
    empty = land == CellType.EMPTY
    dist = np.full((SIDE, SIDE), _FAR, dtype=np.int32)
    dist[empty] = NEW_GROUP_CELLS
    frontier = group_mask(land, kind)
    for step in range(1, NEW_GROUP_CELLS):
        grown = np.zeros_like(frontier)
        grown[1:, :] |= frontier[:-1, :]
        grown[:-1, :] |= frontier[1:, :]
        grown[:, 1:] |= frontier[:, :-1]
        grown[:, :-1] |= frontier[:, 1:]
        frontier = grown & empty & (dist > step)
        dist[frontier] = step
    return dist


@dataclass(frozen=True, slots=True)
class Candidates:
    """Valid placements of one request (flat arrays, one entry per placement).

    ``road``: road cells still needed (0 = access as is; a lower bound when positive); ``contact``: cells
    around the building that are built on or off the land; ``pond``/``field``: True when a pond or field
    already touches it; ``water``/``park``: cells needed to touch one (0 when it already does, at most 4).
    """

    rotation: NDArray[np.int32]
    row: NDArray[np.int32]
    col: NDArray[np.int32]
    road: NDArray[np.int32]
    contact: NDArray[np.int32]
    water: NDArray[np.int32]
    park: NDArray[np.int32]
    height: NDArray[np.int32]
    width: NDArray[np.int32]

    def __len__(self) -> int:
        return int(self.rotation.size)

    @property
    def pond(self) -> Mask:
        """Placements a pond already touches."""
        return np.asarray(self.water == 0)

    @property
    def field(self) -> Mask:
        """Placements a field already touches."""
        return np.asarray(self.park == 0)

    def location(self, k: int) -> Cell:
        """Top-left corner of placement ``k``."""
        return int(self.row[k]), int(self.col[k])

    def cells(self, k: int, request: Building) -> Shape:
        """The land cells placement ``k`` of ``request`` occupies."""
        qi, qj = self.location(k)
        return tuple((i + qi, j + qj) for i, j in request.rotations()[int(self.rotation[k])])


def _rotation_features(
    land: Land, shape: Shape, kind: Kind, game: Pentocity, maps: dict[str, IntGrid]
) -> list[NDArray[np.int32]] | None:
    """The flat features of one rotation (see :class:`Candidates`), or None when it fits nowhere."""
    h, w = max(i for i, _ in shape), max(j for _, j in shape)
    road = road_cost(land, shape, kind, game, maps["distance"])
    valid = road < UNREACHABLE
    if not valid.any():
        return None
    ring = boundary(shape)
    contact = window_reduce(maps["blocked"], ring, h, w, "sum", 1)
    water = window_reduce(maps["water"], ring, h, w, "min", _FAR)
    park = window_reduce(maps["park"], ring, h, w, "min", _FAR)
    rows, cols = np.nonzero(valid)
    size = rows.size
    return [
        np.full(size, 0, dtype=np.int32),
        rows.astype(np.int32),
        cols.astype(np.int32),
        road[valid],
        contact[valid],
        np.minimum(water[valid], NEW_GROUP_CELLS),
        np.minimum(park[valid], NEW_GROUP_CELLS),
        np.full(size, h + 1, dtype=np.int32),
        np.full(size, w + 1, dtype=np.int32),
    ]


def land_maps(land: Land) -> dict[str, IntGrid]:
    """Per-move grids shared by every rotation: road distance, built-on cells, pond and field distances.

    Pond cells get distance 0 (a building next to one has the bonus), as do field cells.
    """
    water = group_distance(land, CellType.WATER)
    water[group_mask(land, CellType.WATER)] = 0
    park = group_distance(land, CellType.PARK)
    park[group_mask(land, CellType.PARK)] = 0
    return {
        "distance": road_distance(land),
        "blocked": (land != CellType.EMPTY).astype(np.int32),
        "water": water,
        "park": park,
    }


def candidates(
    land: Land, request: Building, game: Pentocity, maps: dict[str, IntGrid] | None = None
) -> Candidates:
    """Every buildable placement of ``request`` that a road can reach, over all its rotations."""
    maps = land_maps(land) if maps is None else maps
    parts: list[list[NDArray[np.int32]]] = []
    for rotation, shape in enumerate(request.rotations()):
        features = _rotation_features(land, shape, request.kind, game, maps)
        if features is not None:
            features[0][:] = rotation
            parts.append(features)
    if not parts:
        empty = np.zeros(0, dtype=np.int32)
        return Candidates(*(empty for _ in range(9)))
    return Candidates(*(np.concatenate(column) for column in zip(*parts, strict=True)))
