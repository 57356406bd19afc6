"""The CodinGame input text (the statement's "Game Input", the referee's for seed 1 verbatim), ``to_text`` and the SVG."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from gridarena.cli.main import main
from gridarena.games.iceandfire.geometry import BLUE, MINE, RED, TOWER
from gridarena.games.iceandfire.positions import state_from_rows
from gridarena.games.iceandfire.render import state_to_svg
from gridarena.games.iceandfire.rules import IceAndFire

INITIAL = """12
1 0
9 1
9 3
10 3
4 4
7 4
4 7
7 7
1 8
2 8
2 10
10 11
"""

RED_FIRST = """21
1
20
2
O..#########
...........#
...........#
...........#
#..........#
#.........##
##.........#
#..........#
#...........
#...........
#..........X
#########..X
2
0 0 0 0
1 0 11 11
0
"""

BLUE_FIRST = """22
2
21
1
X..#########
...........#
...........#
...........#
#..........#
#.........##
##.........#
#..........#
#...........
#...........
#..........O
#########..O
2
0 0 11 11
1 0 0 0
0
"""


def test_section_13_example_seed_1() -> None:
    state = IceAndFire().new_initial_state(seed=1)
    assert state.codingame_init(0) == INITIAL
    assert state.codingame_turn(0) == RED_FIRST
    state = state.apply_action(state.string_to_action("WAIT"))
    assert state.codingame_init(1) == INITIAL
    assert state.codingame_turn(1) == BLUE_FIRST


def test_turn_input_sorts_and_marks_activity() -> None:
    cells = ["RRR" + "." * 9, "RR" + "." * 10, *["." * 12] * 5, "....BBB.....", *["." * 11 + "B"] * 4]
    units = [(3, RED, 1, 1, 1), (1, RED, 2, 1, 0), (2, BLUE, 3, 11, 10), (4, BLUE, 1, 5, 7)]
    buildings = [(BLUE, MINE, 6, 7), (RED, TOWER, 2, 0), (RED, MINE, 0, 1)]
    spots = [(0, 1), (6, 7), (11, 4), (5, 10)]
    state = state_from_rows(cells, units=units, buildings=buildings, spots=spots)
    lines = state.codingame_turn(0).splitlines()
    assert lines[4:6] == ["OOO.........", "OO.........."]
    assert lines[11] == "....xxx....." and lines[12] == "...........X"
    assert lines[16:21] == ["5", "0 0 0 0", "0 1 0 1", "0 2 2 0", "1 0 11 11"]
    assert lines[21:] == ["1 1 6 7", "4", "0 1 2 1 0", "0 3 1 1 1", "1 2 3 11 10", "1 4 1 5 7"]
    blue = state.codingame_turn(1).splitlines()
    assert blue[11] == "....ooo....." and blue[17:19] == ["0 0 11 11", "0 1 6 7"]


def test_wood_leagues_send_no_spots() -> None:
    assert IceAndFire(league="wood2").new_initial_state(seed=1).codingame_init(0) == "0\n"


def test_to_text_shows_cells_units_buildings_spots_commands_and_messages() -> None:
    state = IceAndFire().new_initial_state(seed=1)
    state = state.apply_action(state.string_to_action("TRAIN 1 1 0;TRAIN 2 5 5;MSG hello there"))
    text = state.to_text()
    assert text.splitlines()[0] == "turn 1, blue to move"
    assert text.splitlines()[4] == " 0  RH R1 .  #  #  #  #  #  #  #  #  #"
    assert " 1  .  .  .  .  .  .  .  .  .  .* .  #" in text.splitlines()
    assert "red: gold 11, income 1, message 'hello there'" in text
    assert "units r1:L1(1,0)" in text
    assert "red played TRAIN 1 1 0;TRAIN 2 5 5;MSG hello there" in text
    assert "referee: TRAIN 2 5 5: ignored, (5,5) is not playable" in text


def test_svg_is_well_formed_and_draws_the_position() -> None:
    cells = ["RRR" + "." * 9, "RR" + "." * 10, *["." * 12] * 8, "." * 11 + "B", "." * 11 + "B"]
    state = state_from_rows(cells, units=[(1, RED, 2, 1, 1)], spots=[(2, 0), (9, 11)])
    state = state.apply_action(state.string_to_action("MOVE 1 5 5;BUILD TOWER 1 0;TRAIN 1 3 0"))
    svg = state_to_svg(state, title="seed 1")
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    assert svg.count('<circle class="unit"') == 2 and ">T</text>" in svg and ">H</text>" in svg
    assert svg.count('<polygon class="spot"') == 2  # the mine spots (the legend draws one more)
    assert "<title>MOVE 1 5 5</title>" in svg and "<title>TRAIN 1 3 0</title>" in svg and "seed 1" in svg


def test_replay_svg_draws_a_ply(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    replay = tmp_path / "game.jsonl"
    assert (
        main(["play", "iceandfire", "--players", "random,random", "--seed", "7", "--replay", str(replay)])
        == 0
    )
    out = tmp_path / "ply10.svg"
    assert main(["replay", str(replay), "--svg", str(out), "--ply", "10"]) == 0
    root = ET.fromstring(out.read_text())
    assert root.tag.endswith("svg") and root.get("data-game") == "iceandfire" and root.get("data-ply") == "10"
    assert main(["replay", str(replay), "--svg", str(out), "--ply", "100000"]) == 1
    assert "--ply 100000: the replay has plies 0 to" in capsys.readouterr().err
