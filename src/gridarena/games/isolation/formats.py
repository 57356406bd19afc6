"""Isolation as text: cell names (``d4``), board rows and pictures; values in and out.

A leaf: it knows no ``State`` (the rules build states from these values and write their JSON).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import NamedTuple

from gridarena.core.errors import ActionParseError, StateFormatError

PIECES = "12"
_BIT_CHARS = str.maketrans("01", ".#")


def cell_to_text(cell: int, width: int) -> str:
    """Column letter and 1-based row: ``24 -> "d4"`` on a 7-wide board.

    >>> cell_to_text(24, 7), cell_to_text(0, 7)
    ('d4', 'a1')
    """
    row, col = divmod(cell, width)
    return f"{chr(ord('a') + col)}{row + 1}"


def text_to_cell(text: str, width: int, height: int) -> int:
    """Inverse of :func:`cell_to_text`, checked against the board size.

    >>> text_to_cell("d4", 7, 7)
    24
    """
    word = text.strip().lower()
    digits = word[1:]  # ASCII, and few: int() refuses 4,301 digits and superscripts with a ValueError
    if (
        len(word) < 2
        or not word[0].isalpha()
        or not (digits.isascii() and digits.isdigit())
        or len(digits) > 3
    ):
        raise ActionParseError(f"isolation: {text!r} is not a cell such as 'd4'")
    col, row = ord(word[0]) - ord("a"), int(word[1:]) - 1
    if not (0 <= col < width and 0 <= row < height):
        raise ActionParseError(f"isolation: {text!r} is off the {width}x{height} board")
    return row * width + col


Locs = tuple[int | None, int | None]


class Board(NamedTuple):
    """A board read from text: its size, the blocked bitmask and the two pieces' cells."""

    width: int
    height: int
    blocked: int
    locs: Locs


def cell_chars(width: int, height: int, blocked: int, locs: Locs) -> list[str]:
    """One character per cell: ``.`` blank, ``#`` blocked, ``1``/``2`` the pieces.

    Built from the bitmask's binary text in one pass: replays draw the board after every ply, and
    a per-cell loop was the largest cost of a fast game in the arena.

    >>> cell_chars(3, 1, 0b011, (0, 1))
    ['1', '2', '.']
    """
    chars = list(format(blocked, f"0{width * height}b")[::-1].translate(_BIT_CHARS))
    for player, loc in enumerate(locs):
        if loc is not None:
            chars[loc] = PIECES[player]
    return chars


def board_string(width: int, height: int, blocked: int, locs: Locs) -> str:
    """The compact board: rows from the top joined by ``/`` (``.`` blank, ``#`` blocked, ``1``/``2``).

    >>> board_string(3, 2, 0b100001, (0, 5))
    '1../..2'
    """
    chars = cell_chars(width, height, blocked, locs)
    return "/".join("".join(chars[r * width : (r + 1) * width]) for r in range(height))


@functools.cache
def _frame(width: int, height: int) -> tuple[str, tuple[str, ...]]:
    """The column letters line and the row labels of a board size (replays draw every ply)."""
    return "   " + " ".join(chr(ord("a") + c) for c in range(width)), tuple(
        f"{r + 1:>2} " for r in range(height)
    )


def board_picture(width: int, height: int, blocked: int, locs: Locs, footer: str) -> str:
    """A picture with coordinates, then ``footer`` (who is to move, or the result)."""
    chars = cell_chars(width, height, blocked, locs)
    header, labels = _frame(width, height)
    rows = [label + " ".join(chars[r * width : (r + 1) * width]) for r, label in enumerate(labels)]
    return "\n".join([header, *rows, footer])


def parse_board(rows: Sequence[str]) -> Board:
    """A board from text rows; checks the characters and that each piece appears at most once.

    >>> parse_board(["1.", "#2"])
    Board(width=2, height=2, blocked=13, locs=(0, 3))
    """
    if not rows or any(len(r) != len(rows[0]) for r in rows):
        raise StateFormatError(
            f"isolation board: rows must be non-empty and of equal length, got {list(rows)!r}"
        )
    width, height = len(rows[0]), len(rows)
    blocked, locs = 0, [None, None]
    for r, line in enumerate(rows):
        for c, ch in enumerate(line):
            cell = r * width + c
            if ch not in ".#12":
                raise StateFormatError(f"isolation board: row {r + 1}, column {c + 1}: unexpected {ch!r}")
            if ch != ".":
                blocked |= 1 << cell
            if ch in PIECES:
                if locs[PIECES.index(ch)] is not None:
                    raise StateFormatError(f"isolation board: piece {ch} appears twice")
                locs[PIECES.index(ch)] = cell  # type: ignore[call-overload]
    return Board(width, height, blocked, (locs[0], locs[1]))
