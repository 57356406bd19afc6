"""The fast engine against its oracles: the reference rules, the perft file and the readable twins."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from iso_states import random_state

from countfiles import Entry, entry_state, read_count_file
from gridarena.games.isolation.fast import endgame, movegen
from gridarena.games.isolation.fast.engine import Engine, negamax_ref, solve_ref
from gridarena.games.isolation.rules import State

PERFT_FILE = Path(__file__).parents[2] / "data" / "isolation" / "perft.txt"
SIZES = [(4, 4), (5, 4), (5, 5), (7, 7), (11, 9), (11, 11), (9, 8)]
ENGINES: dict[tuple[int, int], Engine] = {}


def engine(width: int, height: int, **options: object) -> Engine:
    key = (width, height)
    if options:
        return Engine(width, height, **{"tt_bits": 12, **options})  # type: ignore[arg-type]
    if key not in ENGINES:
        ENGINES[key] = Engine(width, height, tt_bits=12)
    return ENGINES[key]


PERFT_ENTRIES = read_count_file(PERFT_FILE, "isolation")


@pytest.mark.parametrize("entry", PERFT_ENTRIES, ids=[e.name for e in PERFT_ENTRIES])
def test_perft_file(entry: Entry) -> None:
    state = entry_state(entry)
    assert isinstance(state, State)
    for count in entry.counts:
        found = engine(state.width, state.height).perft(state, count.depth or 0)
        assert found == count.expected, f"{entry.name}: perft {count.depth}"


@settings(deadline=None, max_examples=40)
@given(st.sampled_from(SIZES), st.integers(0, 60), st.integers(0, 10**6))
def test_moves_match_reference_rules(size: tuple[int, int], plies: int, seed: int) -> None:
    state = random_state(*size, plies, seed)
    lo, hi, loc0, loc1 = movegen.to_words(state)
    eng = engine(*size)
    for player, loc in enumerate((loc0, loc1)):
        expected = state.moves_of(player)
        out = np.empty(movegen.MAX_CELLS, dtype=np.int64)
        k = movegen.gen_moves(lo, hi, eng.nbr, loc, out)
        assert out[:k].tolist() == expected
        assert movegen.count_moves(lo, hi, eng.masks, loc) == len(expected)
    for cell in range(state.width * state.height):
        assert movegen.is_open(lo, hi, cell) == state.is_open(cell)


@settings(deadline=None, max_examples=25)
@given(st.sampled_from(SIZES[:4]), st.integers(0, 12), st.integers(0, 10**6), st.integers(1, 3))
def test_perft_matches_reference_on_random_positions(
    size: tuple[int, int], plies: int, seed: int, depth: int
) -> None:
    state = random_state(*size, plies, seed)
    if state.width * state.height - state.ply > 30 and depth == 3:
        depth = 2  # keep the reference count quick on open boards
    assert engine(*size).perft(state, depth) == movegen.perft_ref(state, depth)


@settings(deadline=None, max_examples=40)
@given(st.sampled_from([(5, 5), (7, 7), (11, 9)]), st.integers(2, 70), st.integers(0, 10**6))
def test_separation_matches_twin(size: tuple[int, int], plies: int, seed: int) -> None:
    state = random_state(*size, plies, seed)
    lo, hi, loc0, loc1 = movegen.to_words(state)
    eng = engine(*size)
    assert endgame.separated(lo, hi, eng.masks, loc0, loc1) == endgame.separated_ref(state)


@settings(deadline=None, max_examples=40)
@given(st.sampled_from([(5, 5), (7, 7), (11, 9)]), st.integers(14, 90), st.integers(0, 10**6))
def test_longest_path_matches_twin(size: tuple[int, int], plies: int, seed: int) -> None:
    state = random_state(*size, plies, seed)
    open_cells = state.width * state.height - state.blocked.bit_count()
    if None in state.locs or open_cells > 22:
        return  # the readable twin is exhaustive: only small regions
    lo, hi, *locs = movegen.to_words(state)
    eng = engine(*size)
    for player in (0, 1):
        got = endgame.longest_path(
            lo, hi, eng.nbr, eng.masks, eng.dark, locs[player], 10**7, movegen.MAX_CELLS
        )
        assert got == endgame.longest_path_ref(state, player)


def test_longest_path_budget_and_cap() -> None:
    state = State(5, 5).child(0).child(24)
    lo, hi, loc0, _ = movegen.to_words(state)
    eng = engine(5, 5)
    assert endgame.longest_path(lo, hi, eng.nbr, eng.masks, eng.dark, loc0, 3, movegen.MAX_CELLS) == -1
    assert endgame.longest_path(lo, hi, eng.nbr, eng.masks, eng.dark, loc0, 10**6, 4) == 4


@settings(deadline=None, max_examples=30)
@given(
    st.sampled_from([(5, 5), (7, 7), (6, 5)]), st.integers(2, 20), st.integers(0, 10**6), st.integers(1, 4)
)
def test_plain_search_equals_negamax_twin(size: tuple[int, int], plies: int, seed: int, depth: int) -> None:
    state = random_state(*size, plies, seed)
    if state.is_terminal():
        return
    result = engine(*size, tt_bits=0, endgame=False).search(state, max_depth=depth)
    if not result.proven:
        assert result.depth == depth
    expected = negamax_ref(state, result.depth)
    assert result.score == expected
    assert -negamax_ref(state.child(result.move), result.depth - 1, root=state.ply % 2, ply=1) == expected


@settings(deadline=None, max_examples=25)
@given(st.sampled_from([(4, 4), (5, 4), (4, 5)]), st.integers(2, 6), st.integers(0, 10**6))
def test_full_search_solves_small_boards(size: tuple[int, int], plies: int, seed: int) -> None:
    state = random_state(*size, plies, seed)
    if state.is_terminal():
        return
    result = Engine(*size, tt_bits=10).search(state)
    assert result.proven
    assert (result.score > 0) == (solve_ref(state) > 0)
    assert solve_ref(state.child(result.move)) == (-1 if result.score > 0 else 1)


@settings(deadline=None, max_examples=25)
@given(st.integers(16, 30), st.integers(0, 10**6))
def test_endgame_agrees_with_plain_search(plies: int, seed: int) -> None:
    state = random_state(7, 7, plies, seed)
    if state.is_terminal() or state.width * state.height - state.ply > 20:
        return
    with_endgame = Engine(7, 7, tt_bits=12, sep_depth=3).search(state)
    plain = Engine(7, 7, tt_bits=0, endgame=False).search(state)
    assert with_endgame.proven and plain.proven
    assert (with_endgame.score > 0) == (plain.score > 0)
    assert abs(with_endgame.score) == abs(plain.score)  # same distance to the end, too


def test_node_budget_is_deterministic() -> None:
    state = random_state(7, 7, 4, 11)
    first = Engine(7, 7, tt_bits=14).search(state, nodes=5_000)
    second = Engine(7, 7, tt_bits=14).search(state, nodes=5_000)
    assert (first.move, first.score, first.depth) == (second.move, second.score, second.depth)
    assert first.move in state.legal_actions()
    assert first.nodes <= 5_000 + 1_024


@pytest.mark.timing
def test_deadline_is_respected() -> None:
    import time

    state = State(11, 11).child(60).child(0)
    eng = Engine(11, 11, tt_bits=14)
    start = time.perf_counter()
    result = eng.search(state, deadline=start + 0.05)
    assert time.perf_counter() - start < 0.2
    assert result.move in state.legal_actions() and result.depth >= 1


def test_terminal_and_placement_positions() -> None:
    stuck = State(3, 3).child(4).child(0)  # the centre of 3x3 has no knight move
    assert Engine(3, 3, tt_bits=4).search(stuck).move == -1
    opening = Engine(5, 5, tt_bits=10).search(State(5, 5), max_depth=2)
    assert opening.move in range(25) and opening.depth == 2


def test_engine_rejects_wrong_sizes() -> None:
    with pytest.raises(ValueError, match="more than 128 cells"):
        Engine(12, 11)
    with pytest.raises(ValueError, match="built for 5x5"):
        engine(5, 5).search(State(7, 7))


def test_split_round_trip() -> None:
    bits = (1 << 127) | (1 << 64) | (1 << 63) | 1
    lo, hi = movegen.split(bits)
    assert int(lo) | int(hi) << 64 == bits


def test_history_holds_each_completed_depth() -> None:
    state = random_state(7, 7, 6, 11)
    result = engine(7, 7, tt_bits=0).search(state, max_depth=4)
    assert len(result.history) == result.depth == 4 and result.history[-1] == result.move
    for depth in range(1, 5):
        assert engine(7, 7, tt_bits=0).search(state, max_depth=depth).move == result.history[depth - 1]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(SIZES), st.integers(4, 40), st.integers(0, 10**6))
def test_endgame_table_entries_keep_results(size: tuple[int, int], plies: int, seed: int) -> None:
    state = random_state(*size, plies, seed)
    if state.is_terminal() or state.width * state.height > 30:
        return
    solved = engine(*size, tt_bits=14, sep_depth=2).search(state)
    assert (solved.score > 0) == (solve_ref(state) > 0)
