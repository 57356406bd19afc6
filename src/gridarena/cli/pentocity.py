"""Pentocity tools. ``gridarena pentocity sequence --sequencer random --seed 869 --count 8`` prints the
request stream in the format of the spec's test vectors (cells in Java's HashSet order)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable

from gridarena.core.errors import GridArenaError
from gridarena.games.pentocity.formats import request_line
from gridarena.games.pentocity.sequencers import SEQUENCERS, entropy_seed, make_sequencer, take

HELP = "Pentocity: print a sequencer's request stream"

Handler = Callable[[argparse.Namespace], int]


class UsageError(GridArenaError, ValueError):
    """A command-line value that is out of range."""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the ``pentocity`` subcommands (``sequence``; one subparser each, so more can follow)."""
    commands = parser.add_subparsers(dest="pentocity_command", metavar="COMMAND", required=True)
    sequence = commands.add_parser(
        "sequence",
        help="print the first requests of a sequencer",
        description="Print the first requests of a sequencer, seed-exact with the Java original.",
    )
    sequence.add_argument(
        "--sequencer", required=True, metavar="NAME", help=f"one of: {', '.join(sorted(SEQUENCERS))}"
    )
    sequence.add_argument("--seed", type=int, help="Java seed (a signed 64-bit integer); drawn when absent")
    sequence.add_argument("--count", type=int, default=8, help="number of requests (default 8)")
    sequence.add_argument("--json", action="store_true", help="print the requests as JSON on stdout")
    sequence.set_defaults(pentocity_handler=run_sequence)


def run(args: argparse.Namespace) -> int:
    """Run the chosen ``pentocity`` subcommand."""
    handler: Handler = args.pentocity_handler
    return handler(args)


def run_sequence(args: argparse.Namespace) -> int:
    """Print ``--count`` requests of ``--sequencer`` seeded with ``--seed``."""
    if args.count < 0:
        raise UsageError(f"--count must be at least 0, got {args.count}")
    seed = args.seed
    if seed is None:
        seed = entropy_seed()
        print(f"seed: {seed}", file=sys.stderr)
    sequencer = make_sequencer(args.sequencer, seed)
    if sequencer.REPRODUCIBLE == "distribution":
        print(f"note: Java's {args.sequencer} ignores the seed; this stream is not Java's", file=sys.stderr)
    requests = take(sequencer, args.count)
    if args.json:
        entries = [
            {
                "index": n,
                "kind": b.kind.value,
                "shape": b.shape_name(),
                "rotations": len(b.rotations()),
                "cells": [list(c) for c in b.java_cells()],
            }
            for n, b in enumerate(requests, 1)
        ]
        print(json.dumps({"sequencer": args.sequencer, "seed": seed, "requests": entries}))
    else:
        for n, building in enumerate(requests, 1):
            print(request_line(n, building))
    return 0
