"""`gridarena analyze`: one replay as text, JSON and the one-file viewer; a tournament's games as stored jobs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gridarena.arena.analysis import analysis_batch
from gridarena.arena.store import Store
from gridarena.cli.main import main


@pytest.fixture
def replay(tmp_path: Path) -> Path:
    path = tmp_path / "game.jsonl"
    assert (
        main(
            [
                "play",
                "isolation(width=5,height=5)",
                "--players",
                "greedy,random",
                "--seed",
                "7",
                "--replay",
                str(path),
            ]
        )
        == 0
    )
    return path


def test_a_replay_as_text_json_and_html(
    replay: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["analyze", str(replay), "--time", "0.3"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("isolation: values are for the player to move")
    assert "a3??" in text and "greedy: 5 moves" in text  # random throws its won position away
    assert main(["analyze", str(replay), "--time", "0.3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["kind"] == "result" and len(data["plies"]) == 9
    assert {"ply", "player", "action", "before", "after", "exact", "mark"} <= set(data["plies"][1])
    assert data["plies"][1]["mark"] == "blunder" and data["players"]["random"]["blunders"] == 1
    out = tmp_path / "game.html"
    assert main(["analyze", str(replay), "--time", "0.3", "--html", str(out)]) == 0
    html = out.read_text()
    assert '"analysis":{"game":"isolation"' in html and "eval-graph" in html


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "give a REPLAY file"),
        (["--db", "x.sqlite"], "--db needs --tournament"),
        (["x.jsonl", "--time", "0"], "argument --time: must be a number of seconds above 0"),
        (["x.jsonl", "--db", "x.sqlite", "--tournament", "1"], "not both"),
        (["missing.jsonl"], "missing.jsonl"),
    ],
)
def test_bad_usage_is_one_line(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", *args]) == 1
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_tournament_is_analysed_once_and_summed_per_player(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "t.sqlite")
    play = ["tournament", "isolation(width=5,height=5)", "--players", "greedy,random", "--games", "4"]
    assert main([*play, "--seed", "3", "--db", db, "--backend", "inline", "--quiet"]) == 0
    capsys.readouterr()
    analyse = ["analyze", "--db", db, "--tournament", "1", "--time", "0.2", "--backend", "inline"]
    assert main([*analyse, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 4 and set(report["players"]) == {"greedy", "random"}
    assert all(row["games"] == 4 and row["loss_per_move"] is not None for row in report["players"].values())
    with Store(db) as store:
        stored = store.job_results(analysis_batch(1))
    assert len(stored) == 4
    assert main(analyse) == 0  # nothing left to do: the stored analyses are reported again
    text = capsys.readouterr()
    assert "analysed game" not in text.err and "tournament 1: 4 games analysed" in text.out
