"""Text forms of Pentocity moves, requests and lands, each with its parser.

Move text (compact, one line)::

    reject
    12,7 r1                                  building at row 12, column 7, rotation 1
    12,7 r1 road 12,6 13,6 water 3,4 3,5 park 9,9

A placement is ``ROW,COL``, then ``rK``, then optional sections ``road``, ``water`` and ``park``, each
followed by its cells ``ROW,COL`` (printed sorted row-major; empty sections are left out).

Request text: the kind and the normalised cells, e.g. ``residence 0,1 1,0 1,1 1,2 2,1``.

Land text: 50 rows of 50 characters, ``.`` EMPTY, ``r`` RESIDENCE, ``f`` FACTORY, ``w`` WATER,
``p`` PARK, ``#`` ROAD. The parser also accepts fewer or shorter rows (the rest is EMPTY), which keeps
small test cases small.

>>> move = parse_move("12,7 r1 road 12,6 13,6")
>>> move_to_text(move)
'12,7 r1 road 12,6 13,6'
>>> move_to_text(parse_move("reject"))
'reject'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

import numpy as np

from gridarena.core.errors import ActionParseError, StateFormatError
from gridarena.games.pentocity.buildings import Building, BuildingError, Cell, Kind
from gridarena.games.pentocity.land import SIDE, CellType, Land, Move, frozen

CELL_CHARS: Final = {
    CellType.EMPTY: ".",
    CellType.RESIDENCE: "r",
    CellType.FACTORY: "f",
    CellType.WATER: "w",
    CellType.PARK: "p",
    CellType.ROAD: "#",
}
_CHAR_TYPES: Final = {ch: t for t, ch in CELL_CHARS.items()}
_SECTIONS: Final = ("road", "water", "park")


def cell_to_text(cell: Cell) -> str:
    """``(3, 4)`` as ``3,4``."""
    return f"{cell[0]},{cell[1]}"


def parse_cell(text: str) -> Cell:
    """Inverse of :func:`cell_to_text`; ActionParseError on anything else.

    >>> parse_cell("-1,49")
    (-1, 49)
    """
    row, sep, col = text.partition(",")
    try:
        if not sep:
            raise ValueError
        return int(row), int(col)
    except ValueError:
        raise ActionParseError(f"expected a cell ROW,COL, got {text!r}") from None


def _cells_text(cells: Iterable[Cell]) -> str:
    return " ".join(cell_to_text(c) for c in sorted(cells))


def move_to_text(move: Move) -> str:
    """The compact one-line form of ``move`` (see the module docstring)."""
    if not move.accept:
        return "reject"
    parts = [cell_to_text(move.location), f"r{move.rotation}"]
    for name in _SECTIONS:
        cells = getattr(move, name)
        if cells:
            parts.append(f"{name} {_cells_text(cells)}")
    return " ".join(parts)


def parse_move(text: str) -> Move:
    """Inverse of :func:`move_to_text`; ActionParseError saying which token is wrong."""
    tokens = text.split()
    if tokens == ["reject"]:
        return Move.reject()
    if len(tokens) < 2:
        raise ActionParseError(
            f"expected 'reject' or 'ROW,COL rK [road ...] [water ...] [park ...]': {text!r}"
        )
    location = parse_cell(tokens[0])
    if not tokens[1].startswith("r") or not tokens[1][1:].lstrip("-").isdigit():
        raise ActionParseError(f"expected a rotation rK as token 2, got {tokens[1]!r} in {text!r}")
    sets: dict[str, set[Cell]] = {name: set() for name in _SECTIONS}
    current: str | None = None
    for token in tokens[2:]:
        if token in sets:
            current = token
        elif current is None:
            raise ActionParseError(f"expected 'road', 'water' or 'park' before {token!r} in {text!r}")
        else:
            sets[current].add(parse_cell(token))
    return Move.build(location, int(tokens[1][1:]), sets["road"], sets["water"], sets["park"])


def request_to_text(building: Building) -> str:
    """A request as its kind and normalised cells.

    >>> from gridarena.games.pentocity.buildings import rect
    >>> request_to_text(rect(1, 2))
    'factory 0,0 0,1'
    """
    return f"{building.kind.value} {_cells_text(building.cells)}"


def parse_request(text: str) -> Building:
    """Inverse of :func:`request_to_text`."""
    kind_text, _, rest = text.strip().partition(" ")
    try:
        kind = Kind(kind_text)
    except ValueError:
        raise ActionParseError(f"expected 'residence' or 'factory' first, got {kind_text!r}") from None
    try:
        return Building(kind, tuple(parse_cell(t) for t in rest.split()))
    except BuildingError as err:
        raise ActionParseError(f"{text!r}: {err}") from None


def request_line(index: int, building: Building) -> str:
    """One request as a line of the Java sequencers' output: number, kind, shape, rotations, cells in Java order.

    >>> from gridarena.games.pentocity.buildings import X
    >>> request_line(3, X)
    '3. residence X (1 rot.): (0,1) (1,0) (1,1) (1,2) (2,1)'
    """
    cells = " ".join(f"({i},{j})" for i, j in building.java_cells())
    rotations = len(building.rotations())
    return f"{index}. {building.kind.value} {building.shape_name()} ({rotations} rot.): {cells}"


def land_to_text(land: Land) -> str:
    """The land as 50 lines of 50 characters (no trailing newline)."""
    table = np.array([CELL_CHARS[CellType(t)] for t in range(len(CELL_CHARS))])
    return "\n".join("".join(row) for row in table[land])


def parse_land(text: str) -> Land:
    """A read-only land from text; missing rows and columns are EMPTY. StateFormatError names line and column.

    >>> land = parse_land("..#\\n.rr")
    >>> int(land[0, 2]) == CellType.ROAD, int(land[1, 1]) == CellType.RESIDENCE
    (True, True)
    """
    lines = text.split("\n")
    while lines and not lines[-1].strip():
        lines.pop()  # trailing blank lines; leading ones are rows of EMPTY cells
    if len(lines) > SIDE:
        raise StateFormatError(f"land: {len(lines)} rows, at most {SIDE} allowed")
    land = np.zeros((SIDE, SIDE), dtype=np.uint8)
    for row, line in enumerate(lines):
        line = line.rstrip()
        if len(line) > SIDE:
            raise StateFormatError(f"land line {row + 1}: {len(line)} columns, at most {SIDE} allowed")
        for col, ch in enumerate(line):
            if ch not in _CHAR_TYPES:
                raise StateFormatError(
                    f"land line {row + 1}, column {col + 1}: unknown cell character {ch!r}"
                )
            land[row, col] = _CHAR_TYPES[ch]
    return frozen(land)
