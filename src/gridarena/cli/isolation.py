"""Knight Isolation tools around the 2017 AIND project, played by the arena.

``gridarena isolation aind-tournament [--agents game_agent.py] [--matches 5]`` reproduces
tournament.py (the test agents against the seven CPU agents, random openings shared by all test
agents and played twice with the seats swapped, the same table) and adds Wilson 95% intervals and
per-agent timeout losses. It is the arena's gauntlet (``gridarena tournament isolation --format
gauntlet --opening 'random(plies=2)' ...``), stored in --db (default: in memory).
``gridarena isolation pairs --agents best ab_improved --pairs 200`` plays fair pairs head to head;
``--agents best_nodes ab_improved_depth --time-limit 60000`` plays the load-independent twins (best
with a node budget, AB_Improved's fixed-depth proxy), whose result no machine load can change.
Agents are bot specs of the registry (``gridarena games`` lists them).
"""

from __future__ import annotations

import argparse
import difflib
import json
import random
import sys
from collections.abc import Callable

from gridarena.arena.backends import ALIASES, BACKENDS, make_backend
from gridarena.arena.store import Store
from gridarena.arena.tournament import check_concurrency, default_concurrency
from gridarena.cli.aind import Arena, play_pairs, play_tournament
from gridarena.core.clock import DEFAULT_GRACE
from gridarena.core.errors import GridArenaError
from gridarena.core.gameclock import CLOCK_KINDS
from gridarena.core.registry import available_bots
from gridarena.core.specs import parse_spec
from gridarena.games.isolation.aind import TIME_LIMIT_MILLIS
from gridarena.games.isolation.aind.tournament import NUM_MATCHES, candidates, cpu_agents

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
    tour.add_argument("--matches", type=int, default=NUM_MATCHES, help="NUM_MATCHES (default 5)")
    tour.add_argument("--extra", nargs="*", default=[], metavar="BOT", help="more test agents, e.g. best")
    _common(tour)
    tour.set_defaults(isolation_handler=run_tournament)
    pairs = commands.add_parser("pairs", help="fair pairs between two agents", description=__doc__)
    pairs.add_argument(
        "--agents", nargs=2, default=["best", "ab_improved"], metavar="BOT", help="two bot specs"
    )
    pairs.add_argument(
        "--pairs", type=int, default=50, help="random openings, each played twice (default 50)"
    )
    _common(pairs)
    pairs.set_defaults(isolation_handler=run_pairs)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--seed", type=int, help="master seed of the openings and bots; drawn and printed if absent"
    )
    parser.add_argument(
        "--time-limit", type=float, default=TIME_LIMIT_MILLIS, help="ms per move (default 150)"
    )
    parser.add_argument("--clock", choices=CLOCK_KINDS, default="wall", help="what the time limit measures")
    parser.add_argument(
        "--grace", type=float, default=DEFAULT_GRACE, help="seconds an answer may be late (AIND allowed none)"
    )
    parser.add_argument("--width", type=int, default=7, help="board columns (default 7)")
    parser.add_argument("--height", type=int, default=7, help="board rows (default 7)")
    parser.add_argument(
        "--db", default=":memory:", help="store the games in this SQLite file (default: memory)"
    )
    parser.add_argument("--concurrency", type=int, help="games at once (default: cores less one)")
    parser.add_argument("--force-concurrency", action="store_true", help="allow more games than cores")
    parser.add_argument(
        "--backend",
        choices=[*BACKENDS, *ALIASES],
        default="process",
        help="where games run: process (default: a pool of --concurrency processes), inline, or ray",
    )
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


def _check(args: argparse.Namespace, count: int, label: str, bots: list[str]) -> None:
    if count < 1:
        raise UsageError(f"{label} must be at least 1, got {count}")
    if args.time_limit <= 0:
        raise UsageError(f"--time-limit must be positive, got {args.time_limit}")
    if not (3 <= args.width <= 11 and 3 <= args.height <= 11):
        raise UsageError(f"board {args.width}x{args.height}: width and height must be 3 to 11")
    known = available_bots("isolation")
    for spec in bots:
        name = parse_spec(spec)[0]
        if name not in known:
            close = difflib.get_close_matches(name, known)
            hint = f"did you mean {', '.join(close)}?" if close else f"choose from {', '.join(known)}"
            raise UsageError(f"unknown agent {name!r}; {hint}")


def _arena(args: argparse.Namespace) -> Arena:
    concurrency = args.concurrency or default_concurrency(timed=True)
    check_concurrency(concurrency, True, args.force_concurrency)
    backend = make_backend(args.backend, concurrency)
    return Arena(Store(args.db), backend, args.time_limit, args.clock, args.grace, args.width, args.height)


def run_tournament(args: argparse.Namespace) -> int:
    """AIND's tournament; the table on stdout (or JSON with ``--json``, the table then on stderr)."""
    _check(args, args.matches, "--matches", args.extra)
    seed = _seed(args)
    tests, cpu = candidates(args.agents, args.extra), cpu_agents(args.agents)
    out = sys.stderr if args.json else sys.stdout
    if not args.json:
        print(DESCRIPTION, file=out)
        for line in ("*************************", "Playing Matches", "*************************"):
            print(f"{line:^74}", file=out)

    def show(line: str) -> None:
        print(line, file=out, flush=True)

    arena = _arena(args)
    try:
        result = play_tournament(arena, tests, cpu, args.matches, seed, show)
    finally:
        arena.backend.close()
    if args.json:
        print(json.dumps(result.to_json(), indent=2))
    else:
        print("\n".join(result.footer()), file=out)
    return 0


def run_pairs(args: argparse.Namespace) -> int:
    """Fair pairs between two agents; a summary line (or JSON with ``--json``)."""
    _check(args, args.pairs, "--pairs", args.agents)
    seed = _seed(args)
    first = args.agents[0]

    def progress(wins: int, games: int) -> None:
        if games % 20 == 0:
            print(f"{games} games, {wins} won by {first}", file=sys.stderr, flush=True)

    arena = _arena(args)
    try:
        result = play_pairs(arena, args.agents[0], args.agents[1], args.pairs, seed, progress)
    finally:
        arena.backend.close()
    print(json.dumps(result.to_json(), indent=2) if args.json else result.summary())
    return 0
