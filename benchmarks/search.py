"""Nodes per second of the generic alpha-beta on 7x7 Isolation positions (reference rules).

Usage: ``python benchmarks/search.py [--positions 12] [--depth 6] [--repeat 3] [--seed 1]``

Every algorithm searches the same seeded positions at the same fixed depth with AIND's
``improved`` score; each search is repeated and its median time kept. The table shows the summed
nodes, the median time per search and nodes per second (total nodes / total median time) with its
ratio to plain minimax measured in the same process (the baseline), and the speed-up in time over
that baseline (pruning lowers the nodes, so both matter). Nothing is compiled: no warm-up to exclude.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time
from collections.abc import Callable

from gridarena.games.isolation.ai.heuristics import improved
from gridarena.games.isolation.rules import Isolation, State
from gridarena.search import SearchResult, TranspositionTable, alphabeta, last, minimax
from gridarena.search.alphabeta import alphabeta_deepening

Search = Callable[[State, int], SearchResult]


def positions(count: int, seed: int) -> list[State]:
    """Seeded midgame positions: both pieces placed, 4 to 12 random plies played."""
    rng = random.Random(seed)
    found: list[State] = []
    while len(found) < count:
        state = Isolation(7, 7).new_initial_state()
        for _ in range(rng.randint(4, 12)):
            state = state.child(rng.choice(state.legal_actions()))
            if state.is_terminal():
                break
        if not state.is_terminal():
            found.append(state)
    return found


def deepening(state: State, depth: int) -> SearchResult:
    """Iterative deepening to ``depth`` (table and move ordering); nodes summed over the depths."""
    steps = list(alphabeta_deepening(state, improved, max_depth=depth))
    final = last(steps)
    assert final is not None
    return SearchResult(final.score, final.best, sum(p.nodes for p in steps), final.exact)


ALGORITHMS: dict[str, Search] = {
    "minimax (baseline)": lambda s, d: minimax(s, d, improved),
    "alphabeta": lambda s, d: alphabeta(s, d, improved, killers=False),
    "alphabeta + killers": lambda s, d: alphabeta(s, d, improved),
    "alphabeta + tt": lambda s, d: alphabeta(s, d, improved, tt=TranspositionTable()),
    "deepening 1..d + tt": deepening,
}


def measure(search: Search, states: list[State], depth: int, repeat: int) -> tuple[int, list[float]]:
    """Total nodes and the median seconds of each position's search."""
    nodes, medians = 0, []
    for state in states:
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            result = search(state, depth)
            times.append(time.perf_counter() - start)
        nodes += result.nodes
        medians.append(statistics.median(times))
    return nodes, medians


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--depth", type=int, default=6)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    states = positions(args.positions, args.seed)
    print(f"{len(states)} positions of 7x7 Isolation, depth {args.depth}, median of {args.repeat} runs each")
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    )
    print(
        "ms/position: median over positions of each position's median time; knodes/s: all nodes / summed time"
    )
    print(f"{'algorithm':<22}{'nodes':>10}{'ms/position':>12}{'knodes/s':>10}{'rate x':>8}{'speed-up':>10}")
    base_rate = base_time = 0.0
    for name, search in ALGORITHMS.items():
        nodes, medians = measure(search, states, args.depth, args.repeat)
        total = sum(medians)
        rate = nodes / total
        base_rate, base_time = base_rate or rate, base_time or total
        median_ms = statistics.median(medians) * 1000
        print(
            f"{name:<22}{nodes:>10}{median_ms:>12.2f}{rate / 1000:>10.1f}{rate / base_rate:>8.2f}"
            f"{base_time / total:>10.2f}"
        )


if __name__ == "__main__":
    main()
