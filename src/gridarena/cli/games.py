"""List the registered games, one line each, with their players and bots.

examples:
  gridarena games
  gridarena games --json
"""

from __future__ import annotations

import argparse

from gridarena.cli.output import print_json
from gridarena.core.registry import available_bots, available_games, make


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of ``gridarena games``."""
    parser.add_argument("--json", action="store_true", help="print a JSON list instead of text")


def run(args: argparse.Namespace) -> int:
    """Print one line per game: name, players, default parameters, bots."""
    rows = []
    for name in available_games():
        game = make(name)
        params, bots = dict(game.params), available_bots(name)
        rows.append({"game": name, "players": game.num_players, "params": params, "bots": bots})
        if not args.json:
            text = ",".join(f"{k}={v}" for k, v in params.items())
            print(f"{name:<14} players={game.num_players} params=({text}) bots: {', '.join(bots)}")
    if args.json:
        print_json(rows)
    return 0
