"""Pentocity rules: one test (or more) per rule the simulator enforces and per quirk of the Java simulator."""

from __future__ import annotations

import itertools
import json
import random
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gridarena.core.checker import check_game
from gridarena.core.errors import (
    ActionParseError,
    IllegalActionError,
    NotEnumerableError,
    SpecError,
    StateFormatError,
    UnknownNameError,
)
from gridarena.core.javarandom import JavaRandom
from gridarena.core.types import CHANCE, TERMINAL
from gridarena.games.pentocity import CellType, InvalidMoveError, Move, Pentocity, PentocityState
from gridarena.games.pentocity.buildings import (
    PENTO,
    T_DOWN,
    T_RIGHT,
    Building,
    BuildingError,
    Kind,
    X,
    rect,
    residence,
)
from gridarena.games.pentocity.formats import parse_land
from gridarena.games.pentocity.sequencers import Changes, Sequencer, make_sequencer, take

ONE = rect(1, 1)


def at(
    request: Building, land: str = "", mode: str = "faithful", on_invalid: str = "abort"
) -> PentocityState:
    """A state whose player must answer ``request`` on the land drawn in ``land`` (rows from the top)."""
    game = Pentocity(sequencer="random", mode=mode, on_invalid=on_invalid)
    return PentocityState(game, parse_land(land), make_sequencer("random", 1), request)


def reason(state: PentocityState, move: Move) -> str | None:
    """Java's message for an invalid move (``illegal_reason`` adds the offending detail to it)."""
    violation = state.check(move)
    return None if violation is None else violation.message


def score_of(state: PentocityState, move: Move) -> int:
    return state.apply_action(move).score - state.score


# 1.1 Land and cells


def test_land_is_50_by_50_and_empty_at_start() -> None:
    state = Pentocity().new_initial_state(seed=1)
    assert state.land.shape == (50, 50)
    assert not state.land.any()
    assert state.current_player() == CHANCE


def test_a_cell_changes_type_once() -> None:
    state = at(ONE, "p")
    assert reason(state, Move.build((0, 0))) == "Building not buildable."
    assert reason(state, Move.build((0, 1), water=[(0, 0)])) == "Land not empty. Contains PARK"


def test_diagonal_cells_are_not_neighbours() -> None:
    state = at(ONE, ".\n.r")  # a residence at (1, 1); a factory at (0, 0) only touches it diagonally
    assert reason(state, Move.build((0, 0))) is None
    assert reason(state, Move.build((0, 1))) == "Building not buildable."


def test_negative_coordinates_are_refused_like_java_cell() -> None:
    state = at(ONE)
    assert reason(state, Move.build((-1, 0))) == "Negative row"
    assert reason(state, Move.build((0, 0), road=[(3, -2)])) == "Negative column"


# 1.2 Buildings


def test_building_is_normalised_and_must_be_connected() -> None:
    assert residence([(7, 3), (7, 4)]).cells == ((0, 0), (0, 1))
    with pytest.raises(BuildingError, match="Cells not connected"):
        residence([(0, 0), (1, 1)])
    with pytest.raises(BuildingError):
        residence([(0, 0), (0, 0)])


def test_size_is_not_checked_in_faithful_mode() -> None:
    big = Building(Kind.FACTORY, tuple((0, j) for j in range(7)))
    assert reason(at(big), Move.build((0, 0))) is None
    assert big.statement_problem() == "a factory must be a rectangle with sides 1 to 5, not 1×7"


def test_rotation_definitions() -> None:
    # R1: (i, j) -> (j, H - i); R2: (H - i, W - j); R3: (W - j, i); each normalised, sorted here.
    l_shape = PENTO[3]  # (0,0) (0,1) (1,0) (2,0) (3,0)
    r0, r1, r2, r3 = l_shape.rotations()
    assert r0 == l_shape.cells
    assert r1 == tuple(sorted((j, 3 - i) for i, j in r0))
    assert r2 == tuple(sorted((3 - i, 1 - j) for i, j in r0))
    assert r3 == tuple(sorted((1 - j, i) for i, j in r0))


@pytest.mark.parametrize(
    ("building", "count"),
    [(X, 1), (rect(1, 1), 1), (rect(3, 3), 1), (PENTO[0], 2), (PENTO[16], 2), (rect(2, 5), 2), (PENTO[1], 4)],
)
def test_only_distinct_rotations_exist(building: Building, count: int) -> None:
    assert len(building.rotations()) == count
    assert len(set(building.rotations())) == count


def test_readme_rotation_3_of_a_symmetric_shape_is_invalid() -> None:
    state = at(X)
    assert reason(state, Move.build((0, 0), rotation=1)) == "Invalid building rotation"
    assert reason(state, Move.build((0, 0), rotation=-1)) == "Invalid building rotation"
    assert reason(at(PENTO[1]), Move.build((0, 0), rotation=3)) is None


def test_no_mirroring() -> None:
    f, mirrored = PENTO[1], PENTO[2]
    assert mirrored.cells not in f.rotations()
    assert T_RIGHT.cells in T_DOWN.rotations()


# 1.3 The game loop


def test_chance_and_player_turns_alternate() -> None:
    state = Pentocity(sequencer="g6").new_initial_state(seed=3)
    (outcome, probability), *rest = state.chance_outcomes()
    assert not rest and probability == 1.0 and outcome == PENTO[0]
    assert state.illegal_reason(ONE) is not None
    state = state.apply_action(outcome)
    assert state.current_player() == 0 and state.request == PENTO[0] and state.chance_outcomes() == ()
    state = state.apply_action(Move.build((0, 0)))
    assert state.current_player() == CHANCE and state.requests == 1


def test_request_stream_does_not_depend_on_the_moves() -> None:
    game = Pentocity(sequencer="random")
    seen: list[list[object]] = []
    for bot_seed in (1, 2):
        rng, state = random.Random(bot_seed), game.new_initial_state(seed=869)
        requests: list[object] = []
        while not state.is_terminal() and len(requests) < 40:
            if state.current_player() == CHANCE:
                requests.append(state.chance_outcomes()[0][0])
            state = state.apply_action(state.random_action(rng))
        seen.append(requests)
    shortest = min(len(s) for s in seen)
    assert seen[0][:shortest] == seen[1][:shortest] == take(make_sequencer("random", 869), shortest)


# 1.4 Moves and their order


def test_water_then_park_then_road() -> None:
    state = at(ONE)
    assert (
        reason(state, Move.build((0, 5), water=[(9, 9)], park=[(9, 9)])) == "Land not empty. Contains WATER"
    )
    assert reason(state, Move.build((0, 5), park=[(9, 9)], road=[(9, 9)])) == "Land not empty. Contains PARK"
    assert (
        reason(state, Move.build((0, 5), water=[(0, 9)], road=[(0, 9)])) == "Land not empty. Contains WATER"
    )


def test_extras_off_the_grid_raise_the_java_index_error() -> None:
    state = at(ONE)
    assert reason(state, Move.build((0, 5), water=[(50, 3)])) == "Index 50 out of bounds for length 50"
    assert reason(state, Move.build((0, 5), park=[(3, 51)])) == "Index 51 out of bounds for length 50"


def test_building_may_not_overlap_this_moves_own_roads() -> None:
    state = at(ONE)
    assert reason(state, Move.build((0, 0), road=[(0, 0)])) == "Building not buildable."


def test_location_is_the_bounding_box_corner_not_a_shape_cell() -> None:
    after = at(X).apply_action(Move.build((0, 0)))
    assert after.land[0, 0] == CellType.EMPTY
    assert after.land[0, 1] == after.land[1, 0] == after.land[2, 1] == CellType.RESIDENCE


def test_extras_need_not_touch_the_building_and_serve_later() -> None:
    state = at(ONE).apply_action(Move.build((0, 0), road=[(10, 0), (10, 1), (10, 2)], park=[(30, 30)]))
    assert state.land[10, 2] == CellType.ROAD and state.land[30, 30] == CellType.PARK
    later = replace_request(state, ONE)
    assert reason(later, Move.build((11, 2))) is None  # served by the earlier road


def test_rejection_builds_nothing() -> None:
    state = at(ONE)
    after = state.apply_action(Move.reject())
    assert np.array_equal(after.land, state.land) and after.rejects == 1 and after.score == 0


def test_rotation_is_checked_before_the_extras() -> None:
    state = at(ONE)
    both = Move.build((0, 0), rotation=1, water=[(0, 0)], park=[(0, 0)])
    assert reason(state, both) == "Invalid building rotation"
    assert (
        reason(state, Move.build((0, 0), rotation=1, road=[(-1, 0)])) == "Negative row"
    )  # thrown in the player


def test_roads_are_validated_as_a_whole_after_every_move() -> None:
    stray = at(ONE, "\n" * 9 + "....#")  # a disconnected road (only a loaded state can hold one)
    assert reason(stray, Move.build((0, 0))) == "Roads not connected"


# 1.5 buildable


def test_buildable_needs_the_grid_and_empty_cells() -> None:
    state = at(PENTO[0])
    assert reason(state, Move.build((0, 46))) == "Building not buildable."
    assert reason(state, Move.build((0, 45))) is None
    assert reason(state, Move.build((49, 0), rotation=1)) == "Building not buildable."


def test_residence_and_factory_may_not_touch() -> None:
    assert reason(at(ONE, ".r"), Move.build((0, 0))) == "Building not buildable."
    assert reason(at(X, "....\n...f"), Move.build((0, 0))) == "Building not buildable."
    assert reason(at(X, "....\n...r"), Move.build((0, 0))) is None
    assert reason(at(ONE, ".f"), Move.build((0, 0))) is None


def test_either_kind_may_touch_roads_parks_and_water() -> None:
    for kind in (ONE, residence([(0, 0)])):
        assert reason(at(kind, "#w\n.p"), Move.build((1, 0))) is None


# 1.6 Roads


def test_roads_must_reach_the_edge() -> None:
    state = at(ONE)
    assert reason(state, Move.build((0, 0), road=[(10, 10)])) == "Roads not connected"
    assert reason(state, Move.build((0, 0), road=[(10, 0), (10, 1)])) is None
    assert reason(state, Move.build((0, 0), road=[(11, 1), (10, 0)])) == "Roads not connected"  # diagonal


def test_new_roads_may_connect_through_old_roads_and_the_ring() -> None:
    land = "\n" * 4 + "#####"
    state = at(ONE, land)
    assert reason(state, Move.build((0, 0), road=[(5, 4), (6, 4)])) is None
    assert reason(state, Move.build((0, 0), road=[(5, 6)])) == "Roads not connected"
    both_edges = [(20, j) for j in range(50)]
    assert reason(state, Move.build((0, 0), road=both_edges)) is None


# 1.7 Road access and the two-cell edge quirk


@pytest.mark.parametrize(
    ("location", "faithful", "statement"),
    [
        ((1, 1), True, False),
        ((2, 2), False, False),
        ((2, 1), True, False),
        ((48, 30), True, False),
        ((0, 7), True, True),
        ((30, 49), True, True),
        ((2, 47), False, False),
    ],
)
def test_edge_access(location: tuple[int, int], faithful: bool, statement: bool) -> None:
    for mode, expected in (("faithful", faithful), ("statement", statement)):
        got = reason(at(ONE, mode=mode), Move.build(location))
        assert got == (None if expected else "Invalid building placement"), (mode, location)


def test_faithful_edge_access_even_when_the_border_cell_is_built_on() -> None:
    assert reason(at(residence([(0, 0)]), "..r.."), Move.build((1, 2))) is None
    state = at(ONE, "..p..")
    assert reason(state, Move.build((1, 2))) is None
    assert reason(at(ONE, "..p..", mode="statement"), Move.build((1, 2))) == "Invalid building placement"


def test_access_from_a_road_neighbour() -> None:
    land = "\n" * 9 + "##########"
    for mode in ("faithful", "statement"):
        assert reason(at(ONE, land, mode=mode), Move.build((10, 9))) is None
        assert reason(at(ONE, land, mode=mode), Move.build((11, 9))) == "Invalid building placement"
        assert reason(at(ONE, land, mode=mode), Move.build((11, 9), road=[(10, 9)])) is None
        assert reason(at(ONE, land, mode=mode), Move.build((11, 9), road=[(10, 10)])) == "Roads not connected"


# 1.8 Ponds and fields; 1.9 scoring


def test_ponds_and_fields_need_four_connected_cells() -> None:
    res = residence([(0, 0)])
    assert score_of(at(res, "www"), Move.build((1, 1))) == 1
    assert score_of(at(res, "wwww"), Move.build((1, 1))) == 3
    assert score_of(at(res, "ww..\n..ww"), Move.build((1, 1))) == 1  # diagonal: two groups of 2
    assert score_of(at(res, "www.\n..ww"), Move.build((1, 1))) == 3
    assert score_of(at(res, "pp\npp"), Move.build((2, 0))) == 3


def test_residence_scores_5_7_or_9() -> None:
    state = at(X)
    assert score_of(state, Move.build((0, 0))) == 5
    assert score_of(state, Move.build((0, 0), water=[(3, j) for j in range(4)])) == 7
    both = Move.build((0, 0), water=[(3, j) for j in range(4)], park=[(0, 3), (1, 3), (2, 3), (2, 4)])
    assert score_of(state, both) == 9


def test_one_bonus_per_kind_however_many_ponds() -> None:
    state = at(residence([(0, 0)]), "wwww.\n.....\n.wwww")
    assert score_of(state, Move.build((1, 1))) == 3  # two ponds touch the cell: still one bonus


def test_factory_bonus_quirk() -> None:
    pond = [(1, j) for j in range(1, 5)]
    field = [(0, j) for j in range(3, 7)]
    assert score_of(at(ONE), Move.build((0, 1), water=pond)) == 3
    assert score_of(at(ONE), Move.build((0, 1), water=pond, park=[(0, 2), (0, 3), (0, 4), (0, 5)])) == 5
    assert score_of(at(ONE, mode="statement"), Move.build((0, 0), water=[(1, j) for j in range(4)])) == 1
    assert score_of(at(rect(2, 2), mode="statement"), Move.build((2, 0), park=field)) == 4


def test_bonus_is_fixed_at_placement() -> None:
    res = residence([(0, 0)])
    state = at(res).apply_action(Move.build((0, 0)))
    assert state.score == 1
    state = replace_request(state, res).apply_action(
        Move.build((5, 0), water=[(0, 1), (0, 2), (0, 3), (0, 4)])
    )
    assert state.score == 1 + 1  # the first residence gains nothing from the later pond


def test_pond_extended_later_and_shared() -> None:
    res = residence([(0, 0)])
    state = at(res, "ww.\n").apply_action(Move.build((3, 0), water=[(0, 2)]))
    assert state.score == 1  # three cells: not yet a pond
    state = replace_request(state, res).apply_action(Move.build((1, 0), water=[(0, 3)]))
    assert state.score == 1 + 3
    state = replace_request(state, res).apply_action(Move.build((1, 3)))
    assert state.score == 1 + 3 + 3


# 1.10 End of the game; 1.11 invalid moves; 1.12 time


def test_game_ends_at_the_third_cumulative_rejection() -> None:
    state = Pentocity(sequencer="g6").new_initial_state(seed=1)
    plan = [Move.reject(), Move.build((0, 0)), Move.reject(), Move.build((2, 0)), Move.reject()]
    for move in plan:
        assert not state.is_terminal()
        state = state.apply_action(state.chance_outcomes()[0][0]).apply_action(move)
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert state.returns() == (10.0,) and state.rejects == 3
    outcome = state.outcome()
    assert outcome is not None and outcome.termination == "normal"
    assert state.illegal_reason(Move.reject()) == "the game is over"


def test_invalid_move_aborts_with_the_java_message() -> None:
    state = at(ONE)
    with pytest.raises(IllegalActionError, match=r"Roads not connected \(a road cell"):
        state.apply_action(Move.build((0, 0), road=[(9, 9)]))
    with pytest.raises(IllegalActionError, match=r"Land not empty. Contains WATER \(park cell \(9, 9\)\)"):
        state.apply_action(Move.build((0, 0), water=[(9, 9)], park=[(9, 9)]))
    with pytest.raises(InvalidMoveError) as caught:
        state.apply_action(Move.build((0, 0), rotation=2))
    assert caught.value.violation.check == "rotation"
    violation = state.check(Move.build((30, 30)))
    assert violation is not None and violation.check == "access"
    ended = state.forfeit(0, "illegal", str(violation))
    outcome = ended.outcome()
    assert outcome is not None and outcome.termination == "illegal" and outcome.forfeit_player == 0
    assert outcome.reason == "Invalid building placement (Building not next to road.)"
    assert ended.returns() == (0.0,)


def test_on_invalid_reject_policy_counts_towards_three() -> None:
    state = at(ONE, on_invalid="reject")
    bad = Move.build((30, 30))
    assert state.illegal_reason(bad) is None
    after = state.apply_action(bad)
    assert after.rejects == 1 and after.invalid == 1 and np.array_equal(after.land, state.land)
    assert state.child(bad) == after


def test_timeout_keeps_the_score_so_far() -> None:
    state = at(ONE).apply_action(Move.build((0, 0)))
    ended = state.forfeit(0, "timeout", "CPU budget of 300 s used up")
    assert ended.is_terminal() and ended.returns() == (1.0,)
    assert Pentocity().params["cpu_time"] == 300.0 and Pentocity(cpu_time=None).cpu_time is None


# 1.13 Statement mode: request validity


@dataclass(frozen=True, slots=True)
class SixCells(Sequencer):
    """A sequencer no course file has: a 6-cell residence, to exercise ``check_requests``."""

    NAME: ClassVar[str] = "sixcells"

    def _draw(self, rng: JavaRandom) -> tuple[Building, Changes]:
        return residence([(0, j) for j in range(6)]), {}


def test_check_requests_refuses_requests_the_statement_forbids() -> None:
    for check, expected in ((True, "aborted"), (False, None)):
        game = Pentocity(mode="statement", check_requests=check)
        state = PentocityState(game, parse_land(""), SixCells()).apply_action(
            residence([(0, j) for j in range(6)])
        )
        assert state.termination == expected
    assert rect(5, 5).statement_problem() is None and rect(2, 6).statement_problem() is not None


# The game API


def replace_request(state: PentocityState, request: Building) -> PentocityState:
    return PentocityState(state.game, state.land, state.sequencer, request, state.score, state.rejects)


def play_random(seed: int, sequencer: str = "random", mode: str = "faithful") -> list[PentocityState]:
    rng, state = random.Random(seed), Pentocity(sequencer=sequencer, mode=mode).new_initial_state(seed=seed)
    states = [state]
    while not state.is_terminal():
        state = state.apply_action(state.random_action(rng))
        states.append(state)
    return states


def test_random_games_keep_the_invariants() -> None:
    states = play_random(5, "misfits")
    final = states[-1]
    assert final.rejects == 3
    assert final.score >= int(
        (final.land == CellType.RESIDENCE).sum() + (final.land == CellType.FACTORY).sum()
    )
    for before, after in itertools.pairwise(states):
        changed = before.land != after.land
        assert (before.land[changed] == CellType.EMPTY).all()  # nothing is ever demolished
        assert not after.land.flags.writeable
    assert play_random(5, "misfits") == states  # seeded: the same game again


def test_states_are_immutable_and_hashable() -> None:
    state = at(ONE)
    copy = at(ONE)
    assert state == copy and hash(state) == hash(copy)
    state.apply_action(Move.build((0, 0)))
    assert state == copy
    with pytest.raises(ValueError):
        state.land[5, 5] = 1
    assert state.clone() is state


def test_game_options_are_checked() -> None:
    with pytest.raises(SpecError, match="mode"):
        Pentocity(mode="java")
    with pytest.raises(SpecError, match="on_invalid"):
        Pentocity(on_invalid="skip")
    with pytest.raises(UnknownNameError):
        Pentocity(sequencer="g7")
    game = Pentocity(sequencer="g1", mode="statement")
    assert game == Pentocity(**game.params) and hash(game) == hash(Pentocity(**game.params))
    assert game.max_plies() == 5006 and not game.enumerable_actions and game.num_players == 1
    assert "statement" in repr(game)


def test_actions_are_not_enumerable() -> None:
    with pytest.raises(NotEnumerableError):
        at(ONE).legal_actions()


def test_json_round_trip() -> None:
    for state in play_random(3, "tailheavy")[::7]:
        data = json.loads(json.dumps(state.to_json()))
        assert state.game.state_from_json(data) == state


def test_state_from_json_names_the_field() -> None:
    data = at(ONE).to_json()
    with pytest.raises(StateFormatError, match="'score'"):
        Pentocity().state_from_json({**data, "score": -1})
    with pytest.raises(StateFormatError, match="line 3, column 2"):
        Pentocity().state_from_json({**data, "land": ["."] * 2 + [".x"] + ["."] * 47})
    with pytest.raises(StateFormatError, match="params"):
        Pentocity(mode="statement").state_from_json(data)


CELLS = st.tuples(st.integers(-3, 60), st.integers(-3, 60))


@settings(max_examples=60)
@given(
    st.booleans(),
    CELLS,
    st.integers(-1, 4),
    st.lists(st.frozensets(CELLS, max_size=4), min_size=3, max_size=3),
)
def test_move_text_round_trip(
    accept: bool, loc: tuple[int, int], rot: int, sets: list[frozenset[tuple[int, int]]]
) -> None:
    state = at(ONE)
    move = Move(accept, loc, rot, *sets) if accept else Move.reject()
    assert state.string_to_action(state.action_to_string(move)) == move
    state.illegal_reason(move)  # any move gets a verdict, never an exception


def test_request_text_round_trip_and_parse_errors() -> None:
    state = at(ONE)
    for request in take(make_sequencer("random", 84), 20):
        assert state.string_to_action(state.action_to_string(request)) == request
    for bad in ("", "1,2", "1,2 x3", "1,2 r1 3,3", "1;2 r0", "residence 0,0 2,2"):
        with pytest.raises(ActionParseError):
            state.string_to_action(bad)


def test_to_text_shows_header_request_and_land() -> None:
    text = at(ONE, "#r").to_text()
    lines = text.split("\n")
    assert lines[0].startswith("pentocity random faithful: score 0")
    assert lines[1] == "request: factory 0,0"
    assert lines[2].startswith("#r...") and len(lines) == 52


def test_random_action_is_valid_or_a_reject() -> None:
    rng = random.Random(0)
    state = at(X)
    for _ in range(20):
        move = state.random_action(rng)
        assert isinstance(move, Move) and move.accept and state.illegal_reason(move) is None
    full = at(rect(5, 5), "\n".join(["r" * 50] * 50))
    assert full.random_action(rng) == Move.reject()


@pytest.mark.parametrize(
    "game",
    [Pentocity(sequencer="random"), Pentocity(sequencer="misfits", mode="statement", on_invalid="reject")],
    ids=repr,
)
def test_conformance(game: Pentocity) -> None:
    assert check_game(game, games=2, seed=7) > 0
