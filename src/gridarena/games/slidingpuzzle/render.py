"""Boards as text: the homework's right-aligned grid, and a compact picture for people."""

from __future__ import annotations

from gridarena.games.slidingpuzzle.rules import BLANK, WALL, Board


def format_grid(board: Board, width: int = 4) -> str:
    """The cells as rows of numbers right-aligned in ``width`` columns (the homework's layout).

    >>> print(format_grid(Board(1, 3, (1, -1, 0))))
       1  -1   0
    """
    return "\n".join("".join(f"{v:>{width}}" for v in row) for row in board.grid())


def render_board(board: Board) -> str:
    """A picture for people: ``#`` for a wall, ``.`` for a blank, numbers right-aligned.

    >>> print(render_board(Board(2, 2, (1, -1, 0, 3))))
     1  #
     .  3
    """
    width = max(2, len(str(max(board.cells))))

    def show(v: int) -> str:
        return "#" if v == WALL else "." if v == BLANK else str(v)

    return "\n".join(" ".join(f"{show(v):>{width}}" for v in row) for row in board.grid())
