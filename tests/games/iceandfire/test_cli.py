"""``gridarena iceandfire map|match|bot``: the seed's map, one match on the arena's loop with its replay
and --json object, a bot on stdin/stdout; bad input is one clear line."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from gridarena.arena.players import entrant_spec
from gridarena.arena.replay import read_replay
from gridarena.arena.store import Store
from gridarena.cli.iceandfire import main
from gridarena.cli.main import main as gridarena
from gridarena.core.registry import make
from gridarena.games.iceandfire.mapgen import format_map, generate

GAME = make("iceandfire")


def test_map_prints_the_generator_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert gridarena(["iceandfire", "map", "--seed", "-7095413993656790854"]) == 0
    out = capsys.readouterr().out
    assert out == format_map(generate(-7095413993656790854))
    assert " 0 ...#......##" in out  # the referee's own map for seed 1
    assert main(["map", "--seed", "1", "--rules", "multi"]) == 0
    assert capsys.readouterr().out == format_map(generate(1, "multi"))


@pytest.mark.timing
def test_match_json_and_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    replay = tmp_path / "m.jsonl"
    assert (
        main(["match", "--p1", "best", "--p2", "wood1", "--seed", "4", "--json", "--replay", str(replay)])
        == 0
    )
    result = json.loads(capsys.readouterr().out)
    assert result["game"] == "iceandfire" and result["players"] == ["best", "wood1"]
    assert result["seed"] == 4 and result["params"]["rules"] == "contest" and result["winner"] == 0
    assert result["termination"] == "normal" and result["forfeit_player"] is None
    assert result["time"] == "1/50ms" and result["info"]["turns"] > 0
    assert result["info"]["scores"][1] == -1  # the referee's score of an HQ-less loser
    saved = read_replay(replay)
    assert saved.header["game"] == "iceandfire" and saved.header["time_control"] == "1/50ms"
    assert saved.result is not None and saved.result["reason"] == result["reason"]
    assert saved.turns[0]["action"].startswith("TRAIN")


def test_match_prints_a_line_without_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["match", "--p1", "wood3", "--p2", "wood2", "--seed", "2", "--untimed", "--league", "wood2"])
        == 0
    )
    out = capsys.readouterr().out
    assert out.startswith("winner: wood") and "seed 2" in out


def test_a_player_with_a_space_or_a_path_is_a_command() -> None:
    assert entrant_spec(GAME, "best") == "best" and entrant_spec(GAME, "random(name=r)") == "random(name=r)"
    for command in ("python3 bot.py", "./bot", "/usr/bin/bot"):
        assert entrant_spec(GAME, command) == f"external(cmd='{command}',name='bot',protocol='codingame')"
    assert entrant_spec(make("isolation"), "./bot").endswith("protocol='jsonl')")


def test_match_is_play_under_another_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "--p1", "wood1", "--p2", "wood2", "--seed", "3", "--json"]) == 0
    match = json.loads(capsys.readouterr().out)
    argv = ["play", "iceandfire", "--players", "wood1,wood2", "--seed", "3", "--time", "1/0.05", "--json"]
    assert gridarena(argv) == 0
    play = json.loads(capsys.readouterr().out)
    assert {k: v for k, v in match.items() if k != "seconds"} == {
        k: v for k, v in play.items() if k != "seconds"
    }


def test_a_missing_program_loses_its_first_turn(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "--p1", "wood1", "--p2", "/nonexistent/bot", "--seed", "1", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["winner"], result["termination"], result["forfeit_player"]) == (0, "crash", 1)
    assert "cannot start /nonexistent/bot" in result["reason"]


def test_bad_limits_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert gridarena(["iceandfire", "match", "--p1", "best", "--p2", "best", "--turn-ms", "0"]) == 1
    err = capsys.readouterr().err
    assert err == (
        "gridarena iceandfire match: error: argument --turn-ms: "
        "must be a number of milliseconds above 0, at most 10^9, not '0'\n"
    )


def test_bot_reads_stdin_and_answers_one_line_a_turn(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    state = GAME.new_initial_state(1)
    text = state.codingame_init(0) + state.codingame_turn(0)
    state2 = state.apply_action(state.string_to_action("WAIT"))
    state3 = state2.apply_action(state2.string_to_action("WAIT"))
    text += state3.codingame_turn(0)
    lines = iter(text.splitlines(keepends=True))
    monkeypatch.setattr(sys, "stdin", type("In", (), {"readline": lambda self: next(lines, "")})())
    assert main(["bot", "wood3"]) == 0
    assert capsys.readouterr().out == "WAIT;TRAIN 1 1 0\nWAIT;TRAIN 1 1 0\n"


def test_bot_names_a_broken_input_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = iter(["2\n", "1 0\n", "oops\n"])
    monkeypatch.setattr(sys, "stdin", type("In", (), {"readline": lambda self: next(lines, "")})())
    assert main(["bot", "best"]) == 1
    assert capsys.readouterr().err == (
        "gridarena iceandfire: error: line 3: expected mine spot 2 as 'x y', got 'oops'\n"
    )
    lines = iter(["0\n", "21\n", "1\n", "20\n", "2\n", *["...\n"] * 12, "0\n", "0\n"])
    assert main(["bot", "best"]) == 1
    assert "turn 1: unreadable input" in capsys.readouterr().err


@pytest.fixture
def busy(monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine whose 1-minute load (9.0) is above its cores (2)."""
    monkeypatch.setattr("gridarena.arena.load.os.getloadavg", lambda: (9.0, 9.0, 9.0))
    monkeypatch.setattr("gridarena.arena.load.cores", lambda: 2)


def test_a_match_on_a_busy_machine_warns_of_the_load(busy: None, capsys: pytest.CaptureFixture[str]) -> None:
    # As a tournament does (issue 32): a timed result on an overloaded machine is not to be trusted.
    argv = ["match", "--p1", "wood3", "--p2", "wood2", "--seed", "2", "--league", "wood2"]
    assert main(argv) == 0
    assert "warning: 1-minute load 9.0 exceeds 2 cores; timed results may suffer" in capsys.readouterr().err
    assert main([*argv, "--untimed"]) == 0  # no clock, nothing to suffer
    assert "warning" not in capsys.readouterr().err


def test_a_loss_on_time_on_a_busy_machine_says_so(busy: None, capsys: pytest.CaptureFixture[str]) -> None:
    sleeper = f"{sys.executable} -c 'import time; time.sleep(5)'"
    argv = ["match", "--p1", "wood3", "--p2", sleeper, "--seed", "1", "--first-turn-ms", "300", "--json"]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["termination"] == "timeout"
    name = Path(sys.executable).name  # a program typed as a command is shown by its program's name
    assert f"warning: {name} lost on time while the 1-minute load 9.0 exceeds 2 cores" in err


def test_a_tournament_plays_the_codingame_seeds_asked_for(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # CodinGame's seeds 1 and 2, each played with the seats swapped (issue 32: --seeds reaches 2-player games).
    db = tmp_path / "t.sqlite"
    argv = ["tournament", "iceandfire(league=wood2)", "--players", "wood3,wood2", "--seeds", "1,2",
            "--db", str(db), "--backend", "inline", "--quiet", "--json"]  # fmt: skip
    assert gridarena(argv) == 0
    capsys.readouterr()
    with Store(db) as store:
        blocks, games = store.blocks(1), store.games(1)
        replays = [db.parent / g["replay"] for g in games]
    assert [b.seed for b in blocks] == [1, 2] and len(games) == 4
    for path, seed in zip(replays, [1, 1, 2, 2], strict=True):
        replay = read_replay(path)
        assert replay.header["seed"] == seed
        assert (
            replay.header["initial_state"]
            == make("iceandfire(league=wood2)").new_initial_state(seed).to_text()
        )
    assert gridarena([*argv[:6], "--games", "4", "--db", str(db)]) == 1
    assert "give --games or --seeds, not both" in capsys.readouterr().err
