"""A ReversiXT network client: any registered bot against any compliant server (spec 9.3, 9.4).

The client keeps its own state from the server's messages only: the map message builds the game,
every announcement is applied for the player it names (skipped players are invisible, so the
client never guesses whose turn it is), message 7 disqualifies, END1 and END2 are checked against
the state. Each request is answered by the bot with a :class:`~gridarena.core.clock.TurnClock`
whose deadline keeps a safety margin inside the offered account and whose ``depth`` is the
request's depth byte (0 = none), so depth-aware bots honour the limit. When the request carries
neither a time nor a depth, the bot gets the client's own budget (``fallback_time``, spec 9.6).

A state that disagrees with the server (a request while our rules say another player moves, an
announcement our rules refuse) is reported as :class:`ClientError` rather than played on blindly.
Readable events go to the ``logging`` logger ``gridarena.reversixt.client``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from gridarena.core.bot import Bot
from gridarena.core.clock import TurnClock
from gridarena.core.errors import GridArenaError
from gridarena.core.registry import make_bot
from gridarena.games.reversixt.formats import MapFormatError, decode_map, parse_map
from gridarena.games.reversixt.protocol import (
    FROM_SERVER,
    ConnectionClosedError,
    Disqualification,
    EndGame,
    EndPhase1,
    Group,
    MapData,
    MessageType,
    MoveAnnouncement,
    MoveAnswer,
    MoveRequest,
    PlayerNumber,
    ProtocolError,
    encode,
    read_message,
)
from gridarena.games.reversixt.rules import PHASE_OVER, PHASE_STONES, ReversiState, ReversiXT, wire_move

log: Final = logging.getLogger("gridarena.reversixt.client")


class ClientError(GridArenaError):
    """The client cannot play on: no server, a server that breaks the protocol, or states that disagree."""


def safety_margin(seconds: float) -> float:
    """Seconds kept back from an offered account: 50 ms plus 10 %, never more than half of it.

    The server measures from sending the request to the complete answer, so network delay and a
    loaded machine count against us (spec 9.5; course clients kept 500 ms + 10 %, with 2 s moves).

    >>> safety_margin(2.0), safety_margin(0.3), safety_margin(0.05)
    (0.25, 0.08, 0.025)
    """
    return round(min(0.5 * seconds, 0.05 + 0.1 * seconds), 9)


@dataclass(frozen=True, slots=True)
class ClientConfig:
    """Where to connect and how to play."""

    host: str = "127.0.0.1"
    port: int = 7777
    group: int = 0
    bot: str = "random"
    seed: int = 0
    fallback_time: float = 1.0
    connect_timeout: float = 10.0
    wait: float = 0.0  # seconds to keep retrying a refused connection (the server may still be starting)
    extra_bots: Mapping[str, str] = field(default_factory=dict)  # name -> "module:factory" (plugins, tests)

    def __post_init__(self) -> None:
        if not 0 <= self.group <= 255:
            raise ClientError(f"--group {self.group}: the group byte holds 0..255")
        if self.wait < 0:
            raise ClientError(f"--wait {self.wait}: must be 0 or more")


@dataclass(frozen=True, slots=True)
class ClientResult:
    """How the game ended for us: our number, the final scores (None = disqualified) and our moves."""

    player: int
    scores: tuple[int | None, ...]
    moves: int
    disqualified: bool
    finished: bool  # END2 received


def turn_clock(request: MoveRequest, fallback: float, received: float | None = None) -> TurnClock:
    """The bot's clock for a request: the account less the margin, and the depth byte (0 = none).

    With neither a time nor a depth the bot gets ``fallback`` seconds (spec 9.6). ``received`` is
    when the request arrived (``time.perf_counter``; default now): time spent since then is gone.

    >>> turn_clock(MoveRequest(0, 3), 1.0).depth, turn_clock(MoveRequest(0, 3), 1.0).deadline is None
    (3, True)
    >>> clock = turn_clock(MoveRequest(2000, 0), 1.0)
    >>> clock.limit, 1.7 < clock.time_left() <= 2.0 - safety_margin(2.0)
    (2.0, True)
    """
    seconds = request.time_ms / 1000.0
    depth = request.depth or None
    now = time.perf_counter() if received is None else received
    if seconds > 0:
        deadline = now + max(0.0, seconds - safety_margin(seconds))
        return TurnClock(deadline=deadline, depth=depth, limit=seconds, hard_deadline=now + seconds)
    if depth is None:
        return TurnClock(deadline=now + fallback, limit=fallback)
    return TurnClock(depth=depth)


class _Session:
    """One game over one connection."""

    def __init__(
        self, config: ClientConfig, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        self.config, self.reader, self.writer = config, reader, writer
        self.state: ReversiState | None = None
        self.bot: Bot | None = None
        self.me = 0
        self.moves = 0
        self.disqualified = False
        self.warming: asyncio.Future[None] | None = None

    async def send(self, message: Group | MoveAnswer) -> None:
        self.writer.write(encode(message))
        await self.writer.drain()

    async def receive(self, *expected: MessageType) -> Any:
        accept = frozenset(expected) if expected else FROM_SERVER
        try:
            return await read_message(self.reader, accept=accept)
        except ConnectionClosedError:
            raise
        except ProtocolError as exc:
            raise ClientError(f"the server broke the protocol: {exc}") from exc

    async def handshake(self) -> None:
        await self.send(Group(self.config.group))
        data: MapData = await self.receive(MessageType.MAP)
        try:
            board = parse_map(decode_map(data.data, "<map message>"), "<map message>", strict=False)
        except MapFormatError as exc:
            raise ClientError(f"the server's map cannot be read: {exc}") from exc
        number: PlayerNumber = await self.receive(MessageType.PLAYER)
        if not 1 <= number.player <= board.players:
            raise ClientError(
                f"the server gave us player number {number.player} on a {board.players}-player map"
            )
        game = ReversiXT.from_map(board)
        self.me = number.player
        self.state = game.new_initial_state()
        self.bot = make_bot(game, self.config.bot, extra=self.config.extra_bots)
        self.bot.reset(game, self.me - 1, self.config.seed)
        warm_up = getattr(self.bot, "warm_up", None)
        if warm_up is not None:
            # In a thread, so that a request arriving meanwhile is read and its time noted at once.
            self.warming = asyncio.ensure_future(asyncio.to_thread(warm_up, game))
        log.info(
            "player %d of %d on a %dx%d map, bot %s",
            self.me,
            board.players,
            board.height,
            board.width,
            self.config.bot,
        )

    async def play(self) -> ClientResult:
        try:
            return await self._play()
        finally:
            if self.warming is not None:  # a game that ended before our first move: let the thread finish
                with contextlib.suppress(Exception):
                    await self.warming

    async def _play(self) -> ClientResult:
        try:
            await self.handshake()
        except ConnectionClosedError as exc:
            raise ClientError(f"the server closed the connection during the handshake ({exc})") from exc
        assert self.state is not None
        while True:
            try:
                message = await self.receive()
            except ConnectionClosedError as exc:
                if self.disqualified:
                    return self.result(finished=False)
                raise ClientError(f"the server closed the connection before the game's end ({exc})") from exc
            if isinstance(message, MoveRequest):
                await self.answer(message)
            elif isinstance(message, MoveAnnouncement):
                self.announced(message)
            elif isinstance(message, Disqualification):
                self.disqualify(message.player)
            elif isinstance(message, EndPhase1):
                if self.state.phase == PHASE_STONES:
                    raise ClientError("END1 arrived while our rules say phase 1 goes on")
                log.info("end of phase 1")
            elif isinstance(message, EndGame):
                if self.state.phase != PHASE_OVER:
                    log.warning("END2 arrived while our rules say the game goes on")
                return self.result(finished=True)
            else:
                raise ClientError(f"the server sent an unexpected {type(message).__name__} during the game")

    async def answer(self, request: MoveRequest) -> None:
        assert self.state is not None and self.bot is not None
        state = self.state
        if state.current_player() != self.me - 1:
            mover = state.current_player() + 1
            raise ClientError(
                f"the server asks us (player {self.me}) to move, but our state says "
                + ("the game is over" if state.is_terminal() else f"player {mover} moves")
            )
        start = time.perf_counter()
        if self.warming is not None:  # the first request came before the bot was ready
            warming, self.warming = self.warming, None
            await warming
        clock = turn_clock(request, self.config.fallback_time, received=start)
        decision = self.bot.act(state, clock)
        move = decision.action
        reason = state.illegal_reason(move)
        if reason is not None:
            fallback = state.legal_actions()[0]
            log.warning("bot answered %r (%s); sending %s instead", move, reason, fallback)
            move = fallback
        await self.send(MoveAnswer(*move))
        self.moves += 1
        log.debug(
            "move %d: (%d,%d,%d) after %.0f ms (offered %d ms, depth %d)",
            self.moves,
            *move,
            1000 * (time.perf_counter() - start),
            request.time_ms,
            request.depth,
        )

    def announced(self, message: MoveAnnouncement) -> None:
        assert self.state is not None
        state = self.state
        if state.current_player() != message.player - 1:
            raise ClientError(
                f"the server announces a move of player {message.player}, but our state says "
                + (
                    "the game is over"
                    if state.is_terminal()
                    else f"player {state.current_player() + 1} moves"
                )
            )
        move = wire_move(state, message.x, message.y, message.special)
        reason = state.illegal_reason(move)
        if reason is not None:
            raise ClientError(
                f"the server announces ({message.x},{message.y},{message.special}) "
                f"for player {message.player}, which our rules refuse: {reason}"
            )
        self.state = state.apply_action(move)

    def disqualify(self, player: int) -> None:
        assert self.state is not None
        if not 1 <= player <= self.state.players:
            raise ClientError(f"the server disqualifies player {player} on a {self.state.players}-player map")
        if player == self.me:
            self.disqualified = True
            log.warning("we (player %d) were disqualified", player)
        else:
            log.info("player %d was disqualified", player)
        self.state = self.state.forfeit(player - 1, "protocol", "disqualified by the server")

    def result(self, *, finished: bool) -> ClientResult:
        assert self.state is not None
        return ClientResult(self.me, self.state.scores(), self.moves, self.disqualified, finished)


async def connect(config: ClientConfig) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """Open the connection; a refused one is retried until ``config.wait`` seconds have passed.

    Scripts that start a server and its clients together need the retry; by default a refused
    address fails at once with one clear :class:`ClientError`.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + config.wait
    while True:
        try:
            return await asyncio.wait_for(
                asyncio.open_connection(config.host, config.port), config.connect_timeout
            )
        except TimeoutError:
            raise ClientError(
                f"cannot connect to {config.host}:{config.port}: no answer within {config.connect_timeout:g} s"
            ) from None
        except ConnectionRefusedError:
            if loop.time() >= deadline:
                why = "Connection refused" + (f" (for {config.wait:g} s)" if config.wait > 0 else "")
                raise ClientError(f"cannot connect to {config.host}:{config.port}: {why}") from None
            await asyncio.sleep(0.05)
        except OSError as exc:
            # asyncio's own text repeats the address; a name that does not resolve has no errno text.
            text = (
                exc.strerror if isinstance(exc, socket.gaierror) or not exc.errno else os.strerror(exc.errno)
            )
            raise ClientError(f"cannot connect to {config.host}:{config.port}: {text or exc}") from None


async def play(config: ClientConfig) -> ClientResult:
    """Connect, play one game to END2 and close; a refused address raises :class:`ClientError`."""
    reader, writer = await connect(config)
    try:
        return await _Session(config, reader, writer).play()
    except OSError as exc:
        raise ClientError(f"connection to {config.host}:{config.port} broke: {exc.strerror or exc}") from exc
    finally:
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()
