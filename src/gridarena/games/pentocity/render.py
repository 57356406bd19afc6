"""Pictures of the city: SVG text for replays and the viewer, PNG bytes written with the standard library.

Colours follow the Java GUI: residence orange, factory black, road purple, park green, water blue.

>>> from gridarena.games.pentocity.formats import parse_land
>>> svg = render_svg(parse_land("rf#"), cell=10)
>>> svg.startswith("<svg") and svg.count('class="cell"')
3
>>> render_png(parse_land("r"), cell=2)[:8] == PNG_SIGNATURE
True
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterable
from typing import Final
from xml.sax.saxutils import escape

import numpy as np
from numpy.typing import NDArray

from gridarena.core.words import Ending, Words, forfeit
from gridarena.games.pentocity.buildings import Cell
from gridarena.games.pentocity.land import SIDE, CellType, Land, Move
from gridarena.games.pentocity.rules import Action, PentocityState

COLOURS: Final = {
    CellType.EMPTY: "#ffffff",
    CellType.RESIDENCE: "#f39c12",
    CellType.FACTORY: "#1b1b1b",
    CellType.WATER: "#2e86de",
    CellType.PARK: "#27ae60",
    CellType.ROAD: "#8e44ad",
}
PNG_SIGNATURE: Final = b"\x89PNG\r\n\x1a\n"
_HEADER: Final = 22  # pixels above the land for the title line
_LEGEND: Final = 24  # pixels below the land for the colours' legend (a state's picture)
#: The legend's entries: what each colour of the city is.
LEGEND: Final = (
    (CellType.RESIDENCE, "residence"),
    (CellType.FACTORY, "factory"),
    (CellType.ROAD, "road"),
    (CellType.PARK, "park"),
    (CellType.WATER, "water"),
)


def _runs(row: NDArray[np.uint8]) -> list[tuple[int, int, int]]:
    """(start, length, type) of the maximal runs of equal, non-EMPTY cells in one row."""
    out: list[tuple[int, int, int]] = []
    j = 0
    while j < len(row):
        k = j
        while k < len(row) and row[k] == row[j]:
            k += 1
        if row[j] != CellType.EMPTY:
            out.append((j, k - j, int(row[j])))
        j = k
    return out


def _land_and_title(city: Land | PentocityState, title: str | None) -> tuple[Land, str | None]:
    if isinstance(city, PentocityState):
        default = f"{city.game.sequencer} · score {city.score} · rejects {city.rejects}/3"
        return city.land, default if title is None else title
    return city, title


def _data(city: Land | PentocityState, land: Land) -> str:
    """The root's data attributes: the land always; a state adds its ply (requests dealt plus answers)."""
    digits = "".join(map(str, land.ravel().tolist()))
    out = f' data-game="pentocity" data-land="{digits}"'
    if isinstance(city, PentocityState):
        ply = city.requests + city.accepted + city.rejects
        out += f' data-ply="{ply}" data-score="{city.score}" data-rejects="{city.rejects}"'
    return out


def render_svg(
    city: Land | PentocityState,
    cell: int = 12,
    grid: bool = True,
    highlight: Iterable[Cell] = (),
    title: str | None = None,
    *,
    last_action: Action | None = None,
) -> str:
    """The land as an SVG document; a state adds a title line (sequencer, score, rejects).

    Runs of equal cells in a row are drawn as one rectangle (``data-v``: the cell type), which keeps
    the file small; ``highlight`` outlines cells, and so does ``last_action`` (the placement's corner
    and its road, water and park cells). A state's root carries the ply, the score and the land as one
    digit per cell (``data-land``), so a test reads the position back from the picture.
    """
    land, title = _land_and_title(city, title)
    top = _HEADER if title else 0
    size = SIDE * cell
    bottom = _LEGEND if isinstance(city, PentocityState) else 0
    if isinstance(last_action, Move) and last_action.accept:
        highlight = [
            *highlight,
            last_action.location,
            *last_action.road,
            *last_action.water,
            *last_action.park,
        ]
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size + top + bottom}" '
        f'viewBox="0 0 {size} {size + top + bottom}"{_data(city, land)}>',
        f'<rect width="{size}" height="{size + top + bottom}" fill="{COLOURS[CellType.EMPTY]}"/>',
    ]
    if title:
        parts.append(
            f'<text x="4" y="{top - 6}" font-family="sans-serif" font-size="14">{escape(title)}</text>'
        )
    for i in range(SIDE):
        for j, length, kind in _runs(land[i]):
            parts.append(
                f'<rect class="cell" data-v="{kind}" x="{j * cell}" y="{top + i * cell}" '
                f'width="{length * cell}" height="{cell}" fill="{COLOURS[CellType(kind)]}"/>'
            )
    if grid:
        lines = [f"M{k * cell} {top}V{top + size}M0 {top + k * cell}H{size}" for k in range(SIDE + 1)]
        parts.append(f'<path d="{"".join(lines)}" stroke="#d0d0d0" stroke-width="0.5" fill="none"/>')
    for i, j in highlight:
        parts.append(
            f'<rect class="highlight" x="{j * cell}" y="{top + i * cell}" width="{cell}" height="{cell}" '
            'fill="none" stroke="#e74c3c" stroke-width="2"/>'
        )
    if bottom:
        parts.append(_legend(top + size + 6, size))
    parts.append("</svg>")
    return "\n".join(parts)


def _legend(y: int, width: int) -> str:
    """A row of swatches naming each colour of the city, and the outline of the last placement."""
    step = width // (len(LEGEND) + 1)
    parts = ['<g class="legend" font-family="sans-serif" font-size="12">']
    entries = [(COLOURS[kind], label, False) for kind, label in LEGEND] + [("#e74c3c", "last placed", True)]
    for k, (colour, label, outline) in enumerate(entries):
        x = 4 + k * step
        fill = "none" if outline else colour
        stroke = f'stroke="{colour}" stroke-width="2"' if outline else 'stroke="#999"'
        parts.append(
            f'<rect x="{x}" y="{y}" width="12" height="12" fill="{fill}" {stroke}/>'
            f'<text x="{x + 16}" y="{y + 10}">{label}</text>'
        )
    parts.append("</g>")
    return "".join(parts)


def land_pixels(land: Land, cell: int = 8) -> NDArray[np.uint8]:
    """The land as an RGB image, ``cell`` pixels per cell (height, width, 3)."""
    palette = np.array(
        [[int(COLOURS[CellType(t)][k : k + 2], 16) for k in (1, 3, 5)] for t in range(len(COLOURS))],
        dtype=np.uint8,
    )
    image = palette[land]
    return np.repeat(np.repeat(image, cell, axis=0), cell, axis=1)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (
        struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    )


def encode_png(image: NDArray[np.uint8]) -> bytes:
    """An 8-bit RGB PNG of ``image`` (height, width, 3), with zlib from the standard library."""
    height, width, _ = image.shape
    raw = np.concatenate([np.zeros((height, 1), dtype=np.uint8), image.reshape(height, width * 3)], axis=1)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        PNG_SIGNATURE
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(raw.tobytes(), 9))
        + _chunk(b"IEND", b"")
    )


def render_png(city: Land | PentocityState, cell: int = 8) -> bytes:
    """The land as PNG bytes (no title: text needs a font library, which we do not depend on)."""
    land, _ = _land_and_title(city, None)
    return encode_png(land_pixels(land, cell))


def describe_ending(ending: Ending, words: Words) -> str | None:
    """``example scored 1234 points with 71 buildings on 74 requests; rejection 3 of 3 ended the game``."""
    info, outcome = ending.info, ending.outcome
    score, placed, requests = info.get("score"), info.get("accepted"), info.get("requests")
    if score is None or placed is None or requests is None:
        return None
    city = f"{placed} buildings on {requests} requests"
    if outcome.termination == "normal":
        return f"{ending.name(0)} scored {score} points with {city}; {outcome.reason or 'the last rejection'} ended the game"
    if outcome.termination == "aborted":
        return f"the game was aborted after {city} ({outcome.reason})"
    counted = "" if outcome.returns[0] == score else " (which do not count)"
    return f"{forfeit(words, ending)} with {score} points{counted} and {city}"


WORDS: Final = Words(describe=describe_ending)
"""Pentocity's words (its catalogue entry's ``words``): the city's ending (its colours: :data:`LEGEND`)."""
