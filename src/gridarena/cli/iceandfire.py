"""A Code of Ice and Fire: the seed's map, one match over the CodinGame protocol, a bot on stdin/stdout.

  gridarena iceandfire map --seed 1                      # the 12 rows and mine spots of CodinGame's seed 1
  gridarena iceandfire match --p1 best --p2 'python3 mybot.py' --seed 7 --replay game.jsonl
  gridarena iceandfire match --p1 ./mybot --p2 postmortem --json
  gridarena iceandfire bot best                           # our bot, reading CodinGame's input on stdin

A player of ``match`` is one of our bots by NAME (a bot spec of ``gridarena games``) or, when it
holds a space or a path, a command: a program in any language that reads the statement's input on
stdin and answers one line a turn (stderr is kept in the replay). Time limits are CodinGame's, 1000
ms for a player's first answer and 50 ms after (``--first-turn-ms``, ``--turn-ms``; ``--untimed``
for debugging); a late, missing or unrecognised answer loses. The match runs on the arena's one game
loop and writes the arena's replay (``gridarena replay FILE``).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from gridarena.arena.replay import ReplayRecorder
from gridarena.bots.external import ExternalBot
from gridarena.cli.output import err, print_json
from gridarena.core.clock import DEFAULT_GRACE
from gridarena.core.errors import GridArenaError
from gridarena.core.gameclock import TimeSpec, game_clock
from gridarena.core.play import Recorder, play_game
from gridarena.core.registry import available_bots, make, make_bot
from gridarena.core.specs import parse_spec
from gridarena.games.iceandfire.bots import STANDALONE
from gridarena.games.iceandfire.formats import LEAGUES, RULES
from gridarena.games.iceandfire.mapgen import format_map, generate
from gridarena.games.iceandfire.protocol import CodinGameBot, StateBot, serve


def _rules_options(parser: argparse.ArgumentParser) -> None:
    """``--rules`` and ``--league``, shared by every subcommand."""
    parser.add_argument(
        "--rules",
        choices=RULES,
        default="contest",
        help="contest (default: the May 2019 referee) or multi (the later one)",
    )
    parser.add_argument(
        "--league",
        choices=LEAGUES,
        default="bronze",
        help="wood3, wood2, wood1 or bronze (default: every rule)",
    )


def configure(parser: argparse.ArgumentParser) -> None:
    """The ``map``, ``match`` and ``bot`` subcommands."""
    commands = parser.add_subparsers(dest="iceandfire_command", metavar="COMMAND", required=True)
    show = commands.add_parser("map", help="print the map of a CodinGame seed", description=__doc__)
    show.add_argument("--seed", type=int, required=True, help="the CodinGame seed (a Java long)")
    _rules_options(show)
    show.set_defaults(handler=run_map)

    match = commands.add_parser("match", help="one game between two bots or programs", description=__doc__)
    match.add_argument("--p1", required=True, help="red (moves first): a bot NAME or a command")
    match.add_argument("--p2", required=True, help="blue: a bot NAME or a command")
    match.add_argument("--seed", type=int, help="the map seed (drawn and printed when absent)")
    _rules_options(match)
    match.add_argument("--replay", metavar="FILE", help="write the replay (JSON Lines) to FILE")
    match.add_argument("--json", action="store_true", help="print the result as one JSON object")
    match.add_argument("--first-turn-ms", type=float, default=1000.0, help="limit of a first answer")
    match.add_argument("--turn-ms", type=float, default=50.0, help="limit of every later answer")
    match.add_argument(
        "--grace-ms", type=float, default=DEFAULT_GRACE * 1000, help="how late an answer may still count"
    )
    match.add_argument("--untimed", action="store_true", help="no time limits (debugging)")
    match.set_defaults(handler=run_match)

    bot = commands.add_parser(
        "bot", help="one of our bots on stdin/stdout, as behind a CodinGame submission", description=__doc__
    )
    bot.add_argument("name", help="a bot spec, e.g. best, postmortem, wood1, random")
    _rules_options(bot)
    bot.set_defaults(handler=run_bot)


def run(args: argparse.Namespace) -> int:
    """Dispatch to the subcommand."""
    return int(args.handler(args))


def run_map(args: argparse.Namespace) -> int:
    """Print the generator's rows and spots for the seed."""
    print(format_map(generate(args.seed, args.rules, args.league)), end="")
    return 0


def is_command(player: str, game: Any) -> bool:
    """A player is a command when it holds a space or a path, or names no registered bot."""
    if " " in player.strip() or "/" in player or os.sep in player:
        return True
    name = parse_spec(player)[0] if "(" in player else player
    return name not in available_bots(game.name)


def make_player(game: Any, player: str, label: str) -> tuple[Any, str]:
    """(bot, display name) for ``--p1``/``--p2``."""
    if is_command(player, game):
        return ExternalBot(player, name=label, protocol="codingame"), player
    return make_bot(game, player), player


def winner_of(returns: tuple[float, ...]) -> int | None:
    """0 or 1 for the seat that won, None for a draw."""
    if returns[0] == returns[1]:
        return None
    return 0 if returns[0] > returns[1] else 1


def run_match(args: argparse.Namespace) -> int:
    """Play one match and print the result (a line, or ``--json``)."""
    game = make("iceandfire", rules=args.rules, league=args.league)
    if args.untimed:
        clock = game_clock(None, 2)
        control = None
    else:
        if args.first_turn_ms <= 0 or args.turn_ms <= 0:
            raise GridArenaError("--first-turn-ms and --turn-ms must be positive (or use --untimed)")
        spec = TimeSpec("move", per_move=args.turn_ms / 1000.0, first=args.first_turn_ms / 1000.0)
        clock = game_clock(spec, 2, grace=args.grace_ms / 1000.0)
        control = spec.to_text()
    seed = int.from_bytes(os.urandom(8), "big", signed=True) if args.seed is None else args.seed
    if args.seed is None and not args.json:
        err.print(f"seed {seed}")
    players = [make_player(game, p, f"p{k + 1}") for k, p in enumerate((args.p1, args.p2))]
    bots = [b for b, _ in players]
    names = [n for _, n in players]
    state = game.new_initial_state(seed)
    recorders: list[Recorder] = []
    if args.replay:
        recorders.append(
            ReplayRecorder(
                args.replay, game, names, seed, state, time_control=control, players_specs=[args.p1, args.p2]
            )
        )
    try:
        record = play_game(game, bots, seed=seed, names=names, state=state, clock=clock, recorders=recorders)
    finally:
        for bot in bots:
            if hasattr(bot, "close"):
                bot.close()
    outcome = record.outcome
    info = record.final_state.result_info()
    summary = {
        "seed": seed,
        "rules": args.rules,
        "winner": winner_of(outcome.returns),
        "scores": info.get("scores"),
        "turns": info.get("turns"),
        "termination": outcome.termination,
        "forfeit_player": outcome.forfeit_player,
        "reason": outcome.reason,
    }
    if args.json:
        print_json(summary)
        return 0
    print(record.final_state.to_text(), file=sys.stderr)
    won = summary["winner"]
    verdict = "draw" if won is None else f"winner: p{won + 1} ({names[won]})"
    print(f"{verdict}; {outcome.termination}: {outcome.reason}; scores {summary['scores']}; seed {seed}")
    if args.replay:
        print(f"replay: {os.path.abspath(args.replay)}")
    return 0


def standalone(name: str, game: Any) -> CodinGameBot:
    """Our bot ``name`` ready for :func:`serve`: a CodinGame bot itself, or any bot through a state."""
    bot_name = parse_spec(name)[0]
    if bot_name in STANDALONE and "(" not in name:
        return STANDALONE[bot_name]()
    return StateBot(make_bot(game, name), game)


def run_bot(args: argparse.Namespace) -> int:
    """Serve one game on stdin/stdout."""
    game = make("iceandfire", rules=args.rules, league=args.league)
    bot = standalone(args.name, game)

    def write(line: str) -> None:
        sys.stdout.write(line)
        sys.stdout.flush()

    try:
        serve(bot, sys.stdin.readline, write, game)
    except BrokenPipeError:  # the referee stopped reading: the game is over
        return 0
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m gridarena.cli.iceandfire ...``: these commands without loading every other one.

    The ``gridarena`` script builds the parser of every command (about 3 s of imports here); a
    bot's start-up counts in its first turn, as on CodinGame, so a bot behind the protocol is best
    started this way (about 0.4 s).
    """
    parser = argparse.ArgumentParser(prog="python -m gridarena.cli.iceandfire", description=__doc__)
    configure(parser)
    args = parser.parse_args(argv)
    try:
        return run(args)
    except GridArenaError as exc:
        print(f"gridarena iceandfire: error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
