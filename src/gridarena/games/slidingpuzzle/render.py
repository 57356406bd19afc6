"""Boards as text (the homework's right-aligned grid, a compact picture for people) and as SVG."""

from __future__ import annotations

from typing import Any, Final
from xml.sax.saxutils import escape

from gridarena.core.types import FORFEITS, Game
from gridarena.core.words import Ending, Words, forfeit, option_rows
from gridarena.games.slidingpuzzle.board import (
    BLANK,
    WALL,
    Action,
    Board,
    Cell,
    action_cell,
    action_direction,
    action_to_text,
    neighbour,
)
from gridarena.games.slidingpuzzle.rules import PuzzleState

TILE: Final = 56
MARGIN: Final = 10
FOOTER: Final = 28
MIN_WIDTH: Final = 230


def _slides_by_tile(state: PuzzleState) -> dict[Cell, list[str]]:
    """Cell of a tile -> the texts of its legal slides (two only where it stands between two blanks)."""
    out: dict[Cell, list[str]] = {}
    for action in state.legal_actions():
        out.setdefault(action_cell(action), []).append(action_to_text(action))
    return out


def _status(state: PuzzleState) -> str:
    outcome = state.outcome()
    if outcome is not None:
        return outcome.reason or outcome.termination
    return f"slides {state.moves}"


def render_svg(state: PuzzleState, *, last_action: Action | None = None) -> str:
    """The board with the slide counter; the tile moved by ``last_action`` is outlined.

    Each cell is drawn with ``data-cell`` (its index) and ``data-v`` (-1 wall, 0 blank, else the
    tile), the root carries every cell as ``data-cells`` and the counter as ``data-moves``, so a test
    reads the position back from the picture. A tile that may slide carries ``data-action`` (its first
    legal slide): the browser's play page sends it when the tile is clicked.

    >>> from gridarena.games.slidingpuzzle.rules import SlidingPuzzle
    >>> svg = render_svg(SlidingPuzzle(rows=2, cols=2, scramble=1).new_initial_state(seed=1))
    >>> 'data-cells="1,0,3,2"' in svg, svg.count('class="cell')
    (True, 4)
    """
    board = state.board
    moved = None if last_action is None else _landing(board, last_action)
    slides = _slides_by_tile(state)
    goal = state.puzzle.goal.cells
    # at least wide enough for the longest status line ("move cap reached unsolved")
    width, height = max(2 * MARGIN + board.cols * TILE, MIN_WIDTH), 2 * MARGIN + board.rows * TILE + FOOTER
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="board" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" data-game="slidingpuzzle" data-ply="{state.moves}" '
        f'data-moves="{state.moves}" data-rows="{board.rows}" data-cols="{board.cols}" '
        f'data-cells="{",".join(map(str, board.cells))}" data-solved="{str(state.is_solved()).lower()}" '
        f'font-family="sans-serif">',
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
    ]
    for cell, value in enumerate(board.cells):
        row, col = divmod(cell, board.cols)
        x, y = MARGIN + col * TILE, MARGIN + row * TILE
        actions = slides.get(cell, [])
        extra = f' data-action="{actions[0]}" data-actions="{"|".join(actions)}"' if actions else ""
        kind = "wall" if value == WALL else "blank" if value == BLANK else "tile"
        home = value > 0 and goal[cell] == value
        fill = {"wall": "#3b3b3b", "blank": "#fbfaf7"}.get(kind, "#cfe8d5" if home else "#f6d9a8")
        parts.append(
            f'<rect class="cell {kind}{" clickable" if actions else ""}" data-cell="{cell}" data-v="{value}"'
            f'{extra} x="{x + 2}" y="{y + 2}" width="{TILE - 4}" height="{TILE - 4}" rx="6" fill="{fill}" '
            f'stroke="{"#c0392b" if cell == moved else "#9a8f7c"}" stroke-width="{3 if cell == moved else 1}"/>'
        )
        if value > 0:
            parts.append(
                f'<text x="{x + TILE // 2}" y="{y + TILE // 2 + 7}" font-size="20" text-anchor="middle" '
                f'fill="#222" pointer-events="none">{value}</text>'
            )
    parts.append(
        f'<text class="status" x="{MARGIN}" y="{height - 10}" font-size="15" fill="#222">'
        f"{escape(_status(state))}</text>"
    )
    parts.append("</svg>")
    return "\n".join(parts)


def _landing(board: Board, action: Action) -> Cell | None:
    """The cell the tile of ``action`` stands on after the slide (None if off the board)."""
    return neighbour(action_cell(action), action_direction(action), board.rows, board.cols)


def describe_ending(ending: Ending, words: Words) -> str | None:
    """``solver solved it in 22 slides``, or the cap reached unsolved, or a forfeit, unsolved."""
    outcome = ending.outcome
    if outcome.termination == "normal":
        return f"{ending.name(0)} {outcome.reason.replace('solved in', 'solved it in')}"
    if outcome.termination == "adjudicated":
        return f"{ending.name(0)} did not solve it: {outcome.reason}"
    if outcome.termination in FORFEITS:
        return f"{forfeit(words, ending)}: unsolved"
    return None


def describe_options(game: Game[Any]) -> list[tuple[str, str]]:
    """The board's size and variant, then the other parameters given (a start or goal by its size)."""
    params = {k: v for k, v in game.params.items() if v is not None}
    rows: list[tuple[str, str]] = [("board", f"{params.pop('rows', '?')} × {params.pop('cols', '?')}")]
    return rows + option_rows(params)


WORDS: Final = Words(describe=describe_ending, options=describe_options)
"""The sliding puzzle's words (its catalogue entry's ``words``): the ending and the board."""
