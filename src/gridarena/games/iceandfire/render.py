"""Ice and Fire as pictures: ``to_text``, the CodinGame inputs (spec section 13) and SVG.

The text picture gives each cell two characters: the owner (``#`` void, ``.`` neutral, ``R``/``r`` red
active/inactive, ``B``/``b`` blue) and what stands there (``1``-``3`` a unit's level, ``H`` HQ, ``M``
mine, ``T`` tower, ``*`` an empty mine spot, `` `` nothing).

>>> from gridarena.games.iceandfire.rules import IceAndFire
>>> state = IceAndFire().new_initial_state(seed=1)
>>> print(state.codingame_turn(1).splitlines()[:4])
['20', '2', '21', '1']
"""

from __future__ import annotations

import textwrap
from html import escape
from typing import TYPE_CHECKING

from gridarena.games.iceandfire.formats import turn_to_text

if TYPE_CHECKING:
    from gridarena.games.iceandfire.rules import IceAndFireState

_KIND_CHARS = "HMT"


def owner_rows(state: IceAndFireState, marks: str = "RB") -> list[str]:
    """The 12 rows of owners: ``#`` void, ``.`` neutral, else ``marks[owner]``, lower case when
    inactive (``RB`` for pictures and replays; ``OX`` or ``XO``, the reader's own first, for the
    CodinGame input)."""
    from gridarena.games.iceandfire.mapgen import SIZE
    from gridarena.games.iceandfire.rules import CELLS, NEUTRAL, VOID

    chars = []
    for c in range(CELLS):
        o = state.owner[c]
        if o == VOID:
            chars.append("#")
        elif o == NEUTRAL:
            chars.append(".")
        else:
            chars.append(marks[o] if state.active[c] else marks[o].lower())
    return ["".join(chars[y * SIZE : (y + 1) * SIZE]) for y in range(SIZE)]


def cell_chars(state: IceAndFireState) -> list[str]:
    """Two characters per cell, owner then content (see the module's docstring)."""
    owners = "".join(owner_rows(state))
    out = []
    for c in range(144):
        first = owners[c]
        second = "*" if state.board.spot[c] else " "
        out.append(first + second)
    for b in state.buildings:
        out[b.cell] = out[b.cell][0] + _KIND_CHARS[b.kind]
    for u in state.units:
        out[u.cell] = out[u.cell][0] + str(u.level)
    return out


def state_to_text(state: IceAndFireState) -> str:
    """Who is to move (or how the game ended) and both players' figures, the board (12 rows of 12
    two-character cells), the units, the turn just played and the referee's messages about it."""
    lines = status_lines(state)
    chars = cell_chars(state)
    lines.append("    " + " ".join(f"{x:<2d}" for x in range(12)).rstrip())
    for y in range(12):
        lines.append(f"{y:2d}  " + " ".join(chars[y * 12 : (y + 1) * 12]).rstrip())
    return "\n".join(lines + detail_lines(state))


def status_lines(state: IceAndFireState) -> list[str]:
    """The first three lines of ``to_text``: the turn (or the end) and each player's gold and income."""
    if state.result is not None:
        lines = [f"game over after turn {min(state.turn, 100)}: {state.result.reason}"]
    else:
        lines = [f"turn {state.turn}, {('red', 'blue')[state.player]} to move"]
    for p, name in enumerate(("red", "blue")):
        message = f", message {state.messages[p]!r}" if state.messages[p] else ""
        lines.append(f"{name}: gold {state.gold[p]}, income {state.income[p]}{message}")
    return lines


def detail_lines(state: IceAndFireState) -> list[str]:
    """The last lines of ``to_text``: units (owner, id, level, cell), the turn played, the referee's log."""
    lines = []
    if state.units:
        units = " ".join(f"{'rb'[u.owner]}{u.id}:L{u.level}({u.x},{u.y})" for u in state.units)
        lines.append(f"units {units}")
    if state.last_player is not None:
        lines.append(f"{('red', 'blue')[state.last_player]} played {turn_to_text(state.last_turn)}")
    lines.extend(f"referee: {line}" for line in state.log)
    return lines


def codingame_init(state: IceAndFireState, player: int) -> str:
    """The initial input: the number of mine spots, then each as ``x y`` (by y, then x)."""
    lines = [str(len(state.board.spots))]
    lines += [f"{x} {y}" for x, y in state.board.spots]
    return "\n".join(lines) + "\n"


def codingame_turn(state: IceAndFireState, player: int) -> str:
    """``player``'s turn input: gold, income, the opponent's, the map from its side, buildings, units."""
    other = 1 - player
    lines = [
        str(state.gold[player]),
        str(state.income[player]),
        str(state.gold[other]),
        str(state.income[other]),
    ]
    lines += owner_rows(state, "OX" if player == 0 else "XO")
    buildings = sorted((b.owner != player, b.kind, b.x, b.y) for b in state.buildings)
    lines.append(str(len(buildings)))
    lines += [f"{int(o)} {k} {x} {y}" for o, k, x, y in buildings]
    units = sorted((u.owner != player, u.id, u.level, u.x, u.y) for u in state.units)
    lines.append(str(len(units)))
    lines += [f"{int(o)} {i} {lv} {x} {y}" for o, i, lv, x, y in units]
    return "\n".join(lines) + "\n"


# -- SVG -------------------------------------------------------------------------------------

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


def render_svg(state: IceAndFireState, *, last_action: object = None) -> str:
    """The web viewer's and ``gridarena replay --svg``'s picture (the registry's renderer): the state
    already holds the turn just played (``last_turn``), so ``last_action`` adds nothing."""
    return state_to_svg(state)


def state_to_svg(state: IceAndFireState, title: str = "") -> str:
    """An SVG picture: cells by owner and activity (pale = inactive), mine spots as small diamonds,
    buildings (H, M, T squares), units as circles with their level and id, the turn's commands as
    dashed lines (MOVE: from where the unit stands now to the cell it was sent to) and marks (TRAIN, BUILD), then
    the figures and the referee's messages below the board."""
    from gridarena.games.iceandfire.formats import Build, Move, Train

    size = 12 * CELL_PX
    # Monospace 12 px: about 78 characters fit the board's width; long lines (units, the turn) wrap.
    text_lines = [
        part
        for line in status_lines(state) + detail_lines(state)
        for part in textwrap.wrap(line, 78, subsequent_indent="  ", break_on_hyphens=False) or [""]
    ]
    height = size + 20 + 16 * (len(text_lines) + (1 if title else 0))
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{height}" '
        f'viewBox="0 0 {size} {height}" font-family="monospace" font-size="12" '
        f'data-game="iceandfire" data-ply="{state.ply}" data-turn="{state.turn}" '
        f'data-gold="{state.gold[0]} {state.gold[1]}">',
        f'<rect width="{size}" height="{height}" fill="white"/>',
    ]
    owners = "".join(owner_rows(state))
    for c in range(144):
        x, y = c % 12, c // 12
        key = owners[c]
        px, py = x * CELL_PX, y * CELL_PX
        out.append(
            f'<rect x="{px}" y="{py}" width="{CELL_PX}" height="{CELL_PX}" fill="{_FILL[key, True]}" '
            f'stroke="#999" stroke-width="0.5"><title>({x},{y})</title></rect>'
        )
        if state.board.spot[c]:
            cx, cy = px + CELL_PX - 7, py + 7
            out.append(
                f'<polygon points="{cx},{cy - 5} {cx + 5},{cy} {cx},{cy + 5} {cx - 5},{cy}" fill="#d4a017"/>'
            )
    for b in state.buildings:
        px, py = b.x * CELL_PX, b.y * CELL_PX
        out.append(
            f'<rect x="{px + 6}" y="{py + 6}" width="{CELL_PX - 12}" height="{CELL_PX - 12}" '
            f'fill="{_DARK[b.owner]}" stroke="white"/>'
            f'<text x="{px + CELL_PX / 2}" y="{py + CELL_PX / 2 + 5}" fill="white" text-anchor="middle" '
            f'font-weight="bold">{_KIND_CHARS[b.kind]}</text>'
        )
    for u in state.units:
        ux, uy = u.x * CELL_PX + CELL_PX / 2, u.y * CELL_PX + CELL_PX / 2
        radius = 8 + 3 * u.level
        out.append(
            f'<circle cx="{ux}" cy="{uy}" r="{radius}" fill="{_DARK[u.owner]}" stroke="white">'
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
        elif isinstance(command, Train | Build) and command.x < 12 and command.y < 12:
            px, py = command.x * CELL_PX, command.y * CELL_PX
            out.append(
                f'<rect x="{px + 1}" y="{py + 1}" width="{CELL_PX - 2}" height="{CELL_PX - 2}" fill="none" '
                f'stroke="black" stroke-width="2"><title>{escape(command.to_text())}</title></rect>'
            )
    y = size + 16
    if title:
        out.append(f'<text x="4" y="{y}" font-weight="bold">{escape(title)}</text>')
        y += 16
    for line in text_lines:
        out.append(f'<text x="4" y="{y}">{escape(line)}</text>')
        y += 16
    out.append("</svg>")
    return "\n".join(out) + "\n"
