"""Our server writes the reference server's console format: ``verify-trace`` replays its logs move by move,
for plain games, games with bombs and special fields, and games with disqualifications."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from net_harness import MAP_4P, OTHELLO8, Trace, bot_client, raw_client, run_games, send_hole, write_map

from gridarena.cli.main import main
from gridarena.games.reversixt.formats import read_map
from gridarena.games.reversixt.net.trace import verify

EXAMPLE = "reversixt/semmelsamu-reversixt-bot/maps/example.map"


def played_trace(path: str, clients: list, **config: object) -> tuple[str, list]:
    trace = Trace()
    results, _ = asyncio.run(run_games(path, clients, trace=trace, **config))
    return trace.joined(), results


def test_a_game_on_our_server_verifies(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text, results = played_trace(str(OTHELLO8), [bot_client(seed=1), bot_client(seed=2)], time=5.0)
    log = tmp_path / "othello8.server.log"
    log.write_text(text)
    assert main(["reversixt", "verify-trace", str(OTHELLO8), str(log)]) == 0
    scores = ", ".join(map(str, results[0].scores))
    assert f"final scores {scores}" in capsys.readouterr().out
    # The check has teeth: one answer changed in the log is a divergence.
    first = text.index("was (x,y,c) = (")
    end = text.index(")", first + 16)
    log.write_text(text[:first] + "was (x,y,c) = (0,0,0" + text[end:])
    assert main(["reversixt", "verify-trace", str(OTHELLO8), str(log)]) == 1


def test_a_game_with_both_phases_and_special_fields_verifies(shared_data: Path) -> None:
    path = str(shared_data / EXAMPLE)
    text, results = played_trace(path, [bot_client(seed=k) for k in range(3)])
    report = verify(read_map(path), text, "example trace")
    assert report.ok, report.divergence and report.divergence.to_text("example trace")
    assert report.moves + report.bombs == results[0].moves and report.bombs > 0


def test_a_game_with_a_disqualification_verifies(tmp_path: Path) -> None:
    path = write_map(tmp_path, MAP_4P, "4p.map")
    clients = [raw_client(send_hole), *(bot_client(seed=k) for k in range(3))]
    text, results = played_trace(path, clients)
    assert "Player 1 disqualified (invalid-move)" in text
    report = verify(read_map(path), text, "4p trace")
    assert report.ok, report.divergence and report.divergence.to_text("4p trace")
    assert report.scores[0] is None
    assert list(report.scores[1:]) == list(results[0].scores[1:])
