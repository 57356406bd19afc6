"""What the viewer costs: per game (issue 15) and per bot move on the play page (issue 31).

Replays: for each game, one seeded game is played with random moves (a 1,000-ply sliding puzzle: the
spec asks that a 1,000-ply replay loads in under a second) and written as a replay. The table gives the
median over repeats of: rebuilding every position with the engine (``view_of``, what the server does
once per replay), drawing one frame (the SVG the browser fetches per ply), and writing the whole
export, with the frame and export sizes. Baseline, in the same loop: reading the replay file alone.

Moves: the play page's bots think in worker processes (``gridarena.web.workers``). For each bot, the
same positions (from seeded random games) are played twice: by the bot in this process, built once
and asked for each move, as the server's game thread did before issue 31 (the baseline), and through
a worker of a one-worker pool, as the server does now (the position goes as JSON, the worker builds
the game and the bot with the request-safe constructors, plays, and answers as JSON). The table gives
the median wall time of a move over ``--moves`` positions, and what the worker adds.

Run: .venv/bin/python benchmarks/web.py [--repeats N] [--moves N] [--only replays|moves]
"""

from __future__ import annotations

import argparse
import os
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
from gridarena.core.clock import TimeControl
from gridarena.core.registry import make_bot_for_request, make_for_request
from gridarena.core.types import GameState
from gridarena.web.frames import view_of
from gridarena.web.pages import export_html
from gridarena.web.workers import WorkerPool

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


#: (game spec, bot spec, seconds on the bot's clock): the play page's opponents and hint bots.
MOVES = [
    ("isolation", "greedy", 1.0),
    ("isolation", "alphabeta(depth=3)", 5.0),
    ("isolation", "best(nodes=20000)", 5.0),
    ("slidingpuzzle(rows=3,cols=3,scramble=30)", "solver", 5.0),
]


def positions(spec: str, count: int, seed: int = 1) -> list[GameState[Any]]:
    """``count`` positions where a move is due, from seeded random games of ``spec``."""
    game, rng, found = make(spec), random.Random(seed), []
    while len(found) < count:
        state = game.new_initial_state(rng.randrange(1 << 30))
        while not state.is_terminal() and len(found) < count:
            found.append(state)
            state = state.apply_action(state.random_action(rng))
    return found


def move_row(pool: WorkerPool, spec: str, bot_spec: str, seconds: float, count: int) -> tuple[str, ...]:
    """Median ms of a move of ``bot_spec`` in this process and through a worker, on the same positions."""
    game = make_for_request(spec)
    states = positions(spec, count)
    bot = make_bot_for_request(game, bot_spec)
    local = []
    for state in states:
        bot.reset(game, state.current_player(), 1)
        began = time.perf_counter()
        bot.act(state, TimeControl.for_seconds(seconds))
        local.append(time.perf_counter() - began)
    lease = pool.reserve(timeout=60)
    assert lease is not None
    remote = []
    try:
        for state in states:
            job = {"op": "move", "game": spec, "bot": bot_spec, "state": state.to_json(), "seed": 1}
            job |= {"seat": state.current_player(), "seconds": seconds, "cpu": seconds}
            began = time.perf_counter()
            answer = lease.ask(job, seconds + 5)
            remote.append(time.perf_counter() - began)
            assert "error" not in answer, answer
    finally:
        lease.release()
    here, there = statistics.median(local) * 1000, statistics.median(remote) * 1000
    return (
        bot_spec,
        game.name,
        f"{here:.2f}",
        f"{there:.2f}",
        f"{there - here:+.2f}",
        f"{there / here:.1f}x",
    )


def moves_table(count: int) -> None:
    """The cost of a move through a worker process against the bot in this process."""
    print(f"\nA bot's move, median of {count} positions (ms of wall time); load {os.getloadavg()[0]:.2f}")
    header = ("bot", "game", "in-thread", "worker", "added", "ratio")
    print("".join(f"{h:>14}" if i else f"{h:<22}" for i, h in enumerate(header)))
    pool = WorkerPool(1)
    pool.start()
    try:
        for spec, bot_spec, seconds in MOVES:
            row = move_row(pool, spec, bot_spec, seconds, count)
            print("".join(f"{c:>14}" if i else f"{c:<22}" for i, c in enumerate(row)))
    finally:
        pool.close()
    print(f"load after: {os.getloadavg()[0]:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="runs per figure (median reported)")
    parser.add_argument("--moves", type=int, default=200, help="positions per bot in the moves table")
    parser.add_argument("--only", choices=("replays", "moves"), help="print one of the two tables")
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, median of {args.repeats}")
    if args.only != "moves":
        header = ("game", "plies", "read ms", "rebuild ms", "frame ms", "frame kB", "export ms", "export MB")
        print("".join(f"{h:>14}" if i else f"{h:<28}" for i, h in enumerate(header)))
        rng = random.Random(1)
        with tempfile.TemporaryDirectory() as tmp:
            for label, (spec, players) in SPECS.items():
                row = measure(label, record(spec, players, Path(tmp)), args.repeats, rng)
                print("".join(f"{c:>14}" if i else f"{c:<28}" for i, c in enumerate(row)))
    if args.only != "replays":
        moves_table(args.moves)


if __name__ == "__main__":
    main()
