"""Hostile input on the command line (issue 23): every one ends in one line on stderr and exit 1, never a
traceback, an "internal error" (exit 2) or a machine out of memory."""

from __future__ import annotations

import functools
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from gridarena import __file__ as PACKAGE_INIT
from gridarena.arena.store import Store
from gridarena.cli.main import main

#: The address-space cap of a command that code with the bug would let grow without bound.
MEMORY_CAP = 2 * 1024**3


def capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def gridarena(
    *argv: str, user: int | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m gridarena`` in a child with its address space capped (as ``user`` when given)."""
    command = [sys.executable, "-m", "gridarena", *argv]
    if user is not None:
        command = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups", *command]
    # Another user cannot write the numba cache beside the sources: give the child one of its own.
    env = {**os.environ, "NUMBA_CACHE_DIR": tempfile.mkdtemp(prefix="gridarena-numba-")}
    os.chmod(env["NUMBA_CACHE_DIR"], 0o777)
    try:
        return subprocess.run(
            command,
            capture_output=True,
            text=True,
            timeout=300,
            preexec_fn=capped,
            cwd=cwd,
            env=env,
            check=False,
        )
    finally:
        shutil.rmtree(env["NUMBA_CACHE_DIR"], ignore_errors=True)


def one_line(stderr: str, *words: str) -> None:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert "internal error" not in stderr and "Traceback" not in stderr, stderr
    for word in words:
        assert word in lines[0], stderr


# -- item 2 and 5: game and bot parameters --------------------------------------------------------


def test_a_memory_bomb_in_a_game_spec_is_one_line() -> None:
    done = gridarena("play", "slidingpuzzle(rows=100000,cols=100000)", "--players", "solver")
    assert done.returncode == 1, done.stderr
    one_line(done.stderr, "rows must be an integer from 1 to 16", "100000")


@pytest.mark.parametrize(
    "spec,players,words",
    [
        (
            "slidingpuzzle(width=1000,height=1000)",
            "solver",
            "unknown parameter 'width'; slidingpuzzle takes rows",
        ),
        (
            "slidingpuzzle(rows=3,cols=3,scramble='x')",
            "solver",
            "scramble must be an integer from 0 to 10000",
        ),
        ("slidingpuzzle(walls=5)", "solver", "walls must be a list"),
        ("slidingpuzzle(walls=[50])", "solver", "wall cell 50 is off the 3x3 board"),
        (
            "slidingpuzzle(goal=[1,2,3,4,5,6,7,8,1000000000000])",
            "solver",
            "goal must be a list of at most 256",
        ),
        ("isolation(width=3.5)", "random,random", "width must be an integer from 1 to 26"),
        ("isolation(depth=3)", "random,random", "unknown parameter 'depth'"),
        ("pentocity(cpu_time='x')", "example", "cpu_time must be a number above 0"),
        ("pentocity(sequencer=1)", "example", "sequencer must be one of"),
        ("reversixt(map=1)", "random,random,random", "map must be the name of a packaged map"),
        ("reversixt(parsed=1)", "random,random,random", "unknown parameter 'parsed'"),
        ("iceandfire(league=1)", "random,random", "league must be one of"),
        ("isolation", "greedy(foo=1),random", "greedy: unknown parameter 'foo'; greedy takes name, seed"),
        ("isolation", "ab_improved(foo=1),random", "unknown parameter 'foo'"),
        ("isolation", "aind(player=math),random", "is not a class"),
        ("slidingpuzzle", "solver(width=3)", "solver: unknown parameter 'width'"),
    ],
)
def test_bad_parameters_are_one_line(
    spec: str, players: str, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", spec, "--players", players, "--quiet"]) == 1
    one_line(capsys.readouterr().err, words)


# -- item 5: ids beyond SQLite's integers ---------------------------------------------------------


def test_a_tournament_id_beyond_sqlite_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "r.sqlite"
    Store(db).close()
    assert main(["results", "--db", str(db), "--tournament", "99999999999999999999999"]) == 1
    one_line(capsys.readouterr().err, "no tournament with id 99999999999999999999999")


# -- item 8: a read-only database, a deeply nested replay ----------------------------------------

NOBODY = 65534


@pytest.fixture
def shared_folder() -> Iterator[Path]:
    """A folder another user can enter (pytest's tmp_path is private to root)."""
    folder = Path(tempfile.mkdtemp(prefix="gridarena-ro-"))
    folder.chmod(0o777)
    yield folder
    shutil.rmtree(folder)


def non_root() -> int | None:
    """The user to run as: ourselves when not root, else ``nobody`` through setpriv (None: impossible)."""
    if os.geteuid() != 0:
        return None
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: a read-only file cannot be made read-only for us")
    why = cannot_import_as(NOBODY)
    if why is not None:
        pytest.skip(why)
    return NOBODY


def private_folder(path: Path) -> Path | None:
    """The first folder above ``path`` that users other than its owner and group cannot enter."""
    for folder in reversed(path.parents):
        if not folder.stat().st_mode & 0o001:
            return folder
    return None


@functools.cache
def cannot_import_as(user: int) -> str | None:
    """Why ``user`` cannot run this Python and import gridarena (a checkout in a 0700 folder, as
    ``mktemp -d`` makes), or None when it can."""
    as_user = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups"]
    command = [*as_user, sys.executable, "-c", "import gridarena"]
    probe = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False, cwd="/")
    if probe.returncode == 0:
        return None
    source = Path(PACKAGE_INIT).resolve()
    blocked = private_folder(source) or private_folder(Path(sys.executable))
    where = f"{blocked} is private (mode {blocked.stat().st_mode & 0o777:o})" if blocked else "it cannot"
    return f"user {user} cannot import gridarena from {source.parent}: {where}; this test needs another user"


@pytest.mark.parametrize("folder_writable", [True, False])
def test_a_read_only_database_is_one_line(shared_folder: Path, folder_writable: bool) -> None:
    """SQLite refuses the write of a non-root user (root writes a 0444 file anyway, so the child drops
    to ``nobody``); with the folder read-only as well, the WAL files cannot be made either."""
    db = shared_folder / "ro.sqlite"
    with Store(db) as store:
        store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.chmod(0o444)
    shared_folder.chmod(0o777 if folder_writable else 0o555)
    before = db.read_bytes()
    user = non_root()
    done = gridarena(
        "tournament", "isolation(width=4,height=4)", "--players", "greedy,random", "--games", "2",
        "--seed", "1", "--db", str(db), "--quiet", user=user, cwd=shared_folder,
    )  # fmt: skip
    shared_folder.chmod(0o777)
    assert done.returncode == 1, done.stderr
    one_line(done.stderr, str(db), "cannot write the database", "read-only")
    assert db.read_bytes() == before
    with sqlite3.connect(db) as check:
        assert check.execute("SELECT COUNT(*) FROM tournaments").fetchone()[0] == 0


@pytest.mark.parametrize(
    "text",
    [
        "[" * 200_000,
        '{"header": {"format": "gridarena-replay", "version": 1}, "turns": ' + "[" * 200_000,
        '{"format": "gridarena-replay", "version": 1, "game": "isolation"}\n' + "[" * 100_000 + "\n{}\n",
        '{"format": "gridarena-replay", "version": 1}\n',
        '{"header": {"format": "gridarena-replay", "version": 1}}',
        '{"header": {"format": "gridarena-replay", "version": 1}, "turns": [1]}',
    ],
)
def test_a_hostile_replay_is_one_line(tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deep.jsonl"
    path.write_text(text)
    assert main(["replay", str(path)]) == 1
    one_line(capsys.readouterr().err, str(path))
