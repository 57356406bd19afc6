"""Oracles shared by the sliding-puzzle tests (imported as a plain module: this folder has no package)."""

from __future__ import annotations

import functools
from collections import deque

from gridarena.games.slidingpuzzle.rules import Board, legal_slides, slide


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
