"""BFS, A* and IDA*: optimal costs, valid paths and the documented counts."""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gridarena.core.clock import TimeControl
from gridarena.search import InvalidProblemError, SearchAborted, Solution, astar, bfs, idastar
from gridarena.search.problem import Problem, steps

from .toygames import SlidingPuzzle, WeightedGrid, random_grid, scrambled


def replay(problem: Problem[Any], solution: Solution) -> tuple[Hashable, float]:
    """Follow the solution's actions from the start: the state reached and the summed cost."""
    state, cost = problem.start(), 0.0
    assert solution.path is not None
    for wanted in solution.path:
        matches = [(child, c) for a, child, c in steps(problem, state) if a == wanted]
        assert matches, f"action {wanted!r} is not available in {state!r}"
        state, step_cost = matches[0]
        cost += step_cost
    return state, cost


def assert_valid(problem: Problem[Any], solution: Solution) -> None:
    state, cost = replay(problem, solution)
    assert problem.is_goal(state)
    assert cost == solution.cost


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([(2, 3), (3, 2), (3, 3)]), st.integers(8, 30))
def test_astar_and_idastar_are_optimal_like_bfs_on_puzzles(
    seed: int, shape: tuple[int, int], moves: int
) -> None:
    rows, cols = shape
    puzzle = scrambled(rows, cols, moves, seed)
    reference = bfs(puzzle)
    assert reference.found
    for solution in (
        astar(puzzle, puzzle.manhattan),
        astar(puzzle, puzzle.misplaced),
        astar(puzzle),
        idastar(puzzle, puzzle.manhattan),
    ):
        assert solution.cost == reference.cost
        assert_valid(puzzle, solution)
    assert_valid(puzzle, reference)


@pytest.mark.parametrize("seed", range(5))
def test_deep_eight_puzzles_agree(seed: int) -> None:
    """80 random moves give optimal costs of 16 to 24 here: deep enough to separate the solvers."""
    puzzle = scrambled(3, 3, 80, seed)
    reference = bfs(puzzle)
    informed = astar(puzzle, puzzle.manhattan)
    assert reference.cost >= 16
    assert informed.cost == idastar(puzzle, puzzle.manhattan).cost == reference.cost
    assert informed.expanded < reference.expanded
    assert_valid(puzzle, informed)


def test_unsolvable_puzzle_expands_every_reachable_state() -> None:
    """Half of the 6! boards of the 2x3 puzzle are reachable: BFS and A* must expand all 360."""
    puzzle = SlidingPuzzle(2, 3, (2, 1, 3, 4, 5, 0))  # one swap from the goal: odd permutation
    for solution in (bfs(puzzle), astar(puzzle)):
        assert not solution.found
        assert solution.cost == float("inf")
        assert solution.expanded == 360
        # Each 2x3 board has 2 or 3 blank moves: 4 corner cells with 2, 2 middle cells with 3.
        assert solution.generated == 360 * (4 * 2 + 2 * 3) // 6


class Graph:
    """An explicit graph: edges as {state: [(action, state, cost), ...]}."""

    def __init__(self, edges: dict[str, list[tuple[str, str, float]]], goal: str) -> None:
        self.edges, self.goal = edges, goal

    def start(self) -> str:
        return "s"

    def is_goal(self, state: str) -> bool:
        return state == self.goal

    def successors(self, state: str) -> Iterable[tuple[str, str, float]]:
        return self.edges.get(state, [])


DIAMOND = {
    "s": [("a", "a", 1.0), ("b", "b", 4.0)],
    "a": [("b", "b", 1.0), ("g", "g", 6.0)],
    "b": [("g", "g", 1.0)],
}


def test_counts_follow_the_documented_convention() -> None:
    graph = Graph(DIAMOND, "g")
    # BFS tests on generation: expands s (2 generated), a (2 more: b again, then g is found).
    assert bfs(graph) == Solution(("a", "g"), 7.0, expanded=2, generated=4)
    # A* (uniform cost) tests on selection: expands s, a, b, then pops g.
    assert astar(graph) == Solution(("a", "b", "g"), 3.0, expanded=3, generated=5)
    # IDA*: bounds 0, 1, 2, 3 expand 1, 2, 3 and 3 states. Successors are generated lazily, so the
    # last iteration generates only a (under s), b (under a) and g (under b) before it stops.
    solution = idastar(graph)
    assert (solution.path, solution.cost) == (("a", "b", "g"), 3.0)
    assert (solution.expanded, solution.generated) == (1 + 2 + 3 + 3, 2 + 4 + 5 + 3)


def test_start_that_is_a_goal_costs_nothing() -> None:
    graph = Graph(DIAMOND, "s")
    for solver in (bfs, astar, idastar):
        assert solver(graph) == Solution((), 0.0, 0, 0)


@pytest.mark.parametrize("seed", range(12))
def test_weighted_grid_costs_agree_and_an_inconsistent_heuristic_stays_optimal(seed: int) -> None:
    grid = random_grid(5, 4, seed)
    reference = astar(grid)  # uniform-cost search
    rng = random.Random(seed)
    noise = {cell: rng.random() for cell in range(20)}

    def inconsistent(cell: int) -> float:  # admissible (a fraction of an admissible value), not consistent
        return noise[cell] * grid.manhattan(cell)

    for solution in (astar(grid, grid.manhattan), astar(grid, inconsistent), idastar(grid, grid.manhattan)):
        assert solution.cost == reference.cost
        assert_valid(grid, solution)
    assert astar(grid, grid.manhattan).expanded <= reference.expanded


def test_bfs_minimises_actions_not_cost() -> None:
    grid = WeightedGrid(3, 1, (1, 9, 1))
    assert bfs(grid).cost == 10.0 and bfs(grid).path == ("R", "R")


def test_clock_stops_every_solver() -> None:
    puzzle = SlidingPuzzle(2, 3, (2, 1, 3, 4, 5, 0))
    for solver in (bfs, astar, idastar):
        with pytest.raises(SearchAborted):
            solver(puzzle, clock=TimeControl(nodes=10))


def test_negative_cost_is_refused() -> None:
    graph = Graph({"s": [("x", "g", -1.0)]}, "g")
    with pytest.raises(InvalidProblemError, match="negative cost"):
        astar(graph)


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("weight", [1.5, 3.0])
def test_weighted_astar_stays_within_its_weight_of_the_optimum(seed: int, weight: float) -> None:
    puzzle = scrambled(3, 3, 80, seed)
    optimal = astar(puzzle, puzzle.manhattan)
    weighted = astar(puzzle, puzzle.manhattan, weight=weight)
    assert_valid(puzzle, weighted)
    assert optimal.cost <= weighted.cost <= weight * optimal.cost
    assert weighted.weight == weight and weighted.h0 == puzzle.manhattan(puzzle.start())
    assert weighted.h0 <= weighted.lower_bound <= optimal.cost == optimal.lower_bound


def test_weighted_astar_orders_by_g_plus_weight_times_h_then_lower_h() -> None:
    # s -> a (h 2) and s -> b (h 1); with weight 2: f(a) = 1 + 4 = 5, f(b) = 3 + 2 = 5: lower h first.
    graph = Graph(
        {"s": [("a", "a", 1.0), ("b", "b", 3.0)], "a": [("g", "g", 2.0)], "b": [("g", "g", 1.0)]}, "g"
    )
    h = {"s": 0.0, "a": 2.0, "b": 1.0, "g": 0.0}.__getitem__
    assert astar(graph, h, weight=2.0).path == ("b", "g")
    assert astar(graph, h).path == ("a", "g")
    with pytest.raises(InvalidProblemError, match="weight"):
        astar(graph, h, weight=-1.0)


def test_a_stopped_solver_hands_back_its_figures() -> None:
    puzzle = SlidingPuzzle(2, 3, (2, 1, 3, 4, 5, 0))  # unsolvable: every solver searches on
    for solver in (bfs, astar, idastar):
        with pytest.raises(SearchAborted) as stop:
            solver(puzzle, clock=TimeControl(nodes=10))
        partial = stop.value.partial
        assert partial is not None and partial.status == "limit" and partial.reason == "node limit reached"
        assert partial.expanded == 10 and partial.generated >= 10 and partial.path is None
    with pytest.raises(SearchAborted) as stop:
        idastar(scrambled(3, 3, 80, 1), lambda s: 0.0, clock=TimeControl(nodes=500))
    assert stop.value.partial is not None and stop.value.partial.bound == stop.value.partial.lower_bound >= 3
    with pytest.raises(SearchAborted) as stop:
        bfs(puzzle, clock=TimeControl(deadline=0.0, check_every=1))
    assert stop.value.partial is not None and stop.value.partial.reason == "time limit reached"


def test_solutions_say_what_they_found_and_compare_on_the_answer() -> None:
    solved = Solution(("a",), 1.0, 1, 2, algorithm="mine", seconds=0.5)
    assert (solved.status, solved.length, solved.lower_bound) == ("solved", 1, 1.0)
    assert solved == Solution(("a",), 1.0, 1, 2)  # who ran it and how long it took are not the answer
    exhausted = Solution(None, float("inf"), 5, 9)
    assert (exhausted.status, exhausted.length, exhausted.found) == ("unsolvable", None, False)
    assert repr(Solution(None, float("inf"), 5, 9, stopped=True, bound=4)) == (
        "Solution(path=None, cost=inf, expanded=5, generated=9, stopped=True, bound=4)"
    )
