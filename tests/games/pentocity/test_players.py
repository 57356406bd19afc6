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
from gridarena.core.registry import available_bots, make_bot
from gridarena.games.pentocity import Move, Pentocity, PentocityState
from gridarena.games.pentocity.ai.bands import FACTORY_ROWS, I_BANDS, Strip, layout_move
from gridarena.games.pentocity.ai.candidates import NEW_GROUP_CELLS, candidates, group_distance
from gridarena.games.pentocity.ai.greedy import (
    Context,
    Plan,
    add_resorts,
    contact_of,
    lexicographic,
    lost_cells,
)
from gridarena.games.pentocity.ai.plans import compact_group, descend_road, extend_group, walk_group
from gridarena.games.pentocity.ai.reserve import ReservePacker, big_cover, big_places
from gridarena.games.pentocity.ai.simple import road_distance
from gridarena.games.pentocity.bots import BandPlayer, PlacementPlayer
from gridarena.games.pentocity.buildings import I_H, PENTO, Building, X, rect
from gridarena.games.pentocity.land import (
    SIDE,
    CellType,
    Land,
    Mode,
    empty_land,
    frozen,
    group_mask,
    placement_mask,
)
from gridarena.games.pentocity.placement import Violation, resolve_move
from gridarena.games.pentocity.simulator import play

from .positions import played


def make_player(name: str, seed: int | None = None, **weights: float) -> PlacementPlayer:
    """A Pentocity player by registry name, weights overridden."""
    player: PlacementPlayer = make_bot(Pentocity(), name, seed=seed, **weights)
    return player


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
    with pytest.raises(SpecError, match="packer: unknown parameter 'depth'; packer takes shortlist"):
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
    record = play(game, make_bot(game, "best", seed=1), seed=869)
    assert record.outcome.termination == "normal"
    assert record.final_state.score > 2070


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


def planned_points(strip: Strip) -> int:
    """What a building of ``strip`` scores by the rules' arithmetic: its cells plus 2 per resort kind."""
    resorts = {kind for _, kind in strip.separators if kind in (CellType.WATER, CellType.PARK)}
    return strip.height + 2 * len(resorts)


def has_access(strip: Strip) -> bool:
    """A road separator, or a building row in the two-deep edge zone (the simulator's road access)."""
    rows = range(strip.top, strip.top + strip.height)
    return any(kind == CellType.ROAD for _, kind in strip.separators) or any(
        r in (0, 1, 48, 49) for r in rows
    )


def test_layout_strips_are_consistent() -> None:
    """Every strip has access; strips of one kind share separator rows only with the same planned type;
    the I bands tile the land (400 I's, 3000 points) and the factory rows score 3, or 5 in row 48."""
    for strips in (I_BANDS, FACTORY_ROWS):
        planned: dict[int, CellType] = {}
        for strip in strips:
            assert has_access(strip)
            for row, kind in strip.separators:
                assert planned.setdefault(row, kind) == kind
                assert row not in range(strip.top, strip.top + strip.height)
    assert sum(50 * planned_points(band) for band in I_BANDS) == 3000
    assert {band.top + r for band in I_BANDS for r in range(5)}.isdisjoint(
        {row for band in I_BANDS for row, _ in band.separators}
    )
    assert [planned_points(row) for row in FACTORY_ROWS[:3]] == [5, 3, 3]


@settings(deadline=None, max_examples=6)
@given(st.integers(0, 2**32), st.floats(0.2, 0.8))
def test_layout_moves_are_legal_and_score_as_planned(seed: int, share: float) -> None:
    """A random stream of I's (``share`` of them) and 1×1 factories until the layout has no room: each
    move passes the rules and earns its strip's planned points, wherever the two stacks meet."""
    rng, land = random.Random(seed), np.asarray(empty_land()).copy()
    placed_count = 0
    while True:
        kind = rng.random() < share
        request = I_H if kind else rect(1, 1)
        move = layout_move(land, request, Mode.FAITHFUL)
        if move is None:
            break
        placed = resolve_move(land, request, move, Mode.FAITHFUL)
        assert not isinstance(placed, Violation)
        strip = next(s for s in (I_BANDS if kind else FACTORY_ROWS) if s.top == move.location[0])
        assert placed.delta == planned_points(strip)
        land = np.array(placed.land, copy=True)
        placed_count += 1
    assert placed_count > 250  # the stacks met only after most of the land was used
    assert (land == CellType.EMPTY).sum() < 400


def test_layout_fills_the_land_with_i_pentominoes_for_2996_points() -> None:
    """400 I's at 9 or 7 points (3000), but the first one is placed before the layout lays its resorts."""
    record = play(Pentocity(sequencer="g6", cpu_time=None), make_player("bands", 1), seed=869)
    final = record.final_state
    assert (record.outcome.termination, final.score, final.accepted, final.rejects) == (
        "normal",
        2996,
        400,
        3,
    )


def test_layout_places_the_first_request_bare_and_lays_resorts_from_the_second() -> None:
    """The first I goes to the first band without water or park (5 points); the second lays the missing
    resort prefixes of both rows and scores 9; an F instead goes to the packer, beside a bare I."""
    game = Pentocity(sequencer="g6", cpu_time=None)
    state = game.new_initial_state(seed=1)
    state = state.apply_action(state.chance_outcomes()[0][0])
    first = make_player("bands", 1).act(state, TimeControl())
    assert first.info.get("layout") is True and first.action.location == (1, 0)
    assert not (first.action.road or first.action.water or first.action.park)
    state = state.apply_action(first.action)
    assert state.score == 5
    for request, layout in ((I_H, True), (PENTO[1], False)):
        player = make_player("bands", 1)
        assert isinstance(player, BandPlayer)
        pending = PentocityState(game, state.land, state.sequencer, request, requests=2)
        decision = player.act(pending, TimeControl())
        assert decision.info.get("layout", False) is layout
        after = pending.apply_action(decision.action)
        if layout:
            assert decision.action.location == (1, 1) and after.score - pending.score == 9
            assert decision.action.water == frozenset((0, j) for j in range(4))
            assert decision.action.park == frozenset((6, j) for j in range(4))
        else:
            assert not player.layout and after.score - pending.score >= 5


def test_confirm_one_lays_resorts_from_the_first_request() -> None:
    """With ``confirm=1`` the layout starts at once: the first I earns both bonuses."""
    state = Pentocity(sequencer="g6", cpu_time=None).new_initial_state(seed=1)
    state = state.apply_action(state.chance_outcomes()[0][0])
    decision = make_player("bands", 1, confirm=1).act(state, TimeControl())
    assert state.apply_action(decision.action).score == 9


def test_layout_balances_i_pentominoes_and_factories() -> None:
    """g9 (I's and 1×1 factories, 50/50): both stacks grow until they meet; well above 2016's 2532."""
    record = play(Pentocity(sequencer="g9", cpu_time=None), make_player("bands", 1), seed=84)
    assert record.outcome.termination == "normal"
    assert record.final_state.score > 3000


def test_layout_hands_over_to_the_packer_for_good_after_another_request() -> None:
    """An X arrives after layout moves: the packer plays it, and the I that follows, as the packer would."""
    game = Pentocity(sequencer="g6", cpu_time=None)
    bands, packer = make_player("bands", 1), make_player("packer", 1)
    state = game.new_initial_state(seed=1)
    for _ in range(3):
        state = state.apply_action(state.chance_outcomes()[0][0])
        decision = bands.act(state, TimeControl())
        assert decision.info.get("layout") is True
        state = state.apply_action(decision.action)
    for request in (X, I_H):
        pending = PentocityState(game, state.land, state.sequencer, request, requests=state.requests + 1)
        decision = bands.act(pending, TimeControl())
        assert "layout" not in decision.info
        assert decision.action == packer.act(pending, TimeControl()).action
        state = pending.apply_action(decision.action)


def test_layout_is_off_under_the_statement_rules() -> None:
    """The layout relies on the faithful rules (edge access two cells deep, factory bonuses)."""
    game = Pentocity(sequencer="g6", mode="statement", cpu_time=None)
    state = game.new_initial_state(seed=1)
    state = state.apply_action(state.chance_outcomes()[0][0])
    decision = make_player("bands", 1).act(state, TimeControl())
    assert "layout" not in decision.info and state.check(decision.action) is None


def test_reserve_keeps_the_last_place_of_the_largest_factory() -> None:
    """Two holes in a land of roads: a 5×5 one near the factory corner and a 3×3 one. The packer puts a
    1×1 factory (with its pond and field) into the 5×5 hole; the reserving packer keeps that hole whole."""
    game = Pentocity(cpu_time=None)
    land = np.full((SIDE, SIDE), CellType.ROAD, dtype=np.uint8)
    land[40:45, 40:45] = land[40:43, 30:33] = CellType.EMPTY
    state = PentocityState(
        game, frozen(land), game.new_initial_state(seed=1).sequencer, rect(1, 1), requests=5
    )
    assert big_places(state.land, rect(5, 5)) == 1
    moves = []
    for weight in (0.0, 10.0):
        player = make_player("reserve", 1, reserve_weight=weight)
        assert isinstance(player, ReservePacker)
        player.big = rect(5, 5)  # as if a 5×5 factory had been requested earlier in the game
        moves.append(player.act(state, TimeControl()).action)
    assert moves[0].location == (44, 44) and moves[1].location == (42, 32)
    after = resolve_move(state.land, rect(1, 1), moves[1], Mode.FAITHFUL)
    assert not isinstance(after, Violation) and big_places(after.land, rect(5, 5)) == 1


def test_filler_factories_take_a_hole_anywhere() -> None:
    """A 1×1 factory with a ready pond and field near the top-left corner: the packer still carries it to
    the factory corner; with ``filler_diagonal=0`` (as ``best``) it takes the hole and scores 5 there."""
    game = Pentocity(cpu_time=None)
    land = np.asarray(empty_land()).copy()
    land[10, 10:14], land[12, 10:14], land[11, 9] = CellType.WATER, CellType.PARK, CellType.ROAD
    land[11, 0:9] = CellType.ROAD
    state = PentocityState(
        game, frozen(land), game.new_initial_state(seed=1).sequencer, rect(1, 1), requests=9
    )
    rows = []
    for weight in (1.0, 0.0):
        move = make_player("packer", 1, filler_diagonal=weight).act(state, TimeControl()).action
        placed = resolve_move(state.land, rect(1, 1), move, Mode.FAITHFUL)
        assert not isinstance(placed, Violation) and placed.delta == 5
        rows.append(move.location[0])
    assert rows[0] >= 40 and rows[1] == 11


def big_cover_twin(land: Land, factory: Building) -> int:
    """Readable twin of ``big_cover``: try every rotation at every corner, cell by cell."""

    def free(i: int, j: int) -> bool:
        around = [(i + a, j + b) for a, b in ((0, 1), (0, -1), (1, 0), (-1, 0))]
        near = [land[a, b] for a, b in around if 0 <= a < SIDE and 0 <= b < SIDE]
        return bool(land[i, j] == CellType.EMPTY and CellType.RESIDENCE not in near)

    covered: set[tuple[int, int]] = set()
    for shape in factory.rotations():
        for i in range(SIDE):
            for j in range(SIDE):
                cells = [(i + a, j + b) for a, b in shape]
                if all(a < SIDE and b < SIDE and free(a, b) for a, b in cells):
                    covered.update(cells)
    return len(covered)


@settings(deadline=None, max_examples=8)
@given(st.integers(0, 2**32), st.integers(1, 5), st.integers(1, 5), st.floats(0.0, 0.1))
def test_big_cover_matches_a_cell_by_cell_count(seed: int, h: int, w: int, density: float) -> None:
    rng = np.random.default_rng(seed)
    land = np.where(rng.random((SIDE, SIDE)) < density, rng.integers(1, 6, (SIDE, SIDE)), 0).astype(np.uint8)
    assert big_cover(land, rect(h, w)) == big_cover_twin(land, rect(h, w))
