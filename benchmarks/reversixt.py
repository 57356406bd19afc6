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
   (gengurke/ReversiXT-Client: depth 3-4 on ``2013_comp_5_2p``, 5-6 on ``2014_comp_1_4p`` at 2 s a move), at
   positions at plies 0, 8, 16, ... of a seeded game.

    .venv/bin/python benchmarks/reversixt.py [--repeat 5] [--seconds 2] [--positions 3] [--only compile|perft|depth]

OpenSpiel is optional (``pip install open_spiel``, pinned in the dev extra); without it the script
says so and prints our figures alone.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import re
import shlex
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from gridarena.arena.counts import Pentanomial
from gridarena.arena.elo import EloFigures, figures
from gridarena.arena.sprt import SprtConfig, sprt
from gridarena.core.clock import TimeControl, TurnClock
from gridarena.games.reversixt.ai.search import BRS_FROM_PLAYERS, V1_MULTI_OPTIONS, best_search
from gridarena.games.reversixt.fast import FastBoard
from gridarena.games.reversixt.fast.engine import Engine
from gridarena.games.reversixt.formats import read_map
from gridarena.games.reversixt.net.client import safety_margin
from gridarena.games.reversixt.rules import ReversiState, ReversiXT

sys.path.insert(0, str(Path(__file__).resolve().parent))
import reversixt_base
from reversixt_base import player_bot

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
#: comes first: paranoid with two players, with more BRS (from four players on with MULTI_OPTIONS:
#: measured against the leader); then the searches it was chosen against, and best_v1's multi-player pruning
#: (V1_MULTI_OPTIONS: override moves only at the first two plies, late move reductions).
VARIANTS: tuple[tuple[str, str, dict[str, int], bool], ...] = (
    ("best*", "best", {}, False),
    ("best* prune 2", "best", {"override_plies": 2}, False),
    ("brs", "brs", {}, True),
    ("brs prune 2", "brs", {"override_plies": 2}, True),
    ("paranoid", "paranoid", {}, True),
    ("paranoid prune 2", "paranoid", {"override_plies": 2}, True),
    ("brs +lmr (v1)", "brs", V1_MULTI_OPTIONS, True),
    ("paranoid +lmr", "paranoid", V1_MULTI_OPTIONS, True),
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
            options: dict[str, Any] = {}
            if mode == "best":
                mode, options = best_search(game.num_players)
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
        "from four on against the leader); prune 2: override moves searched only at the first two plies (or without "
        "another move); +lmr (v1): best_v1's multi-player options (prune 2 and late move reductions); "
        "'reported': gengurke/ReversiXT-Client's Java client at 2 s a move)\n"
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
    """A bot spec and its budget: per move ``N`` nodes (playouts for mcts), ``dN`` plies or ``Xs`` CPU
    seconds, or ``aX`` an account on the CPU clock that gains X seconds a move and carries over (the
    reference server's rule (its ``-t``); the bot is told ``account:X``, a late answer loses the game)."""

    spec: str
    budget: str

    @classmethod
    def parse(cls, text: str, default: str) -> Player:
        """``best#20000``, ``best_v1#d6``, ``mcts#0.2s``, ``best#a0.5``; without ``#`` the default budget."""
        spec, _, budget = text.partition("#")
        return cls(spec, budget or default)

    @property
    def increment(self) -> float | None:
        """The account's increment (``aX``), None for per-move budgets."""
        return float(self.budget[1:]) if self.budget.startswith("a") else None

    def clock(self, account: float = 0.0) -> TimeControl:
        """A fresh time control of the budget (CPU seconds run on this thread's clock); ``account``:
        the seconds an account holds now."""
        if self.increment is not None:
            now = time.thread_time()
            return TurnClock(
                deadline=now + account - safety_margin(account), clock=time.thread_time, limit=account
            )
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


def seated(
    game: ReversiXT, players: Sequence[Player], moves: Sequence[Any], seed: int
) -> tuple[list[Any], ReversiState]:
    """The seats' bots, reset for the game (a bot on an account, ``aX``, is told so), and the state after
    the opening ``moves``."""
    bots = [player_bot(game, p.spec) for p in players]
    for seat, bot in enumerate(bots):
        bot.reset(game, seat, seed + seat)
        increment = players[seat].increment
        if increment is not None and hasattr(bot, "time_control"):
            bot.time_control = f"account:{increment:g}"
    state = game.new_initial_state()
    for move in moves:
        state = state.apply_action(move)
    return bots, state


def play_game(
    game: ReversiXT, players: tuple[Player, Player], moves: list[Any], seed: int
) -> tuple[float, float]:
    """One game after the opening ``moves``: each seat's points (1 win, 0.5 draw, 0 loss). On an
    account (``aX``) an answer after the account is spent loses the game."""
    bots, state = seated(game, players, moves, seed)
    accounts = [0.0, 0.0]
    while not state.is_terminal():
        seat = state.current_player()
        increment = players[seat].increment
        accounts[seat] += increment or 0.0
        start = time.thread_time()
        decision = bots[seat].act(state, players[seat].clock(accounts[seat]))
        accounts[seat] -= time.thread_time() - start
        if increment is not None and accounts[seat] < 0:
            return (0.0, 1.0) if seat == 0 else (1.0, 0.0)  # a time forfeit
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


def competition_maps(only: str | None) -> list[tuple[str, Path]]:
    """The 2-player competition maps found in the shared data (``only``: comma-separated names)."""
    wanted = None if only is None else {name.strip() for name in only.split(",")}
    return [
        (n, SHARED / rel) for n, rel in MAPS_2P if (SHARED / rel).exists() and (wanted is None or n in wanted)
    ]


def spar(
    candidate: Player, other: Player, pairs: int, plies: int, seed: int, workers: int, test: str,
    only: str | None = None,
) -> None:  # fmt: skip
    """Pairs of games (both seats) on every 2-player competition map, round robin over the maps, until
    the SPRT over all maps decides or ``pairs`` per map are played; Elo per map and over all."""
    maps = competition_maps(only)
    if not maps:
        print(f"no maps found at {SHARED}: no sparring")
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


# ---------------------------------------------------------------------------------------------
# The reference setup: our server and two clients, processes on loopback, every 2-player map


GRIDARENA = [sys.executable, "-m", "gridarena"]
EXTERNAL_START = 3.0
"""Seconds another program (``cmd:...``) is given to start and connect before the next client."""
_ANSWER = re.compile(r"Answer from player (\d+) for move \d+ was .*time left: (\d+) msecs")


@dataclass(frozen=True)
class NetGame:
    """One game over the server: the scores and statuses by player, and each player's least account
    left after an answer (ms, from the server's trace)."""

    scores: tuple[int, ...]
    statuses: tuple[str, ...]
    least_left_ms: tuple[int | None, ...]
    seconds: float


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for_line(proc: subprocess.Popen[str], text: str, timeout: float) -> None:
    """Read ``proc``'s stderr until a line contains ``text`` (the client says it connected)."""
    assert proc.stderr is not None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            raise RuntimeError(f"client ended before '{text}' (exit {proc.wait()})")
        if text in line:
            return
    raise RuntimeError(f"client did not say '{text}' within {timeout:g} s")


def net_game(map_path: Path, bots: tuple[str, ...], seconds: float, workdir: Path) -> NetGame:
    """``gridarena reversixt server --time SECONDS --depth 0`` and one client per bot, player 1 first."""
    port = free_port()
    result, trace = workdir / f"result-{port}.txt", workdir / f"trace-{port}.log"
    start = time.perf_counter()
    server = subprocess.Popen(
        [*GRIDARENA, "reversixt", "server", "--map", str(map_path), "--port", str(port), "--time", f"{seconds:g}",
         "--depth", "0", "--result", str(result), "--trace", str(trace), "--quiet", "--wait", "600"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    clients: list[subprocess.Popen[str]] = []
    try:
        for bot in bots:  # the connection order gives the player numbers
            if bot.startswith("cmd:"):  # another program: a command line with {port}, given time to connect
                command = shlex.split(bot[4:].replace("{port}", str(port)))
                client = subprocess.Popen(
                    command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
                )
                clients.append(client)
                time.sleep(EXTERNAL_START)
                continue
            client = subprocess.Popen(
                [*GRIDARENA, "reversixt", "client", "--port", str(port), "--bot", bot, "--wait", "120"],
                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            )  # fmt: skip
            clients.append(client)
            wait_for_line(client, "connected to", 300)
        for client in clients:
            assert client.stderr is not None
            client.stderr.read()  # drain until it ends
            client.wait(timeout=3600)
        server.wait(timeout=600)
    finally:
        procs: list[subprocess.Popen[Any]] = [*clients, server]
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    rows = [line.split("\t") for line in result.read_text().splitlines()[1:] if line.strip()]
    least: list[int | None] = [None] * len(rows)
    for line in trace.read_text().splitlines():
        found = _ANSWER.search(line)
        if found:
            k, left = int(found.group(1)) - 1, int(found.group(2))
            seen = least[k]
            least[k] = left if seen is None else min(seen, left)
    return NetGame(
        tuple(int(r[1]) for r in rows), tuple(r[3] for r in rows), tuple(least), time.perf_counter() - start
    )


def net_pair(task: tuple[str, str, str, str, float, str]) -> tuple[str, NetGame, NetGame]:
    """Both seats on one map: the candidate first, then second."""
    name, path, candidate, other, seconds, workdir = task
    first = net_game(Path(path), (candidate, other), seconds, Path(workdir))
    second = net_game(Path(path), (other, candidate), seconds, Path(workdir))
    return name, first, second


def points(game: NetGame, seat: int) -> float:
    """The candidate's points in ``seat``: a disqualified player scores nothing and ranks last."""
    mine, theirs = game.scores[seat], game.scores[1 - seat]
    ok_mine, ok_theirs = game.statuses[seat] == "ok", game.statuses[1 - seat] == "ok"
    if ok_mine != ok_theirs:
        return 1.0 if ok_mine else 0.0
    return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


def server_benchmark(
    candidate: str, other: str, seconds: float, rounds: int, workers: int, test: str, only: str | None = None
) -> None:
    """The issue's must-hold: ``candidate`` against ``other`` on our server, every 2-player competition
    map, both seats, ``seconds`` a move, depth 0; Elo per map and over all, the SPRT's verdict, the
    forfeits and the least account each side kept."""
    maps = competition_maps(only)
    if not maps:
        print(f"no maps found at {SHARED}: nothing to play")
        return
    config = SprtConfig.parse(test, model="logistic")
    print(
        f"{candidate} against {other} on our server, {seconds:g} s a move, depth 0: {len(maps)} maps, "
        f"{rounds} round(s) of both seats, {workers} game(s) at once; SPRT {config.spec()} (logistic Elo)",
        flush=True,
    )
    results: dict[str, list[tuple[float, float]]] = {name: [] for name, _ in maps}
    forfeits: list[str] = []
    reserve: dict[str, list[int]] = {"candidate": [], "other": []}
    with tempfile.TemporaryDirectory() as workdir:
        tasks = [
            (name, str(path), candidate, other, seconds, workdir)
            for _ in range(rounds)
            for name, path in maps
        ]
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            for name, first, second in pool.imap_unordered(net_pair, tasks):
                results[name].append((points(first, 0), points(second, 1)))
                for game, seat in ((first, 0), (second, 1)):
                    for k, who in ((seat, "candidate"), (1 - seat, "other")):
                        if game.statuses[k] != "ok":
                            forfeits.append(f"{name}: {who} {game.statuses[k]}")
                        if game.least_left_ms[k] is not None:
                            reserve[who].append(int(game.least_left_ms[k]))  # type: ignore[arg-type]
                print(
                    f"  {name}: {first.scores} ({first.seconds:.0f} s), {second.scores} ({second.seconds:.0f} s)",
                    flush=True,
                )
    print(spar_table(results))
    every = [pair for rows in results.values() for pair in rows]
    result = sprt(config, Pentanomial.from_pairs(every))
    verdict = {"H1": "accepted (H1)", "H0": "rejected (H0)", None: "undecided"}[result.decision]
    print(
        f"SPRT {config.spec()}: LLR {result.llr:+.2f} (bounds {result.bounds[0]:+.2f}, {result.bounds[1]:+.2f}): {verdict}"
    )
    print(
        f"time forfeits and other disqualifications: {len(forfeits)}"
        + (": " + "; ".join(forfeits) if forfeits else "")
    )
    for who, name in (("candidate", candidate), ("other", other)):
        left = reserve[who]
        if left:
            print(
                f"least account left after an answer, {name}: min {min(left)} ms, median of games "
                f"{statistics.median(left):.0f} ms (over {len(left)} games)"
            )


#: The largest maps of the shared data (2 to 8 players), for the clock check of :func:`reserve_check`.
LARGE_MAPS: tuple[tuple[str, str], ...] = (
    (
        "RWTH 50x50 8p",
        "semmelsamu-reversixt-bot/maps/matchpoint/frequentlyPlayed/20210622-RWTH-50_50_8_25_rnd_1.map",
    ),
    (
        "rwth-2020_comp_07_8p (50x50)",
        "semmelsamu-reversixt-bot/maps/matchpoint/frequentlyPlayed/rwth-2020_comp_07_8p.map",
    ),
    ("comp2024_04_8p (46x46)", "semmelsamu-reversixt-bot/compMaps/comp2024_04_8p.map"),
    ("comp2024_04_4p (46x46)", "semmelsamu-reversixt-bot/compMaps/comp2024_04_4p.map"),
    ("comp2024_04_2p (32x32)", "semmelsamu-reversixt-bot/compMaps/comp2024_04_2p.map"),
)


def reserve_check(bot: str, seconds: float, other: str = "random", only: str | None = None) -> None:
    """``bot`` as player 1 on each of the largest maps, ``other`` in every other seat (``random``, or a
    bot such as ``best`` itself: then every seat is checked), on our server at ``seconds`` a move,
    depth 0: each seat's status and the least account it kept after an answer."""
    wanted = None if only is None else {name.strip() for name in only.split(",")}
    print(f"{bot} as player 1 on our server, {seconds:g} s a move, depth 0, {other} in the other seats")
    print(
        f"{'map':<29} {'players':>7} {'statuses':>9} {'least account left':>19} {'others':>8} {'game (s)':>9}"
    )
    with tempfile.TemporaryDirectory() as workdir:
        for label, rel in LARGE_MAPS:
            path = SHARED / rel
            if wanted is not None and label.split(" (")[0] not in wanted:
                continue
            if not path.exists():
                print(f"{label:<29} (map not found)")
                continue
            players = read_map(path).players
            game = net_game(path, (bot, *[other] * (players - 1)), seconds, Path(workdir))
            left = game.least_left_ms[0]
            rest = [x for x in game.least_left_ms[1:] if x is not None]
            ok = sum(1 for s in game.statuses if s == "ok")
            shown = "-" if left is None else f"{left} ms"
            print(
                f"{label:<29} {players:>7} {f'{ok}/{players} ok':>9} {shown:>19} "
                f"{(f'{min(rest)} ms' if rest else '-'):>8} {game.seconds:>9.0f}",
                flush=True,
            )
            for k, status in enumerate(game.statuses, start=1):
                if status != "ok":
                    print(f"    player {k}: {status}")
    print()


MEMORY_RUN = """
import json, sys, time
from gridarena.core.clock import TurnClock
from gridarena.core.registry import make_bot
from gridarena.games.reversixt.formats import parse_map
from gridarena.games.reversixt.rules import ReversiState, ReversiXT

def peak():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024

side, bot = int(sys.argv[1]), sys.argv[2]
warm = ReversiXT("sampler")
first = make_bot(warm, bot)
first.warm_up(warm)  # the client does this before it connects
base = peak()
rows = [["0"] * side for _ in range(side)]
c = side // 2
rows[c - 1][c - 1] = rows[c][c] = "1"
rows[c - 1][c] = rows[c][c - 1] = "2"
text = f"2\\n0\\n1 2\\n{side} {side}\\n" + "\\n".join(" ".join(r) for r in rows) + "\\n"
t = time.perf_counter()
game = ReversiXT.from_map(parse_map(text))
state = game.new_initial_state()
ready = time.perf_counter() - t
t = time.perf_counter()
player = make_bot(game, bot)
player.reset(game, 0, 1)
player.warm_up(game)
built = time.perf_counter() - t
t = time.perf_counter()
player.act(state, TurnClock(deadline=time.perf_counter() + 1.0, limit=2.0))
print(json.dumps({"base": base, "peak": peak(), "state": ready, "bot": built, "move": time.perf_counter() - t}))
"""


def memory_part(bot: str) -> None:
    """The client's memory and start-up per map size: a square board with the Othello start, the
    map read and the game's state built, the bot's tables built, one move at 1 s; in a fresh
    process each (after the warm-up the client does before connecting)."""
    print(
        f"{'map':>11} {'peak MB':>8} {'of it, the map':>15} {'state (s)':>10} {'bot (s)':>8} {'move (s)':>9}"
    )
    for side in (50, 100, 250, 500, 1000):
        out = subprocess.run(
            [sys.executable, "-c", MEMORY_RUN, str(side), bot], capture_output=True, text=True, check=True
        ).stdout
        r = json.loads(out)
        label = f"{side}x{side}"
        print(
            f"{label:>11} {r['peak']:>8.0f} {r['peak'] - r['base']:>15.0f} {r['state']:>10.2f} {r['bot']:>8.2f} {r['move']:>9.2f}"
        )
    print("(peak: the process's VmHWM; of it, the map: above the process with its kernels loaded)\n")


FIRST_CALLS = """
import time
t = time.perf_counter()
from gridarena.arena.counts import Pentanomial
from gridarena.arena.elo import EloFigures, figures
from gridarena.arena.sprt import SprtConfig, sprt
from gridarena.core.clock import TimeControl, TurnClock
from gridarena.core.registry import make_bot
from gridarena.games.reversixt.ai.search import BRS_FROM_PLAYERS, MULTI_OPTIONS
from gridarena.games.reversixt.fast import FastBoard
from gridarena.games.reversixt.net.client import safety_margin
from gridarena.games.reversixt.fast.engine import Engine
from gridarena.games.reversixt.rules import ReversiState, ReversiXT
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
    parser.add_argument(
        "--only", choices=("compile", "perft", "depth", "memory", "reserve", "spar", "server")
    )
    parser.add_argument(
        "--move-seconds", type=float, default=2.0, help="server: seconds a move (the account's increment)"
    )
    parser.add_argument("--rounds", type=int, default=1, help="server: rounds of both seats on every map")
    parser.add_argument("--maps", help="spar, server: only these maps (comma-separated names of MAPS_2P)")
    parser.add_argument("--candidate", default="best#20000", help="spar: the bot under test, spec#budget")
    parser.add_argument("--against", default="best_v1#20000", help="spar: its opponent, spec#budget")
    parser.add_argument("--pairs", type=int, default=40, help="spar: pairs (both seats) per map at most")
    parser.add_argument("--plies", type=int, default=4, help="spar: random opening plies")
    parser.add_argument("--workers", type=int, default=1, help="spar: games at once")
    parser.add_argument("--sprt", default="0,20,0.05,0.05", help="spar: elo0,elo1,alpha,beta (logistic Elo)")
    parser.add_argument(
        "--base", type=Path, help="spar: the src folder of another checkout, whose bots are named base:SPEC"
    )
    args = parser.parse_args()
    reversixt_base.BASE = args.base
    if args.only == "reserve":
        reserve_check(
            args.candidate.partition("#")[0],
            args.move_seconds,
            args.against.partition("#")[0] if args.against != parser.get_default("against") else "random",
            args.maps,
        )
        return
    if args.only == "server":
        server_benchmark(
            args.candidate.partition("#")[0],
            args.against.partition("#")[0],
            args.move_seconds,
            args.rounds,
            args.workers,
            args.sprt,
            args.maps,
        )
        return
    if args.only == "spar":
        spar(
            Player.parse(args.candidate, "20000"),
            Player.parse(args.against, "20000"),
            args.pairs,
            args.plies,
            args.seed,
            args.workers,
            args.sprt,
            args.maps,
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
    if args.only in (None, "memory"):
        memory_part(args.candidate.partition("#")[0])


if __name__ == "__main__":
    main()
