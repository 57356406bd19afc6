"""Rendering: well-formed SVG with the right colours, and PNG bytes that decode back to the land."""

from __future__ import annotations

import struct
import xml.etree.ElementTree as ET
import zlib

import numpy as np

from gridarena.games.pentocity import CellType, Move, Pentocity
from gridarena.games.pentocity.formats import parse_land
from gridarena.games.pentocity.land import SIDE
from gridarena.games.pentocity.render import COLOURS, PNG_SIGNATURE, land_pixels, render_png, render_svg

SVG = "{http://www.w3.org/2000/svg}"


def test_svg_is_well_formed_and_merges_runs() -> None:
    land = parse_land("rrr#\n..ww\n" + "\n" * 10 + "p")
    root = ET.fromstring(render_svg(land, cell=10))
    cells = [r for r in root.iter(f"{SVG}rect") if r.get("class") == "cell"]
    by_position = {(int(r.get("y", 0)) // 10, int(r.get("x", 0)) // 10): r for r in cells}
    assert len(cells) == 4  # rrr is one rectangle
    assert by_position[(0, 0)].get("width") == "30"
    assert by_position[(0, 0)].get("fill") == COLOURS[CellType.RESIDENCE]
    assert by_position[(0, 3)].get("fill") == COLOURS[CellType.ROAD]
    assert by_position[(1, 2)].get("fill") == COLOURS[CellType.WATER]
    assert by_position[(12, 0)].get("fill") == COLOURS[CellType.PARK]
    assert root.get("width") == str(SIDE * 10)


def test_svg_of_a_state_has_a_title_and_highlight() -> None:
    game = Pentocity(sequencer="g6")
    state = game.new_initial_state(seed=1)
    state = state.apply_action(state.chance_outcomes()[0][0]).apply_action(Move.build((0, 0)))
    svg = render_svg(state, highlight=[(0, j) for j in range(5)])
    root = ET.fromstring(svg)
    assert "score 5" in "".join(root.itertext())
    assert sum(1 for r in root.iter(f"{SVG}rect") if r.get("class") == "highlight") == 5
    assert "<path" not in render_svg(state, grid=False)
    assert "&lt;b&gt;" in render_svg(state.land, title="<b>")


def decode_png(data: bytes) -> np.ndarray:
    assert data[:8] == PNG_SIGNATURE
    pos, idat, width, height = 8, b"", 0, 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length : pos + 12 + length])
        assert crc == zlib.crc32(kind + body) & 0xFFFFFFFF
        if kind == b"IHDR":
            width, height = struct.unpack(">II", body[:8])
            assert body[8:10] == bytes([8, 2])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = np.frombuffer(zlib.decompress(idat), dtype=np.uint8).reshape(height, width * 3 + 1)
    assert not raw[:, 0].any()  # filter type 0 on every row
    return raw[:, 1:].reshape(height, width, 3)


def test_png_decodes_to_the_land_colours() -> None:
    land = parse_land("rf\n#w\np.")
    image = decode_png(render_png(land, cell=3))
    assert image.shape == (SIDE * 3, SIDE * 3, 3)
    for (i, j), kind in {
        (0, 0): CellType.RESIDENCE,
        (0, 1): CellType.FACTORY,
        (1, 0): CellType.ROAD,
        (1, 1): CellType.WATER,
        (2, 0): CellType.PARK,
        (2, 1): CellType.EMPTY,
    }.items():
        expected = [int(COLOURS[kind][k : k + 2], 16) for k in (1, 3, 5)]
        assert image[i * 3 + 1, j * 3 + 2].tolist() == expected
    assert np.array_equal(
        decode_png(render_png(Pentocity().new_initial_state(seed=1), cell=1)),
        land_pixels(parse_land(""), cell=1),
    )
