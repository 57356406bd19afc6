"""What the viewer costs per game (issue 15): rebuilding a replay, drawing one frame, the one-file export.

For each game, one seeded game is played with random moves (a 1,000-ply sliding puzzle: the spec asks
that a 1,000-ply replay loads in under a second) and written as a replay. The table gives the median
over repeats of: rebuilding every position with the engine (``view_of``, what the server does once per
replay), drawing one frame (the SVG the browser fetches per ply), and writing the whole export, with
the frame and export sizes. Baseline, in the same loop: reading the replay file alone (``read_replay``).

Run: .venv/bin/python benchmarks/web.py [--repeats N]
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gridarena import make, make_bot, play_game
from gridarena.arena.replay import ReplayRecorder, read_replay
from gridarena.web.frames import view_of
from gridarena.web.pages import export_html

SPECS = {
    "isolation": ("isolation", ["greedy", "random"]),
    "slidingpuzzle (1,000 plies)": ("slidingpuzzle(rows=4,cols=4,scramble=400,max_moves=1000)", ["random"]),
    "pentocity": ("pentocity", ["example"]),
}


def record(spec: str, players: list[str], folder: Path) -> Path:
    game = make(spec)
    path = folder / f"{game.name}.jsonl"
    bots = [make_bot(game, p) for p in players]
    recorder = ReplayRecorder(path, game, players, 3, game.new_initial_state(3))
    play_game(game, bots, seed=3, names=players, recorders=[recorder])
    return path


def median_ms(fn: Callable[[], Any], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def measure(label: str, path: Path, repeats: int, rng: random.Random) -> tuple[Any, ...]:
    """One row of the table for the replay at ``path``."""
    replay = read_replay(path)
    view = view_of(replay)
    assert view.problem is None, view.problem
    plies = iter([rng.randrange(view.plies + 1) for _ in range(repeats)])
    read = median_ms(lambda: read_replay(path), repeats)
    rebuild = median_ms(lambda: view_of(replay), repeats)
    frame = median_ms(lambda: view.frame(next(plies)), repeats)
    size = statistics.median(len(view.frame(p)) for p in range(0, view.plies + 1, max(1, view.plies // 20)))
    exported: list[str] = []
    export_ms = median_ms(
        lambda: exported.append(export_html(label, view.payload(kind="file"), view.frames())), 2
    )
    return (
        label,
        view.plies,
        f"{read:.1f}",
        f"{rebuild:.1f}",
        f"{frame:.2f}",
        f"{size / 1000:.1f}",
        f"{export_ms:.0f}",
        f"{len(exported[-1]) / 1e6:.2f}",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="runs per figure (median reported)")
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, median of {args.repeats}")
    header = ("game", "plies", "read ms", "rebuild ms", "frame ms", "frame kB", "export ms", "export MB")
    print("".join(f"{h:>14}" if i else f"{h:<28}" for i, h in enumerate(header)))
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as tmp:
        for label, (spec, players) in SPECS.items():
            row = measure(label, record(spec, players, Path(tmp)), args.repeats, rng)
            print("".join(f"{c:>14}" if i else f"{c:<28}" for i, c in enumerate(row)))


if __name__ == "__main__":
    main()
