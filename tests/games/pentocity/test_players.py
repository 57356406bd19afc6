"""The players: vectorised placement features against readable per-placement twins and the rules, the
road/water/park plans, and games without a single invalid move."""

from __future__ import annotations

import random
from collections import deque

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gridarena.core.clock import TimeControl
from gridarena.core.errors import SpecError
from gridarena.core.registry import available_bots
from gridarena.games.pentocity import Move, Pentocity, PentocityState
from gridarena.games.pentocity.bots import road_distance
from gridarena.games.pentocity.buildings import PENTO, Building, X, rect
from gridarena.games.pentocity.land import SIDE, CellType, Land, group_mask, placement_mask
from gridarena.games.pentocity.players import make_best_bot, make_player
from gridarena.games.pentocity.players.candidates import NEW_GROUP_CELLS, candidates, group_distance
from gridarena.games.pentocity.players.greedy import (
    Context,
    Plan,
    add_resorts,
    contact_of,
    lexicographic,
    lost_cells,
)
from gridarena.games.pentocity.players.plans import compact_group, descend_road, extend_group, walk_group
from gridarena.games.pentocity.simulator import play_game

from .positions import played


def with_request(seed: int, plies: int, request: Building) -> PentocityState:
    base = played(seed, plies)
    return PentocityState(base.game, base.land, base.sequencer, request)


def grown_land(seed: int) -> Land:
    """A land with a bit of everything: a game of the group 1 player cut short."""
    rng = random.Random(seed)
    land = np.array(played(seed, 80).land, copy=True)
    for _ in range(6):
        i, j = rng.randrange(SIDE - 2), rng.randrange(SIDE - 4)
        kind = rng.choice([CellType.WATER, CellType.PARK])
        width = rng.randint(1, 4)
        block = land[i, j : j + width]
        block[block == CellType.EMPTY] = kind
    return land


def contact_twin(land: Land, cells: tuple[tuple[int, int], ...]) -> int:
    """Readable twin of the contact feature: sides of the building facing a built cell or the outside."""
    plan = Plan(0, (0, 0), 0, cells, frozenset())
    return contact_of(land, plan)


def group_distance_twin(land: Land, kind: CellType) -> np.ndarray:
    """Readable twin of ``group_distance``: breadth-first search from the 4+ groups through EMPTY cells."""
    dist = np.full((SIDE, SIDE), 99, dtype=np.int32)
    dist[land == CellType.EMPTY] = NEW_GROUP_CELLS
    groups = group_mask(land, kind)
    queue = deque((int(i), int(j), 0) for i, j in np.argwhere(groups))
    seen = {(i, j) for i, j, _ in queue}
    while queue:
        i, j, d = queue.popleft()
        for a, b in ((i, j + 1), (i, j - 1), (i + 1, j), (i - 1, j)):
            if 0 <= a < SIDE and 0 <= b < SIDE and (a, b) not in seen and land[a, b] == CellType.EMPTY:
                seen.add((a, b))
                if d + 1 < NEW_GROUP_CELLS:
                    dist[a, b] = d + 1
                    queue.append((a, b, d + 1))
    return dist


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("request_", [PENTO[1], rect(2, 3), X])
def test_candidates_agree_with_the_rules(seed: int, request_: Building) -> None:
    state = with_request(seed, 60, request_)
    c = candidates(state.land, request_, state.pentocity)
    free = c.road == 0
    expected = sum(
        int(placement_mask(state.land, shape, request_.kind, state.pentocity.mode).sum())
        for shape in request_.rotations()
    )
    assert int(free.sum()) == expected
    for k in np.flatnonzero(free)[::29]:
        move = Move.build(c.location(int(k)), int(c.rotation[k]))
        assert state.check(move) is None
        assert c.contact[k] == contact_twin(state.land, c.cells(int(k), request_))


@settings(deadline=None, max_examples=15)
@given(st.integers(0, 10_000))
def test_group_distance_matches_a_breadth_first_search(seed: int) -> None:
    land = grown_land(seed)
    for kind in (CellType.WATER, CellType.PARK):
        assert np.array_equal(group_distance(land, kind), group_distance_twin(land, kind))


@settings(deadline=None, max_examples=15)
@given(st.integers(0, 10_000), st.integers(0, 17))
def test_bonus_features_match_the_planned_bonus(seed: int, shape: int) -> None:
    """A placement whose pond feature is 0 touches a pond; one with 1 to 3 is joined by ``extend_group``."""
    land = grown_land(seed)
    state = PentocityState(Pentocity(), land, played(seed, 0).sequencer, PENTO[shape])
    c = candidates(land, PENTO[shape], state.pentocity)
    ponds = group_mask(land, CellType.WATER)
    for k in range(0, len(c), 97):
        cells = c.cells(k, PENTO[shape])
        path = extend_group(land, cells, CellType.WATER, frozenset())
        if c.water[k] == 0:
            assert path == frozenset()
            assert any(
                ponds[a, b]
                for i, j in cells
                for a, b in ((i + 1, j), (i - 1, j), (i, j + 1), (i, j - 1))
                if 0 <= a < SIDE and 0 <= b < SIDE
            )
        elif path is not None:
            assert len(path) >= c.water[k]


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_descended_roads_are_valid_and_shortest(seed: int) -> None:
    state = with_request(seed, 50, PENTO[7])
    c = candidates(state.land, PENTO[7], state.pentocity)
    distance = road_distance(state.land)
    needing = np.flatnonzero(c.road > 0)
    assert needing.size > 0
    for k in needing[::23]:
        cells = c.cells(int(k), PENTO[7])
        road = descend_road(distance, cells)
        if road is None:
            continue
        assert len(road) == c.road[k]
        assert state.check(Move.build(c.location(int(k)), int(c.rotation[k]), road)) is None


@pytest.mark.parametrize("seed", [6, 7])
def test_resort_plans_earn_both_bonuses_in_valid_moves(seed: int) -> None:
    state = with_request(seed, 40, PENTO[5])
    ctx = Context.of(state.land)
    c = candidates(state.land, PENTO[5], state.pentocity)
    rng = random.Random(seed)
    makers = [compact_group, lambda land, cells, taken: walk_group(land, cells, taken, rng)]
    checked = 0
    for k in np.flatnonzero(c.road == 0)[::41]:
        for maker in makers:
            plan = add_resorts(
                ctx,
                Plan(int(k), c.location(int(k)), int(c.rotation[k]), c.cells(int(k), PENTO[5]), frozenset()),
                maker,
            )
            if not (plan.water and plan.park):
                continue
            after = state.apply_action(plan.move())
            assert after.score - state.score == 9
            checked += 1
    assert checked > 0


def test_lost_cells_counts_small_and_unreachable_regions() -> None:
    land = np.zeros((SIDE, SIDE), dtype=np.uint8)
    assert lost_cells(land) == 0
    land[10, 10:13] = CellType.RESIDENCE
    land[11, 9] = land[11, 13] = land[12, 10:13] = CellType.RESIDENCE
    assert lost_cells(land) == 3  # the pocket under the bar
    land[20:30, 20] = land[20:30, 29] = land[20, 20:30] = land[29, 20:30] = CellType.PARK
    assert lost_cells(land) == 3 + 64


def test_lexicographic_orders_by_keys_in_turn() -> None:
    score = lexicographic(np.array([2, 2, 1, 2]), np.array([-5, 3, 9, 3]), np.array([0, 1, 0, 0]))
    assert np.argsort(-score, kind="stable").tolist() == [1, 3, 0, 2]


def test_player_parameters_are_checked() -> None:
    assert make_player("packer", shortlist=3).shortlist == 3
    with pytest.raises(SpecError, match="no parameter 'depth'"):
        make_player("packer", depth=3)
    assert set(available_bots("pentocity")) >= {
        "diagonal",
        "jigsaw",
        "components",
        "shortroad",
        "group1",
        "best",
    }


@pytest.mark.parametrize("name", ["diagonal", "jigsaw", "components", "shortroad", "group1", "packer"])
def test_players_make_only_valid_moves(name: str) -> None:
    """Forty requests of a `random` game (the rules re-check each move) and sensible first choices."""
    game = Pentocity(cpu_time=None)
    player = make_player(name, 1)
    state = game.new_initial_state(seed=84)
    for _ in range(40):
        state = state.apply_action(state.chance_outcomes()[0][0])
        decision = player.act(state, TimeControl())
        assert decision.action.accept
        assert state.check(decision.action) is None
        state = state.apply_action(decision.action)
    assert state.score >= 40 * 4


def test_residences_and_factories_start_in_opposite_corners() -> None:
    game = Pentocity(cpu_time=None)
    state = game.new_initial_state(seed=84)
    state = state.apply_action(state.chance_outcomes()[0][0])  # a 2×3 factory
    factory = make_player("diagonal").act(state, TimeControl()).action
    assert factory.location[0] + factory.location[1] >= 2 * (SIDE - 4)
    state = state.apply_action(factory).apply_action(state.sequencer.next()[0])
    home = make_player("diagonal").act(state, TimeControl()).action
    assert home.location[0] + home.location[1] <= 2


def test_best_player_beats_the_2016_best_on_random_seed_869() -> None:
    """One whole game (about 2 s): the 2016 best mean on `random` is 2070; we score well above it here."""
    game = Pentocity(cpu_time=None)
    record = play_game(game, make_best_bot(game, seed=1), seed=869)
    assert record.termination == "normal"
    assert record.score > 2070


def test_statement_mode_gives_factories_no_bonus_and_the_player_follows() -> None:
    """Under the statement's rules the packer still plays only valid moves (edge access is one cell deep)."""
    game = Pentocity(sequencer="g2", mode="statement", cpu_time=None)
    player = make_player("packer", 1)
    state = game.new_initial_state(seed=1)
    for _ in range(30):
        state = state.apply_action(state.chance_outcomes()[0][0])
        decision = player.act(state, TimeControl())
        assert state.check(decision.action) is None
        before = state.score
        state = state.apply_action(decision.action)
        if state.request is None and decision.action.accept and state.score - before == 1:
            assert not decision.action.water and not decision.action.park  # a 1×1 factory earns nothing more
