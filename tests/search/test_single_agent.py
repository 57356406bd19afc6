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
