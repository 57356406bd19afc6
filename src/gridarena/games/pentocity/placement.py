"""A move's check and effect, in the Java simulator's order: ``resolve_move`` gives a placement or why not.

The checks run as the Java ``Simulator.play`` runs them, so the first failure is the one
Java reports, with Java's message (``Violation.message``) and the offending detail.
"""

from __future__ import annotations

from dataclasses import dataclass

from gridarena.core.errors import IllegalActionError
from gridarena.games.pentocity.buildings import Building, Cell, Kind, Shape, java_hashset_order
from gridarena.games.pentocity.land import (
    EDGE,
    SIDE,
    CellType,
    Land,
    Mode,
    Move,
    frozen,
    group_mask,
    opposite,
    roads_connected,
    shape_neighbourhood,
)


@dataclass(frozen=True, slots=True)
class Violation:
    """Why a move is invalid: the check that failed, the Java simulator's message and the offending detail."""

    check: str
    message: str
    detail: str = ""

    def __str__(self) -> str:
        return f"{self.message} ({self.detail})" if self.detail else self.message


class InvalidMoveError(IllegalActionError):
    """An accepted move the simulator refuses; ``violation`` names the check, Java's message and the cell."""

    def __init__(self, violation: Violation) -> None:
        super().__init__(f"pentocity: {violation}")
        self.violation = violation


@dataclass(frozen=True, slots=True)
class Placement:
    """A valid move's effect: the new land, the points scored and the building's cells on the land."""

    land: Land
    delta: int
    cells: Shape


def _cell_problem(cell: Cell, land: Land, name: str) -> Violation | None:
    """Java's failure when ``cell`` of the move's ``name`` set is built on ``land``, or None."""
    i, j = cell
    if i >= SIDE or j >= SIDE:
        index = i if i >= SIDE else j  # Java indexes land[i][j]: the row first
        return Violation("index", f"Index {index} out of bounds for length {SIDE}", f"{name} cell {cell}")
    if land[i, j] != CellType.EMPTY:
        return Violation(
            "land", f"Land not empty. Contains {CellType(land[i, j]).name}", f"{name} cell {cell}"
        )
    return None


def _negative(move: Move) -> Violation | None:
    """Java's ``Cell`` constructor refuses negative coordinates, so such a move never reaches the land."""
    named = [("location", move.location)] + [
        (name, c) for name in ("water", "park", "road") for c in sorted(getattr(move, name))
    ]
    for name, (i, j) in named:
        if i < 0:
            return Violation("negative", "Negative row", f"{name} cell {(i, j)}")
        if j < 0:
            return Violation("negative", "Negative column", f"{name} cell {(i, j)}")
    return None


def _build_extras(land: Land, move: Move) -> Land | Violation:
    """``land`` (a copy) with the move's water, then parks, then roads (Java's order), or the first failure."""
    work = land.copy()
    for name, kind in (("water", CellType.WATER), ("park", CellType.PARK), ("road", CellType.ROAD)):
        # Java walks each HashSet in its own order; only the choice among several failures depends on it.
        for cell in java_hashset_order(sorted(getattr(move, name))):
            problem = _cell_problem(cell, work, name)
            if problem is not None:
                return problem
            work[cell] = kind
    return work


def _unbuildable(land: Land, kind: Kind, cells: Shape) -> Violation | None:
    """Why the simulator's ``buildable`` fails for these absolute cells, or None."""
    bad = opposite(kind)
    for i, j in cells:
        if not (0 <= i < SIDE and 0 <= j < SIDE):
            return Violation("buildable", "Building not buildable.", f"cell {(i, j)} is outside the land")
        if land[i, j] != CellType.EMPTY:
            found = CellType(land[i, j]).name
            return Violation("buildable", "Building not buildable.", f"cell {(i, j)} contains {found}")
        for a, b in ((i, j + 1), (i, j - 1), (i + 1, j), (i - 1, j)):
            if 0 <= a < SIDE and 0 <= b < SIDE and land[a, b] == bad:
                return Violation("buildable", "Building not buildable.", f"cell {(i, j)} touches {bad.name}")
    return None


def has_road_access(land: Land, shape: Shape, location: Cell, mode: Mode) -> bool:
    """Road access (``Land.build``'s test) for a building about to occupy ``shape + location`` (faithful: the two-cell edge quirk).

    >>> from gridarena.games.pentocity.land import empty_land
    >>> land = empty_land()
    >>> has_road_access(land, ((0, 0),), (1, 1), Mode.FAITHFUL), has_road_access(land, ((0, 0),), (2, 2), Mode.FAITHFUL)
    (True, False)
    >>> has_road_access(land, ((0, 0),), (1, 1), Mode.STATEMENT)
    False
    """
    near = shape_neighbourhood(shape, location)
    road = land == CellType.ROAD
    if mode is Mode.FAITHFUL:
        return bool((near & (road | EDGE)).any())
    on_edge = any(EDGE[di + location[0], dj + location[1]] for di, dj in shape)
    return on_edge or bool((near & road).any())


def placement_score(land: Land, shape: Shape, location: Cell, kind: Kind, mode: Mode) -> int:
    """Points for a building on ``shape + location`` of ``land`` (which already holds this move's cells).

    Size, plus 2 next to a pond and 2 next to a field (4+ connected WATER / PARK cells). Faithful mode
    gives the bonuses to factories too; the statement gives them to residences only.
    """
    score = len(shape)
    if kind is Kind.FACTORY and mode is Mode.STATEMENT:
        return score
    near = shape_neighbourhood(shape, location)
    for cell_type in (CellType.WATER, CellType.PARK):
        if (near & (land == cell_type)).any() and (near & group_mask(land, cell_type)).any():
            score += 2
    return score


def resolve_move(land: Land, request: Building, move: Move, mode: Mode) -> Placement | Violation:
    """Apply an accepted ``move`` to ``land`` exactly as ``Simulator.play`` does, or say why it fails.

    The checks run in ``Simulator.play``'s order, so the first failure is the one Java reports.
    """
    negative = _negative(move)  # in Java the player's own `new Cell(-1, j)` throws, before any check
    if negative is not None:
        return negative
    rotations = request.rotations()
    if not 0 <= move.rotation < len(rotations):
        detail = f"rotation {move.rotation}; this request has {len(rotations)} distinct rotation(s)"
        return Violation("rotation", "Invalid building rotation", detail)
    work = _build_extras(land, move)
    if isinstance(work, Violation):
        return work
    if not roads_connected(work):  # Java validates the whole network after every accepted move
        return Violation("roads", "Roads not connected", "a road cell does not reach the edge through roads")
    shape = rotations[move.rotation]
    qi, qj = move.location
    cells = tuple((i + qi, j + qj) for i, j in shape)
    unbuildable = _unbuildable(work, request.kind, cells)
    if unbuildable is not None:
        return unbuildable
    if not has_road_access(work, shape, move.location, mode):
        return Violation("access", "Invalid building placement", "Building not next to road.")
    building_type = CellType.RESIDENCE if request.kind is Kind.RESIDENCE else CellType.FACTORY
    rows, cols = zip(*cells, strict=True)
    work[list(rows), list(cols)] = building_type
    delta = placement_score(work, shape, move.location, request.kind, mode)
    return Placement(frozen(work), delta, cells)
