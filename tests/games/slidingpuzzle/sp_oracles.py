"""Oracles and small heuristics shared by the sliding-puzzle tests (a plain module: this folder has no package)."""

from __future__ import annotations

import functools
from collections import deque

from gridarena.games.slidingpuzzle.ai.heuristics import Heuristic, make_heuristic
from gridarena.games.slidingpuzzle.board import Board, goal_board, legal_slides, slide
from gridarena.games.slidingpuzzle.pdb import build_pdb, partition


@functools.cache
def distances(goal: Board) -> dict[Board, int]:
    """Optimal lengths of every board that reaches ``goal`` (one breadth-first search from it)."""
    dist, queue = {goal: 0}, deque([goal])
    while queue:
        board = queue.popleft()
        for action in legal_slides(board):
            child = slide(board, action)
            if child not in dist:
                dist[child] = dist[board] + 1
                queue.append(child)
    return dist


@functools.cache
def small_heuristics() -> tuple[Heuristic, ...]:
    """One of each kind, on boards small enough to check against breadth-first search."""
    g33, g_walls = goal_board(3, 3), goal_board(3, 3, blanks=2, walls=(4,))
    g24 = goal_board(2, 4, blank_first=True)
    return (
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
    )
