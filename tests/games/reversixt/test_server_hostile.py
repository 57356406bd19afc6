"""A hostile client against our server (issue 23): every frame type and length, huge declared lengths, truncated
frames and frames at the wrong stage, sent at every stage of a game (instead of the group number, right after
it, after the map, as the answer to a request, after being disqualified, after the end).

For each, the server reads no payload longer than a client frame's (5 bytes) whatever the header declares,
never waits past its deadlines, disqualifies the offender with the reason (or, before the group number, lets
the connection go), finishes the game for the two other players, and leaves no thread or socket behind."""

from __future__ import annotations

import asyncio
import contextlib
import re
from pathlib import Path
from typing import Any

import pytest
from net_harness import Trace, bot_client, connection, new_threads, open_fds, receive_all, threads, write_map
from test_server_replay import MAP_3P

from gridarena.games.reversixt.formats import decode_map, parse_map
from gridarena.games.reversixt.net.connection import READ_LIMIT
from gridarena.games.reversixt.net.protocol import (
    MAX_CLIENT_PAYLOAD,
    Disqualification,
    EndGame,
    EndPhase1,
    Group,
    MapData,
    MoveAnnouncement,
    MoveAnswer,
    MoveRequest,
    PlayerNumber,
    encode,
)
from gridarena.games.reversixt.net.server import ReversiServer, ServedGame, ServerConfig
from gridarena.games.reversixt.rules import ReversiState, ReversiXT, wire_move

FRAME_TIMEOUT = 0.3  # the server's, for truncated frames (10 s by default)


def header(kind: int, length: int) -> bytes:
    return bytes([kind]) + length.to_bytes(4, "big")


#: Every type and length a client can send: what to send, and what the server makes of it when unasked.
FRAMES: dict[str, tuple[bytes, str, str]] = {
    "group": (encode(Group(9)), "protocol-error", "message type 1 sent unasked"),
    "answer": (encode(MoveAnswer(0, 0, 0)), "protocol-error", "message type 5 sent unasked"),
    "type 0": (header(0, 0), "protocol-error", r"unexpected message type 0, expected \[1, 5\]"),
    "map": (encode(MapData(b"2 0 0 0 1 1 0")), "protocol-error", r"unexpected message type 2 \(map\)"),
    "player": (encode(PlayerNumber(1)), "protocol-error", "unexpected message type 3"),
    "request": (encode(MoveRequest(0, 0)), "protocol-error", "unexpected message type 4"),
    "announcement": (encode(MoveAnnouncement(0, 0, 0, 1)), "protocol-error", "unexpected message type 6"),
    "disqualification": (encode(Disqualification(1)), "protocol-error", "unexpected message type 7"),
    "end1": (encode(EndPhase1()), "protocol-error", "unexpected message type 8"),
    "end2": (encode(EndGame()), "protocol-error", "unexpected message type 9"),
    "type 10": (header(10, 0), "protocol-error", "unexpected message type 10"),
    "type 255": (header(255, 1) + b"\0", "protocol-error", "unexpected message type 255"),
    "group, 2 bytes": (header(1, 2) + b"\0\0", "protocol-error", "length 2, expected 1"),
    "answer, 0 bytes": (header(5, 0), "protocol-error", "length 0, expected 5"),
    "answer, 4 bytes": (header(5, 4) + bytes(4), "protocol-error", "length 4, expected 5"),
    "answer, 6 bytes": (header(5, 6) + bytes(6), "protocol-error", "length 6, expected 5"),
    "answer, 4 GiB": (header(5, 0xFFFF_FFFF), "protocol-error", "length 4294967295, expected 5"),
    "map, 4 GiB": (header(2, 0xFFFF_FFFF), "protocol-error", r"unexpected message type 2 \(map\)"),
    "truncated answer": (header(5, 5) + b"\0\0", "protocol-error", "not complete within"),
    "half a header": (header(5, 5)[:3], "protocol-error", "not complete within"),
    "cut answer": (header(5, 5) + b"\0\0", "disconnected", "connection closed after 2 of 5 payload bytes"),
}
CUT = {"cut answer"}  # the client closes its side right after these bytes; the others stay open

STAGES = (
    "before group",
    "after group",
    "after map",
    "as the answer",
    "after disqualification",
    "after the end",
)


def expected(stage: str, frame: str) -> tuple[str, str]:
    """(status, reason pattern) of the hostile client in the server's result."""
    _, status, reason = FRAMES[frame]
    if stage == "after disqualification":
        return "invalid-move", "Sorry, this move was invalid"
    if stage == "after the end":
        return "ok", ""
    if stage == "as the answer" and frame == "group":
        return "protocol-error", r"expected a move answer \(type 5\), got type 1"
    if stage == "as the answer" and frame == "answer":
        return "invalid-move", "Sorry, this move was invalid"
    return status, reason


class Hostile:
    """A client that plays legal moves and sends ``frame`` at ``stage`` (then reads until the server hangs up)."""

    def __init__(self, stage: str, frame: str) -> None:
        self.stage, self.frame = stage, frame
        self.messages: list[Any] = []
        self.closed_by_server = False
        self.sent = False
        self.state: ReversiState | None = None

    async def __call__(self, port: int) -> Hostile:
        async with connection(port) as (reader, writer):
            if self.stage == "before group":
                await self.send(writer)
            else:
                writer.write(encode(Group(9)))
                if self.stage == "after group":
                    await self.send(writer)
            await receive_all(reader, lambda message: self.react(message, writer))
            self.closed_by_server = True
        return self

    async def send(self, writer: asyncio.StreamWriter) -> None:
        self.sent = True  # from now on it only listens
        with contextlib.suppress(OSError):
            writer.write(FRAMES[self.frame][0])
            if self.frame in CUT:
                writer.write_eof()
            await writer.drain()

    async def react(self, message: Any, writer: asyncio.StreamWriter) -> None:
        self.messages.append(message)
        stage = self.stage
        if isinstance(message, MapData):
            self.state = ReversiXT.from_map(
                parse_map(decode_map(message.data, "wire"), "wire")
            ).new_initial_state()
        elif isinstance(message, MoveAnnouncement):
            assert self.state is not None and self.state.mover == message.player
            self.state = self.state.apply_action(wire_move(self.state, message.x, message.y, message.special))
        elif isinstance(message, Disqualification):
            assert self.state is not None
            self.state = self.state.forfeit(message.player - 1, "protocol", "disqualified")
            if stage == "after disqualification" and message.player == 3:
                await self.send(writer)
        elif (isinstance(message, PlayerNumber) and stage == "after map") or (
            isinstance(message, EndGame) and stage == "after the end"
        ):
            await self.send(writer)
        elif isinstance(message, MoveRequest):
            await self.answer(writer)

    async def answer(self, writer: asyncio.StreamWriter) -> None:
        if self.sent:
            return
        if self.stage == "as the answer":
            await self.send(writer)
        elif self.stage == "after disqualification":
            writer.write(encode(MoveAnswer(0, 0, 0)))  # an empty corner that captures nothing: invalid
        else:
            assert self.state is not None
            move = self.state.legal_actions()[0]
            writer.write(encode(MoveAnswer(move.x, move.y, move.special)))


async def one_game(path: str, stage: str, frame: str) -> tuple[ServedGame, Hostile, list[Any]]:
    """Two of our clients take seats 1 and 2, then the hostile one comes (a third of ours after it, where the
    hostile one never gets a seat)."""
    trace = Trace()
    config = ServerConfig(path, port=0, handshake=5.0, frame_timeout=FRAME_TIMEOUT)
    server = ReversiServer(config, trace=trace)
    port = await server.start()
    serving = asyncio.create_task(server.run())
    hostile = Hostile(stage, frame)
    async with asyncio.timeout(30):  # far beyond every deadline of the server's
        good = [asyncio.create_task(bot_client(seed=k, group=k)(port)) for k in (1, 2)]
        while trace.groups_read(1) < 2:
            await asyncio.sleep(0.002)
        bad = asyncio.create_task(hostile(port))
        if stage == "before group":
            good.append(asyncio.create_task(bot_client(seed=3, group=3)(port)))
        seen = await asyncio.gather(*good)
        await bad
        (result,) = await serving
    return result, hostile, seen


@pytest.mark.parametrize("stage", STAGES)
def test_a_hostile_client_at_every_stage_with_every_frame(
    stage: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_map(tmp_path, MAP_3P, "3p.map")
    largest = [0]
    readexactly = asyncio.StreamReader.readexactly

    async def measured(reader: asyncio.StreamReader, n: int) -> bytes:
        if reader._limit == READ_LIMIT:  # type: ignore[attr-defined]  # the server's readers, not our clients'
            largest[0] = max(largest[0], n)
        return await readexactly(reader, n)

    monkeypatch.setattr(asyncio.StreamReader, "readexactly", measured)
    frames = [f for f in FRAMES if not (stage == "before group" and f == "group")]
    fds, before = open_fds(), threads()
    for frame in frames:
        result, hostile, seen = asyncio.run(one_game(path, stage, frame))
        case = f"{stage}, {frame}"
        assert hostile.closed_by_server or frame in CUT, case
        if stage == "before group":  # refused without a word; three of ours played
            assert hostile.messages == [] and 9 not in result.groups, case
            assert result.statuses == ("ok",) * 3, case
        else:
            status, reason = expected(stage, frame)
            seat = result.groups.index(9)
            assert result.statuses[seat] == status, (case, result.reasons[seat])
            assert re.search(reason, result.reasons[seat]), (case, result.reasons[seat])
            if status != "ok":
                assert Disqualification(seat + 1) in hostile.messages or frame in CUT, case
        for client in seen:  # the game went on to its end for the others
            assert client.finished and not client.disqualified, case
            assert tuple(0 if s is None else s for s in client.scores) == result.scores, case
    assert largest[0] <= MAX_CLIENT_PAYLOAD
    assert new_threads(before) == []
    assert open_fds() <= fds
