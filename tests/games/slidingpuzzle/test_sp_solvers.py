"""Solvers: the kernel's heuristic against its readable twin, optimality against BFS, the public cases."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sp_oracles import distances

from gridarena.games.slidingpuzzle.formats import (
    PuzzleCase,
    check_solution,
    format_solution,
    parse_homework_case,
    parse_solution,
)
from gridarena.games.slidingpuzzle.pdb import build_pdb, partition
from gridarena.games.slidingpuzzle.rules import (
    Board,
    goal_board,
    homework_goal,
    random_walk,
)
from gridarena.games.slidingpuzzle.solvers import (
    Heuristic,
    IdaStar,
    SolverError,
    astar,
    bfs,
    make_heuristic,
    mirror_maps,
    solve,
)

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


def heuristics() -> list[Heuristic]:
    """One of each kind, on boards small enough to check against breadth-first search."""
    g33, g_walls = goal_board(3, 3), goal_board(3, 3, blanks=2, walls=(4,))
    g24 = goal_board(2, 4, blank_first=True)
    return [
        make_heuristic(g33, linear_conflict=False),
        make_heuristic(g33),
        make_heuristic(g33, [build_pdb(g33, p) for p in ((1, 2, 4, 5), (3, 6, 7, 8))]),
        make_heuristic(g33, [build_pdb(g33, p) for p in ((1, 2, 3), (4, 5, 6, 7, 8))], mirror=True),
        make_heuristic(g_walls, [build_pdb(g_walls, p) for p in ((1, 2, 3), (4, 6, 7))]),
        make_heuristic(goal_board(2, 4, blanks=2)),
        make_heuristic(g24, [build_pdb(g24, p) for p in partition(g24, "3-4")], linear_conflict=True),
        # Two disjoint sets, h the larger sum: both covering every tile (mirrored too), or one partly.
        make_heuristic(
            g33,
            [build_pdb(g33, p) for p in ((1, 2, 4, 5), (3, 6, 7, 8), (1, 2, 3), (4, 5, 6, 7, 8))],
            groups=(0, 0, 1, 1),
            mirror=True,
        ),
        make_heuristic(
            g_walls, [build_pdb(g_walls, p) for p in ((1, 2, 3), (4, 6, 7), (2, 6))], groups=(0, 0, 1)
        ),
    ]


HEURISTICS = heuristics()
KERNELS = [IdaStar(h) for h in HEURISTICS]


@settings(deadline=None, max_examples=60)
@given(st.integers(0, len(HEURISTICS) - 1), st.integers(0, 2**32), st.integers(0, 80))
def test_kernel_heuristic_equals_the_readable_twin(which: int, seed: int, steps: int) -> None:
    heuristic = HEURISTICS[which]
    board = random_walk(heuristic.goal, steps, random.Random(seed))
    assert KERNELS[which].h0(board) == heuristic.estimate(board)


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
        for found in (kernel.solve(board), astar(case, heuristic), *others):
            assert found.length == optimal[board], (board, found.algorithm)
            check_solution(case, found.actions or (), optimal[board])
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
            found = astar(case, heuristic, weight=weight)
            assert found.status == "solved" and found.weight == weight
            assert optimal[board] <= (found.length or 0) <= weight * optimal[board], (board, weight)
            check_solution(case, found.actions or ())
            assert found.h0 <= found.lower_bound <= optimal[board]


def test_weights_trade_length_for_nodes_and_are_checked() -> None:
    goal = goal_board(3, 3)
    heuristic = make_heuristic(goal, linear_conflict=False)
    board = max(distances(goal).items(), key=lambda item: item[1])[0]  # a hardest board (31 slides)
    plain, weighted = (
        astar(PuzzleCase(board, goal), heuristic),
        astar(PuzzleCase(board, goal), heuristic, weight=3.0),
    )
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
        assert bfs(PuzzleCase(board, goal)).length == distances(goal)[board]


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


def test_unsolvable_and_limited_searches_say_so() -> None:
    case = PuzzleCase(Board(2, 3, (2, 1, 3, 4, 5, 0)), goal_board(2, 3))
    assert solve(case).status == "unsolvable"
    assert bfs(case).status == "unsolvable"  # exhausting the space proves it too
    assert "every reachable board" in bfs(case).reason
    hard = PuzzleCase(random_walk(goal_board(3, 3), 200, random.Random(5)), goal_board(3, 3))
    limited = solve(hard, "idastar", max_nodes=10)
    assert limited.status == "limit" and limited.actions is None
    with pytest.raises(SolverError, match="unknown algorithm"):
        solve(hard, "dfs")


def test_a_solved_board_needs_no_slides() -> None:
    goal = homework_goal()
    for algorithm in ("bfs", "astar", "idastar"):
        assert solve(PuzzleCase(goal, goal), algorithm).actions == ()


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
            replayed = parse_solution(format_solution(found.actions or ()))
            assert check_solution(case, replayed, OPTIMAL[name]) == OPTIMAL[name], name


def test_astar_and_bfs_agree_on_the_easy_public_cases(homework_cases: dict[str, PuzzleCase]) -> None:
    heuristic = make_heuristic(homework_goal())
    for name, case in homework_cases.items():
        found = astar(case, heuristic)
        assert found.length == OPTIMAL[name]
        if name.startswith("case1"):
            assert bfs(case).length == OPTIMAL[name]
            assert found.expanded <= bfs(case).expanded


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
