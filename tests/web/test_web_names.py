"""Names everywhere (issue 32): a bot is shown by its name, never its whole spec, on the viewer's home
and tournament pages, in its replays and in `gridarena results --json`; the spec stays on request (a
tooltip, the "players' specs" line, a ``spec`` field)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from webtools import Served, serve, stop

from gridarena.arena.backends import InlineBackend
from gridarena.arena.replay import read_replay
from gridarena.arena.store import Store
from gridarena.arena.tournament import TournamentConfig, run_tournament

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "random_bot.py"
MINE = f"external(cmd='{sys.executable} {EXAMPLE}',name=mine)"
#: A program without a name, given by a spec too long to show: shown by its file's name.
UNNAMED = f"external(cmd='{sys.executable} {EXAMPLE} --quiet',protocol='jsonl')"


@pytest.fixture(scope="module")
def named(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """A database with one tournament of `mine` (a program) against greedy and an unnamed program."""
    db = tmp_path_factory.mktemp("names") / "names.sqlite"
    config = TournamentConfig("isolation(width=5,height=5)", (MINE, "greedy", UNNAMED), games=1, seed=3)
    with Store(db) as store:
        run_tournament(config, store, InlineBackend(), warn=lambda _: None)
    served = serve(db, db.with_name("names.replays"))
    yield served
    stop(served)


def visible(page: Any) -> str:
    text: str = page.inner_text("body")
    return text


def test_results_json_standings_name_the_program_mine_with_its_spec_beside(named: Served) -> None:
    command = [sys.executable, "-m", "gridarena", "results", "--db", str(named.db), "--json"]
    report = json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)
    players = {row["player"]: row["spec"] for row in report["standings"]}
    assert players == {"mine": MINE, "greedy": "greedy", "random_bot": UNNAMED}
    assert [e["name"] for e in report["entrants"]] == ["mine", "greedy", "random_bot"]
    assert set(report["bots"]) == set(report["forfeits"]) == set(players)
    listed = subprocess.run([*command[:-1], "--list"], capture_output=True, text=True, check=True).stdout
    assert "mine,greedy,random_bot" in listed and "random_bot.py" not in listed


def test_the_home_page_shows_mine_not_the_command(named: Served, page: Any) -> None:
    page.goto(named.url + "/")
    row = page.inner_text("#tournaments tr:nth-child(2)")
    assert "mine" in row and "random_bot" in row
    assert "random_bot.py" not in visible(page) and "external(" not in visible(page)
    assert page.get_attribute("#tournaments .entrant >> nth=0", "title") == MINE  # the spec, on hover


def test_the_tournament_page_shows_mine_and_the_spec_on_request(named: Served, page: Any) -> None:
    page.goto(named.url + "/tournaments/1")
    page.wait_for_selector("#standings")
    assert page.inner_text("#players") == "mine, greedy, random_bot"
    standings = page.inner_text("#standings")
    assert "mine" in standings and "random_bot" in standings
    assert "random_bot.py" not in visible(page) and "external(" not in visible(page)
    assert page.get_attribute("#players .entrant >> nth=0", "title") == MINE
    page.click("#entrants summary")  # the players' specs, opened by hand
    assert MINE in page.inner_text("#entrants")


def test_a_replay_names_its_players_and_keeps_their_specs(named: Served, page: Any) -> None:
    replays = sorted((named.db.with_name("names.replays") / "1").glob("*.json.gz"))
    header = read_replay(replays[0]).header
    names = {p["name"] for p in header["players"]}
    assert names <= {"mine", "greedy", "random_bot"} and len(names) == 2
    assert set(header["players_specs"]) <= {MINE, "greedy", UNNAMED}
    game = next(g for g in named.json("/api/tournaments/1")["games"] if "mine" in g["seats"])
    page.goto(named.url + game["url"])
    page.wait_for_selector("#board svg")
    assert "mine" in page.inner_text("#players") and "random_bot.py" not in visible(page)
    seat = game["seats"].index("mine")
    assert page.get_attribute(f"#players .player[data-seat='{seat}']", "title").endswith(f"spec: {MINE}")
