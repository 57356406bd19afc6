"""ReversiXT benchmarks: the fast engine's perft against OpenSpiel's C++ Othello, and search depth in 2 s.

0. The first calls of perft and search in a fresh process, once with an empty numba cache (the
   compile time) and once with the cache it left (what every later process pays).
1. Perft leaves per second (medians of ``--repeat`` samples of at least 0.5 s) from the standard 8x8 Othello start
   (the project's ``othello8`` map), from the course's ``example.map`` and from the RWTH 50x50
   eight-player map, next to OpenSpiel's C++ ``othello`` driven from Python (``legal_actions`` and
   ``child`` per node) from the same start in the same run, twice: creating every leaf state (the
   plain recursion) and counting the last ply in bulk, as ours does.
   Both must agree on the count (perft(8) = 390,216). The first, compiling call is timed on its own
   line and kept out of the figures.
2. The average completed search depth in ``--seconds`` (2 s) of the ``best`` bot's search and its
   variants (with three or more players the plain BRS it replaced, paranoid search, override moves
   pruned below ply 2, late move reductions) on the
   2p, 4p and 8p competition maps of 2024 and on the two maps of the 2018 client's report
   (spec 11.3: depth 3-4 on ``2013_comp_5_2p``, 5-6 on ``2014_comp_1_4p`` at 2 s a move), at
   positions at plies 0, 8, 16, ... of a seeded game.

    .venv/bin/python benchmarks/reversixt.py [--repeat 5] [--seconds 2] [--positions 3] [--only compile|perft|depth]

OpenSpiel is optional (``pip install open_spiel``, pinned in the dev extra); without it the script
says so and prints our figures alone.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from gridarena.arena.counts import Pentanomial
from gridarena.arena.elo import EloFigures, figures
from gridarena.arena.sprt import SprtConfig, sprt
from gridarena.core.clock import TimeControl
from gridarena.core.registry import make_bot
from gridarena.games.reversixt.bots import BRS_FROM_PLAYERS, MULTI_OPTIONS
from gridarena.games.reversixt.fast import FastBoard
from gridarena.games.reversixt.fast.engine import Engine
from gridarena.games.reversixt.formats import read_map
from gridarena.games.reversixt.rules import ReversiXT

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "reversixt" / "semmelsamu-reversixt-bot"
MAPS = Path(__file__).resolve().parents[1] / "src" / "gridarena" / "games" / "reversixt" / "maps"
TARGET_RATIO = 10.0
SAMPLE_SECONDS = 0.5
PERFT_CASES = (
    ("othello8 (8x8 start)", MAPS / "othello8.map", 8),
    ("example.map (15x15, 3p)", DATA / "maps/example.map", 5),
    ("RWTH 50x50 8p", DATA / "maps/matchpoint/frequentlyPlayed/20210622-RWTH-50_50_8_25_rnd_1.map", 2),
)
DEPTH_CASES = (
    ("comp2024_04_2p (32x32)", DATA / "compMaps/comp2024_04_2p.map", None),
    ("comp2024_04_4p (46x46)", DATA / "compMaps/comp2024_04_4p.map", None),
    ("comp2024_04_8p (46x46)", DATA / "compMaps/comp2024_04_8p.map", None),
    ("2013_comp_5_2p (18x19)", DATA / "maps/fightclub/2013_comp_5_2p.map", "3-4"),
    ("2014_comp_1_4p (22x40)", DATA / "maps/fightclub/2014_comp_1_4p.map", "5-6"),
)


def timed(run: Callable[[], int], repeat: int, sample: float = SAMPLE_SECONDS) -> tuple[int, float]:
    """The count and the median seconds per run over ``repeat`` samples of at least ``sample`` seconds.

    A sample repeats the run until it lasts ``sample`` seconds, so a short run (ours: 80 ms from the
    Othello start) and a long one (OpenSpiel's: 0.8 s) meet the scheduler of a shared machine alike."""
    seconds, count = [], 0
    for _ in range(repeat):
        start, runs = time.perf_counter(), 0
        while True:
            count = run()
            runs += 1
            elapsed = time.perf_counter() - start
            if elapsed >= sample:
                break
        seconds.append(elapsed / runs)
    return count, statistics.median(seconds)


def openspiel_perft(depth: int, bulk: bool) -> Callable[[], int] | None:
    """Perft of OpenSpiel's C++ Othello from Python, or None when open_spiel is not installed.

    ``bulk``: the last ply is counted as ``len(legal_actions())``, as our perft does; without it
    every leaf state is created (``child``), the plain recursion."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("othello")

    def count(state: Any, d: int) -> int:
        if d == 0:
            return 1
        actions = state.legal_actions()
        if d == 1 and bulk:
            return len(actions)
        return sum(count(state.child(a), d - 1) for a in actions)

    return lambda: count(game.new_initial_state(), depth)


def perft_part(repeat: int) -> None:
    """Part 1: leaves per second of our perft and OpenSpiel's."""
    start = time.perf_counter()
    board = FastBoard(read_map(MAPS / "othello8.map"))
    board.perft(2)
    print(f"first perft call (compiles or loads the kernels): {time.perf_counter() - start:.2f} s\n")
    print(f"{'position':<26} {'depth':>5} {'leaves':>13} {'seconds':>9} {'leaves/s':>14}")
    ours = 0.0
    for label, path, depth in PERFT_CASES:
        if not path.exists():
            print(f"{label:<26} (map not found at {path})")
            continue
        board = FastBoard(read_map(path))
        leaves, seconds = timed(lambda b=board, d=depth: b.perft(d), repeat)  # type: ignore[misc]
        print(f"{label:<26} {depth:>5} {leaves:>13,} {seconds:>9.3f} {leaves / seconds:>14,.0f}")
        if path.name == "othello8.map":
            ours = leaves / seconds
            assert leaves == 390_216, leaves
    runs = {"bulk": openspiel_perft(8, bulk=True), "every leaf": openspiel_perft(8, bulk=False)}
    if runs["bulk"] is None:
        print(
            "\nOpenSpiel is not installed (pip install open_spiel, or the dev extra): no baseline, "
            f"the target is judged against the reported 180,000 leaves/s (x{TARGET_RATIO:.0f} = 1.8 M)."
        )
        return
    rates = {}
    for label, run in runs.items():
        assert run is not None
        leaves, seconds = timed(run, repeat)
        assert leaves == 390_216, leaves
        rates[label] = leaves / seconds
        name = f"OpenSpiel othello, {label}"
        print(f"{name:<26} {8:>5} {leaves:>13,} {seconds:>9.3f} {leaves / seconds:>14,.0f}")
    print()
    for label, rate in rates.items():
        ratio = ours / rate
        verdict = "meets" if ratio >= TARGET_RATIO else "misses"
        print(
            f"from the 8x8 start: {ratio:.1f}x OpenSpiel ({label}), {verdict} the {TARGET_RATIO:.0f}x target"
        )
    print(
        "(ours counts the last ply in bulk; 'every leaf' creates each leaf state, the plain recursion\n"
        " behind the issue's 0.18 M leaves/s; 'bulk' gives OpenSpiel our shortcut)\n"
    )


def positions(game: ReversiXT, count: int, seed: int) -> list[Any]:
    """Positions at plies 0, 8, 16, ... of one seeded game of ai_trivial's depth-1 move and random moves
    (half each: random play alone wipes a player out early on the large maps), still in phase 1."""
    rng, state, found, ply = random.Random(seed), game.new_initial_state(), [], 0
    greedy = Engine(game.board, evaluation="trivial", tt_bits=10)
    while len(found) < count and not state.is_terminal() and state.phase == 1:
        if ply % 8 == 0:
            found.append(state)
        move = greedy.search(state, max_depth=1).move if rng.random() < 0.5 else None
        state = state.child(
            state.string_to_action(",".join(map(str, move))) if move else rng.choice(state.legal_actions())
        )
        ply += 1
    return found


#: Search variants measured per map: (label, mode, options, multi-player maps only). The best bot's own
#: comes first: paranoid with two players, with more BRS with MULTI_OPTIONS (override moves only at
#: the first two plies, late move reductions); then the searches it was chosen against.
VARIANTS: tuple[tuple[str, str, dict[str, int], bool], ...] = (
    ("best*", "best", {}, False),
    ("best* prune 2", "best", {"override_plies": 2}, False),
    ("brs", "brs", {}, True),
    ("brs prune 2", "brs", {"override_plies": 2}, True),
    ("paranoid", "paranoid", {}, True),
    ("paranoid prune 2", "paranoid", {"override_plies": 2}, True),
    ("paranoid +lmr", "paranoid", MULTI_OPTIONS, True),
)


def depth_part(seconds: float, count: int, seed: int) -> None:
    """Part 2: the completed depth of the search in ``seconds``, the best bot's variant first."""
    start = time.perf_counter()
    probe = ReversiXT("othello8")
    Engine(probe.board).search(probe.new_initial_state(), max_depth=3)
    print(f"first search call (compiles or loads the kernels): {time.perf_counter() - start:.2f} s\n")
    print(
        f"{'map':<24} {'search':>17} {'positions':>9} {'depths':>12} {'mean':>5} {'nodes/s':>9} {'reported':>9}"
    )
    for label, path, reported in DEPTH_CASES:
        if not path.exists():
            print(f"{label:<24} (map not found at {path})")
            continue
        game = ReversiXT(str(path))
        multi = game.num_players >= BRS_FROM_PLAYERS
        states = positions(game, count, seed)
        for name, mode, extra, multi_only in VARIANTS:
            if multi_only and not multi:
                continue
            if "override_plies" in extra and not game.board.overrides:
                continue
            options: dict[str, int] = {}
            if mode == "best":
                mode = "brs" if multi else "paranoid"
                if multi:
                    if "override_plies" in extra:
                        continue  # the best bot's multi-player options already prune
                    options.update(MULTI_OPTIONS)
            options.update(extra)
            engine = Engine(game.board, mode=mode, **options)  # type: ignore[arg-type]
            depths, rates = [], []
            for state in states:
                engine.clear()
                result = engine.search(state, deadline=time.perf_counter() + seconds)
                depths.append(result.depth)
                rates.append(result.nodes / max(result.seconds, 1e-9))
            text = " ".join(str(d) for d in depths)
            print(
                f"{label:<24} {name:>17} {len(depths):>9} {text:>12} {statistics.mean(depths):>5.1f} "
                f"{statistics.median(rates):>9,.0f} {reported or '-':>9}"
            )
    print(
        f"(completed plies in {seconds:g} s; * the best bot's search (with three or more players: BRS, "
        "override moves only at the first two plies, late move reductions); prune 2: override moves "
        "searched only at the first two plies (or without another move); +lmr: paranoid with the best "
        "bot's multi-player options; 'reported': spec 11.3, gengurke's Java client at 2 s a move)\n"
    )


# ---------------------------------------------------------------------------------------------
# Sparring over every 2-player competition map (in process, on node, depth or CPU budgets)

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "reversixt"
#: Every 2-player competition map of the shared data: (name, path below ``SHARED``).
MAPS_2P: tuple[tuple[str, str], ...] = (
    ("2023_comp_5_2p", "olekuhlmann-Advanced-Reversi-AI/2023_comp_5_2p.map"),
    ("comp2024_04_2p", "semmelsamu-reversixt-bot/compMaps/comp2024_04_2p.map"),
    ("2013_comp_5_2p", "semmelsamu-reversixt-bot/maps/fightclub/2013_comp_5_2p.map"),
    ("2019_comp_05_2p", "semmelsamu-reversixt-bot/maps/fightclub/2019_comp_05_2p.map"),
    ("comp2020_02_2p", "semmelsamu-reversixt-bot/maps/fightclub/comp2020_02_2p.map"),
    ("2016_comp_13_2p", "marcluque-Reversi-AI/replay-example/map0.map"),  # the RWTH 2020 tournament's map0
)


@dataclass(frozen=True)
class Player:
    """A bot spec and its budget per move: ``N`` nodes (playouts for mcts), ``dN`` plies or ``Xs`` CPU seconds."""

    spec: str
    budget: str

    @classmethod
    def parse(cls, text: str, default: str) -> Player:
        """``best#20000``, ``best_v1#d6``, ``mcts#0.2s``; without ``#`` the default budget."""
        spec, _, budget = text.partition("#")
        return cls(spec, budget or default)

    def clock(self) -> TimeControl:
        """A fresh time control of the budget (CPU seconds run on this thread's clock)."""
        if self.budget.endswith("s"):
            seconds = float(self.budget[:-1])
            return TimeControl(deadline=time.thread_time() + seconds, clock=time.thread_time)
        if self.budget.startswith("d"):
            return TimeControl(depth=int(self.budget[1:]))
        return TimeControl(nodes=int(self.budget))


def opening(game: ReversiXT, plies: int, seed: int) -> list[Any]:
    """``plies`` random moves from the start (fewer if the game would end), the same for both seats."""
    rng, state, moves = random.Random(seed), game.new_initial_state(), []
    for _ in range(plies):
        if state.is_terminal() or state.phase != 1:
            break
        moves.append(rng.choice(state.legal_actions()))
        state = state.apply_action(moves[-1])
    return moves


def play_game(
    game: ReversiXT, players: tuple[Player, Player], moves: list[Any], seed: int
) -> tuple[float, float]:
    """One game after the opening ``moves``: each seat's points (1 win, 0.5 draw, 0 loss)."""
    bots = [make_bot(game, p.spec) for p in players]
    for seat, bot in enumerate(bots):
        bot.reset(game, seat, seed + seat)
    state = game.new_initial_state()
    for move in moves:
        state = state.apply_action(move)
    while not state.is_terminal():
        seat = state.current_player()
        decision = bots[seat].act(state, players[seat].clock())
        state = state.apply_action(decision.action)
    ranks = state.ranks()
    return tuple(1.0 if r < other else 0.5 if r == other else 0.0 for r, other in (ranks, ranks[::-1]))  # type: ignore[return-value]


def play_pair(task: tuple[str, str, Player, Player, int, int]) -> tuple[str, int, float, float]:
    """Both seats of one opening: the candidate's points in each game."""
    name, path, candidate, other, plies, seed = task
    game = ReversiXT(path)
    moves = opening(game, plies, seed)
    first = play_game(game, (candidate, other), moves, seed)[0]
    second = play_game(game, (other, candidate), moves, seed)[1]
    return name, seed, first, second


def spar(
    candidate: Player, other: Player, pairs: int, plies: int, seed: int, workers: int, test: str
) -> None:
    """Pairs of games (both seats) on every 2-player competition map, round robin over the maps, until
    the SPRT over all maps decides or ``pairs`` per map are played; Elo per map and over all."""
    maps = [(name, SHARED / rel) for name, rel in MAPS_2P if (SHARED / rel).exists()]
    if not maps:
        print(f"shared data not found at {SHARED}: no sparring")
        return
    config = SprtConfig.parse(test, model="logistic")
    tasks = [
        (name, str(path), candidate, other, plies, seed * 100_000 + i)
        for i in range(pairs)
        for name, path in maps
    ]
    results: dict[str, list[tuple[float, float]]] = {name: [] for name, _ in maps}
    decision = None
    print(
        f"{candidate.spec} ({candidate.budget}) against {other.spec} ({other.budget}): {len(maps)} maps, "
        f"{plies} random opening plies, up to {pairs} pairs a map, SPRT {config.spec()} (logistic Elo)"
    )
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        for done, (name, _, first, second) in enumerate(pool.imap(play_pair, tasks), start=1):
            results[name].append((first, second))
            if done % len(maps) == 0:
                every = [pair for rows in results.values() for pair in rows]
                result = sprt(config, Pentanomial.from_pairs(every))
                print(f"  {done} pairs: LLR {result.llr:+.2f} {result.bounds}", flush=True)
                if result.decision is not None:
                    decision = result.decision
                    pool.terminate()
                    break
    print(spar_table(results))
    every = [pair for rows in results.values() for pair in rows]
    result = sprt(config, Pentanomial.from_pairs(every))
    print(
        f"SPRT {config.spec()}: LLR {result.llr:+.2f}, bounds {result.bounds[0]:+.2f} {result.bounds[1]:+.2f}: "
        + ({"H1": "accepted (H1)", "H0": "rejected (H0)"}[decision] if decision else "undecided")
    )


def elo_interval(f: EloFigures) -> str:
    """Elo and its 95 % interval, ``+35 [+12, +60]``; an open end (a score of 0 or 1) is ``inf``."""

    def end(value: float | None, sign: str) -> str:
        return f"{sign}inf" if value is None else f"{value:+.0f}"

    middle = "inf" if f.elo is None else f"{f.elo:+.0f}"
    return f"{middle} [{end(f.elo_low, '-')}, {end(f.elo_high, '+')}]"


def spar_table(results: dict[str, list[tuple[float, float]]]) -> str:
    """Per map and over all: pairs, the pentanomial counts, the score and Elo with its 95 % interval."""
    lines = [f"{'map':<18} {'pairs':>5} {'LL LD DD WD WW':>17} {'score':>7} {'Elo (95 %)':>24}"]
    rows = [*results.items(), ("all maps", [p for rows in results.values() for p in rows])]
    for name, pairs in rows:
        if not pairs:
            continue
        penta = Pentanomial.from_pairs(pairs)
        f = figures(penta)
        counts = " ".join(f"{c:>2}" for c in penta.counts)
        lines.append(f"{name:<18} {len(pairs):>5} {counts:>17} {100 * f.score:>6.1f}% {elo_interval(f):>24}")
    return "\n".join(lines)


FIRST_CALLS = """
import time
t = time.perf_counter()
from gridarena.arena.counts import Pentanomial
from gridarena.arena.elo import EloFigures, figures
from gridarena.arena.sprt import SprtConfig, sprt
from gridarena.core.clock import TimeControl
from gridarena.core.registry import make_bot
from gridarena.games.reversixt.bots import BRS_FROM_PLAYERS, MULTI_OPTIONS
from gridarena.games.reversixt.fast import FastBoard
from gridarena.games.reversixt.fast.engine import Engine
from gridarena.games.reversixt.rules import ReversiXT
game = ReversiXT("othello8")
FastBoard(game.board).perft(2)
perft = time.perf_counter() - t
t = time.perf_counter()
Engine(game.board).search(game.new_initial_state(), max_depth=2)
print(f"{perft:.2f} {time.perf_counter() - t:.2f}")
"""


def compile_part() -> None:
    """Part 0: the first calls in a fresh process, with an empty numba cache (compiling) and with the cache."""
    with tempfile.TemporaryDirectory() as cache:
        rows = []
        for label in ("empty cache (compiles)", "warm cache (loads)"):
            env = {**os.environ, "NUMBA_CACHE_DIR": cache}
            out = subprocess.run(
                [sys.executable, "-c", FIRST_CALLS], env=env, capture_output=True, text=True, check=True
            ).stdout.split()
            rows.append((label, float(out[0]), float(out[1])))
    print(f"{'first calls, fresh process':<28} {'perft (s)':>10} {'search (s)':>11}")
    for label, perft, search in rows:
        print(f"{label:<28} {perft:>10.2f} {search:>11.2f}")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--positions", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=("compile", "perft", "depth", "spar"))
    parser.add_argument("--candidate", default="best#20000", help="spar: the bot under test, spec#budget")
    parser.add_argument("--against", default="best_v1#20000", help="spar: its opponent, spec#budget")
    parser.add_argument("--pairs", type=int, default=40, help="spar: pairs (both seats) per map at most")
    parser.add_argument("--plies", type=int, default=4, help="spar: random opening plies")
    parser.add_argument("--workers", type=int, default=1, help="spar: games at once")
    parser.add_argument("--sprt", default="0,20,0.05,0.05", help="spar: elo0,elo1,alpha,beta (logistic Elo)")
    args = parser.parse_args()
    if args.only == "spar":
        spar(
            Player.parse(args.candidate, "20000"),
            Player.parse(args.against, "20000"),
            args.pairs,
            args.plies,
            args.seed,
            args.workers,
            args.sprt,
        )
        return
    if not DATA.is_dir():
        print(f"shared data not found at {DATA}: only the Othello start is measured")
    if args.only in (None, "compile"):
        compile_part()
    if args.only in (None, "perft"):
        perft_part(args.repeat)
    if args.only in (None, "depth"):
        depth_part(args.seconds, args.positions, args.seed)


if __name__ == "__main__":
    main()
