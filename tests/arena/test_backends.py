"""Backends: the same seeds give the same games inline, in worker processes and on a real local Ray."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from gridarena.arena.backends import BackendError, InlineBackend, ProcessBackend, RayBackend, make_backend
from gridarena.arena.store import Store
from gridarena.arena.tournament import TournamentConfig, run_tournament

CONFIG = TournamentConfig(
    "isolation(width=5,height=5)",
    ("greedy", "random", "random(name=r2)"),
    games=4,
    seed=21,
    opening="random(plies=1)",
)
FIELDS = ("block", "game", "seats", "returns", "ranks", "termination", "plies")


def _games(
    tmp_path: Path, name: str, backend: InlineBackend | ProcessBackend | RayBackend
) -> list[list[object]]:
    store = Store(tmp_path / name / "results.sqlite")
    try:
        outcome = run_tournament(CONFIG, store, backend)
    finally:
        backend.close()
    assert outcome.status == "done"
    return [[row[f] for f in FIELDS] for row in store.games(outcome.tournament)]


def test_inline_and_process_backends_play_identical_games(tmp_path: Path) -> None:
    inline = _games(tmp_path, "inline", InlineBackend())
    process = _games(tmp_path, "process", ProcessBackend(2))
    assert len(inline) == 12 and inline == process


@pytest.mark.skipif(
    importlib.util.find_spec("ray") is None, reason="Ray is not installed (pip install 'gridarena[ray]')"
)
def test_a_real_local_ray_plays_the_same_games_and_ships_replays_back(tmp_path: Path) -> None:
    games = _games(tmp_path, "ray", RayBackend(2))
    assert games == _games(tmp_path, "inline", InlineBackend())
    replays = sorted((tmp_path / "ray" / "results.replays" / "1").iterdir())
    assert len(replays) == 12 and all(p.stat().st_size > 0 for p in replays)


def test_unknown_backends_are_named() -> None:
    with pytest.raises(BackendError, match="--backend 'dask'"):
        make_backend("dask", 1)
    with pytest.raises(BackendError, match="at least 1"):
        ProcessBackend(0)
    assert isinstance(make_backend("serial", 1), InlineBackend)
