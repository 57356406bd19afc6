"""A Code of Ice and Fire: the seed's map, one match over the CodinGame protocol, a bot on stdin/stdout.

  gridarena iceandfire map --seed 1                      # the 12 rows and mine spots of CodinGame's seed 1
  gridarena iceandfire match --p1 best --p2 'python3 mybot.py' --seed 7 --replay game.jsonl
  gridarena iceandfire match --p1 ./mybot --p2 postmortem --json
  gridarena iceandfire bot best                           # our bot, reading CodinGame's input on stdin

``match`` is ``gridarena play iceandfire`` under another name: ``--p1``/``--p2`` are the two seats,
each one of our bots by NAME (a bot spec of ``gridarena games``) or, when it holds a space or a path,
a command: a program in any language that reads the statement's input on stdin and answers one line
a turn (stderr is kept in the replay). Time limits are CodinGame's, 1000 ms for a player's first
answer and 50 ms after (``--first-turn-ms``, ``--turn-ms``, i.e. ``gridarena play --time 1/0.05``;
``--untimed`` for debugging); a late, missing or unrecognised answer loses. The result and the
replay are ``gridarena play``'s.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import Any

from gridarena.arena.players import entrant_spec
from gridarena.bots.warmup import WarmingBot
from gridarena.cli.options import SEED, OptionRangeError, Parser, milliseconds
from gridarena.cli.output import err
from gridarena.cli.play import play_one
from gridarena.core.clock import DEFAULT_GRACE
from gridarena.core.errors import GridArenaError
from gridarena.core.registry import make, make_bot
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
    show.add_argument("--seed", type=SEED, required=True, help="the CodinGame seed (a Java long)")
    _rules_options(show)
    show.set_defaults(handler=run_map)

    match = commands.add_parser("match", help="one game between two bots or programs", description=__doc__)
    match.add_argument("--p1", required=True, help="red (moves first): a bot NAME or a command")
    match.add_argument("--p2", required=True, help="blue: a bot NAME or a command")
    match.add_argument("--seed", type=SEED, help="the map seed (drawn and printed when absent)")
    _rules_options(match)
    match.add_argument("--replay", metavar="FILE", help="write the replay (JSON Lines) to FILE")
    match.add_argument("--json", action="store_true", help="print the result as one JSON object")
    match.add_argument(
        "--first-turn-ms", type=milliseconds(above=0), default=1000.0, help="limit of a first answer"
    )
    match.add_argument(
        "--turn-ms", type=milliseconds(above=0), default=50.0, help="limit of every later answer"
    )
    match.add_argument(
        "--grace-ms",
        type=milliseconds(),
        default=DEFAULT_GRACE * 1000,
        help="how late an answer may still count",
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


def run_match(args: argparse.Namespace) -> int:
    """One match: ``gridarena play`` with CodinGame's time control and the two seats as ``--p1``/``--p2``."""
    game = make("iceandfire", rules=args.rules, league=args.league)
    time = None if args.untimed else f"{args.first_turn_ms / 1000:g}/{args.turn_ms / 1000:g}"
    seed = int.from_bytes(os.urandom(8), "big", signed=True) if args.seed is None else args.seed
    if args.seed is None and not args.json:
        err.print(f"seed {seed}")
    return play_one(
        game,
        [entrant_spec(game, player) for player in (args.p1, args.p2)],
        seed=seed,
        time=time,
        grace=args.grace_ms / 1000,
        replay=args.replay,
        as_json=args.json,
    )


def standalone(name: str, game: Any, on_ready: Callable[[float], None] | None = None) -> CodinGameBot:
    """Our bot ``name`` ready for :func:`serve`: a CodinGame bot itself, or any bot through a state.

    A bot of the registry warms up in a thread (:class:`~gridarena.bots.warmup.WarmingBot`): a turn
    that comes first gets a cheap legal answer in time; ``on_ready(seconds)`` is told when a warm-up
    is over (the CodinGame bots themselves have nothing to compile or load).
    """
    bot_name = parse_spec(name)[0]
    if bot_name in STANDALONE and "(" not in name:
        return STANDALONE[bot_name]()
    return StateBot(WarmingBot(make_bot(game, name), game, on_ready), game)


def run_bot(args: argparse.Namespace) -> int:
    """Serve one game on stdin/stdout; the warm-up starts before the first input is read."""
    game = make("iceandfire", rules=args.rules, league=args.league)

    def ready(seconds: float) -> None:
        print(f"{args.name}: ready after {seconds:.2f} s of warm-up", file=sys.stderr, flush=True)

    bot = standalone(args.name, game, ready)

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
    parser = Parser(prog="python -m gridarena.cli.iceandfire", description=__doc__)
    configure(parser)
    try:
        args = parser.parse_args(argv)
    except OptionRangeError as exc:
        print(exc, file=sys.stderr)
        return 1
    try:
        return run(args)
    except GridArenaError as exc:
        print(f"gridarena iceandfire: error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
