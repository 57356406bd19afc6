"""Isolation benchmarks: the fast engine against an AIND-style search, in the same process.

1. Nodes per second of our alpha-beta (fast.Engine) and of a straightforward AIND-style
   implementation (aind.agents.AlphaBetaPlayer: the AIND Board, forecast_move, recursive alpha-beta,
   improved_score), each searching the same positions for the same time. Both count every node
   they visit, leaves included. The first engine call (loading the compiled kernels) is timed on
   its own line and kept out of the figures.
2. The average completed depth of the best agent at 150 ms per move (its 25 ms margin taken
   off) at plies 5, 10 and 15, next to AB_Improved's.
3. With ``--pairs N``: fair pairs of the best agent against AB_Improved at 150 ms per move.
4. With ``--strength N``: N fair pairs that no machine load can change: the best agent with a
   node budget per move against AB_Improved on its own CPU clock (or its fixed-depth proxy),
   with and without trap play, and how often AB_Improved converts the wins best's search proves.
5. With ``--solve N``: N seeded random 2-ply openings solved outright (the fast engine with a
   2^24-entry table, no limit but ``--solve-nodes``), then a fair pair on each between the best
   agent (node budget) and AB_Improved on its CPU clock: which seat wins with perfect play, and
   what each agent made of the won and the lost seat. A few minutes of CPU per opening.

    .venv/bin/python benchmarks/isolation.py [--positions 12] [--seconds 0.15] [--games 10] [--pairs 0]
    .venv/bin/python benchmarks/isolation.py --only strength --strength 50 --opponent cpu --trap on
    .venv/bin/python benchmarks/isolation.py --only solve --solve 30 --seed 1
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from gridarena.arena.backends import make_backend
from gridarena.arena.store import Store
from gridarena.cli.aind import Arena, play_pairs, win_interval
from gridarena.games.isolation import fast
from gridarena.games.isolation.ai.best import BEST_NODES, BestPlayer, ImprovedDepthPlayer
from gridarena.games.isolation.aind import Board, Move, TimeLeft, board_from_state, samples
from gridarena.games.isolation.aind.agents import AlphaBetaPlayer, CpuClock
from gridarena.games.isolation.rules import State

#: AB_Improved for --strength, by --opponent: on its CPU clock, its fixed-depth proxy, or on the wall clock.
OPPONENTS: dict[str, Callable[[], Any]] = {
    "cpu": lambda: CpuClock(AlphaBetaPlayer(score_fn=samples.improved_score)),
    "depth": ImprovedDepthPlayer,
    "wall": lambda: AlphaBetaPlayer(score_fn=samples.improved_score),
}


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
    player = AlphaBetaPlayer(score_fn=samples.improved_score, timeout=0.0)
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
    best = BestPlayer()
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
    """Part 3: fair pairs of the best agent against AB_Improved at 150 ms per move (the arena, one worker)."""
    arena = Arena(Store(":memory:"), make_backend("process", 1), 150.0)
    start = time.perf_counter()
    try:
        result = play_pairs(arena, "best", "ab_improved(name=AB_Improved)", count, seed)
    finally:
        arena.backend.close()
    print(result.summary())
    print(f"reasons: {result.reasons}; {time.perf_counter() - start:.0f} s")


def aind_opening(boards: list[Board], rng: random.Random) -> None:
    """Two random moves (uniform over the blank cells) applied to every board, as AIND's tournament did."""
    for _ in range(2):
        move = rng.choice(boards[0].get_legal_moves())
        for board in boards:
            board.apply_move(move)


class Watched:
    """A best player that remembers, per game, the first ply at which it proved a win or a loss."""

    def __init__(self, player: BestPlayer) -> None:
        self.player = player
        self.proof: tuple[int, int] | None = None  # (ply, +1 won / -1 lost)

    def get_move(self, game: Board, time_left: TimeLeft) -> Move:
        """The best player's move; the first proof of the game is kept."""
        move = self.player.get_move(game, time_left)
        last = self.player.last
        if self.proof is None and last is not None and last.proven:
            self.proof = (game.move_count, 1 if last.score > 0 else -1)
        return move


def strength(count: int, nodes: int, seed: int, trap: bool, opponent: str = "cpu") -> None:
    """Part 4: fair pairs of best against AB_Improved, with the clock chosen by ``opponent``.

    ``cpu``: AB_Improved itself on the CPU clock (150 ms of its own CPU time per move), best with
    a node budget: the machine's load changes neither. ``depth``: the fixed-depth proxy, best with
    the node budget. ``wall``: both at 150 ms of wall-clock time (load matters; timeouts counted).
    """
    best = Watched(BestPlayer(nodes=None if opponent == "wall" else nodes, trap=trap))
    other: Any = OPPONENTS[opponent]()
    limit = 150.0 if opponent == "wall" else 60_000.0  # else the budgets are nodes, depth or CPU time
    timeouts = 0
    rng = random.Random(seed)
    wins = games = 0
    proved: dict[tuple[int, bool], list[int]] = {
        (1, True): [],
        (1, False): [],
        (-1, True): [],
        (-1, False): [],
    }
    unproved = [0, 0]  # games decided with no proof by best: (won, lost)
    start = time.process_time()
    split_pairs = 0  # pairs in which best proved a win in one seat and a loss in the other
    for _ in range(count):
        signs = []
        boards = [Board(best, other, 7, 7, rng), Board(other, best, 7, 7, rng)]
        aind_opening(boards, rng)
        for board in boards:
            best.proof = None
            for engine in best.player._engines.values():
                engine.clear()
            winner, _, reason = board.play(limit)
            timeouts += reason == "timeout"
            assert reason in ("illegal move", "timeout"), reason  # "illegal move": the loser had no move
            won = winner is best
            wins, games = wins + won, games + 1
            signs.append(0 if best.proof is None else best.proof[1])
            if best.proof is None:
                unproved[0 if won else 1] += 1
            else:
                proved[best.proof[1], won].append(best.proof[0])
        split_pairs += sorted(signs) == [-1, 1]
    lo, hi = win_interval(wins, games)
    lost_proofs = proved[-1, True] + proved[-1, False]
    budget = "150 ms" if opponent == "wall" else f"nodes {nodes:,}"
    label = {
        "cpu": f"AB_Improved at 150 ms CPU ({getattr(other, 'late', 0)} moves over)",
        "depth": "AB_Improved's proxy (depth 7/9/13 by ply)",
        "wall": "AB_Improved at 150 ms",
    }[opponent]
    print(
        f"best ({budget}, trap {'on' if trap else 'off'}) vs {label}: "
        f"{wins}/{games} = {100 * wins / games:.1f}% (95% CI {100 * lo:.1f}-{100 * hi:.1f}%, Wilson), "
        f"{timeouts} timeouts, {time.process_time() - start:.0f} s CPU"
    )
    for sign, label in ((1, "won"), (-1, "lost")):
        kept, spoiled = proved[sign, True], proved[sign, False]
        plies = kept + spoiled
        median = statistics.median(plies) if plies else float("nan")
        print(
            f"  games best proved {label} first: {len(plies)} (median proof ply {median:.0f}); "
            f"best won {len(kept)}, lost {len(spoiled)}"
        )
    if lost_proofs:
        print(
            f"  AB_Improved converted {len(proved[-1, False])}/{len(lost_proofs)} "
            f"= {100 * len(proved[-1, False]) / len(lost_proofs):.0f}% of the wins best proved for it"
        )
    print(f"  pairs with a proven win in one seat and a proven loss in the other: {split_pairs}/{count}")
    print(
        f"  no proof before the end: best won {unproved[0]}, lost {unproved[1]}; trap moves {best.player.trapped}\n"
    )


def solve_openings(count: int, nodes: int, seed: int, cap: int) -> None:
    """Part 5: solved random openings, and a fair pair of best against AB_Improved on each."""
    rng = random.Random(seed)
    solver = fast.Engine(7, 7, tt_bits=24, path_max=60, path_budget=200_000)
    best = Watched(BestPlayer(nodes=nodes))
    other: Any = OPPONENTS["cpu"]()
    print(
        f"{'opening':>9} {'winner':>7} {'plies':>5} {'solve s':>8} {'nodes':>14}  {'best in won seat':>16}  {'best in lost seat':>17}"
    )
    rows = []  # (best won the won seat, best won the lost seat), solved openings only
    seen: set[tuple[int, int]] = set()
    first_wins = 0
    start = time.process_time()
    while len(seen) < count:
        first = rng.randrange(49)
        second = rng.choice([c for c in range(49) if c != first])
        if (first, second) in seen:
            continue
        seen.add((first, second))
        state = State(7, 7).child(first).child(second)
        solver.clear()
        result = solver.search(state, nodes=cap)
        if not result.proven:
            print(
                f"{first:>4},{second:<4} {'?':>7} {'':>5} {result.seconds:>8.0f} {result.nodes:>14,}  (not solved)"
            )
            continue
        # The mover at ply 2 is player 0 (the first to place): it wins iff the score is positive.
        winner = 0 if result.score > 0 else 1
        first_wins += winner == 0
        outcome = {}
        for seat in (0, 1):  # best as player 0, then as player 1
            players = (best, other) if seat == 0 else (other, best)
            for engine in best.player._engines.values():
                engine.clear()
            board = board_from_state(state, players[0], players[1], rng=rng)
            won_by, _, reason = board.play(60_000.0)
            assert reason == "illegal move", reason  # the loser had no move
            outcome[seat == winner] = won_by is best
        rows.append((outcome[True], outcome[False]))
        plies = fast.WIN - abs(result.score)
        print(
            f"{first:>4},{second:<4} {'first' if winner == 0 else 'second':>7} {plies:>5} {result.seconds:>8.0f} "
            f"{result.nodes:>14,}  {'won' if outcome[True] else 'LOST':>16}  {'WON' if outcome[False] else 'lost':>17}",
            flush=True,
        )
    solved = len(rows)
    kept = sum(won for won, _ in rows)
    saved = sum(won for _, won in rows)
    print(
        f"\n{solved}/{count} openings solved, the first player wins {first_wins}; {time.process_time() - start:.0f} s CPU"
    )
    if solved:
        lo, hi = win_interval(kept + saved, 2 * solved)
        print(
            f"best won {kept}/{solved} of its won seats and {saved}/{solved} of its lost seats: "
            f"{kept + saved}/{2 * solved} = {50 * (kept + saved) / solved:.1f}% (95% CI {100 * lo:.1f}-{100 * hi:.1f}%);\n"
            f"AB_Improved converted {solved - saved}/{solved} = {100 * (solved - saved) / solved:.0f}% of its proven wins. "
            f"Any agent's score on these pairs is at most 50% plus half the share of won seats AB_Improved throws away."
        )


def main() -> None:
    """Run the parts asked for."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--seconds", type=float, default=0.15)
    parser.add_argument("--games", type=int, default=10, help="positions per ply for the depth table")
    parser.add_argument("--pairs", type=int, default=0, help="fair pairs against AB_Improved (0: skip)")
    parser.add_argument(
        "--strength", type=int, default=0, help="fair pairs against AB_Improved (see --opponent)"
    )
    parser.add_argument("--nodes", type=int, default=BEST_NODES, help="best's nodes per move in --strength")
    parser.add_argument(
        "--opponent", choices=["cpu", "depth", "wall"], default="cpu", help="--strength: AB_Improved's clock"
    )
    parser.add_argument("--trap", choices=["both", "on", "off"], default="both", help="--strength: trap play")
    parser.add_argument("--solve", type=int, default=0, help="random openings to solve and play (0: skip)")
    parser.add_argument(
        "--solve-nodes", type=int, default=20_000_000_000, help="--solve: node cap per opening (about 30 min)"
    )
    parser.add_argument(
        "--only", choices=["speed", "depths", "pairs", "strength", "solve"], help="run one part"
    )
    parser.add_argument("--seed", type=int, default=2017)
    args = parser.parse_args()
    if args.only in (None, "speed"):
        speed(args.positions, args.seconds, args.seed)
    if args.only in (None, "depths"):
        depths(args.games, args.seed)
    if args.pairs and args.only in (None, "pairs"):
        pairs(args.pairs, args.seed)
    if args.strength and args.only in (None, "strength"):
        for trap in {"both": (False, True), "on": (True,), "off": (False,)}[args.trap]:
            strength(args.strength, args.nodes, args.seed, trap, args.opponent)
    if args.solve and args.only in (None, "solve"):
        solve_openings(args.solve, args.nodes, args.seed, args.solve_nodes)


if __name__ == "__main__":
    main()
