"""gridarena: faithful grid-game engines, search, bots and an arena. One subcommand per task.

examples:
  gridarena games                                   list the games
  gridarena tournament isolation --players greedy,random --games 10
  gridarena puzzle solve case1_1.in                 solve a homework case
  gridarena COMMAND --help                          the options of one command
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Final, NamedTuple

from gridarena import __version__
from gridarena.cli.options import OptionRangeError, Parser
from gridarena.core.errors import GridArenaError


class Command(NamedTuple):
    """A subcommand: the module with ``configure(parser)`` and ``run(args) -> int``, and its help line."""

    module: str
    help: str


#: Subcommand name -> its module and one-line help. Only the chosen command's module is imported (with
#: numba, scipy and the games behind it), so ``gridarena --help`` and ``--version`` start at once.
COMMANDS: dict[str, Command] = {
    "games": Command("gridarena.cli.games", "list the registered games"),
    "bots": Command("gridarena.cli.bots", "list a game's bots with their parameters, ranges and defaults"),
    "play": Command("gridarena.cli.play", "play one game between bots or a human"),
    "check": Command("gridarena.cli.check", "check a game against the game API (conformance)"),
    "replay": Command("gridarena.cli.replay", "print or check a replay file"),
    "stats": Command("gridarena.cli.stats", "Elo, nElo, LOS and SPRT of win/loss/draw or pentanomial counts"),
    "search": Command(
        "gridarena.cli.search", "analyse a position with alpha-beta, paranoid, max^n, BRS or minimax"
    ),
    "pentocity": Command(
        "gridarena.cli.pentocity", "Pentocity: request streams, single-player runs and the 2016 tournament"
    ),
    "tournament": Command(
        "gridarena.cli.tournament", "play a round-robin or gauntlet tournament and store every game"
    ),
    "results": Command(
        "gridarena.cli.results", "show a stored tournament's standings, crosstable and per-bot figures"
    ),
    "puzzle": Command(
        "gridarena.cli.puzzle", "sliding puzzles: solve cases, build pattern databases, benchmark"
    ),
    "serve": Command(
        "gridarena.cli.serve",
        "web viewer: results, replays of every game, live tournaments, play against bots",
    ),
    "isolation": Command(
        "gridarena.cli.isolation", "Isolation: AIND tournament, fair head-to-head pairs, the solved board"
    ),
    "analyze": Command(
        "gridarena.cli.analyze",
        "analyse a replay or a tournament's games: evaluation, blunders, loss per move",
    ),
    "reversixt": Command(
        "gridarena.cli.reversixt",
        "ReversiXT: check reference traces, describe maps, count moves, play over TCP",
    ),
    "iceandfire": Command(
        "gridarena.cli.iceandfire",
        "Ice and Fire: the seed's map, a match over the CodinGame protocol, a bot on stdin/stdout",
    ),
}

REPORT = "please report this, with the command line; --debug shows the traceback"


def chosen_command(argv: Sequence[str]) -> str | None:
    """The subcommand named in ``argv`` (the first word that is not an option), if it is one of ours."""
    for word in argv:
        if word == "--":
            return None
        if not word.startswith("-"):
            return word if word in COMMANDS else None
    return None


def build_parser(configure: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser, with the options of the commands in ``configure`` (default: every command).

    A command left out still appears in ``gridarena --help`` with its help line; its module is not
    imported.
    """
    wanted = COMMANDS.keys() if configure is None else set(configure)
    parser = Parser(
        prog="gridarena", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--version", action="version", version=f"gridarena {__version__}")
    parser.add_argument(
        "--debug", action="store_true", help="show the Python traceback of an unexpected error"
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, command in COMMANDS.items():
        if name not in wanted:
            sub.add_parser(name, help=command.help, add_help=False)
            continue
        module = importlib.import_module(command.module)
        subparser = sub.add_parser(
            name,
            help=command.help,
            description=module.__doc__,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        module.configure(subparser)
        subparser.set_defaults(run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; a ``GridArenaError`` becomes one line on stderr and exit code 1.

    A value out of its option's range is one line and exit code 1 too; a reader that closed our
    output (``gridarena results | head -1``) ends the command quietly with exit code 141
    (:data:`CLOSED_OUTPUT`). Any other exception is a bug: one line naming it and the command,
    exit 2 (the traceback with ``--debug``).
    """
    try:
        return _main(list(sys.argv[1:] if argv is None else argv))
    except BrokenPipeError:
        return _closed_output()


#: The exit code of a command whose output was closed: a shell's code for a program that SIGPIPE ended
#: (128 + 13), as ``yes | head -1`` gives ``yes``. Python ignores SIGPIPE, so the write raises instead.
CLOSED_OUTPUT: Final = 141


def _closed_output() -> int:
    """Stop writing to a closed stdout, so that the interpreter's last flush does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # a stdout without a descriptor (a test's capture) needs nothing
        pass
    return CLOSED_OUTPUT


def _main(argv: list[str]) -> int:
    name = chosen_command(argv)
    try:
        args = build_parser([] if name is None else [name]).parse_args(argv)
    except OptionRangeError as exc:  # a value out of its option's range: one line, exit 1
        print(exc, file=sys.stderr)
        return 1
    try:
        code = int(args.run(args))
        sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's last flush
        return code
    except GridArenaError as exc:
        print(f"gridarena {args.command}: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        raise
    except Exception as exc:
        if args.debug:
            raise
        print(
            f"gridarena {args.command}: internal error: {type(exc).__name__}: {exc} ({REPORT})",
            file=sys.stderr,
        )
        return 2


def entry() -> None:
    """Console-script entry point."""
    sys.exit(main())
