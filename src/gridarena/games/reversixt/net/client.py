"""A ReversiXT network client: any registered bot against any compliant server.

The client keeps its own state from the server's messages only: the map message builds the game,
every announcement is applied for the player it names (skipped players are invisible, so the
client never guesses whose turn it is), message 7 disqualifies, END1 and END2 are checked against
the state. Each request is answered by the bot with a :class:`~gridarena.core.clock.TurnClock`
whose deadline keeps a safety margin inside the offered account and whose ``depth`` is the
request's depth byte (0 = none), so depth-aware bots honour the limit. When the request carries
neither a time nor a depth, the bot gets the client's own budget (``fallback_time``).

A state that disagrees with the server (a request while our rules say another player moves, an
announcement our rules refuse) is reported as :class:`ClientError` rather than played on blindly.
Readable events go to the ``logging`` logger ``gridarena.reversixt.client``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import socket
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from gridarena.core.bot import Bot, WantsTimeControl, WarmUp
from gridarena.core.clock import TurnClock
from gridarena.core.collector import freeze_startup
from gridarena.core.errors import GridArenaError
from gridarena.core.registry import make_bot
from gridarena.games.reversixt.capture import candidates, captures, is_valid_placement, stone_counts
from gridarena.games.reversixt.formats import (
    BONUS,
    BONUS_OVERRIDE,
    CHOICE,
    EXPANSION,
    HOLE,
    MapFormatError,
    Move,
    decode_map,
    is_stone,
    parse_map,
)
from gridarena.games.reversixt.net.protocol import (
    FROM_SERVER,
    ConnectionClosedError,
    Disqualification,
    EndGame,
    EndPhase1,
    Group,
    MessageType,
    MoveAnnouncement,
    MoveAnswer,
    MoveRequest,
    ProtocolError,
    encode,
    message_type,
    read_message,
)
from gridarena.games.reversixt.rules import (
    PHASE_BOMBS,
    PHASE_OVER,
    PHASE_STONES,
    ReversiState,
    ReversiXT,
    wire_move,
)

log: Final = logging.getLogger("gridarena.reversixt.client")

WAITING: Final = logging.INFO + 5
"""The level of what the client waits for (its kernels, the server): said even by a quiet client."""

INBOX_LIMIT: Final = 4096
"""Frames read ahead of the game (the server sends little unasked; a flood waits in the socket)."""

FRAME_TIMEOUT: Final = 10.0
"""Seconds a frame from the server may take once its first byte has come, besides its payload's time
(:data:`FRAME_RATE`): a server that announces a frame and sends less cannot hold the client for ever.
The wait for a frame's first byte is not limited: other players may think for as long as the server
lets them."""

FRAME_RATE: Final = float(1 << 20)
"""Bytes per second a frame's payload must at least arrive at: the largest map we accept
(:data:`~gridarena.games.reversixt.protocol.MAX_MAP_BYTES`, 64 MiB) gets 74 s, a move request 10 s."""


class ClientError(GridArenaError):
    """The client cannot play on: no server, a server that breaks the protocol, or states that disagree."""


def safety_margin(seconds: float) -> float:
    """Seconds kept back from an offered account: 50 ms plus 10 %, never more than half of it.

    The server measures from sending the request to the complete answer, so network delay and a
    loaded machine count against us (published course clients kept 500 ms + 10 %, with 2 s moves).

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
        if not 0 <= self.wait < math.inf:  # NaN fails every comparison
            raise ClientError(f"--wait {self.wait}: must be 0 or more seconds")
        if not 0 < self.fallback_time < math.inf:
            raise ClientError(f"--fallback-time {self.fallback_time}: must be a positive number of seconds")


@dataclass(frozen=True, slots=True)
class ClientResult:
    """How the game ended for us: our number, the final scores (None = disqualified) and our moves."""

    player: int
    scores: tuple[int | None, ...]
    moves: int
    disqualified: bool
    finished: bool  # END2 received
    least_left_ms: float | None = None  # the smallest account left after an answer, as we measured it


def turn_clock(request: MoveRequest, fallback: float, received: float | None = None) -> TurnClock:
    """The bot's clock for a request: the account less the margin, and the depth byte (0 = none).

    With neither a time nor a depth the bot gets ``fallback`` seconds. ``received`` is
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


def quick_move(state: ReversiState, deadline: float) -> Move:
    """A legal move found fast, for a request the bot cannot answer in time (not ready yet, or still
    searching past an earlier deadline).

    Phase 1: the valid placements met first (near the opponents' stones, lazily, at most until
    ``deadline``, a ``time.perf_counter`` value), the one capturing most, a move without an
    override stone before one with; a choice swaps with the player holding most stones, a bonus
    takes an override stone. Phase 2: a bomb on the first stone of the opponent with most stones.
    Never lists every valid move, so it stays fast on the largest boards.
    """
    game, cells, k = state.game, state.cells, state.mover
    counts = stone_counts(cells, state.players)
    if state.phase == PHASE_BOMBS:
        leader = max((p for p in range(1, state.players + 1) if p != k), key=lambda p: counts[p - 1])
        target = cells.find(bytes([leader]))
        if target < 0:
            target = next(i for i, c in enumerate(cells) if c != HOLE)
        return Move(*game.board.xy(target))
    table, ov = game.steps, state.overrides[k - 1]
    best: tuple[int, int] | None = None  # (score, cell)
    for i in candidates(game.arrivals, cells, k, ov):
        if best is not None and time.perf_counter() >= deadline:
            break
        if not is_valid_placement(table, cells, i, k, ov):
            continue
        occupied = is_stone(cells[i]) or cells[i] == EXPANSION
        score = len(captures(table, cells, i, k)) - (1 << 20 if occupied else 0)
        if best is None or score > best[0]:
            best = (score, i)
    if best is None:  # cannot happen while the server asks us (settle found a move): the full list
        return state.legal_actions()[0]
    i = best[1]
    x, y = game.board.xy(i)
    if cells[i] == CHOICE:
        return Move(x, y, max(range(1, state.players + 1), key=lambda p: counts[p - 1]))
    if cells[i] == BONUS:
        return Move(x, y, BONUS_OVERRIDE)
    return Move(x, y)


#: The project map a bot warms up on before the client connects (its kernels do not depend on the map).
WARM_UP_MAP: Final = "sampler"
#: Share of the time left that a request may spend on :func:`quick_move` while the bot gets ready.
QUICK_SHARE: Final = 0.25


async def warm_up_before_connecting(config: ClientConfig) -> float | None:
    """Compile or load the bot's kernels (its ``warm_up`` on a small map) before anybody can ask us.

    A fresh install compiles for 15 s or more (numba's cache is empty); at 1 s a move the first
    request would be lost. Returns the seconds it took, None for a bot without a warm-up.
    """
    game = ReversiXT(WARM_UP_MAP)
    bot = make_bot(game, config.bot, extra=config.extra_bots)
    if not isinstance(bot, WarmUp):
        return None
    log.log(WAITING, "bot %s: compiling or loading its kernels before connecting ...", config.bot)
    start = time.perf_counter()
    await asyncio.to_thread(bot.warm_up, game)
    seconds = time.perf_counter() - start
    log.info("bot %s: kernels ready in %.1f s (before connecting)", config.bot, seconds)
    return seconds


class _Session:
    """One game over one connection.

    A reader task takes every frame off the socket as it arrives and notes the time, while the work
    (parsing the map, following announcements, the bot's search) runs in worker threads: so a
    request's clock starts when the request arrived, even if it waited behind an announcement we
    were still applying on a large board.
    """

    def __init__(
        self, config: ClientConfig, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        self.config, self.reader, self.writer = config, reader, writer
        self.state: ReversiState | None = None
        self.bot: Bot | None = None
        self.me = 0
        self.moves = 0
        self.disqualified = False
        self.ready: asyncio.Future[None] | None = None  # the bot's reset and warm-up for this map
        # The bot's last search: it may still run after its deadline (see decide).
        self.thinking: asyncio.Future[Any] | None = None
        self.inbox: asyncio.Queue[tuple[float, Any]] = asyncio.Queue(maxsize=INBOX_LIMIT)
        self.least_left_ms: float | None = None
        self.arrived = 0.0  # when the frame last received arrived (time.perf_counter)

    async def send(self, message: Group | MoveAnswer) -> None:
        self.writer.write(encode(message))
        await self.writer.drain()

    async def read_frames(self) -> None:
        """The reader task: every frame (or the error that ended the stream) with its arrival time."""
        while True:
            try:
                message: Any = await read_message(
                    self.reader, accept=FROM_SERVER, frame_timeout=FRAME_TIMEOUT, frame_rate=FRAME_RATE
                )
            except (ProtocolError, OSError) as exc:
                await self.inbox.put((time.perf_counter(), exc))
                return
            await self.inbox.put((time.perf_counter(), message))

    async def receive(self, *expected: MessageType) -> Any:
        """The next frame (its arrival time in ``self.arrived``); a broken stream raises here, in order."""
        self.arrived, item = await self.inbox.get()
        if isinstance(item, ConnectionClosedError):
            raise item
        if isinstance(item, ProtocolError):
            raise ClientError(f"the server broke the protocol: {item}") from item
        if isinstance(item, OSError):
            raise item
        kind = message_type(item)
        if expected and kind not in expected:
            raise ClientError(
                f"the server broke the protocol: unexpected message type {int(kind)} "
                f"({kind.name.lower().replace('_', ' ')}), expected {sorted(int(e) for e in expected)}"
            )
        return item

    async def handshake(self) -> None:
        await self.send(Group(self.config.group))
        data = await self.receive(MessageType.MAP)
        try:
            board = await asyncio.to_thread(
                parse_map, decode_map(data.data, "<map message>"), "<map message>", strict=False
            )
        except MapFormatError as exc:
            raise ClientError(f"the server's map cannot be read: {exc}") from exc
        number = await self.receive(MessageType.PLAYER)
        if not 1 <= number.player <= board.players:
            raise ClientError(
                f"the server gave us player number {number.player} on a {board.players}-player map"
            )
        game = ReversiXT.from_map(board)
        self.me = number.player
        self.state = await asyncio.to_thread(game.new_initial_state)
        self.bot = make_bot(game, self.config.bot, extra=self.config.extra_bots)
        # The bot's tables for this map (a large map's take seconds) are built in a thread; a request
        # that comes meanwhile is answered by quick_move.
        self.ready = asyncio.ensure_future(asyncio.to_thread(self._prepare, self.bot, game))
        log.info(
            "player %d of %d on a %dx%d map, bot %s",
            self.me,
            board.players,
            board.height,
            board.width,
            self.config.bot,
        )

    def _prepare(self, bot: Bot, game: ReversiXT) -> None:
        start = time.perf_counter()
        bot.reset(game, self.me - 1, self.config.seed)
        if isinstance(bot, WarmUp):
            bot.warm_up(game)
        log.debug("bot ready for this map after %.0f ms", 1000 * (time.perf_counter() - start))

    async def play(self) -> ClientResult:
        reading = asyncio.ensure_future(self.read_frames())
        try:
            return await self._play()
        finally:
            reading.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reading
            for work in (self.ready, self.thinking):  # let a thread still at work finish
                if work is not None:
                    with contextlib.suppress(Exception):
                        await work

    async def _play(self) -> ClientResult:
        try:
            await self.handshake()
        except ConnectionClosedError as exc:
            raise ClientError(f"the server closed the connection during the handshake ({exc})") from exc
        assert self.state is not None
        freeze_startup()  # one game a process: no collector pass in a move walks the imports
        while True:
            try:
                message = await self.receive()
            except ConnectionClosedError as exc:
                if self.disqualified:
                    return self.result(finished=False)
                raise ClientError(f"the server closed the connection before the game's end ({exc})") from exc
            if isinstance(message, MoveRequest):
                await self.answer(message, self.arrived)
            elif isinstance(message, MoveAnnouncement):
                self.state = await asyncio.to_thread(self.announced, self.state, message)
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

    async def answer(self, request: MoveRequest, arrived: float) -> None:
        assert self.state is not None and self.bot is not None and self.ready is not None
        state = self.state
        if state.current_player() != self.me - 1:
            mover = state.current_player() + 1
            raise ClientError(
                f"the server asks us (player {self.me}) to move, but our state says "
                + ("the game is over" if state.is_terminal() else f"player {mover} moves")
            )
        if request.time_ms > 0 and isinstance(self.bot, WantsTimeControl) and self.bot.time_control is None:
            # The reference server's first request offers exactly one increment; the account carries over.
            self.bot.time_control = f"account:{request.time_ms / 1000:g}"
        clock = turn_clock(request, self.config.fallback_time, received=arrived)
        if (
            not self.ready.done() and request.time_ms > 0
        ):  # wait a little: a bot without a warm-up is ready at once
            await asyncio.wait({self.ready}, timeout=QUICK_SHARE * clock.time_left())
        busy = self.thinking is not None and not self.thinking.done()
        if (busy or not self.ready.done()) and request.time_ms > 0:
            left = clock.time_left()
            move = await asyncio.to_thread(quick_move, state, time.perf_counter() + QUICK_SHARE * left)
            why = "still searching an earlier request" if busy else "not ready yet"
            log.info("bot %s: answered %s from the rules (%.0f ms left)", why, move.to_text(), 1000 * left)
        else:
            await self.ready
            if self.thinking is not None:
                await self.thinking  # an untimed request after a search that ran late: let it end
            move = await self.decide(state, clock)
        await self.send(MoveAnswer(*move))
        self.moves += 1
        used = 1000 * (time.perf_counter() - arrived)
        if request.time_ms > 0:
            left_ms = request.time_ms - used
            self.least_left_ms = left_ms if self.least_left_ms is None else min(self.least_left_ms, left_ms)
        log.debug(
            "move %d: (%d,%d,%d) after %.0f ms (offered %d ms, depth %d)",
            self.moves,
            *move,
            used,
            request.time_ms,
            request.depth,
        )

    async def decide(self, state: ReversiState, clock: TurnClock) -> Move:
        """The bot's move (in a thread), or a quick legal one when the bot fails or answers illegally."""
        assert self.bot is not None
        self.thinking = thinking = asyncio.ensure_future(asyncio.to_thread(self.bot.act, state, clock))
        if clock.deadline is not None:
            # The bot is raced against its deadline: a search that cannot stop in time (a move
            # generation over a huge board full of stones) must not cost the game. Its thread runs
            # on and its answer is dropped; requests meanwhile are answered from the rules.
            await asyncio.wait({thinking}, timeout=max(0.0, clock.deadline - time.perf_counter()))
            if not thinking.done():
                log.warning("bot %s had no answer at its deadline; answering from the rules", self.config.bot)
                return await asyncio.to_thread(
                    quick_move, state, time.perf_counter() + QUICK_SHARE * clock.time_left()
                )
        try:
            decision = await thinking
        except Exception as exc:  # a broken bot must not cost the game: say so and move
            log.error(
                "bot %s failed (%s: %s); answering from the rules", self.config.bot, type(exc).__name__, exc
            )
            return await asyncio.to_thread(
                quick_move, state, time.perf_counter() + QUICK_SHARE * clock.time_left()
            )
        move = decision.action
        reason = state.illegal_reason(move)
        if reason is not None:
            fallback = await asyncio.to_thread(
                quick_move, state, time.perf_counter() + QUICK_SHARE * clock.time_left()
            )
            log.warning("bot answered %r (%s); sending %s instead", move, reason, fallback.to_text())
            return fallback
        return Move(*move)

    def announced(self, state: ReversiState, message: MoveAnnouncement) -> ReversiState:
        """The state after an announced move (run in a worker thread: large boards take a while)."""
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
        return state.apply_action(move)

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
        return ClientResult(
            self.me, self.state.scores(), self.moves, self.disqualified, finished, self.least_left_ms
        )


async def connect(config: ClientConfig) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """Open the connection; a refused one is retried until ``config.wait`` seconds have passed.

    Scripts that start a server and its clients together need the retry; by default a refused
    address fails at once with one clear :class:`ClientError`.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + config.wait
    waited = False
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
            if not waited:
                waited = True
                log.log(
                    WAITING, "waiting up to %g s for a server on %s:%d", config.wait, config.host, config.port
                )
            await asyncio.sleep(0.05)
        except OSError as exc:
            # asyncio's own text repeats the address; a name that does not resolve has no errno text.
            text = (
                exc.strerror if isinstance(exc, socket.gaierror) or not exc.errno else os.strerror(exc.errno)
            )
            raise ClientError(f"cannot connect to {config.host}:{config.port}: {text or exc}") from None


async def play(config: ClientConfig) -> ClientResult:
    """Warm the bot up, connect, play one game to END2 and close; a refused address raises
    :class:`ClientError`."""
    await warm_up_before_connecting(config)
    reader, writer = await connect(config)
    log.info("connected to %s:%d", config.host, config.port)
    try:
        return await _Session(config, reader, writer).play()
    except OSError as exc:
        raise ClientError(f"connection to {config.host}:{config.port} broke: {exc.strerror or exc}") from exc
    finally:
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()
