"""Group 1's metrics of a finished city (``mrain/Pentocity`` ``Record.java``), vectorised with numpy/scipy.

Pairs and neighbours are 4-neighbourhood and inside the land: the edges never count.

>>> from gridarena.games.pentocity.formats import parse_land
>>> m = land_metrics(parse_land("rr#\\nwwww"), score=4)
>>> m.building, m.road, m.resort, m.perimeter, m.extendable
(2, 1, 4, 7, 6)
"""

from __future__ import annotations

from collections import deque
from dataclasses import asdict, dataclass
from typing import Final

import numpy as np
from scipy import ndimage

from gridarena.core.types import JSON
from gridarena.games.pentocity.buildings import Cell
from gridarena.games.pentocity.land import SIDE, CellType, Land, Mask, neighbour_any
from gridarena.games.pentocity.rules import PentocityState

_FOUR: Final = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], dtype=bool)
# Record.java's directions: right, down, left, up.
_G1_DIRECTIONS: Final = ((0, 1), (1, 0), (0, -1), (-1, 0))


@dataclass(frozen=True, slots=True)
class EmptyRegion:
    """A 4-connected group of EMPTY cells: its first cell (row-major), size, perimeter and extendable cells."""

    start: Cell | None
    size: int
    perimeter: int
    extendable: int


@dataclass(frozen=True, slots=True)
class Metrics:
    """The city's figures: group 1's set, with ``perimeter`` counted cleanly and ``perimeter_g1`` as Java did."""

    score: int
    building: int
    empty: int
    road: int
    resort: int
    utility: float | None
    extendable: int
    perimeter: int
    perimeter_g1: int
    largest_empty: EmptyRegion

    def to_json(self) -> dict[str, JSON]:
        """The metrics as a JSON object (the region nested)."""
        data = asdict(self)
        start = self.largest_empty.start
        data["largest_empty"]["start"] = None if start is None else list(start)
        return data


def pair_count(a: Mask, b: Mask) -> int:
    """Number of orthogonally neighbouring (cell in ``a``, cell in ``b``) pairs, each ordered pair once.

    >>> a = np.zeros((3, 3), dtype=bool); a[1, 1] = True
    >>> pair_count(a, ~a)
    4
    """
    return int(
        (a[:, :-1] & b[:, 1:]).sum()
        + (a[:, 1:] & b[:, :-1]).sum()
        + (a[:-1, :] & b[1:, :]).sum()
        + (a[1:, :] & b[:-1, :]).sum()
    )


def largest_empty_region(land: Land) -> EmptyRegion:
    """The largest 4-connected EMPTY region (ties: the one whose first cell comes first row-major)."""
    empty = land == CellType.EMPTY
    labels, count = ndimage.label(empty, structure=_FOUR)
    if count == 0:
        return EmptyRegion(None, 0, 0, 0)
    sizes = np.bincount(labels.ravel())
    sizes[0] = 0
    best = int(np.argmax(sizes))  # ndimage numbers regions in row-major order of their first cell
    region = labels == best
    first = int(np.flatnonzero(region)[0])
    resort = (land == CellType.PARK) | (land == CellType.WATER)
    return EmptyRegion(
        start=divmod(first, SIDE),
        size=int(sizes[best]),
        perimeter=pair_count(region, ~empty),
        extendable=int((region & neighbour_any(resort)).sum()),
    )


def perimeter_g1(land: Land) -> int:
    """Group 1's perimeter, undercounted exactly as ``Record.java`` does.

    Breadth-first over occupied components (start cells row-major, FIFO, right/down/left/up). An
    (occupied, empty) pair counts when met, and a PARK or WATER cell also marks its empty neighbour as
    visited, so that neighbour's later pairs are missed.

    >>> from gridarena.games.pentocity.formats import parse_land
    >>> land = parse_land(".w\\nr.")  # both empty cells (0, 0) and (1, 1) touch the water and the residence
    >>> perimeter_g1(land), pair_count(land != 0, land == 0)
    (4, 6)
    """
    occupied = land != CellType.EMPTY
    resort = (land == CellType.PARK) | (land == CellType.WATER)
    visited = np.zeros((SIDE, SIDE), dtype=bool)
    count = 0
    for start in zip(*np.nonzero(occupied), strict=True):
        if visited[start]:
            continue
        visited[start] = True
        queue: deque[tuple[int, int]] = deque([(int(start[0]), int(start[1]))])
        while queue:
            i, j = queue.popleft()
            for di, dj in _G1_DIRECTIONS:
                a, b = i + di, j + dj
                if not (0 <= a < SIDE and 0 <= b < SIDE) or visited[a, b]:
                    continue
                if occupied[a, b]:
                    visited[a, b] = True
                    queue.append((a, b))
                else:
                    count += 1
                    if resort[i, j]:
                        visited[a, b] = True
    return count


def land_metrics(land: Land, score: int) -> Metrics:
    """Every metric of ``land`` for a game that scored ``score``."""
    empty = land == CellType.EMPTY
    building = int(((land == CellType.RESIDENCE) | (land == CellType.FACTORY)).sum())
    resort_mask = (land == CellType.PARK) | (land == CellType.WATER)
    resort = int(resort_mask.sum())
    return Metrics(
        score=score,
        building=building,
        empty=int(empty.sum()),
        road=int((land == CellType.ROAD).sum()),
        resort=resort,
        utility=(score - building) / resort if resort else None,  # Java gives NaN or infinity here
        extendable=int((empty & neighbour_any(resort_mask)).sum()),
        perimeter=pair_count(~empty, empty),
        perimeter_g1=perimeter_g1(land),
        largest_empty=largest_empty_region(land),
    )


def state_metrics(state: PentocityState) -> Metrics:
    """The metrics of a game state (its land and its score so far)."""
    return land_metrics(state.land, state.score)
