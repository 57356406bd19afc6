"""AIND's tournament.py procedure and table, fair pairs, and their command line."""

from __future__ import annotations

import argparse
import json
import math
import random
from pathlib import Path

import pytest

from gridarena.cli import isolation as cli
from gridarena.games.isolation import tournament as t
from gridarena.games.isolation.aind import samples
from gridarena.games.isolation.best import BestPlayer

AGENT_FILE = Path(__file__).parent / "data" / "aind_agent" / "game_agent.py"


def never_late() -> float:
    return math.inf


def test_best_beats_random() -> None:
    result = t.play_pairs(
        t.Agent(BestPlayer(nodes=100_000), "best"), t.Agent(samples.RandomPlayer(random.Random(1)), "Random"),
        pairs=3, seed=4, time_limit=10_000,  # a node budget: the outcome does not depend on the load
    )  # fmt: skip
    assert result.games == 6 and result.wins == 6


def test_table_layout_is_aind_s() -> None:
    tests = ["AB_Improved", "AB_Custom", "AB_Custom_2", "AB_Custom_3"]
    header = t.table_header(tests)
    assert header[0] == "\n Match #   Opponent    AB_Improved   AB_Custom   AB_Custom_2  AB_Custom_3 "
    assert header[1] == "                        Won | Lost   Won | Lost   Won | Lost   Won | Lost "
    row = t.table_row(1, "Random", tests, dict.fromkeys(tests, 9), 10)
    assert row == "    1       Random       9  |   1     9  |   1     9  |   1     9  |   1  "
    rounds = {"Random": dict.fromkeys(tests, 7)}
    result = t.TournamentResult(tests, ["Random"], rounds, 5, 0, 0, {}, 0, 150)
    footer = t.table_footer(result)
    assert footer[0] == "-" * 74
    assert footer[1] == "{:^9}{:^13}{:^13}{:^13}{:^13}{:^13}".format(
        "", "Win Rate:", *["70.0%"] * 4
    )  # AIND's format
    assert "95% CI:" in footer[2] and "40-89%" in footer[2]


def test_interval() -> None:
    lo, hi = t.win_interval(204, 400)
    assert (round(lo, 3), round(hi, 3)) == (0.461, 0.559)  # the report's 51.0%: +-4.9 points


def test_tournament_plumbing_and_reasons() -> None:
    rng = random.Random(0)
    cpu = [t.Agent(samples.RandomPlayer(rng), "Random")]
    tests = [t.Agent(samples.GreedyPlayer(), "Greedy"), t.Agent(samples.RandomPlayer(rng), "Random2")]
    lines: list[str] = []
    result = t.play_tournament(cpu, tests, num_matches=2, seed=5, time_limit=50, on_row=lines.append)
    assert result.games() == 4 and len(lines) == 3
    assert 0 <= result.wins("Greedy") <= 4 and result.forfeits == 0
    rng = random.Random(0)
    again = t.play_tournament(
        [t.Agent(samples.RandomPlayer(rng), "Random")],
        [t.Agent(samples.GreedyPlayer(), "Greedy"), t.Agent(samples.RandomPlayer(rng), "Random2")],
        num_matches=2, seed=5, time_limit=50,
    )  # fmt: skip
    assert again.rounds == result.rounds  # seeded: openings and shuffles repeat


def test_sources_and_agents() -> None:
    rng = random.Random(1)
    builtin = t.builtin_source(rng)
    assert [a.name for a in t.cpu_agents(builtin)] == [
        "Random", "MM_Open", "MM_Center", "MM_Improved", "AB_Open", "AB_Center", "AB_Improved",
    ]  # fmt: skip
    names = [a.name for a in t.make_test_agents(builtin, ["best"])]
    assert names == ["AB_Improved", "AB_Custom", "AB_Custom_2", "AB_Custom_3", "AB_Custom_4", "best"]
    from_file = t.file_source(AGENT_FILE, rng)
    assert [name for name, _ in from_file.customs] == ["AB_Custom", "AB_Custom_2", "AB_Custom_3"]
    assert from_file.alphabeta.__module__.startswith("_aind_agent_game_agent")
    with pytest.raises(KeyError, match="choose from"):
        t.make_player("nobody")


def run_cli(*argv: str) -> int:
    parser = argparse.ArgumentParser()
    cli.configure(parser)
    return cli.run(parser.parse_args(list(argv)))


def test_cli_tournament_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = run_cli("aind-tournament", "--agents", str(AGENT_FILE), "--matches", "1", "--seed", "3",
                   "--time-limit", "11", "--width", "5", "--height", "5", "--json")  # fmt: skip
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert [a["name"] for a in data["test_agents"]] == [
        "AB_Improved",
        "AB_Custom",
        "AB_Custom_2",
        "AB_Custom_3",
    ]
    assert all(
        a["games"] == 14 and 0 <= a["ci95"][0] <= a["win_rate"] <= a["ci95"][1] for a in data["test_agents"]
    )
    assert data["interval"] == "wilson" and len(data["opponents"]) == 7


def test_cli_pairs_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        run_cli("pairs", "--agents", "random", "mm_open", "--pairs", "1", "--seed", "1", "--time-limit", "30")
        == 0
    )
    assert "random vs mm_open:" in capsys.readouterr().out
    with pytest.raises(cli.UsageError, match="unknown agent"):
        run_cli("pairs", "--agents", "random", "nobody")
    with pytest.raises(cli.UsageError, match="--matches must be at least 1"):
        run_cli("aind-tournament", "--matches", "0")


def test_cli_pairs_of_the_load_independent_twins(capsys: pytest.CaptureFixture[str]) -> None:
    args = (
        "pairs",
        "--agents",
        "best_nodes",
        "ab_improved_depth",
        "--pairs",
        "1",
        "--seed",
        "3",
        "--width",
        "5",
    )
    assert run_cli(*args, "--time-limit", "60000", "--json") == 0
    first = json.loads(capsys.readouterr().out)
    assert run_cli(*args, "--time-limit", "60000", "--json") == 0
    assert json.loads(capsys.readouterr().out)["wins"] == first["wins"]  # deterministic: no clock involved
    assert first["games"] == 2 and first["timeout_losses"] == {}
