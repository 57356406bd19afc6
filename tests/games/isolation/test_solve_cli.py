"""`gridarena isolation solve`: resumable, killable, its summary and its solution file; the arena's jobs under it."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from gridarena.arena.backends import InlineBackend, ProcessBackend
from gridarena.arena.jobs import Job, JobError, load_function, run_jobs
from gridarena.arena.store import Store
from gridarena.cli.main import main
from gridarena.games.isolation.solve import Solution, all_openings


def solve(*args: str) -> int:
    return main(["isolation", "solve", "--tt-bits", "16", "--quiet", *args])


def test_solve_then_show_then_write(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "s.sqlite")
    assert solve("--board", "5x4", "--db", db, "--backend", "inline") == 0
    out = capsys.readouterr().out
    assert out.startswith("5x4: the second player wins;")
    assert solve("--board", "5x4", "--db", db, "--show", "--json") == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["board"] == "5x4" and summary["winner"] == "second"
    assert 0 < summary["openings"]["solved"] < summary["openings"]["total"] == len(all_openings(5, 4))
    assert all(entry["result"] == "lost" for entry in summary["first_moves"].values())
    path = tmp_path / "solution.json"
    assert solve("--board", "5x4", "--db", db, "--write", str(path), "--book-plies", "4") == 0
    solution = Solution.from_json(json.loads(path.read_text()))
    assert solution.winner == 1 and solution.book
    assert "--tt-bits 16" in solution.info["command"]


def test_all_resumes_without_solving_anything_twice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "s.sqlite")
    assert solve("--board", "4x4", "--db", db, "--backend", "inline") == 0
    with Store(db) as store:
        first = store.job_results("isolation-solve 4x4")
    assert solve("--board", "4x4", "--db", db, "--backend", "process", "--concurrency", "2", "--all") == 0
    with Store(db) as store:
        rows = store.db.execute(
            "SELECT name, COUNT(*) FROM jobs GROUP BY name HAVING COUNT(*) > 1"
        ).fetchall()
        again = store.job_results("isolation-solve 4x4")
    assert not rows and len(again) == len(all_openings(4, 4)) and first.items() <= again.items()


def test_sigterm_stops_the_workers_and_keeps_the_results(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    command = [
        sys.executable,
        "-m",
        "gridarena",
        "isolation",
        "solve",
        "--board",
        "6x6",
        "--all",
        "--db",
        str(db),
    ]
    process = subprocess.Popen([*command, "--concurrency", "2"], stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    for _ in range(20):  # wait until a few openings are stored
        line = process.stderr.readline()
        if "5 solved" in line:
            break
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=30) == 130
    with Store(db) as store:
        kept = len(store.job_results("isolation-solve 6x6"))
    assert 5 <= kept < len(all_openings(6, 6))
    done = subprocess.run(
        [*command, "--backend", "inline", "--quiet", "--tt-bits", "18"], capture_output=True, text=True
    )
    assert done.returncode == 0 and "165 of 165 openings solved" in done.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--board", "7"], "expected WIDTHxHEIGHT"),
        (["--board", "12x12"], "at most 128 cells"),
        (["--tt-bits", "40"], "argument --tt-bits: must be an integer from 10 to 30"),
        (["--board", "5x5", "--show", "--write", "x.json"], "not solved yet"),
    ],
)
def test_bad_options_are_one_line(
    args: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["isolation", "solve", "--db", str(tmp_path / "s.sqlite"), *args]) == 1
    assert message in capsys.readouterr().err


def test_jobs_run_on_a_process_pool_and_name_only_gridarena_functions() -> None:
    store = Store(":memory:")
    jobs = [Job("gridarena.arena.jobs:echo", str(i), {"i": i}, i) for i in range(6)]
    backend = ProcessBackend(2)
    try:
        assert run_jobs(backend, store, "b", iter(jobs)) == 6
    finally:
        backend.close()
    assert sorted(r["i"] for r in store.job_results("b").values()) == list(range(6))
    with pytest.raises(JobError, match=r"expected 'gridarena\.module:function'"):
        load_function("os:system")
    with pytest.raises(JobError, match="job x"):
        backend = ProcessBackend(1)
        try:
            run_jobs(backend, store, "c", iter([Job("gridarena.arena.jobs:nothing", "x", {}, 0)]))
        finally:
            backend.close()
    assert run_jobs(InlineBackend(), store, "b", iter([])) == 0


def test_show_in_an_empty_folder_gives_the_shipped_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A new user asks who wins 7x7 before solving anything: the package ships the proof (issue 32).
    monkeypatch.chdir(tmp_path)
    assert main(["isolation", "solve", "--board", "7x7", "--show", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["winner"] == "second" and summary["source"] == "shipped"
    assert summary["openings"] == {"solved": 315, "total": 315} and summary["db_solved"] == 0
    assert main(["isolation", "solve", "--board", "7x7", "--show"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("7x7: the second player wins; 315 of 315 openings solved")
    assert "the solution shipped with gridarena" in out
    assert list(tmp_path.iterdir()) == []  # --show made no database
    assert main(["isolation", "solve", "--board", "5x5", "--show", "--json"]) == 0  # nothing shipped
    assert json.loads(capsys.readouterr().out)["winner"] is None
