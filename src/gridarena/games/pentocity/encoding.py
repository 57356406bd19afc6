"""Pentocity's moves as integers: reject, or a rotation at a corner with the shortest road it needs.

A move's road, water and park cells make its space far too large to enumerate, so learners choose
from ``PLACEMENT_ACTIONS`` = 10,001 integers:

* ``REJECT`` (0): reject the request;
* ``1 + rotation * 2500 + row * 50 + col``: the request in that rotation with the top-left corner of
  its bounding box on (row, col), plus the course example player's (g0's) shortest road to it when
  it has no road access as it is (:func:`~gridarena.games.pentocity.ai.simple.shortest_road`). No water or
  parks: the pond and field bonuses are out of this space's reach.

An index is legal when its move is valid (:func:`placement_mask`): the building fits, and it has road
access as it is or a road of EMPTY cells can reach it from the edge or the road network.

>>> from gridarena.games.pentocity import Pentocity
>>> state = Pentocity(sequencer="g6").new_initial_state(seed=1)
>>> state = state.apply_action(state.chance_outcomes()[0][0])
>>> mask = placement_mask(state)
>>> bool(mask[REJECT]), int(mask.sum()) > 1000
(True, True)
>>> road = index_to_move(state, placement_index(0, (20, 20))).road
>>> len(road), min(road)
(20, (0, 20))
"""

from __future__ import annotations

from typing import Final

import numpy as np
from numpy.typing import NDArray
from scipy import ndimage

from gridarena.core.errors import ActionParseError
from gridarena.games.pentocity.ai.simple import boundary, shortest_road, window_all
from gridarena.games.pentocity.buildings import Cell, Shape
from gridarena.games.pentocity.land import (
    EDGE,
    SIDE,
    CellType,
    Land,
    Mask,
    Move,
    buildable_cells,
    neighbour_any,
)
from gridarena.games.pentocity.land import (
    placement_mask as as_is_mask,
)
from gridarena.games.pentocity.placement import has_road_access
from gridarena.games.pentocity.rules import PentocityState

REJECT: Final = 0
ROTATIONS: Final = 4
PLACEMENT_ACTIONS: Final = 1 + ROTATIONS * SIDE * SIDE
_FOUR: Final = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], dtype=bool)


def placement_index(rotation: int, location: Cell) -> int:
    """The index of a placement (its road is implied).

    >>> placement_index(1, (0, 3))
    2504
    """
    return 1 + rotation * SIDE * SIDE + location[0] * SIDE + location[1]


def move_to_index(move: Move) -> int:
    """The index of a rejection or of a placement without water or parks (its road is implied)."""
    if not move.accept:
        return REJECT
    (i, j), rotation = move.location, move.rotation
    if move.water or move.park or not (0 <= rotation < ROTATIONS and 0 <= i < SIDE and 0 <= j < SIDE):
        raise ActionParseError(
            "pentocity: only rejections and placements without water or parks have an index"
        )
    return placement_index(rotation, (i, j))


def index_to_move(state: PentocityState, index: int) -> Move:
    """The move of ``index`` for the pending request: with g0's shortest road when it needs one."""
    if not 0 <= index < PLACEMENT_ACTIONS:
        raise ActionParseError(f"pentocity: placement index {index} is outside 0..{PLACEMENT_ACTIONS - 1}")
    if index == REJECT or state.request is None:
        return Move.reject()
    rotation, corner = divmod(index - 1, SIDE * SIDE)
    location = divmod(corner, SIDE)
    rotations = state.request.rotations()
    if rotation >= len(rotations):
        return Move.build(location, rotation)  # an invalid rotation: the rules will say so
    shape = rotations[rotation]
    cells = tuple((i + location[0], j + location[1]) for i, j in shape)
    if not all(0 <= i < SIDE and 0 <= j < SIDE for i, j in cells):
        return Move.build(location, rotation)
    if has_road_access(state.land, shape, location, state.pentocity.mode):
        return Move.build(location, rotation)
    road = shortest_road(state.land, cells)
    return Move.build(location, rotation, road or ())


def road_reach(land: Land) -> Mask:
    """EMPTY cells that a road of EMPTY cells can join to the edge or to the road network (where
    :func:`~gridarena.games.pentocity.ai.simple.shortest_road` starts), by labelling the EMPTY regions."""
    empty = land == CellType.EMPTY
    labels, _ = ndimage.label(empty, structure=_FOUR)
    starts = empty & (EDGE | neighbour_any(land == CellType.ROAD))
    reached = np.zeros(labels.max() + 1, dtype=bool)
    reached[labels[starts]] = True
    reached[0] = False
    return np.asarray(reached[labels], dtype=bool)


def placement_mask(state: PentocityState) -> NDArray[np.int8]:
    """1 for every index whose move is valid now (the rejection always is); zeros off a decision."""
    mask = np.zeros(PLACEMENT_ACTIONS, dtype=np.int8)
    if state.request is None or state.is_terminal():
        return mask
    mask[REJECT] = 1
    land, mode, kind = state.land, state.pentocity.mode, state.request.kind
    reach = np.pad(road_reach(land), 1)
    buildable = buildable_cells(land, kind)
    for rotation, shape in enumerate(state.request.rotations()):
        ok = as_is_mask(land, shape, kind, mode) | (window_all(buildable, shape) & _touches(reach, shape))
        grid = np.zeros((SIDE, SIDE), dtype=np.int8)
        grid[: ok.shape[0], : ok.shape[1]] = ok
        start = 1 + rotation * SIDE * SIDE
        mask[start : start + SIDE * SIDE] = grid.reshape(-1)
    return mask


def _touches(padded: Mask, shape: Shape) -> Mask:
    """For each corner: a cell next to the shape (``padded`` has a border of one) is set."""
    h, w = max(i for i, _ in shape), max(j for _, j in shape)
    out = np.zeros((SIDE - h, SIDE - w), dtype=bool)
    for di, dj in boundary(shape):
        out |= padded[di + 1 : di + 1 + SIDE - h, dj + 1 : dj + 1 + SIDE - w]
    return out
