"""The ``gridarena puzzle`` subcommand, called through configure/run as the CLI does."""

from __future__ import annotations

import argparse
import json
import os
import re
from pathlib import Path

import pytest

from gridarena.cli import puzzle
from gridarena.cli.options import size
from gridarena.games.slidingpuzzle.ai.heuristics import make_heuristic
from gridarena.games.slidingpuzzle.ai.solvers import solve
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
    out, err = capsys.readouterr()
    result = json.loads(out)
    assert result["length"] == 5 and result["algorithm"] == "idastar/pdb(2-2-2-2-2-2-1-1-1)"
    assert len(list(folder.glob("*.pdb"))) == 9
    # Not a terminal: the build says how far it is in lines, the last at 100%.
    assert "building the pattern databases 2-2-2-2-2-2-1-1-1" in err and "(9 tables, " in err
    assert "building: 100% (table 9 of 9: " in err


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
    assert "building: 100% (table 2 of 2: 3x3-" in capsys.readouterr().err
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


#: The optimal lengths of the public homework cases (shared data README; A* and BFS agree).
HOMEWORK_OPTIMA = {
    "case1_1": 8, "case1_2": 5, "case1_3": 8, "case1_4": 10, "case1_5": 10,
    "case2_1": 14, "case2_2": 20, "case2_3": 14, "case2_4": 15, "case2_5": 14,
    "case3_1": 28, "case3_2": 24, "case3_3": 30, "case3_4": 24, "case3_5": 22,
}  # fmt: skip


@pytest.fixture
def homework(shared_data: Path) -> Path:
    return shared_data / "slidingpuzzle" / "ntu_tcg2022_hw1"


@pytest.fixture
def empty_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cache = tmp_path / "cache"
    monkeypatch.setenv("GRIDARENA_CACHE", str(cache))
    return cache


def test_each_public_case_alone_is_solved_optimally_without_building_tables(
    homework: Path, empty_cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, optimum in HOMEWORK_OPTIMA.items():
        path = homework / f"{name}.in"
        assert run(["solve", str(path)]) == 0, name
        out, err = capsys.readouterr()
        assert check_solution(parse_case(path.read_text()), parse_solution(out), optimum) == optimum
        assert "status=solved" in err and "building" not in err
    assert not empty_cache.exists() or not list(empty_cache.rglob("*.pdb"))  # easy boards need no tables


def test_the_public_folder_with_its_readme_is_solved_in_a_fresh_process(
    homework: Path, empty_cache: Path
) -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "gridarena", "puzzle", "solve", str(homework), "--json"],
        capture_output=True,
        text=True,
        env={**os.environ, "GRIDARENA_CACHE": str(empty_cache)},
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert [Path(c["case"]).stem for c in report["cases"]] == list(HOMEWORK_OPTIMA)
    for result in report["cases"]:
        moves = "".join(f"{c} {d}\n" for c, d in result["moves"])
        answer = parse_solution(f"{len(result['moves'])}\n{moves}")
        optimum = HOMEWORK_OPTIMA[Path(result["case"]).stem]
        assert check_solution(parse_case(Path(result["case"]).read_text()), answer, optimum) == optimum
    assert report["totals"]["solved"] == 15 and report["totals"]["skipped"] == 1
    assert (
        len(report["skipped"]) == 1
        and "README.md: skipped, not a case (README.md:1: " in report["skipped"][0]
    )
    assert "README.md: skipped, not a case" in done.stderr


def test_a_folder_solves_its_case_files_and_names_what_it_skipped(
    case_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "cases"
    (folder / "more").mkdir(parents=True)
    (folder / "a.in").write_text(case_file.read_text())
    (folder / "eight.txt").write_text("1 2 3 4 5 6 0 7 8\n")  # a one-line board is a case too
    (folder / "README.md").write_text("# My cases\n\nSolve them all.\n")
    (folder / "a.out").write_text("5\n18 3\n4 2\n9 0\n14 0\n19 0\n")  # an answer, not a case
    (folder / ".hidden").write_text("ignored")
    os.mkfifo(folder / "pipe.in")  # never opened: reading it would block
    assert run(["solve", str(folder), "--algo", "idastar"]) == 0
    out, err = capsys.readouterr()
    assert [line for line in out.splitlines() if line.startswith("# ")] == [
        f"# {folder / 'a.in'}",
        f"# {folder / 'eight.txt'}",
    ]
    assert f"{folder / 'README.md'}: skipped, not a case (README.md:1: " in err
    assert f"{folder / 'a.out'}: skipped, not a case (a.out:" in err
    assert f"{folder / 'more'}: skipped, a folder" in err and ".hidden" not in err
    assert f"{folder / 'pipe.in'}: skipped, not a regular file" in err
    assert "cases=2 solved=2" in err and "skipped=4" in err
    # A broken *.in file is a case that failed: the others are still solved, and the exit code says so.
    (folder / "b.in").write_text("4 5\n1 2 3\n")
    assert run(["solve", str(folder), "--algo", "idastar"]) == 1
    err = capsys.readouterr().err
    assert f"{folder / 'b.in'}: error: " in err and "cases=3 solved=2" in err
    for name in ("a.in", "b.in", "eight.txt"):
        (folder / name).unlink()
    with pytest.raises(
        puzzle.PuzzleUsageError,
        match=r"a folder without case files \(skipped README.md, a.out, more, pipe.in\)",
    ):
        run(["solve", str(folder)])


def test_auto_builds_the_tables_only_for_a_board_that_needs_them(
    tmp_path: Path, empty_cache: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from gridarena.games.slidingpuzzle.pdb.partitions import DEFAULT_PARTITIONS

    # A small default set and a small budget stand for the real ones, so that the test builds in a second.
    monkeypatch.setitem(DEFAULT_PARTITIONS, "4x5-homework", "2-2-2-2-2-2-1-1-1")
    monkeypatch.setattr(puzzle, "QUICK", (("astar", 50), ("idastar", 200)))
    walk = _hard_case(tmp_path, walk=200, seed=2)
    case = parse_case(walk.read_text())
    optimum = len(solve(case, "idastar").path or ())
    assert run(["solve", str(walk), "--max-nodes", "100"]) == 1  # the user's own limit comes first
    assert "node limit" in capsys.readouterr().err and not empty_cache.exists()
    assert run(["solve", str(walk)]) == 0
    out, err = capsys.readouterr()
    assert check_solution(case, parse_solution(out), optimum) == optimum
    assert "not solved on the distance sum" in err and "now with the pattern databases" in err
    assert "building: 100% (table 9 of 9: " in err
    assert "algorithm=astar/manhattan+idastar/manhattan+idastar/pdb(2-2-2-2-2-2-1-1-1)" in err
    assert len(list(empty_cache.rglob("*.pdb"))) == 9
    # Built: the next run uses them at once.
    assert run(["solve", str(walk)]) == 0
    out, err = capsys.readouterr()
    assert "not solved" not in err and "building" not in err
    assert check_solution(case, parse_solution(out), optimum) == optimum


def test_the_default_table_is_sized_to_the_job(case_file: Path) -> None:
    parser = argparse.ArgumentParser()
    puzzle.configure(parser)
    args = parser.parse_args(["solve", str(case_file)])
    tables = puzzle._Tables(args)
    solver = tables.solver(make_heuristic(homework_goal()))
    assert solver.table_bytes <= 1 << 20  # not a quarter of the machine: it grows when a search needs it
    assert solver.table_limit <= 1 << 30


def _walk_through() -> list[tuple[str, list[str]]]:
    """The commands of docs/slidingpuzzle.md's "First steps" and the output lines shown after each."""
    text = (Path(__file__).parents[3] / "docs" / "slidingpuzzle.md").read_text()
    section = text.split("## First steps", 1)[1].split("\n## ", 1)[0]
    steps: list[tuple[str, list[str]]] = []
    for block in re.findall(r"^```text\n(.*?)^```", section, re.M | re.S):
        for line in block.splitlines():
            if line.startswith("$ "):
                steps.append((line[2:], []))
            elif line != "...":
                steps[-1][1].append(line)
    return steps


def test_the_first_steps_of_the_docs_run_as_shown(
    shared_data: Path, tmp_path: Path, empty_cache: Path
) -> None:
    import subprocess
    import sys

    steps = _walk_through()
    assert [command.split()[:3] for command, _ in steps] == [["gridarena", "puzzle", "solve"]] * 2 + [
        ["gridarena", "puzzle", "check"],
        ["gridarena", "puzzle", "solve"],
    ]
    (tmp_path / "shared").symlink_to(shared_data.parent)  # a clean folder beside ../shared
    work = tmp_path / "work"
    work.mkdir()
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    for command, shown in steps:
        done = subprocess.run(
            command,
            shell=True,
            cwd=work,
            capture_output=True,
            text=True,
            env={**os.environ, "PATH": path, "GRIDARENA_CACHE": str(empty_cache)},
            timeout=300,
            check=False,
        )
        assert done.returncode == 0, (command, done.stderr)
        printed = (done.stdout + done.stderr).splitlines()
        for line in shown:  # every line the docs show is printed ("..." stands for what varies)
            pattern = re.compile(re.escape(line).replace(re.escape("..."), ".*") + "$")
            assert any(pattern.match(p) for p in printed), (command, line, printed[:5])
