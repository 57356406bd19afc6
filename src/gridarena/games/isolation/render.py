"""The Isolation board as SVG, for the web viewer and ``gridarena replay --svg``.

The picture marks the last jump (the cell just entered, outlined) and the cells each placed player
could enter next (small dots in its colour: they are what the game is about). Every drawn cell
carries its name and content (``data-cell="d4" data-v="1"``), and the root carries the compact
board (``data-board``, the same string as ``State.to_json()["board"]``), so a test reads the
position back from the drawing. Cells the player to move may enter carry ``data-action``: the
browser's play page sends that text when one is clicked.

>>> from gridarena.games.isolation.rules import State
>>> svg = render_svg(State(3, 3, blocked=0b100000001, locs=(0, 8), ply=2), last_action=8)
>>> 'data-board="1../.../..2"' in svg, svg.count('class="cell')
(True, 9)
"""

from __future__ import annotations

from typing import Any, Final
from xml.sax.saxutils import escape

from gridarena.core.types import Game, Outcome
from gridarena.core.words import Ending, Seat, Words
from gridarena.games.isolation.formats import cell_chars, cell_to_text
from gridarena.games.isolation.rules import Cell, State

CELL: Final = 44
MARGIN: Final = 22  # room for the coordinates
FOOTER: Final = 26
PLAYER_COLOURS: Final = ("#d35400", "#2471a3")
SEAT_NAMES: Final = ("orange", "blue")
FILL: Final = {".": "#f4f1ea", "#": "#8c8c8c", "1": "#f4f1ea", "2": "#f4f1ea"}


def _cell_xy(cell: Cell, width: int) -> tuple[int, int]:
    row, col = divmod(cell, width)
    return MARGIN + col * CELL, MARGIN + row * CELL


def _legal_dots(state: State) -> list[str]:
    """Both placed players' next cells: a dot left (player 1) or right (player 2) of the centre."""
    parts: list[str] = []
    for player in (0, 1):
        if state.locs[player] is None or state.forfeited is not None:
            continue
        dx = -7 if player == 0 else 7
        for cell in state.moves_of(player):
            x, y = _cell_xy(cell, state.width)
            parts.append(
                f'<circle class="legal legal-{player + 1} overlay" cx="{x + CELL // 2 + dx}" '
                f'cy="{y + CELL // 2}" r="5" fill="{PLAYER_COLOURS[player]}" opacity="0.75"/>'
            )
    return parts


def _status(state: State) -> str:
    """The caption under the board, the players by number and colour (their names are the page's)."""
    outcome = state.outcome()
    if outcome is None:
        return f"ply {state.ply} · {_player(state.mover())} to move"
    if outcome.termination == "normal" and len(outcome.returns) == 2:
        loser = _loser(outcome)
        return f"ply {state.ply} · over: {_player(loser)} has no legal move, {_player(1 - loser)} wins"
    return f"ply {state.ply} · over: {outcome.reason or outcome.termination}"


def _loser(outcome: Outcome) -> int:
    """The seat that ended a normal game without a legal move (the lower return)."""
    return 0 if outcome.returns[0] < outcome.returns[1] else 1


def _player(seat: int) -> str:
    """``player 2 (blue)``: as numbered on the board, with its colour."""
    return f"player {seat + 1} ({SEAT_NAMES[seat]})"


def render_svg(state: State, *, last_action: Cell | None = None) -> str:
    """The board after ``state.ply`` plies, ``last_action`` (the cell just entered) outlined."""
    width, height = state.width, state.height
    chars = cell_chars(width, height, state.blocked, state.locs)
    moving = set(state.legal_actions())
    legal = [
        " ".join(cell_to_text(c, width) for c in state.moves_of(p)) if state.locs[p] is not None else ""
        for p in (0, 1)
    ]
    status = _status(state)
    # wide enough for the status line too (14 px sans-serif: under 8 px a character)
    total_w, total_h = (
        max(2 * MARGIN + width * CELL, MARGIN + 8 * len(status)),
        2 * MARGIN + height * CELL + FOOTER,
    )
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="board" width="{total_w}" height="{total_h}" '
        f'viewBox="0 0 {total_w} {total_h}" data-game="isolation" data-ply="{state.ply}" '
        f'data-width="{width}" data-height="{height}" data-board="{state.board_string()}" '
        f'data-legal-1="{legal[0]}" data-legal-2="{legal[1]}" '
        f'data-last="{"" if last_action is None else cell_to_text(last_action, width)}" '
        f'font-family="sans-serif">',
        f'<rect width="{total_w}" height="{total_h}" fill="#ffffff"/>',
    ]
    for cell, char in enumerate(chars):
        x, y = _cell_xy(cell, width)
        name = cell_to_text(cell, width)
        action = f' data-action="{name}"' if cell in moving else ""
        clickable = " clickable" if cell in moving else ""
        parts.append(
            f'<rect class="cell{clickable}" data-cell="{name}" data-v="{char}"{action} x="{x}" y="{y}" '
            f'width="{CELL}" height="{CELL}" fill="{FILL[char]}" stroke="#b8b2a6"/>'
        )
    for col in range(width):
        parts.append(
            f'<text x="{MARGIN + col * CELL + CELL // 2}" y="{MARGIN - 7}" font-size="12" '
            f'text-anchor="middle" fill="#555">{chr(ord("a") + col)}</text>'
        )
    for row in range(height):
        parts.append(
            f'<text x="{MARGIN - 6}" y="{MARGIN + row * CELL + CELL // 2 + 4}" font-size="12" '
            f'text-anchor="end" fill="#555">{row + 1}</text>'
        )
    parts += _legal_dots(state)
    if last_action is not None:
        x, y = _cell_xy(last_action, width)
        parts.append(
            f'<rect class="last" x="{x + 2}" y="{y + 2}" width="{CELL - 4}" height="{CELL - 4}" '
            'fill="none" stroke="#c0392b" stroke-width="3"/>'
        )
    for player, loc in enumerate(state.locs):
        if loc is None:
            continue
        x, y = _cell_xy(loc, width)
        parts.append(
            f'<circle class="piece" data-player="{player + 1}" cx="{x + CELL // 2}" cy="{y + CELL // 2}" '
            f'r="{CELL // 2 - 7}" fill="{PLAYER_COLOURS[player]}" stroke="#222"/>'
            f'<text x="{x + CELL // 2}" y="{y + CELL // 2 + 5}" font-size="15" font-weight="bold" '
            f'text-anchor="middle" fill="#fff">{player + 1}</text>'
        )
    parts.append(
        f'<text class="status" x="{MARGIN}" y="{total_h - 10}" font-size="14" fill="#222">'
        f"{escape(status)}</text>"
    )
    parts.append("</svg>")
    return "\n".join(parts)


def describe_ending(ending: Ending, words: Words) -> str | None:
    """``random (blue) has no legal move left: greedy (orange) wins`` (None: a forfeit, told in common words)."""
    outcome = ending.outcome
    if outcome.termination != "normal" or len(outcome.returns) != 2:
        return None
    loser = _loser(outcome)
    return f"{words.does(ending, loser, 'has no legal move left')}: {words.does(ending, 1 - loser, 'wins')}"


def describe_options(game: Game[Any]) -> list[tuple[str, str]]:
    """The board's size (Isolation has no other parameter)."""
    return [("board", f"{game.params['width']} × {game.params['height']}")]


WORDS: Final = Words(
    seats=tuple(Seat(name, colour) for name, colour in zip(SEAT_NAMES, PLAYER_COLOURS, strict=True)),
    describe=describe_ending,
    options=describe_options,
)
"""Isolation's words (its catalogue entry's ``words``): the pieces' colours, the ending, the board."""
