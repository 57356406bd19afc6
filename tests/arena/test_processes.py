"""No process outlives its game: external bots that fork, fork twice, call ``setsid`` or exit early leave
nothing behind, through the loop, ``gridarena play``, ``iceandfire match`` and ``tournament`` on every
backend; a program that exits while its child holds its output is a crash, not a timeout."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from procbots import (
    CODINGAME_BOT,
    JSONL_BOT,
    daemon_bot,
    new_token,
    reap_leftovers,
    shell_bot,
    survivors,
    wait_for_survivors,
)

from gridarena.bots.external import ExternalBot
from gridarena.core.play import play_game
from gridarena.core.registry import make, make_bot

ISOLATION = "isolation(width=5,height=5)"
GAME = make(ISOLATION)
ICEANDFIRE = make("iceandfire")


@pytest.fixture
def token() -> Iterator[str]:
    """A fresh token; whatever a failed test left behind is killed (by pid) afterwards."""
    token = new_token()
    yield token
    reap_leftovers(token)


class Census:
    """A recorder that counts the token's processes at the first ply: the bots really started them."""

    def __init__(self, token: str) -> None:
        self.token, self.counts = token, list[int]()

    def turn(self, turn: Any, state: Any) -> None:
        if not self.counts:
            self.counts.append(len(survivors(self.token, sleeping=True)))

    def result(self, record: Any) -> None:
        """Nothing to count at the end."""


def gridarena(*argv: str) -> dict[str, Any]:
    """Run the command line in a fresh process; its JSON output."""
    done = subprocess.run(
        [sys.executable, "-m", "gridarena", *argv, "--json"], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


@pytest.mark.parametrize("protocol", ["jsonl", "codingame"])
def test_a_program_that_exits_while_its_child_holds_its_output_is_a_crash(
    tmp_path: Path, token: str, protocol: str
) -> None:
    game = GAME if protocol == "jsonl" else ICEANDFIRE
    bot = ExternalBot(shell_bot(tmp_path, "exits", token), name="ext", protocol=protocol)
    started = time.perf_counter()
    record = play_game(game, [bot, make_bot(game, "random")], seed=1, names=["ext", "rnd"], time_per_move=5.0)
    seconds = time.perf_counter() - started
    bot.close()
    outcome = record.outcome
    assert (outcome.termination, outcome.forfeit_player) == ("crash", 0), outcome.reason
    assert "(exit code 0)" in outcome.reason and seconds < 4.0
    assert survivors(token) == []


def test_a_program_that_closes_its_output_and_runs_on_is_a_crash(tmp_path: Path, token: str) -> None:
    bot = ExternalBot(shell_bot(tmp_path, "closes", token), name="ext")
    started = time.perf_counter()
    record = play_game(GAME, [bot, make_bot(GAME, "random")], seed=1, names=["ext", "rnd"], time_per_move=5.0)
    bot.close()
    # Issue 31: named as what happened, not "exited during start-up (exit code None)".
    reason = record.outcome.reason
    assert (
        record.outcome.termination == "crash"
        and "closed its output during start-up (still running)" in reason
    )
    assert "exit code" not in reason
    assert time.perf_counter() - started < 8.0 and survivors(token) == []


@pytest.mark.parametrize("kind,started", [("forks", 3), ("daemon", 1)])
def test_every_process_a_bot_starts_dies_with_its_game(
    tmp_path: Path, token: str, kind: str, started: int
) -> None:
    cmd = daemon_bot(tmp_path, token) if kind == "daemon" else shell_bot(tmp_path, kind, token)
    bot = ExternalBot(cmd, name="ext")
    census = Census(token)
    record = play_game(
        GAME, [bot, make_bot(GAME, "greedy")], seed=2, time_per_move=5.0, recorders=[census], names=["e", "g"]
    )
    bot.close()
    assert record.outcome.termination == "normal", record.outcome.reason
    assert census.counts == [started]  # group member, setsid, double fork: all running during the game
    assert survivors(token) == []


def test_the_processes_of_a_bot_die_with_the_process_that_runs_its_game(tmp_path: Path, token: str) -> None:
    """A worker killed at the hard limit (or any arena killed with SIGKILL) leaves no bot behind."""
    cmd = shell_bot(tmp_path, "forks", token)
    script = (
        "import sys, time\n"
        "from gridarena.bots.external import ExternalBot\n"
        "from gridarena.core.registry import make\n"
        f"ExternalBot({cmd!r}).reset(make({ISOLATION!r}), 0, 1)\n"
        "print('started', flush=True)\n"
        "time.sleep(60)\n"
    )
    arena = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert arena.stdout is not None and arena.stdout.readline() == "started\n"
    assert len(wait_for_survivors(token, 3)) == 3
    arena.kill()
    arena.wait()
    deadline = time.monotonic() + 5.0
    while survivors(token) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert survivors(token) == []


def _players(tmp_path: Path, token: str, play: str) -> tuple[str, str, str]:
    """A bot that forks in every way, a daemon, and one that exits at once: the three commands."""
    return (
        shell_bot(tmp_path, "forks", token, play),
        daemon_bot(tmp_path, token, play),
        shell_bot(tmp_path, "exits", token),
    )


def test_gridarena_play_leaves_no_process(tmp_path: Path, token: str) -> None:
    forks, daemon, exits = _players(tmp_path, token, JSONL_BOT)
    both = gridarena("play", ISOLATION, "--players", f"external(cmd='{forks}'),external(cmd='{daemon}')")
    assert both["termination"] == "normal" and survivors(token) == []
    early = gridarena("play", ISOLATION, "--players", f"greedy,external(cmd='{exits}')", "--time", "5")
    assert early["termination"] == "crash" and survivors(token) == []


def test_iceandfire_match_leaves_no_process(tmp_path: Path, token: str) -> None:
    forks, daemon, exits = _players(tmp_path, token, CODINGAME_BOT)
    gridarena("iceandfire", "match", "--p1", forks, "--p2", daemon, "--seed", "3", "--first-turn-ms", "10000")
    assert survivors(token) == []
    early = gridarena("iceandfire", "match", "--p1", "wood1", "--p2", exits, "--seed", "3")
    assert early["termination"] == "crash" and survivors(token) == []


RAY = pytest.param(
    "ray",
    marks=[
        pytest.mark.slow,  # a local Ray takes about 10 s to start here
        pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="Ray is not installed"),
    ],
)


@pytest.mark.parametrize("backend", ["inline", "process", RAY])
def test_a_tournament_leaves_no_process(tmp_path: Path, token: str, backend: str) -> None:
    forks, daemon, exits = _players(tmp_path, token, JSONL_BOT)
    players = f"external(cmd='{forks}',name=forks),external(cmd='{daemon}',name=daemon),external(cmd='{exits}',name=exits)"
    report = gridarena(
        "tournament", ISOLATION, "--players", players, "--games", "2", "--seed", "4", "--time", "5",
        "--db", str(tmp_path / "t.sqlite"), "--backend", backend, "--concurrency", "2",
    )  # fmt: skip
    assert report["games"] == 6 and report["forfeits"]["exits"] == {"crash": 4}
    assert survivors(token) == []


def test_the_exit_of_a_program_killed_by_a_signal_names_the_signal(tmp_path: Path) -> None:
    script = tmp_path / "suicide.py"
    script.write_text("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n")
    bot = ExternalBot(f"{sys.executable} {script}", name="ext")
    record = play_game(GAME, [bot, make_bot(GAME, "random")], seed=1, names=["ext", "rnd"])
    bot.close()
    assert record.outcome.termination == "crash" and "(exit code -9)" in record.outcome.reason
