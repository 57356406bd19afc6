"""Every probe of the data README (section 2): what the reference server did, our rules must do."""

from __future__ import annotations

from pathlib import Path

import pytest
from rxt_data import folder

from gridarena.games.reversixt.formats import BONUS_BOMB, HOLE, SYMBOLS, MapFormatError, Move, read_map
from gridarena.games.reversixt.rules import PHASE_BOMBS, PHASE_OVER, ReversiState, ReversiXT, settle


def probe(shared_data: Path, name: str) -> ReversiState:
    return ReversiXT.from_map(read_map(folder(shared_data) / "probes" / f"{name}.map")).new_initial_state()


def fields(state: ReversiState, k: int | None = None) -> set[tuple[int, int]]:
    m = state.game.board
    return {m.xy(i) for i in state.valid_cells(k)}


def symbol(state: ReversiState, x: int, y: int) -> str:
    return SYMBOLS[state.cells[state.game.board.index(x, y)]]


def test_a_expansion_stones_holes_and_overrides(shared_data: Path) -> None:
    s = probe(shared_data, "A")
    assert s.mover == 1 and s.overrides == (2, 2)
    valid = fields(s)
    assert valid == {(1, 0), (2, 2), (2, 0), (3, 2), (0, 6), (5, 6), (0, 8), (2, 8)}
    assert not {(3, 4), (1, 6), (6, 6), (1, 8)} & valid
    # (2,0): a normal move whose run passes over the x at (1,0), which is flipped; no override spent
    after = s.apply_action(Move(2, 0))
    assert symbol(after, 1, 0) == "1" and after.overrides[0] == 2
    # (1,0): an override onto an x without any capture costs one override stone
    after = s.apply_action(Move(1, 0))
    assert symbol(after, 1, 0) == "1" and after.overrides[0] == 1
    # (0,6): an override onto an opponent stone that captures (1,6)
    after = s.apply_action(Move(0, 6))
    assert symbol(after, 0, 6) == "1" and symbol(after, 1, 6) == "1" and after.overrides[0] == 1
    # without override stones the overrides are gone, the normal moves stay
    bare = settle(s.game, s.cells, (0, 0), s.bombs, s.disqualified, s.phase, s.last)
    assert fields(bare) == {(2, 0), (3, 2), (5, 6)}


def test_b_capture_through_a_transition(shared_data: Path) -> None:
    s = probe(shared_data, "B")
    assert fields(s) == {(1, 0), (1, 2)}
    after = s.apply_action(Move(1, 2))
    assert symbol(after, 0, 2) == "1"


def test_b2_neighbour_is_a_field(shared_data: Path) -> None:
    with pytest.raises(
        MapFormatError, match=r"transition 0 is invalid \(leading to/coming from invalid field\)"
    ):
        read_map(folder(shared_data) / "probes" / "B2.map")


def test_b3_wrong_direction_glues_nothing(shared_data: Path) -> None:
    assert fields(probe(shared_data, "B3")) == {(1, 0)}


def test_c_inversion_rotates_every_colour(shared_data: Path) -> None:
    s = probe(shared_data, "C")
    after = s.apply_action(Move(2, 0))
    # before: 1 2 i / - - - / 3 3 2; player 1 captures (1,0), then 1->2, 2->3, 3->1
    assert [symbol(after, x, 0) for x in range(3)] == ["2", "2", "2"]
    assert [symbol(after, x, 2) for x in range(3)] == ["1", "1", "3"]


def test_d_choice_field_and_its_byte(shared_data: Path) -> None:
    s = probe(shared_data, "D")
    after = s.apply_action(Move(2, 0, 3))
    # player 1 takes (1,0) and (2,0), then swaps with player 3
    assert [symbol(after, x, 0) for x in range(3)] == ["3", "3", "3"]
    assert [symbol(after, x, 2) for x in range(3)] == ["1", "1", "2"]
    same = s.apply_action(Move(2, 0, 1))
    assert [symbol(same, x, 0) for x in range(3)] == ["1", "1", "1"]
    assert s.illegal_reason(Move(2, 0, 0)) == "invalid choice for choice-move: 0"
    assert s.illegal_reason(Move(2, 0, 4)) == "invalid choice for choice-move: 4"  # above p (ours)


def test_e_bonus_field_and_its_byte(shared_data: Path) -> None:
    s = probe(shared_data, "E")
    after = s.apply_action(Move(2, 0, BONUS_BOMB))
    assert after.bombs == (1, 0)
    assert s.illegal_reason(Move(2, 0, 0)) == "invalid choice for bonus-move"
    out = s.forfeit(0, "illegal", "invalid choice for bonus-move")
    assert out.disqualified == ("invalid choice for bonus-move", None) and out.is_terminal()


def test_f_no_phase1_move_and_a_bomb_through_a_transition(shared_data: Path) -> None:
    s = probe(shared_data, "F")
    assert s.phase == PHASE_BOMBS and s.mover == 1  # straight to END1, player 1 bombs first (L = p)
    after = s.apply_action(Move(4, 0))
    m = s.game.board
    holes = {m.xy(i) for i, c in enumerate(after.cells) if c == HOLE} - {
        m.xy(i) for i, c in enumerate(s.cells) if c == HOLE
    }
    assert (0, 3) in holes
    assert holes == {(4, 0), (3, 0), (3, 1), (4, 1), (0, 3)}


def test_g_blasts_stop_at_holes_and_a_bomb_on_a_hole_is_invalid(shared_data: Path) -> None:
    s = probe(shared_data, "G")
    assert s.phase == PHASE_BOMBS and s.mover == 1
    after = s.apply_action(Move(0, 0))
    assert after.cells.count(HOLE) == s.cells.count(HOLE) + 1
    assert symbol(after, 0, 0) == "-"
    reason = s.illegal_reason(Move(1, 0))
    assert reason is not None and reason.startswith("Sorry, this move was invalid")
    out = s.forfeit(0, "illegal", reason)
    assert out.is_terminal() and out.outcome() is not None


def test_h_a_player_without_a_move_is_skipped(shared_data: Path) -> None:
    s = probe(shared_data, "H")
    assert s.mover == 1 and not fields(s, 2)
    after = s.apply_action(s.legal_actions()[0])
    assert after.mover == 3


def test_p_who_starts_phase_2_and_bombing_ones_own_stone(shared_data: Path) -> None:
    s = probe(shared_data, "P")
    assert s.legal_actions() == [Move(2, 0)]
    after = s.apply_action(Move(2, 0))
    assert after.phase == PHASE_BOMBS and after.mover == 2
    own = next(Move(*after.game.board.xy(i)) for i, c in enumerate(after.cells) if c == 2)
    assert after.illegal_reason(own) is None
    assert after.apply_action(own).mover == 1


def test_whitespace_probes_play_like_the_clean_map(shared_data: Path) -> None:
    assert probe(shared_data, "crlf") == probe(shared_data, "ws")


@pytest.mark.parametrize("name", ["p1", "p9", "delim", "dup"])
def test_rejected_probes(shared_data: Path, name: str) -> None:
    with pytest.raises(MapFormatError):
        read_map(folder(shared_data) / "probes" / f"{name}.map")


def test_a_probe_game_reaches_its_end(shared_data: Path) -> None:
    s = probe(shared_data, "A")
    while not s.is_terminal():
        s = s.apply_action(s.legal_actions()[-1])
    assert s.phase == PHASE_OVER and s.outcome() is not None
