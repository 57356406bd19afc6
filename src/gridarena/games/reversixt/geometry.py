"""The board's geometry: the single step (neighbour or transition) as a table, built once per map.

``step(x, y, d)`` goes to the plain neighbour when it is a field, else through the transition at
(x, y, d) when there is one, else nowhere. Both the neighbours and the transitions are fixed by the
map; bombs only add holes. Because a transition exists only where the plain neighbour is missing
(the reference server rejects any other), the step on any later board is the initial board's step
unless its target has become a hole: one table per map serves the whole game, checked against the
current cells.

The tables are built with numpy and read through ``memoryview`` (4 bytes an entry, Python ints when
read): a 1000 x 1000 map, the largest legal one, takes 32 MB and a fraction of a second, where a
tuple of Python ints took 300 MB and seconds.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import overload

import numpy as np

from gridarena.games.reversixt.formats import DX, DY, HOLE, ReversiMap

NONE = -1
"""The table entry of a step that leads nowhere."""

StepTable = Sequence[int]
"""``table[i * 8 + d]``: the packed step from cell i in direction d (see :func:`step_table`)."""


def _neighbours(m: ReversiMap) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
    """Per direction d: d, whether the neighbour in d lies inside the rectangle, and its cell index
    (a direction at a time, so a 1000 x 1000 map needs a few arrays of a million entries at once)."""
    w, h = m.width, m.height
    ys, xs = np.divmod(np.arange(w * h, dtype=np.int64), w)
    for d in range(8):
        nx, ny = xs + DX[d], ys + DY[d]
        yield d, (nx >= 0) & (nx < w) & (ny >= 0) & (ny < h), ny * w + nx


def _glue(m: ReversiMap) -> Iterator[tuple[int, int]]:
    """Each transition's two gluings: (endpoint cell * 8 + side, arrival cell * 8 + heading)."""
    w = m.width
    for x1, y1, d1, x2, y2, d2 in m.transitions:
        a, b = y1 * w + x1, y2 * w + x2
        yield a * 8 + d1, b * 8 + (d2 + 4) % 8
        yield b * 8 + d2, a * 8 + (d1 + 4) % 8


def plain_and_glue(m: ReversiMap) -> tuple[np.ndarray, np.ndarray]:
    """Two ``int32`` tables indexed ``cell * 8 + d``, whatever the cells hold.

    ``plain``: the neighbour cell inside the rectangle, -1 outside it. ``glue``: the transition's
    arrival packed ``cell * 8 + heading`` (a transition ``x1 y1 d1 <-> x2 y2 d2``: leaving (x1, y1)
    in d1 arrives on (x2, y2) heading (d2 + 4) mod 8, and back), -1 where no transition starts.

    >>> from gridarena.games.reversixt.formats import parse_map
    >>> plain, glue = plain_and_glue(parse_map("2 0 0 0 1 2 1 2 0 0 6 <-> 1 0 2"))
    >>> plain.reshape(2, 8)[0].tolist(), int(glue[6]) // 8, int(glue[6]) % 8
    ([-1, -1, 1, -1, -1, -1, -1, -1], 1, 6)
    """
    n = m.width * m.height
    plain = np.full(n * 8, NONE, dtype=np.int32)
    for d, inside, nb in _neighbours(m):
        plain[d::8][inside] = nb[inside]
    glue = np.full(n * 8, NONE, dtype=np.int32)
    for end, arrival in _glue(m):
        glue[end] = arrival
    return plain, glue


@lru_cache(maxsize=8)
def step_array(m: ReversiMap) -> np.ndarray:
    """The step table of the map's initial board as a read-only ``int32`` array (see :func:`step_table`)."""
    cells = np.frombuffer(m.cells, dtype=np.uint8)
    field = cells != HOLE
    table = np.full(len(cells) * 8, NONE, dtype=np.int32)
    for d, inside, nb in _neighbours(m):
        to_field = inside & field
        to_field[to_field] = field[nb[to_field]]
        table[d::8][to_field] = nb[to_field] * 8 + d
    for end, arrival in _glue(m):  # a transition only where the plain neighbour is missing
        if table[end] == NONE and field[end >> 3] and field[arrival >> 3]:
            table[end] = arrival
    table.flags.writeable = False
    return table


def step_table(m: ReversiMap) -> StepTable:
    """``table[i * 8 + d]`` = ``j * 8 + d2`` for the step from cell i in direction d, or ``NONE``.

    Computed on the map's initial board; :func:`step` checks the target against the current cells.
    The entry encodes the arrival cell j and the direction d2 the walk continues in. A view of
    :func:`step_array` whose items are Python ints (fast for the clear rules' loops).

    >>> from gridarena.games.reversixt.formats import parse_map
    >>> table = step_table(parse_map("2 0 0 0 1 3 1 2 - 0 0 6 <-> 1 0 2"))
    >>> table[2], table[6] >> 3, table[6] & 7, table[1 * 8 + 2]
    (10, 1, 6, 2)
    """
    return step_array(m).data


def step(table: StepTable, cells: bytes | bytearray, i: int, d: int) -> tuple[int, int] | None:
    """The single step from cell ``i`` in direction ``d`` on the board ``cells``.

    Returns (arrival cell, new direction), or None when the step leaves the board, hits a hole or
    takes a transition whose other end has become a hole.
    """
    t = table[i * 8 + d]
    if t == NONE:
        return None
    j = t >> 3
    if cells[j] == HOLE:
        return None
    return j, t & 7


class Arrivals(Sequence[Sequence[int]]):
    """For each cell j, the cells one step from j: every cell from which one step reaches j.

    Steps are symmetric (a plain neighbour steps back, a transition works both ways), so the cells
    j steps to are the cells that step to j, and the step table's row of j serves: no second table.
    Where a map read with ``strict=False`` glues one side only (an endpoint whose plain neighbour is a
    field), the few cells that reach j one-sidedly are kept beside it (``extra``); the row may then
    name a cell that does not step back, so the list is a superset, which is all its users need.
    """

    def __init__(self, table: Sequence[int], extra: dict[int, list[int]]) -> None:
        self._table, self._extra = table, extra

    def __len__(self) -> int:
        return len(self._table) // 8

    @property
    def one_sided(self) -> bool:
        """Whether some step does not step back (only on maps read with ``strict=False``)."""
        return bool(self._extra)

    @overload
    def __getitem__(self, j: int) -> Sequence[int]: ...
    @overload
    def __getitem__(self, j: slice) -> Sequence[Sequence[int]]: ...
    def __getitem__(self, j: int | slice) -> Sequence[int] | Sequence[Sequence[int]]:
        if isinstance(j, slice):
            return [self[i] for i in range(*j.indices(len(self)))]
        if not -len(self) <= j < len(self):
            raise IndexError(j)
        j %= len(self)
        out = [t >> 3 for t in self._table[j * 8 : j * 8 + 8] if t != NONE]
        return out + self._extra.get(j, [])


@lru_cache(maxsize=8)
def arrivals(m: ReversiMap) -> Arrivals:
    """``arrivals(m)[j]``: the cells from which one step (of the initial board's table) reaches cell j
    (a superset on one-sided maps, see :class:`Arrivals`).

    A capture run's first step must land on a foreign or expansion stone, so only these
    cells of such stones can be valid placements: move generation looks at them instead of the whole
    board.

    >>> from gridarena.games.reversixt.formats import parse_map
    >>> [list(a) for a in arrivals(parse_map("2 0 0 0 1 3 1 2 - 0 0 6 <-> 1 0 2"))]
    [[1, 1], [0, 0], []]
    """
    table = step_array(m)
    extra: dict[int, list[int]] = {}
    for d in range(8):  # find the steps that do not step back, a direction at a time (bounded memory)
        sources = np.flatnonzero(table[d::8] != NONE)
        arrive = table[sources * 8 + d]
        back = table[(arrive >> 3) * 8 + ((arrive & 7) + 4) % 8]
        for i in sources[back != sources * 8 + (d + 4) % 8].tolist():
            extra.setdefault(int(table[i * 8 + d]) >> 3, []).append(i)
    return Arrivals(table.data, extra)
