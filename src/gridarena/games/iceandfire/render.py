"""Ice and Fire as an SVG picture (the registry's renderer): the board, the turn just played, the figures.

>>> from gridarena.games.iceandfire.rules import IceAndFire
>>> state_to_svg(IceAndFire().new_initial_state(seed=1)).startswith("<svg")
True
"""

from __future__ import annotations

import textwrap
from html import escape
from typing import Final

from gridarena.core.words import Ending, Seat, Words
from gridarena.games.iceandfire.formats import Build, Move, Train
from gridarena.games.iceandfire.geometry import CELLS, SIZE
from gridarena.games.iceandfire.rules import (
    KIND_CHARS,
    IceAndFireState,
    detail_lines,
    owner_rows,
    status_lines,
)

CELL_PX = 40
_FILL = {
    ("#", True): "#2b2b2b",
    (".", True): "#e8e4d8",
    ("R", True): "#e0533d",
    ("r", True): "#f2b8ad",
    ("B", True): "#3d7be0",
    ("b", True): "#adc8f2",
}
_DARK = ("#8c1d0e", "#0e3a8c")


_LEGEND_PX = 44
"""Room under the board for the legend (two rows)."""


def _legend(y: int) -> str:
    """What the colours and marks mean: territories (pale: cut off from the HQ), mine spots, buildings, units."""
    cells = [("R", "red"), ("r", "red, inactive"), ("B", "blue"), ("b", "blue, inactive"), ("#", "void")]
    parts = ['<g class="legend" font-family="sans-serif" font-size="11">']
    for k, (key, label) in enumerate(cells):
        x = 4 + k * 96
        parts.append(
            f'<rect x="{x}" y="{y}" width="12" height="12" fill="{_FILL[key, True]}" stroke="#999"/>'
            f'<text x="{x + 16}" y="{y + 10}">{label}</text>'
        )
    y2, cx = y + 20, 10
    parts.append(
        f'<polygon points="{cx},{y2} {cx + 6},{y2 + 6} {cx},{y2 + 12} {cx - 6},{y2 + 6}" fill="#d4a017"/>'
        f'<text x="{cx + 10}" y="{y2 + 10}">mine spot</text>'
        f'<rect x="100" y="{y2}" width="12" height="12" fill="{_DARK[0]}"/>'
        f'<text x="116" y="{y2 + 10}">building: H HQ, M mine, T tower</text>'
        f'<circle cx="330" cy="{y2 + 6}" r="6" fill="{_DARK[1]}"/>'
        f'<text x="340" y="{y2 + 10}">unit: level, id below</text>'
    )
    parts.append("</g>")
    return "".join(parts)


def render_svg(state: IceAndFireState, *, last_action: object = None) -> str:
    """The web viewer's and ``gridarena replay --svg``'s picture (the registry's renderer): the state
    already holds the turn just played (``last_turn``), so ``last_action`` adds nothing."""
    return state_to_svg(state)


def state_to_svg(state: IceAndFireState, title: str = "") -> str:
    """An SVG picture: cells by owner and activity (pale = inactive), mine spots as small diamonds,
    buildings (H, M, T squares), units as circles with their level and id, the turn's commands as
    dashed lines (MOVE: from where the unit stands now to the cell it was sent to) and marks (TRAIN, BUILD), then
    the figures and the referee's messages below the board."""
    size = SIZE * CELL_PX
    # Monospace 12 px is about 7.2 px a character: 64 fit the board's width; longer lines wrap.
    text_lines = [
        part
        for line in status_lines(state) + detail_lines(state)
        for part in textwrap.wrap(line, 64, subsequent_indent="  ", break_on_hyphens=False) or [""]
    ]
    height = size + _LEGEND_PX + 20 + 16 * (len(text_lines) + (1 if title else 0))
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{height}" '
        f'viewBox="0 0 {size} {height}" font-family="monospace" font-size="12" '
        f'data-game="iceandfire" data-ply="{state.ply}" data-turn="{state.turn}" '
        f'data-gold="{state.gold[0]} {state.gold[1]}">',
        f'<rect width="{size}" height="{height}" fill="white"/>',
    ]
    owners = "".join(owner_rows(state))
    for c in range(CELLS):
        x, y = c % SIZE, c // SIZE
        key = owners[c]
        px, py = x * CELL_PX, y * CELL_PX
        out.append(
            f'<rect x="{px}" y="{py}" width="{CELL_PX}" height="{CELL_PX}" fill="{_FILL[key, True]}" '
            f'stroke="#999" stroke-width="0.5"><title>({x},{y})</title></rect>'
        )
        if state.board.spot[c]:
            cx, cy = px + CELL_PX - 7, py + 7
            out.append(
                f'<polygon class="spot" points="{cx},{cy - 5} {cx + 5},{cy} {cx},{cy + 5} {cx - 5},{cy}" '
                'fill="#d4a017"/>'
            )
    for b in state.buildings:
        px, py = b.x * CELL_PX, b.y * CELL_PX
        out.append(
            f'<rect x="{px + 6}" y="{py + 6}" width="{CELL_PX - 12}" height="{CELL_PX - 12}" '
            f'fill="{_DARK[b.owner]}" stroke="white"/>'
            f'<text x="{px + CELL_PX / 2}" y="{py + CELL_PX / 2 + 5}" fill="white" text-anchor="middle" '
            f'font-weight="bold">{KIND_CHARS[b.kind]}</text>'
        )
    for u in state.units:
        ux, uy = u.x * CELL_PX + CELL_PX / 2, u.y * CELL_PX + CELL_PX / 2
        radius = 8 + 3 * u.level
        out.append(
            f'<circle class="unit" cx="{ux}" cy="{uy}" r="{radius}" fill="{_DARK[u.owner]}" stroke="white">'
            f"<title>unit {u.id}, level {u.level}</title></circle>"
            f'<text x="{ux}" y="{uy + 4}" fill="white" text-anchor="middle" font-weight="bold">{u.level}</text>'
            f'<text x="{ux - CELL_PX / 2 + 2}" y="{uy + CELL_PX / 2 - 3}" font-size="9">{u.id}</text>'
        )
    for command in state.last_turn:
        if isinstance(command, Move):
            unit = next((u for u in state.units if u.id == command.id), None)
            if unit is None:
                continue
            x1, y1 = unit.x * CELL_PX + CELL_PX / 2, unit.y * CELL_PX + CELL_PX / 2
            x2, y2 = command.x * CELL_PX + CELL_PX / 2, command.y * CELL_PX + CELL_PX / 2
            out.append(
                f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="black" stroke-width="2" '
                f'stroke-dasharray="4 2" opacity="0.7"><title>{escape(command.to_text())}</title></line>'
            )
        elif isinstance(command, Train | Build) and command.x < SIZE and command.y < SIZE:
            px, py = command.x * CELL_PX, command.y * CELL_PX
            out.append(
                f'<rect x="{px + 1}" y="{py + 1}" width="{CELL_PX - 2}" height="{CELL_PX - 2}" fill="none" '
                f'stroke="black" stroke-width="2"><title>{escape(command.to_text())}</title></rect>'
            )
    out.append(_legend(size + 6))
    y = size + _LEGEND_PX + 16
    if title:
        out.append(f'<text x="4" y="{y}" font-weight="bold">{escape(title)}</text>')
        y += 16
    for line in text_lines:
        out.append(f'<text x="4" y="{y}">{escape(line)}</text>')
        y += 16
    out.append("</svg>")
    return "\n".join(out) + "\n"


def describe_ending(ending: Ending, words: Words) -> str | None:
    """``blue captured red's HQ on turn 17: wood2 (blue) wins``, or the military scores at the turn limit."""
    outcome = ending.outcome
    if outcome.termination != "normal" or len(outcome.returns) != 2:
        return None
    winners = ending.winners()
    if not outcome.reason.startswith("turn limit"):
        return f"{outcome.reason}: {words.does(ending, winners[0], 'wins')}" if len(winners) == 1 else None
    scores = ending.info.get("scores")
    if not isinstance(scores, list) or len(scores) != 2:
        return None
    if len(winners) == 2:
        return f"the turns ran out: a draw at {scores[0]} military score each"
    winner = winners[0]
    return (
        f"the turns ran out: {words.does(ending, winner, 'wins on military score')} "
        f"{scores[winner]} to {scores[1 - winner]}"
    )


WORDS: Final = Words(
    seats=(Seat("red", _FILL["R", True]), Seat("blue", _FILL["B", True])),
    describe=describe_ending,
)
"""Ice and Fire's words (its catalogue entry's ``words``): the territories' colours and the ending."""
