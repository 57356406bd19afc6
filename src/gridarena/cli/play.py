"""Play one game between bots (or a human at the terminal) and print the result.

  gridarena play isolation --players greedy,random --seed 7 --replay game.jsonl
  gridarena play isolation --players human,greedy        # you move first; type cells like d4
  gridarena play 'isolation(width=5,height=5)' --players random,random --json

Players are bot specs of the game (see `gridarena games`), comma-separated, one per seat.
Without --seed a seed is drawn and printed, so every game can be repeated.
"""

from __future__ import annotations

import argparse
import os
import sys

from gridarena.arena.replay import ReplayRecorder
from gridarena.cli.output import err, print_json
from gridarena.core.errors import GridArenaError
from gridarena.core.play import Recorder, play_game
from gridarena.core.registry import make, make_bot
from gridarena.core.specs import split_players


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of ``gridarena play``."""
    parser.add_argument("game", help="game name or spec, e.g. isolation or 'isolation(width=5,height=5)'")
    parser.add_argument("--players", required=True, help="comma-separated bot specs, one per seat")
    parser.add_argument("--seed", type=int, help="seed of the game (drawn and printed when absent)")
    parser.add_argument("--time", type=float, help="seconds per move (default: no limit)")
    parser.add_argument("--replay", metavar="FILE", help="write the replay (JSON Lines) to FILE")
    parser.add_argument("--max-plies", type=int, help="adjudicate a draw after this many plies")
    parser.add_argument("--json", action="store_true", help="print the result as JSON on stdout")
    parser.add_argument("--quiet", action="store_true", help="print only the result line")


def run(args: argparse.Namespace) -> int:
    """Play the game; print the final board and the result."""
    game = make(args.game)
    specs = split_players(args.players)
    if len(specs) != game.num_players:
        raise GridArenaError(f"{game.name} needs {game.num_players} players, --players gives {len(specs)}")
    bots = [make_bot(game, spec) for spec in specs]
    seed = int.from_bytes(os.urandom(4), "big") if args.seed is None else args.seed
    if args.seed is None and not args.json:
        err.print(f"seed {seed}")
    recorders: list[Recorder] = []
    if args.replay:
        recorders.append(ReplayRecorder(args.replay, game, specs, seed, game.new_initial_state(seed)))
    try:
        record = play_game(
            game,
            bots,
            seed=seed,
            names=specs,
            time_per_move=args.time,
            max_plies=args.max_plies,
            recorders=recorders,
        )
    finally:  # an external program is killed and reaped, whatever happened
        for bot in bots:
            if hasattr(bot, "close"):
                bot.close()
    outcome = record.outcome
    summary = {
        "game": game.name,
        "params": dict(game.params),
        "seed": seed,
        "players": specs,
        "returns": list(outcome.returns),
        "ranks": list(outcome.ranks()),
        "termination": outcome.termination,
        "reason": outcome.reason,
        "plies": record.plies,
        "seconds": round(record.seconds, 3),
        "moves": [turn.action for turn in record.turns],
        "replay": os.path.abspath(args.replay) if args.replay else None,
    }
    if args.json:
        print_json(summary)
        return 0
    if not args.quiet:
        print(record.final_state.to_text(), file=sys.stderr)
    winners = [specs[i] for i, rank in enumerate(outcome.ranks()) if rank == 1]
    verdict = "draw" if len(winners) == game.num_players > 1 else f"winner: {', '.join(winners)}"
    print(f"{verdict} ({outcome.termination}: {outcome.reason}) after {record.plies} plies, seed {seed}")
    if args.replay:
        print(f"replay: {summary['replay']}")
    return 0
