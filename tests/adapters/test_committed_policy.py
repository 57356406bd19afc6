"""The committed policy (examples/policies/isolation-5x5.npz) reproduces the figures in its meta record.

Against ``greedy`` (the SPRT) and ``random`` every game is determined by the seeds (the policy plays its
most likely action, greedy has no randomness, random is seeded), so the documented command gives the
recorded games exactly. Against ``ab_improved``, which searches on the CPU clock, the score must fall
in the recorded 95 % interval (slow: 200 timed games).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from gridarena.adapters.policy import read_policy

ROOT = Path(__file__).resolve().parents[2]
POLICY = ROOT / "examples" / "policies" / "isolation-5x5.npz"


def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_policy", ROOT / "benchmarks" / "train_policy.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def recorded() -> dict[str, Any]:
    evaluation = read_policy(POLICY).meta["trained"]["evaluation"]
    return {r["opponent"]: r for r in evaluation["results"]}


@pytest.mark.parametrize("opponent", ["greedy", "random"])
def test_the_deterministic_matches_reproduce_exactly(opponent: str) -> None:
    results = recorded()
    train_policy = script()
    extra = {"opening": "random(plies=2)"}
    if opponent == "greedy":
        extra["sprt"] = "0,50,0.05,0.05"
    games = 2000 if opponent == "greedy" else results[opponent]["games"]
    again = train_policy.match(read_policy(POLICY).meta["game"], str(POLICY), opponent, games, 26, **extra)
    keys = ("games", "wins", "losses", "draws", "penta")
    assert {k: again[k] for k in keys} == {k: results[opponent][k] for k in keys}
    if opponent == "greedy":
        assert again["sprt"]["decision"] == "H1"


@pytest.mark.slow
def test_the_timed_match_against_ab_improved_falls_in_its_interval() -> None:
    result = recorded()["ab_improved"]
    again = script().match(
        read_policy(POLICY).meta["game"], str(POLICY), "ab_improved", result["games"], 26,
        opening="random(plies=2)", time="0.15", clock="cpu",
    )  # fmt: skip
    low, high = result["elo_ci95"]
    assert low <= again["elo"] <= high
