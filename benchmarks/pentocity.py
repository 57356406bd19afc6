"""Pentocity: placement enumeration vectorised over the grid against a loop per cell, and whole games.

Usage: ``python benchmarks/pentocity.py [--positions 8] [--repeat 5] [--seed 1]
[--players best,group1,rowbyrow] [--games 3] [--sequencer random,g6,g9] [--only players]``

Part 1 enumerates every valid (rotation, location) of a request on seeded mid-game lands, once with
``placement_mask`` (numpy shifts over whole grids) and once with the baseline: the rules' own check per
candidate (``resolve_move`` per location and rotation, as a Java-style player calling ``buildable`` in a
loop would). Both must find the same placements; the table shows the median time per position and the
speed-up over the baseline measured in the same process. Part 2 times whole games (median of
``--repeat``). Part 3 gives the seconds per game of each player (``--players``) on the first ``--games``
seeds of the 2016 tournament, one table per sequencer of ``--sequencer`` (comma-separated): median
wall-clock and CPU seconds per game, the mean score, and the time ratio against ``rowbyrow`` run in the
same process. Nothing is compiled: no warm-up to exclude.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import numpy as np

from gridarena.bots.base import RandomBot
from gridarena.core.bot import Bot
from gridarena.core.play import GameRecord
from gridarena.core.registry import make_bot
from gridarena.games.pentocity.ai.simple import ExampleBot, RowByRowBot
from gridarena.games.pentocity.land import SIDE, Move, placement_mask
from gridarena.games.pentocity.placement import Placement, resolve_move
from gridarena.games.pentocity.reference import SEEDS_2016
from gridarena.games.pentocity.rules import Pentocity, PentocityState
from gridarena.games.pentocity.sequencers import make_sequencer, take
from gridarena.games.pentocity.simulator import play

Placements = set[tuple[int, int, int]]


def positions(count: int, seed: int) -> list[PentocityState]:
    """Seeded player-turn states 40 to 120 random plies into a ``random`` game."""
    rng = random.Random(seed)
    found: list[PentocityState] = []
    requests = take(make_sequencer("random", seed), count)
    while len(found) < count:
        state = Pentocity().new_initial_state(seed=rng.randrange(1 << 30))
        for _ in range(rng.randint(40, 120)):
            state = state.apply_action(state.random_action(rng))
            if state.is_terminal():
                break
        if not state.is_terminal():
            request = requests[len(found)]
            found.append(PentocityState(state.game, state.land, state.sequencer, request))
    return found


def vectorised(state: PentocityState) -> Placements:
    assert state.request is not None
    out: Placements = set()
    for r, shape in enumerate(state.request.rotations()):
        mask = placement_mask(state.land, shape, state.request.kind, state.pentocity.mode)
        out.update((r, int(i), int(j)) for i, j in np.argwhere(mask))
    return out


def per_cell(state: PentocityState) -> Placements:
    assert state.request is not None
    out: Placements = set()
    for r in range(len(state.request.rotations())):
        for i in range(SIDE):
            for j in range(SIDE):
                result = resolve_move(state.land, state.request, Move.build((i, j), r), state.pentocity.mode)
                if isinstance(result, Placement):
                    out.add((r, i, j))
    return out


def median_time(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def time_games(game: Pentocity, make: Callable[[int], Bot], repeat: int) -> tuple[float, GameRecord]:
    """Median seconds of a whole game (sequencer seed 869, bot seed 1) and the last game's record."""
    records: list[GameRecord] = []
    seconds = median_time(lambda: records.append(play(game, make(1), seed=869)), repeat)
    return seconds, records[-1]


def player_times(spec: str, sequencer: str, games: int) -> tuple[float, float, float]:
    """Median wall and CPU seconds per game of ``spec`` and its mean score, on the first 2016 seeds."""
    walls, cpus, scores = [], [], []
    for seed in SEEDS_2016[:games]:
        game = Pentocity(sequencer=sequencer, cpu_time=None)
        bot = make_bot(game, spec, seed=seed)
        start = time.perf_counter()
        record = play(game, bot, seed=seed)
        walls.append(time.perf_counter() - start)
        cpus.append(sum(t.cpu_ms for t in record.turns) / 1000)
        scores.append(record.final_state.score)
    return statistics.median(walls), statistics.median(cpus), statistics.fmean(scores)


def players_table(specs: list[str], sequencer: str, games: int) -> None:
    """Part 3: seconds per game per player, with the ratio to ``rowbyrow`` timed in this process."""
    print(f"seconds per game on {sequencer}, 2016 seeds {list(SEEDS_2016[:games])}")
    print(f"{'player':<16}{'median s':>10}{'median cpu s':>14}{'mean score':>12}{'x rowbyrow':>12}")
    base = player_times("rowbyrow", sequencer, games)[0]
    for spec in specs:
        wall, cpu, score = player_times(spec, sequencer, games)
        print(f"{spec:<16}{wall:>10.2f}{cpu:>14.2f}{score:>12.1f}{wall / base:>12.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--players", default="best,packer,group1,components,jigsaw,shortroad,diagonal,rowbyrow"
    )
    parser.add_argument("--games", type=int, default=3, help="games per player (the first 2016 seeds)")
    parser.add_argument("--sequencer", default="random", help="comma-separated sequencers of part 3")
    parser.add_argument("--only", choices=["enumeration", "players"], help="run one part only")
    args = parser.parse_args()
    if args.only != "enumeration":
        for sequencer in args.sequencer.split(","):
            players_table(args.players.split(","), sequencer, args.games)
            print()
    if args.only == "players":
        return
    states = positions(args.positions, args.seed)
    for state in states:
        assert vectorised(state) == per_cell(state), "the two enumerations disagree"
    found = sum(len(vectorised(s)) for s in states)
    base = median_time(lambda: [per_cell(s) for s in states], max(1, args.repeat // 2)) / len(states)
    fast = median_time(lambda: [vectorised(s) for s in states], args.repeat) / len(states)
    print(f"placement enumeration, {len(states)} positions, {found} valid placements in all")
    print(f"{'method':<28}{'median ms/position':>20}{'speed-up':>10}")
    print(f"{'per cell (baseline)':<28}{base * 1e3:>20.2f}{1.0:>10.1f}")
    print(f"{'vectorised placement_mask':<28}{fast * 1e3:>20.2f}{base / fast:>10.1f}")
    print()
    print(f"{'whole game (random, 869)':<28}{'median s':>10}{'score':>8}{'requests':>10}{'ms/request':>12}")
    game = Pentocity(cpu_time=None)
    for name, make in (("random", RandomBot), ("example (g0)", ExampleBot), ("rowbyrow", RowByRowBot)):
        seconds, record = time_games(game, make, args.repeat)
        last = record.final_state
        print(
            f"{name:<28}{seconds:>10.3f}{last.score:>8}{last.requests:>10}{seconds / last.requests * 1e3:>12.2f}"
        )


if __name__ == "__main__":
    main()
