"""``gridarena tournament`` and ``gridarena results``, called through configure/run."""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gridarena.arena.backends import InlineBackend, Sink, aborted_result
from gridarena.arena.load import cores
from gridarena.arena.report import build_report
from gridarena.arena.runner import GameTask
from gridarena.arena.store import Store
from gridarena.arena.text import format_text
from gridarena.arena.tournament import Progress, TournamentConfig, TournamentError, run_tournament
from gridarena.cli import results, tournament
from gridarena.cli.output import warn
from gridarena.core.errors import GridArenaError

GAME = "isolation(width=5,height=5)"


def _run(module: object, argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    module.configure(parser)  # type: ignore[attr-defined]
    return int(module.run(parser.parse_args(argv)))  # type: ignore[attr-defined]


def _json(capsys: pytest.CaptureFixture[str], module: object, argv: list[str]) -> dict[str, Any]:
    assert _run(module, [*argv, "--json"]) == 0
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    return report


def test_the_json_report_has_the_standings_fields(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "r.sqlite")
    argv = [
        GAME,
        "--players",
        "greedy,random",
        "--games",
        "6",
        "--seed",
        "7",
        "--db",
        db,
        "--backend",
        "inline",
    ]
    report = _json(capsys, tournament, argv)
    standings = report["standings"]
    assert isinstance(standings, list) and [r["player"] for r in standings] == ["greedy", "random"]
    for row in standings:
        assert {"player", "games", "wins", "losses", "draws", "score", "elo", "elo_ci95"} <= set(row)
        assert row["games"] == 6 and row["wins"] + row["losses"] + row["draws"] == 6
    match = report["match"]
    assert isinstance(match, dict) and sum(match["penta"]) == 3 and {"nelo", "los", "sprt"} <= set(match)
    assert report["database"] == db and report["seed"] == 7


def test_results_reprints_the_report_as_text_json_and_csv(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "r.sqlite")
    argv = [
        GAME,
        "--players",
        "greedy,random,random(name=r2)",
        "--games",
        "2",
        "--seed",
        "3",
        "--db",
        db,
        "--quiet",
    ]
    assert _run(tournament, [*argv, "--backend", "inline"]) == 0
    text = capsys.readouterr().out
    assert "greedy" in text and "database:" in text
    assert _json(capsys, results, ["--db", db])["games"] == 6
    assert _run(results, ["--db", db, "--csv", "-"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [r["player"] for r in rows] == ["greedy", "random", "r2"] or len(rows) == 3
    assert _run(results, ["--db", db]) == 0
    assert "crosstable" not in capsys.readouterr().out  # text, not JSON: a table with per-bot figures


def test_a_timed_tournament_above_the_core_count_is_refused(tmp_path: Path) -> None:
    argv = [GAME, "--players", "greedy,random", "--time", "0.1", "--concurrency", str(cores() + 1)]
    with pytest.raises(TournamentError, match="--force-concurrency"):
        _run(tournament, [*argv, "--db", str(tmp_path / "x.sqlite")])


def test_a_resumed_timed_tournament_keeps_the_timed_concurrency(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # `--resume` gives no --time: the stored clock must decide, else a timed run would take every core.
    db = tmp_path / "t.sqlite"
    argv = [GAME, "--players", "greedy,random", "--games", "2", "--time", "0.05", "--db", str(db)]
    assert _run(tournament, [*argv, "--backend", "inline", "--quiet"]) == 0
    with Store(db) as store:
        store.set_status(1, "stopped")
    asked: list[int] = []

    def backend(name: str, concurrency: int, address: str | None) -> InlineBackend:
        asked.append(concurrency)
        return InlineBackend()

    monkeypatch.setattr(tournament, "make_backend", backend)
    monkeypatch.setattr(tournament, "default_concurrency", lambda timed: 1 if timed else 2)
    monkeypatch.setattr(tournament, "check_concurrency", lambda concurrency, timed, force: None)
    assert _run(tournament, ["--db", str(db), "--resume", "1", "--quiet"]) == 0
    assert asked == [1]
    capsys.readouterr()


def test_an_unfinished_twin_is_not_duplicated_and_a_contradicting_resume_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "r.sqlite"
    argv = [
        GAME,
        "--players",
        "greedy,random",
        "--games",
        "4",
        "--seed",
        "5",
        "--db",
        str(db),
        "--backend",
        "inline",
    ]
    assert _run(tournament, [*argv, "--quiet"]) == 0
    with Store(db) as store:
        store.set_status(1, "stopped")
    with pytest.raises(TournamentError, match="--resume 1"):
        _run(tournament, argv)
    with pytest.raises(TournamentError, match="contradict"):
        _run(
            tournament, [GAME, "--players", "greedy,random", "--games", "8", "--db", str(db), "--resume", "1"]
        )
    capsys.readouterr()
    report = _json(capsys, tournament, ["--db", str(db), "--resume", "1", "--backend", "inline"])
    assert report["status"] == "done" and report["games"] == 4


def test_strict_turns_a_forfeit_into_exit_code_one(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import sys\nsys.exit(1)\n")
    players = f"greedy,external(cmd='python3 {bad}',name=bad)"
    argv = [GAME, "--players", players, "--games", "2", "--seed", "1", "--db", str(tmp_path / "s.sqlite")]
    assert _run(tournament, [*argv, "--backend", "inline", "--quiet", "--strict"]) == 1


def test_sprt_stops_scheduling_once_a_bound_is_crossed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [GAME, "--players", "greedy,random", "--games", "400", "--seed", "2", "--sprt=-100,100,0.2,0.2"]
    report = _json(capsys, tournament, [*argv, "--db", str(tmp_path / "p.sqlite"), "--backend", "inline"])
    assert report["status"] == "done" and report["games"] < 400
    assert report["sprt_decision_at_crossing"]["decision"] in ("H0", "H1")


def test_single_player_runs_get_means_intervals_and_a_paired_comparison(tmp_path: Path) -> None:
    store = Store(tmp_path / "runs.sqlite")
    config = {"game": "solo", "players": ["a", "b"], "format": "round-robin"}
    blocks = [(2 * r + i, name, r, 100 + r, 1) for r in range(4) for i, name in enumerate("ab")]
    store.create_tournament(config, 1, blocks)
    scores: dict[str, list[float | None]] = {"a": [10.0, 12.0, 14.0, None], "b": [9.0, 12.0, 11.0, 8.0]}
    for number, name, r, _, _ in blocks:
        score = scores[name][r]
        store.record_game(
            {
                "tournament": 1,
                "block": number,
                "game": 0,
                "seats": [name],
                "returns": [score or 0.0],
                "ranks": [1],
                "termination": "normal" if score is not None else "timeout",
                "forfeit_seat": None if score else 0,
                "detail": "",
                "plies": 3,
                "time_stats": [],
            }
        )
    report: dict[str, Any] = build_report(store, 1)
    a = report["runs"]["a"]
    assert (a["n"], a["mean"], a["failures"], a["scores"]) == (
        3,
        12.0,
        {"timeout": 1},
        [10.0, 12.0, 14.0, None],
    )
    assert a["ci95"][0] < 12.0 < a["ci95"][1]
    assert report["comparison"]["n"] == 3 and report["comparison"]["mean_diff"] == pytest.approx(4 / 3)
    assert [r["player"] for r in report["standings"]] == ["a", "b"] and report["standings"][0]["elo"] is None
    assert "12.0 ± " in format_text(report)
    json.dumps(report, allow_nan=False)


def test_the_live_display_renders_standings(tmp_path: Path) -> None:
    store = Store(tmp_path / "live.sqlite")
    config = TournamentConfig(GAME, ("greedy", "random"), games=2, seed=1)
    outcome = run_tournament(config, store, InlineBackend())
    display = tournament._Display(store)
    display(Progress(outcome.tournament, games_total=2, games_done=2, blocks_done=1))
    table = tournament._live_table(store, outcome.tournament)
    assert table.row_count == 2 and display.bar.tasks[0].completed == 2


def test_players_from_a_toml_file_and_standings_without_forfeits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bot = tmp_path / "env_bot.py"
    bot.write_text(
        "import json, os, sys\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'start': print(json.dumps({'type': 'ready'}), flush=True)\n"
        "    elif m['type'] == 'ping': print(json.dumps({'type': 'pong'}), flush=True)\n"
        "    elif m['type'] == 'turn': print(json.dumps({'action': os.environ['MOVE']}), flush=True)\n"
        "    else: break\n"
    )
    (tmp_path / "bots.toml").write_text(
        f'[[player]]\nspec = "greedy"\nname = "g"\n\n'
        f'[[player]]\nname = "stubborn"\ncmd = ["{sys.executable}", "{bot}"]\nenv = {{MOVE = "a1"}}\n'
    )
    argv = [GAME, "--players", "random", "--players-file", str(tmp_path / "bots.toml"), "--games", "2"]
    argv += ["--seed", "4", "--db", str(tmp_path / "f.sqlite"), "--backend", "inline", "--exclude-forfeits"]
    report = _json(capsys, tournament, argv)
    assert report["config"]["players"][0] == "random" and report["config"]["players"][1] == "greedy(name='g')"
    assert sum(report["forfeits"]["stubborn"].values()) >= 2  # a1 is soon illegal (or blocked)
    clean = report["excluding_forfeits"]
    assert clean["games"] == report["games"] - sum(sum(f.values()) for f in report["forfeits"].values())
    (tmp_path / "bots.toml").write_text('[[player]]\nname = "x"\n')
    with pytest.raises(GridArenaError, match=r"bots\.toml: player 1: needs 'spec'"):
        _run(tournament, [GAME, "--players-file", str(tmp_path / "bots.toml")])


def test_ray_without_ray_installed_exits_2_naming_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # makes `import ray` fail as if it were not installed
    argv = [GAME, "--players", "greedy,random", "--backend", "ray", "--db", str(tmp_path / "r.sqlite")]
    assert _run(tournament, argv) == 2
    assert "gridarena[ray]" in capsys.readouterr().err


class _AbortFirst(InlineBackend):
    """Aborts the first game it is given (as a worker lost too often would), then plays the rest."""

    def run(self, tasks: Iterator[GameTask], sink: Sink) -> None:
        if sink(aborted_result(next(tasks), "worker lost 3 times")):
            super().run(tasks, sink)


def test_an_aborted_game_is_reported_to_the_warn_callback(capsys: pytest.CaptureFixture[str]) -> None:
    config = TournamentConfig(GAME, ("greedy", "random"), games=2, seed=7)
    messages: list[str] = []
    outcome = run_tournament(config, Store(":memory:"), _AbortFirst(), warn=messages.append)
    assert messages == ["block 0 game 0 aborted: worker lost 3 times"]
    assert [r["detail"] for r in outcome.report["aborted"]] == ["worker lost 3 times"]
    with pytest.warns(UserWarning, match="block 0 game 0 aborted"):
        run_tournament(config, Store(":memory:"), _AbortFirst())  # without a callback: a Python warning
    warn(messages[0])  # what the command line passes: the line it printed before the callback existed
    assert capsys.readouterr().err == "warning: block 0 game 0 aborted: worker lost 3 times\n"
