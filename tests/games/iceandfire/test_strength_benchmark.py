"""``benchmarks/iceandfire_strength.py``: the economy it records and the table ``--economy`` prints."""

from __future__ import annotations

import argparse
import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[3] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import iceandfire_strength as strength  # noqa: E402


def test_economy_rows_average_each_turn_over_the_games_still_going() -> None:
    games = [
        {"result": "win", "economy": [[8, 10, 20, 30, 0, 4, 6], [10, 12, 20, 0, 0, 6, 6]]},
        {"result": "win", "economy": [[8, 20, 10, 10, 2, 2, 4]]},  # over before turn 10
        {"result": "loss", "economy": [[8, 1, 2, 3, 4, 5, 6]]},
    ]
    rows = strength.economy_rows(games)
    assert rows[0] == ("won", "8", "2 of 2", "15.0 v 15.0", "20.0 v 1.0", "3.0 v 5.0")
    assert rows[1] == ("won", "10", "1 of 2", "12.0 v 20.0", "0.0 v 0.0", "6.0 v 6.0")
    assert rows[2] == ("lost", "8", "1 of 1", "1.0 v 2.0", "3.0 v 4.0", "5.0 v 6.0")
    assert len(rows) == 3  # no row for a turn no game reached


def test_a_run_records_both_sides_at_the_start_of_each_turn_and_prints_the_table(tmp_path: Path) -> None:
    out = tmp_path / "games.json"
    command = [sys.executable, str(BENCHMARKS / "iceandfire_strength.py"), "--bot", "postmortem"]
    command += ["--pool", "wood1", "--seeds", "1", "--quiet", "--economy", "--json", str(out)]
    run = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "| result | turn | games going on | income | gold | units' levels |" in run.stdout
    games = json.loads(out.read_text())
    assert [g["seat"] for g in games] == [0, 1]
    for game in games:
        turns = [row[0] for row in game["economy"]]
        assert turns == sorted(set(turns)) and turns[0] == 1, turns  # one row per turn of the bot
        assert all(len(row) == 7 for row in game["economy"])
    red, blue = (game["economy"] for game in games)
    assert red[0] == [1, 1, 2, 21, 20, 0, 0]  # turn 1: red's HQ, blue's HQ and (11,10); 20 gold and income
    assert blue[0][0] == 1 and blue[0][5] == 0 and blue[0][6] > 0  # blue's first turn: after red's trains


def test_the_summary_counts_the_games_won_in_each_seat() -> None:
    def game(seat: int, result: str) -> dict[str, object]:
        return {
            "opponent": "x",
            "seed": 1,
            "seat": seat,
            "result": result,
            "turns": 12,
            "reason": "blue captured red's HQ",
            "termination": "normal",
            "cpu_ms": [1.0],
            "wall_ms": [1.0],
        }

    games = [game(0, "win"), game(1, "loss"), game(0, "win"), game(1, "win"), game(0, "loss")]
    row, total = strength.summary_rows(games)
    assert row[:5] == ("x", "5", "3", "2 of 3 / 1 of 2", "2")
    assert total[0] == "all" and total[3] == row[3]


def test_ctrl_c_stops_the_run_and_prints_the_table_of_the_games_played(tmp_path: Path) -> None:
    out = tmp_path / "games.json"
    command = [sys.executable, str(BENCHMARKS / "iceandfire_strength.py"), "--bot", "postmortem"]
    command += ["--pool", "wood1", "--seeds", "50", "--json", str(out)]
    # A background job of a shell without job control starts with Ctrl-C ignored, and Python then
    # never raises KeyboardInterrupt: the run gets Ctrl-C's default back, as at a terminal.
    run = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert run.stderr is not None
    first = run.stderr.readline()  # one line per game: the first game has ended
    assert "postmortem v wood1 seed 1 seat 0" in first, first
    run.send_signal(signal.SIGINT)
    stdout, stderr = run.communicate(timeout=120)
    assert run.returncode == 130, stderr
    games = json.loads(out.read_text())  # nothing of what was played is lost
    assert 1 <= len(games) < 100
    played = f"{len(games)} game{'s' * (len(games) != 1)} played"
    assert f"interrupted: the tables below are of the {played}" in stderr
    assert f"| wood1 | {len(games)} |" in stdout


def test_ctrl_c_before_any_game_ended_says_that_nothing_is_shown(capsys: pytest.CaptureFixture[str]) -> None:
    args = argparse.Namespace(interrupted=False)
    strength.interrupted(args, 0, "0 games played", "game ended")
    assert args.interrupted
    assert capsys.readouterr().err == "interrupted before the first game ended: no table, no --json file\n"
    strength.interrupted(args, 2, "2 games played", "game ended")
    assert capsys.readouterr().err == "interrupted: the tables below are of the 2 games played\n"


@pytest.mark.parametrize("baseline", [[], ["--baseline", "wood1"]], ids=["pool", "sprt"])
def test_ctrl_c_in_the_first_game_ends_the_run_with_one_line(
    baseline: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def stopped(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(strength, "play_one", stopped)
    monkeypatch.setattr(
        sys, "argv", ["iceandfire_strength.py", "--bot", "postmortem", "--pool", "wood1", *baseline]
    )
    with pytest.raises(SystemExit) as stop:
        strength.main()
    assert stop.value.code == 130
    first = "seed was played whole" if baseline else "game ended"
    assert capsys.readouterr().err == f"interrupted before the first {first}: no table, no --json file\n"


def test_the_turns_of_hq_losses_are_listed_up_to_seven_then_summed_up() -> None:
    assert strength.hq_text([]) == "0"
    assert strength.hq_text([11, 12, 30]) == "3 (turns 11, 12, 30)"
    assert strength.hq_text([10, 11, 11, 12, 13, 40, 52, 87]) == "8 (turns 10-87, median 12.5)"
