"""``benchmarks/iceandfire_tune.py``: the SPSA step, and a run that logs every iteration and resumes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[3] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import iceandfire_tune as tune  # noqa: E402


def test_a_step_moves_each_weight_along_its_sign_and_stays_in_its_bounds() -> None:
    theta = {p.name: p.start for p in tune.PARAMS}
    signs = {p.name: 1 if k % 2 else -1 for k, p in enumerate(tune.PARAMS)}
    after = tune.step(theta, signs, 2.0, 0.5)  # θ+ took two points more: one step c along the signs
    for p in tune.PARAMS:
        assert after[p.name] == p.clip(p.start + signs[p.name] * p.c), p.name
    assert tune.step(theta, signs, 0.0, 0.5) == theta  # games settled alike move nothing
    far = tune.step(theta, signs, 2.0, 1000.0)
    assert all(far[p.name] in (p.low, p.high) for p in tune.PARAMS)
    assert tune.spec(theta).startswith("best(gold_weight=0.6,")


def test_a_run_logs_every_iteration_refuses_to_overwrite_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "tune.jsonl"
    command = [sys.executable, str(BENCHMARKS / "iceandfire_tune.py"), "--pool", "wood1", "--quiet"]
    first = subprocess.run([*command, "--iterations", "1", "--out", str(out)], capture_output=True, text=True)
    assert first.returncode == 0, first.stderr
    assert "SPSA over wood1: 1 iterations (4 games" in first.stdout
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 1 and rows[0]["opponent"] == "wood1" and rows[0]["seed"] == 20001
    again = subprocess.run([*command, "--iterations", "2", "--out", str(out)], capture_output=True, text=True)
    assert again.returncode == 1 and "exists; --resume" in again.stderr
    resumed = subprocess.run(
        [*command, "--iterations", "2", "--out", str(out), "--resume"], capture_output=True, text=True
    )
    assert resumed.returncode == 0, resumed.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["k"] for r in rows] == [0, 1] and rows[1]["before"] == rows[0]["after"]


def test_a_log_cut_off_in_the_middle_of_a_line_is_named_not_resumed(tmp_path: Path) -> None:
    theta = {p.name: p.start for p in tune.PARAMS}
    whole = json.dumps({"k": 0, "after": theta})
    log = tmp_path / "tune.jsonl"
    log.write_text(whole + "\n" + whole[:40])  # a run killed while it wrote its second line
    with pytest.raises(SystemExit, match=r"tune.jsonl, line 2: not an iteration of this tuner"):
        tune.read_log(log)
    log.write_text(whole + "\n" + whole + "\n")  # iteration 0 twice: not the next one
    with pytest.raises(SystemExit, match=r"line 2: not iteration 1 of these parameters"):
        tune.read_log(log)
    log.write_text(whole + "\n")
    assert tune.read_log(log) == [{"k": 0, "after": theta}]
