"""The SQLite store: WAL, a versioned schema, games committed with their block, resume bookkeeping."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from gridarena.arena.store import DEFAULT_DB, ENV_DB, SCHEMA_VERSION, Store, StoreError, database_path


def _result(block: int, game: int) -> dict[str, object]:
    return {
        "tournament": 1,
        "block": block,
        "game": game,
        "seats": ["a", "b"],
        "returns": [1.0, -1.0],
        "ranks": [1, 2],
        "termination": "normal",
        "forfeit_seat": None,
        "detail": "",
        "plies": 9,
        "time_stats": [],
    }


@pytest.fixture
def store(tmp_path: Path) -> Store:
    s = Store(tmp_path / "results.sqlite")
    s.create_tournament(
        {"game": "x", "players": ["a", "b"]},
        2**64 - 1,
        [(0, "a vs b", 0, 2**64 - 2, 2), (1, "a vs b", 1, 5, 2)],
    )
    return s


def test_the_file_is_wal_with_a_schema_version(store: Store) -> None:
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.schema_version() == SCHEMA_VERSION


def test_unsigned_64_bit_seeds_survive(store: Store) -> None:
    assert store.tournament(1).master_seed == 2**64 - 1
    assert store.blocks(1)[0].seed == 2**64 - 2


def test_a_block_is_done_with_its_last_game_and_statistics_see_only_done_blocks(store: Store) -> None:
    assert store.record_game(_result(0, 0)) is False
    assert store.games(1) == [] and len(store.games(1, done_only=False)) == 1
    assert store.record_game(_result(0, 1)) is True
    assert [b.status for b in store.blocks(1)] == ["done", "pending"]
    assert [(g["block"], g["game"]) for g in store.games(1)] == [(0, 0), (0, 1)]


def test_a_duplicate_game_is_an_error_never_a_double_count(store: Store) -> None:
    store.record_game(_result(0, 0))
    with pytest.raises(StoreError, match="already stored"):
        store.record_game(_result(0, 0))
    assert store.blocks(1)[0].games_done == 1


def test_resume_drops_the_games_of_unfinished_blocks(store: Store) -> None:
    store.record_game(_result(0, 0))
    store.record_game(_result(0, 1))
    store.record_game(_result(1, 0))
    assert store.reset_unfinished(1) == [1]
    assert len(store.games(1, done_only=False)) == 2 and store.blocks(1)[1].games_done == 0


def test_a_newer_schema_is_refused_with_both_versions(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite"
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(StoreError, match=f"version {SCHEMA_VERSION + 1} is newer .* {SCHEMA_VERSION}"):
        Store(path)


def test_replays_live_beside_the_database(store: Store, tmp_path: Path) -> None:
    assert store.replay_dir(3) == tmp_path / "results.replays" / "3"


def test_the_path_comes_from_the_flag_then_the_environment_then_the_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(ENV_DB, raising=False)
    assert database_path() == tmp_path / DEFAULT_DB
    monkeypatch.setenv(ENV_DB, str(tmp_path / "env.sqlite"))
    assert database_path() == tmp_path / "env.sqlite"
    assert database_path("flag.sqlite") == tmp_path / "flag.sqlite"


def test_an_aborted_block_is_played_again_on_resume(store: Store) -> None:
    store.record_game(_result(0, 0))
    store.mark_aborted(1, 0)
    assert store.blocks(1)[0].status == "aborted" and store.games(1) == []
    assert store.reset_unfinished(1) == [0, 1]
    assert store.blocks(1)[0].status == "pending" and store.games(1, done_only=False) == []
