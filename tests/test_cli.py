"""The command line: every command runs, prints JSON with --json, and fails with one clear line."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gridarena.cli.main import main


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_games_lists_isolation(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "games")
    assert code == 0 and any(line.startswith("isolation") for line in out.splitlines())
    code, out, _ = run_cli(capsys, "games", "--json")
    assert "isolation" in [entry["game"] for entry in json.loads(out)]


def test_play_writes_a_replay_and_reports_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    replay = tmp_path / "r.jsonl"
    code, out, _ = run_cli(
        capsys,
        "play",
        "isolation",
        "--players",
        "greedy,random",
        "--seed",
        "7",
        "--replay",
        str(replay),
        "--json",
    )
    result = json.loads(out)
    assert code == 0 and result["seed"] == 7 and result["replay"] == str(replay)
    assert sorted(result["returns"]) == [-1.0, 1.0] and len(result["moves"]) == result["plies"]
    code, out, err = run_cli(capsys, "replay", str(replay), "--check")
    assert code == 0 and f"{result['plies']} plies match" in err
    code, out, _ = run_cli(capsys, "replay", str(replay))
    assert code == 0 and "ply 0: player 0 plays" in out


def test_play_text_output_names_the_winner(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(
        capsys, "play", "isolation(width=5,height=5)", "--players", "greedy,random", "--seed", "1", "--quiet"
    )
    assert code == 0 and "winner:" in out and "seed 1" in out
    # how it ended, in the viewer's words: the players by name and colour, never "player 2"
    assert re.search(r"(greedy|random) \((orange|blue)\) has no legal move left: \w+ \(\w+\) wins", out), out
    assert "player " not in out, out


EXAMPLE_BOT = Path(__file__).resolve().parents[1] / "examples" / "random_bot.py"


def test_play_takes_the_tournaments_time_controls(capsys: pytest.CaptureFixture[str]) -> None:
    for control, text in (("1/0.05", "1/50ms"), ("account:2", "account:2"), ("0.15", "150ms")):
        code, out, _ = run_cli(
            capsys, "play", "isolation(width=5,height=5)", "--players", "greedy,random", "--seed", "3",
            "--time", control, "--clock", "cpu", "--json",
        )  # fmt: skip
        result = json.loads(out)
        assert code == 0 and result["time"] == text and result["termination"] == "normal"
    code, _, err = run_cli(capsys, "play", "isolation", "--players", "greedy,random", "--time", "fast")
    assert code == 1 and err.count("\n") == 1 and "fast" in err


def test_play_takes_a_program_typed_as_a_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    command = f"{sys.executable} {EXAMPLE_BOT}"
    code, out, _ = run_cli(
        capsys, "play", "isolation(width=5,height=5)", "--players", f"{command},greedy", "--seed", "2",
        "--time", "2", "--json",
    )  # fmt: skip
    result = json.loads(out)
    assert code == 0 and result["termination"] == "normal" and result["specs"][0].startswith("external(")
    assert result["players"][0] == "random_bot"  # shown by the program's name, not its command
    players = tmp_path / "bots.toml"
    players.write_text(f'[[player]]\ncmd = ["{sys.executable}", "{EXAMPLE_BOT}"]\nname = "rnd"\n'
                       '[[player]]\nspec = "greedy"\n')  # fmt: skip
    code, out, _ = run_cli(
        capsys, "play", "isolation(width=5,height=5)", "--players-file", str(players), "--json"
    )
    assert code == 0 and json.loads(out)["termination"] == "normal"


def test_check_passes_and_reports(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "check", "isolation", "--games", "5", "--json")
    assert code == 0 and json.loads(out)[0]["ok"] is True
    code, _, _ = run_cli(capsys, "check", "--all", "--games", "2")
    assert code == 0


@pytest.mark.parametrize(
    "argv,message",
    [
        (
            ["play", "isolaton", "--players", "random,random"],
            "unknown game 'isolaton' (did you mean 'isolation'?)",
        ),
        (["play", "isolation", "--players", "random"], "needs 2 players"),
        (["play", "isolation", "--players", "random,alphabeta(3)"], "parameters must be named"),
        (["check"], "name one game or give --all"),
        (["replay", "/nonexistent.jsonl"], "no such file"),
    ],
)
def test_bad_input_is_one_line_and_exit_1(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, _, err = run_cli(capsys, *argv)
    assert code == 1 and message in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["play"])
    assert exit_info.value.code == 2


def test_python_dash_m_runs() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "gridarena", "--help"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0 and "play" in done.stdout


def test_long_commands_show_progress_without_a_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 32: a line every few seconds when stderr is a file (here: at every step), none with --quiet.
    monkeypatch.setattr("gridarena.cli.progress.LINE_SECONDS", 0.0)
    play = ["play", "isolation(width=5,height=5)", "--players", "greedy,random", "--seed", "7"]
    code, _, err = run_cli(capsys, *play)
    assert code == 0 and "plies: 1, 0:00 elapsed" in err and "plies: 3, " in err
    code, _, err = run_cli(capsys, *play, "--quiet")
    assert code == 0 and "plies:" not in err
    code, _, err = run_cli(capsys, "check", "isolation", "--games", "3")
    assert (
        code == 0 and "checking isolation: 1 of 3 (33%)" in err and "checking isolation: 3 of 3 (100%)" in err
    )
    tournament = ["tournament", "isolation(width=4,height=4)", "--players", "greedy,random", "--games", "4",
                  "--seed", "1", "--backend", "inline", "--db", str(tmp_path / "t.sqlite")]  # fmt: skip
    code, _, err = run_cli(capsys, *tournament)
    assert code == 0 and "games: 1 of 4 (25%)" in err and "games: 4 of 4 (100%)" in err
    replay = tmp_path / "g.jsonl"
    code, _, _ = run_cli(capsys, *play, "--quiet", "--replay", str(replay))
    code, _, err = run_cli(capsys, "analyze", str(replay), "--time", "0.2")
    assert code == 0 and "plies analysed: 1 of " in err


def test_a_refused_player_leaves_no_results_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    code, _, err = run_cli(
        capsys, "tournament", "isolation", "--players", "greedy(depth=x),random", "--db", str(db)
    )
    assert code == 1 and "greedy" in err and "Traceback" not in err
    assert not db.exists()


def test_a_long_step_still_gets_a_line(monkeypatch: pytest.MonkeyPatch) -> None:
    # One game of minutes in a log: the heartbeat says where the work is while nothing completes.
    import io
    import time

    from gridarena.cli.progress import ticker

    monkeypatch.setattr("gridarena.cli.progress.SILENT_SECONDS", 0.5)
    lines = io.StringIO()
    with ticker(False, "games", 3, stream=lines) as tick:
        tick.update(1)
        time.sleep(2.5)
    assert lines.getvalue().startswith("games: 1 of 3 (33%), 0:0")
    assert len(lines.getvalue().splitlines()) >= 2
