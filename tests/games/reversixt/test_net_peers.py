"""Peers in another language: a C client (peers/client.c) against our server, and our client against a
scripted C server (peers/server.c) that checks its bytes. Both are compiled with gcc into a temporary
folder; without gcc the tests skip and say so."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path

import pytest
from net_harness import OTHELLO8, bot_client, c_client, run_games

from gridarena.games.reversixt.net.client import ClientConfig, play


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
