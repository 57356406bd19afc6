"""The ``gridarena puzzle`` subcommand, called through configure/run as the CLI does."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from gridarena.cli import puzzle
from gridarena.cli.options import size
from gridarena.games.slidingpuzzle.board import Board, homework_goal
from gridarena.games.slidingpuzzle.formats import (
    PuzzleCase,
    check_solution,
    format_homework_case,
    parse_case,
    parse_solution,
)
from gridarena.games.slidingpuzzle.pdb import load_pdb

CASE1_2 = Board(4, 5, (1, 2, 3, 0, 4, 6, 7, 8, -1, 5, -1, 12, -1, 14, 10, 16, 17, 18, 15, 0))


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    puzzle.configure(parser)
    return puzzle.run(parser.parse_args(argv))


@pytest.fixture
def case_file(tmp_path: Path) -> Path:
    path = tmp_path / "case1_2.in"
    path.write_text(format_homework_case(PuzzleCase(CASE1_2, homework_goal())))
    return path


@pytest.mark.parametrize("algo", ["bfs", "astar", "idastar"])
def test_solve_prints_the_homework_answer(
    algo: str, case_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["solve", str(case_file), "--algo", algo]) == 0
    out, err = capsys.readouterr()
    case = parse_case(case_file.read_text())
    assert check_solution(case, parse_solution(out), optimal=5) == 5
    assert "expanded=" in err and "length=5" in err


def test_solve_with_a_pdb_builds_it_into_the_given_directory(
    case_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "pdbs"
    argv = [
        "solve",
        str(case_file),
        "--algo",
        "pdb",
        "--partition",
        "2-2-2-2-2-2-1-1-1",
        "--pdb",
        str(folder),
    ]
    assert run([*argv, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["length"] == 5 and result["algorithm"] == "idastar/pdb(2-2-2-2-2-2-1-1-1)"
    assert len(list(folder.glob("*.pdb"))) == 9


def test_one_line_boards_and_unsolvable_ones(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line = tmp_path / "eight.txt"
    line.write_text("1 2 3 4 5 6 0 7 8\n")
    assert run(["solve", str(line), "--algo", "idastar"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "2"
    line.write_text("2 1 3 4 5 6 7 8 0\n")
    assert run(["solve", str(line), "--algo", "idastar"]) == 1
    assert "unsolvable" in capsys.readouterr().err


def test_check_replays_an_answer(case_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    answer = tmp_path / "answer.txt"
    answer.write_text("5\n18 3\n4 2\n9 0\n14 0\n19 0\n")
    assert run(["check", str(case_file), str(answer), "--optimal", "5"]) == 0
    answer.write_text("1\n18 3\n")
    with pytest.raises(Exception, match="differs from the goal"):
        run(["check", str(case_file), str(answer)])


def test_pdb_build_from_a_student_config(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "two.in"
    config.write_text("0 0 0 0 0\n0 0 0 -1 0\n-1 0 -1 0 0\n0 0 0 0 0\nout/1-6.pdb\n1 6\nout/2-3.pdb\n2 3\n")
    assert run(["pdb", "build", str(config), "--pdb", str(tmp_path), "--json"]) == 0
    built = json.loads(capsys.readouterr().out)
    assert [b["pattern"] for b in built] == [[1, 6], [2, 3]]
    assert load_pdb(tmp_path / "out" / "1-6.pdb", goal=homework_goal(), pattern=(1, 6)).entries == 272


def test_pdb_build_by_partition_and_bad_usage(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["pdb", "build", "--board", "3x3", "--partition", "4-4", "--pdb", str(tmp_path)]) == 0
    assert len(list(tmp_path.glob("3x3-*.pdb"))) == 2
    with pytest.raises(puzzle.PuzzleUsageError, match="--board and --partition"):
        run(["pdb", "build", "--board", "3x3"])


def test_bench_summarises_seeded_boards(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["bench", "--board", "3x3", "--count", "5", "--walk", "0", "--seed", "3", "--json"]
    assert run(argv) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["solved"] == 5 and len(first["lengths"]) == 5
    assert run(argv) == 0
    assert json.loads(capsys.readouterr().out)["lengths"] == first["lengths"]


def test_several_disjoint_sets_build_and_solve_together(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["pdb", "build", "--board", "3x3", "--partition", "4-4/3-5", "--pdb", str(tmp_path)]) == 0
    assert len(list(tmp_path.glob("3x3-*.pdb"))) == 4
    case = tmp_path / "one.txt"
    case.write_text("8 6 7 2 5 4 3 0 1\n")
    argv = ["solve", str(case), "--algo", "pdb", "--partition", "4-4/3-5", "--pdb", str(tmp_path), "--json"]
    assert run(argv) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["algorithm"] == "idastar/pdb(4-4/3-5)+mirror" and result["length"] == 31


def _hard_case(tmp_path: Path, walk: int = 1000, seed: int = 0) -> Path:
    """A homework board far from the goal: Manhattan IDA* (``--algo idastar``) takes minutes on it."""
    import random

    from gridarena.games.slidingpuzzle.board import random_walk

    path = tmp_path / "hard.in"
    board = random_walk(homework_goal(), walk, random.Random(seed))
    path.write_text(format_homework_case(PuzzleCase(board, homework_goal())))
    return path


def _answers(out: str) -> list[str]:
    """The answer blocks of an ``--anytime`` run: each ``# anytime`` header starts one, ``# final`` the last."""
    blocks, current = [], []
    for line in out.splitlines(keepends=True):
        if line.startswith("# "):
            if current:
                blocks.append("".join(current))
            current = []
        else:
            current.append(line)
    blocks.append("".join(current))
    return [b for b in blocks if b.strip()]


def test_ctrl_c_reports_the_proven_bound_and_exits_cleanly(tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import sys

    case = _hard_case(tmp_path)
    command = [sys.executable, "-m", "gridarena", "puzzle", "solve", str(case), "--algo", "idastar"]
    process = subprocess.Popen(
        [*command, "--progress", "--threads", "2", "--memory", "64M"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert process.stderr is not None
    seen = []
    for line in process.stderr:  # the search has started once it reports progress
        seen.append(line)
        if line.startswith("progress: bound"):
            break
    process.send_signal(signal.SIGINT)
    out, rest = process.communicate(timeout=60)
    err = "".join(seen) + rest
    assert process.returncode == 1, err
    assert "Traceback" not in err and "interrupted (no solution shorter than" in err
    assert "lower_bound=" in err and out == ""


def test_time_and_node_limits_stop_with_the_bound(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    case = str(_hard_case(tmp_path))
    for limit in (["--time", "0.3"], ["--max-nodes", "20000"]):
        assert run(["solve", case, "--algo", "idastar", "--memory", "16M", "--json", *limit]) == 1
        out = capsys.readouterr().out
        report = json.loads(out)
        assert report["status"] == "limit" and report["lower_bound"] >= report["h0"] > 0
        assert ("time limit" if limit[0] == "--time" else "node limit") in report["reason"]


def test_anytime_prints_each_better_answer_then_the_optimum(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    case_path = _hard_case(tmp_path, walk=60, seed=3)
    case = parse_case(case_path.read_text())
    assert run(["solve", str(case_path), "--algo", "idastar", "--anytime", "--memory", "16M"]) == 0
    out, err = capsys.readouterr()
    blocks = _answers(out)
    assert out.startswith("# anytime") and len(blocks) == 2 and "# final" in out
    quick, best = (check_solution(case, parse_solution(b)) for b in blocks)
    assert best <= quick and f"length={best}" in err and "status=solved" in err
    # Stopped early, the anytime answer stands with its gap: the optimum lies between the bound and it.
    hard = str(_hard_case(tmp_path, walk=400, seed=5))
    argv = ["solve", hard, "--algo", "idastar", "--anytime", "--memory", "16M", "--max-nodes", "50", "--json"]
    assert run(argv) == 1
    reports = [json.loads(line) for line in capsys.readouterr()[0].splitlines()]
    hard_case = parse_case(Path(hard).read_text())
    lengths = []
    for report in reports:  # every printed answer replays
        moves = "".join(f"{c} {d}\n" for c, d in report["moves"])
        lengths.append(check_solution(hard_case, parse_solution(f"{len(report['moves'])}\n{moves}")))
    final = reports[-1]
    assert all(r["anytime"] for r in reports[:-1]) and final["moves"] == reports[-2]["moves"]
    assert lengths == sorted(lengths, reverse=True) and len(set(lengths[:-1])) == len(lengths) - 1
    assert final["status"] == "solved" and final["lower_bound"] <= lengths[-1]
    assert "best answer so far" in final["reason"]


def test_sizes_are_parsed_or_refused() -> None:
    parse_size = size()
    assert parse_size("4G") == 4 << 30 and parse_size("64M") == 64 << 20
    for text in ("lots", "0", "-1G", "nanG", "infM", "9" * 50):
        with pytest.raises(argparse.ArgumentTypeError, match="must be a size such as 4G"):
            parse_size(text)
