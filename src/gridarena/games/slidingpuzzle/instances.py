"""Seeded sets of boards to solve: random walks from the goal, and uniformly random solvable boards."""

from __future__ import annotations

import random

from gridarena.games.slidingpuzzle.board import Board, random_walk
from gridarena.games.slidingpuzzle.solvability import check_solvable


def walk_instances(goal: Board, count: int, slides: int, seed: int) -> list[Board]:
    """``count`` boards, each a random walk of ``slides`` slides from the goal (instance i: seed + i)."""
    return [random_walk(goal, slides, random.Random(seed + i)) for i in range(count)]


def random_instances(goal: Board, count: int, seed: int) -> list[Board]:
    """``count`` uniformly random solvable one-blank boards: a random arrangement, two tiles swapped if needed."""
    rng = random.Random(seed)
    movable = [c for c, v in enumerate(goal.cells) if v >= 0]
    out: list[Board] = []
    while len(out) < count:
        values = [goal.cells[c] for c in movable]
        rng.shuffle(values)
        cells = list(goal.cells)
        for c, v in zip(movable, values, strict=True):
            cells[c] = v
        board = Board(goal.rows, goal.cols, tuple(cells))
        if check_solvable(board, goal).verdict == "unsolvable":
            # Swapping two tiles flips the permutation parity, the only obstruction here.
            a, b = [c for c in movable if cells[c] > 0][:2]
            cells[a], cells[b] = cells[b], cells[a]
            board = Board(goal.rows, goal.cols, tuple(cells))
        out.append(board)
    return out
