"""Peers in another language: a C client (peers/client.c) against our server, and our client against a
scripted C server (peers/server.c) that checks its bytes. Both are compiled with gcc into a temporary
folder; without gcc the tests skip and say so."""

from __future__ import annotations

import asyncio
import socket
import subprocess
from pathlib import Path

import pytest
from net_harness import OTHELLO8, bot_client, c_client, run_games

from gridarena.games.reversixt.net.client import ClientConfig, play
from gridarena.games.reversixt.net.server import ReversiServer, ServerConfig


@pytest.mark.parametrize("opponent", ["c", "python"])
def test_the_c_client_plays_a_whole_othello_game_on_our_server(peers: dict[str, Path], opponent: str) -> None:
    second = c_client(peers["client"], 6) if opponent == "c" else bot_client(seed=5)
    results, (seen,) = asyncio.run(
        run_games(str(OTHELLO8), [c_client(peers["client"], 5), second], time=10.0)
    )
    (game,) = results
    assert game.statuses == ("ok", "ok"), game.reasons
    assert game.groups[0] == 5
    code, out, err = seen[0]
    assert code == 0, err
    # The C client's own board (kept from the announcements) ends with the server's counts.
    expected = f"scores {game.scores[0]} {game.scores[1]}"
    assert out.startswith("player 1 moves ") and out.strip().endswith(expected)
    assert game.moves >= 50  # a real game: the 8x8 start lasts 60 moves unless both must pass


@pytest.mark.parametrize("scenario", ["bombs", "disq"])
def test_our_client_passes_the_scripted_c_server(peers: dict[str, Path], scenario: str) -> None:
    server = subprocess.Popen(
        [str(peers["server"]), scenario, "42"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert server.stdout is not None
        port = int(server.stdout.readline().split()[1])
        result = asyncio.run(play(ClientConfig(port=port, group=42, bot="random", seed=1)))
        out, err = server.communicate(timeout=60)
    finally:
        if server.poll() is None:
            server.kill()
            server.communicate()
    assert server.returncode == 0, err
    assert out.strip() == "OK"
    assert result.finished and result.player == 1 and not result.disqualified
    if scenario == "bombs":
        assert result.moves == 2 and result.scores == (2, 0)  # (2,0) flips one, then two bombs of radius 0
    else:
        assert result.moves == 1 and result.scores == (3, None)


def test_the_c_client_waits_for_a_server_that_is_not_listening_yet(peers: dict[str, Path]) -> None:
    # Issue 32: a script starts the server and the clients together; the C client used to give up at once.
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    client = subprocess.Popen(
        [str(peers["client"]), str(port), "5", "30"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )

    async def late_server() -> list[object]:
        await asyncio.sleep(0.5)  # the C client is refused meanwhile
        assert client.poll() is None, "the C client gave up before the server listened"
        server = ReversiServer(ServerConfig(str(OTHELLO8), port=port, time=10.0))
        await server.start()
        serving = asyncio.create_task(server.run())
        await play(ClientConfig(port=port, seed=5, group=6))
        return list(await serving)

    try:
        (game,) = asyncio.run(asyncio.wait_for(late_server(), 120))
        out, err = client.communicate(timeout=60)
    finally:
        if client.poll() is None:
            client.kill()
            client.communicate()
    assert client.returncode == 0, err
    assert game.statuses == ("ok", "ok") and 5 in game.groups  # type: ignore[attr-defined]
    assert out.startswith("player ") and "scores" in out
