"""ReversiXT pictures: the text board (the reference log's layout, so our own trace reader reads it) and the SVG."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

from gridarena.games.reversixt.formats import HOLE, LEGEND, SYMBOLS, Move, parse_map
from gridarena.games.reversixt.net.trace import parse_trace
from gridarena.games.reversixt.render import render_svg
from gridarena.games.reversixt.rules import ReversiState, ReversiXT, state_text

SVG = "{http://www.w3.org/2000/svg}"


def played(plies: int, seed: int = 4) -> ReversiState:
    rng = random.Random(seed)
    s = ReversiXT("sampler").new_initial_state()
    for _ in range(plies):
        if s.is_terminal():
            break
        s = s.apply_action(rng.choice(s.legal_actions()))
    return s


def classes(svg: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for element in ET.fromstring(svg).iter():
        name = element.get("class")
        if name:
            counts[name] = counts.get(name, 0) + 1
    return counts


def test_text_board_reads_back_with_the_trace_reader() -> None:
    for plies in (0, 5, 40):
        s = played(plies)
        text = state_text(s)
        _, events = parse_trace(text)
        board = events[0].board
        assert board is not None
        m = s.game.board
        assert "".join(board.rows) == "".join(SYMBOLS[c] for c in s.cells)
        expected = {m.xy(i) for i in s.valid_cells()} if s.phase == 1 else set()
        assert board.marks == expected
        assert text == s.to_text() and LEGEND in text


def test_text_status_lines() -> None:
    s = ReversiXT("sampler").new_initial_state()
    lines = s.to_text().splitlines()
    assert "phase 1 (stones): player 1 to move on one of 20 fields" in lines
    assert "player 3: stones 4, overrides 1, bombs 1" in lines
    after = s.apply_action(Move(3, 1, 2)).forfeit(2, "illegal", "invalid choice for bonus-move")
    text = after.to_text()
    assert "last move: player 1 played 3,1,2" in text
    assert "player 3: stones" in text and "disqualified: invalid choice for bonus-move" in text
    end = played(200)
    assert end.is_terminal() and end.to_text().splitlines()[8].startswith("game over: scores ")


def test_svg_draws_every_element() -> None:
    s = ReversiXT("sampler").new_initial_state().apply_action(Move(3, 1, 1))
    counts = classes(render_svg(s))
    m = s.game.board
    assert counts["hole"] == s.cells.count(HOLE)
    assert counts["field"] == len(s.cells) - s.cells.count(HOLE)
    assert counts["stone"] == sum(1 <= c <= 8 for c in s.cells)
    assert counts["expansion"] == 1 and counts["special"] == 3  # the choice field is used up
    assert counts["transition"] == len(m.transitions)
    assert counts["valid"] == len(s.valid_cells()) and counts["last"] == 1


def test_svg_greys_dead_transitions_and_shows_no_moves_in_phase_two() -> None:
    s = played(60, seed=1)
    g = ReversiXT.from_map(parse_map("2 0 1 0 1 2  1 2\n0 0 6 <-> 1 0 2\n"))
    bombed = g.new_initial_state()
    assert bombed.phase == 2
    after = bombed.apply_action(Move(0, 0))
    svg = render_svg(after)
    assert 'stroke="#bbbbbb"' in svg and "valid" not in classes(svg)
    assert ET.fromstring(render_svg(s)).tag == f"{SVG}svg"
