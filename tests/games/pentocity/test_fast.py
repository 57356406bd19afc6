"""Pentocity's numba kernels against their readable twins, on random lands and on played games.

The learners' placement mask (:func:`placement_mask`, bit rows in numba) must equal the readable
:func:`placement_mask_ref` (numpy shifts), its "no road" flags must be the rules' own road-access test,
and the kernel's road must be g0's own breadth-first road (``ai/simple.py``), cell for cell.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from gridarena.games.pentocity import Pentocity, PentocityState
from gridarena.games.pentocity.ai.simple import shortest_road as shortest_road_ref
from gridarena.games.pentocity.buildings import PENTO, Building, rect
from gridarena.games.pentocity.encoding import (
    REJECT,
    placement_mask,
    placement_mask_ref,
    placement_table,
)
from gridarena.games.pentocity.fast import shortest_road
from gridarena.games.pentocity.land import SIDE, CellType, frozen
from gridarena.games.pentocity.placement import has_road_access

from .positions import played

REQUESTS = (*PENTO, rect(1, 1), rect(2, 3), rect(4, 4), rect(1, 7), rect(3, 5))


@st.composite
def lands(draw: st.DrawFn) -> np.ndarray:
    """A land of random cells (EMPTY most likely) crossed by a few straight roads: enough walls that
    EMPTY regions split and some are cut off from every road."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    filled = draw(st.floats(0.0, 0.6))
    codes = rng.choice(
        [c.value for c in CellType if c is not CellType.EMPTY], size=(SIDE, SIDE), p=[0.3, 0.3, 0.1, 0.1, 0.2]
    )
    land = np.where(rng.random((SIDE, SIDE)) < filled, codes, CellType.EMPTY).astype(np.uint8)
    for _ in range(draw(st.integers(0, 4))):
        row, col = rng.integers(SIDE, size=2)
        if rng.random() < 0.5:
            land[row, : col + 1] = CellType.ROAD
        else:
            land[: row + 1, col] = CellType.ROAD
    return frozen(land)


def state_with(land: np.ndarray, request: Building, mode: str) -> PentocityState:
    """A state of ``mode`` deciding ``request`` on ``land``."""
    return replace(Pentocity(mode=mode).new_initial_state(seed=1), land=land, request=request)


@settings(deadline=None, max_examples=60)  # the first example loads the kernels
@given(lands(), st.sampled_from(REQUESTS), st.sampled_from(("faithful", "statement")))
def test_the_placement_mask_is_its_readable_twin(land: np.ndarray, request: Building, mode: str) -> None:
    state = state_with(land, request, mode)
    mask, no_road = placement_table(state)
    assert np.array_equal(mask, placement_mask_ref(state))
    rotations = request.rotations()
    for index in np.flatnonzero(mask)[1::23]:  # every 23rd valid placement: the rules' own road test
        rotation, corner = divmod(int(index) - 1, SIDE * SIDE)
        access = has_road_access(land, rotations[rotation], divmod(corner, SIDE), state.pentocity.mode)
        assert bool(no_road[index]) == access
    assert not no_road[mask == 0].any() and mask[REJECT] == 1


@settings(deadline=None, max_examples=60)
@given(lands(), st.sampled_from(REQUESTS), st.integers(0, SIDE * SIDE - 1))
def test_the_road_is_g0s_road(land: np.ndarray, request: Building, corner: int) -> None:
    shape = request.rotations()[0]
    row, col = divmod(corner, SIDE)
    cells = tuple((i + row, j + col) for i, j in shape)
    if all(0 <= i < SIDE and 0 <= j < SIDE for i, j in cells):
        assert shortest_road(land, cells) == shortest_road_ref(land, cells)


def test_played_games_agree_with_the_readable_twins() -> None:
    for seed in (1, 2):
        state = played(seed, 2 * seed * 40 + 1, "g6")  # a request pending, the land part built
        assert state.request is not None
        mask = placement_mask(state)
        assert np.array_equal(mask, placement_mask_ref(state))
        rotations = state.request.rotations()
        for index in np.flatnonzero(mask)[1::150]:
            rotation, corner = divmod(int(index) - 1, SIDE * SIDE)
            cells = tuple((i + corner // SIDE, j + corner % SIDE) for i, j in rotations[rotation])
            assert shortest_road(state.land, cells) == shortest_road_ref(state.land, cells)
