"""List the bots of a game with their parameters: type, range, default, and what each reaches.

Every bot is built from its declaration: a spec such as 'alphabeta(depth=5,heuristic=improved)' is
checked against the list printed here before the bot is made. Bots marked "web" are the ones the
viewer offers (they reach nothing beyond the game: no program, no file, no terminal).

examples:
  gridarena bots isolation
  gridarena bots isolation alphabeta
  gridarena bots reversixt --json
"""

from __future__ import annotations

import argparse

from gridarena.cli.output import print_json
from gridarena.core.catalogue import describe_bot
from gridarena.core.params import REQUIRED
from gridarena.core.registry import available_games, bot_entry, bot_table, offered_bots


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of ``gridarena bots``."""
    parser.add_argument("game", choices=available_games(), help="the game")
    parser.add_argument("bot", nargs="?", help="one bot only (default: all)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def run(args: argparse.Namespace) -> int:
    """Print each bot's declaration."""
    names = [args.bot] if args.bot else sorted(bot_table(args.game))
    offered = set(offered_bots(args.game))
    entries = {name: bot_entry(args.game, name) for name in names}
    if args.json:
        print_json(
            [
                {
                    "bot": name,
                    "title": entry.title or name,
                    "summary": entry.summary,
                    "web": name in offered,
                    "reaches": sorted(r.value for r in entry.reaches),
                    "params": {
                        key: {
                            "accepts": p.describe(),
                            "default": None if p.default is REQUIRED else p.default,
                            "required": p.default is REQUIRED,
                            "help": p.help,
                        }
                        for key, p in entry.params.items()
                    },
                }
                for name, entry in entries.items()
            ]
        )
        return 0
    for name, entry in entries.items():
        lines = describe_bot(name, entry)
        print(lines[0] + ("  [web]" if name in offered else ""))
        print("\n".join(lines[1:]) if len(lines) > 1 else "  (no parameters)")
    print("every bot also takes name=TEXT (its display name) and seed=N")
    return 0
