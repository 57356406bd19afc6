"""The server over real sockets on 127.0.0.1: whole games with our client, the time account, the depth
byte, every kind of disqualification with the game going on, connection handling, and no leaks."""

from __future__ import annotations

import asyncio
import re
import socket
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from net_harness import (
    MAP_4P,
    MAP_8P,
    OTHELLO8,
    RawResult,
    Trace,
    bot_client,
    disconnect,
    new_threads,
    open_fds,
    raw_client,
    run_games,
    send_hole,
    send_malformed,
    send_wrong_type,
    sleep_then_answer,
    threads,
    write_map,
)

from gridarena.core.gameclock import TimeSpec
from gridarena.games.reversixt.net.client import ClientResult
from gridarena.games.reversixt.net.protocol import (
    Disqualification,
    EndGame,
    EndPhase1,
    MapData,
    MoveAnnouncement,
    MoveAnswer,
    MoveRequest,
    PlayerNumber,
    encode,
)
from gridarena.games.reversixt.net.server import MAX_WAITING, ReversiServer, ServerConfig, ServerError

DATA_MAPS = {
    "crown-4p": "reversixt/semmelsamu-reversixt-bot/maps/initialMaps/crown.map",
    "comp2023-8p": "reversixt/olekuhlmann-Advanced-Reversi-AI/2023_comp_5_8p.map",
}


def check_finished_game(result_text: str, results: list, clients: list[ClientResult], players: int) -> None:
    """Every client saw END2, agrees with the server's scores, and the result block is well formed."""
    (game,) = results
    assert game.statuses == ("ok",) * players
    server_scores = game.scores
    for client in clients:
        assert client.finished and not client.disqualified
        assert client.scores == server_scores
    lines = result_text.splitlines()
    assert len(lines) == players + 1
    for line in lines[1:]:
        group, score, left, status = line.split("\t")
        assert group.isdigit() and score.isdigit() and left.isdigit() and status == "ok"


@pytest.mark.parametrize(
    ("players", "map_text"), [(2, None), (4, MAP_4P), (8, MAP_8P)], ids=["2p", "4p", "8p"]
)
def test_our_clients_play_a_whole_game(tmp_path: Path, players: int, map_text: str | None) -> None:
    path = str(OTHELLO8) if map_text is None else write_map(tmp_path, map_text, f"{players}p.map")
    clients = [bot_client(seed=k, group=10 + k) for k in range(players)]
    results, (seen,) = asyncio.run(run_games(path, clients))
    check_finished_game(results[0].result_text(), results, seen, players)
    assert results[0].map_name == Path(path).name
    assert results[0].groups == tuple(10 + k for k in range(players))
    assert [c.player for c in seen] == list(range(1, players + 1))  # connection order
    assert sum(c.moves for c in seen) == results[0].moves > 0


@pytest.mark.parametrize("name", sorted(DATA_MAPS))
def test_our_clients_play_data_maps_with_a_time_account(shared_data: Path, name: str) -> None:
    path = str(shared_data / DATA_MAPS[name])
    players = int(Path(path).read_text().split()[0])
    clients = [bot_client(seed=k) for k in range(players)]
    results, (seen,) = asyncio.run(run_games(path, clients, time=10.0))
    check_finished_game(results[0].result_text(), results, seen, players)
    assert all(left > 0 for left in results[0].time_left_ms)


def test_the_time_account_grows_by_the_move_time_and_shrinks_by_the_answer_time() -> None:
    trace = Trace()
    clients = [bot_client(seed=1), bot_client(seed=2)]
    asyncio.run(run_games(str(OTHELLO8), clients, time=2.0, trace=trace))
    requests = re.findall(r"request to player (\d) with depth 1, time left: (\d+) msecs", trace.joined())
    answers = re.findall(
        r"Answer from player (\d) for move \d+ was .*; time left: (\d+) msecs", trace.joined()
    )
    assert len(requests) == len(answers) > 50
    offered: dict[str, list[int]] = {}
    left: dict[str, list[int]] = {}
    for (p, t), (q, u) in zip(requests, answers, strict=True):
        assert p == q and int(u) <= int(t)
        offered.setdefault(p, []).append(int(t))
        left.setdefault(p, []).append(int(u))
    for p in offered:
        assert offered[p][0] == 2000  # the first request offers T, as the reference server's
        for before, after in zip(left[p], offered[p][1:], strict=False):
            assert abs(after - (before + 2000)) <= 1  # the rest carries over, plus T


def test_requests_carry_the_depth_byte_and_time_zero_without_a_limit(tmp_path: Path) -> None:
    for depth in (3, 0):
        clients = [raw_client(disconnect), bot_client()]
        _, (seen,) = asyncio.run(run_games(str(OTHELLO8), clients, depth=depth))
        request = next(m for m in seen[0].messages if isinstance(m, MoveRequest))
        assert request == MoveRequest(0, depth)


def test_the_handshake_sends_the_map_bytes_verbatim_then_the_player_number(tmp_path: Path) -> None:
    text = MAP_4P.replace("\n", " \r\n")  # trailing blanks and CRLF: sent as they are
    path = write_map(tmp_path, text, "crlf.map")
    clients = [raw_client(disconnect), *(bot_client(seed=k) for k in range(3))]
    _, (seen,) = asyncio.run(run_games(path, clients))
    assert seen[0].messages[:2] == [MapData(text.encode()), PlayerNumber(1)]


BAD_CLIENTS = {
    "malformed frame": (send_malformed, "protocol-error", {}),
    "wrong message type": (send_wrong_type, "protocol-error", {}),
    "invalid move": (send_hole, "invalid-move", {}),
    "disconnects": (disconnect, "disconnected", {}),
    # The grace keeps the good clients' first moves safe on a loaded machine; 1.5 s is far past 0.8 s.
    "sleeps past its time": (sleep_then_answer(1.5), "timeout", {"time": 0.3, "grace": 0.5}),
}


@pytest.mark.parametrize("case", sorted(BAD_CLIENTS))
def test_a_bad_client_is_disqualified_and_the_game_goes_on(tmp_path: Path, case: str) -> None:
    behaviour, status, config = BAD_CLIENTS[case]
    path = write_map(tmp_path, MAP_4P, "4p.map")
    trace = Trace()
    clients = [raw_client(behaviour), *(bot_client(seed=k) for k in range(3))]
    results, (seen,) = asyncio.run(run_games(path, clients, trace=trace, **config))
    game = results[0]
    assert game.statuses == (status, "ok", "ok", "ok")
    assert game.scores[0] == 0
    bad: RawResult = seen[0]
    if status != "disconnected":  # message 7 reaches the offender too, then his connection is closed
        assert bad.messages[-1] == Disqualification(1) and bad.closed_by_server
    assert not any(isinstance(m, MoveAnnouncement) and m.player == 1 for m in bad.messages)
    for client in seen[1:]:
        assert client.finished and client.scores[0] is None and None not in client.scores[1:]
    # The game went on: the others moved after the disqualification, through phase 1 and the bombs.
    text = trace.joined()
    after = text[text.index("Player 1 disqualified") :]
    assert "Answer from player 2" in after and "Terminal state reached." in after
    assert game.moves > 10


def test_a_message_sent_unasked_disqualifies_its_sender(tmp_path: Path) -> None:
    path = write_map(tmp_path, MAP_4P, "4p.map")
    early = encode(MoveAnswer(1, 1, 0))
    clients = [
        bot_client(seed=1),
        raw_client(disconnect, after_group=early),
        bot_client(seed=3),
        bot_client(seed=4),
    ]
    results, (seen,) = asyncio.run(run_games(path, clients))
    assert results[0].statuses == ("ok", "protocol-error", "ok", "ok")
    assert "message type 5 sent unasked" in results[0].reasons[1]
    assert Disqualification(2) in seen[1].messages and seen[1].closed_by_server


def test_two_players_one_disqualified_ends_the_game_without_end1() -> None:
    clients = [raw_client(send_hole), bot_client()]
    results, (seen,) = asyncio.run(run_games(str(OTHELLO8), clients))
    assert results[0].statuses == ("invalid-move", "ok")
    assert seen[1].finished and seen[1].scores == (None, 2)
    assert results[0].moves == 0


def test_a_connection_that_sends_no_group_is_refused_and_the_next_one_becomes_client_1() -> None:
    async def scenario() -> tuple[list, bytes]:
        trace = Trace()
        server = ReversiServer(ServerConfig(str(OTHELLO8), port=0), trace=trace)
        port = await server.start()
        serving = asyncio.create_task(server.run())
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(encode(MoveAnswer(0, 0, 0)))  # not a group message
        junk_seen = await asyncio.wait_for(reader.read(), 30)
        writer.close()
        clients = [asyncio.create_task(bot_client(seed=k)(port)) for k in range(2)]
        seen = await asyncio.wait_for(asyncio.gather(*clients), 60)
        await asyncio.wait_for(serving, 60)
        return seen, junk_seen

    seen, junk_seen = asyncio.run(scenario())
    assert junk_seen == b""  # closed without a word
    assert sorted(c.player for c in seen) == [1, 2] and all(c.finished for c in seen)


def test_wait_gives_up_with_a_clear_error_and_closes_what_it_opened() -> None:
    async def scenario() -> None:
        server = ReversiServer(ServerConfig(str(OTHELLO8), port=0, wait=0.3))
        port = await server.start()
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(bytes.fromhex("01 00000001 07"))
        with pytest.raises(ServerError, match=r"game 1: only 1 of 2 clients connected within 0\.3 s"):
            await server.run()
        assert await asyncio.wait_for(reader.read(), 30) == b""  # the waiting client was let go
        writer.close()
        await writer.wait_closed()

    fds = open_fds()
    asyncio.run(scenario())
    assert open_fds() <= fds


def test_a_busy_port_moves_to_the_next_free_one() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        taken = busy.getsockname()[1]

        async def scenario() -> int:
            server = ReversiServer(ServerConfig(str(OTHELLO8), port=taken))
            port = await server.start()
            await server.close()
            return port

        assert asyncio.run(scenario()) > taken


def test_config_values_out_of_range_are_refused() -> None:
    for kwargs, message in [
        ({"time": -1.0}, "--time"),
        ({"depth": 256}, "depth byte"),
        ({"games": 0}, "--games"),
        ({"port": 70000}, "not a TCP port"),
    ]:
        with pytest.raises(ServerError, match=message):
            ServerConfig(str(OTHELLO8), **kwargs)


def test_fifty_eight_player_games_leave_no_task_thread_or_socket_behind(tmp_path: Path) -> None:
    path = write_map(tmp_path, MAP_8P, "8p.map")
    games = 50

    async def scenario() -> tuple[list, list, int]:
        results, per_game = await run_games(path, [bot_client(seed=k) for k in range(8)], games=games)
        await asyncio.sleep(0)
        leftover = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        return results, per_game, len(leftover)

    fds, before = open_fds(), threads()
    results, per_game, tasks_left = asyncio.run(scenario())
    assert tasks_left == 0
    assert new_threads(before) == []
    assert open_fds() <= fds
    assert len(results) == games and [r.number for r in results] == list(range(1, games + 1))
    assert all(game.statuses == ("ok",) * 8 for game in results)
    assert all(c.finished for seen in per_game for c in seen)
    # Both phases were played in every game (one bomb each).
    assert all(game.moves > 8 for game in results)


def test_end_messages_come_in_order(tmp_path: Path) -> None:
    """A listener that answers legally sees END1 after the last phase-1 move and END2 last."""
    path = write_map(tmp_path, MAP_4P, "4p.map")
    captured: list[list] = []

    async def scenario() -> None:
        from gridarena.games.reversixt.net.client import ClientConfig, _Session

        class Recording(_Session):
            async def receive(self, *expected):  # type: ignore[no-untyped-def]
                message = await super().receive(*expected)
                captured[-1].append(message)
                return message

        async def recording_client(port: int) -> ClientResult:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            captured.append([])
            try:
                return await Recording(ClientConfig(port=port), reader, writer).play()
            finally:
                writer.close()
                await writer.wait_closed()

        await run_games(path, [recording_client, *(bot_client(seed=k) for k in range(3))])

    asyncio.run(scenario())
    (messages,) = captured
    kinds = [type(m) for m in messages]
    assert kinds[:2] == [MapData, PlayerNumber] and kinds[-1] is EndGame
    assert kinds.count(EndPhase1) == 1 and kinds.count(EndGame) == 1
    end1 = kinds.index(EndPhase1)
    bombs = [m for m in messages[end1:] if isinstance(m, MoveAnnouncement)]
    assert len(bombs) == 4  # one bomb each, radius 1
    assert all(m.special == 0 for m in bombs)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.one_of(
        st.binary(max_size=12),
        st.builds(
            lambda x, y, s: encode(MoveAnswer(x, y, s)),
            st.integers(0, 9),
            st.integers(0, 9),
            st.integers(0, 255),
        ),
    )
)
def test_any_bytes_as_an_answer_end_in_a_verdict_never_a_crash_or_a_hang(answer: bytes) -> None:
    async def send(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, _: MoveRequest) -> None:
        writer.write(answer)
        writer.write_eof()  # nothing more comes: a partial frame is a broken connection, not a wait
        await writer.drain()

    results, (seen,) = asyncio.run(run_games(str(OTHELLO8), [raw_client(send), bot_client()]))
    status = results[0].statuses[0]
    assert status in ("protocol-error", "invalid-move", "disconnected")  # after a legal move: EOF
    assert results[0].statuses[1] == "ok" and seen[1].finished
    assert seen[0].messages[-1] == Disqualification(1)


def test_a_time_control_in_the_arenas_words_offers_what_it_allows_each_move() -> None:
    """``--time-control 0.5``: half a second per move, nothing carried over (``--time`` is the account)."""
    trace = Trace()
    control = TimeSpec.parse("0.5")
    asyncio.run(
        run_games(str(OTHELLO8), [bot_client(seed=1), bot_client(seed=2)], trace=trace, time_control=control)
    )
    offered = re.findall(r"with depth 1, time left: (\d+) msecs", trace.joined())
    assert len(offered) > 50 and set(offered) == {"500"}
    with pytest.raises(ServerError, match="say the same thing twice"):
        ServerConfig(str(OTHELLO8), time=2.0, time_control=TimeSpec.parse("account:2"))


@pytest.mark.timing
def test_each_silent_connection_is_let_go_at_its_own_deadline_and_the_waiting_room_is_bounded() -> None:
    async def closed_after(reader: asyncio.StreamReader, start: float) -> float:
        assert await asyncio.wait_for(reader.read(), 10) == b""  # closed without a word
        return time.monotonic() - start

    async def scenario() -> tuple[list[float], int]:
        server = ReversiServer(ServerConfig(str(OTHELLO8), port=0, handshake=1.0))
        port = await server.start()
        serving = asyncio.create_task(server.run())
        start = time.monotonic()
        silent = [await asyncio.open_connection("127.0.0.1", port) for _ in range(MAX_WAITING + 5)]
        waited = await asyncio.gather(*(closed_after(reader, start) for reader, _ in silent))
        for _, writer in silent:
            writer.close()
        clients = [asyncio.create_task(bot_client(seed=k)(port)) for k in range(2)]
        await asyncio.wait_for(asyncio.gather(*clients), 60)
        (result,) = await asyncio.wait_for(serving, 60)
        return waited, len(result.groups)

    fds = open_fds()
    waited, players = asyncio.run(scenario())
    assert players == 2 and open_fds() <= fds
    # The first 64 waited for their own deadline (1 s); the five beyond them found the room full.
    assert all(w >= 0.95 for w in waited[:MAX_WAITING]) and all(w < 0.9 for w in waited[MAX_WAITING:])
