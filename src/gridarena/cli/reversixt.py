"""ReversiXT tools.

``gridarena reversixt verify-trace MAP TRACE`` replays a reference-server log (plain or .gz) on MAP
and compares, after every move, the board, the next player, his valid moves, override and bomb
counts, the phase change and the scores; exit 0 when everything agrees, else 1 with the first
divergence (move number, what differs, both boards).

``gridarena reversixt mapinfo MAP`` describes a map: size, players, stocks, special fields,
transitions, connected regions and the fields each player can reach.

``gridarena reversixt perft MAP --depth D`` counts the leaves of the move tree with the fast engine
(phase-1 moves with every special byte, bombs in phase 2) and the seconds it took, compile time
excluded.

``gridarena reversixt server`` and ``client`` play over TCP with the course's binary protocol.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import time
from collections.abc import Callable

from gridarena.cli.help import examples
from gridarena.cli.options import count
from gridarena.games.reversixt.formats import read_map, resolve_map_path
from gridarena.games.reversixt.mapinfo import describe
from gridarena.games.reversixt.net.trace import read_trace_text, verify

NET_MODULE = "gridarena.cli.reversixt_net"

Handler = Callable[[argparse.Namespace], int]


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the ``verify-trace``, ``mapinfo``, ``perft`` (and, with the network module, ``server``/``client``)."""
    commands = parser.add_subparsers(dest="reversixt_command", metavar="COMMAND", required=True)
    vt = commands.add_parser(
        "verify-trace",
        help="replay a reference-server log and compare every move",
        description="Replay a reference-server log (plain or .gz) on MAP and compare every move.",
        **examples("gridarena reversixt verify-trace maps/example.map golden/example.server.log.gz"),
    )
    vt.add_argument("map", help="the map file the game was played on (a project map name also works)")
    vt.add_argument("trace", help="the server's console output (plain text or .gz)")
    vt.add_argument("--quiet", action="store_true", help="print nothing when everything agrees")
    vt.set_defaults(reversixt_handler=run_verify_trace)

    info = commands.add_parser(
        "mapinfo",
        help="describe a map",
        description="Describe a map and its regions.",
        **examples("gridarena reversixt mapinfo sampler", "gridarena reversixt mapinfo my.map --json"),
    )
    info.add_argument("map", help="a map file (.gz allowed) or a project map name (othello8, sampler)")
    info.add_argument("--json", action="store_true", help="print the description as JSON")
    info.set_defaults(reversixt_handler=run_mapinfo)

    perft = commands.add_parser(
        "perft",
        help="count the leaves of the move tree with the fast engine",
        description="Count the leaves of the move tree DEPTH plies down from the map's start (fast engine).",
        **examples("gridarena reversixt perft othello8 --depth 8 --json"),
    )
    perft.add_argument("map", help="a map file (.gz allowed) or a project map name")
    perft.add_argument("--depth", type=count(0, 100), required=True, help="plies (moves of any player)")
    perft.add_argument("--json", action="store_true", help='print {"leaves": N, "seconds": S}')
    perft.set_defaults(reversixt_handler=run_perft)

    if importlib.util.find_spec(NET_MODULE) is not None:
        net = importlib.import_module(NET_MODULE)
        server = commands.add_parser(
            "server",
            help="run a game server (the reference protocol)",
            description=net.__doc__,
            **examples("gridarena reversixt server --map othello8 --time 2 --depth 0 --result result.txt"),
        )
        net.configure_server(server)
        server.set_defaults(reversixt_handler=net.run_server)
        client = commands.add_parser(
            "client",
            help="play one of our bots against a server",
            description=net.__doc__,
            **examples("gridarena reversixt client --port 7777 --group 5 --bot best"),
        )
        net.configure_client(client)
        client.set_defaults(reversixt_handler=net.run_client)


def run(args: argparse.Namespace) -> int:
    """Dispatch to the subcommand."""
    handler: Handler = args.reversixt_handler
    return handler(args)


def run_verify_trace(args: argparse.Namespace) -> int:
    """Replay the trace; 0 when it agrees to the end, 1 with the first divergence."""
    board = read_map(resolve_map_path(args.map))
    report = verify(board, read_trace_text(args.trace), args.trace)
    if report.divergence is not None:
        print(report.divergence.to_text(args.trace))
        return 1
    if not args.quiet:
        scores = ", ".join("disqualified" if s is None else str(s) for s in report.scores)
        print(
            f"{args.trace}: {report.moves} moves and {report.bombs} bombs agree with the rules "
            f"(boards, next players, valid moves, counts, phases); final scores {scores}"
        )
    return 0


def run_mapinfo(args: argparse.Namespace) -> int:
    """Print the map's description."""
    info = describe(read_map(resolve_map_path(args.map)))
    print(json.dumps(info.to_json(), indent=2) if args.json else info.to_text())
    return 0


def run_perft(args: argparse.Namespace) -> int:
    """Count with the fast engine; the first call compiles (numba, cached), so it is timed apart."""
    board = read_map(resolve_map_path(args.map))
    from gridarena.games.reversixt.fast import perft

    start = time.perf_counter()
    perft(board, min(args.depth, 1))  # compile (or load the cached kernels) outside the timing
    first_call = time.perf_counter() - start
    start = time.perf_counter()
    leaves = perft(board, args.depth)
    seconds = time.perf_counter() - start
    if args.json:
        print(json.dumps({"leaves": leaves, "seconds": round(seconds, 6)}))
    else:
        rate = f", {leaves / seconds:,.0f} leaves/s" if seconds > 0 else ""
        print(
            f"perft({args.depth}) = {leaves:,} in {seconds:.3f} s{rate} (first call, compile or cache load: {first_call:.2f} s)"
        )
    return 0
