"""The numba kernels against the clear rules, on positions from seeded random games."""

from __future__ import annotations

import heapq
import random

import numpy as np
import pytest

from gridarena.games.iceandfire.kernels import (
    UNREACHABLE,
    arrays_from_state,
    capture_levels,
    chain_costs,
    cut_values,
    deactivated_by,
    distances,
    flood_active,
)
from gridarena.games.iceandfire.rules import HQ_CELLS, UNIT_COST, IceAndFire, IceAndFireState, territory_bfs


def positions(per_game: int = 4) -> list[IceAndFireState]:
    """Every ninth ply of random games on three maps (contest, multi Wood 1, Wood 3), a few per game."""
    found = []
    for seed, spec in (
        (10, IceAndFire()),
        (117, IceAndFire("multi", "wood1")),
        (4, IceAndFire(league="wood3")),
    ):
        rng, state, ply, kept = random.Random(seed), spec.new_initial_state(seed), 0, 0
        while not state.is_terminal() and kept < per_game:
            state = state.apply_action(state.random_action(rng))
            ply += 1
            if ply % 9 == 0 and not state.is_terminal():
                found.append(state)
                kept += 1
    return found


POSITIONS = positions()


def taken(state: IceAndFireState, cell: int, by: int) -> bytes:
    owner = bytearray(state.owner)
    owner[cell] = by
    return bytes(owner)


@pytest.mark.parametrize("state", POSITIONS, ids=lambda s: f"{s.rules}-{s.league}-t{s.turn}p{s.player}")
def test_kernels_agree_with_the_rules(state: IceAndFireState) -> None:
    a = arrays_from_state(state)
    neighbours = state.board.neighbours
    for player in (0, 1):
        hq = HQ_CELLS[player]
        active = territory_bfs(state.owner, neighbours, player)
        assert set(np.flatnonzero(flood_active(a.owner, player, hq, a.nbr))) == active
        cells_lost, units_lost = cut_values(a.owner, player, hq, a.nbr, a.unit_level)
        for cell in sorted(active - {hq}):
            after = territory_bfs(taken(state, cell, 1 - player), neighbours, player)
            lost = active - after - {cell}
            assert set(np.flatnonzero(deactivated_by(a.owner, player, hq, a.nbr, cell))) == lost
            assert cells_lost[cell] == len(lost)
            cost = sum(UNIT_COST[u.level] for u in state.units if u.cell in lost)
            assert units_lost[cell] == cost
        levels = capture_levels(a.owner, a.active, a.unit_level, a.building, a.nbr, player, state.max_level)
        for cell in range(144):
            fits = [
                lv
                for lv in range(1, state.max_level + 1)
                if not state.board.void[cell] and state.capturable(cell, player, lv)
            ]
            assert levels[cell] == (fits[0] if fits else 0), (cell, player)
        costs = chain_costs(a.owner, a.active, levels, a.nbr, player)
        assert list(costs) == dijkstra(state, player, levels)


def dijkstra(state: IceAndFireState, player: int, levels: np.ndarray) -> list[int]:
    """Chain costs with a heap, straight from the definition."""
    best = [UNREACHABLE] * 144
    heap = []
    for c in range(144):
        if state.owner[c] == player and state.active[c]:
            best[c] = 0
            heap.append((0, c))
    heapq.heapify(heap)
    while heap:
        d, c = heapq.heappop(heap)
        if d > best[c]:
            continue
        for n in state.board.neighbours[c]:
            if levels[n] == 0:
                continue
            step = 0 if state.owner[n] == player and state.active[n] else 10 * int(levels[n])
            if d + step < best[n]:
                best[n] = d + step
                heapq.heappush(heap, (d + step, n))
    return best


def test_distances_equal_the_referees_table() -> None:
    state = IceAndFire().new_initial_state(seed=117)
    d = distances(arrays_from_state(state).nbr)
    for a in range(144):
        for b in range(144):
            expected = state.board.distance(a, b)
            assert d[a, b] == (-1 if expected == 255 else expected) or (a == b and state.board.void[a])
