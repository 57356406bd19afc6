"""A ReversiXT game server on asyncio: the reference server's protocol and game loop (spec 6.5, 9, 10).

The server waits for as many clients as the map has players (connection order gives the player
numbers), sends each the map file's bytes verbatim and its number, then runs the game loop of
spec 6.5 on the clear rules (:mod:`gridarena.games.reversixt.rules`): the state says whose turn
it is, so skipped players get nothing; the player to move gets a move request with his time
account (spec 9.5) and the depth byte, and every valid move is announced to all. A late answer,
an invalid move or special byte, a malformed or unexpected message and a broken connection each
disqualify the offender (message 7 to every connected client, the offender included, then his
connection is closed, spec 7 / O5) and the game goes on for the others.

Every connection has a reader task that turns the incoming frames into an inbox, so a broken
connection or a message sent unasked (O13) is noticed even when it is not that player's turn; the
game loop looks at the inboxes before every request. Everything the server opens (the listening
socket, connections, reader tasks) is closed before :meth:`ReversiServer.run` returns.

The server prints nothing: readable events go to the ``logging`` logger ``gridarena.reversixt.server``
(moves at DEBUG, the rest at INFO), and the reference server's console format (data README 3.1,
what ``verify-trace`` reads) goes line by line to an optional ``trace`` callback.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, TypeAlias

from gridarena.core.errors import GridArenaError
from gridarena.core.files import read_bytes
from gridarena.games.reversixt.formats import ReversiMap, decode_map, map_name, parse_map, resolve_map_path
from gridarena.games.reversixt.protocol import (
    FROM_CLIENT,
    ConnectionClosedError,
    Disqualification,
    EndGame,
    EndPhase1,
    Group,
    MapData,
    Message,
    MessageType,
    MoveAnnouncement,
    MoveAnswer,
    MoveRequest,
    PlayerNumber,
    ProtocolError,
    encode,
    message_type,
    read_message,
)
from gridarena.games.reversixt.rules import PHASE_STONES, ReversiState, ReversiXT, wire_move
from gridarena.games.reversixt.trace import reference_board

log: Final = logging.getLogger("gridarena.reversixt.server")

#: Result-file status words (spec 10, O14), in the order of the disqualification reasons of spec 7.
STATUSES: Final = ("ok", "timeout", "invalid-move", "protocol-error", "disconnected")

#: The core API's termination for each disqualification status.
TERMINATION: Final = {
    "timeout": "timeout",
    "invalid-move": "illegal",
    "protocol-error": "protocol",
    "disconnected": "crash",
}

#: Seconds a connected client has to send its group number when no ``--wait`` is given: a client
#: that connects and says nothing must not block everyone else for ever.
GROUP_TIMEOUT: Final = 30.0

#: Seconds a send may wait for a client that does not read (its socket buffer is full).
SEND_TIMEOUT: Final = 30.0

#: How many ports above ``--port`` the server tries when it is busy, as the reference does (spec 9.7).
PORT_TRIES: Final = 100

TraceSink: TypeAlias = Callable[[int, str], None]
"""``trace(game_number, line)``: one line of the reference server's console format, without newline."""


class ServerError(GridArenaError):
    """The server cannot go on: a busy port, clients that never came, an unreadable map."""


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """What ``gridarena reversixt server`` was asked for (spec 10).

    ``time`` is the reference's ``-t``: seconds added to a player's account before each request
    (0 = no limit, requests carry time 0). ``wait`` bounds the wait for all clients of one game
    (None = for ever). ``grace`` is how far past his account an answer may arrive (spec 9.5: 0).
    """

    map_path: str
    time: float = 0.0
    depth: int = 1
    host: str = "127.0.0.1"
    port: int = 7777
    games: int = 1
    wait: float | None = None
    grace: float = 0.0

    def __post_init__(self) -> None:
        if self.time < 0:
            raise ServerError(f"--time {self.time}: must be 0 (no limit) or positive")
        if not 0 <= self.depth <= 255:
            raise ServerError(f"--depth {self.depth}: the depth byte holds 0..255")
        if not 0 <= self.port <= 65535:
            raise ServerError(f"--port {self.port}: not a TCP port")
        if self.games < 1:
            raise ServerError(f"--games {self.games}: at least one game")
        if self.wait is not None and self.wait <= 0:
            raise ServerError(f"--wait {self.wait}: must be positive")


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One line of the result file: a player's group, points, time left and status."""

    player: int
    group: int
    score: int
    time_left_ms: int
    status: str
    reason: str = ""

    def result_line(self) -> str:
        """``group<TAB>points<TAB>time left<TAB>status`` (spec 10)."""
        return f"{self.group}\t{self.score}\t{self.time_left_ms}\t{self.status}"


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game: the map, every player's result, and how many moves were answered."""

    number: int
    map_name: str
    players: tuple[PlayerResult, ...]
    moves: int

    def result_text(self) -> str:
        """The result file's block: the map name, then one line per player.

        >>> GameResult(1, "x.map", (PlayerResult(1, 5, 30, 812, "ok"),), 4).result_text()
        'x.map\\n5\\t30\\t812\\tok\\n'
        """
        return "\n".join([self.map_name, *(p.result_line() for p in self.players)]) + "\n"


@dataclass(frozen=True, slots=True)
class _Broken:
    """What a reader task leaves in the inbox when the connection breaks or the client breaks the protocol."""

    status: str
    detail: str


Inbox: TypeAlias = "asyncio.Queue[Message | _Broken]"


@dataclass(eq=False)
class _Connection:
    """One client: its streams, its inbox (fed by its reader task), its group and its account."""

    player: int  # 1..p
    group: int
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    inbox: Inbox = field(default_factory=asyncio.Queue)
    task: asyncio.Task[None] | None = None
    account: float = 0.0
    open: bool = True

    def start_reading(self) -> None:
        self.task = asyncio.create_task(self._read_loop(), name=f"reversixt-reader-{self.player}")

    async def _read_loop(self) -> None:
        while True:
            try:
                message = await read_message(self.reader, accept=FROM_CLIENT)
            except ConnectionClosedError as exc:
                self.inbox.put_nowait(_Broken("disconnected", str(exc)))
                return
            except ProtocolError as exc:
                self.inbox.put_nowait(_Broken("protocol-error", str(exc)))
                return
            except OSError as exc:
                self.inbox.put_nowait(_Broken("disconnected", f"connection broke: {exc}"))
                return
            self.inbox.put_nowait(message)

    async def send(self, *messages: Message) -> None:
        """Send frames; a client that cannot be written to is marked broken (disqualified at its next check)."""
        if not self.open:
            return
        try:
            self.writer.write(b"".join(encode(m) for m in messages))
            await asyncio.wait_for(self.writer.drain(), SEND_TIMEOUT)
        except (OSError, TimeoutError) as exc:
            detail = "send timed out" if isinstance(exc, TimeoutError) else f"connection broke: {exc}"
            self.inbox.put_nowait(_Broken("disconnected", detail))

    async def close(self) -> None:
        """Stop the reader and close the socket; safe to call twice."""
        self.open = False
        await _close(self.writer, self.task)
        self.task = None


async def _close(writer: asyncio.StreamWriter, task: asyncio.Task[None] | None = None) -> None:
    if task is not None:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    writer.close()
    with contextlib.suppress(OSError):
        await writer.wait_closed()


def load_map_bytes(path: str) -> tuple[bytes, ReversiMap]:
    """The map file's bytes as they go on the wire (a ``.gz`` file decompressed) and the parsed map."""
    p = Path(path)
    data = read_bytes(p, "map", gunzip=True)  # the project's one reading path
    return data, parse_map(decode_map(data, path), path, name=map_name(p))


def scores(state: ReversiState) -> tuple[int, ...]:
    """Stones of each player on the board (spec 8); disqualified players score 0 in the result file."""
    return tuple(0 if s is None else s for s in state.scores())


def active_players(state: ReversiState) -> int:
    """Players who are not disqualified."""
    return sum(reason is None for reason in state.disqualified)


class ReversiServer:
    """Plays ``config.games`` games in a row on one listening socket; see the module docstring.

    ``on_result`` is called with each finished game (the CLI appends it to the result file at once,
    so a later failure keeps the earlier games). ``port`` is the bound port once :meth:`start` ran
    (``config.port`` 0 lets the system choose one).
    """

    def __init__(
        self,
        config: ServerConfig,
        *,
        trace: TraceSink | None = None,
        on_result: Callable[[GameResult], None] | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.config = config
        self.map_path = str(resolve_map_path(config.map_path))  # a project map name works too
        self.map_bytes, self.map = load_map_bytes(self.map_path)
        self.game = ReversiXT.from_map(self.map)
        self.map_label = Path(self.map_path).name
        self._trace, self._on_result, self._clock = trace, on_result, clock
        self._pending: asyncio.Queue[tuple[asyncio.StreamReader, asyncio.StreamWriter]] | None = None
        self._server: asyncio.Server | None = None
        self.port: int | None = None

    # ------------------------------------------------------------------ listening

    async def start(self) -> int:
        """Open the listening socket; a busy port moves to the next free one, as the reference does."""
        self._pending = asyncio.Queue()
        port, host = self.config.port, self.config.host
        tries = 1 if port == 0 else PORT_TRIES
        for offset in range(tries):
            try:
                self._server = await asyncio.start_server(self._accept, host, port + offset)
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
        return self.port

    def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        assert self._pending is not None
        self._pending.put_nowait((reader, writer))

    async def close(self) -> None:
        """Stop listening and close every connection that never joined a game."""
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None
        while self._pending is not None and not self._pending.empty():
            _, writer = self._pending.get_nowait()
            await _close(writer)

    async def run(self) -> list[GameResult]:
        """Play every game, then close everything; returns the results in order."""
        results: list[GameResult] = []
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

    async def _connect_players(self, number: int) -> list[_Connection]:
        """Take clients in connection order until the map's players are there; each sends its group first."""
        assert self._pending is not None
        p, wait = self.map.players, self.config.wait
        loop = asyncio.get_running_loop()
        deadline = None if wait is None else loop.time() + wait
        self._emit(
            number,
            "Starting Server.",
            f'Loading board from file "{self.map_path}"... OK',
            f"Opening port...OK. Port number is {self.port}.",
            f"This is a {p}-player map.",
        )
        players: list[_Connection] = []
        try:
            while len(players) < p:
                left = None if deadline is None else max(0.0, deadline - loop.time())
                try:
                    reader, writer = await asyncio.wait_for(self._pending.get(), left)
                except TimeoutError:
                    raise ServerError(
                        f"game {number}: only {len(players)} of {p} clients connected within {wait:g} s"
                    ) from None
                k = len(players) + 1
                group = await self._read_group(number, k, reader, writer, left)
                if group is not None:
                    players.append(_Connection(k, group, reader, writer))
                    self._emit(
                        number,
                        f"Waiting client {k} to connect...OK",
                        f"Waiting for group id of client {k}...OK. Group ID is {group}.",
                    )
                    log.info("game %d: client %d connected (group %d)", number, k, group)
        except BaseException:
            for conn in players:
                await conn.close()
            raise
        return players

    async def _read_group(
        self,
        number: int,
        k: int,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        left: float | None,
    ) -> int | None:
        """The group number a new client sends first, or None (and the connection closed) if it does not."""
        peer = writer.get_extra_info("peername")
        try:
            message = await asyncio.wait_for(
                read_message(reader, accept=frozenset({MessageType.GROUP})),
                GROUP_TIMEOUT if left is None else max(left, 1.0),
            )
        except (ProtocolError, OSError, TimeoutError) as exc:
            reason = "no group number in time" if isinstance(exc, TimeoutError) else str(exc)
            log.warning("game %d: connection from %s refused as client %d: %s", number, peer, k, reason)
            await _close(writer)
            return None
        assert isinstance(message, Group)
        return message.group

    async def play_one(self, number: int) -> GameResult:
        """Wait for the players, play one game to its end and close its connections."""
        players = await self._connect_players(number)
        try:
            return await self._play(number, players)
        finally:
            for conn in players:
                await conn.close()

    async def _play(self, number: int, players: list[_Connection]) -> GameResult:
        for conn in players:
            await conn.send(MapData(self.map_bytes), PlayerNumber(conn.player))
            self._emit(number, f"Sending data to client {conn.player}...OK")
        for conn in players:
            conn.start_reading()
        game = _Game(self, number, players)
        return await game.run()


class _Game:
    """The loop of spec 6.5 for one game over connected players."""

    def __init__(self, server: ReversiServer, number: int, players: Sequence[_Connection]) -> None:
        self.server, self.number, self.players = server, number, list(players)
        self.config = server.config
        self.width, self.height = server.map.width, server.map.height
        self.status = ["ok"] * len(players)
        self.reasons = [""] * len(players)
        self.moves = 0
        self.end1_sent = False

    def emit(self, *lines: str, stamp: bool = False) -> None:
        self.server._emit(self.number, *lines, stamp=stamp)

    def board(self, state: ReversiState) -> None:
        if self.server._trace is not None:  # the marks cost a move generation: only for a trace
            self.emit(*reference_board(state))

    def emit_scores(self, state: ReversiState) -> None:
        lines = ["", "", "Scores:"]
        for k, score in enumerate(scores(state)):
            dq = state.disqualified[k] is not None
            lines.append(f"Player {k + 1}: disqualified" if dq else f"Player {k + 1}: {score} points")
        self.emit(*lines)

    async def broadcast(self, *messages: Message) -> None:
        await asyncio.gather(*(conn.send(*messages) for conn in self.players if conn.open))

    async def run(self) -> GameResult:
        state: ReversiState = self.server.game.new_initial_state()
        self.emit("Game started.", stamp=True)
        if state.phase == PHASE_STONES and state.current_player() != 0:
            # The reference's quirk (O15): its move counter then starts at 1.
            self.emit("First player can not do first move... Oh well, skipping him.", stamp=True)
            self.moves = 1
        elif state.phase != PHASE_STONES:
            self.emit("First player can not do first move... Oh well, skipping him.", stamp=True)
            self.emit("Bombing-only map...", stamp=True)
            self.moves = 1
        self.board(state)
        log.info("game %d started: %d players on %s", self.number, len(self.players), self.server.map_label)
        while True:
            state = await self.check_inboxes(state)
            if not state.is_terminal() and state.phase != PHASE_STONES:
                await self.end_phase1(state)
            if state.is_terminal():
                break
            state = await self.turn(state)
        if not self.end1_sent and active_players(state) >= 2:
            await self.end_phase1(state)
        await self.broadcast(EndGame())
        self.emit("Final state reached.", stamp=True)
        self.emit_scores(state)
        self.emit("bye bye.")
        return self.result(state)

    async def end_phase1(self, state: ReversiState) -> None:
        if self.end1_sent:
            return
        self.end1_sent = True
        await self.broadcast(EndPhase1())
        self.emit("", "Terminal state reached.", stamp=False)
        self.emit_scores(state)
        self.emit("")
        log.info("game %d: end of phase 1, stones %s", self.number, list(scores(state)))

    def result(self, state: ReversiState) -> GameResult:
        final = scores(state)
        players = tuple(
            PlayerResult(
                conn.player,
                conn.group,
                final[k],
                max(0, int(conn.account * 1000)),
                self.status[k],
                self.reasons[k],
            )
            for k, conn in enumerate(self.players)
        )
        summary = ", ".join(
            f"player {r.player}: {r.score}" if r.status == "ok" else f"player {r.player}: {r.status}"
            for r in players
        )
        log.info("game %d over after %d moves: %s", self.number, self.moves, summary)
        return GameResult(self.number, self.server.map_label, players, self.moves)

    async def check_inboxes(self, state: ReversiState) -> ReversiState:
        """Disqualify every active player who sent something unasked or whose connection broke (O13)."""
        for k, conn in enumerate(self.players):
            if state.is_terminal():
                break
            if state.disqualified[k] is not None or conn.inbox.empty():
                continue
            item = conn.inbox.get_nowait()
            if isinstance(item, _Broken):
                state = await self.disqualify(state, k, item.status, item.detail)
            else:
                kind = int(message_type(item))
                state = await self.disqualify(state, k, "protocol-error", f"message type {kind} sent unasked")
        return state

    async def turn(self, state: ReversiState) -> ReversiState:
        """One request and its answer, checked and applied (or a disqualification)."""
        k = state.current_player()
        conn = self.players[k]
        limit = self.config.time
        self.emit(
            f"Player {k + 1} has {state.overrides[k]} overrides and {state.bombs[k]} bombs.", stamp=True
        )
        if limit > 0:
            conn.account += limit
        offered = min(int(conn.account * 1000), 0xFFFF_FFFF) if limit > 0 else 0
        self.emit(
            f"Sending move request to player {k + 1} with depth {self.config.depth}, time left: {offered} msecs.",
            stamp=True,
        )
        start = self.server._clock()
        await conn.send(MoveRequest(offered, self.config.depth))
        timeout = conn.account + self.config.grace if limit > 0 else None
        try:
            item = await asyncio.wait_for(conn.inbox.get(), timeout)
        except TimeoutError:
            conn.account = 0.0
            return await self.disqualify(state, k, "timeout", f"no answer within {offered} ms")
        elapsed = self.server._clock() - start
        if isinstance(item, _Broken):
            return await self.disqualify(state, k, item.status, item.detail)
        if not isinstance(item, MoveAnswer):
            detail = f"expected a move answer (type 5), got type {int(message_type(item))}"
            return await self.disqualify(state, k, "protocol-error", detail)
        if limit > 0:
            if elapsed > conn.account + self.config.grace:
                detail = f"answered after {elapsed * 1000:.0f} ms, account had {offered} ms"
                conn.account = 0.0
                return await self.disqualify(state, k, "timeout", detail)
            conn.account = max(0.0, conn.account - elapsed)
        move = wire_move(state, item.x, item.y, item.special)  # a bomb's special byte is ignored (5.4)
        reason = state.illegal_reason(move)
        if reason is not None:
            return await self.disqualify(
                state, k, "invalid-move", f"({item.x},{item.y},{item.special}): {reason}"
            )
        state = state.apply_action(move)
        left = int(conn.account * 1000) if limit > 0 else 0
        self.emit(
            f"Answer from player {k + 1} for move {self.moves} was (x,y,c) = ({move.x},{move.y},{move.special}); "
            f"time left: {left} msecs.",
            stamp=True,
        )
        self.board(state)
        self.emit("", "")
        log.debug(
            "game %d move %d: player %d plays (%d,%d) special %d in %.0f ms%s",
            self.number,
            self.moves,
            k + 1,
            move.x,
            move.y,
            move.special,
            elapsed * 1000,
            f", account {left} ms" if limit > 0 else "",
        )
        self.moves += 1
        await self.broadcast(MoveAnnouncement(move.x, move.y, move.special, k + 1))
        return state

    async def disqualify(self, state: ReversiState, k: int, status: str, detail: str) -> ReversiState:
        """Message 7 to every connected client (the offender included), close his connection, forfeit."""
        conn = self.players[k]
        self.status[k], self.reasons[k] = status, detail
        log.info("game %d: player %d disqualified (%s: %s)", self.number, k + 1, status, detail)
        self.emit(f"Player {k + 1} disqualified ({status}): {detail}", stamp=True)
        await self.broadcast(Disqualification(k + 1))
        await conn.close()
        return state.forfeit(k, TERMINATION[status], f"player {k + 1} disqualified ({status}): {detail}")
