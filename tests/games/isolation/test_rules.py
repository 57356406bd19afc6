"""The reference rules, rule by rule, against AIND's ``isolation/isolation.py``."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gridarena.core.errors import ActionParseError, IllegalActionError, StateFormatError
from gridarena.core.types import TERMINAL
from gridarena.games.isolation.formats import cell_to_text, text_to_cell
from gridarena.games.isolation.rules import Isolation, State, knight_targets
from gridarena.games.isolation.rules import state_from_board as parse_board


def play(state: State, *cells: str) -> State:
    for text in cells:
        state = state.apply_action(state.string_to_action(text))
    return state


def test_placements_go_anywhere_blank() -> None:
    start = Isolation().new_initial_state()
    assert start.legal_actions() == list(range(49))
    after = play(start, "d3")
    assert len(after.legal_actions()) == 48 and after.string_to_action("d3") not in after.legal_actions()


def test_later_moves_are_knight_jumps_over_anything() -> None:
    state = play(Isolation().new_initial_state(), "d4", "a1")
    assert [cell_to_text(c, 7) for c in state.legal_actions()] == [
        "c2",
        "e2",
        "b3",
        "f3",
        "b5",
        "f5",
        "c6",
        "e6",
    ]
    # surround d4 by blocked cells: knights jump, so all eight stay legal
    walled = parse_board(
        [".......", ".......", "..###..", "..#1#..", "..###..", ".......", "2......"], ply=10
    )
    assert len(walled.legal_actions()) == 8


def test_corner_has_two_moves_and_no_wrap_around() -> None:
    assert knight_targets(0, 7, 7) == (9, 15)
    assert knight_targets(6, 7, 7) == (11, 19)  # g1 reaches e2 and f3, never the next row's start
    for cell in range(99):
        row, col = divmod(cell, 11)
        for target in knight_targets(cell, 11, 9):
            r, c = divmod(target, 11)
            assert sorted((abs(r - row), abs(c - col))) == [1, 2]


def test_every_visited_cell_stays_blocked() -> None:
    state = play(Isolation(5, 5).new_initial_state(), "a1", "e5", "b3")
    assert not state.is_open(text_to_cell("a1", 5, 5))  # player 1 left a1; it stays blocked
    with pytest.raises(IllegalActionError, match="is blocked"):
        play(state, "e5")


def test_illegal_moves_say_why() -> None:
    state = play(Isolation().new_initial_state(), "d4", "a1")
    with pytest.raises(IllegalActionError, match="d5 is not a knight move from d4"):
        play(state, "d5")
    assert state.illegal_reason(99) == "99 is not a cell of the 7x7 board"
    with pytest.raises(ActionParseError):
        state.string_to_action("z9")


def test_the_player_to_move_without_a_move_loses() -> None:
    # player 1 (to move, ply 4) sits in a corner whose two targets are blocked
    state = parse_board(["1......", "..#....", ".#.....", ".......", ".......", ".......", "......2"])
    assert state.ply == 4 and state.is_terminal() and state.current_player() == TERMINAL
    assert state.returns() == (-1.0, 1.0)
    assert state.outcome() is not None and state.outcome().reason == "player 1 has no legal move"


def test_a_stuck_waiting_player_loses_only_on_its_turn() -> None:
    # player 2 is stuck in a corner but player 1 is to move and has moves: the game goes on
    state = parse_board(["2......", "..#....", ".#.....", "...1...", ".......", ".......", "......."])
    assert state.mover() == 0 and not state.is_terminal()
    after = state.apply_action(state.legal_actions()[0])
    assert after.is_terminal() and after.returns() == (1.0, -1.0)


def test_forfeit_ends_the_game_against_the_forfeiter() -> None:
    state = Isolation().new_initial_state().forfeit(0, "timeout", "too slow")
    assert state.is_terminal() and state.legal_actions() == []
    outcome = state.outcome()
    assert outcome is not None and outcome.returns == (-1.0, 1.0) and outcome.forfeit_player == 0


@pytest.mark.parametrize("width,height", [(0, 7), (7, 27), (1, 1)])
def test_bad_board_sizes_are_refused(width: int, height: int) -> None:
    with pytest.raises(StateFormatError):
        Isolation(width, height)


def test_board_parsing_errors_name_the_place() -> None:
    with pytest.raises(StateFormatError, match="row 2, column 3"):
        parse_board(["...", "..x"])
    with pytest.raises(StateFormatError, match="do not fit ply"):
        parse_board(["1#.", "..."])


@given(st.integers(1, 26), st.integers(1, 26), st.data())
def test_cell_text_round_trip(width: int, height: int, data: st.DataObject) -> None:
    cell = data.draw(st.integers(0, width * height - 1))
    assert text_to_cell(cell_to_text(cell, width), width, height) == cell


@given(st.integers(2, 9), st.integers(2, 9), st.integers(0, 2**32))
def test_random_games_end_within_the_cell_count_and_reparse(width: int, height: int, seed: int) -> None:
    game, rng = Isolation(width, height), random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        assert state.ply == state.blocked.bit_count()
        assert parse_board(state.board_string().split("/")) == state
        state = state.apply_action(state.random_action(rng))
    assert state.ply <= width * height
