"""The clear ReversiXT rules: worked examples, turn order, disqualification, scores and
ranks, the action model, JSON, and the conformance checker over the data folder's maps."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rxt_data import folder, loadable_maps

from gridarena.core.checker import check_game
from gridarena.core.errors import ActionParseError, IllegalActionError, StateFormatError
from gridarena.core.files import FileReadError
from gridarena.core.registry import make
from gridarena.core.types import TERMINAL, Outcome
from gridarena.games.reversixt.capture import competition_ranks, returns_from_ranks
from gridarena.games.reversixt.formats import (
    BONUS_BOMB,
    BONUS_OVERRIDE,
    EXPANSION,
    HOLE,
    MapFormatError,
    Move,
    parse_map,
    parse_move,
    read_map,
)
from gridarena.games.reversixt.rules import (
    PHASE_BOMBS,
    PHASE_OVER,
    PHASE_STONES,
    ReversiState,
    ReversiXT,
    settle,
    wire_move,
)


def game_of(text: str) -> ReversiXT:
    return ReversiXT.from_map(parse_map(text))


def cell(state: ReversiState, x: int, y: int) -> int:
    return state.cells[state.game.board.index(x, y)]


# ---------------------------------------------------------------------------------------------
# Worked examples: captures along transitions (boeseMap07, boeseMap01)


def test_capture_along_a_transition_boese_map_07(shared_data: Path) -> None:
    m = read_map(folder(shared_data) / "semmelsamu-reversixt-bot/maps/boeseMaps/boeseMap07.map")
    s = ReversiXT.from_map(m).new_initial_state()
    after = s.apply_action(Move(6, 0))
    assert sum(a != b for a, b in zip(s.cells, after.cells, strict=True)) == 14  # placed + 13 flipped
    assert after.cells.count(1) == 15 and after.cells.count(2) == 0


def test_a_run_back_to_the_placed_field_captures_nothing_boese_map_01(shared_data: Path) -> None:
    m = read_map(folder(shared_data) / "semmelsamu-reversixt-bot/maps/boeseMaps/boeseMap01.map")
    s = ReversiXT.from_map(m).new_initial_state()
    assert s.legal_actions() == [Move(7, 1)]
    assert "captures nothing" in (s.illegal_reason(Move(3, 0)) or "")


def test_a_run_through_a_mirror_comes_back_and_captures_nothing() -> None:
    # (2,0) is glued to itself to the right (a mirror): from (0,0) the run passes (1,0), (2,0), turns,
    # passes (2,0) and (1,0) again and arrives on the placed field: no capture, so no move at all.
    s = game_of("2 0 0 0 2 3  0 2 2  1 - -\n2 0 2 <-> 2 0 2\n").new_initial_state()
    assert s.phase == PHASE_OVER and s.phase1_scores == (1, 2)
    # without the mirror the run falls off the board: no move either; with a stone of player 1 at the
    # end of the row the run closes before the mirror and captures both
    t = game_of("2 0 0 0 2 3  0 2 1  1 - -\n2 0 2 <-> 2 0 2\n").new_initial_state()
    assert t.legal_actions() == [Move(0, 0)]
    assert t.apply_action(Move(0, 0)).cells.count(1) == 4


# ---------------------------------------------------------------------------------------------
# Turn order (5.5, 5.6, 6.1)


def test_players_without_moves_are_skipped_and_one_player_may_move_twice() -> None:
    g = game_of("3 0 0 0 1 5  1 2 0 3 0")
    s = g.new_initial_state()
    assert s.mover == 1 and s.legal_actions() == [Move(2, 0)]
    after = s.apply_action(Move(2, 0))
    # player 2 has no stone left, player 3 cannot capture: player 1 moves again
    assert after.phase == PHASE_STONES and after.mover == 1 and after.legal_actions() == [Move(4, 0)]
    end = after.apply_action(Move(4, 0))
    assert end.phase == PHASE_OVER and end.phase1_scores == (5, 0, 0) and end.scores() == (5, 0, 0)


def test_phase_two_starts_after_the_last_mover_and_bombs_in_order() -> None:
    g = game_of("3 0 1 0 1 6  1 2 0 - 3 0")
    s = g.new_initial_state()
    after = s.apply_action(Move(2, 0))
    assert after.phase == PHASE_BOMBS and after.mover == 2  # L = 1: player 2 bombs first
    assert after.phase1_scores == (3, 0, 1)
    a = after.apply_action(Move(5, 0))
    assert a.mover == 3
    b = a.apply_action(Move(4, 0))
    assert b.mover == 1
    c = b.apply_action(Move(0, 0))
    assert c.is_terminal() and c.current_player() == TERMINAL


def test_bombing_map_without_phase_one_moves_starts_with_player_one() -> None:
    s = game_of("2 0 1 0 1 4  1 0 0 2").new_initial_state()
    assert s.phase == PHASE_BOMBS and s.mover == 1 and s.phase1_scores == (1, 1)


def test_override_only_player_is_not_skipped() -> None:
    s = game_of("2 1 0 0 1 4  1 x - 2").new_initial_state()
    assert s.legal_actions() == [Move(1, 0)]
    after = s.apply_action(Move(1, 0))
    assert after.overrides == (0, 1) and cell(after, 1, 0) == 1


def test_phase_two_ends_when_no_field_is_left() -> None:
    s = game_of("2 0 3 5 1 2  1 2").new_initial_state()
    assert s.phase == PHASE_BOMBS
    after = s.apply_action(Move(0, 0))
    assert after.cells == bytes([HOLE, HOLE]) and after.is_terminal()  # bombs left, no field (ours)


# ---------------------------------------------------------------------------------------------
# Specials (5.3, 5.4) and the action model


def test_special_bytes_are_enumerated_and_checked() -> None:
    s = game_of("3 0 0 0 1 6  1 2 c 3 2 b").new_initial_state()
    moves = s.legal_actions()
    assert [m for m in moves if (m.x, m.y) == (2, 0)] == [Move(2, 0, 1), Move(2, 0, 2), Move(2, 0, 3)]
    assert s.illegal_reason(Move(2, 0, 0)) == "invalid choice for choice-move: 0"
    assert s.illegal_reason(Move(2, 0, 4)) == "invalid choice for choice-move: 4"
    s2 = game_of("2 0 0 0 1 3  1 2 b").new_initial_state()
    assert s2.legal_actions() == [Move(2, 0, BONUS_BOMB), Move(2, 0, BONUS_OVERRIDE)]
    assert s2.illegal_reason(Move(2, 0, 0)) == "invalid choice for bonus-move"
    assert s2.apply_action(Move(2, 0, BONUS_OVERRIDE)).overrides == (1, 0)
    s3 = game_of("2 0 0 0 1 3  1 2 0").new_initial_state()
    assert s3.illegal_reason(Move(2, 0, 1)) == "invalid choice for plain or inversion move"


def test_invalid_moves_use_the_reference_words() -> None:
    s = game_of("2 0 1 0 2 3  1 2 0  - 0 0").new_initial_state()
    assert (s.illegal_reason(Move(9, 9)) or "").startswith("Sorry, this move was invalid: (9,9) is outside")
    assert (s.illegal_reason(Move(0, 1)) or "").endswith("(0,1) is a hole")
    assert (s.illegal_reason(Move(1, 0)) or "").endswith("needs an override stone")
    assert (s.illegal_reason(Move(1, 1)) or "").endswith("captures nothing")
    assert s.illegal_reason("nonsense") is not None  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="reversixt: Sorry, this move was invalid"):
        s.apply_action(Move(1, 1))


def test_bombs_carry_special_zero_and_wire_moves_clear_it() -> None:
    s = game_of("2 0 1 0 1 2  1 2").new_initial_state()
    assert s.phase == PHASE_BOMBS
    assert s.illegal_reason(Move(0, 0, 7)) is not None
    assert wire_move(s, 0, 0, 7) == Move(0, 0, 0)
    t = game_of("3 0 0 0 1 6  1 2 c 3 2 b").new_initial_state()
    assert wire_move(t, 2, 0, 3) == Move(2, 0, 3)


@given(st.integers(0, 999), st.integers(0, 999), st.integers(0, 255))
def test_move_text_round_trips(x: int, y: int, s: int) -> None:
    assert parse_move(Move(x, y, s).to_text()) == Move(x, y, s)


@pytest.mark.parametrize("bad", ["", "a,b", "1", "1,2,3,4", "-1,2", "(1;2)"])
def test_bad_move_text_is_refused(bad: str) -> None:
    with pytest.raises(ActionParseError, match="is not a move"):
        parse_move(bad)


# ---------------------------------------------------------------------------------------------
# Disqualification (7) and ranks (8)


def test_disqualification_lets_the_game_go_on_without_the_offender() -> None:
    g = ReversiXT("sampler")
    s = g.new_initial_state()
    assert s.mover == 1
    out = s.forfeit(0, "illegal", "Sorry, this move was invalid")
    assert not out.is_terminal() and out.mover == 2 and out.last == 1  # as if 1 had moved (ours)
    assert out.cells == s.cells  # his stones stay
    later = out
    rng = random.Random(5)
    while not later.is_terminal():
        assert later.mover != 1
        later = later.apply_action(rng.choice(later.legal_actions()))
    assert later.scores()[0] is None and later.ranks()[0] == 3
    outcome = later.outcome()
    assert outcome is not None and outcome.termination == "illegal" and outcome.forfeit_player == 0
    assert later.result_info()["disqualified"] == {"1": "Sorry, this move was invalid"}
    assert outcome.ranks() == later.ranks()


def test_forfeit_of_a_waiting_player_keeps_the_mover() -> None:
    s = ReversiXT("sampler").new_initial_state()
    out = s.forfeit(2, "crash", "disconnected")
    assert out.mover == 1 and out.last == s.last and out.disqualified[2] == "disconnected"
    assert out.forfeit(2, "crash", "again") == out


def test_last_player_standing_ends_the_game_without_phase_one_scores() -> None:
    s = ReversiXT("othello8").new_initial_state()
    out = s.forfeit(0, "timeout", "timeout during move")
    assert out.is_terminal() and out.phase1_scores is None
    outcome = out.outcome()
    assert outcome is not None and outcome.returns == (-1.0, 1.0) and outcome.forfeit_player == 0
    assert out.result_info() == {
        "scores": [None, 2],
        "ranks": [2, 1],
        "phase1_scores": None,
        "disqualified": {"1": "timeout during move"},
    }


def test_disqualified_stones_are_captured_and_inverted_like_any() -> None:
    g = game_of("3 0 0 0 1 5  1 2 3 i 3")
    s = g.new_initial_state().forfeit(1, "illegal", "x")
    assert s.mover == 1
    after = s.apply_action(Move(3, 0))
    # player 1 captures (1,0) of the disqualified player 2 and (2,0)? no: (1,0) is 2, (2,0) is 3, then i
    assert after.disqualified[1] == "x"
    assert after.cells.count(2) >= 1  # inversion turned player 1's stones into player 2's


def test_competition_ranks_and_returns() -> None:
    assert competition_ranks([10, 10, 3]) == (1, 1, 3)
    assert competition_ranks([None, 0, None, 0]) == (3, 1, 3, 1)
    assert returns_from_ranks((1, 2)) == (1.0, -1.0)
    assert returns_from_ranks((1, 1)) == (1.0, 1.0)


@given(st.lists(st.one_of(st.none(), st.integers(0, 50)), min_size=2, max_size=8))
def test_returns_keep_the_ranks(scores: list[int | None]) -> None:
    ranks = competition_ranks(scores)
    assert Outcome(returns_from_ranks(ranks)).ranks() == ranks
    alive = [s for s in scores if s is not None]
    for r, s in zip(ranks, scores, strict=True):
        if s is None:
            assert r == len(alive) + 1
        else:
            assert r == 1 + sum(o > s for o in alive)


# ---------------------------------------------------------------------------------------------
# The game object, JSON, maps


def test_project_maps_and_the_default() -> None:
    assert make("reversixt").params == {"map": ""}
    assert ReversiXT().board.name == "sampler"
    assert ReversiXT("othello8").board.count(1) == 2
    assert ReversiXT("mini").num_players == 2


def test_a_bad_map_parameter_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(FileReadError, match=r"nowhere\.map: cannot read the map: no such file"):
        make("reversixt(map=nowhere.map)")
    bad = tmp_path / "bad.map"
    bad.write_text("9 0 0 0 1 1 0")
    with pytest.raises(MapFormatError, match=r"bad\.map:1:1: invalid number of players"):
        make(f"reversixt(map={bad})")


def test_a_game_from_a_parsed_map_rebuilds_from_its_params() -> None:
    g = game_of("2 1 0 0 1 4  1 2 0 x")
    again = make("reversixt", **g.params)
    assert again == g and again.board == g.board


def test_json_round_trip_with_history() -> None:
    g = ReversiXT("sampler")
    s = g.new_initial_state().apply_action(Move(3, 1, 2)).forfeit(2, "protocol", "malformed")
    data = json.loads(json.dumps(s.to_json()))
    again = g.state_from_json(data)
    assert again == s and again.to_json() == s.to_json() and again.last_move == Move(3, 1, 2)


@pytest.mark.parametrize(
    ("change", "match"),
    [
        ({"board": ["0"]}, "'board' must be 6 rows of 7 symbols"),
        ({"overrides": [1, 1]}, "'overrides' must be 3 non-negative integers"),
        ({"phase": 7}, "'phase' must be 1..3"),
        ({"disqualified": [None]}, "'disqualified' must have 3 entries"),
        ({"bombs": None}, "not a state"),
    ],
)
def test_bad_json_names_the_field(change: dict[str, object], match: str) -> None:
    g = ReversiXT("sampler")
    data = {**g.new_initial_state().to_json(), **change}
    with pytest.raises(StateFormatError, match=match):
        g.state_from_json(data)


def test_settle_reaches_a_player_with_a_move_or_the_end() -> None:
    g = ReversiXT("sampler")
    rng = random.Random(3)
    for _ in range(5):
        s = g.new_initial_state()
        plies = 0
        while not s.is_terminal():
            if s.phase == PHASE_STONES:
                assert s.valid_cells()
            else:
                assert s.bombs[s.mover - 1] > 0
            s = s.apply_action(rng.choice(s.legal_actions()))
            plies += 1
        assert plies <= g.max_plies()


def test_expansion_stones_count_for_nobody() -> None:
    s = game_of("2 1 0 0 1 4  1 x x 2").new_initial_state()
    assert s.scores() == (1, 1) and s.cells.count(EXPANSION) == 2


def test_state_equality_ignores_history() -> None:
    g = ReversiXT("sampler")
    s = g.new_initial_state()
    twin = settle(g, s.cells, s.overrides, s.bombs, s.disqualified, s.phase, s.last, last_move=Move(0, 0))
    assert twin == s and hash(twin) == hash(s)


# ---------------------------------------------------------------------------------------------
# The conformance checker over the data folder's maps (gridarena check reversixt(map=...))

#: Maps whose random games take seconds each in the clear rules (big boards, many players): -m slow.
LARGE = 1300


def data_maps(shared_data: Path, large: bool) -> list[Path]:
    out = []
    for path in loadable_maps(shared_data):
        m = read_map(path)
        if (m.height * m.width > LARGE) == large:
            out.append(path)
    return out


def test_conformance_on_every_small_data_map(shared_data: Path) -> None:
    maps = data_maps(shared_data, large=False)
    assert len(maps) >= 58
    for path in maps:
        assert check_game(make("reversixt", map=str(path)), games=1, seed=0) > 0, path


#: The data maps above ``LARGE`` cells (checked by the test below that they are all here).
LARGE_MAPS = [
    "semmelsamu-reversixt-bot/compMaps/comp2024_04_4p.map",
    "semmelsamu-reversixt-bot/compMaps/comp2024_04_8p.map",
    "semmelsamu-reversixt-bot/maps/matchpoint/frequentlyPlayed/20210622-RWTH-50_50_8_25_rnd_1.map",
    "semmelsamu-reversixt-bot/maps/matchpoint/frequentlyPlayed/rwth-2020_comp_07_8p.map",
]


def test_the_large_map_list_is_complete(shared_data: Path) -> None:
    base = folder(shared_data)
    assert sorted(str(p.relative_to(base)) for p in data_maps(shared_data, large=True)) == sorted(LARGE_MAPS)


@pytest.mark.slow
@pytest.mark.timeout(3600)
@pytest.mark.parametrize("name", LARGE_MAPS)
def test_conformance_on_a_large_data_map(shared_data: Path, name: str) -> None:
    assert check_game(make("reversixt", map=str(folder(shared_data) / name)), games=1, seed=0) > 0


def test_conformance_on_the_project_maps() -> None:
    for name in ("mini", "othello8"):
        assert check_game(make("reversixt", map=name), games=3, seed=1) > 0


def test_candidate_pruning_finds_every_valid_cell(shared_data: Path) -> None:
    """valid_cells looks only at cells one step before foreign or expansion stones: it equals a scan of all cells."""
    from gridarena.games.reversixt.capture import is_valid_placement

    names = [
        "initialMaps/window.map",
        "fightclub/map.map",
        "boeseMaps/boeseMap04.map",
        "initialMaps/crown.map",
    ]
    for name in names:
        g = ReversiXT.from_map(read_map(folder(shared_data) / "semmelsamu-reversixt-bot/maps" / name))
        rng = random.Random(11)
        s = g.new_initial_state()
        while s.phase == PHASE_STONES:
            for k in range(1, g.num_players + 1):
                ov = s.overrides[k - 1]
                every = [i for i in range(len(s.cells)) if is_valid_placement(g.steps, s.cells, i, k, ov)]
                assert s.valid_cells(k) == every, (name, k)
            s = s.apply_action(rng.choice(s.legal_actions()))
