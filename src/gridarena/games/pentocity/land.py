"""The 50×50 land as a read-only numpy array, the Move, and the vectorised grid tests the rules share.

Every test here works on whole boolean grids (numpy shifts and ``scipy.ndimage.label``) rather than a
Python loop per cell, so placement search and scoring stay fast for bots.

>>> land = empty_land()
>>> land.shape, int(land.sum()), land.flags.writeable
((50, 50), 0, False)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final, TypeAlias

import numpy as np
from numpy.typing import NDArray
from scipy import ndimage

from gridarena.games.pentocity.buildings import Cell, Kind, Shape

SIDE: Final = 50

Land: TypeAlias = NDArray[np.uint8]
"""A 50×50 array of :class:`CellType` codes; states keep it read-only."""

Mask: TypeAlias = NDArray[np.bool_]

_FOUR: Final = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], dtype=bool)


class CellType(enum.IntEnum):
    """A cell's type; the names are Java's ``Cell.Type`` (they appear in the simulator's messages)."""

    EMPTY = 0
    RESIDENCE = 1
    FACTORY = 2
    WATER = 3
    PARK = 4
    ROAD = 5


class Mode(enum.Enum):
    """``faithful``: the Java simulator with its quirks; ``statement``: the problem statement's rules."""

    FAITHFUL = "faithful"
    STATEMENT = "statement"


def frozen(land: Land) -> Land:
    """``land`` marked read-only (states never change their array after construction)."""
    land.flags.writeable = False
    return land


def empty_land() -> Land:
    """A fresh, read-only, all-EMPTY land."""
    return frozen(np.zeros((SIDE, SIDE), dtype=np.uint8))


def in_grid(cell: Cell) -> bool:
    """True for cells inside the 50×50 land.

    >>> in_grid((0, 49)), in_grid((50, 0)), in_grid((-1, 3))
    (True, False, False)
    """
    return 0 <= cell[0] < SIDE and 0 <= cell[1] < SIDE


@dataclass(frozen=True, slots=True)
class Move:
    """The player's answer to a request: a rejection, or a placement with roads, water and parks.

    ``location`` is the top-left corner of the rotated shape's bounding box; ``rotation`` indexes the
    request's distinct rotations. The cell sets may hold anything the player wrote (even cells outside the
    land): the rules, not the constructor, say what is wrong with a move.

    >>> Move.build((3, 4), 1, road=[(3, 3)]).road
    frozenset({(3, 3)})
    """

    accept: bool
    location: Cell = (0, 0)
    rotation: int = 0
    road: frozenset[Cell] = field(default=frozenset())
    water: frozenset[Cell] = field(default=frozenset())
    park: frozenset[Cell] = field(default=frozenset())

    def __post_init__(self) -> None:
        object.__setattr__(self, "location", (int(self.location[0]), int(self.location[1])))
        for name in ("road", "water", "park"):
            cells = frozenset((int(i), int(j)) for i, j in getattr(self, name))
            object.__setattr__(self, name, cells)

    @classmethod
    def reject(cls) -> Move:
        """Java's ``Move(false)``."""
        return cls(False)

    @classmethod
    def build(
        cls,
        location: Cell,
        rotation: int = 0,
        road: Iterable[Cell] = (),
        water: Iterable[Cell] = (),
        park: Iterable[Cell] = (),
    ) -> Move:
        """An accepted move (Java's ``Move(true, request, location, rotation, road, water, park)``)."""
        return cls(True, location, rotation, frozenset(road), frozenset(water), frozenset(park))


def neighbour_any(mask: Mask) -> Mask:
    """Cells with at least one in-grid orthogonal neighbour in ``mask``.

    >>> m = np.zeros((3, 3), dtype=bool); m[1, 1] = True
    >>> neighbour_any(m).astype(int).tolist()
    [[0, 1, 0], [1, 0, 1], [0, 1, 0]]
    """
    out = np.zeros_like(mask)
    out[1:, :] |= mask[:-1, :]
    out[:-1, :] |= mask[1:, :]
    out[:, 1:] |= mask[:, :-1]
    out[:, :-1] |= mask[:, 1:]
    return out


def edge_mask(depth: int = 1) -> Mask:
    """Cells within ``depth`` rows or columns of the edge of the land."""
    mask = np.zeros((SIDE, SIDE), dtype=bool)
    mask[:depth, :] = mask[-depth:, :] = True
    mask[:, :depth] = mask[:, -depth:] = True
    return mask


EDGE: Final = edge_mask(1)
EDGE.flags.writeable = False


def group_mask(land: Land, kind: CellType, min_size: int = 4) -> Mask:
    """Cells of type ``kind`` whose 4-connected group has at least ``min_size`` cells (ponds, fields)."""
    labels, count = ndimage.label(land == kind, structure=_FOUR)
    if count == 0:
        return np.zeros(land.shape, dtype=bool)
    sizes = np.bincount(labels.ravel())
    big = sizes >= min_size
    big[0] = False
    return np.asarray(big[labels], dtype=bool)


def roads_connected(land: Land) -> bool:
    """True when every ROAD cell reaches the virtual ring of road just outside the land (as the simulator checks).

    >>> land = np.zeros((SIDE, SIDE), dtype=np.uint8); land[5, 0:3] = CellType.ROAD
    >>> roads_connected(land)
    True
    >>> land[9, 9] = CellType.ROAD; roads_connected(land)
    False
    """
    frame = np.zeros((SIDE + 2, SIDE + 2), dtype=bool)
    frame[1:-1, 1:-1] = land == CellType.ROAD
    # Java's ring lacks the frame corner (0, 0); the ring stays connected without it.
    frame[1:, 0] = frame[0, 1:] = frame[1:, -1] = frame[-1, 1:] = True
    _, count = ndimage.label(frame, structure=_FOUR)
    return bool(count == 1)


def access_mask(land: Land, mode: Mode) -> Mask:
    """Cells that give a building cell on them road access (``Land.build``'s test).

    Faithful: a neighbour that is ROAD or lies on the edge, so rows and columns 0, 1, 48 and 49 all
    qualify (Java tests the neighbour's position, not the building cell's). Statement: a cell on the
    edge or next to a ROAD cell.

    >>> land = empty_land()
    >>> bool(access_mask(land, Mode.FAITHFUL)[1, 1]), bool(access_mask(land, Mode.STATEMENT)[1, 1])
    (True, False)
    """
    road = land == CellType.ROAD
    if mode is Mode.FAITHFUL:
        return neighbour_any(road | EDGE)
    return neighbour_any(road) | EDGE


def opposite(kind: Kind) -> CellType:
    """The cell type a building of ``kind`` may not touch."""
    return CellType.FACTORY if kind is Kind.RESIDENCE else CellType.RESIDENCE


def buildable_cells(land: Land, kind: Kind) -> Mask:
    """EMPTY cells with no neighbour of the opposite building type: where a cell of ``kind`` may go."""
    free: Mask = land == CellType.EMPTY
    return free & ~neighbour_any(land == opposite(kind))


def _window_all(mask: Mask, shape: Shape) -> Mask:
    """For each top-left corner q that keeps ``shape`` in the land: all of ``mask`` at ``shape + q``."""
    h = max(i for i, _ in shape)
    w = max(j for _, j in shape)
    out = np.ones((SIDE - h, SIDE - w), dtype=bool)
    for di, dj in shape:
        out &= mask[di : di + SIDE - h, dj : dj + SIDE - w]
    return out


def _window_any(mask: Mask, shape: Shape) -> Mask:
    """For each top-left corner q that keeps ``shape`` in the land: any of ``mask`` at ``shape + q``."""
    h = max(i for i, _ in shape)
    w = max(j for _, j in shape)
    out = np.zeros((SIDE - h, SIDE - w), dtype=bool)
    for di, dj in shape:
        out |= mask[di : di + SIDE - h, dj : dj + SIDE - w]
    return out


def placement_mask(land: Land, shape: Shape, kind: Kind, mode: Mode) -> Mask:
    """Top-left corners (a ``(50-h) × (50-w)`` grid) where ``shape`` is buildable with road access as is.

    >>> land = empty_land()
    >>> m = placement_mask(land, ((0, 0),), Kind.FACTORY, Mode.FAITHFUL)
    >>> bool(m[1, 1]), bool(m[2, 2])
    (True, False)
    """
    ok = _window_all(buildable_cells(land, kind), shape)
    return ok & _window_any(access_mask(land, mode), shape)


def shape_neighbourhood(shape: Shape, location: Cell) -> Mask:
    """In-grid cells orthogonally next to some cell of ``shape`` placed at ``location`` (shape cells included
    when they neighbour each other, as in Java's ``adjacent_points``)."""
    cells = np.zeros((SIDE, SIDE), dtype=bool)
    for di, dj in shape:
        cells[di + location[0], dj + location[1]] = True
    return neighbour_any(cells)
