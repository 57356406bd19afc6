"""Numba kernels for what Ice and Fire bots ask in their inner loops, over plain arrays.

The rules in ``rules.py`` stay the readable oracle; these are their fast twins, and the tests
hold each against it on positions from random games. Everything works on flat arrays of the 144
cells (``i = y * 12 + x``), so a bot's own board (seat-relative or not) can call them too:

* ``owner``: int8, the player owning each cell (0 or 1), any other value for neutral or void;
* ``nbr``: int16 ``(144, 4)``, the non-void neighbours UP, RIGHT, DOWN, LEFT, -1 for none
  (:func:`neighbour_table`);
* ``hq``: the HQ cell of the player asked about.

What they answer: activity by flood fill from the HQ (:func:`flood_active`); what taking one
cell would cut off (:func:`deactivated_by`) and the value of every possible cut at once
(:func:`cut_values`: cells lost and the training cost of the units that would die); the path
distances (:func:`distances`); the cheapest level that may enter each cell (:func:`capture_levels`)
and the gold a chain of TRAINs needs to reach each cell (:func:`chain_costs`, a Dijkstra).

Compiled with ``cache=True``; the first call in a fresh process compiles (about a second each)
unless the cache is warm. :func:`arrays_from_state` turns a referee state into these arrays.

>>> from gridarena.games.iceandfire.rules import IceAndFire
>>> arrays = arrays_from_state(IceAndFire().new_initial_state(seed=1))
>>> int(flood_active(arrays.owner, 1, 143, arrays.nbr).sum())
2
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, NamedTuple

import numba as nb
import numpy as np

if TYPE_CHECKING:
    from gridarena.games.iceandfire.rules import IceAndFireState

CELLS = 144
SIZE = 12
NO_UNIT = 0
UNREACHABLE = 1 << 30
"""What :func:`chain_costs` answers for a cell no chain of TRAINs can reach."""


class StateArrays(NamedTuple):
    """A referee state as the kernels' arrays (absolute players: 0 red, 1 blue)."""

    owner: np.ndarray  # int8: 0 red, 1 blue, 2 neutral, 3 void
    active: np.ndarray  # bool
    unit_level: np.ndarray  # int8: 0 no unit, else its level
    building: np.ndarray  # int8: -1 none, 0 HQ, 1 MINE, 2 TOWER
    nbr: np.ndarray  # int16 (144, 4), read-only (one per map)


@functools.lru_cache(maxsize=64)
def _board_neighbours(void: bytes) -> np.ndarray:
    table = neighbour_table(np.frombuffer(void, dtype=np.uint8))
    table.flags.writeable = False  # shared by every state of the map
    return table


def neighbour_table(void: np.ndarray) -> np.ndarray:
    """``nbr[i, d]``: the non-void neighbour of cell i in direction d (UP, RIGHT, DOWN, LEFT), or -1
    (all -1 for a void cell)."""
    table = np.full((CELLS, 4), -1, dtype=np.int16)
    for i in range(CELLS):
        if void[i]:
            continue  # a void cell has no neighbours and is nobody's neighbour
        x, y = i % SIZE, i // SIZE
        for d, (dx, dy) in enumerate(((0, -1), (1, 0), (0, 1), (-1, 0))):
            nx, ny = x + dx, y + dy
            if 0 <= nx < SIZE and 0 <= ny < SIZE and not void[ny * SIZE + nx]:
                table[i, d] = ny * SIZE + nx
    return table


def arrays_from_state(state: IceAndFireState) -> StateArrays:
    """The kernels' view of a referee state."""
    owner = np.frombuffer(state.owner, dtype=np.int8).copy()
    active = np.frombuffer(state.active, dtype=np.uint8).astype(np.bool_)
    unit_level = np.zeros(CELLS, dtype=np.int8)
    for u in state.units:
        unit_level[u.cell] = u.level
    building = np.full(CELLS, -1, dtype=np.int8)
    for b in state.buildings:
        building[b.cell] = b.kind
    nbr = _board_neighbours(state.board.void)
    return StateArrays(owner, active, unit_level, building, nbr)


@nb.njit(cache=True)
def _flood(owner: np.ndarray, player: int, start: int, nbr: np.ndarray, blocked: int, out: np.ndarray) -> int:
    """Mark in ``out`` the ``player`` cells joined to ``start`` without passing ``blocked``; their count."""
    out[:] = False
    if start < 0 or start == blocked or owner[start] != player:
        return 0
    stack = np.empty(CELLS, dtype=np.int16)
    stack[0] = start
    top = 1
    out[start] = True
    count = 1
    while top:
        top -= 1
        cell = stack[top]
        for d in range(4):
            n = nbr[cell, d]
            if n >= 0 and n != blocked and not out[n] and owner[n] == player:
                out[n] = True
                stack[top] = n
                top += 1
                count += 1
    return count


@nb.njit(cache=True)
def flood_active(owner: np.ndarray, player: int, hq: int, nbr: np.ndarray) -> np.ndarray:
    """The active cells of ``player``: its cells joined to its HQ cell through its own cells."""
    out = np.zeros(CELLS, dtype=np.bool_)
    _flood(owner, player, hq, nbr, -1, out)
    return out


@nb.njit(cache=True)
def deactivated_by(owner: np.ndarray, player: int, hq: int, nbr: np.ndarray, cell: int) -> np.ndarray:
    """The cells of ``player`` that would lose their chain to the HQ if the opponent took ``cell``
    (``cell`` itself excluded; everything active if ``cell`` is the HQ)."""
    before = np.zeros(CELLS, dtype=np.bool_)
    after = np.zeros(CELLS, dtype=np.bool_)
    _flood(owner, player, hq, nbr, -1, before)
    _flood(owner, player, hq, nbr, cell, after)
    lost = before & ~after
    lost[cell] = False
    return lost


@nb.njit(cache=True)
def cut_values(
    owner: np.ndarray, player: int, hq: int, nbr: np.ndarray, unit_level: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """For every cell c of ``player``: how many of its active cells taking c would cut off (c excluded),
    and the training cost of ``player``'s units on them (they die at its next turn start).

    One flood fill per active cell (144 x 144 at most): the brute force, which is fast enough here
    and obviously right; cells that are not ``player``'s active cells get 0.
    """
    cells_lost = np.zeros(CELLS, dtype=np.int16)
    units_lost = np.zeros(CELLS, dtype=np.int32)
    before = np.zeros(CELLS, dtype=np.bool_)
    after = np.zeros(CELLS, dtype=np.bool_)
    total = _flood(owner, player, hq, nbr, -1, before)
    for c in range(CELLS):
        if not before[c] or c == hq:
            continue
        kept = _flood(owner, player, hq, nbr, c, after)
        lost = total - 1 - kept
        if lost:
            cells_lost[c] = lost
            cost = 0
            for i in range(CELLS):
                if before[i] and not after[i] and i != c:
                    cost += 10 * unit_level[i]
            units_lost[c] = cost
    return cells_lost, units_lost


@nb.njit(cache=True)
def distances(nbr: np.ndarray) -> np.ndarray:
    """``d[a, b]``: shortest path length over non-void cells (-1 where a or b is void or unreachable)."""
    d = np.full((CELLS, CELLS), -1, dtype=np.int16)
    queue = np.empty(CELLS, dtype=np.int16)
    for source in range(CELLS):
        has_neighbour = False
        for k in range(4):
            if nbr[source, k] >= 0:
                has_neighbour = True
        d[source, source] = 0
        if not has_neighbour:
            continue
        head, tail = 0, 1
        queue[0] = source
        while head < tail:
            cell = queue[head]
            head += 1
            for k in range(4):
                n = nbr[cell, k]
                if n >= 0 and d[source, n] < 0:
                    d[source, n] = d[source, cell] + 1
                    queue[tail] = n
                    tail += 1
    return d


@nb.njit(cache=True)
def capture_levels(
    owner: np.ndarray,
    active: np.ndarray,
    unit_level: np.ndarray,
    building: np.ndarray,
    nbr: np.ndarray,
    player: int,
    max_level: int,
) -> np.ndarray:
    """The lowest level 1..``max_level`` of ``player`` that may enter each cell (spec section 5),
    0 where none may (own occupied cells, void, towers beyond the top level)."""
    out = np.zeros(CELLS, dtype=np.int8)
    for c in range(CELLS):
        o = owner[c]
        if o > 1 and o != 2:  # void
            continue
        for level in range(1, max_level + 1):
            if o != player and level < 3:
                tower_here = building[c] == 2
                if tower_here:
                    continue
                if (o == 0 or o == 1) and active[c]:
                    guarded = False
                    for k in range(4):
                        n = nbr[c, k]
                        if n >= 0 and owner[n] == o and active[n] and building[n] == 2:
                            guarded = True
                    if guarded:
                        continue
            if unit_level[c] == 0 and building[c] < 0:
                out[c] = level
                break
            if o == player:
                break
            if unit_level[c] > 0 and level != max_level and level <= unit_level[c]:
                continue
            out[c] = level
            break
    return out


@nb.njit(cache=True)
def chain_costs(
    owner: np.ndarray, active: np.ndarray, levels: np.ndarray, nbr: np.ndarray, player: int
) -> np.ndarray:
    """The gold a chain of TRAINs needs to reach each cell from ``player``'s active land (spec 18.1):
    0 on its active cells, else the cheapest sum of ``10 * levels[c]`` over the cells trained on the
    way (``levels`` from :func:`capture_levels`; 0 there means impassable). A Dijkstra by scanning.

    It plans each cell on the position as it is now (it does not re-check a protection that an
    earlier train of the chain would remove), which is how the post-mortem bots use it.
    """
    cost = np.full(CELLS, UNREACHABLE, dtype=np.int32)
    done = np.zeros(CELLS, dtype=np.bool_)
    for c in range(CELLS):
        if owner[c] == player and active[c]:
            cost[c] = 0
    while True:
        best, best_cost = -1, UNREACHABLE
        for c in range(CELLS):
            if not done[c] and cost[c] < best_cost:
                best, best_cost = c, cost[c]
        if best < 0:
            return cost
        done[best] = True
        for k in range(4):
            n = nbr[best, k]
            if n >= 0 and not done[n] and levels[n] > 0:
                step = 0 if owner[n] == player and active[n] else 10 * levels[n]
                if best_cost + step < cost[n]:
                    cost[n] = best_cost + step
