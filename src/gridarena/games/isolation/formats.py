"""Isolation as text: cell names (``d4``), board pictures, the compact board string and JSON."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from gridarena.core.errors import ActionParseError, StateFormatError
from gridarena.core.types import JSON

if TYPE_CHECKING:
    from gridarena.games.isolation.rules import Isolation, State

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
    if len(word) < 2 or not word[0].isalpha() or not word[1:].isdigit():
        raise ActionParseError(f"isolation: {text!r} is not a cell such as 'd4'")
    col, row = ord(word[0]) - ord("a"), int(word[1:]) - 1
    if not (0 <= col < width and 0 <= row < height):
        raise ActionParseError(f"isolation: {text!r} is off the {width}x{height} board")
    return row * width + col


def cell_chars(state: State) -> list[str]:
    """One character per cell: ``.`` blank, ``#`` blocked, ``1``/``2`` the pieces.

    Built from the bitmask's binary text in one pass: replays draw the board after every ply, and
    a per-cell loop was the largest cost of a fast game in the arena.
    """
    size = state.width * state.height
    chars = list(format(state.blocked, f"0{size}b")[::-1].translate(_BIT_CHARS))
    for player, loc in enumerate(state.locs):
        if loc is not None:
            chars[loc] = PIECES[player]
    return chars


def board_string(state: State) -> str:
    """The compact board: rows from the top joined by ``/`` (``.`` blank, ``#`` blocked, ``1``/``2``).

    >>> from gridarena.games.isolation.rules import State
    >>> board_string(State(3, 2, blocked=0b100001, locs=(0, 5), ply=2))
    '1../..2'
    """
    w, chars = state.width, cell_chars(state)
    return "/".join("".join(chars[r * w : (r + 1) * w]) for r in range(state.height))


@functools.cache
def _frame(width: int, height: int) -> tuple[str, tuple[str, ...]]:
    """The column letters line and the row labels of a board size (replays draw every ply)."""
    return "   " + " ".join(chr(ord("a") + c) for c in range(width)), tuple(
        f"{r + 1:>2} " for r in range(height)
    )


def board_to_text(state: State) -> str:
    """A picture with coordinates, then who is to move (or the result)."""
    w, chars = state.width, cell_chars(state)
    header, labels = _frame(w, state.height)
    rows = [label + " ".join(chars[r * w : (r + 1) * w]) for r, label in enumerate(labels)]
    outcome = state.outcome()
    footer = (
        f"player {state.mover() + 1} to move"
        if outcome is None
        else f"over: {outcome.reason or outcome.termination}"
    )
    return "\n".join([header, *rows, footer])


def parse_board(rows: Sequence[str], ply: int | None = None) -> State:
    """A state from board rows; the ply is the number of blocked cells unless given."""
    from gridarena.games.isolation.rules import State

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
    used = blocked.bit_count()
    ply = used if ply is None else ply
    expected = (ply >= 1, ply >= 2)
    if ply != used or tuple(loc is not None for loc in locs) != expected:
        raise StateFormatError(
            f"isolation board: {used} blocked cells and pieces {locs} do not fit ply {ply} "
            "(every ply blocks one cell; player 1 places at ply 0, player 2 at ply 1)"
        )
    return State(width, height, blocked, (locs[0], locs[1]), ply)


def state_to_json(state: State) -> dict[str, JSON]:
    """The state as JSON: size, compact board, ply and any forfeit."""
    return {
        "width": state.width,
        "height": state.height,
        "board": board_string(state),
        "ply": state.ply,
        "forfeited": list(state.forfeited) if state.forfeited else None,
    }


def state_from_json(game: Isolation, data: Mapping[str, JSON]) -> State:
    """Inverse of :func:`state_to_json`, checked against ``game``'s board size."""
    if not isinstance(data, Mapping):
        raise StateFormatError(f"isolation state: expected a JSON object, got {type(data).__name__}")
    for key in ("board", "ply"):
        if key not in data:
            raise StateFormatError(f"isolation state: missing field {key!r}")
    board, ply = data["board"], data["ply"]
    if not isinstance(board, str):
        raise StateFormatError(f"isolation state: field 'board' must be a string, got {board!r}")
    if not isinstance(ply, int) or isinstance(ply, bool) or ply < 0:
        raise StateFormatError(f"isolation state: field 'ply' must be a whole number >= 0, got {ply!r}")
    state = parse_board(board.split("/"), ply)
    if (state.width, state.height) != (game.width, game.height):
        raise StateFormatError(
            f"isolation state: board is {state.width}x{state.height}, the game is {game.width}x{game.height}"
        )
    forfeited = data.get("forfeited")
    if forfeited:
        if not (
            isinstance(forfeited, list)
            and len(forfeited) == 3
            and forfeited[0] in (0, 1)
            and all(isinstance(v, str) for v in forfeited[1:])
        ):
            raise StateFormatError(
                f"isolation state: field 'forfeited' must be [player, termination, reason], got {forfeited!r}"
            )
        player, termination, reason = forfeited
        return state.forfeit(int(player), str(termination), str(reason))
    return state
