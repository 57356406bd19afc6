"""The JSON API serves the command line's data: the tournament report is `gridarena results --json`."""

from __future__ import annotations

import json
from typing import Any

import pytest
from webtools import Served

from gridarena.cli.main import main


@pytest.mark.parametrize("tournament", [1, 2, 3, 4, 5, 6])
def test_the_report_is_the_results_command_output(
    server: Served, tournament: int, capsys: pytest.CaptureFixture[str]
) -> None:
    served = server.json(f"/api/tournaments/{tournament}")
    capsys.readouterr()
    assert main(["results", "--db", str(server.db), "--tournament", str(tournament), "--json"]) == 0
    assert served["report"] == json.loads(capsys.readouterr().out)
    assert len(served["games"]) == served["report"]["games"]


def test_tournaments_newest_first_and_games_link_their_replays(server: Served) -> None:
    listed: list[dict[str, Any]] = server.json("/api/tournaments")
    assert [t["id"] for t in listed] == [6, 5, 4, 3, 2, 1]
    assert [t["game"] for t in listed][3:] == [
        "pentocity",
        "slidingpuzzle(rows=3,cols=3,scramble=24)",
        "isolation",
    ]
    assert listed[2]["game_title"] == "reversixt (map sampler, text: 14 lines of text)"  # no map text
    for game in server.json("/api/tournaments/1")["games"]:
        replay = server.json(game["url"].replace("/tournaments/", "/api/tournaments/"))
        assert replay["plies"] == game["plies"] == len(replay["turns"])
        assert replay["seed_text"] == str(replay["header"]["seed"])


def test_a_live_stream_starts_with_the_report(server: Served) -> None:
    import urllib.request

    with urllib.request.urlopen(server.url + "/api/tournaments/2/events", timeout=30) as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        assert response.readline().decode() == "event: report\n"
        data = json.loads(response.readline().decode().removeprefix("data: "))
    assert data["report"]["tournament"] == 2


def test_an_isolation_hint_is_a_legal_cell(server: Served) -> None:
    import urllib.request

    headers = {"content-type": "application/json"}

    def post(path: str, body: dict[str, Any]) -> Any:
        request = urllib.request.Request(server.url + path, json.dumps(body).encode(), headers)
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.loads(response.read())

    game = post(
        "/api/play", {"game": "isolation", "spec": "isolation(width=5,height=5)", "opponent": "greedy"}
    )
    headers["x-gridarena-token"] = game["token"]
    after = post(f"/api/play/{game['id']}/move", {"action": "c3"})
    hint = post(f"/api/play/{game['id']}/hint", {})
    assert hint["by"] == "alphabeta(depth=3)" and hint["info"]
    assert f'data-action="{hint["action"]}"' in after["svg"]  # one of the cells the page offers
