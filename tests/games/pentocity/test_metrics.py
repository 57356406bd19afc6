"""Group 1's metrics: hand-made lands, a brute-force reference for the vectorised counts, the g1 undercount."""

from __future__ import annotations

import random
from collections import deque

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from gridarena.games.pentocity import CellType, Pentocity
from gridarena.games.pentocity.formats import parse_land
from gridarena.games.pentocity.land import SIDE, Land, frozen
from gridarena.games.pentocity.metrics import land_metrics, largest_empty_region, perimeter_g1, state_metrics


def neighbours(i: int, j: int) -> list[tuple[int, int]]:
    return [
        (a, b) for a, b in ((i, j + 1), (i + 1, j), (i, j - 1), (i - 1, j)) if 0 <= a < SIDE and 0 <= b < SIDE
    ]


def reference(land: Land) -> tuple[int, int, tuple[int, int, int]]:
    """Perimeter, extendable and (size, perimeter, extendable) of the largest empty region, cell by cell."""
    empty = {(i, j) for i in range(SIDE) for j in range(SIDE) if land[i, j] == CellType.EMPTY}
    resort = {
        (i, j) for i in range(SIDE) for j in range(SIDE) if land[i, j] in (CellType.PARK, CellType.WATER)
    }
    perimeter = sum(1 for c in empty for n in neighbours(*c) if n not in empty)
    extendable = sum(1 for c in empty if any(n in resort for n in neighbours(*c)))
    best: list[tuple[int, int]] = []
    seen: set[tuple[int, int]] = set()
    for start in sorted(empty):
        if start in seen:
            continue
        seen.add(start)
        region, queue = [start], deque([start])
        while queue:
            for n in neighbours(*queue.popleft()):
                if n in empty and n not in seen:
                    seen.add(n)
                    region.append(n)
                    queue.append(n)
        if len(region) > len(best):
            best = region
    region_perimeter = sum(1 for c in best for n in neighbours(*c) if n not in empty)
    region_extendable = sum(1 for c in best if any(n in resort for n in neighbours(*c)))
    return perimeter, extendable, (len(best), region_perimeter, region_extendable)


def random_land(seed: int, density: float) -> Land:
    gen = np.random.default_rng(seed)
    land = gen.integers(1, 6, size=(SIDE, SIDE)).astype(np.uint8)
    land[gen.random((SIDE, SIDE)) > density] = CellType.EMPTY
    return frozen(land)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32 - 1), st.floats(0.0, 1.0))
def test_vectorised_counts_match_the_cell_by_cell_reference(seed: int, density: float) -> None:
    land = random_land(seed, density)
    metrics = land_metrics(land, score=0)
    perimeter, extendable, (size, region_perimeter, region_extendable) = reference(land)
    assert metrics.perimeter == perimeter
    assert metrics.extendable == extendable
    region = metrics.largest_empty
    assert (region.size, region.perimeter, region.extendable) == (size, region_perimeter, region_extendable)
    assert metrics.perimeter_g1 <= metrics.perimeter
    assert metrics.building + metrics.empty + metrics.road + metrics.resort == SIDE * SIDE


def test_small_city() -> None:
    land = parse_land("rrf\n#pp\n#pp\n#w.")
    m = land_metrics(land, score=11)
    assert (m.building, m.road, m.resort) == (3, 3, 5)
    assert m.empty == SIDE * SIDE - 11
    assert m.utility == (11 - 3) / 5


def test_utility_is_none_without_parks_or_water() -> None:
    m = land_metrics(parse_land("rr#"), score=2)
    assert m.utility is None and m.resort == 0
    assert m.to_json()["utility"] is None


def test_g1_perimeter_undercounts_only_next_to_parks_and_water() -> None:
    no_resort = random_land(3, 0.5).copy()
    no_resort[(no_resort == CellType.PARK) | (no_resort == CellType.WATER)] = CellType.ROAD
    assert perimeter_g1(frozen(no_resort)) == land_metrics(no_resort, 0).perimeter
    land = parse_land(".w\nr.")
    assert perimeter_g1(land) == 4 and land_metrics(land, 0).perimeter == 6


def test_largest_region_ties_go_to_the_first_in_row_major_order() -> None:
    # A full road row 25 splits the land into two regions of 25 rows each.
    land = parse_land("\n" * 25 + "#" * 50)
    region = largest_empty_region(land)
    assert region.start == (0, 0) and region.size == 25 * 50 and region.perimeter == 50
    full = frozen(np.full((SIDE, SIDE), CellType.ROAD, dtype=np.uint8))
    assert largest_empty_region(full).size == 0 and largest_empty_region(full).start is None


def test_metrics_of_a_played_game() -> None:
    rng, state = random.Random(2), Pentocity(sequencer="random").new_initial_state(seed=84)
    while not state.is_terminal():
        state = state.apply_action(state.random_action(rng))
    m = state_metrics(state)
    placed = int(((state.land == CellType.RESIDENCE) | (state.land == CellType.FACTORY)).sum())
    assert m.building == placed and m.score == state.score >= placed
    assert m.to_json()["largest_empty"]["size"] == m.largest_empty.size
