"""The server's limits against careless and hostile clients (issue 23, items 3 and 9): a client that streams
frames unasked is disqualified as its first frame is read, and the server reads nothing more from it; silent
connections do not delay the clients that speak, each waits under its own deadline."""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path

import pytest
from net_harness import MAP_4P, OTHELLO8, bot_client, connection, receive_all, run_games, write_map

from gridarena.games.reversixt.net import protocol
from gridarena.games.reversixt.net.protocol import (
    FROM_SERVER,
    Disqualification,
    Group,
    Message,
    MoveAnswer,
    MoveRequest,
    PlayerNumber,
    encode,
    read_message,
)

SPAM_SECONDS = 1.5


class Spammer:
    """Player 2: once it has its number, streams move answers nobody asked for, as fast as the socket takes them."""

    def __init__(self) -> None:
        self.sent = 0
        self.disqualified_at: float | None = None
        self.closed_by_server = False

    async def __call__(self, port: int) -> Spammer:
        async with connection(port) as (reader, writer):
            writer.write(encode(Group(2)))
            while not isinstance(await read_message(reader, accept=FROM_SERVER), PlayerNumber):
                pass
            listening = asyncio.create_task(receive_all(reader, self.note))
            batch = encode(MoveAnswer(1, 1, 0)) * 1000
            deadline = time.monotonic() + SPAM_SECONDS
            with contextlib.suppress(OSError, TimeoutError):
                while time.monotonic() < deadline and not listening.done():
                    writer.write(batch)
                    await asyncio.wait_for(writer.drain(), max(0.01, deadline - time.monotonic()))
                    self.sent += 1000
            await asyncio.wait_for(listening, 60)
            self.closed_by_server = True
        return self

    async def note(self, message: Message) -> None:
        if message == Disqualification(2) and self.disqualified_at is None:
            self.disqualified_at = time.monotonic()


class SlowMover:
    """Player 1: answers its first request after a long think (an invalid move: it does not matter here)."""

    def __init__(self, think: float) -> None:
        self.think = think
        self.answered_at: float | None = None

    async def __call__(self, port: int) -> SlowMover:
        async with connection(port) as (reader, writer):
            writer.write(encode(Group(1)))

            async def answer_late(message: Message) -> None:
                if isinstance(message, MoveRequest) and self.answered_at is None:
                    await asyncio.sleep(self.think)
                    self.answered_at = time.monotonic()
                    writer.write(encode(MoveAnswer(0, 0, 0)))
                    with contextlib.suppress(OSError):
                        await writer.drain()

            await receive_all(reader, answer_late)
        return self


def test_a_client_streaming_unasked_frames_is_disqualified_at_once_and_read_no_further(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    decoded = {"answers": 0}
    decode = protocol.decode

    def counting(kind: int, payload: bytes) -> protocol.Message:
        decoded["answers"] += kind == protocol.MessageType.MOVE_ANSWER  # only the server reads type 5
        return decode(kind, payload)

    monkeypatch.setattr(protocol, "decode", counting)
    spammer, slow = Spammer(), SlowMover(think=SPAM_SECONDS + 1.0)
    path = write_map(tmp_path, MAP_4P, "4p.map")
    _, (seen,) = asyncio.run(run_games(path, [slow, spammer, bot_client(seed=3), bot_client(seed=4)]))
    assert seen[1] is spammer and spammer.sent >= 1000
    # Disqualified while player 1 was still thinking, not at the next turn; then the server hung up.
    assert spammer.disqualified_at is not None and slow.answered_at is not None
    assert spammer.disqualified_at < slow.answered_at
    assert spammer.closed_by_server
    # The server decoded the first unasked frame and no more: the legal answers of a short game, a few
    # dozen, plus one (a server that kept reading would have decoded every one of the frames sent).
    assert decoded["answers"] < 200 < spammer.sent


async def _silent(port: int, seconds: float) -> None:
    """A connection that never says a word, held open for ``seconds``."""
    async with connection(port):
        await asyncio.sleep(seconds)


def test_silent_and_reconnecting_connections_do_not_delay_the_game() -> None:
    async def scenario() -> float:
        silent: list[asyncio.Task[None]] = []

        async def reconnecting(port: int) -> None:
            while True:  # connects, says nothing, leaves, comes back: until the test ends
                await _silent(port, 0.05)

        async def first_silent(port: int) -> object:
            # Two silent sockets and a reconnecting client come before the real players.
            silent.extend(asyncio.create_task(_silent(port, 40.0)) for _ in range(2))
            silent.append(asyncio.create_task(reconnecting(port)))
            await asyncio.sleep(0.2)
            return await bot_client(seed=1, group=1)(port)

        start = time.monotonic()
        try:
            async with asyncio.timeout(20):
                await run_games(str(OTHELLO8), [first_silent, bot_client(seed=2, group=2)])
        finally:
            for task in silent:
                task.cancel()
            await asyncio.gather(*silent, return_exceptions=True)
        return time.monotonic() - start

    # Each silent socket has 30 s to send its group; read one after another, they held the game 60 s.
    assert asyncio.run(scenario()) < 20
