"""``benchmarks/reversixt_multi.py``: a file of games is resumed only by the run that wrote it, and a
report names the file's candidates instead of printing a margin of no games."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[3] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import reversixt_multi as multi  # noqa: E402

LABELS = ("twin", "best_v1", "paranoid", "brs", "mcts", "trivial", "best_v1-2", "paranoid-2")


def row(candidate: str | None, seed: int | None) -> multi.GameRow:
    ranks = (1, 2, 3, 4, 5, 6, 7, 8)
    scores = (80, 70, 60, 50, 40, 30, 20, 10)
    return multi.GameRow(
        "comp2024_04_8p", 0, 0, LABELS, scores, ranks, ("ok",) * 8, 40.0, scores, candidate, seed
    )


def test_a_game_is_the_runs_own_only_with_its_candidate_and_seed() -> None:
    assert row("twin", 1).of("twin", 1)
    assert not row("twin", 1).of("twin", 2)  # another seed draws other openings: played again
    assert not row("twin", 1).of("best", 1)
    assert not row(None, None).of("twin", 1)  # a file of an older run: its seed is unknown


def test_a_bot_of_the_field_is_not_taken_for_the_candidate() -> None:
    assert row("twin", 1).played_by("twin")
    assert not row("twin", 1).played_by("paranoid")  # in the field of the twin's game
    assert row(None, None).played_by("paranoid")  # an older file does not say: any seat of it


def report(path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, str(BENCHMARKS / "reversixt_multi.py"), "--report", "--out", str(path)]
    return subprocess.run([*command, *extra], capture_output=True, text=True, timeout=120)


def test_a_report_of_a_file_without_the_candidate_names_what_it_holds(
    tmp_path: Path, shared_data: Path
) -> None:
    games = tmp_path / "games.jsonl"
    games.write_text(json.dumps(asdict(row("twin", 1))) + "\n")
    done = report(games)  # the default candidate, best, played none of them
    assert done.returncode == 1 and "margin" not in done.stdout
    assert "no game of the candidate 'best'" in done.stderr and "candidates: twin" in done.stderr
    done = report(games, "--candidate", "twin#0.05s")
    assert done.returncode == 0, done.stderr
    assert "twin: the field's mean rank minus its own" in done.stdout
    assert "1 games: margin +4.00" in done.stdout  # first, where the other seats average 5
