"""ReversiXT pictures: the board as text with a legend, and as SVG.

The text board follows the reference server's log (two characters per cell, the symbol then an
apostrophe on a valid move of the player to move), so a position reads the same in our replays and
in the course's traces. The SVG draws holes, fields, special fields, stones in player colours,
transitions as links between the two glued edges, the valid moves and the last move.

>>> from gridarena.games.reversixt.rules import ReversiXT
>>> svg = render_svg(ReversiXT("sampler").new_initial_state())
>>> svg.startswith("<svg") and svg.count('class="stone"') == 12 and svg.count('class="transition"') == 4
True
"""

from __future__ import annotations

import html
from typing import Any, Final

from gridarena.core.types import Game
from gridarena.core.words import Ending, Seat, Words
from gridarena.games.reversixt.formats import (
    BONUS,
    CHOICE,
    DX,
    DY,
    EXPANSION,
    HOLE,
    INVERSION,
    SYMBOLS,
    cells_to_symbols,
    is_stone,
    map_name,
)
from gridarena.games.reversixt.rules import ReversiState, status_lines

#: Player colours 1..8 (index 0 unused): distinct on screen and in print.
COLOURS = ("", "#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf")
#: The colours' names, by map player (index 0 unused), as :data:`COLOURS` draws the stones.
COLOUR_NAMES = ("", "red", "blue", "green", "orange", "purple", "brown", "pink", "cyan")


def _edge(x: int, y: int, d: int, cell: int, margin: int) -> tuple[float, float]:
    """The point where a link leaves field (x, y) in direction d: the middle of that side or corner."""
    cx, cy = margin + x * cell + cell / 2, margin + y * cell + cell / 2
    return cx + DX[d] * cell / 2, cy + DY[d] * cell / 2


def _status(state: ReversiState) -> str:
    """The heading's second half: who moves, or at the end the ranking with each player's stones."""
    if not state.is_terminal():
        return status_lines(state)[0]
    scores, ranks = state.scores(), state.ranks()
    order = sorted(range(state.players), key=lambda k: ranks[k])
    shown = [
        f"player {k + 1} ({COLOUR_NAMES[k + 1]}, "
        + ("disqualified)" if scores[k] is None else f"{scores[k]} stone{'s' if scores[k] != 1 else ''})")
        for k in order
    ]
    return "game over: " + (f"{shown[0]} first, then {', '.join(shown[1:])}" if len(shown) > 1 else shown[0])


def render_svg(
    state: ReversiState, cell: int = 28, title: str | None = None, *, last_action: object = None
) -> str:
    """The position as an SVG document (a string), the registry's renderer for the web viewer and
    ``gridarena replay --svg``. The root carries ``data-game``, ``data-ply`` (moves played), ``data-cells``
    (the board in map symbols, row by row) and ``data-phase``; the state itself remembers its last move,
    so ``last_action`` adds nothing."""
    m = state.game.board
    w, h = m.width, m.height
    margin = cell
    top = 2 * 16 + 8
    per_row = max(1, min(4, (w * cell) // 150))  # legend entries per line, within the board's width
    legend_h = 18 * ((state.players + per_row - 1) // per_row) + 8
    heading = title if title is not None else f"{m.name or 'reversixt'} · {_status(state)}"
    # wide enough for the heading too (14 px sans-serif: under 8 px a character)
    width = max(2 * margin + w * cell, 320, margin + 8 * len(heading))
    height = 2 * margin + h * cell + top + legend_h
    marks = set(state.valid_cells()) if state.phase == 1 else set()
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" data-game="reversixt" '
        f'data-ply="{state.ply}" data-phase="{state.phase}" '
        f'data-cells="{html.escape(cells_to_symbols(state.cells))}">',
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
        f'<text x="{margin}" y="20" font-size="14">{html.escape(heading)}</text>',
        f'<g transform="translate(0,{top})">',
    ]
    for i, c in enumerate(state.cells):
        y, x = divmod(i, w)
        px, py = margin + x * cell, margin + y * cell
        if c == HOLE:
            parts.append(
                f'<rect class="hole" x="{px}" y="{py}" width="{cell}" height="{cell}" fill="#3b3b3b"/>'
            )
            continue
        parts.append(
            f'<rect class="field" x="{px}" y="{py}" width="{cell}" height="{cell}" '
            f'fill="#efe6cf" stroke="#b8ab8a" stroke-width="1"/>'
        )
        cx, cy, r = px + cell / 2, py + cell / 2, cell * 0.38
        if is_stone(c):
            parts.append(
                f'<circle class="stone" cx="{cx}" cy="{cy}" r="{r:.1f}" fill="{COLOURS[c]}" stroke="#222"/>'
                f'<text x="{cx}" y="{cy + cell * 0.15:.1f}" font-size="{cell * 0.4:.0f}" text-anchor="middle" '
                f'fill="#fff">{c}</text>'
            )
        elif c == EXPANSION:
            parts.append(
                f'<circle class="expansion" cx="{cx}" cy="{cy}" r="{r:.1f}" fill="#9e9e9e" stroke="#222"/>'
                f'<text x="{cx}" y="{cy + cell * 0.15:.1f}" font-size="{cell * 0.4:.0f}" text-anchor="middle">x</text>'
            )
        elif c in (CHOICE, INVERSION, BONUS):
            colour = {CHOICE: "#7b1fa2", INVERSION: "#00838f", BONUS: "#f9a825"}[c]
            parts.append(
                f'<rect class="special" x="{px + 3}" y="{py + 3}" width="{cell - 6}" height="{cell - 6}" rx="4" '
                f'fill="none" stroke="{colour}" stroke-width="2"/>'
                f'<text x="{cx}" y="{cy + cell * 0.15:.1f}" font-size="{cell * 0.45:.0f}" text-anchor="middle" '
                f'fill="{colour}">{SYMBOLS[c]}</text>'
            )
        if i in marks:
            parts.append(f'<circle class="valid" cx="{px + cell - 5}" cy="{py + 5}" r="3" fill="#2e7d32"/>')
    for x1, y1, d1, x2, y2, d2 in m.transitions:
        a, b = _edge(x1, y1, d1, cell, margin), _edge(x2, y2, d2, cell, margin)
        dead = state.cells[m.index(x1, y1)] == HOLE or state.cells[m.index(x2, y2)] == HOLE
        # control points pushed outwards along each end's direction: the link visibly leaves through that side
        c1 = (a[0] + DX[d1] * cell * 1.2, a[1] + DY[d1] * cell * 1.2)
        c2 = (b[0] + DX[d2] * cell * 1.2, b[1] + DY[d2] * cell * 1.2)
        parts.append(
            f'<path class="transition" d="M{a[0]:.1f},{a[1]:.1f} C{c1[0]:.1f},{c1[1]:.1f} '
            f'{c2[0]:.1f},{c2[1]:.1f} {b[0]:.1f},{b[1]:.1f}" fill="none" '
            f'stroke="{"#bbbbbb" if dead else "#1565c0"}" stroke-width="1.5" stroke-dasharray="4 3" opacity="0.8"/>'
        )
    if state.last_move is not None and 0 <= state.last_move.x < w and 0 <= state.last_move.y < h:
        lx, ly = margin + state.last_move.x * cell, margin + state.last_move.y * cell
        parts.append(
            f'<rect class="last" x="{lx + 1}" y="{ly + 1}" width="{cell - 2}" height="{cell - 2}" '
            f'fill="none" stroke="#e53935" stroke-width="3"/>'
        )
    parts.append("</g>")
    ly = top + 2 * margin + h * cell + 4
    counts = [state.cells.count(k) for k in range(1, state.players + 1)]
    for k in range(state.players):
        lx = margin + (k % per_row) * 150
        yy = ly + 18 * (k // per_row)
        dq = " (disqualified)" if state.disqualified[k] is not None else ""
        parts.append(
            f'<circle cx="{lx + 6}" cy="{yy + 6}" r="6" fill="{COLOURS[k + 1]}"/>'
            f'<text x="{lx + 16}" y="{yy + 11}" font-size="12">player {k + 1}: {counts[k]}{dq}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def describe_ending(ending: Ending, words: Words) -> str | None:
    """``greedy (green) first with 212 stones, then random (red) 180, ...``, or for two players
    ``greedy (red) wins with 40 stones to 24``; disqualifications follow with their reasons."""
    scores = ending.info.get("scores")
    ranks = ending.outcome.ranks()
    if not isinstance(scores, list) or len(scores) != len(ranks):
        return None
    shown = ["disqualified" if s is None else str(s) for s in scores]
    places = [[s for s, r in enumerate(ranks) if r == rank] for rank in sorted(set(ranks))]
    first = " and ".join(words.who(ending, s) for s in places[0])
    if len(places) == 1:
        text = f"a draw at {shown[0]} stones each"
    elif len(ranks) == 2:
        (winner,), (loser,) = places
        text = f"{first} wins with {shown[winner]} stones to {shown[loser]}"
    else:
        lead = "share first place" if len(places[0]) > 1 else "first"
        rest = ", ".join(
            " and ".join(f"{words.who(ending, s)} {shown[s]}" for s in group) for group in places[1:]
        )
        text = f"{first} {lead} with {shown[places[0][0]]} stones, then {rest}"
    disqualified = ending.info.get("disqualified")
    if isinstance(disqualified, dict):
        for player, why in disqualified.items():
            text += f"; {words.does(ending, int(player) - 1, 'was disqualified')} ({why})"
    return text


def describe_options(game: Game[Any]) -> list[tuple[str, str]]:
    """The map by its name and size (never its text), its players, overrides and bombs."""
    board = game.board  # type: ignore[attr-defined]
    name = board.name or (
        map_name(str(game.params["map"])) if game.params.get("map") else "a map given as text"
    )
    return [
        ("map", name),
        ("board", f"{board.width} × {board.height}"),
        ("players", str(board.players)),
        ("overrides", str(board.overrides)),
        ("bombs", f"{board.bombs} (radius {board.radius})"),
    ]


WORDS: Final = Words(
    seats=tuple(Seat(name, colour) for name, colour in zip(COLOUR_NAMES[1:], COLOURS[1:], strict=True)),
    describe=describe_ending,
    options=describe_options,
)
"""ReversiXT's words (its catalogue entry's ``words``): the stones' colours, the ranking, the map."""
