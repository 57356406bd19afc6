"""Arena overhead and parallel speed-up.

1. Overhead per game: the same games (same seeds, same bots) played directly with ``play_game`` and
   through a tournament (schedule, inline backend, SQLite row per game, replay written per ply and
   compacted), timed alternately in this process; medians over repeats. Target: at most 5 % for
   in-process bots. The arena's cost is a fixed 1-3 ms per game (the replay line written per ply and
   compacted, the SQLite row), so the ratio depends on how long a game lasts. Four bot sets: iterative
   deepening for 5 ms per move (how timed bots play; the depth reached, hence the game, may differ
   between the two runs), fixed-depth alpha-beta at two depths (identical games, 55 and 30 ms), and
   greedy against random (under a millisecond: the worst case, where nearly all is the fixed cost).
2. Speed-up from 1 to 2 local worker processes on a CPU-bound tournament (fixed-depth alpha-beta).
   Target: at least 1.8x. The worker start-up is outside the timed region (a warm-up tournament runs
   first on the same backend). On a machine shared with other work the figure is an underestimate:
   the load average is printed before and after.
3. The same with bots that sleep instead of computing: what the harness itself achieves, whatever
   the machine's load (2.0x is perfect).

Run: .venv/bin/python benchmarks/arena.py [--quick]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from gridarena.arena.backends import InlineBackend, ProcessBackend
from gridarena.arena.runner import build_bot
from gridarena.arena.schedule import schedule
from gridarena.arena.seeds import bot_seed
from gridarena.arena.store import Store
from gridarena.arena.tournament import TournamentConfig, run_tournament
from gridarena.core.bot import BaseBot, Decision
from gridarena.core.clock import TimeControl
from gridarena.core.play import play_game
from gridarena.core.registry import make
from gridarena.core.types import Game, GameState
from gridarena.search.alphabeta import alphabeta

GAME = "isolation"
# Imported as `arena` by the worker processes (this folder is on their path).
SEARCH_BOTS = {
    "search": "arena:make_search_bot",
    "pause": "arena:make_pause_bot",
    "deepening": "arena:make_deepening_bot",
}


def mobility(state: Any, player: int) -> float:
    """Own moves minus the opponent's: AIND's ``improved_score``."""
    return float(len(state.moves_of(player)) - len(state.moves_of(1 - player)))


class SearchBot(BaseBot):
    """Fixed-depth alpha-beta on mobility: deterministic and CPU-bound."""

    name = "search"

    def __init__(self, depth: int) -> None:
        super().__init__()
        self.depth = depth

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        result = alphabeta(state, self.depth, mobility)
        best = result.best if result.best is not None else state.legal_actions()[0]
        return Decision(best, {"depth": self.depth})


class DeepeningBot(SearchBot):
    """Iterative deepening for a fixed wall time per move, as timed bots play (the clock is its own)."""

    name = "deepening"

    def __init__(self, seconds: float) -> None:
        super().__init__(1)
        self.seconds = seconds

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        deadline = time.perf_counter() + self.seconds
        best, depth = state.legal_actions()[0], 1
        while time.perf_counter() < deadline and depth <= 12:
            found = alphabeta(state, depth, mobility).best
            best = found if found is not None else best
            depth += 1
        return Decision(best, {"depth": depth - 1})


class PauseBot(BaseBot):
    """Waits a fixed time per move, then plays the first legal action: a bot that needs no CPU."""

    name = "pause"

    def __init__(self, pause: float) -> None:
        super().__init__()
        self.pause = pause

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        time.sleep(self.pause)
        return Decision(state.legal_actions()[0])


def make_pause_bot(game: Game[Any], seed: int | None = None, pause: float = 0.01) -> PauseBot:
    """Factory of :class:`PauseBot` for ``extra_bots``."""
    return PauseBot(pause)


def make_deepening_bot(game: Game[Any], seed: int | None = None, ms: float = 5.0) -> DeepeningBot:
    """Factory of :class:`DeepeningBot` for ``extra_bots``."""
    return DeepeningBot(ms / 1000)


def make_search_bot(game: Game[Any], seed: int | None = None, depth: int = 3) -> SearchBot:
    """Factory of :class:`SearchBot` for ``extra_bots``."""
    return SearchBot(depth)


def direct(config: TournamentConfig) -> float:
    """Play the tournament's games with ``play_game`` alone; seconds."""
    game = make(config.game)
    names = config.names()
    blocks = schedule(len(config.players), seats=2, games=config.games, master=config.seed or 0)
    start = time.perf_counter()
    for block in blocks:
        for seating in block.seatings:
            bots = [build_bot(game, config.players[i], extra_bots=config.extra_bots) for i in seating]
            seeds = [bot_seed(config.seed or 0, block.round, names[i]) for i in seating]
            play_game(game, bots, seed=block.seed, names=[names[i] for i in seating], bot_seeds=seeds)
    return time.perf_counter() - start


def through_arena(config: TournamentConfig, folder: Path, backend: Any = None) -> float:
    """Play the same games as a tournament with a database and replays; seconds."""
    store = Store(folder / f"{time.perf_counter_ns()}.sqlite")
    start = time.perf_counter()
    run_tournament(config, store, backend or InlineBackend(), new=True)
    elapsed = time.perf_counter() - start
    store.close()
    return elapsed


def overhead(label: str, config: TournamentConfig, repeats: int, folder: Path) -> None:
    games = len(schedule(len(config.players), seats=2, games=config.games, master=config.seed or 0)) * 2
    direct(config)  # warm-up: imports and caches
    plain, arena = [], []
    for _ in range(repeats):
        plain.append(direct(config))
        arena.append(through_arena(config, folder))
    a, b = statistics.median(plain), statistics.median(arena)
    print(
        f"{label:<34} {games:>6} {1000 * a / games:>12.3f} {1000 * b / games:>12.3f} "
        f"{1000 * (b - a) / games:>10.3f} {100 * (b / a - 1):>+9.1f} %"
    )


def speedup(config: TournamentConfig, repeats: int, folder: Path) -> None:
    times: dict[int, float] = {}
    for workers in (1, 2):
        backend = ProcessBackend(workers)
        try:
            through_arena(config, folder, backend)  # start the workers and load their caches
            times[workers] = statistics.median(through_arena(config, folder, backend) for _ in range(repeats))
        finally:
            backend.close()
    print(f"{'workers':>8} {'median s':>10} {'ratio':>8}")
    for workers, seconds in times.items():
        print(f"{workers:>8} {seconds:>10.3f} {times[1] / seconds:>7.2f}x")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="fewer games and repeats")
    args = parser.parse_args(argv)
    repeats = 3 if args.quick else 5
    sys.path.insert(0, str(Path(__file__).parent))
    search = TournamentConfig(
        GAME,
        ("search(depth=5)", "search(depth=4)"),
        games=8 if args.quick else 20,
        seed=1,
        extra_bots=SEARCH_BOTS,
    )
    deep = TournamentConfig(
        GAME,
        ("search(depth=6)", "search(depth=5)"),
        games=4 if args.quick else 10,
        seed=1,
        extra_bots=SEARCH_BOTS,
    )
    tiny = TournamentConfig(GAME, ("greedy", "random"), games=100 if args.quick else 400, seed=1)
    timed = TournamentConfig(
        GAME,
        ("deepening(ms=5)", "deepening(ms=5,name=b)"),
        games=4 if args.quick else 10,
        seed=1,
        extra_bots=SEARCH_BOTS,
    )
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        print("1. arena overhead per game (inline backend, SQLite + replays; medians of", repeats, "runs)")
        print(
            f"{'bots':<34} {'games':>6} {'direct ms':>12} {'arena ms':>12} {'extra ms':>10} {'overhead':>11}"
        )
        overhead("iterative deepening, 5 ms per move", timed, repeats, folder)
        overhead("alphabeta depth 6 vs depth 5", deep, repeats, folder)
        overhead("alphabeta depth 5 vs depth 4", search, repeats, folder)
        overhead("greedy vs random (worst case)", tiny, repeats, folder)
        print()
        print("2. speed-up from 1 to 2 worker processes, alphabeta depth 5 vs 5 (target >= 1.8x)")
        cpu = TournamentConfig(
            GAME,
            ("search(depth=5)", "search(depth=5,name=b)"),
            games=8 if args.quick else 16,
            seed=2,
            extra_bots=SEARCH_BOTS,
        )
        speedup(cpu, 1 if args.quick else 3, folder)
        print()
        print("3. the same with bots that wait instead of computing (the harness alone, whatever the load)")
        waiting = TournamentConfig(
            GAME,
            ("pause(pause=0.01)", "pause(pause=0.01,name=b)"),
            games=8 if args.quick else 16,
            seed=2,
            extra_bots=SEARCH_BOTS,
        )
        speedup(waiting, 1 if args.quick else 3, folder)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
