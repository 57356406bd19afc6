"""Knight Isolation tools around the 2017 AIND project.

``gridarena isolation aind-tournament [--agents game_agent.py] [--matches 5]`` reproduces
tournament.py (the seven CPU opponents, shared random openings played twice with seats swapped,
the same table) and adds Wilson 95% intervals and per-agent timeout losses.
``gridarena isolation pairs --agents best ab_improved --pairs 200`` plays fair pairs head to head;
``--agents best_nodes ab_improved_depth --time-limit 60000`` plays the load-independent twins (best
with a node budget, AB_Improved's fixed-depth proxy), whose result no machine load can change.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable

from gridarena.core.errors import GridArenaError
from gridarena.games.isolation import tournament as t
from gridarena.games.isolation.aind import TIME_LIMIT_MILLIS

HELP = "Isolation: AIND tournament and fair head-to-head pairs"

Handler = Callable[[argparse.Namespace], int]

DESCRIPTION = """
This script evaluates the performance of the custom_score evaluation function
against the `ID_Improved` agent baseline. `ID_CustomScore` is an agent using
Iterative Deepening and the custom_score function defined in game_agent.py.
"""


class UsageError(GridArenaError, ValueError):
    """A command-line value that is out of range or unknown."""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the ``aind-tournament`` and ``pairs`` subcommands."""
    commands = parser.add_subparsers(dest="isolation_command", metavar="COMMAND", required=True)
    tour = commands.add_parser(
        "aind-tournament", help="AIND's tournament.py with 95%% intervals", description=__doc__
    )
    tour.add_argument(
        "--agents", metavar="FILE.py", help="an AIND game_agent.py (default: gridarena's agents)"
    )
    tour.add_argument("--matches", type=int, default=t.NUM_MATCHES, help="NUM_MATCHES (default 5)")
    tour.add_argument("--extra", nargs="*", default=[], metavar="NAME", help="more test agents, e.g. best")
    _common(tour)
    tour.set_defaults(isolation_handler=run_tournament)
    pairs = commands.add_parser("pairs", help="fair pairs between two agents", description=__doc__)
    pairs.add_argument(
        "--agents", nargs=2, default=["best", "ab_improved"], metavar="NAME", help="two agent names"
    )
    pairs.add_argument(
        "--pairs", type=int, default=50, help="random openings, each played twice (default 50)"
    )
    _common(pairs)
    pairs.set_defaults(isolation_handler=run_pairs)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--seed", type=int, help="seed of the openings and shuffles; drawn and printed if absent"
    )
    parser.add_argument(
        "--time-limit", type=float, default=TIME_LIMIT_MILLIS, help="ms per move (default 150)"
    )
    parser.add_argument("--width", type=int, default=7)
    parser.add_argument("--height", type=int, default=7)
    parser.add_argument("--json", action="store_true", help="print the result as JSON on stdout")


def run(args: argparse.Namespace) -> int:
    """Run the chosen ``isolation`` subcommand."""
    handler: Handler = args.isolation_handler
    return handler(args)


def _seed(args: argparse.Namespace) -> int:
    if args.seed is not None:
        return int(args.seed)
    seed = random.SystemRandom().randrange(2**31)
    print(f"seed: {seed}", file=sys.stderr)
    return seed


def _check_sizes(args: argparse.Namespace, count: int, label: str) -> None:
    if count < 1:
        raise UsageError(f"{label} must be at least 1, got {count}")
    if args.time_limit <= 0:
        raise UsageError(f"--time-limit must be positive, got {args.time_limit}")
    if not (3 <= args.width <= 11 and 3 <= args.height <= 11):
        raise UsageError(f"board {args.width}x{args.height}: width and height must be 3 to 11")


def run_tournament(args: argparse.Namespace) -> int:
    """AIND's tournament; the table on stdout (or JSON with ``--json``)."""
    _check_sizes(args, args.matches, "--matches")
    seed = _seed(args)
    rng = random.Random(seed ^ 0x5EED)
    source = t.file_source(args.agents, rng) if args.agents else t.builtin_source(rng)
    unknown = [name for name in args.extra if name not in t.PLAYERS]
    if unknown:
        raise UsageError(f"unknown agent {unknown[0]!r}; choose from {', '.join(t.PLAYERS)}")
    cpu, tests = t.cpu_agents(source), t.make_test_agents(source, args.extra)
    out = sys.stderr if args.json else sys.stdout
    if not args.json:
        print(DESCRIPTION, file=out)
        for line in ("*************************", "Playing Matches", "*************************"):
            print(f"{line:^74}", file=out)

    def show(line: str) -> None:
        print(line, file=out, flush=True)

    result = t.play_tournament(cpu, tests, args.matches, seed, args.time_limit, args.width, args.height, show)
    footer = t.table_footer(result)
    if args.json:
        print(json.dumps(result.to_json(), indent=2))
    else:
        print("\n".join(footer), file=out)
    return 0


def run_pairs(args: argparse.Namespace) -> int:
    """Fair pairs between two agents; a summary line (or JSON with ``--json``)."""
    _check_sizes(args, args.pairs, "--pairs")
    for name in args.agents:
        if name not in t.PLAYERS:
            raise UsageError(f"unknown agent {name!r}; choose from {', '.join(t.PLAYERS)}")
    seed = _seed(args)
    first, second = (t.Agent(t.make_player(name), name) for name in args.agents)

    def progress(wins: int, games: int) -> None:
        if games % 20 == 0:
            print(f"{games} games, {wins} won by {first.name}", file=sys.stderr, flush=True)

    result = t.play_pairs(first, second, args.pairs, seed, args.time_limit, args.width, args.height, progress)
    print(json.dumps(result.to_json(), indent=2) if args.json else result.summary())
    return 0
