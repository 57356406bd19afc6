"""Our client against scripted servers: its state comes from announcements only, it honours the time
account and the depth byte, and it refuses (one clear error) a server whose moves its rules cannot follow."""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from net_harness import OTHELLO8, RECORDING, RecordingBot

from gridarena.games.reversixt.net import client
from gridarena.games.reversixt.net.client import ClientConfig, ClientError, ClientResult, play, safety_margin
from gridarena.games.reversixt.net.protocol import (
    HEADER,
    MAX_MAP_BYTES,
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
    encode,
    read_message,
)

MAP = OTHELLO8.read_bytes()
#: The four legal first moves of player 1 on the 8x8 start.
OPENINGS = {(3, 2), (2, 3), (5, 4), (4, 5)}

Step = Message | bytes | str  # a message or raw bytes to send; "answer" awaits a move answer; "close"


def run_script(
    script: list[Step], config: ClientConfig | None = None
) -> tuple[ClientResult, list[MoveAnswer]]:
    """Serve ``script`` to one client; returns the client's result and the answers it sent."""
    answers: list[MoveAnswer] = []

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            assert isinstance(await read_message(reader), Group)
            for step in script:
                if step == "answer":
                    message = await read_message(reader, accept=frozenset({MessageType.MOVE_ANSWER}))
                    assert isinstance(message, MoveAnswer)
                    answers.append(message)
                elif step == "close":
                    return
                else:
                    writer.write(step if isinstance(step, bytes) else encode(step))  # type: ignore[arg-type]
                    await writer.drain()
            await reader.read()  # until the client closes
        finally:
            writer.close()

    async def scenario() -> ClientResult:
        server = await asyncio.start_server(handle, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        try:
            base = config or ClientConfig()
            cfg = ClientConfig(**{**{f: getattr(base, f) for f in base.__slots__}, "port": port})  # type: ignore[attr-defined]
            return await asyncio.wait_for(play(cfg), 60)
        finally:
            server.close()
            await server.wait_closed()

    return asyncio.run(scenario()), answers


HANDSHAKE: list[Step] = [MapData(MAP), PlayerNumber(1)]


def test_the_client_answers_requests_and_follows_announcements() -> None:
    script: list[Step] = [
        *HANDSHAKE,
        MoveRequest(0, 0),
        "answer",
        MoveAnnouncement(3, 2, 0, 1),  # the announcement, not our answer, is what we apply
        MoveAnnouncement(2, 2, 0, 2),
        Disqualification(2),
        EndGame(),
    ]
    result, answers = run_script(script)
    assert (answers[0].x, answers[0].y, answers[0].special) in {(x, y, 0) for x, y in OPENINGS}
    assert result.finished and not result.disqualified and result.moves == 1
    assert result.scores == (3, None)  # (3,2) flips (3,3); (2,2) flips (3,3) back; then 2 is out


def test_the_depth_byte_and_the_account_reach_the_bot() -> None:
    RecordingBot.clocks.clear()
    script: list[Step] = [
        *HANDSHAKE,
        MoveRequest(2000, 3),
        "answer",
        MoveAnnouncement(3, 2, 0, 1),
        MoveAnnouncement(2, 2, 0, 2),
        MoveRequest(0, 0),
        "answer",
        EndGame(),
    ]
    start = time.perf_counter()
    run_script(script, ClientConfig(bot="recording", extra_bots=RECORDING, fallback_time=0.7))
    timed, fallback = RecordingBot.clocks
    assert timed.depth == 3 and timed.limit == 2.0
    assert timed.deadline is not None and timed.deadline - start <= 2.0 - safety_margin(2.0) + 1.0
    assert timed.time_left() < 2.0 - safety_margin(2.0)
    assert fallback.depth is None and fallback.limit == 0.7  # neither time nor depth: our own budget


def test_the_client_moves_with_what_it_built_before_the_game_frozen() -> None:
    # core/collector.py: a full pass of the garbage collector over the imports costs 20-45 ms.
    RecordingBot.frozen.clear()
    gc.unfreeze()
    script: list[Step] = [*HANDSHAKE, MoveRequest(2000, 0), "answer", EndGame()]
    try:
        run_script(script, ClientConfig(bot="recording", extra_bots=RECORDING))
        assert RecordingBot.frozen and RecordingBot.frozen[0] > 1000
    finally:
        gc.unfreeze()


def test_the_safety_margin_leaves_room_on_short_accounts() -> None:
    for seconds in (0.05, 0.3, 2.0, 30.0):
        margin = safety_margin(seconds)
        assert 0 < margin <= seconds / 2
    assert safety_margin(2.0) == 0.25


def test_skipped_players_are_invisible_and_phase_two_follows_end1(tmp_path: Path) -> None:
    # One row "1 2 0 0", one bomb each of radius 0: we play (2,0); player 2 has no stone left, so
    # phase 1 ends; player 2 bombs first (after L = 1), then we are asked for our bomb.
    script: list[Step] = [
        MapData(b"2\n0\n1 0\n1 4\n1 2 0 0\n"),
        PlayerNumber(1),
        MoveRequest(0, 1),
        "answer",
        MoveAnnouncement(2, 0, 0, 1),
        EndPhase1(),
        MoveAnnouncement(3, 0, 0, 2),
        MoveRequest(0, 1),
        "answer",
        MoveAnnouncement(0, 0, 0, 1),
        EndGame(),
    ]
    result, answers = run_script(script)
    assert answers[0] == MoveAnswer(2, 0, 0)
    assert answers[1].y == 0 and answers[1].x <= 2 and answers[1].special == 0
    assert result.finished and result.scores == (2, 0)


@pytest.mark.parametrize(
    ("script", "message"),
    [
        (
            [*HANDSHAKE, MoveAnnouncement(0, 0, 0, 1)],
            r"announces \(0,0,0\) for player 1, which our rules refuse",
        ),
        (
            [*HANDSHAKE, MoveAnnouncement(3, 2, 0, 2)],
            "announces a move of player 2, but our state says player 1",
        ),
        (
            [MapData(MAP), PlayerNumber(2), MoveRequest(0, 0)],
            r"asks us \(player 2\) to move, but our state says player 1",
        ),
        ([MapData(MAP), PlayerNumber(3)], "player number 3 on a 2-player map"),
        ([*HANDSHAKE, EndPhase1()], "END1 arrived while our rules say phase 1 goes on"),
        ([*HANDSHAKE, "close"], "closed the connection before the game's end"),
        (
            [*HANDSHAKE, bytes.fromhex("06 00000002 0000")],
            "broke the protocol: message type 6 .*length 2, expected 6",
        ),
        ([*HANDSHAKE, bytes.fromhex("0C 00000000")], "broke the protocol: unexpected message type 12"),
        ([PlayerNumber(1)], r"broke the protocol: unexpected message type 3 \(player\)"),
        (
            [MapData(b"2\n0\n0 0\n1 1\n7\n")],
            "map cannot be read: <map message>:5:1: .*player 7 on a 2-player map",
        ),
    ],
    ids=[
        "illegal",
        "wrong mover",
        "not our turn",
        "player number",
        "early END1",
        "closed",
        "length",
        "type",
        "no map",
        "bad map",
    ],
)
def test_a_server_we_cannot_follow_is_one_clear_error(script: list[Step], message: str) -> None:
    with pytest.raises(ClientError, match=message):
        run_script(script)


def test_being_disqualified_ends_the_client_without_an_error_from_play() -> None:
    result, _ = run_script([*HANDSHAKE, MoveRequest(0, 0), "answer", Disqualification(1), "close"])
    assert result.disqualified and not result.finished and result.scores[0] is None


def test_wait_retries_a_refused_connection_until_the_server_is_up() -> None:
    from gridarena.games.reversixt.net.server import ReversiServer, ServerConfig

    async def scenario() -> list[ClientResult]:
        probe = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
        port = probe.sockets[0].getsockname()[1]
        probe.close()
        await probe.wait_closed()
        clients = [asyncio.create_task(play(ClientConfig(port=port, seed=s, wait=60))) for s in (1, 2)]
        await asyncio.sleep(0.3)  # both are being refused now
        assert not any(c.done() for c in clients)
        server = ReversiServer(ServerConfig(str(OTHELLO8), port=port))
        await asyncio.wait_for(server.run(), 60)
        return list(await asyncio.gather(*clients))

    assert all(r.finished for r in asyncio.run(scenario()))


def test_registered_search_bots_play_through_the_client_within_the_depth_byte(search_kernels: None) -> None:
    from net_harness import DepthRecorder, run_games

    from gridarena.games.reversixt.net.client import ClientConfig as Config

    def factory(bot: str) -> Callable[[int], Awaitable[ClientResult]]:
        return lambda port: play(Config(port=port, bot=bot, extra_bots=RECORDING))

    DepthRecorder.depths.clear()
    results, (seen,) = asyncio.run(
        run_games(str(OTHELLO8), [factory("best-recorded"), factory("trivial")], depth=2)
    )
    assert results[0].statuses == ("ok", "ok") and all(c.finished for c in seen)
    assert DepthRecorder.depths and max(DepthRecorder.depths) == 2  # the depth byte, honoured


def test_a_frame_announced_but_never_sent_ends_the_client_at_its_deadline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 31: a server that announces a 60 MB map and sends 4 bytes held the client for ever."""
    monkeypatch.setattr(client, "FRAME_TIMEOUT", 0.5, raising=False)  # raising: main has none
    monkeypatch.setattr(client, "FRAME_RATE", 60e6, raising=False)  # 60 MB: one more second
    started = time.monotonic()
    with pytest.raises(ClientError, match=r"a frame begun was not complete within 1\.5 s"):
        run_script([HEADER.pack(MessageType.MAP, 60_000_000) + b"2\n0\n"])
    assert time.monotonic() - started < 10


def test_the_frame_deadline_grows_with_the_frame_and_is_finite_for_the_largest_map() -> None:
    assert client.FRAME_TIMEOUT + MAX_MAP_BYTES / client.FRAME_RATE == 74.0
    assert client.FRAME_TIMEOUT > 0 and client.FRAME_RATE > 0


def test_a_map_message_with_a_5000_digit_number_is_a_clear_error() -> None:
    """int() of 4,301 digits raised a ValueError out of the client (issue 31): the length is checked first."""
    with pytest.raises(ClientError, match=r"the server's map cannot be read: .*a number of 5000 digits"):
        run_script([MapData(b"2\n0\n" + b"9" * 5000 + b" 0\n2 2\n1 2\n2 1\n"), PlayerNumber(1)])
