"""What the keeper costs an external bot: start a program, one round trip, close it (issue 23).

Baseline, run alternately in the same loop: the program started as the arena started it before the
keeper (``subprocess.Popen`` in a process group of its own, stderr to a temporary file, the group
killed with SIGKILL at the end). New: :class:`gridarena.bots.program.Program`, the program under its
keeper (a child subreaper that kills and reaps every process the program started). The keeper is
paid once per bot per game, at start-up, which no clock charges; the round trip is the same pipe.

Run: .venv/bin/python benchmarks/external.py [--repeats N]
"""

from __future__ import annotations

import argparse
import os
import platform
import selectors
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from gridarena.bots.program import Program

ROOT = Path(__file__).resolve().parents[1]
PROGRAMS = {
    "cat (C, echoes)": ["cat"],
    "python3 echo loop": [
        sys.executable,
        "-c",
        "import sys\nfor line in sys.stdin: print(line, end='', flush=True)",
    ],
}


def round_trip(stdin: int, stdout: int) -> None:
    """Write one line and read it back."""
    os.write(stdin, b"ping\n")
    with selectors.DefaultSelector() as selector:
        selector.register(stdout, selectors.EVENT_READ)
        data = b""
        while not data.endswith(b"\n"):
            selector.select(10.0)
            data += os.read(stdout, 4096)


def direct(argv: list[str]) -> None:
    """The program as the arena ran it before the keeper."""
    with tempfile.TemporaryFile() as spool:
        process = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=spool, process_group=0
        )
        assert process.stdin is not None and process.stdout is not None
        round_trip(process.stdin.fileno(), process.stdout.fileno())
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        process.stdin.close()
        process.stdout.close()


def kept(argv: list[str]) -> None:
    """The program under its keeper."""
    program = Program(argv)
    round_trip(program.stdin, program.stdout)
    program.kill()


def timed(run: Callable[[list[str]], None], argv: list[str]) -> float:
    started = time.perf_counter()
    run(argv)
    return (time.perf_counter() - started) * 1000.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=30, help="runs of each (default 30)")
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")
    print(
        f"{'program':<20} {'direct ms':>10} {'keeper ms':>10} {'extra ms':>9}   (medians of {args.repeats})"
    )
    for name, argv in PROGRAMS.items():
        times: dict[str, list[float]] = {"direct": [], "kept": []}
        for _ in range(args.repeats):  # alternately, so that the load changes both alike
            times["direct"].append(timed(direct, argv))
            times["kept"].append(timed(kept, argv))
        base, new = statistics.median(times["direct"]), statistics.median(times["kept"])
        print(f"{name:<20} {base:>10.1f} {new:>10.1f} {new - base:>9.1f}")
    print(f"load after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
