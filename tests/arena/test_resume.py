"""Kill -9 and resume: a tournament killed at random points several times ends with exactly the
scheduled games, none twice, and the same results as an uninterrupted run with the same seed."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from arenabots import BOTS

from gridarena.arena.backends import InlineBackend
from gridarena.arena.schedule import schedule
from gridarena.arena.store import Store
from gridarena.arena.tournament import TournamentConfig, run_tournament

CONFIG = TournamentConfig(
    "isolation(width=5,height=5)",
    ("slowgreedy(pause=0.004)", "random", "random(name=r2)"),
    games=8,
    seed=11,
    extra_bots=BOTS,
)

SCRIPT = """
import sys
from gridarena.arena.backends import InlineBackend, ProcessBackend
from gridarena.arena.store import Store
from gridarena.arena.tournament import TournamentConfig, run_tournament
if __name__ == "__main__":  # worker processes import this file again
    config = TournamentConfig.from_json({config!r})
    resume = int(sys.argv[2]) or None
    backend = ProcessBackend(2) if sys.argv[3] == "process" else InlineBackend()
    try:
        outcome = run_tournament(None if resume else config, Store(sys.argv[1]), backend, resume=resume)
    finally:
        backend.close()
    print(outcome.status)
"""


def _stored(db: Path) -> int:
    if not db.exists():
        return 0
    with sqlite3.connect(db, timeout=5) as conn:
        try:
            return int(conn.execute("SELECT COUNT(*) FROM games").fetchone()[0])
        except sqlite3.OperationalError:  # the schema is not there yet
            return 0


def _start(script: Path, db: Path, resume: bool, backend: str = "inline") -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).parent), *sys.path])}
    argv = [sys.executable, str(script), str(db), "1" if resume else "0", backend]
    return subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _kill_after(process: subprocess.Popen[bytes], db: Path, target: int, limit: float = 30.0) -> bool:
    """SIGKILL ``process`` once ``target`` games are stored; False if it finished first."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return False
        if _stored(db) >= target:
            process.send_signal(signal.SIGKILL)
            process.wait()
            return True
        time.sleep(0.002)
    process.kill()
    raise AssertionError("the tournament made no progress")


def test_kill_nine_at_random_points_then_resume(tmp_path: Path) -> None:
    script = tmp_path / "run.py"
    script.write_text(textwrap.dedent(SCRIPT).format(config=CONFIG.to_json()))
    db = tmp_path / "killed.sqlite"
    rng = random.Random(20261122)
    total = len(schedule(3, seats=2, games=8, master=11)) * 2
    kills = 0
    for attempt in range(3):
        target = min(total - 1, _stored(db) + rng.randint(2, 6))
        # The first run uses worker processes (killed with their coordinator), the others play inline.
        backend = "process" if attempt == 0 else "inline"
        if _kill_after(_start(script, db, resume=attempt > 0, backend=backend), db, target):
            kills += 1
    final = _start(script, db, resume=True)
    out, err = final.communicate(timeout=60)
    assert final.returncode == 0, err.decode()
    assert out.decode().split() == ["done"]
    assert kills >= 2

    store = Store(db)
    rows = store.games(1, done_only=False)
    keys = [(r["block"], r["game"]) for r in rows]
    assert len(keys) == len(set(keys)) == total
    assert all(b.status == "done" for b in store.blocks(1))
    reference = Store(tmp_path / "reference.sqlite")
    run_tournament(CONFIG, reference, InlineBackend())
    fields = ("block", "game", "seats", "returns", "ranks", "termination", "plies")
    assert [[r[f] for f in fields] for r in rows] == [[r[f] for f in fields] for r in reference.games(1)]
    assert [p.name for p in sorted(store.replay_dir(1).iterdir())] == sorted(
        f"{b}-{g}.json.gz" for b, g in keys
    )


CLI = """
import sys
from gridarena.cli import tournament
import argparse
if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    tournament.configure(parser)
    sys.exit(tournament.run(parser.parse_args(sys.argv[1:])))
"""


def test_the_first_ctrl_c_lets_games_finish_and_exits_130_with_the_resume_command(tmp_path: Path) -> None:
    script = tmp_path / "cli.py"
    script.write_text(textwrap.dedent(CLI))
    db = tmp_path / "int.sqlite"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).parent), *sys.path])}
    argv = [sys.executable, str(script), "isolation(width=5,height=5)", "--players", "greedy,random"]
    argv += ["--games", "200", "--seed", "3", "--db", str(db), "--backend", "inline", "--quiet"]
    process = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while _stored(db) < 4 and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.005)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130, err.decode()
    assert f"--resume 1 --db {db}" in err.decode()
    store = Store(db)
    assert store.tournament(1).status == "stopped"
    stored = store.games(1, done_only=False)
    assert 4 <= len(stored) < 200
    # one game at a time: only the pair whose first game was in flight can be left half played
    assert sum(b.status == "running" for b in store.blocks(1)) <= 1
    assert "tournament 1" in out.decode()  # the report of what was played
