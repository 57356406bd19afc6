"""Schedules: pairs, rotation sets, runs, round-robin and gauntlet, interleaved rounds, block seeds."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gridarena.arena.schedule import ScheduleError, block_seatings, encounters, schedule, shuffled_groups
from gridarena.arena.seeds import block_seed, run_seed


def test_pairs_swap_seats_on_the_same_seed() -> None:
    blocks = schedule(2, seats=2, games=6, master=7)
    assert [b.seatings for b in blocks] == [((0, 1), (1, 0))] * 3
    assert [b.seed for b in blocks] == [block_seed(7, r) for r in range(3)]
    assert blocks[0].seed == 15188375588101485782 and blocks[1].seed == 168596098996137525


def test_games_round_up_to_whole_blocks_and_no_swap_plays_single_games() -> None:
    assert len(schedule(2, seats=2, games=5, master=1)) == 3
    blocks = schedule(2, seats=2, games=5, master=1, swap=False)
    assert len(blocks) == 5 and all(b.seatings == ((0, 1),) for b in blocks)


def test_round_robin_counts_and_interleaves_rounds() -> None:
    blocks = schedule(4, seats=2, games=4, master=3)
    assert len(blocks) == 6 * 2  # n(n-1)/2 encounters, 2 pairs each
    assert [b.round for b in blocks] == [0] * 6 + [1] * 6
    assert {b.encounter for b in blocks} == set(combinations(range(4), 2))
    assert [b.number for b in blocks] == list(range(12))
    # every encounter of a round meets the same seed: the same maps and openings for everyone
    assert len({b.seed for b in blocks if b.round == 0}) == 1


def test_gauntlet_plays_candidates_against_the_panel_only() -> None:
    assert encounters(5, 2, "gauntlet", candidates=2) == [(0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4)]
    with pytest.raises(ScheduleError, match="--candidates"):
        encounters(3, 2, "gauntlet", candidates=3)


def test_rotation_sets_give_every_entrant_every_seat() -> None:
    seatings = block_seatings((0, 1, 2, 3))
    for entrant in range(4):
        assert sorted(s.index(entrant) for s in seatings) == [0, 1, 2, 3]
    assert len(block_seatings((0, 1, 2), all_orders=True)) == 6


def test_single_player_runs_use_run_seeds_or_an_explicit_list() -> None:
    blocks = schedule(2, seats=1, games=3, master=9)
    assert [(b.encounter, b.seed) for b in blocks[:2]] == [((0,), run_seed(9, 0)), ((1,), run_seed(9, 0))]
    explicit = schedule(1, seats=1, games=1, master=9, run_seeds=(869, 84, 400))
    assert [b.seed for b in explicit] == [869, 84, 400]


def test_explicit_seeds_reach_games_of_two_and_more_seats() -> None:
    # CodinGame's seeds 1-3 of Ice and Fire, each played by every encounter with the seats swapped.
    blocks = schedule(3, seats=2, games=2, master=9, run_seeds=(1, 2, 3))
    assert [(b.encounter, b.round, b.seed) for b in blocks[:4]] == [
        ((0, 1), 0, 1), ((0, 2), 0, 1), ((1, 2), 0, 1), ((0, 1), 1, 2),
    ]  # fmt: skip
    assert len(blocks) == 9 and all(len(b.seatings) == 2 for b in blocks)
    assert [b.seed for b in schedule(4, seats=4, games=1, master=9, run_seeds=(-7, 5))] == [-7, 5]
    with pytest.raises(ScheduleError, match="--seeds names no seed"):
        schedule(2, seats=2, games=2, master=9, run_seeds=())


def test_bad_configurations_name_the_problem() -> None:
    with pytest.raises(ScheduleError, match="at least 3 players"):
        schedule(2, seats=3, games=3, master=1)
    with pytest.raises(ScheduleError, match="--format"):
        encounters(3, 2, "swiss")  # type: ignore[arg-type]
    with pytest.raises(ScheduleError, match="--games"):
        schedule(2, seats=2, games=0, master=1)


@given(st.integers(2, 6), st.integers(0, 5))
def test_rotation_seat_rule(k: int, shift: int) -> None:
    encounter = tuple(range(shift, shift + k))
    for j, seating in enumerate(block_seatings(encounter)):
        for i, entrant in enumerate(encounter):
            assert seating[(i + j) % k] == entrant


@given(st.integers(3, 12), st.integers(2, 4), st.integers(1, 10), st.integers(0, 2**32))
def test_shuffled_groups_keep_appearances_within_one(n: int, k: int, rounds: int, master: int) -> None:
    if n < k:
        return
    counts = [0] * n
    for r in range(rounds):
        groups = shuffled_groups(n, k, master, r, counts)
        assert all(len(g) == k for g in groups)
        assert len({e for g in groups for e in g}) == k * len(groups)
    assert max(counts) - min(counts) <= 1


def test_many_groups_switch_to_seeded_shuffles() -> None:
    blocks = schedule(12, seats=4, games=12, master=5, max_groups=10)
    assert len({b.encounter for b in blocks}) > 3
    assert blocks == schedule(12, seats=4, games=12, master=5, max_groups=10)
    appearances = Counter(e for b in blocks for e in b.encounter)
    assert max(appearances.values()) - min(appearances.values()) <= 1
