"""Bot programs that leave processes behind, for the tests that no process outlives its game.

Every process such a bot starts carries a token in its command line (``sleep 3172.123456``, or the
script's own path), so :func:`survivors` finds them in ``/proc``; each test writes its bots with a
fresh token. The bots that play speak ``jsonl`` through ``examples/random_bot.py`` or CodinGame's
protocol through ``gridarena.cli.iceandfire bot``.
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RANDOM_BOT = ROOT / "examples" / "random_bot.py"
#: A CodinGame program: our Wood 1 bot behind the protocol, started the quick way.
CODINGAME_BOT = f"{sys.executable} -m gridarena.cli.iceandfire bot wood1"
JSONL_BOT = f"{sys.executable} {RANDOM_BOT}"

#: Shell bots: ``{sleep}`` is the token's sleep command, ``{play}`` the program that then plays.
SHELL = {
    # A child in the bot's group, one in a session of its own, and an orphaned grandchild.
    "forks": "{sleep} &\nsetsid {sleep} &\n( {sleep} & ) &\nexec {play}\n",
    # Exits at once, its child holding stdout open.
    "exits": "{sleep} &\nexit 0\n",
    # Closes its output and goes on running.
    "closes": "exec >&-\n{sleep}\n",
}

#: A Python daemon: fork, setsid, fork again, the grandchild sleeps; the bot itself then plays.
DAEMON = """\
import os, sys
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execvp("sleep", ["sleep", {token!r}])
    os._exit(0)
os.wait()
os.execvp({python!r}, [{python!r}, *{play!r}.split()[1:]])
"""


def new_token() -> str:
    """A number for ``sleep`` that no other process on the machine has in its command line."""
    return f"3172.{random.SystemRandom().randrange(10**8):08d}"


def shell_bot(directory: Path, kind: str, token: str, play: str = JSONL_BOT) -> str:
    """The command of a shell bot of ``kind`` (a key of :data:`SHELL`)."""
    path = directory / f"bot-{kind}-{token}.sh"
    path.write_text("#!/bin/sh\n" + SHELL[kind].format(sleep=f"sleep {token}", play=play))
    return f"sh {path}"


def daemon_bot(directory: Path, token: str, play: str = JSONL_BOT) -> str:
    """The command of the Python daemon bot."""
    path = directory / f"bot-daemon-{token}.py"
    path.write_text(DAEMON.format(token=token, python=sys.executable, play=play))
    return f"{sys.executable} {path}"


def survivors(token: str, sleeping: bool = False) -> list[int]:
    """Live processes (not zombies) whose command line holds ``token`` (``sleeping``: only the sleeps)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:  # gone meanwhile
            continue
        if cmdline == f"sleep\0{token}\0".encode() if sleeping else token.encode() in cmdline:
            found.append(int(entry.name))
    return found


def wait_for_survivors(token: str, count: int, seconds: float = 5.0) -> list[int]:
    """The token's sleeps once there are ``count`` of them (or whatever there is after ``seconds``)."""
    deadline = time.monotonic() + seconds
    while len(found := survivors(token, sleeping=True)) < count and time.monotonic() < deadline:
        time.sleep(0.02)
    return found


def reap_leftovers(token: str) -> list[int]:
    """Kill (by pid) what a failed test left behind; the pids it found."""
    found = survivors(token)
    for pid in found:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    return found
