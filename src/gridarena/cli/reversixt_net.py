"""``gridarena reversixt server`` and ``gridarena reversixt client``: the network side of ReversiXT.

``server --map MAP`` waits for as many clients as the map has players, plays the game over the
binary protocol (time accounts with ``--time``, the depth byte with ``--depth``), writes the
result file of the reference server (``--result``) and exits 0 when every game (``--games N``)
finished. The console shows a readable log on stderr (``--quiet``: no moves); ``--log FILE`` keeps
it with every move; ``--trace FILE`` writes the reference server's console format, which
``gridarena reversixt verify-trace`` reads (``-`` for stdout; with several games ``{game}`` in the
name, or ``.N`` before the suffix, gives one file per game). ``--replay FILE`` writes each game's
replay (the arena's JSON Lines, for ``gridarena replay``), and ``--db FILE`` stores the games as the
arena stores a tournament's, as they go (``gridarena results --db FILE``; ``gridarena serve --db FILE``
shows the game being played). At start the server says what its requests carry: the depth byte is 1
unless ``--depth 0``, as on the reference server, and a depth-aware bot then searches one ply.

``client`` plays a registered bot (``--bot``, default random) against any compliant server.
"""

from __future__ import annotations

import argparse
import asyncio
import difflib
import logging
import sys
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import IO, Any

from gridarena.arena.replay import ReplayRecorder, write_document
from gridarena.arena.runner import GameTask, result_record, time_stats
from gridarena.arena.store import Store
from gridarena.cli.options import GRACE, PORT, SEED, count, seconds
from gridarena.core.errors import UnknownNameError
from gridarena.core.gameclock import TimeSpec, TimeSpecError
from gridarena.core.play import Recorder
from gridarena.core.registry import bot_table
from gridarena.core.specs import format_spec, parse_spec
from gridarena.core.types import JSON
from gridarena.games.reversixt.net.client import WAITING, ClientConfig, ClientError, play
from gridarena.games.reversixt.net.server import ReversiServer, ServedGame, ServerConfig, ServerError
from gridarena.games.reversixt.rules import ReversiState

SOURCE = "gridarena reversixt server"


def configure_server(parser: argparse.ArgumentParser) -> None:
    """The options of ``gridarena reversixt server``, modelled on the reference server ``server_nogl``'s."""
    parser.add_argument(
        "--map",
        required=True,
        metavar="MAP",
        help="the map file, sent to the clients verbatim (or a project map name: othello8, sampler)",
    )
    clock = parser.add_mutually_exclusive_group()
    clock.add_argument(
        "--time",
        type=seconds(),
        default=0.0,
        metavar="SECONDS",
        help="the reference server's -t, in its meaning: seconds added to each player's time account "
        "before each request, what is left carrying over (default: no limit)",
    )
    clock.add_argument(
        "--time-control",
        metavar="SPEC",
        help="the time control in the words of gridarena tournament --time instead: account:2 (the same "
        "as --time 2), 0.5 (seconds per move, nothing carried over), total:60, 60+1; each request offers "
        "what the control allows for that move",
    )
    parser.add_argument(
        "--depth",
        type=count(0, 255),
        default=1,
        metavar="D",
        help="depth limit sent with each request, 0 = none (default 1, as the reference's -d)",
    )
    parser.add_argument(
        "--port", type=PORT, default=7777, help="base port; a busy one moves to the next (default 7777)"
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument(
        "--result", metavar="FILE", help="result file: map name, then group, points, time, status"
    )
    parser.add_argument(
        "--games", type=count(high=10**6), default=1, metavar="N", help="games to play in a row (default 1)"
    )
    parser.add_argument("--log", metavar="FILE", help="readable log with every move")
    parser.add_argument(
        "--trace",
        metavar="FILE",
        help="the reference server's console log (verify-trace reads it); - for stdout",
    )
    parser.add_argument(
        "--replay",
        metavar="FILE",
        help="each game's replay, JSON Lines (gridarena replay reads it); {game} or .N as for --trace",
    )
    parser.add_argument(
        "--db",
        metavar="FILE",
        help="store the games in this results database as a tournament's (gridarena results, serve)",
    )
    parser.add_argument(
        "--wait", type=seconds(above=0), metavar="N", help="wait at most N seconds for the clients of a game"
    )
    parser.add_argument(
        "--grace",
        type=GRACE,
        default=0.0,
        metavar="SECONDS",
        help="lateness allowed past the account (default 0)",
    )
    parser.add_argument("--quiet", action="store_true", help="do not print the moves")


def configure_client(parser: argparse.ArgumentParser) -> None:
    """The options of ``gridarena reversixt client``."""
    parser.add_argument("--host", default="127.0.0.1", help="server address (default 127.0.0.1)")
    parser.add_argument("--port", type=count(1, 65535), default=7777, help="server port (default 7777)")
    parser.add_argument(
        "--group", type=count(0, 255), default=0, metavar="G", help="group number sent to the server (0..255)"
    )
    parser.add_argument(
        "--bot", default="random", metavar="NAME", help="a ReversiXT bot spec (default random)"
    )
    parser.add_argument("--seed", type=SEED, default=0, help="the bot's seed (default 0)")
    parser.add_argument(
        "--fallback-time",
        type=seconds(above=0),
        default=1.0,
        metavar="SECONDS",
        help="seconds per move when a request has neither time nor depth (default 1)",
    )
    parser.add_argument(
        "--wait",
        type=seconds(),
        default=0.0,
        metavar="N",
        help="keep retrying a refused connection for N seconds (default 0: fail at once)",
    )
    parser.add_argument(
        "--quiet", action="store_true", help="print only warnings, errors and what the client waits for"
    )


class _LogFile(logging.FileHandler):
    """``--log FILE``: a write that fails (a full disk) stops the log and is reported once, at the end,
    instead of logging's own traceback on every record."""

    failure: str | None = None

    def handleError(self, record: logging.LogRecord) -> None:
        """Keep the first failure and write no more."""
        error = sys.exc_info()[1]
        if self.failure is None:
            self.failure = str(getattr(error, "strerror", None) or error)
        self.setLevel(logging.CRITICAL + 1)

    def close(self) -> None:
        """Close the file; a failed last flush is kept like a failed write."""
        try:
            super().close()
        except OSError as exc:
            self.failure = self.failure or exc.strerror or str(exc)


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
    log: _LogFile | None = None
    if log_file is not None:
        try:
            file_handler = log = _LogFile(log_file, mode="w", encoding="utf-8")
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
    if log is not None and log.failure is not None:
        raise ServerError(f"--log {log_file}: {log.failure}")


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


class _Database:
    """``--db``: the games stored as a tournament's, live, the way the arena stores its own.

    The tournament is opened (``running``) when the first game begins, its entrants that game's
    groups, so ``gridarena serve`` lists it at once; each game's replay is written beside the database
    as it is played (``<block>-0.jsonl``, what the viewer shows of a game in progress), then compacted
    and stored with its row when the game ends. A later game of other groups opens another tournament
    for the games left (the first one ends ``stopped``).
    """

    def __init__(self, path: str, config: dict[str, JSON], games: int) -> None:
        self.store = Store(path)
        self.config, self.games_left = config, games
        self.tournament: int | None = None
        self.entrants: list[str] = []
        self.block = 0

    def _open(self, entrants: list[str]) -> int:
        if self.tournament is not None:
            self.store.set_status(self.tournament, "stopped")
        encounter = " vs ".join(entrants)
        blocks = [(b, encounter, b, 0, 1) for b in range(self.games_left)]
        self.tournament = self.store.create_tournament({**self.config, "players": entrants}, 0, blocks)
        self.entrants, self.block = entrants, 0
        return self.tournament

    def begin(self, groups: Sequence[int]) -> Path:
        """A game begins: its tournament (opened now if need be) and where its replay is written live."""
        entrants = sorted(f"group-{g}" for g in groups)
        tournament = self.tournament if entrants == self.entrants else self._open(entrants)
        assert tournament is not None
        folder = self.store.replay_dir(tournament)
        folder.mkdir(parents=True, exist_ok=True)
        return folder / f"{self.block}-0.jsonl"

    def record(self, served: ServedGame, live: Path, document: bytes) -> None:
        """Store one game: its row, and its compact replay in place of the live one."""
        assert self.tournament is not None
        target = live.with_suffix(".json.gz")
        sha = write_document(document, target)
        live.unlink(missing_ok=True)
        seats, record = len(served.names), served.record
        task = GameTask(
            self.tournament,
            self.block,
            0,
            str(self.config["game"]),
            served.names,
            served.names,
            0,
            (0,) * seats,
        )
        stats = time_stats(record, seats)
        result = result_record(task, record.outcome, record.plies, stats, record.final_state.result_info())
        result.update(replay=str(target), replay_sha256=sha)
        self.store.record_game(result, self.store.path.parent if self.store.path is not None else None)
        self.block += 1
        self.games_left -= 1

    def close(self) -> None:
        """Mark the tournament done (or stopped, when games are missing) and close the database."""
        if self.tournament is not None:
            done = all(b.status == "done" for b in self.store.blocks(self.tournament))
            self.store.set_status(self.tournament, "done" if done else "stopped")
        self.store.close()


class _Outputs:
    """What the CLI keeps of each game: the result file, the replays (``--replay``, ``--db``) and the rows."""

    def __init__(self, args: argparse.Namespace, config: ServerConfig, stack: ExitStack) -> None:
        self.result, self.replay, self.config = args.result, args.replay, config
        self.replays: dict[int, list[ReplayRecorder]] = {}
        self.live: dict[int, Path] = {}
        if self.result is not None:
            try:
                Path(self.result).write_text("", encoding="utf-8")
            except OSError as exc:
                raise ServerError(f"--result {self.result}: {exc.strerror or exc}") from exc
        spec = config.time_spec()
        self.time_control = None if spec is None else spec.to_text()
        self.db: _Database | None = None
        if args.db is not None:
            db_config: dict[str, JSON] = {
                "game": format_spec("reversixt", {"map": config.map_path}),
                "format": "server",
                "source": SOURCE,
                "games": config.games,
                "time": self.time_control,
                "grace": config.grace,
                "depth": config.depth,
            }
            self.db = _Database(args.db, db_config, config.games)
            stack.callback(self.db.close)

    def recorders(
        self, number: int, names: Sequence[str], groups: Sequence[int], state: ReversiState
    ) -> list[Recorder]:
        """The replay writers of one game (the server's ``recorders`` factory)."""
        extra: dict[str, Any] = {
            "source": SOURCE,
            "game_number": number,
            "groups": list(groups),
            "time_control": self.time_control,
            "grace": self.config.grace,
            "depth": self.config.depth,
        }
        made = []
        if self.replay:
            path = trace_path(self.replay, number, self.config.games)
            made.append(ReplayRecorder(path, state.game, names, 0, state, **extra))
        if self.db is not None:  # written live beside the database, compacted when the game ends
            self.live[number] = self.db.begin(groups)
            made.append(ReplayRecorder(self.live[number], state.game, names, 0, state, **extra))
        self.replays[number] = made
        return list(made)

    def on_result(self, served: ServedGame) -> None:
        """Append to the result file and store the game, as soon as it is over."""
        if self.result is not None:
            with open(self.result, "a", encoding="utf-8") as out:
                out.write(served.result_text())
        replays = self.replays.pop(served.number, [])
        if self.db is not None and replays:
            self.db.record(served, self.live.pop(served.number), replays[-1].writer.document())


def run_server(args: argparse.Namespace) -> int:
    """Play ``--games`` games; 0 when all finished (errors become one line through ``main``)."""
    try:
        control = None if args.time_control is None else TimeSpec.parse(args.time_control)
    except TimeSpecError as exc:  # its words name --time, the tournament's option
        raise ServerError(str(exc).replace("--time ", "--time-control ", 1)) from None
    config = ServerConfig(
        map_path=args.map,
        time=args.time,
        time_control=control,
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
        outputs = _Outputs(args, config, stack)
        server = ReversiServer(config, trace=trace, on_result=outputs.on_result, recorders=outputs.recorders)
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
    # Quiet still says what the client waits for (its kernels: minutes on a cold cache; the server).
    with _logging("gridarena.reversixt.client", WAITING if args.quiet else logging.INFO, None):
        result = asyncio.run(play(config))
    if result.disqualified:
        raise ClientError(f"player {result.player} was disqualified by the server")
    if not args.quiet:
        text = ", ".join(
            f"player {k + 1}: {'disqualified' if s is None else s}" for k, s in enumerate(result.scores)
        )
        print(f"game over: we are player {result.player}; {text}")
    return 0
