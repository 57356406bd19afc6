"""Replaying reference-server logs: every golden trace, the RWTH tournament log, tampered and mismatched logs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rxt_data import folder, golden_traces, map_for_trace

from gridarena.core.files import FileReadError
from gridarena.games.reversixt.formats import read_map
from gridarena.games.reversixt.net.trace import TraceFormatError, parse_trace, read_trace_text, verify

#: (phase-1 moves, bombs) of each golden trace, from the data README's table (section 3)
README_COUNTS = {
    "2012_Map_fuenf": (159, 2), "boeseMap01": (1, 0), "boeseMap03": (1, 0), "boeseMap04": (1, 0),
    "boeseMap06": (1, 0), "boeseMap07": (1, 0), "boeseMap09": (1, 0), "boeseMap11": (1, 0),
    "bomben01": (0, 2), "comp2020_02_2p": (60, 4), "crown": (84, 10), "diamond": (44, 0),
    "example": (129, 14), "infinity": (66, 4), "map": (51, 40), "map1": (11, 0), "map5": (39, 0),
    "norm12x12": (140, 0), "original": (60, 0), "window": (197, 13),
}  # fmt: skip


def example(shared_data: Path) -> tuple[Path, str]:
    trace = folder(shared_data) / "golden" / "example.server.log.gz"
    return map_for_trace(shared_data, trace), read_trace_text(trace)


def test_there_are_twenty_golden_traces(shared_data: Path) -> None:
    assert {t.name.split(".")[0] for t in golden_traces(shared_data)} == set(README_COUNTS)


@pytest.mark.parametrize("name", sorted(README_COUNTS))
def test_golden_trace_replays_exactly(shared_data: Path, name: str) -> None:
    trace = folder(shared_data) / "golden" / f"{name}.server.log.gz"
    report = verify(read_map(map_for_trace(shared_data, trace)), read_trace_text(trace), str(trace))
    assert report.divergence is None, report.divergence.to_text(str(trace))
    assert report.ok
    assert (report.moves, report.bombs) == README_COUNTS[name]
    assert report.boards == report.moves + report.bombs + 1  # every board was compared


def test_tournament_log_in_its_other_format_replays(shared_data: Path) -> None:
    base = folder(shared_data) / "marcluque-Reversi-AI" / "replay-example"
    text = read_trace_text(base / "matchpoint-1597941208976-0-server-out.txt")
    report = verify(read_map(base / "map0.map"), text)
    assert report.ok, report.divergence and report.divergence.to_text()
    assert report.moves + report.bombs == 47  # the README's 47 requests
    assert report.bombs == 6
    assert report.scores == (37, 0)  # player 2 ends phase 1 with 0 stones and still bombs


def test_a_tampered_board_fails_after_the_right_move(shared_data: Path) -> None:
    map_path, text = example(shared_data)
    lines = text.split("\n")
    answer = next(i for i, line in enumerate(lines) if "for move 17 was" in line)
    row = next(i for i in range(answer, answer + 20) if re.match(r"^\s+7 \| ", lines[i]))
    cells = list(lines[row])
    at = lines[row].index("|") + 2 + 2 * 5  # cell (5,7)
    cells[at] = "c" if cells[at] != "c" else "0"
    lines[row] = "".join(cells)
    report = verify(read_map(map_path), "\n".join(lines), "t.log")
    assert report.divergence is not None
    text_out = report.divergence.to_text("t.log")
    assert text_out.startswith(f"after move 17 (t.log:{row + 1}): cell (5,7)"), text_out
    assert "ours" in text_out and "reference" in text_out


def test_a_tampered_answer_fails_at_that_move(shared_data: Path) -> None:
    map_path, text = example(shared_data)
    text = re.sub(
        r"for move 40 was \(x,y,c\) = \((\d+),(\d+),(\d+)\)", "for move 40 was (x,y,c) = (0,0,0)", text
    )
    report = verify(read_map(map_path), text, "t.log")
    assert report.divergence is not None
    assert report.divergence.move == 40 and not report.divergence.after
    assert "our rules refuse it: reversixt: Sorry, this move was invalid" in report.divergence.what


def test_a_tampered_count_and_next_player_are_caught(shared_data: Path) -> None:
    map_path, text = example(shared_data)
    bad = text.replace("Player 2 has 6 overrides and 4 bombs.", "Player 2 has 5 overrides and 4 bombs.", 1)
    report = verify(read_map(map_path), bad)
    assert report.divergence is not None and report.divergence.move == 1
    assert "5 overrides" in report.divergence.what
    swapped = text.replace("Sending move request to player 2 ", "Sending move request to player 3 ", 1)
    report = verify(read_map(map_path), swapped)
    assert report.divergence is not None and "the next player is 3 in the reference, 2 in our rules" in (
        report.divergence.what
    )


def test_a_tampered_score_is_caught(shared_data: Path) -> None:
    map_path, text = example(shared_data)
    head, tail = text.rsplit("Player 1: ", 1)
    report = verify(read_map(map_path), head + "Player 1: 99" + tail[tail.index(" points") :])
    assert report.divergence is not None and "final scores" in report.divergence.what


def test_a_truncated_trace_is_not_ok(shared_data: Path) -> None:
    map_path, text = example(shared_data)
    cut = text.index("\n", text.index("for move 70 was"))
    report = verify(read_map(map_path), text[:cut])
    assert not report.ok
    assert report.divergence is not None and "ends before the game does" in report.divergence.what


def test_a_trace_of_another_map_is_one_clear_line(shared_data: Path) -> None:
    _, text = example(shared_data)
    crown = folder(shared_data) / "semmelsamu-reversixt-bot/maps/initialMaps/crown.map"
    with pytest.raises(TraceFormatError, match=r"3-player game but the map crown has 4 players") as info:
        verify(read_map(crown), text, "example.log")
    assert "\n" not in str(info.value)
    heart = folder(shared_data) / "semmelsamu-reversixt-bot/maps/initialMaps/heart.map"
    with pytest.raises(TraceFormatError, match=r"board is 15x15 .* map heart is 14x15"):
        verify(read_map(heart), text, "example.log")


def test_text_that_is_no_trace_is_refused(shared_data: Path) -> None:
    map_path, _ = example(shared_data)
    with pytest.raises(TraceFormatError, match="no board found"):
        verify(read_map(map_path), "hello\nworld\n", "x.txt")


def test_missing_trace_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(FileReadError, match=r"none\.log\.gz: cannot read the trace: no such file"):
        read_trace_text(tmp_path / "none.log.gz")


def test_parser_reads_the_readme_excerpt() -> None:
    excerpt = """This is a 2-player map.
[22:26:50] Game started.
      0 1 2 3 4 5 6 7 8 9
    /--------------------
  0 | 2 2 2 0 2 2 2 2 2 2 
  1 | - - - - - 1 2 0'- - 
valid positions: 1
[22:26:50] Player 1 has 0 overrides and 0 bombs.
[22:26:50] Answer from player 1 for move 0 was (x,y,c) = (7,1,0); time left: 0 msecs.
"""  # noqa: W291
    players, events = parse_trace(excerpt)
    assert players == 2
    board = events[0].board
    assert board is not None and board.rows == ("2220222222", "-----120--") and board.marks == {(7, 1)}
    assert [e.kind for e in events] == ["board", "counts", "answer"]
    assert events[2].values == (0, 7, 1, 0)


@pytest.mark.parametrize("name", ["mini", "sampler", "othello8"])
@pytest.mark.parametrize("seed", [1, 2])
def test_our_own_games_written_as_reference_logs_verify(name: str, seed: int) -> None:
    import random

    from gridarena.games.reversixt.net.trace import reference_log
    from gridarena.games.reversixt.rules import ReversiXT

    game, rng, moves = ReversiXT(name), random.Random(seed), []
    state = game.new_initial_state()
    while not state.is_terminal():
        moves.append(rng.choice(state.legal_actions()))
        state = state.apply_action(moves[-1])
    report = verify(game.board, reference_log(game, moves))
    assert report.ok and report.moves + report.bombs == len(moves)
    assert report.scores == state.scores()
    if len(moves) > 3:  # the same log with one move fewer is cut short, never accepted
        assert not verify(game.board, reference_log(game, moves[:-1])).ok


def _mutate(text: str, data: object) -> str:
    from hypothesis import strategies as st

    draw = data.draw  # type: ignore[attr-defined]
    for _ in range(draw(st.integers(1, 6))):
        pos = draw(st.integers(0, len(text)))
        piece = draw(
            st.sampled_from(["", "0", "1", "'", "-", " ", "\n", "x", "9", "(", ",", "Board:\n", "Scores:\n"])
        )
        cut = draw(st.integers(0, 3))
        text = text[:pos] + piece + text[pos + cut :]
    return text


@pytest.mark.parametrize("name", ["boeseMap11", "bomben01", "map1"])
def test_fuzzed_logs_give_a_report_or_one_error_line(shared_data: Path, name: str) -> None:
    """Mutated logs (cells, marks, numbers, lines) never crash the reader: a report or a TraceFormatError."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    trace = folder(shared_data) / "golden" / f"{name}.server.log.gz"
    board = read_map(map_for_trace(shared_data, trace))
    text = read_trace_text(trace)

    @settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.data())
    def check(data: st.DataObject) -> None:
        mutated = _mutate(text, data)
        try:
            report = verify(board, mutated, "f.log")
        except TraceFormatError as error:
            assert "\n" not in str(error)
            return
        if report.divergence is not None:
            assert report.divergence.to_text("f.log")

    check()
