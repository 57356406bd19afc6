"""Helpers for the ReversiXT socket tests: a server on a free port, clients in a fixed connection order,
hand-written misbehaving clients, small maps, and counts of what a process holds open."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import random
import re
import subprocess
import sys
import threading
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from gridarena.core.bot import Decision
from gridarena.core.catalogue import BotEntry
from gridarena.core.clock import TurnClock
from gridarena.games.reversixt.formats import MAPS_DIR
from gridarena.games.reversixt.net.client import ClientConfig, play
from gridarena.games.reversixt.net.protocol import (
    FROM_SERVER,
    ConnectionClosedError,
    Group,
    Message,
    MoveAnswer,
    MoveRequest,
    encode,
    read_message,
)
from gridarena.games.reversixt.net.server import ReversiServer, ServedGame, ServerConfig

OTHELLO8 = MAPS_DIR / "othello8.map"

#: Four players, one bomb each (radius 1): both phases, skipped players, no specials.
MAP_4P = """4
1
1 1
6 6
0 0 0 0 0 0
0 1 2 3 4 0
0 3 4 1 2 0
0 2 1 4 3 0
0 4 3 2 1 0
0 0 0 0 0 0
"""

#: Eight players, one bomb each (radius 0): short games with both phases.
MAP_8P = """8
0
1 0
6 8
0 0 0 0 0 0 0 0
0 1 2 3 4 5 6 0
0 7 8 1 2 3 4 0
0 5 6 7 8 1 2 0
0 3 4 5 6 7 8 0
0 0 0 0 0 0 0 0
"""

#: Generous limits where timing is not the point (a loaded 2-core machine).
STEP_TIMEOUT = 60.0


def write_map(tmp_path: Path, text: str, name: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


@dataclass
class Trace:
    """The reference-format lines of every game, by game number."""

    lines: dict[int, list[str]] = field(default_factory=dict)

    def __call__(self, game: int, line: str) -> None:
        self.lines.setdefault(game, []).append(line)

    def joined(self, game: int = 1) -> str:
        return "\n".join(self.lines.get(game, [])) + "\n"

    def groups_read(self, game: int) -> int:
        return sum("Waiting for group id of client" in line for line in self.lines.get(game, []))


ClientFactory = Callable[[int], Awaitable[Any]]
"""A client: given the server's port, plays (or misbehaves) and returns what it saw."""


def bot_client(bot: str = "random", seed: int = 0, group: int = 0) -> ClientFactory:
    return lambda port: play(ClientConfig(port=port, bot=bot, seed=seed, group=group))


async def run_games(
    map_path: str,
    clients: list[ClientFactory],
    *,
    games: int = 1,
    trace: Trace | None = None,
    **config: Any,
) -> tuple[list[ServedGame], list[list[Any]]]:
    """Serve ``games`` games; in each, start the clients one by one in list order (player k = clients[k-1]).

    The next client starts only once the server has read the previous one's group, so the player
    numbers are certain. Returns the server's results and each game's client results.
    """
    trace = trace if trace is not None else Trace()
    server = ReversiServer(ServerConfig(map_path, port=0, games=games, **config), trace=trace)
    port = await server.start()
    serving = asyncio.create_task(server.run())
    per_game: list[list[Any]] = []
    try:
        for number in range(1, games + 1):
            tasks = []
            for k, factory in enumerate(clients, 1):
                tasks.append(asyncio.create_task(factory(port)))
                async with asyncio.timeout(STEP_TIMEOUT):
                    while trace.groups_read(number) < k and not serving.done():
                        await asyncio.sleep(0.002)
            async with asyncio.timeout(STEP_TIMEOUT):
                per_game.append(list(await asyncio.gather(*tasks)))
        async with asyncio.timeout(STEP_TIMEOUT):
            results = await serving
    finally:
        if not serving.done():
            serving.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await serving
    return results, per_game


@dataclass
class RawResult:
    """What a hand-written client received, and whether its connection was closed by the server."""

    messages: list[Message]
    closed_by_server: bool


Behaviour = Callable[[asyncio.StreamReader, asyncio.StreamWriter, MoveRequest], Awaitable[None]]


def raw_client(behaviour: Behaviour, group: int = 9, after_group: bytes = b"") -> ClientFactory:
    """A client that plays by hand: it answers the first request with ``behaviour`` and then only listens.

    ``after_group`` is sent right after the group message (a frame sent unasked).
    """

    async def run(port: int) -> RawResult:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        messages: list[Message] = []
        closed = False
        try:
            writer.write(encode(Group(group)) + after_group)
            await writer.drain()
            acted = False
            while True:
                try:
                    message = await read_message(reader, accept=FROM_SERVER)
                except (ConnectionClosedError, OSError):
                    closed = True
                    break
                messages.append(message)
                if isinstance(message, MoveRequest) and not acted:
                    acted = True
                    await behaviour(reader, writer, message)
                    if writer.is_closing():
                        break
        finally:
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()
        return RawResult(messages, closed)

    return run


async def send_malformed(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, _: MoveRequest) -> None:
    """A move answer whose header says 3 payload bytes instead of 5."""
    writer.write(bytes.fromhex("05 00000003 000100"))
    await writer.drain()


async def send_wrong_type(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, _: MoveRequest) -> None:
    """A group message where a move answer is due."""
    writer.write(encode(Group(1)))
    await writer.drain()


async def disconnect(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, _: MoveRequest) -> None:
    writer.close()


async def send_hole(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, _: MoveRequest) -> None:
    """(0,0): on the test maps an empty corner that captures nothing, an invalid move."""
    writer.write(encode(MoveAnswer(0, 0, 0)))
    await writer.drain()


def sleep_then_answer(seconds: float) -> Behaviour:
    async def sleeper(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, _: MoveRequest) -> None:
        await asyncio.sleep(seconds)
        with contextlib.suppress(OSError):
            writer.write(encode(MoveAnswer(0, 0, 0)))
            await writer.drain()

    return sleeper


def c_client(exe: Path, group: int) -> ClientFactory:
    async def run(port: int) -> tuple[int, str, str]:
        proc = subprocess.Popen(
            [str(exe), str(port), str(group)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        try:
            async with asyncio.timeout(60):
                while proc.poll() is None:
                    await asyncio.sleep(0.005)
        finally:
            if proc.poll() is None:
                proc.kill()
            out, err = proc.communicate()
        return proc.returncode, out, err

    return run


GRIDARENA = [sys.executable, "-m", "gridarena"]


@contextlib.contextmanager
def server_process(argv: list[str], cwd: Path) -> Iterator[tuple[subprocess.Popen[str], int]]:
    """``gridarena reversixt server --port 0 ARGV`` as a process and the port it listens on; killed on the
    way out if it is still running."""
    server = subprocess.Popen(
        [*GRIDARENA, "reversixt", "server", "--port", "0", *argv], stderr=subprocess.PIPE, text=True, cwd=cwd
    )
    try:
        assert server.stderr is not None
        first = server.stderr.readline()
        found = re.search(r"listening on 127\.0\.0\.1:(\d+)", first)
        assert found is not None, f"the server did not start: {first}"
        yield server, int(found.group(1))
    finally:
        if server.poll() is None:
            server.kill()
            server.communicate()


@contextlib.asynccontextmanager
async def connection(port: int) -> AsyncIterator[tuple[asyncio.StreamReader, asyncio.StreamWriter]]:
    """A connection to the server on ``port``, closed on the way out."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        yield reader, writer
    finally:
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()


async def receive_all(reader: asyncio.StreamReader, handle: Callable[[Message], Awaitable[None]]) -> None:
    """Hand every message of the server to ``handle`` until the server hangs up."""
    while True:
        try:
            message = await read_message(reader, accept=FROM_SERVER)
        except (ConnectionClosedError, OSError):
            return
        await handle(message)


def open_fds() -> frozenset[tuple[str, str]]:
    """The process's open descriptors, each with what it points to, once unreachable objects are
    collected.

    Tests check that the descriptors after a game are among those before it (``<=``): a socket the
    game leaked is one that was not there (a reused number points to another inode), while one that
    an earlier test left behind and the collector or its own thread closed in the meantime is no
    failure (CI once counted 27 after against 30 before).
    """
    gc.collect()
    seen = set()
    for name in os.listdir("/proc/self/fd"):
        with contextlib.suppress(OSError):  # the listing's own descriptor is gone by now
            seen.add((name, os.readlink(f"/proc/self/fd/{name}")))
    return frozenset(seen)


def threads() -> list[str]:
    return sorted(t.name for t in threading.enumerate())


def new_threads(before: list[str]) -> list[str]:
    """The threads running now that were not running at ``before`` (:func:`threads`); a thread of an
    earlier test that ended meanwhile is not one."""
    return sorted((Counter(threads()) - Counter(before)).elements())


class RecordingBot:
    """A random bot that records the clock of every request (for the client's depth and time tests)."""

    name = "recording"
    clocks: ClassVar[list[TurnClock]] = []
    #: How many objects the garbage collector kept out of its passes at each request.
    frozen: ClassVar[list[int]] = []

    def __init__(self, game: Any) -> None:
        self.rng = random.Random(0)

    def reset(self, game: Any, seat: int, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, state: Any, clock: TurnClock) -> Decision:
        RecordingBot.clocks.append(clock)
        RecordingBot.frozen.append(gc.get_freeze_count())
        return Decision(state.random_action(self.rng))


def make_recording_bot(game: Any, seed: int | None = None) -> RecordingBot:
    return RecordingBot(game)


RECORDING_ENTRY = BotEntry("net_harness:make_recording_bot", "records the clock of each move")
RECORDING = {"recording": "net_harness:RECORDING_ENTRY"}


class DepthRecorder:
    """The registered ``best`` bot, recording the depth each search reached (decision info)."""

    name = "best-recorded"
    depths: ClassVar[list[int]] = []

    def __init__(self, game: Any) -> None:
        from gridarena.core.registry import make_bot

        self.inner = make_bot(game, "best")

    def warm_up(self, game: Any) -> None:
        self.inner.warm_up(game)

    def reset(self, game: Any, seat: int, seed: int) -> None:
        self.inner.reset(game, seat, seed)

    def act(self, state: Any, clock: TurnClock) -> Decision:
        decision = self.inner.act(state, clock)
        DepthRecorder.depths.append(int(decision.info["depth"]))
        return decision


def make_depth_recorder(game: Any, seed: int | None = None) -> DepthRecorder:
    return DepthRecorder(game)


DEPTH_ENTRY = BotEntry("net_harness:make_depth_recorder", "best, recording the depth of each search")
RECORDING["best-recorded"] = "net_harness:DEPTH_ENTRY"
