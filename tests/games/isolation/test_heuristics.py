"""The eight heuristics: the worked example of docs/isolation.md (every number, checked with the AIND code), scipy, and both signatures agreeing."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from iso_states import random_state
from scipy.signal import correlate2d

from gridarena.games.isolation.ai import heuristics as h
from gridarena.games.isolation.aind import Board, board_from_state, samples
from gridarena.games.isolation.rules import State

EXAMPLE_MOVES = [(2, 3), (0, 5), (1, 1), (2, 4)]  # placements, then one jump each

#: heuristic -> (value for player 1, value for player 2), checked with the AIND code
TABLE = {
    "improved": (-4.0, 4.0),
    "center": (12.5, 2.5),
    "linear": (-18.0, -2.0),
    "taxicab": (-0.5, 0.5),
    "intersection": (-18 + 10 / 45, -2 + 10 / 45),
    "correlation": (-18.5, -3.0),
    "null": (0.0, 0.0),
    "open_move": (3.0, 7.0),
}


def example_state() -> State:
    state = State(7, 7)
    for row, col in EXAMPLE_MOVES:
        state = state.apply_action(row * 7 + col)
    return state


def example_board() -> tuple[Board, str, str]:
    board = Board("p1", "p2")
    for move in EXAMPLE_MOVES:
        board.apply_move(move)
    return board, "p1", "p2"


def test_example_position_is_the_spec_s() -> None:
    board, p1, p2 = example_board()
    assert board.move_count == 4 and len(board.get_blank_spaces()) == 45
    assert sorted(board.get_legal_moves(p1)) == [(0, 3), (3, 0), (3, 2)]
    assert sorted(board.get_legal_moves(p2)) == [(0, 3), (1, 2), (1, 6), (3, 2), (3, 6), (4, 3), (4, 5)]


@pytest.mark.parametrize("name", sorted(TABLE))
def test_worked_example_reference_state(name: str) -> None:
    state = example_state()
    for player in (0, 1):
        assert h.HEURISTICS[name](state, player) == pytest.approx(TABLE[name][player], abs=1e-12)


@pytest.mark.parametrize("name", sorted(TABLE))
def test_worked_example_aind_signature(name: str) -> None:
    board, p1, p2 = example_board()
    for index, player in enumerate((p1, p2)):
        assert samples.SCORES[name](board, player) == pytest.approx(TABLE[name][index], abs=1e-12)


def test_example_intermediate_numbers() -> None:
    state = example_state()
    assert h.block_count(state, 8) == 1 and h.block_count(state, 18) == 2  # C for players 1 and 2
    assert len(set(state.moves_of(0)) & set(state.moves_of(1))) == 2  # common = 2
    assert abs(1 - 2) + abs(1 - 4) == 4  # d between (1, 1) and (2, 4)


def test_game_over_values() -> None:
    stuck = State(3, 3).child(4).child(0)  # player 0 on the centre of 3x3: no knight move
    for name, score in h.HEURISTICS.items():
        assert score(stuck, 0) == -math.inf, name
        assert score(stuck, 1) == math.inf, name
    board = board_from_state(stuck, "a", "b")
    for name, aind_score in samples.SCORES.items():
        assert aind_score(board, "a") == -math.inf, name
        assert aind_score(board, "b") == math.inf, name


def test_unplaced_pieces() -> None:
    state = State(5, 5).child(12)  # player 1 placed, player 2 not: 24 blank cells are its moves
    assert h.open_move(state, 1) == 24.0
    assert h.taxicab(state, 0) == (8 - 24) * 0.5 / 1  # d = 1 while a piece is unplaced
    assert h.correlation(state, 1) == (24 - 3 * 8) - 0.0  # no block for an unplaced player
    with pytest.raises(TypeError, match="unplaced"):
        h.center(state, 1)
    with pytest.raises(TypeError):
        samples.center_score(board_from_state(state, "a", "b"), "b")  # AIND's fails the same way


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([(7, 7), (5, 4), (11, 9)]), st.integers(2, 40), st.integers(0, 10**6))
def test_correlation_block_equals_scipy(size: tuple[int, int], plies: int, seed: int) -> None:
    state = random_state(*size, plies, seed)
    grid = np.array(
        [
            [state.blocked >> (r * state.width + c) & 1 for c in range(state.width)]
            for r in range(state.height)
        ]
    )
    corr = correlate2d(grid, np.ones((3, 3)), mode="same")
    for cell in range(state.width * state.height):
        assert h.block_count(state, cell) == corr[divmod(cell, state.width)]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([(7, 7), (6, 5), (11, 9)]), st.integers(2, 40), st.integers(0, 10**6))
def test_both_signatures_agree(size: tuple[int, int], plies: int, seed: int) -> None:
    state = random_state(*size, plies, seed)
    board = board_from_state(state, "a", "b")
    for name, score in h.HEURISTICS.items():
        for player, obj in ((0, "a"), (1, "b")):
            assert samples.SCORES[name](board, obj) == pytest.approx(score(state, player), abs=1e-12), name


def test_weights_are_the_report_s() -> None:
    assert h.LINEAR_WEIGHTS == (1.0, 3.0)  # own minus THREE times opp, not plus
    assert h.linear_value(5, 1) == 2.0
    assert (h.TAXICAB_K, h.INTERSECTION_M, h.INTERSECTION_BONUS, h.CORRELATION_WEIGHT) == (0.5, 1.0, 5.0, 0.5)
