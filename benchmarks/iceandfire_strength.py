"""Ice and Fire: one bot against a sparring pool, seed by seed in both seats, at CodinGame's clock.

For each opponent of ``--pool`` (bot specs of the registry, or ``name=command`` for a program
behind the CodinGame protocol, e.g. ``roout=/tmp/sparring/roout/roout``) the bot plays
``--seeds`` maps (seeds ``--first-seed``, ``--first-seed + 1``, ...) twice, once in each seat, on the
arena's loop with a ``--time`` control (default CodinGame's ``1/0.05``: 1 s for the first turn,
50 ms after) on the ``--clock`` (``cpu`` by default: each bot charged and stopped by its own CPU
time, so the machine's load changes no verdict). It prints, per opponent, the games won, lost and
drawn, the score with its Wilson 95 % interval, how the losses came (HQ taken on which turns,
on points, forfeits) and the bot's turn times (p50 and p99 of CPU and wall, first turns apart), then
the whole pool's total. ``--json FILE`` also writes every game.

    /work/bin/onecore .venv/bin/python benchmarks/iceandfire_strength.py --bot best \\
        --pool wood1,postmortem,pusher --seeds 20
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from gridarena.arena.intervals import wilson_interval
from gridarena.bots.external import ExternalBot
from gridarena.core.gameclock import game_clock
from gridarena.core.play import play_game
from gridarena.core.registry import make, make_bot
from gridarena.core.specs import split_players


def opponent(game: Any, spec: str) -> Any:
    """A registry bot, or ``name=command``: a program over the CodinGame protocol."""
    if "=" in spec and "(" not in spec.split("=", 1)[0]:
        name, command = spec.split("=", 1)
        return ExternalBot(command, name=name, protocol="codingame")
    return make_bot(game, spec)


def label(spec: str) -> str:
    return spec.split("=", 1)[0] if "=" in spec and "(" not in spec.split("=", 1)[0] else spec


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank quantile (0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))]


def play_pool(args: argparse.Namespace) -> list[dict[str, Any]]:
    game = make("iceandfire", rules=args.rules, league=args.league)
    games: list[dict[str, Any]] = []
    for spec in split_players(args.pool):
        for k in range(args.seeds):
            seed = args.first_seed + k
            for seat in (0, 1):
                ours, theirs = make_bot(game, args.bot), opponent(game, spec)
                bots = [ours, theirs] if seat == 0 else [theirs, ours]
                clock = game_clock(args.time, 2, clock=args.clock)
                try:
                    record = play_game(game, bots, seed=seed, names=["a", "b"], clock=clock)
                finally:
                    if hasattr(theirs, "close"):
                        theirs.close()
                returns = record.outcome.returns
                result = "draw" if returns[0] == returns[1] else "win" if returns[seat] > 0 else "loss"
                mine = [t for t in record.turns if t.player == seat]
                games.append(
                    {
                        "opponent": label(spec),
                        "seed": seed,
                        "seat": seat,
                        "result": result,
                        "termination": record.outcome.termination,
                        "reason": record.outcome.reason,
                        "forfeit": record.outcome.forfeit_player,
                        "turns": record.final_state.result_info().get("turns"),
                        "cpu_ms": [t.cpu_ms for t in mine[1:]],
                        "wall_ms": [t.wall_ms for t in mine[1:]],
                    }
                )
                if not args.quiet:
                    g = games[-1]
                    print(
                        f"{g['opponent']} seed {seed} seat {seat}: {result} ({g['reason']})", file=sys.stderr
                    )
    return games


def summary_rows(games: list[dict[str, Any]]) -> list[tuple[str, ...]]:
    rows = []
    names = list(dict.fromkeys(g["opponent"] for g in games))
    for name in [*names, "all"]:
        chosen = [g for g in games if name == "all" or g["opponent"] == name]
        won = sum(g["result"] == "win" for g in chosen)
        lost = sum(g["result"] == "loss" for g in chosen)
        drawn = len(chosen) - won - lost
        score = (won + 0.5 * drawn) / len(chosen)
        low, high = wilson_interval(score, len(chosen))
        hq = sorted(g["turns"] for g in chosen if g["result"] == "loss" and "HQ" in g["reason"])
        forfeits = sum(1 for g in chosen if g["termination"] not in ("normal",))
        cpu = [v for g in chosen for v in g["cpu_ms"]]
        wall = [v for g in chosen for v in g["wall_ms"]]
        rows.append(
            (
                name,
                str(len(chosen)),
                str(won),
                str(lost),
                str(drawn),
                f"{100 * score:.1f} %",
                f"{100 * low:.1f}-{100 * high:.1f} %",
                f"{len(hq)}" + (f" (turns {', '.join(map(str, hq))})" if hq else ""),
                str(forfeits),
                f"{statistics.median(cpu):.1f} / {percentile(cpu, 0.99):.1f}" if cpu else "",
                f"{statistics.median(wall):.1f} / {percentile(wall, 0.99):.1f}" if wall else "",
            )
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--bot", default="best", help="the bot measured (a registry spec)")
    parser.add_argument("--pool", default="wood1,postmortem,pusher", help="opponents, comma-separated")
    parser.add_argument("--seeds", type=int, default=10, help="maps per opponent (each played in both seats)")
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--time", default="1/0.05", help="the time control (default CodinGame's 1/0.05)")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    parser.add_argument("--rules", default="contest")
    parser.add_argument("--league", default="bronze")
    parser.add_argument("--json", metavar="FILE", help="write every game to FILE")
    parser.add_argument("--quiet", action="store_true", help="no line per game on stderr")
    args = parser.parse_args()
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    start = time.perf_counter()
    games = play_pool(args)
    print(
        f"{args.bot} against {args.pool}: {args.seeds} seeds from {args.first_seed}, both seats, {args.time} "
        f"on the {args.clock} clock; load average {load} before, "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} after; {time.perf_counter() - start:.0f} s"
    )
    header = (
        "opponent",
        "games",
        "won",
        "lost",
        "drawn",
        "score",
        "Wilson 95 %",
        "HQ lost",
        "forfeits",
        "turn CPU p50/p99 ms",
        "turn wall p50/p99 ms",
    )
    print("| " + " | ".join(header) + " |")
    print("|" + " --- |" * len(header))
    for row in summary_rows(games):
        print("| " + " | ".join(row) + " |")
    if args.json:
        Path(args.json).write_text(json.dumps(games, indent=1))


if __name__ == "__main__":
    main()
