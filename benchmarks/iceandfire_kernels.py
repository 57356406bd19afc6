"""Ice and Fire: the referee alone, and the numba kernels against the clear rules they are checked on.

1. The referee replaying recorded random games (the turns are drawn first, so only ``child`` is
   timed): games, plies and commands per second, next to the same games drawn and played (what
   ``benchmarks/iceandfire.py`` measures).
2. Each kernel on positions of random games (every tenth ply of three games), beside the clear
   rule it replaces where there is one in ``rules.py`` (a breadth-first flood fill, a cut found by
   flooding once per cell, the capture predicate tried level by level), in the same process: the
   median microseconds per call over ``--repeats`` runs and the ratio. The first call of each
   kernel in this process (compilation, or numba's cache) is printed apart.

    .venv/bin/python benchmarks/iceandfire_kernels.py [--games 30] [--repeats 5]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from gridarena.games.iceandfire import kernels as K
from gridarena.games.iceandfire.rules import (
    HQ_CELLS,
    IceAndFire,
    IceAndFireState,
    cells_mask,
    flood,
    territory_bfs,
)


def recorded_games(count: int) -> tuple[list[list[tuple]], float]:
    """The turns of ``count`` random games (seeds 0..count-1) and the seconds drawing and playing took."""
    game, games = IceAndFire(), []
    start = time.perf_counter()
    for seed in range(count):
        rng, state, turns = random.Random(seed), game.new_initial_state(seed), []
        while not state.is_terminal():
            turn = state.random_action(rng)
            turns.append(turn)
            state = state.child(turn)
        games.append(turns)
    return games, time.perf_counter() - start


def replay(games: list[list[tuple]]) -> float:
    game = IceAndFire()
    start = time.perf_counter()
    for seed, turns in enumerate(games):
        state = game.new_initial_state(seed)
        for turn in turns:
            state = state.child(turn)
    return time.perf_counter() - start


def positions() -> list[IceAndFireState]:
    found = []
    for seed in (3, 10, 117):
        rng, state, ply = random.Random(seed), IceAndFire().new_initial_state(seed), 0
        while not state.is_terminal():
            state = state.child(state.random_action(rng))
            ply += 1
            if ply % 10 == 0 and not state.is_terminal():
                found.append(state)
    return found


def median_us(calls: list[Callable[[], object]], repeats: int) -> float:
    """Median over ``repeats`` runs of the mean time of one call (all ``calls`` once per run)."""
    runs = []
    for _ in range(repeats):
        start = time.perf_counter()
        for call in calls:
            call()
        runs.append((time.perf_counter() - start) / len(calls) * 1e6)
    return statistics.median(runs)


def clear_cuts(state: IceAndFireState, player: int) -> list[int]:
    """Cells lost per capture, by one breadth-first flood per cell (the rules' way)."""
    active = territory_bfs(state.owner, state.board.neighbours, player)
    lost = []
    for cell in active - {HQ_CELLS[player]}:
        owner = bytearray(state.owner)
        owner[cell] = 1 - player
        lost.append(len(active) - 1 - len(territory_bfs(bytes(owner), state.board.neighbours, player)))
    return lost


def clear_levels(state: IceAndFireState, player: int) -> list[int]:
    return [
        next((lv for lv in (1, 2, 3) if state.capturable(c, player, lv)), 0) if not state.board.void[c] else 0
        for c in range(144)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")

    games, drawn = recorded_games(args.games)
    plies = sum(map(len, games))
    commands = sum(len(t) for g in games for t in g)
    alone = statistics.median(replay(games) for _ in range(args.repeats))
    print(
        f"\n{args.games} random games, {plies / args.games:.0f} plies and {commands / plies:.1f} commands a ply"
    )
    print(f"{'':34s} {'games/s':>9s} {'plies/s':>9s} {'commands/s':>11s}")
    print(
        f"{'drawn and played (once)':34s} {args.games / drawn:9.1f} {plies / drawn:9.0f} {commands / drawn:11.0f}"
    )
    print(
        f"{'referee alone (median)':34s} {args.games / alone:9.1f} {plies / alone:9.0f} {commands / alone:11.0f}"
    )

    states = positions()
    arrays = [K.arrays_from_state(s) for s in states]
    first = {}
    for name, call in {
        "flood_active": lambda a: K.flood_active(a.owner, 0, 0, a.nbr),
        "cut_values": lambda a: K.cut_values(a.owner, 0, 0, a.nbr, a.unit_level),
        "capture_levels": lambda a: K.capture_levels(
            a.owner, a.active, a.unit_level, a.building, a.nbr, 0, 3
        ),
        "chain_costs": lambda a: K.chain_costs(a.owner, a.active, a.unit_level, a.nbr, 0),
        "distances": lambda a: K.distances(a.nbr),
    }.items():
        start = time.perf_counter()
        call(arrays[0])
        first[name] = (time.perf_counter() - start) * 1000
    levels = [K.capture_levels(a.owner, a.active, a.unit_level, a.building, a.nbr, 0, 3) for a in arrays]
    rows = [
        ("activity of one player", [lambda s=s: territory_bfs(s.owner, s.board.neighbours, 0) for s in states],
         [lambda a=a: K.flood_active(a.owner, 0, 0, a.nbr) for a in arrays]),
        ("  (the referee's bit-mask flood)", None,
         [lambda s=s: flood(1, cells_mask(s.owner, 0)) for s in states]),
        ("every cut of one player", [lambda s=s: clear_cuts(s, 0) for s in states],
         [lambda a=a: K.cut_values(a.owner, 0, 0, a.nbr, a.unit_level) for a in arrays]),
        ("lowest level entering each cell", [lambda s=s: clear_levels(s, 0) for s in states],
         [lambda a=a: K.capture_levels(a.owner, a.active, a.unit_level, a.building, a.nbr, 0, 3) for a in arrays]),
        ("chain-train costs (Dijkstra)", None,
         [lambda a=a, lv=lv: K.chain_costs(a.owner, a.active, lv, a.nbr, 0) for a, lv in zip(arrays, levels, strict=True)]),
        ("state to arrays", None, [lambda s=s: K.arrays_from_state(s) for s in states]),
    ]  # fmt: skip
    print(f"\n{len(states)} positions; median µs per call over {args.repeats} runs")
    print(f"{'':34s} {'clear rules':>12s} {'kernel':>10s} {'ratio':>7s}")
    for name, clear, fast in rows:
        fast_us = median_us(fast, args.repeats)
        if clear is None:
            print(f"{name:34s} {'':>12s} {fast_us:10.2f}")
            continue
        clear_us = median_us(clear, args.repeats)
        print(f"{name:34s} {clear_us:12.2f} {fast_us:10.2f} {clear_us / fast_us:6.1f}x")
    print(
        "\nfirst call in this process (compile or numba cache), ms: "
        + ", ".join(f"{k} {v:.0f}" for k, v in first.items())
    )
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
