"""Start-up time of the command line (issue 17): ``gridarena --version``, ``--help`` and ``games``.

Each command runs as a fresh process (the console script of this venv), repeated; the table gives the
median and the best wall time. Baseline, run alternately in the same loop: a Python process that builds
the full parser (every subcommand's module imported, as ``gridarena`` did for every command before
the parser became lazy). Target: ``--version`` and ``--help`` at most 0.3 s.

Run: .venv/bin/python benchmarks/cli.py [--repeats N] [--against ../main/.venv/bin]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

BIN = Path(sys.executable).parent / "gridarena"
CASES = {
    "gridarena --version": [str(BIN), "--version"],
    "gridarena --help": [str(BIN), "--help"],
    "gridarena games": [str(BIN), "games"],
    "baseline: full parser": [
        sys.executable,
        "-c",
        "from gridarena.cli.main import build_parser; build_parser()",
    ],
}


def timed(command: list[str]) -> float:
    """Wall seconds of one run of ``command`` (its output discarded)."""
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeats", type=int, default=15, help="runs of each command (default 15)")
    parser.add_argument(
        "--against",
        metavar="BIN",
        help="also time BIN/gridarena --version (another checkout's venv, e.g. main's) in the same loop",
    )
    args = parser.parse_args()
    if args.against:
        CASES[f"{args.against}/gridarena --version"] = [str(Path(args.against) / "gridarena"), "--version"]
    for command in CASES.values():  # warm the file cache and the .pyc files
        timed(command)
    times: dict[str, list[float]] = {name: [] for name in CASES}
    for _ in range(args.repeats):
        for name, command in CASES.items():
            times[name].append(timed(command))
    base = statistics.median(times["baseline: full parser"])
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}"
    )
    width = max(24, *map(len, times))
    print(f"{'command':<{width}} {'median s':>9} {'best s':>7} {'vs baseline':>12}")
    for name, values in times.items():
        median = statistics.median(values)
        print(f"{name:<{width}} {median:>9.3f} {min(values):>7.3f} {base / median:>11.1f}x")
    verdict = all(statistics.median(times[n]) <= 0.3 for n in ("gridarena --version", "gridarena --help"))
    print(f"target --version and --help <= 0.3 s: {'met' if verdict else 'NOT met'}")


if __name__ == "__main__":
    main()
