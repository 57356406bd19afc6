"""gridarena: faithful grid-game engines, search, bots and an arena. One subcommand per task."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from gridarena import __version__
from gridarena.core.errors import GridArenaError

#: Subcommand name -> module with HELP, configure(parser) and run(args) -> int.
COMMANDS: dict[str, str] = {
    "games": "gridarena.cli.games",
    "play": "gridarena.cli.play",
    "check": "gridarena.cli.check",
    "replay": "gridarena.cli.replay",
    "stats": "gridarena.cli.stats",
    "search": "gridarena.cli.search",
    "pentocity": "gridarena.cli.pentocity",
    "tournament": "gridarena.cli.tournament",
    "results": "gridarena.cli.results",
    "puzzle": "gridarena.cli.puzzle",
    "isolation": "gridarena.cli.isolation",
    "iceandfire": "gridarena.cli.iceandfire",
}


def build_parser() -> argparse.ArgumentParser:
    """The parser with every registered subcommand."""
    parser = argparse.ArgumentParser(prog="gridarena", description=__doc__)
    parser.add_argument("--version", action="version", version=f"gridarena {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, module_name in COMMANDS.items():
        module = importlib.import_module(module_name)
        command = sub.add_parser(
            name,
            help=module.HELP,
            description=module.__doc__,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        module.configure(command)
        command.set_defaults(run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; a ``GridArenaError`` becomes one line on stderr and exit code 1."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except GridArenaError as exc:
        print(f"gridarena {args.command}: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


def entry() -> None:
    """Console-script entry point."""
    sys.exit(main())
