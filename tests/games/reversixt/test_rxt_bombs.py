"""The 13 bomb vectors (data README section 5) and worked examples: blasts through transitions, around holes.

Each ``before`` file is a loadable map; player 1 throws one bomb at the README's target with the
``before`` header's radius; the board must become the ``after`` file's board. Quirks handled: the
``after`` files still list transitions whose ends are holes (read with ``strict=False``), test 8's
``after`` header says radius 2 (the ``before`` header, radius 1, counts), and the files end without
a newline. Tests 4, 5 and 10-12 have phase-1 moves on the reference server; the bomb is thrown from a
phase-2 state built on the same board.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rxt_data import folder

from gridarena.games.reversixt.capture import explosion
from gridarena.games.reversixt.formats import HOLE, SYMBOLS, Move, read_map
from gridarena.games.reversixt.geometry import step_table
from gridarena.games.reversixt.rules import PHASE_BOMBS, ReversiXT, settle

#: test number -> (target x, target y, radius) from the README's table
VECTORS = {
    0: (0, 0, 2),
    1: (5, 5, 2),
    2: (0, 0, 2),
    3: (5, 5, 3),
    4: (2, 0, 1),
    5: (2, 0, 2),
    6: (2, 2, 2),
    7: (0, 0, 2),
    8: (0, 1, 1),
    9: (0, 1, 2),
    10: (5, 5, 1),
    11: (5, 5, 2),
    12: (5, 5, 3),
}


def rows(cells: bytes, width: int) -> list[str]:
    return [" ".join(SYMBOLS[c] for c in cells[i : i + width]) for i in range(0, len(cells), width)]


@pytest.mark.parametrize("n", sorted(VECTORS))
def test_bomb_vector(shared_data: Path, n: int) -> None:
    base = folder(shared_data) / "marcluque-Reversi-AI" / "bombmoves"
    before = read_map(base / f"bombmove_test{n}_before.txt")
    after = read_map(base / f"bombmove_test{n}_after.txt", strict=False)
    x, y, radius = VECTORS[n]
    assert before.radius == radius, "the README's radius is the before header's"
    game = ReversiXT.from_map(before)
    p = before.players
    state = settle(game, before.cells, (0,) * p, (1,) + (0,) * (p - 1), (None,) * p, PHASE_BOMBS, p)
    assert state.mover == 1
    result = state.apply_action(Move(x, y))
    assert rows(result.cells, before.width) == rows(after.cells, before.width)
    assert result.bombs[0] == 0


def test_vector_8_after_header_is_the_quirk(shared_data: Path) -> None:
    base = folder(shared_data) / "marcluque-Reversi-AI" / "bombmoves"
    assert read_map(base / "bombmove_test8_after.txt", strict=False).radius == 2
    assert read_map(base / "bombmove_test8_before.txt").radius == 1


def test_spec_6_4_distances_through_transitions(shared_data: Path) -> None:
    before = read_map(folder(shared_data) / "marcluque-Reversi-AI/bombmoves/bombmove_test0_before.txt")
    hit = explosion(step_table(before), before.cells, before.index(0, 0), 2)
    assert {before.xy(i) for i in hit} == {
        (0, 0), (1, 0), (0, 1), (1, 1), (0, 5),
        (2, 0), (2, 1), (2, 2), (0, 2), (1, 2), (0, 4), (1, 4), (1, 5), (5, 5),
    }  # fmt: skip


def test_ring_survivor_is_three_steps_away(shared_data: Path) -> None:
    before = read_map(folder(shared_data) / "marcluque-Reversi-AI/bombmoves/bombmove_test6_before.txt")
    hit = {before.xy(i) for i in explosion(step_table(before), before.cells, before.index(2, 2), 2)}
    assert (0, 0) not in hit and len(hit) == 7
    assert before.cells[before.index(1, 1)] == HOLE


def test_radius_zero_destroys_only_the_target() -> None:
    game = ReversiXT("othello8")
    m = game.board
    assert explosion(game.steps, m.cells, m.index(3, 3), 0) == [m.index(3, 3)]
