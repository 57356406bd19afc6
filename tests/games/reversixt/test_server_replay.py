"""Games on our server are games like any other (issue 24): `gridarena reversixt server` with two of our clients
and the C client writes the standard replay, which `gridarena replay --check` accepts, stores the game as the
arena stores a tournament's (`gridarena results`, `gridarena serve` show it), and its console trace still
verifies; a game with a disqualification in the middle replays too."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from net_harness import (
    GRIDARENA,
    MAP_4P,
    ClientFactory,
    bot_client,
    c_client,
    raw_client,
    send_hole,
    server_process,
    write_map,
)

from gridarena.arena.replay import read_replay, replay_game, replay_start, replay_turn
from gridarena.cli.main import main
from gridarena.cli.replay import check_replay
from gridarena.games.reversixt.formats import SYMBOLS
from gridarena.web.frames import view_of

#: Three players, no overrides (the C client makes none), one bomb each: both phases.
MAP_3P = """3
0
1 1
6 6
0 0 0 0 0 0
0 1 2 3 0 0
0 2 3 1 0 0
0 3 1 2 0 0
0 0 0 0 0 0
0 0 0 0 0 0
"""


def serve_and_play(argv: list[str], clients: list[ClientFactory], cwd: Path) -> tuple[list[Any], str]:
    """Run `gridarena reversixt server ARGV` as a process, play ``clients`` against it; (their results, stderr)."""
    with server_process(["--quiet", "--wait", "120", *argv], cwd) as (server, port):

        async def everyone() -> list[Any]:
            return list(await asyncio.gather(*(client(port) for client in clients)))

        seen = asyncio.run(everyone())
        _, err = server.communicate(timeout=120)
    assert server.returncode == 0, err
    return seen, err


def final_cells(path: Path) -> str:
    """The board after the last ply, rebuilt by the engine from the replay (map symbols)."""
    replay = read_replay(path)
    state = replay_start(replay_game(replay.header), replay.header)
    for turn in replay.turns:
        state, _ = replay_turn(state, turn)
    return "".join(SYMBOLS[c] for c in state.cells)  # type: ignore[attr-defined]


def get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as response:
        text: str = response.read().decode()
        return text


def test_a_game_with_our_clients_and_the_c_client_is_a_replay_a_stored_game_and_a_trace(
    peers: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_map(tmp_path, MAP_3P, "3p.map")
    db, replay, trace = tmp_path / "served.sqlite", tmp_path / "game.jsonl", tmp_path / "game.log"
    clients = [bot_client(seed=1, group=1), c_client(peers["client"], 7), bot_client(seed=2, group=2)]
    argv = ["--map", path, "--time", "10", "--db", str(db), "--replay", str(replay), "--trace", str(trace)]
    seen, _ = serve_and_play(argv, clients, tmp_path)
    code, out, err = seen[1]
    assert code == 0, err and out.startswith("player ")
    # The replay file: the engine follows it ply by ply, and the trace still verifies.
    assert main(["replay", str(replay), "--check"]) == 0
    assert main(["reversixt", "verify-trace", path, str(trace), "--quiet"]) == 0
    stored = read_replay(replay)
    assert (
        stored.header["source"] == "gridarena reversixt server"
        and stored.header["time_control"] == "account:10"
    )
    assert sorted(p["name"] for p in stored.header["players"]) == ["group-1", "group-2", "group-7"]
    assert stored.result is not None and stored.result["termination"] == "normal" and len(stored.turns) > 8
    # The database: a tournament of one game that `gridarena results` reports.
    capsys.readouterr()
    assert main(["results", "--db", str(db), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 1 and report["status"] == "done"
    assert sorted(r["player"] for r in report["standings"]) == ["group-1", "group-2", "group-7"]
    assert report["config"]["source"] == "gridarena reversixt server"
    (kept,) = Path(report["replays"]).glob("*.json.gz")
    assert check_replay(read_replay(kept), str(kept)) == len(stored.turns)
    assert main(["tournament", "--resume", "1", "--db", str(db)]) == 1  # nothing scheduled to resume
    assert "recorded by gridarena reversixt server" in capsys.readouterr().err
    # The viewer: the game's page holds the replay, and its last frame is the engine's final board.
    port = free_port()
    viewer = subprocess.Popen(
        [*GRIDARENA, "serve", "--db", str(db), "--replays", str(tmp_path), "--port", str(port)],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        page = wait_for(lambda: get(f"{base}/tournaments/1/games/0/0"))
        payload = json.loads(re.search(r'id="replay-data">(.*?)</script>', page, re.S).group(1))  # type: ignore[union-attr]
        assert payload["problem"] is None and payload["plies"] == len(stored.turns)
        frame = get(f"{base}/api/tournaments/1/games/0/0/frames/{payload['plies']}")
        assert 'data-game="reversixt"' in frame and f'data-cells="{final_cells(replay)}"' in frame
        assert "group-7" in get(f"{base}/api/tournaments/1")
    finally:
        viewer.terminate()
        viewer.communicate(timeout=30)


def test_a_disqualification_in_the_middle_replays_and_shows(tmp_path: Path) -> None:
    """One client moves illegally; the three others play on. The replay keeps the forfeit on the next ply."""
    path = write_map(tmp_path, MAP_4P, "4p.map")
    replay = tmp_path / "game.jsonl"
    clients = [raw_client(send_hole), *(bot_client(seed=k, group=k) for k in (2, 3, 4))]
    serve_and_play(["--map", path, "--replay", str(replay)], clients, tmp_path)
    stored = read_replay(replay)
    (after,) = [turn for turn in stored.turns if turn.get("forfeits")]
    ((seat, termination, reason),) = after["forfeits"]
    assert stored.header["players"][seat]["name"] == "group-9" and termination == "illegal"
    assert reason.startswith("group-9: Sorry, this move was invalid")
    assert stored.result is not None and stored.result["termination"] == "illegal"
    assert check_replay(stored, str(replay)) == len(stored.turns) > 10
    view = view_of(stored)
    assert view.problem is None and 'data-game="reversixt"' in view.frame(view.plies)


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(fetch: Any, seconds: float = 30.0) -> str:
    deadline = time.monotonic() + seconds
    while True:
        try:
            text: str = fetch()
            return text
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def test_games_of_the_same_groups_are_one_tournament_and_other_groups_open_another(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from gridarena.arena.store import Store

    db = tmp_path / "served.sqlite"
    argv = ["--map", "othello8", "--games", "3", "--db", str(db), "--quiet", "--wait", "120"]
    with server_process(argv, tmp_path) as (server, port):

        async def games() -> None:
            for groups in ((1, 2), (2, 1), (1, 3)):
                await asyncio.gather(*(bot_client(seed=g, group=g)(port) for g in groups))

        asyncio.run(games())
        _, err = server.communicate(timeout=120)
    assert server.returncode == 0, err
    with Store(db) as store:
        first, second = store.tournaments()
        assert (first.status, first.config["players"]) == ("stopped", ["group-1", "group-2"])
        assert (second.status, second.config["players"]) == ("done", ["group-1", "group-3"])
        assert [len(store.games(t.id)) for t in (first, second)] == [2, 1]
    assert main(["results", "--db", str(db), "--tournament", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 2 and {r["player"]: r["games"] for r in report["standings"]} == {
        "group-1": 2,
        "group-2": 2,
    }


def test_a_game_in_progress_shows_in_the_viewer(tmp_path: Path) -> None:
    # Issue 32: a game on `reversixt server --db` was stored only when it ended; the viewer now sees
    # the tournament running and the game being played, as it sees the arena's own tournaments.
    from gridarena.arena.store import Store
    from gridarena.web.app import Settings, signature, tournament_json, tournaments_json

    db = tmp_path / "served.sqlite"
    settings = Settings(db, tmp_path / "served.replays")
    seen: dict[str, Any] = {}

    def look() -> None:
        seen["listed"] = tournaments_json(settings)
        seen["tournament"] = tournament_json(settings, 1)
        seen["signature"] = signature(settings, 1)

    async def look_then_leave(reader: Any, writer: Any, request: Any) -> None:
        await asyncio.to_thread(look)  # our move is due: the game is under way
        writer.close()  # then leave: disqualified, and the game is over

    argv = ["--map", "othello8", "--db", str(db)]
    serve_and_play(argv, [raw_client(look_then_leave, group=1), bot_client(seed=2, group=2)], tmp_path)
    (listed,) = seen["listed"]
    assert (listed["status"], listed["players"], listed["games"]) == ("running", ["group-1", "group-2"], 0)
    (live,) = seen["tournament"]["live"]
    assert (live["block"], live["game"]) == (0, 0) and live["plies"] in (0, 1)
    assert live["url"] == "/replays/view?path=1/0-0.jsonl"
    assert seen["signature"][-1] == ("0-0.jsonl",)
    with Store(db) as store:  # once over: stored, the live file compacted in its place
        assert store.tournament(1).status == "done" and len(store.games(1)) == 1
        assert store.game_replay_path(1, 0, 0) == "served.replays/1/0-0.json.gz"
    assert tournament_json(settings, 1)["live"] == []
    assert not list((tmp_path / "served.replays" / "1").glob("*.jsonl"))
