"""A ReversiXT game server on asyncio: the reference server's protocol and options over the shared game loop.

The server listens, takes clients as they come and plays ``games`` games in a row. Each game runs
in :func:`gridarena.core.play.play_game`, the loop every game and the arena share (on a thread of its
own, while the sockets stay on the event loop): each client is a bot of that loop
(:class:`~gridarena.games.reversixt.net.table.NetworkSeat`), the time account is the game clock's
``account:`` control (:class:`~gridarena.core.gameclock.GameTimer`), and the broadcasts
and the reference console trace are a recorder (:mod:`gridarena.games.reversixt.net.table`). So a game
on the server yields the same :class:`~gridarena.core.play.GameRecord` as any other, and the
``recorders`` given to the server (the CLI's replay writer and results database) see it like any
other game.

Clients: every connection has :data:`GROUP_TIMEOUT` seconds of its own to send its group number,
and all are read at once, so a silent or reconnecting client delays nobody. The player numbers follow
the order in which the group numbers arrive (for clients that send it as they connect, as known clients
do, that is the connection order). At most :data:`MAX_WAITING` connections may wait for a game at
once; more are closed as they come. A client that breaks the protocol after its group number but
before its game begins (a frame before the map, a closed connection) keeps its seat and is
disqualified as the game starts.

The server prints nothing: readable events go to the ``logging`` logger ``gridarena.reversixt.server``
(moves at DEBUG, the rest at INFO), and the reference server's console format (what
``verify-trace`` reads) goes line by line to an optional ``trace`` callback. Everything the server
opens (the listening socket, connections, tasks, the game thread) is closed before
:meth:`ReversiServer.run` returns.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import functools
import logging
import math
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, TypeAlias

from gridarena.core.errors import GridArenaError
from gridarena.core.files import read_bytes
from gridarena.core.gameclock import GameClock, TimeSpec, game_clock
from gridarena.core.play import GameRecord, Recorder, play_game
from gridarena.core.specs import unique_names
from gridarena.games.reversixt.formats import ReversiMap, decode_map, map_name, parse_map, resolve_map_path
from gridarena.games.reversixt.net.connection import (
    FRAME_TIMEOUT,
    READ_LIMIT,
    STATUS,
    Connection,
    close_writer,
)
from gridarena.games.reversixt.net.protocol import (
    Group,
    MapData,
    MessageType,
    PlayerNumber,
    ProtocolError,
    read_message,
)
from gridarena.games.reversixt.net.table import NetworkSeat, Table, TableRecorder
from gridarena.games.reversixt.rules import ReversiState, ReversiXT

log: Final = logging.getLogger("gridarena.reversixt.server")

#: Seconds each connection has to send its group number.
GROUP_TIMEOUT: Final = 30.0

#: Connections that may wait for a game at once (sending their group numbers, or waiting for players).
MAX_WAITING: Final = 64

#: How many ports above ``--port`` the server tries when it is busy, as the reference does.
PORT_TRIES: Final = 100

TraceSink: TypeAlias = Callable[[int, str], None]
"""``trace(game_number, line)``: one line of the reference server's console format, without newline."""

RecorderFactory: TypeAlias = Callable[[int, Sequence[str], Sequence[int], ReversiState], Sequence[Recorder]]
"""``recorders(game_number, names, groups, initial_state)``: more recorders for one game (a replay writer)."""


class ServerError(GridArenaError):
    """The server cannot go on: a busy port, clients that never came, an unreadable map."""


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """What ``gridarena reversixt server`` was asked for (options modelled on ``server_nogl``'s).

    ``time`` is the reference server's ``-t``: seconds added to a player's account before each
    request (0 = no limit, requests carry time 0). ``time_control`` is the same in the time-control
    vocabulary of the arena (``account:2``; also ``0.5`` per move, ``total:60``, ``60+1``: a request
    then offers what the clock allows for that move). ``grace`` is how far past the allowance an answer
    may arrive (0, as the reference). ``wait`` bounds the wait for all clients of one game (None = for ever);
    ``handshake`` is each connection's time to send its group number, ``frame_timeout`` the time a
    frame that has begun may take to end.
    """

    map_path: str
    time: float = 0.0
    depth: int = 1
    host: str = "127.0.0.1"
    port: int = 7777
    games: int = 1
    wait: float | None = None
    grace: float = 0.0
    time_control: TimeSpec | None = None
    handshake: float = GROUP_TIMEOUT
    frame_timeout: float = FRAME_TIMEOUT

    def __post_init__(self) -> None:
        if not 0 <= self.time < math.inf:  # NaN fails every comparison
            raise ServerError(f"--time {self.time}: must be 0 (no limit) or a positive number of seconds")
        if not 0 <= self.grace < math.inf:
            raise ServerError(f"--grace {self.grace}: must be 0 or a positive number of seconds")
        if self.time and self.time_control is not None:
            raise ServerError("--time and --time-control say the same thing twice: give one")
        if not 0 <= self.depth <= 255:
            raise ServerError(f"--depth {self.depth}: the depth byte holds 0..255")
        if not 0 <= self.port <= 65535:
            raise ServerError(f"--port {self.port}: not a TCP port")
        if self.games < 1:
            raise ServerError(f"--games {self.games}: at least one game")
        for name, value in (
            ("--wait", self.wait),
            ("handshake", self.handshake),
            ("frame", self.frame_timeout),
        ):
            if value is not None and not 0 < value < math.inf:
                raise ServerError(f"{name} {value}: must be a positive number of seconds")

    def time_spec(self) -> TimeSpec | None:
        """The game clock's control: ``time_control``, else the reference's account (``time``), else none."""
        if self.time_control is not None:
            return self.time_control
        return TimeSpec("account", per_move=self.time) if self.time > 0 else None

    def requests_text(self) -> str:
        """What every move request carries, in words (the server says it at start).

        >>> ServerConfig("othello8").requests_text()
        'move requests carry depth 1 (bots search one ply; --depth 0 lifts the limit) and no time limit (time 0)'
        >>> ServerConfig("othello8", time=2, depth=0).requests_text()
        'move requests carry no depth limit (depth 0) and an account of 2 s added before each request'
        """
        depth = {
            0: "no depth limit (depth 0)",
            1: "depth 1 (bots search one ply; --depth 0 lifts the limit)",
        }.get(self.depth, f"depth {self.depth} (bots search at most {self.depth} plies)")
        spec = self.time_spec()
        if spec is None:
            clock = "no time limit (time 0)"
        elif spec.kind == "account":
            clock = f"an account of {spec.per_move:g} s added before each request"
        else:
            clock = f"what the time control {spec.to_text()} allows for the move"
        return f"move requests carry {depth} and {clock}"


@dataclass(frozen=True, slots=True)
class ServedGame:
    """A finished game on the server: the standard record, plus what only the server knows.

    ``groups`` are the clients' group numbers by seat, ``names`` the seats' names in the record
    (``group-5``; repeats get ``#2``), ``time_left_ms`` each account at the end (0 after a timeout).
    """

    number: int
    map_name: str
    groups: tuple[int, ...]
    names: tuple[str, ...]
    record: GameRecord
    time_left_ms: tuple[int, ...]

    @property
    def state(self) -> ReversiState:
        """The final position."""
        final = self.record.final_state
        assert isinstance(final, ReversiState)
        return final

    @property
    def statuses(self) -> tuple[str, ...]:
        """Each seat's result-file status: ``ok`` or why he was disqualified (gridarena's words)."""
        status = ["ok"] * len(self.groups)
        for seat, termination in self.state.forfeits:
            status[seat] = STATUS[termination]
        return tuple(status)

    @property
    def reasons(self) -> tuple[str, ...]:
        """Why each seat was disqualified, in full ("" for the others)."""
        return tuple(reason or "" for reason in self.state.disqualified)

    @property
    def scores(self) -> tuple[int, ...]:
        """Stones of each player at the end; disqualified players score 0 in the result file."""
        return tuple(0 if s is None else s for s in self.state.scores())

    @property
    def moves(self) -> int:
        """Moves and bombs played."""
        return self.record.plies

    def result_text(self) -> str:
        """The result file's block: the map name, then ``group<TAB>points<TAB>time left<TAB>status`` per player."""
        lines = [self.map_name]
        for row in zip(self.groups, self.scores, self.time_left_ms, self.statuses, strict=True):
            lines.append("\t".join(map(str, row)))
        return "\n".join(lines) + "\n"


def load_map_bytes(path: str) -> tuple[bytes, ReversiMap]:
    """The map file's bytes as they go on the wire (a ``.gz`` file decompressed) and the parsed map."""
    p = Path(path)
    data = read_bytes(p, "map", gunzip=True)  # the project's one reading path
    return data, parse_map(decode_map(data, path), path, name=map_name(p))


def time_left_ms(clock: GameClock, state: ReversiState) -> tuple[int, ...]:
    """Each seat's account at the end, in whole ms: 0 without a limit and after a timeout."""
    timed_out = {seat for seat, termination in state.forfeits if termination == "timeout"}
    left = [clock.left(seat) for seat in range(state.players)]
    return tuple(
        0 if s is None or seat in timed_out else max(0, int(s * 1000)) for seat, s in enumerate(left)
    )


class ReversiServer:
    """Plays ``config.games`` games in a row on one listening socket; see the module docstring.

    ``on_result`` is called with each finished game (the CLI appends it to the result file at once,
    so a later failure keeps the earlier games); ``recorders`` adds recorders to each game (a replay
    writer). ``port`` is the bound port once :meth:`start` ran (``config.port`` 0 lets the system
    choose one).
    """

    def __init__(
        self,
        config: ServerConfig,
        *,
        trace: TraceSink | None = None,
        on_result: Callable[[ServedGame], None] | None = None,
        recorders: RecorderFactory | None = None,
    ) -> None:
        self.config = config
        self.map_path = str(resolve_map_path(config.map_path))  # a project map name works too
        self.map_bytes, self.map = load_map_bytes(self.map_path)
        self.game = ReversiXT.from_map(self.map)
        self.map_label = Path(self.map_path).name
        self._trace, self._on_result, self._recorders = trace, on_result, recorders
        self._waiting: asyncio.Queue[Connection] | None = None
        self._handshakes: set[asyncio.Task[None]] = set()
        self._server: asyncio.Server | None = None
        self._thread: ThreadPoolExecutor | None = None
        self.port: int | None = None

    # ------------------------------------------------------------------ listening

    async def start(self) -> int:
        """Open the listening socket; a busy port moves to the next free one, as the reference does."""
        self._waiting = asyncio.Queue()
        port, host = self.config.port, self.config.host
        tries = 1 if port == 0 else PORT_TRIES
        for offset in range(tries):
            try:
                self._server = await asyncio.start_server(self._accept, host, port + offset, limit=READ_LIMIT)
                break
            except OSError as exc:
                if exc.errno != errno.EADDRINUSE or offset == tries - 1 or port + offset >= 65535:
                    raise ServerError(
                        f"cannot listen on {host}:{port + offset}: {exc.strerror or exc}"
                    ) from exc
        assert self._server is not None
        self.port = int(self._server.sockets[0].getsockname()[1])
        if self.port != port and port != 0:
            log.info("port %d is busy: set baseport to %d", port, self.port)
        log.info(
            "listening on %s:%d for %d-player games on %s", host, self.port, self.map.players, self.map_label
        )
        log.info("%s", self.config.requests_text())
        return self.port

    def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        assert self._waiting is not None
        if len(self._handshakes) + self._waiting.qsize() >= MAX_WAITING:
            log.warning("connection refused: %d connections already wait for a game", MAX_WAITING)
            writer.close()
            return
        task = asyncio.create_task(self._handshake(reader, writer))
        self._handshakes.add(task)
        task.add_done_callback(self._handshakes.discard)

    async def _handshake(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Read a new connection's group number under its own deadline; then it waits for a game."""
        assert self._waiting is not None
        peer = writer.get_extra_info("peername")
        try:
            async with asyncio.timeout(self.config.handshake):
                message = await read_message(
                    reader, accept=frozenset({MessageType.GROUP}), frame_timeout=self.config.frame_timeout
                )
        except (ProtocolError, OSError, TimeoutError) as exc:
            why = (
                f"no group number within {self.config.handshake:g} s"
                if isinstance(exc, TimeoutError)
                else exc
            )
            log.warning("connection from %s refused: %s", peer, why)
            await close_writer(writer)
            return
        except asyncio.CancelledError:  # the server is closing
            writer.close()
            raise
        assert isinstance(message, Group)
        conn = Connection(reader, writer, message.group, frame_timeout=self.config.frame_timeout)
        conn.start_reading()  # from now on a frame sent unasked breaks it, as in a game
        self._waiting.put_nowait(conn)

    async def close(self) -> None:
        """Stop listening, end the handshakes and close every connection that is not in a game."""
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None
        for task in list(self._handshakes):
            task.cancel()
        await asyncio.gather(*self._handshakes, return_exceptions=True)
        while self._waiting is not None and not self._waiting.empty():
            await self._waiting.get_nowait().close()
        if self._thread is not None:
            self._thread.shutdown(wait=True)
            self._thread = None

    async def run(self) -> list[ServedGame]:
        """Play every game, then close everything; returns the games in order."""
        results: list[ServedGame] = []
        try:
            if self._server is None:
                await self.start()
            for number in range(1, self.config.games + 1):
                result = await self.play_one(number)
                results.append(result)
                if self._on_result is not None:
                    self._on_result(result)
        finally:
            await self.close()
        return results

    # ------------------------------------------------------------------ one game

    def _emit(self, number: int, *lines: str, stamp: bool = False) -> None:
        if self._trace is None:
            return
        prefix = time.strftime("[%H:%M:%S] ") if stamp else ""
        for line in lines:
            self._trace(number, prefix + line)

    async def _seat_players(self, number: int) -> list[Connection]:
        """Seat clients in the order their group numbers came until the map's players are there."""
        assert self._waiting is not None
        p, wait = self.map.players, self.config.wait
        deadline = None if wait is None else asyncio.get_running_loop().time() + wait
        self._emit(
            number,
            "Starting Server.",
            f'Loading board from file "{self.map_path}"... OK',
            f"Opening port...OK. Port number is {self.port}.",
            f"This is a {p}-player map.",
        )
        players: list[Connection] = []
        try:
            while len(players) < p:
                try:
                    async with asyncio.timeout_at(deadline):
                        conn = await self._waiting.get()
                except TimeoutError:
                    raise ServerError(
                        f"game {number}: only {len(players)} of {p} clients connected within {wait:g} s"
                    ) from None
                conn.player = len(players) + 1
                players.append(conn)
                self._emit(
                    number,
                    f"Waiting client {conn.player} to connect...OK",
                    f"Waiting for group id of client {conn.player}...OK. Group ID is {conn.group}.",
                )
                log.info(
                    "game %d: client %d connected (group %d, %s)", number, conn.player, conn.group, conn.peer
                )
        except BaseException:
            for conn in players:
                await conn.close()
            raise
        return players

    async def play_one(self, number: int) -> ServedGame:
        """Wait for the players, play one game to its end and close its connections."""
        conns = await self._seat_players(number)
        groups = tuple(conn.group for conn in conns)
        names = tuple(unique_names(f"group-{g}" for g in groups))
        state = self.game.new_initial_state()
        emit = functools.partial(self._emit, number)
        table = Table(
            number,
            conns,
            names,
            state,
            depth=self.config.depth,
            emit=emit,
            tracing=self._trace is not None,
            loop=asyncio.get_running_loop(),
        )
        try:
            for conn in conns:
                conn.write(MapData(self.map_bytes), PlayerNumber(conn.player))
            await asyncio.gather(*(conn.drain() for conn in conns))
            emit(*(f"Sending data to client {conn.player}...OK" for conn in conns))
            clock = game_clock(self.config.time_spec(), len(conns), grace=self.config.grace)
            extra = list(self._recorders(number, names, groups, state)) if self._recorders else []
            await table.begin()
            record = await self._in_thread(table, self._play, table, names, clock, extra)
        finally:
            await table.close()
        final = record.final_state
        assert isinstance(final, ReversiState)
        return ServedGame(number, self.map_label, groups, names, record, time_left_ms(clock, final))

    def _play(
        self, table: Table, names: Sequence[str], clock: GameClock, extra: Sequence[Recorder]
    ) -> GameRecord:
        """The game on the shared loop (runs on the game thread)."""
        seats = [NetworkSeat(table, seat) for seat in range(len(names))]
        recorder = TableRecorder(table)
        return play_game(
            self.game,
            seats,
            seed=0,  # nothing is random in ReversiXT
            names=names,
            state=table.state,
            clock=clock,
            recorders=[recorder, *extra],
            watcher=recorder,
            bot_seeds=[0] * len(seats),
        )

    async def _in_thread(self, table: Table, fn: Callable[..., GameRecord], *args: Any) -> GameRecord:
        """Run ``fn`` on the game thread; if the server is stopped meanwhile, end the game first."""
        if self._thread is None:
            self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="reversixt-game")
        future: Future[GameRecord] = self._thread.submit(fn, *args)
        try:
            return await asyncio.wrap_future(future)
        except asyncio.CancelledError:
            table.abort()  # every request fails at once: the game ends after a forfeit per seat
            with contextlib.suppress(Exception):
                while not future.done():
                    await asyncio.sleep(0.01)
            raise
