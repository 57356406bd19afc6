"""``gridarena reversixt server`` and ``gridarena reversixt client``: the network side of ReversiXT.

``server --map MAP`` waits for as many clients as the map has players, plays the game over the
binary protocol (time accounts with ``--time``, the depth byte with ``--depth``), writes the
result file of the reference server (``--result``) and exits 0 when every game (``--games N``)
finished. The console shows a readable log on stderr (``--quiet``: no moves); ``--log FILE`` keeps
it with every move; ``--trace FILE`` writes the reference server's console format, which
``gridarena reversixt verify-trace`` reads (``-`` for stdout; with several games ``{game}`` in the
name, or ``.N`` before the suffix, gives one file per game).

``client`` plays a registered bot (``--bot``, default random) against any compliant server.
"""

from __future__ import annotations

import argparse
import asyncio
import difflib
import logging
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import IO

from gridarena.core.errors import UnknownNameError
from gridarena.core.registry import bot_table
from gridarena.core.specs import parse_spec
from gridarena.games.reversixt.client import ClientConfig, ClientError, play
from gridarena.games.reversixt.server import GameResult, ReversiServer, ServerConfig, ServerError


def configure_server(parser: argparse.ArgumentParser) -> None:
    """The options of ``gridarena reversixt server`` (spec 10)."""
    parser.add_argument(
        "--map",
        required=True,
        metavar="MAP",
        help="the map file, sent to the clients verbatim (or a project map name: othello8, sampler)",
    )
    parser.add_argument(
        "--time",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="seconds added to a player's time account before each request (default: no limit)",
    )
    parser.add_argument(
        "--depth",
        type=int,
        default=1,
        metavar="D",
        help="depth limit sent with each request, 0 = none (default 1)",
    )
    parser.add_argument(
        "--port", type=int, default=7777, help="base port; a busy one moves to the next (default 7777)"
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument(
        "--result", metavar="FILE", help="result file: map name, then group, points, time, status"
    )
    parser.add_argument(
        "--games", type=int, default=1, metavar="N", help="games to play in a row (default 1)"
    )
    parser.add_argument("--log", metavar="FILE", help="readable log with every move")
    parser.add_argument(
        "--trace",
        metavar="FILE",
        help="the reference server's console log (verify-trace reads it); - for stdout",
    )
    parser.add_argument(
        "--wait", type=float, metavar="N", help="wait at most N seconds for the clients of a game"
    )
    parser.add_argument(
        "--grace",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="lateness allowed past the account (default 0)",
    )
    parser.add_argument("--quiet", action="store_true", help="do not print the moves")


def configure_client(parser: argparse.ArgumentParser) -> None:
    """The options of ``gridarena reversixt client``."""
    parser.add_argument("--host", default="127.0.0.1", help="server address (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=7777, help="server port (default 7777)")
    parser.add_argument(
        "--group", type=int, default=0, metavar="G", help="group number sent to the server (0..255)"
    )
    parser.add_argument(
        "--bot", default="random", metavar="NAME", help="a ReversiXT bot spec (default random)"
    )
    parser.add_argument("--seed", type=int, default=0, help="the bot's seed (default 0)")
    parser.add_argument(
        "--fallback-time",
        type=float,
        default=1.0,
        metavar="SECONDS",
        help="seconds per move when a request has neither time nor depth (default 1)",
    )
    parser.add_argument(
        "--wait",
        type=float,
        default=0.0,
        metavar="N",
        help="keep retrying a refused connection for N seconds (default 0: fail at once)",
    )
    parser.add_argument("--quiet", action="store_true", help="print only warnings and errors")


@contextmanager
def _logging(name: str, console_level: int, log_file: str | None) -> Iterator[None]:
    """Handlers for one run on the ``name`` logger, removed afterwards (the CLI may run twice in a process)."""
    logger = logging.getLogger(name)
    old_level, old_propagate = logger.level, logger.propagate
    handlers: list[logging.Handler] = []
    console = logging.StreamHandler(sys.stderr)
    console.setLevel(console_level)
    console.setFormatter(logging.Formatter("%(message)s"))
    handlers.append(console)
    if log_file is not None:
        try:
            file_handler = logging.FileHandler(log_file, mode="w", encoding="utf-8")
        except OSError as exc:
            raise ServerError(f"--log {log_file}: {exc.strerror or exc}") from exc
        file_handler.setLevel(logging.DEBUG)
        file_handler.setFormatter(logging.Formatter("%(asctime)s %(message)s"))
        handlers.append(file_handler)
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    for handler in handlers:
        logger.addHandler(handler)
    try:
        yield
    finally:
        for handler in handlers:
            logger.removeHandler(handler)
            handler.close()
        logger.setLevel(old_level)
        logger.propagate = old_propagate


def trace_path(template: str, game: int, games: int) -> str:
    """The trace file of game ``game``: ``{game}`` filled in, else ``.N`` before the suffix when there are several.

    >>> trace_path("t.log", 1, 1), trace_path("t.log", 2, 3), trace_path("g{game}.log", 2, 3)
    ('t.log', 't.2.log', 'g2.log')
    """
    if "{game}" in template:
        return template.replace("{game}", str(game))
    if games == 1:
        return template
    p = Path(template)
    return str(p.with_name(f"{p.stem}.{game}{p.suffix}"))


class _TraceFiles:
    """One open file per game for ``--trace`` (stdout for ``-``)."""

    def __init__(self, template: str, games: int, stack: ExitStack) -> None:
        self.template, self.games, self.stack = template, games, stack
        self.files: dict[int, IO[str]] = {}

    def __call__(self, game: int, line: str) -> None:
        out = self.files.get(game)
        if out is None:
            if self.template == "-":
                out = sys.stdout
            else:
                path = trace_path(self.template, game, self.games)
                try:
                    out = self.stack.enter_context(open(path, "w", encoding="utf-8"))  # noqa: SIM115
                except OSError as exc:
                    raise ServerError(f"--trace {path}: {exc.strerror or exc}") from exc
                previous = self.files.get(game - 1)
                if previous is not None:
                    previous.close()
            self.files[game] = out
        out.write(line + "\n")


def _result_writer(path: str | None) -> Callable[[GameResult], None] | None:
    if path is None:
        return None
    try:
        Path(path).write_text("", encoding="utf-8")
    except OSError as exc:
        raise ServerError(f"--result {path}: {exc.strerror or exc}") from exc

    def append(result: GameResult) -> None:
        with open(path, "a", encoding="utf-8") as out:
            out.write(result.result_text())

    return append


def run_server(args: argparse.Namespace) -> int:
    """Play ``--games`` games; 0 when all finished (errors become one line through ``main``)."""
    config = ServerConfig(
        map_path=args.map,
        time=args.time,
        depth=args.depth,
        host=args.host,
        port=args.port,
        games=args.games,
        wait=args.wait,
        grace=args.grace,
    )
    with ExitStack() as stack:
        stack.enter_context(
            _logging("gridarena.reversixt.server", logging.INFO if args.quiet else logging.DEBUG, args.log)
        )
        trace = _TraceFiles(args.trace, args.games, stack) if args.trace else None
        server = ReversiServer(config, trace=trace, on_result=_result_writer(args.result))
        results = asyncio.run(server.run())
    return 0 if len(results) == config.games else 1


def _check_bot(spec: str) -> None:
    name, _ = parse_spec(spec)
    table = bot_table("reversixt")
    if name not in table:
        raise UnknownNameError("bot for reversixt", name, difflib.get_close_matches(name, list(table)))


def run_client(args: argparse.Namespace) -> int:
    """Play one game; 0 at its end, 1 (one line) when the server refuses, breaks the protocol or disqualifies us."""
    _check_bot(args.bot)
    config = ClientConfig(
        host=args.host,
        port=args.port,
        group=args.group,
        bot=args.bot,
        seed=args.seed,
        fallback_time=args.fallback_time,
        wait=args.wait,
    )
    with _logging("gridarena.reversixt.client", logging.WARNING if args.quiet else logging.INFO, None):
        result = asyncio.run(play(config))
    if result.disqualified:
        raise ClientError(f"player {result.player} was disqualified by the server")
    if not args.quiet:
        text = ", ".join(
            f"player {k + 1}: {'disqualified' if s is None else s}" for k, s in enumerate(result.scores)
        )
        print(f"game over: we are player {result.player}; {text}")
    return 0
