"""Ice and Fire's constants and geometry: the 12 x 12 grid, the map of a game, cells as bit masks.

Cells are indices ``y * 12 + x``. A map (:class:`Board`) is what never changes in a game: void cells,
mine spots, each cell's neighbours in each player's MOVE order and the path distances (the
referee's ``Pathfinding``). A set of cells is also a 144-bit integer (bit c for cell c), so that the
activity flood (cells joined to the HQ) grows a whole frontier with a few shifts (:func:`flood`).

>>> cell_of(11, 10), xy(131), mine_cost("contest", 2)
(131, (11, 10), 28)
>>> bin(flood(1, 0b111 | 1 << 5))  # cells 0-2 joined to cell 0; cell 5 is not
'0b111'
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Final

from gridarena.core.errors import StateFormatError

SIZE: Final = 12
CELLS: Final = SIZE * SIZE

RED: Final = 0
BLUE: Final = 1
NEUTRAL: Final = 2
"""``owner`` of a neutral cell (and the owner of no unit)."""
VOID: Final = 3
"""``owner`` of a void cell (never entered, never changes)."""
PLAYER_NAMES: Final = ("red", "blue")

HQ: Final = 0
MINE: Final = 1
TOWER: Final = 2
NO_BUILDING: Final = -1
BUILDING_NAMES: Final = ("HQ", "MINE", "TOWER")

MAX_TURNS: Final = 100
START_GOLD: Final = 20
UNIT_COST: Final = (0, 10, 20, 30)
"""Cost of a unit by level (index 0 unused)."""
UPKEEP: Final = (0, 1, 4, 20)
"""Upkeep per turn of a unit by level (index 0: no unit, no upkeep)."""
MINE_INCOME: Final = 4
TOWER_COST: Final = 15
CAPTURE_LEVEL: Final = 3
"""The level that may enter a tower and the cells it protects."""
MINE_BASE_COST: Final = 20
MINE_COST_STEP: Final = 4
MULTI_MINE_COST: Final = 15
HQ_CELLS: Final = (0, CELLS - 1)
"""The HQ cell of red (0,0) and blue (11,11)."""
BLUE_START_CELL: Final = 10 * SIZE + 11
"""(11,10): blue also owns it at the start (no building on it)."""

UP, RIGHT, DOWN, LEFT = (0, -1), (1, 0), (0, 1), (-1, 0)
DIRECTION_ORDER: Final = ((UP, RIGHT, DOWN, LEFT), (DOWN, LEFT, UP, RIGHT))
"""The order in which each player's MOVE tries the neighbours (blue's is red's turned by a half-turn)."""


def cell_of(x: int, y: int) -> int:
    """The cell index of (x, y): ``y * 12 + x``."""
    return y * SIZE + x


def xy(cell: int) -> tuple[int, int]:
    """(x, y) of a cell index."""
    return cell % SIZE, cell // SIZE


def max_level(league: str) -> int:
    """The highest trainable level (``MAX_LEVEL``): 1 in Wood 3, else 3."""
    return 1 if league == "wood3" else 3


def mine_cost(rules: str, mines_owned: int) -> int:
    """The MINE price: contest 20 + 4 * (MINEs owned now, inactive ones included); multi 15 flat.

    >>> mine_cost("contest", 0), mine_cost("contest", 2), mine_cost("multi", 2)
    (20, 28, 15)
    """
    return MINE_BASE_COST + MINE_COST_STEP * mines_owned if rules == "contest" else MULTI_MINE_COST


def build_refused(rules: str, league: str, kind: int) -> bool:
    """BUILD's league check: no BUILD in Wood 3 and Wood 2, and no TOWER in the multiplayer Wood 1
    (the contest accepts one there, whatever its statement says)."""
    return league in ("wood3", "wood2") or (rules == "multi" and league == "wood1" and kind == TOWER)


# -- the map ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class Board:
    """The fixed part of a game: void cells, mine spots and the distance table (the MOVE step's).

    ``owner``-independent and shared by every state of a game (one per map, cached).
    """

    rows: tuple[str, ...]
    spots: tuple[tuple[int, int], ...]
    void: bytes = field(repr=False)
    spot: bytes = field(repr=False)
    neighbours: tuple[tuple[int, ...], ...] = field(repr=False)
    """Non-void 4-neighbours of each cell in the order UP, RIGHT, DOWN, LEFT."""
    ordered: tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]] = field(repr=False)
    """Non-void neighbours of each cell in each player's MOVE direction order."""
    dist: bytes = field(repr=False)
    """``dist[a * 144 + b]``: shortest path length between non-void cells (255 where undefined)."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and (self.rows, self.spots) == (other.rows, other.spots)

    def __hash__(self) -> int:
        return hash((self.rows, self.spots))

    def distance(self, a: int, b: int) -> int:
        """d(a, b) over the non-void cells, ignoring units, buildings and owners."""
        return self.dist[a * CELLS + b]


@lru_cache(maxsize=256)
def make_board(rows: tuple[str, ...], spots: tuple[tuple[int, int], ...]) -> Board:
    """The board of a map (rows of ``#``/``.``, spots as (x, y)); checked, with its distance table."""
    if len(rows) != SIZE or any(len(r) != SIZE or set(r) - set("#.") for r in rows):
        raise StateFormatError(f"iceandfire: a map is {SIZE} rows of {SIZE} characters '#' or '.'")
    void = bytes(rows[y][x] == "#" for y in range(SIZE) for x in range(SIZE))
    spot = bytearray(CELLS)
    for x, y in spots:
        if not (0 <= x < SIZE and 0 <= y < SIZE) or void[cell_of(x, y)]:
            raise StateFormatError(f"iceandfire: mine spot ({x},{y}) is not a cell of the map")
        spot[cell_of(x, y)] = 1
    if void[HQ_CELLS[0]] or void[HQ_CELLS[1]] or void[BLUE_START_CELL]:
        raise StateFormatError("iceandfire: (0,0), (11,11) and (11,10) must not be void")

    def around(cell: int, order: Iterable[tuple[int, int]]) -> tuple[int, ...]:
        x, y = xy(cell)
        return tuple(
            cell_of(x + dx, y + dy)
            for dx, dy in order
            if 0 <= x + dx < SIZE and 0 <= y + dy < SIZE and not void[cell_of(x + dx, y + dy)]
        )

    neighbours = tuple(around(c, DIRECTION_ORDER[0]) for c in range(CELLS))
    ordered = (neighbours, tuple(around(c, DIRECTION_ORDER[1]) for c in range(CELLS)))
    dist = bytearray([255]) * (CELLS * CELLS)
    for source in range(CELLS):
        if void[source]:
            continue
        row = source * CELLS
        dist[row + source] = 0
        queue = deque([source])
        while queue:
            cell = queue.popleft()
            for n in neighbours[cell]:
                if dist[row + n] == 255:
                    dist[row + n] = dist[row + cell] + 1
                    queue.append(n)
    if dist[HQ_CELLS[0] * CELLS + HQ_CELLS[1]] == 255:
        raise StateFormatError("iceandfire: the two HQs are not connected")
    return Board(
        tuple(rows),
        tuple(sorted(spots, key=lambda s: (s[1], s[0]))),
        void,
        bytes(spot),
        neighbours,
        ordered,
        bytes(dist),
    )


# -- cells as bit masks -------------------------------------------------------------------------

FULL_MASK: Final = (1 << CELLS) - 1
_COLUMN_0: Final = sum(1 << (y * SIZE) for y in range(SIZE))
_NOT_COLUMN_0: Final = FULL_MASK & ~_COLUMN_0
_NOT_COLUMN_11: Final = FULL_MASK & ~(_COLUMN_0 << (SIZE - 1))
_BITS_TO_CELLS: Final = bytes.maketrans(b"01", b"\x00\x01")
_MASK_TABLES: Final = tuple(bytes(49 if v == value else 48 for v in range(256)) for value in range(4))


def cells_mask(values: bytes | bytearray, value: int) -> int:
    """The bit mask of the cells whose byte is ``value`` (bit c for cell c).

    >>> cells_mask(bytes([1, 0, 1]) + bytes(141), 1)
    5
    """
    return int(values.translate(_MASK_TABLES[value])[::-1], 2)


def mask_cells(mask: int) -> bytes:
    """Inverse of :func:`cells_mask` for 0/1 bytes: one byte per cell, 1 where the bit is set."""
    return format(mask, f"0{CELLS}b")[::-1].encode().translate(_BITS_TO_CELLS)


def mask_indices(mask: int) -> list[int]:
    """The cells of a bit mask, ascending.

    >>> mask_indices(0b1010)
    [1, 3]
    """
    cells = []
    while mask:
        low = mask & -mask
        cells.append(low.bit_length() - 1)
        mask ^= low
    return cells


def spread(mask: int) -> int:
    """``mask`` and every 4-neighbour of its cells (on the grid; void is not excluded here)."""
    return (
        mask
        | mask >> SIZE
        | (mask << SIZE) & FULL_MASK
        | (mask >> 1) & _NOT_COLUMN_11
        | (mask << 1) & _NOT_COLUMN_0
    )


def edges(mask: int, other: int) -> int:
    """How many pairs of 4-neighbours join a cell of ``mask`` to a cell of ``other`` (bit masks).

    >>> edges(0b1, 0b10 | 1 << SIZE)
    2
    """
    return (
        (mask >> SIZE & other).bit_count()
        + ((mask << SIZE) & FULL_MASK & other).bit_count()
        + ((mask >> 1) & _NOT_COLUMN_11 & other).bit_count()
        + ((mask << 1) & _NOT_COLUMN_0 & other).bit_count()
    )


def flood(start: int, within: int) -> int:
    """The cells of ``within`` joined to ``start`` by 4-steps inside ``within`` (bit masks): the one
    activity flood of the package (the referee's and the bots' board's; the tests hold it to a
    breadth-first search)."""
    reach = start & within
    while True:
        grown = spread(reach) & within
        if grown == reach:
            return reach
        reach = grown


def _ring_bits() -> tuple[tuple[int, ...], ...]:
    """The 8 cells around each cell in cyclic order N, NE, E, SE, S, SW, W, NW, as bits (0 off the grid)."""
    table = []
    for c in range(CELLS):
        x, y = xy(c)
        row = []
        for dx, dy in ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)):
            nx, ny = x + dx, y + dy
            row.append(1 << cell_of(nx, ny) if 0 <= nx < SIZE and 0 <= ny < SIZE else 0)
        table.append(tuple(row))
    return tuple(table)


RING: Final = _ring_bits()
"""``RING[c]``: the 8 cells around ``c`` as bits, in cyclic order N, NE, E, SE, S, SW, W, NW."""
NEIGHBOUR_BITS: Final = tuple(ring[0] | ring[2] | ring[4] | ring[6] for ring in RING)
"""``NEIGHBOUR_BITS[c]``: the 4-neighbours of ``c`` on the grid, as a mask (void cells included)."""


def one_arc(marks: Sequence[bool]) -> bool:
    """The simple-point rule on the 8 cells around a cell (``marks``: which are inside, in ring order):
    True when its inside 4-neighbours (the even entries) all lie on one arc of consecutive inside
    cells (consecutive entries of the ring are 4-neighbours of each other)."""
    if all(marks):
        return True
    start = list(marks).index(False)
    arcs_with_neighbour = 0
    in_arc = has_neighbour = False
    for k in range(1, 9):
        j = (start + k) % 8
        if marks[j]:
            if not in_arc:
                in_arc, has_neighbour = True, False
            if j % 2 == 0:
                has_neighbour = True
        elif in_arc:
            in_arc = False
            if has_neighbour:
                arcs_with_neighbour += 1
    return arcs_with_neighbour <= 1


_ONE_ARC: Final = bytes(one_arc([bool(p >> k & 1) for k in range(8)]) for p in range(256))
""":func:`one_arc` of every ring pattern (bit k set: ring entry k is inside)."""

# The ring of cell c sits in the 27 bits from c - 13 (NW 0, N 1, NE 2, W 12, E 14, SW 24, S 25, SE 26);
# these are the bits of that window that are on the grid.
_RING_WINDOW: Final = tuple(
    sum(1 << (13 + (bit.bit_length() - 1) - c) for bit in RING[c] if bit) for c in range(CELLS)
)


def simple_point(cell: int, inside: int) -> bool:
    """Whether removing ``cell`` from the cells ``inside`` certainly leaves them as joined as before.

    The simple-point test: the 4-neighbours of ``cell`` in ``inside`` all lie on one arc of
    ``inside`` cells around it (diagonals included), so any path through ``cell`` can go round it.
    False means "maybe cut": flood again. The ring's 8 bits are gathered from a window of the mask
    and looked up in a table of :func:`one_arc` (a fifth of the time of reading the ring cell by cell).

    >>> simple_point(13, 1 << 12 | 1 << 14)  # (0,1) and (2,1) are joined only through (1,1)
    False
    >>> simple_point(13, 1 << 12 | 1 << 0 | 1 << 1 | 1 << 2 | 1 << 14)  # the row above joins them
    True
    """
    w = ((inside << 13) >> cell) & _RING_WINDOW[cell]
    return bool(
        _ONE_ARC[
            (w >> 1 & 3)  # N, NE
            | (w >> 12 & 4)  # E
            | (w >> 23 & 8)  # SE
            | (w >> 21 & 16)  # S
            | (w >> 19 & 32)  # SW
            | (w >> 6 & 64)  # W
            | (w << 7 & 128)  # NW
        ]
    )
