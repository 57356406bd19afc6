"""Heuristics: the kernel's incremental h against its readable twin, mirrors, disjoint sets, region keys."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sp_oracles import distances, small_heuristics

from gridarena.games.slidingpuzzle.ai.heuristics import SolverError, make_heuristic, mirror_maps
from gridarena.games.slidingpuzzle.ai.idastar import IdaStar
from gridarena.games.slidingpuzzle.board import Board, goal_board, homework_goal, random_walk
from gridarena.games.slidingpuzzle.pdb import build_pdb

HEURISTICS = small_heuristics()
KERNELS = [IdaStar(h) for h in HEURISTICS]


@settings(deadline=None, max_examples=60)
@given(st.integers(0, len(HEURISTICS) - 1), st.integers(0, 2**32), st.integers(0, 80))
def test_kernel_heuristic_equals_the_readable_twin(which: int, seed: int, steps: int) -> None:
    heuristic = HEURISTICS[which]
    board = random_walk(heuristic.goal, steps, random.Random(seed))
    assert KERNELS[which].h0(board) == heuristic.estimate(board)


def test_mirror_needs_a_symmetric_goal_and_full_cover() -> None:
    assert mirror_maps(homework_goal()) is None
    g = goal_board(3, 3)
    with pytest.raises(SolverError, match="mirrored lookups"):
        make_heuristic(g, [build_pdb(g, (1, 2))], mirror=True)
    mirrored = HEURISTICS[3].mirrored(Board(3, 3, (2, 1, 3, 4, 5, 6, 7, 8, 0)))
    assert mirrored.cells == (4, 2, 3, 1, 5, 6, 7, 8, 0)  # tiles 1 and 2 swapped become 1 and 4


def test_disjointness_and_goal_are_checked() -> None:
    g = goal_board(3, 3)
    with pytest.raises(SolverError, match="overlaps"):
        make_heuristic(g, [build_pdb(g, (1, 2)), build_pdb(g, (2, 3))])
    with pytest.raises(SolverError, match="another goal"):
        make_heuristic(g, [build_pdb(goal_board(3, 3, blank_first=True), (1, 2))])
    with pytest.raises(SolverError, match="linear conflicts"):
        make_heuristic(homework_goal(), linear_conflict=True)


def test_grouped_heuristics_take_the_larger_set_and_say_so() -> None:
    grouped, first, second = HEURISTICS[-2], HEURISTICS[2], HEURISTICS[3]
    assert grouped.name == "pdb(4-4/3-5)+mirror"
    rng = random.Random(3)
    for _ in range(30):
        board = random_walk(grouped.goal, 60, rng)
        assert grouped.estimate(board) == max(first.estimate(board), second.estimate(board))
    with pytest.raises(SolverError, match="overlaps another"):
        make_heuristic(grouped.goal, list(grouped.pdbs), groups=(0, 0, 0, 1))
    with pytest.raises(SolverError, match="3 group numbers for 4 databases"):
        make_heuristic(grouped.goal, list(grouped.pdbs), groups=(0, 0, 1))


def test_region_keyed_tables_give_optimal_solutions_and_a_bound_at_least_as_high() -> None:
    goal = goal_board(3, 3, blanks=2)
    regional = make_heuristic(goal, [build_pdb(goal, (1, 2, 3), "r4"), build_pdb(goal, (4, 5, 6, 7), "r4")])
    plain = make_heuristic(goal, [build_pdb(goal, (1, 2, 3)), build_pdb(goal, (4, 5, 6, 7))])
    solver, truth = IdaStar(regional), distances(goal)
    higher = 0
    for board in random.Random(5).sample(sorted(truth, key=lambda b: b.cells), 150):
        assert solver.h0(board) == regional.estimate(board) >= plain.estimate(board)
        higher += regional.estimate(board) > plain.estimate(board)
        assert solver.solve(board).length == truth[board]
    assert higher > 0
    with pytest.raises(SolverError, match="region-keyed"):
        make_heuristic(goal, regional.pdbs, mirror=True)
