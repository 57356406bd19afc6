"""Solvers: optimality against BFS, stopped searches, weighted A*, the algorithm table, the public cases."""

from __future__ import annotations

import random
from pathlib import Path
from typing import get_args

import pytest
from sp_oracles import distances, small_heuristics

from gridarena.games.slidingpuzzle.ai.heuristics import SolverError, make_heuristic
from gridarena.games.slidingpuzzle.ai.idastar import IdaStar
from gridarena.games.slidingpuzzle.ai.solvers import (
    ALGORITHMS,
    AlgorithmName,
    AStar,
    BreadthFirst,
    make_solver,
    solution_stats,
    solve,
)
from gridarena.games.slidingpuzzle.board import Board, goal_board, homework_goal, random_walk
from gridarena.games.slidingpuzzle.formats import (
    PuzzleCase,
    check_solution,
    format_solution,
    parse_homework_case,
    parse_line,
    parse_solution,
)
from gridarena.games.slidingpuzzle.pdb import build_pdb, partition

OPTIMAL = {
    "case1_1": 8,
    "case1_2": 5,
    "case1_3": 8,
    "case1_4": 10,
    "case1_5": 10,
    "case2_1": 14,
    "case2_2": 20,
    "case2_3": 14,
    "case2_4": 15,
    "case2_5": 14,
    "case3_1": 28,
    "case3_2": 24,
    "case3_3": 30,
    "case3_4": 24,
    "case3_5": 22,
}


HEURISTICS = small_heuristics()
KERNELS = [IdaStar(h) for h in HEURISTICS]


@pytest.mark.parametrize("which", range(len(HEURISTICS)), ids=[h.name for h in HEURISTICS])
def test_idastar_and_astar_are_optimal_on_random_small_puzzles(which: int) -> None:
    heuristic, kernel = HEURISTICS[which], KERNELS[which]
    optimal = distances(heuristic.goal)
    rng = random.Random(which)
    for _ in range(25):
        board = random_walk(heuristic.goal, rng.randrange(5, 200), rng)
        case = PuzzleCase(board, heuristic.goal)
        # A tiny transposition table (forced replacements) and none at all must not change lengths.
        others = (
            IdaStar(heuristic, transpositions=6).solve(board),
            IdaStar(heuristic, transpositions=0).solve(board),
        )
        for found in (kernel.solve(board), AStar(heuristic).solve(board), *others):
            assert found.length == optimal[board], (board, found.algorithm)
            check_solution(case, found.path or (), optimal[board])
            assert found.h0 <= optimal[board]


@pytest.mark.parametrize("which", range(len(HEURISTICS)), ids=[h.name for h in HEURISTICS])
def test_a_stopped_search_states_a_true_lower_bound(which: int) -> None:
    heuristic, kernel = HEURISTICS[which], KERNELS[which]
    optimal = distances(heuristic.goal)
    rng = random.Random(100 + which)
    for _ in range(15):
        board = random_walk(heuristic.goal, rng.randrange(20, 200), rng)
        for cap in (1, 20, 200):
            found = kernel.solve(board, max_nodes=cap)
            assert found.h0 <= found.lower_bound <= optimal[board], (board, cap)
            if found.status == "limit":
                assert f"shorter than {found.bound} slides" in found.reason
            else:
                assert found.lower_bound == found.length == optimal[board]


@pytest.mark.parametrize("which", range(len(HEURISTICS)), ids=[h.name for h in HEURISTICS])
def test_weighted_astar_stays_within_its_weight_of_the_optimum(which: int) -> None:
    heuristic = HEURISTICS[which]
    optimal = distances(heuristic.goal)
    rng = random.Random(200 + which)
    for _ in range(10):
        board = random_walk(heuristic.goal, rng.randrange(20, 200), rng)
        case = PuzzleCase(board, heuristic.goal)
        for weight in (1.5, 3.0):
            found = AStar(heuristic, weight).solve(board)
            assert found.status == "solved" and found.weight == weight
            assert optimal[board] <= (found.length or 0) <= weight * optimal[board], (board, weight)
            check_solution(case, found.path or ())
            assert found.h0 <= found.lower_bound <= optimal[board]


def test_weights_trade_length_for_nodes_and_are_checked() -> None:
    goal = goal_board(3, 3)
    heuristic = make_heuristic(goal, linear_conflict=False)
    board = max(distances(goal).items(), key=lambda item: item[1])[0]  # a hardest board (31 slides)
    plain, weighted = AStar(heuristic).solve(board), AStar(heuristic, 3.0).solve(board)
    assert weighted.expanded < plain.expanded / 4 and (weighted.length or 0) > (plain.length or 0)
    case = PuzzleCase(random_walk(goal, 30, random.Random(3)), goal)
    with pytest.raises(SolverError, match="between 1 and 64"):
        solve(case, "astar", weight=0.5)
    with pytest.raises(SolverError, match="a weight needs A"):
        solve(case, "idastar", weight=2.0)


def test_a_stopped_search_can_prove_more_than_the_heuristic() -> None:
    goal = goal_board(3, 3)
    board = max(distances(goal).items(), key=lambda item: item[1])[0]  # a hardest board
    found = IdaStar(make_heuristic(goal, linear_conflict=False)).solve(board, max_nodes=2_000)
    assert found.status == "limit" and found.h0 < found.bound <= distances(goal)[board]


def test_bfs_is_optimal_on_short_walks() -> None:
    goal = goal_board(3, 3, blanks=2, walls=(4,))
    rng = random.Random(1)
    for _ in range(10):
        board = random_walk(goal, rng.randrange(1, 40), rng)
        assert BreadthFirst(make_heuristic(goal)).solve(board).length == distances(goal)[board]


def test_unsolvable_and_limited_searches_say_so() -> None:
    case = PuzzleCase(Board(2, 3, (2, 1, 3, 4, 5, 0)), goal_board(2, 3))
    assert solve(case).status == "unsolvable"
    exhausted = BreadthFirst(make_heuristic(case.goal)).solve(case.start)
    assert exhausted.status == "unsolvable"  # exhausting the space proves it too
    assert "every reachable board" in exhausted.reason
    hard = PuzzleCase(random_walk(goal_board(3, 3), 200, random.Random(5)), goal_board(3, 3))
    limited = solve(hard, "idastar", max_nodes=10)
    assert limited.status == "limit" and limited.path is None
    with pytest.raises(SolverError, match="unknown algorithm"):
        solve(hard, "dfs")


def test_a_solved_board_needs_no_slides() -> None:
    goal = homework_goal()
    for algorithm in ("bfs", "astar", "idastar"):
        assert solve(PuzzleCase(goal, goal), algorithm).path == ()


@pytest.fixture(scope="module")
def homework_cases(shared_data: Path) -> dict[str, PuzzleCase]:
    folder = shared_data / "slidingpuzzle" / "ntu_tcg2022_hw1"
    return {p.stem: parse_homework_case(p.read_text(), str(p)) for p in sorted(folder.glob("*.in"))}


def test_every_public_case_is_solved_optimally_and_replays(homework_cases: dict[str, PuzzleCase]) -> None:
    goal = homework_goal()
    student = [build_pdb(goal, p) for p in partition(goal, "2-2-2-2-2-2-1-1-1")]
    solvers = [IdaStar(make_heuristic(goal)), IdaStar(make_heuristic(goal, student))]
    assert set(homework_cases) == set(OPTIMAL)
    for name, case in homework_cases.items():
        for solver in solvers:
            found = solver.solve(case.start)
            # The printed answer is what is checked: format, parse back, replay.
            replayed = parse_solution(format_solution(found.path or ()))
            assert check_solution(case, replayed, OPTIMAL[name]) == OPTIMAL[name], name


def test_astar_and_bfs_agree_on_the_easy_public_cases(homework_cases: dict[str, PuzzleCase]) -> None:
    heuristic = make_heuristic(homework_goal())
    for name, case in homework_cases.items():
        found = AStar(heuristic).solve(case.start)
        assert found.length == OPTIMAL[name]
        if name.startswith("case1"):
            breadth_first = BreadthFirst(heuristic).solve(case.start)
            assert breadth_first.length == OPTIMAL[name]
            assert found.expanded <= breadth_first.expanded


def test_the_algorithm_table_lists_every_algorithm_once() -> None:
    assert set(ALGORITHMS) == set(get_args(AlgorithmName))
    heuristic = make_heuristic(goal_board(3, 3))
    for name in ALGORITHMS:
        assert make_solver(name, heuristic).name.split("/")[0] == name
    assert [name for name, entry in ALGORITHMS.items() if entry.weighted] == ["astar"]


def test_solve_refuses_a_provably_unsolvable_case_before_searching() -> None:
    case = parse_line("2 1 3 4 5 6 7 8 0")
    for name in ALGORITHMS:
        found = solve(case, name)
        assert (found.status, found.expanded, found.generated) == ("unsolvable", 0, 0)
        assert "parity" in found.reason


def test_a_weight_picks_astar_by_default_and_the_stats_count_whole_slides() -> None:
    case = PuzzleCase(random_walk(goal_board(3, 3), 60, random.Random(8)), goal_board(3, 3))
    weighted = solve(case, weight=1.5)
    assert weighted.algorithm == "astar/manhattan+lc/w=1.5"
    stats = solution_stats(weighted)
    assert stats["weight"] == 1.5 and isinstance(stats["lower_bound"], int) and isinstance(stats["h0"], int)
    assert stats["lower_bound"] <= distances(case.goal)[case.start] <= (weighted.length or 0)
    stopped = solve(case, "astar", max_nodes=3, weight=2.0)
    assert (stopped.status, stopped.reason, stopped.weight) == ("limit", "node limit reached", 2.0)
