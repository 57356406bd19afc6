"""``gridarena reversixt server|client`` as processes and in-process: exit codes, the result file, the logs,
and one clear line for every error (a refused address, a bad map, clients that never come)."""

from __future__ import annotations

import asyncio
import sys
import threading
from pathlib import Path

import pytest
from net_harness import server_process

from gridarena.cli.main import main
from gridarena.games.reversixt.net.client import ClientConfig, play

GRIDARENA = [sys.executable, "-m", "gridarena"]


def test_server_and_clients_as_processes_play_two_games(tmp_path: Path) -> None:
    result, log, trace = tmp_path / "result.txt", tmp_path / "server.log", tmp_path / "game{game}.log"
    argv = ["--map", "othello8", "--games", "2", "--time", "5", "--result", str(result), "--log", str(log)]
    argv += ["--trace", str(trace), "--quiet", "--wait", "120"]
    with server_process(argv, tmp_path) as (server, port):
        # Game 1: two CLI clients (in threads of this process: a second interpreter would only add start-up time).
        codes: list[int] = []
        client = ["reversixt", "client", "--port", str(port), "--quiet"]
        threads = [
            threading.Thread(
                target=lambda g=g: codes.append(main([*client, "--group", str(g), "--seed", str(g)]))
            )
            for g in (7, 8)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        assert codes == [0, 0]

        async def second_game() -> list:
            return list(await asyncio.gather(*(play(ClientConfig(port=port, seed=s)) for s in (1, 2))))

        assert all(r.finished for r in asyncio.run(second_game()))
        _, err = server.communicate(timeout=120)
    assert server.returncode == 0, err
    blocks = result.read_text().split("othello8.map\n")
    assert blocks[0] == "" and len(blocks) == 3
    assert sorted(line.split("\t")[0] for line in blocks[1].splitlines()) == ["7", "8"]
    assert all(line.endswith("\tok") for block in blocks[1:] for line in block.splitlines())
    assert "game 2 over after" in log.read_text() and "move 0: player 1 plays" in log.read_text()
    for game in (1, 2):
        assert (
            main(["reversixt", "verify-trace", "othello8", str(tmp_path / f"game{game}.log"), "--quiet"]) == 0
        )


def test_a_refused_address_is_one_line_and_exit_1(
    unused_port: int, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["reversixt", "client", "--port", str(unused_port), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert (
        err == f"gridarena reversixt: error: cannot connect to 127.0.0.1:{unused_port}: Connection refused\n"
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["server", "--map", "no/such.map"], "no/such.map: cannot read the map"),
        (
            ["server", "--map", "othello8", "--port", "0", "--wait", "0.2"],
            "only 0 of 2 clients connected within 0.2 s",
        ),
        (
            ["server", "--map", "othello8", "--depth", "300"],
            "argument --depth: must be an integer from 0 to 255",
        ),
        (["client", "--group", "256"], "argument --group: must be an integer from 0 to 255"),
        (["client", "--bot", "nosuchbot"], "unknown bot for reversixt 'nosuchbot'"),
    ],
    ids=["bad map", "nobody comes", "depth", "group", "bot"],
)
def test_bad_input_is_one_line_and_exit_1(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["reversixt", *argv, "--quiet"]) == 1
    err = capsys.readouterr().err
    assert err.count("error:") == 1 and message in err.splitlines()[-1] and "Traceback" not in err


@pytest.fixture
def unused_port() -> int:
    """A port nobody listens on (bound and released; nothing else in the test binds it)."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_time_keeps_the_reference_meaning_and_time_control_speaks_the_tournaments(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as done:
        main(["reversixt", "server", "--help"])
    assert done.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "the reference server's -t, in its meaning: seconds added to each player's time account" in text
    assert "--time-control SPEC" in text and "gridarena tournament --time" in text
    with pytest.raises(SystemExit) as done:
        main(["reversixt", "server", "--map", "othello8", "--time", "2", "--time-control", "account:2"])
    assert done.value.code == 2 and "not allowed with argument" in capsys.readouterr().err
    assert main(["reversixt", "server", "--map", "othello8", "--time-control", "2 s", "--quiet"]) == 1
    assert "--time-control '2 s': expected seconds per move" in capsys.readouterr().err


def test_a_quiet_client_says_what_it_waits_for(unused_port: int, capsys: pytest.CaptureFixture[str]) -> None:
    # Issue 32: a cold numba cache kept a --quiet client silent for minutes; it now says so, once each.
    argv = ["reversixt", "client", "--port", str(unused_port), "--bot", "best", "--wait", "0.5", "--quiet"]
    assert main(argv) == 1
    lines = capsys.readouterr().err.splitlines()
    assert lines == [
        "bot best: compiling or loading its kernels before connecting ...",
        f"waiting up to 0.5 s for a server on 127.0.0.1:{unused_port}",
        f"gridarena reversixt: error: cannot connect to 127.0.0.1:{unused_port}: Connection refused (for 0.5 s)",
    ]


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (
            [],
            "move requests carry depth 1 (bots search one ply; --depth 0 lifts the limit) and no time limit",
        ),
        (
            ["--depth", "0", "--time", "2"],
            "move requests carry no depth limit (depth 0) and an account of 2 s",
        ),
    ],
)
def test_the_server_says_at_start_what_its_requests_carry(tmp_path: Path, argv: list[str], said: str) -> None:
    # Issue 32: depth 1 by default (the reference's) played `best` at one ply without a word.
    with server_process(["--map", "othello8", "--quiet", "--wait", "0.5", *argv], tmp_path) as (server, _):
        assert server.stderr is not None
        assert server.stderr.readline().startswith(said)
        server.communicate(timeout=60)
