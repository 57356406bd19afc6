"""The board's geometry: the single step of spec 3.2 as a table, built once per map.

``step(x, y, d)`` goes to the plain neighbour when it is a field, else through the transition at
(x, y, d) when there is one, else nowhere. Both the neighbours and the transitions are fixed by the
map; bombs only add holes. Because a transition exists only where the plain neighbour is missing
(V4), the step on any later board is the initial board's step unless its target has become a hole:
one table per map serves the whole game, checked against the current cells.
"""

from __future__ import annotations

from functools import lru_cache

from gridarena.games.reversixt.formats import DX, DY, HOLE, ReversiMap, opposite

NONE = -1
"""The table entry of a step that leads nowhere."""


@lru_cache(maxsize=64)
def step_table(m: ReversiMap) -> tuple[int, ...]:
    """``table[i * 8 + d]`` = ``j * 8 + d2`` for the step from cell i in direction d, or ``NONE``.

    Computed on the map's initial board; :func:`step` checks the target against the current cells.
    The entry encodes the arrival cell j and the direction d2 the walk continues in.
    """
    w, h, cells = m.width, m.height, m.cells
    glue: dict[tuple[int, int], tuple[int, int]] = {}
    for x1, y1, d1, x2, y2, d2 in m.transitions:
        a, b = y1 * w + x1, y2 * w + x2
        glue[(a, d1)] = (b, opposite(d2))
        glue[(b, d2)] = (a, opposite(d1))
    table = [NONE] * (w * h * 8)
    for i, c in enumerate(cells):
        if c == HOLE:
            continue
        y, x = divmod(i, w)
        for d in range(8):
            nx, ny = x + DX[d], y + DY[d]
            if 0 <= nx < w and 0 <= ny < h and cells[ny * w + nx] != HOLE:
                table[i * 8 + d] = (ny * w + nx) * 8 + d
            elif (i, d) in glue:
                j, d2 = glue[(i, d)]
                if cells[j] != HOLE:
                    table[i * 8 + d] = j * 8 + d2
    return tuple(table)


def step(table: tuple[int, ...], cells: bytes | bytearray, i: int, d: int) -> tuple[int, int] | None:
    """The step of spec 3.2 from cell ``i`` in direction ``d`` on the board ``cells``.

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


@lru_cache(maxsize=64)
def arrivals(m: ReversiMap) -> tuple[tuple[int, ...], ...]:
    """``arrivals(m)[j]``: the cells from which one step (of the initial board's table) reaches cell j.

    A capture run's first step must land on a foreign or expansion stone (spec 5.1), so only these
    cells of such stones can be valid placements: move generation looks at them instead of the whole
    board. Read off the table itself, so it needs no symmetry of the transitions.
    """
    table = step_table(m)
    into: list[set[int]] = [set() for _ in range(m.height * m.width)]
    for i in range(len(into)):
        for d in range(8):
            t = table[i * 8 + d]
            if t != NONE:
                into[t >> 3].add(i)
    return tuple(tuple(sorted(s)) for s in into)
