"""Seeded instance sets of the benchmarks."""

from __future__ import annotations

from gridarena.games.slidingpuzzle.board import homework_goal
from gridarena.games.slidingpuzzle.instances import random_instances, walk_instances
from gridarena.games.slidingpuzzle.pdb import board_by_name
from gridarena.games.slidingpuzzle.solvability import check_solvable


def test_random_instances_are_solvable_seeded_and_varied() -> None:
    goal = board_by_name("4x4")
    boards = random_instances(goal, 30, seed=5)
    assert boards == random_instances(goal, 30, seed=5)
    assert len(set(boards)) == 30
    assert all(check_solvable(b, goal).verdict == "solvable" for b in boards)


def test_walk_instances_use_consecutive_seeds() -> None:
    goal = homework_goal()
    assert walk_instances(goal, 3, 50, seed=10)[1] == walk_instances(goal, 1, 50, seed=11)[0]
