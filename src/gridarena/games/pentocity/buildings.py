"""Buildings: residences (pentominoes) and factories (rectangles), their rotations and the fixed shapes.

A building is a set of cells ``(row, col)`` plus a kind, normalised so that its smallest row and column
are 0 (Java's ``Building`` constructor). Its rotations follow ``Building.rotations()``: only the distinct
ones (1, 2 or 4), never a mirror image.

>>> X.rotations() == (X.cells,)
True
>>> len(PENTO[1].rotations()), len(rect(2, 3).rotations())
(4, 2)
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Final, TypeAlias

from gridarena.core.errors import GridArenaError

Cell: TypeAlias = tuple[int, int]
"""A cell ``(row, col)``; ``(0, 0)`` is the top-left corner and rows grow downwards."""

Shape: TypeAlias = tuple[Cell, ...]
"""Cells sorted row-major."""


class BuildingError(GridArenaError, ValueError):
    """Cells that do not form a building (empty, repeated, negative or not 4-connected)."""


class Kind(enum.Enum):
    """The two kinds of building (Java's ``Building.Type``)."""

    RESIDENCE = "residence"
    FACTORY = "factory"


def is_connected(cells: Iterable[Cell]) -> bool:
    """True when the cells form one 4-connected group (an empty set is not connected).

    >>> is_connected([(0, 0), (0, 1), (1, 1)]), is_connected([(0, 0), (1, 1)])
    (True, False)
    """
    remaining = set(cells)
    if not remaining:
        return False
    stack = [remaining.pop()]
    while stack:
        i, j = stack.pop()
        for n in ((i, j + 1), (i, j - 1), (i + 1, j), (i - 1, j)):
            if n in remaining:
                remaining.remove(n)
                stack.append(n)
    return not remaining


def normalise(cells: Iterable[Cell]) -> Shape:
    """The cells moved so that the smallest row and column are 0, sorted row-major.

    >>> normalise([(3, 5), (2, 6)])
    ((0, 1), (1, 0))
    """
    cells = list(cells)
    top = min(i for i, _ in cells)
    left = min(j for _, j in cells)
    return tuple(sorted((i - top, j - left) for i, j in cells))


def _turn(cells: Shape, quarter_turns: int) -> Shape:
    """``cells`` (normalised) turned clockwise by ``quarter_turns`` times 90 degrees (Java's R1, R2, R3)."""
    h = max(i for i, _ in cells)
    w = max(j for _, j in cells)
    if quarter_turns == 1:
        return tuple(sorted((j, h - i) for i, j in cells))
    if quarter_turns == 2:
        return tuple(sorted((h - i, w - j) for i, j in cells))
    return tuple(sorted((w - j, i) for i, j in cells))


@functools.lru_cache(maxsize=4096)
def rotations_of(cells: Shape) -> tuple[Shape, ...]:
    """Java's ``rotations()``: ``[R0]``, ``[R0, R1]`` or ``[R0, R1, R2, R3]``, tested in that order.

    >>> rotations_of(((0, 0), (0, 1)))
    (((0, 0), (0, 1)), ((0, 0), (1, 0)))
    """
    r1 = _turn(cells, 1)
    if r1 == cells:
        return (cells,)
    if _turn(cells, 2) == cells:
        return (cells, r1)
    return (cells, r1, _turn(cells, 2), _turn(cells, 3))


def boundary(shape: Shape) -> Shape:
    """Offsets next to ``shape`` but not in it (may be negative), sorted.

    >>> boundary(((0, 0),))
    ((-1, 0), (0, -1), (0, 1), (1, 0))
    """
    cells = set(shape)
    out = {(i + di, j + dj) for i, j in shape for di, dj in ((0, 1), (0, -1), (1, 0), (-1, 0))}
    return tuple(sorted(out - cells))


def java_hashset_order(cells: Sequence[Cell]) -> Shape:
    """The order in which a ``java.util.HashSet<Cell>`` filled with ``cells`` (in that order) iterates.

    ``Cell.hashCode`` is ``100*i + j``; the table has 16 buckets up to 12 cells, then doubles at each 0.75
    load; cells sharing a bucket keep their insertion order (also across resizes).

    >>> java_hashset_order([(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)])
    ((0, 0), (4, 0), (1, 0), (2, 0), (3, 0))
    """
    capacity = 16
    while len(cells) > capacity * 3 // 4:
        capacity *= 2
    unique = list(dict.fromkeys(cells))

    def bucket(cell: Cell) -> int:
        h = 100 * cell[0] + cell[1]
        return (h ^ (h >> 16)) & (capacity - 1)

    return tuple(sorted(unique, key=bucket))  # sorted() is stable: insertion order within a bucket


@dataclass(frozen=True, slots=True)
class Building:
    """A request: a kind and a normalised, 4-connected set of cells (rotation 0).

    ``order`` keeps the cells in the order the sequencer produced them (before normalisation), only to
    print them in Java's order; it takes no part in equality.

    >>> Building(Kind.FACTORY, ((5, 5), (5, 6)))
    Building(kind=<Kind.FACTORY: 'factory'>, cells=((0, 0), (0, 1)))
    """

    kind: Kind
    cells: Shape
    order: Shape = field(default=(), compare=False, repr=False)

    def __post_init__(self) -> None:
        raw = tuple((int(i), int(j)) for i, j in self.cells)
        if not raw:
            raise BuildingError("a building needs at least one cell")
        if len(set(raw)) != len(raw):
            raise BuildingError(f"repeated cells in {raw}")
        if not is_connected(raw):
            raise BuildingError(f"Cells not connected: {raw}")
        object.__setattr__(self, "cells", normalise(raw))
        if not self.order:
            object.__setattr__(self, "order", raw)

    @property
    def size(self) -> int:
        """Number of cells."""
        return len(self.cells)

    def rotations(self) -> tuple[Shape, ...]:
        """The distinct rotations, indexed by a move's ``rotation``."""
        return rotations_of(self.cells)

    def java_cells(self) -> Shape:
        """The cells (normalised) in the order Java's sequencer array holds them (HashSet order)."""
        top = min(i for i, _ in self.order)
        left = min(j for _, j in self.order)
        return tuple((i - top, j - left) for i, j in java_hashset_order(self.order))

    def dims(self) -> tuple[int, int]:
        """Rows and columns of the bounding box of rotation 0.

        >>> rect(2, 3).dims()
        (2, 3)
        """
        return max(i for i, _ in self.cells) + 1, max(j for _, j in self.cells) + 1

    def is_rectangle(self) -> bool:
        """True when the cells fill their bounding box."""
        rows, cols = self.dims()
        return rows * cols == self.size

    def shape_name(self) -> str:
        """The free pentomino letter of a 5-cell shape, ``rows×cols`` of a rectangle, else ``n cells``.

        >>> PENTO[8].shape_name(), rect(2, 1).shape_name(), X.shape_name()
        ('N', '2×1', 'X')
        """
        if self.kind is Kind.FACTORY and self.is_rectangle():
            rows, cols = self.dims()
            return f"{rows}×{cols}"
        name = _FREE_NAMES.get(_free_canonical(self.cells))
        if name is not None:
            return name
        if self.is_rectangle():
            rows, cols = self.dims()
            return f"{rows}×{cols}"
        return f"{self.size} cells"

    def statement_problem(self) -> str | None:
        """Why the problem statement would refuse this request, or None when it is valid there.

        >>> rect(1, 6).statement_problem()
        'a factory must be a rectangle with sides 1 to 5, not 1×6'
        """
        if self.kind is Kind.RESIDENCE:
            return None if self.size == 5 else f"a residence must have 5 cells, not {self.size}"
        rows, cols = self.dims()
        if self.is_rectangle() and rows <= 5 and cols <= 5:
            return None
        return f"a factory must be a rectangle with sides 1 to 5, not {self.shape_name()}"


def _free_canonical(cells: Shape) -> Shape:
    """The smallest of the 8 images of ``cells`` under rotation and reflection (the free shape's key)."""
    return min(_all_images(cells))


def _all_images(cells: Shape) -> list[Shape]:
    """All 8 rotations and reflections of ``cells``, normalised."""
    out: list[Shape] = []
    for base in (cells, normalise((i, -j) for i, j in cells)):
        out.append(base)
        out.extend(_turn(base, k) for k in (1, 2, 3))
    return out


def residence(cells: Iterable[Cell]) -> Building:
    """A residence with the given cells (in the sequencer's insertion order)."""
    return Building(Kind.RESIDENCE, tuple(cells))


def rect(rows: int, cols: int) -> Building:
    """Java's ``RECT``: a factory of ``rows`` × ``cols`` cells, inserted row by row.

    >>> rect(2, 2).cells
    ((0, 0), (0, 1), (1, 0), (1, 1))
    """
    return Building(Kind.FACTORY, tuple((i, j) for i in range(rows) for j in range(cols)))


def _parse_picture(picture: str) -> Shape:
    return tuple((i, j) for i, row in enumerate(picture.split("/")) for j, ch in enumerate(row) if ch == "#")


_FREE_PICTURES: Final = {
    "F": ".##/##./.#.",
    "I": "#####",
    "L": "####/#...",
    "N": "##../.###",
    "P": "##/##/#.",
    "T": "###/.#./.#.",
    "U": "#.#/###",
    "V": "#../#../###",
    "W": "#../##./.##",
    "X": ".#./###/.#.",
    "Y": "..#./####",
    "Z": "##./.#./.##",
}
_FREE_NAMES: Final = {min(_all_images(_parse_picture(p))): name for name, p in _FREE_PICTURES.items()}

X: Final = residence([(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)])
I_H: Final = residence([(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)])
T_DOWN: Final = residence([(0, 0), (0, 1), (0, 2), (1, 1), (2, 1)])
T_RIGHT: Final = residence([(0, 0), (1, 0), (2, 0), (1, 1), (1, 2)])
TANK_A: Final = residence([(0, 0), (0, 1), (0, 2), (1, 0), (1, 1)])
TANK_B: Final = residence([(0, 0), (0, 1), (1, 0), (1, 1), (1, 2)])
U_3S: Final = residence([(0, 0), (0, 1), (1, 1), (2, 1), (2, 0)])

#: The 18 one-sided pentominoes as g5's ``Pentominos`` and g8's sequencer list them (cells in source order).
PENTO: Final = tuple(
    residence(cells)
    for cells in (
        [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)],
        [(0, 1), (0, 2), (1, 0), (1, 1), (2, 1)],
        [(0, 0), (0, 1), (1, 1), (1, 2), (2, 1)],
        [(0, 0), (0, 1), (1, 0), (2, 0), (3, 0)],
        [(0, 0), (0, 1), (1, 1), (2, 1), (3, 1)],
        [(0, 0), (0, 1), (1, 0), (1, 1), (2, 1)],
        [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)],
        [(0, 1), (1, 1), (2, 0), (2, 1), (3, 0)],
        [(0, 0), (1, 0), (2, 0), (2, 1), (3, 1)],
        [(0, 0), (0, 1), (0, 2), (1, 1), (2, 1)],
        [(0, 0), (1, 0), (1, 1), (1, 2), (0, 2)],
        [(0, 0), (0, 1), (0, 2), (1, 2), (2, 2)],
        [(0, 0), (0, 1), (1, 1), (1, 2), (2, 2)],
        [(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)],
        [(0, 1), (1, 0), (1, 1), (2, 1), (3, 1)],
        [(0, 0), (1, 0), (1, 1), (2, 0), (3, 0)],
        [(0, 0), (0, 1), (1, 1), (2, 1), (2, 2)],
        [(0, 1), (0, 2), (1, 1), (2, 1), (2, 0)],
    )
)

#: g2's ten residences, in cycle order (STAR, LSHAPE, TSHAPE, RSHAPE, USHAPE, SQUASH, RSQUASH, LINE, ...).
G2: Final = tuple(
    residence(cells)
    for cells in (
        [(1, 0), (1, 1), (1, 2), (0, 1), (2, 1)],
        [(0, 0), (0, 1), (0, 2), (0, 3), (1, 3)],
        [(0, 0), (1, 0), (2, 0), (1, 1), (1, 2)],
        [(0, 0), (0, 1), (0, 2), (0, 3), (1, 0)],
        [(0, 0), (0, 1), (1, 1), (2, 1), (2, 0)],
        [(0, 0), (0, 1), (0, 2), (1, 2), (1, 1)],
        [(1, 0), (1, 1), (1, 2), (0, 2), (0, 1)],
        [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)],
        [(0, 1), (1, 1), (2, 1), (2, 0), (3, 0)],
        [(0, 0), (0, 1), (0, 2), (1, 2), (2, 2)],
    )
)

#: g3's six residences (``resShapes``); the constructor normalises index 2.
G3: Final = tuple(
    residence(cells)
    for cells in (
        [(0, 0), (1, 0), (1, 1), (1, 2), (2, 2)],
        [(1, 0), (1, 1), (1, 2), (0, 1), (0, 2)],
        [(1, 0), (1, 1), (1, 2), (1, 3), (2, 3)],
        [(2, 0), (1, 0), (1, 1), (1, 2), (0, 2)],
        [(0, 0), (0, 1), (0, 2), (0, 3), (1, 3)],
        [(1, 0), (1, 1), (1, 2), (0, 1), (2, 1)],
    )
)
