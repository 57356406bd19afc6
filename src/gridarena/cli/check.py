"""Run the conformance checker on a game: random seeded games through every named check.

Exits 1 at the first broken invariant, naming the check, the seed and the ply.

  gridarena check isolation --games 1000
  gridarena check 'isolation(width=5,height=4)' --seed 7
  gridarena check --all
"""

from __future__ import annotations

import argparse

from gridarena.cli.options import SEED, count
from gridarena.cli.output import err, print_json
from gridarena.cli.progress import ticker
from gridarena.core.checker import STATE_CHECKS, check_game
from gridarena.core.errors import ConformanceError, GridArenaError
from gridarena.core.registry import available_games, make


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of ``gridarena check``."""
    parser.add_argument("game", nargs="?", help="game name or spec, e.g. isolation(width=5,height=5)")
    parser.add_argument("--all", action="store_true", help="check every registered game")
    parser.add_argument("--games", type=count(), default=100, help="random games to play (default 100)")
    parser.add_argument("--seed", type=SEED, default=0, help="seed of the first game (default 0)")
    parser.add_argument("--quiet", action="store_true", help="no progress display")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")


def _check_one(spec: str, args: argparse.Namespace) -> dict[str, object]:
    game = make(spec)
    with ticker(args.quiet, f"checking {spec}", args.games) as tick:
        states = check_game(game, args.games, args.seed, tick.update)
    return {"game": spec, "games": args.games, "seed": args.seed, "states": states, "ok": True}


def run(args: argparse.Namespace) -> int:
    """Check one game (or all); print what was checked."""
    if args.all == bool(args.game):
        raise GridArenaError("name one game or give --all")
    results = []
    for spec in available_games() if args.all else [args.game]:
        try:
            results.append(_check_one(spec, args))
        except ConformanceError as exc:
            results.append({"game": spec, "ok": False, "error": str(exc)})
    if args.json:
        print_json(results)
    for result in results:
        if result["ok"]:
            names = ", ".join(check.__name__.removeprefix("check_") for check in STATE_CHECKS)
            err.print(f"{result['game']}: ok, {result['games']} games, {result['states']} states ({names})")
        else:
            err.print(f"{result['game']}: FAILED {result['error']}")
    return 0 if all(r["ok"] for r in results) else 1
