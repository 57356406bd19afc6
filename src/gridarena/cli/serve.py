"""Serve the web viewer: tournaments, replays of every game, live standings, play against bots.

The database is opened read-only; a tournament running in another process shows up live. The
server listens on 127.0.0.1 unless --host names another address. Bots of the play page think in
--workers worker processes (default: the cores). Needs the web extra: pip install 'gridarena[web]'.
"""

from __future__ import annotations

import argparse
import threading
import webbrowser

from gridarena.arena.store import DEFAULT_DB, ENV_DB, database_path
from gridarena.cli.help import examples
from gridarena.cli.options import count, seconds
from gridarena.cli.output import err, warn
from gridarena.core.errors import GridArenaError


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of ``gridarena serve``."""
    parser.epilog = examples(
        "gridarena serve --db results.sqlite                  # http://127.0.0.1:8000/",
        "gridarena serve --db results.sqlite --port 8080 --open",
        "gridarena serve --replays games/                     # replay files only, no database",
        "gridarena serve --db results.sqlite --host 0.0.0.0   # reachable from the network (no login!)",
    )["epilog"]
    parser.add_argument(
        "--db", help=f"results database, opened read-only (default: ${ENV_DB}, else ./{DEFAULT_DB})"
    )
    parser.add_argument(
        "--replays",
        metavar="DIR",
        help="folder of replay files to list; games played in the browser go to DIR/web "
        "(default: the database's <name>.replays folder)",
    )
    parser.add_argument(
        "--host", help="address to listen on (default 127.0.0.1; any other address must be given here)"
    )
    parser.add_argument("--port", type=count(1, 65535), default=8000, help="port to listen on (default 8000)")
    parser.add_argument("--open", action="store_true", help="open the viewer in a web browser")
    parser.add_argument(
        "--poll",
        type=seconds(0.1, 3600),
        default=1.0,
        help="seconds between database reads for live pages (default 1)",
    )
    parser.add_argument(
        "--workers",
        type=count(1, 64),
        metavar="N",
        help="worker processes for the play page's bots and hints, 1 to 64 (default: the cores)",
    )


def run(args: argparse.Namespace) -> int:
    """Check the database, then serve until Ctrl-C."""
    try:
        from gridarena.web.app import create_app
        from gridarena.web.guard import LOOPBACK_NAMES
        from gridarena.web.server import DEFAULT_HOST, check_host, is_loopback, serve
        from gridarena.web.workers import check_workers
    except ImportError as exc:
        raise GridArenaError(
            f"gridarena serve needs the web extra ({exc.name} is missing): pip install 'gridarena[web]'"
        ) from None
    host = check_host(args.host or DEFAULT_HOST, explicit=args.host is not None)
    workers = None if args.workers is None else check_workers(args.workers)
    path = database_path(args.db)
    db = path if args.db is not None or path.exists() else None
    if db is None:
        warn(f"{path}: no database here; serving replays and play only (give --db FILE)")
    replays = args.replays or path.with_name(f"{path.stem}.replays")
    # The Host header must name this machine, unless the viewer was meant for the network.
    hosts = [*LOOPBACK_NAMES, host] if is_loopback(host) else ["*"]
    app = create_app(db, replays, poll=args.poll, hosts=hosts, workers=workers)
    url = f"http://{'[' + host + ']' if ':' in host else host}:{args.port}/"
    if not is_loopback(host):
        warn(f"listening on {host}: anyone who reaches it can read the results and run bots")
    err.print(f"gridarena viewer on {url} (database {db or 'none'}, replays {replays}); Ctrl-C stops")
    if args.open:
        threading.Timer(1.0, webbrowser.open, (url,)).start()
    serve(app, host, args.port, explicit=args.host is not None)
    return 0
