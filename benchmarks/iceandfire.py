"""Ice and Fire benchmarks: the referee's speed and each bot's turn times at CodinGame's clock.

1. Full random games per second through the referee (``random_action`` for both players, every
   turn checked and applied by ``apply_action``), next to a baseline in the same process: games in
   which both players WAIT until turn 100 (the referee's fixed cost per turn: the turn start,
   activity, incomes, the frozen state), so the ratio shows what random turns add. Medians of
   ``--repeats`` runs.
2. p50/p99/max turn time of each bot over ``--games`` games (half the seeds in each seat) against
   ``--opponent``, on the arena's loop with CodinGame's clock (1000 ms for the first turn, 50 ms
   after: the bots see their deadline, as in a tournament). Target: p99 of ``best`` <= 40 ms.
   The first turn is counted apart (it includes building the map's distance table). The load
   average is printed before and after: the machine is shared.

    .venv/bin/python benchmarks/iceandfire.py [--games 100] [--repeats 5] [--bots best,postmortem,...]
    .venv/bin/python benchmarks/iceandfire.py --quick
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from gridarena.core.gameclock import game_clock
from gridarena.core.play import play_game
from gridarena.core.registry import make, make_bot

BOTS = ("best", "postmortem", "wood1", "wood2", "wood3", "random")


def random_games(count: int, seed: int, wait_only: bool = False) -> tuple[float, int]:
    """(seconds, plies) of ``count`` games of random turns (or WAITs) through the referee."""
    game = make("iceandfire")
    rng = random.Random(seed)
    plies = 0
    start = time.perf_counter()
    for k in range(count):
        state = game.new_initial_state(seed + k)
        wait = state.string_to_action("WAIT")
        while not state.is_terminal():
            state = state.apply_action(wait if wait_only else state.random_action(rng))
            plies += 1
    return time.perf_counter() - start, plies


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank quantile."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))]


def bot_times(
    name: str, opponent: str, games: int, clock: str = "wall"
) -> tuple[list[float], list[float], list[float], dict[str, int]]:
    """(first-turn ms, later-turn wall ms, later-turn CPU ms, results) of ``name`` against ``opponent``."""
    game = make("iceandfire")
    first: list[float] = []
    later: list[float] = []
    later_cpu: list[float] = []
    results = {"win": 0, "loss": 0, "draw": 0, "forfeit": 0}
    for k in range(games):
        seat = k % 2
        names = [name, opponent] if seat == 0 else [opponent, name]
        bots = [make_bot(game, n) for n in names]
        record = play_game(game, bots, seed=k // 2, names=names, clock=game_clock("1/0.05", 2, clock=clock))
        mine = [t for t in record.turns if t.player == seat]
        first += [t.wall_ms for t in mine[:1]]
        later += [t.wall_ms for t in mine[1:]]
        later_cpu += [t.cpu_ms for t in mine[1:]]
        o = record.outcome
        if o.forfeit_player == seat:
            results["forfeit"] += 1
        if o.returns[seat] > o.returns[1 - seat]:
            results["win"] += 1
        elif o.returns[seat] < o.returns[1 - seat]:
            results["loss"] += 1
        else:
            results["draw"] += 1
    return first, later, later_cpu, results


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=100, help="games per bot for the turn times")
    parser.add_argument("--random-games", type=int, default=20, help="random games per timing run")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--bots", default=",".join(BOTS))
    parser.add_argument("--opponent", default="postmortem")
    parser.add_argument(
        "--clock", choices=("wall", "cpu"), default="wall", help="what the 1000/50 ms limits measure"
    )
    parser.add_argument("--quick", action="store_true", help="--games 10 --random-games 5 --repeats 3")
    args = parser.parse_args()
    if args.quick:
        args.games, args.random_games, args.repeats = 10, 5, 3
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")

    print(f"\n1. referee: {args.random_games} games per run, median of {args.repeats} runs")
    rows = []
    for label, wait in (("random turns", False), ("WAIT only (baseline)", True)):
        runs = [random_games(args.random_games, 1000 * r, wait) for r in range(args.repeats)]
        seconds = statistics.median(s for s, _ in runs)
        plies = statistics.median(p for _, p in runs)
        rows.append((label, args.random_games / seconds, plies / seconds, seconds / plies * 1e6))
    print(f"{'games':<22} {'games/s':>9} {'plies/s':>9} {'us/ply':>8}")
    for label, gps, pps, us in rows:
        print(f"{label:<22} {gps:>9.1f} {pps:>9.0f} {us:>8.1f}")
    print(f"random turns cost {rows[0][3] / rows[1][3]:.2f}x a WAIT turn per ply")

    print(
        f"\n2. turn times at 1000/50 ms ({args.clock} clock) over {args.games} games against {args.opponent}"
        " (ms; the first turn apart)"
    )
    print(
        f"{'bot':<11} {'first':>7} {'p50':>7} {'p99':>7} {'max':>7} {'cpu p50':>8} {'cpu p99':>8} {'turns':>6}  results"
    )
    for name in args.bots.split(","):
        first, later, cpu, results = bot_times(name, args.opponent, args.games, args.clock)
        print(
            f"{name:<11} {percentile(first, 0.5):>7.2f} {percentile(later, 0.5):>7.2f} "
            f"{percentile(later, 0.99):>7.2f} {max(later):>7.2f} {percentile(cpu, 0.5):>8.2f} "
            f"{percentile(cpu, 0.99):>8.2f} {len(later):>6}  "
            + " ".join(f"{k} {v}" for k, v in results.items())
        )
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
