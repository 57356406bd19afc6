"""Isolation benchmarks: the fast engine against an AIND-style search, in the same process.

1. Nodes per second of our alpha-beta (fast.Engine) and of a straightforward AIND-style
   implementation (agents.AlphaBetaPlayer: the AIND Board, forecast_move, recursive alpha-beta,
   improved_score), each searching the same positions for the same time. Both count every node
   they visit, leaves included. The first engine call (loading the compiled kernels) is timed on
   its own line and kept out of the figures.
2. The average completed depth of the best agent at 150 ms per move (its 25 ms margin taken
   off) at plies 5, 10 and 15, next to AB_Improved's.
3. With ``--pairs N``: fair pairs of the best agent against AB_Improved at 150 ms per move.

    .venv/bin/python benchmarks/isolation.py [--positions 12] [--seconds 0.15] [--games 10] [--pairs 0]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from gridarena.games.isolation import agents, aind_samples, fast
from gridarena.games.isolation import tournament as t
from gridarena.games.isolation.aind import board_from_state
from gridarena.games.isolation.rules import State


def random_position(rng: random.Random, plies: int, width: int = 7, height: int = 7) -> State | None:
    """A position ``plies`` random moves into a game, or None if the game ended before."""
    state = State(width, height)
    for _ in range(plies):
        if state.is_terminal():
            return None
        state = state.child(rng.choice(state.legal_actions()))
    return None if state.is_terminal() else state


def positions(count: int, seed: int) -> list[State]:
    """``count`` positions at plies 2 to 14 (placements done, most of the game to come)."""
    rng, found = random.Random(seed), list[State]()
    while len(found) < count:
        state = random_position(rng, rng.choice([2, 4, 6, 8, 10, 12, 14]))
        if state is not None:
            found.append(state)
    return found


def aind_search(state: State, seconds: float, rng: random.Random) -> tuple[int, float, int]:
    """AB_Improved on the AIND board for ``seconds``: (nodes, elapsed, completed depth)."""
    player = agents.AlphaBetaPlayer(score_fn=aind_samples.improved_score, timeout=0.0)
    seats = (player, "opponent") if state.ply % 2 == 0 else ("opponent", player)
    board = board_from_state(state, seats[0], seats[1], rng=rng)
    start = time.perf_counter()
    deadline = start + seconds
    player.get_move(board, lambda: 1000.0 * (deadline - time.perf_counter()))
    return player.nodes, time.perf_counter() - start, player.completed_depth


def fast_search(engine: fast.Engine, state: State, seconds: float) -> tuple[int, float, int]:
    """The fast engine for ``seconds`` with a fresh table: (nodes, elapsed, completed depth)."""
    engine.clear()
    result = engine.search(state, deadline=time.perf_counter() + seconds)
    return result.nodes, result.seconds, result.depth


def speed(count: int, seconds: float, seed: int) -> None:
    """Part 1: nodes per second on the same positions, same process."""
    start = time.perf_counter()
    engine = fast.Engine(7, 7)
    engine.search(State(7, 7).child(24).child(0), max_depth=3)
    print(f"first engine call (loads the compiled kernels): {time.perf_counter() - start:.2f} s\n")
    print(f"{'position':>8} {'ply':>4} {'AIND nodes/s':>13} {'fast nodes/s':>13} {'ratio':>7} {'depth':>11}")
    rng = random.Random(seed)
    ours, theirs, ratios = [], [], []
    for index, state in enumerate(positions(count, seed)):
        a_nodes, a_time, a_depth = aind_search(state, seconds, rng)
        f_nodes, f_time, f_depth = fast_search(engine, state, seconds)
        a_rate, f_rate = a_nodes / a_time, f_nodes / f_time
        ours.append(f_rate)
        theirs.append(a_rate)
        ratios.append(f_rate / a_rate)
        print(
            f"{index:>8} {state.ply:>4} {a_rate:>13,.0f} {f_rate:>13,.0f} {f_rate / a_rate:>7.1f} {a_depth:>5} {f_depth:>5}"
        )
    print(
        f"\nmedian nodes/s: AIND-style {statistics.median(theirs):,.0f}, fast {statistics.median(ours):,.0f}; "
        f"ratio of medians {statistics.median(ours) / statistics.median(theirs):.1f}x, "
        f"median of ratios {statistics.median(ratios):.1f}x ({seconds * 1000:.0f} ms per position)\n"
    )


def depths(games: int, seed: int) -> None:
    """Part 2: completed depth at 150 ms per move at plies 5, 10 and 15."""
    best = agents.BestPlayer()
    print(
        f"{'ply':>4} {'positions':>9} {'best: mean depth':>17} {'unsolved only':>14} {'solved':>7} {'AB_Improved':>12}"
    )
    rng = random.Random(seed)
    for ply in (5, 10, 15):
        found: list[State] = []
        while len(found) < games:
            state = random_position(rng, ply)
            if state is not None:
                found.append(state)
        ours, open_ours, theirs = [], [], []
        for state in found:
            best.engine(7, 7).clear()
            best.search(state, 0.150 - best.margin / 1000.0)
            assert best.last is not None
            ours.append(best.last.depth)
            if not best.last.proven:
                open_ours.append(best.last.depth)
            theirs.append(aind_search(state, 0.140, rng)[2])
        unsolved = f"{statistics.mean(open_ours):.1f}" if open_ours else "-"
        solved = len(ours) - len(open_ours)
        print(
            f"{ply:>4} {len(found):>9} {statistics.mean(ours):>17.1f} {unsolved:>14} {solved:>7} {statistics.mean(theirs):>12.1f}"
        )
    print(
        "(a solved search stops at the depth that proved the result; AB_Improved: 140 ms, as with its 10 ms margin)\n"
    )


def pairs(count: int, seed: int) -> None:
    """Part 3: fair pairs of the best agent against AB_Improved at 150 ms per move."""
    first = t.Agent(agents.BestPlayer(), "best")
    second = t.Agent(t.make_player("ab_improved"), "AB_Improved")
    start = time.perf_counter()
    result = t.play_pairs(first, second, count, seed)
    print(result.summary())
    print(f"reasons: {result.reasons}; {time.perf_counter() - start:.0f} s")


def main() -> None:
    """Run the parts asked for."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--seconds", type=float, default=0.15)
    parser.add_argument("--games", type=int, default=10, help="positions per ply for the depth table")
    parser.add_argument("--pairs", type=int, default=0, help="fair pairs against AB_Improved (0: skip)")
    parser.add_argument("--seed", type=int, default=2017)
    args = parser.parse_args()
    speed(args.positions, args.seconds, args.seed)
    depths(args.games, args.seed)
    if args.pairs:
        pairs(args.pairs, args.seed)


if __name__ == "__main__":
    main()
