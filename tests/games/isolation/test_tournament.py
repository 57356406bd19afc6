"""AIND's tournament.py and fair pairs through the arena: the rosters, the table, the counts, the command line."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from gridarena.arena.backends import InlineBackend
from gridarena.arena.runner import entrant_names
from gridarena.arena.store import Store
from gridarena.cli import isolation as cli
from gridarena.cli.aind import Arena, Tally, TournamentResult, play_pairs, play_tournament, win_interval
from gridarena.cli.main import main
from gridarena.core.registry import make_bot
from gridarena.games.isolation.aind import AgentLoadError
from gridarena.games.isolation.aind.tournament import (
    Entrant,
    borrowed_players,
    candidates,
    cpu_agents,
    table_header,
    table_row,
)
from gridarena.games.isolation.rules import Isolation

AGENT_FILE = Path(__file__).parent / "data" / "aind_agent" / "game_agent.py"


def inline(time_limit: float) -> Arena:
    """An arena that plays in this process and keeps the games in memory."""
    return Arena(Store(":memory:"), InlineBackend(), time_limit)


def test_best_beats_random() -> None:
    # A node budget and a long time limit: the outcome does not depend on the load.
    result = play_pairs(inline(10_000), "best(nodes=100000)", "random", pairs=3, seed=4)
    assert result.games == 6 and result.wins == 6


def test_table_layout_is_aind_s() -> None:
    tests = ["AB_Improved", "AB_Custom", "AB_Custom_2", "AB_Custom_3"]
    header = table_header(tests)
    assert header[0] == "\n Match #   Opponent    AB_Improved   AB_Custom   AB_Custom_2  AB_Custom_3 "
    assert header[1] == "                        Won | Lost   Won | Lost   Won | Lost   Won | Lost "
    row = table_row(1, "Random", tests, dict.fromkeys(tests, 9), 10)
    assert row == "    1       Random       9  |   1     9  |   1     9  |   1     9  |   1  "
    rounds = {"Random": dict.fromkeys(tests, 7)}
    result = TournamentResult(tests, ["Random"], rounds, 5, 0, 0, {}, 0, 150)
    footer = result.footer()
    assert footer[0] == "-" * 74
    assert footer[1] == "{:^9}{:^13}{:^13}{:^13}{:^13}{:^13}".format(
        "", "Win Rate:", *["70.0%"] * 4
    )  # AIND's format
    assert "95% CI:" in footer[2] and "40-89%" in footer[2]


def test_interval() -> None:
    lo, hi = win_interval(204, 400)
    assert (round(lo, 3), round(hi, 3)) == (0.461, 0.559)  # the report's 51.0%: +-4.9 points


def test_tournament_plumbing_and_reasons() -> None:
    cpu = [Entrant("random(name=Random)", "Random")]
    tests = [Entrant("greedy(name=Greedy)", "Greedy"), Entrant("random(name=Random2)", "Random2")]
    lines: list[str] = []
    result = play_tournament(inline(50), tests, cpu, num_matches=2, seed=5, on_row=lines.append)
    assert result.games() == 4 and len(lines) == 3
    assert 0 <= result.wins("Greedy") <= 4 and result.forfeits == 0
    again = play_tournament(inline(50), tests, cpu, num_matches=2, seed=5)
    assert again.rounds == result.rounds  # seeded: openings and the bots' draws repeat


def test_the_tournament_is_the_arena_s_gauntlet() -> None:
    arena = inline(50)
    cpu = [Entrant("random(name=Random)", "Random"), Entrant("greedy(name=Greedy)", "Greedy")]
    play_tournament(arena, [Entrant("random(name=R2)", "R2")], cpu, num_matches=3, seed=9)
    stored = arena.store.tournament()
    assert {k: stored.config[k] for k in ("format", "candidates", "games", "opening", "time")} == {
        "format": "gauntlet", "candidates": 1, "games": 6, "opening": "random(plies=2)", "time": "50ms",
    }  # fmt: skip
    blocks = arena.store.blocks(stored.id)
    assert len(arena.store.games(stored.id)) == 12 and len(blocks) == 6
    assert len({(b.round, b.seed) for b in blocks}) == 3  # both encounters of a round share its opening


def test_timeouts_and_forfeits_come_from_the_terminations() -> None:
    tally = Tally(["T"], ["C"], {"T": "T", "C": "C (cpu)"})
    for termination, seat in (("normal", None), ("timeout", 1), ("timeout", 0), ("illegal", 1), ("crash", 0)):
        loser = ["T", "C"][seat] if seat is not None else "C"
        returns = [-1.0, 1.0] if loser == "T" else [1.0, -1.0]
        tally.add({"seats": ["T", "C"], "returns": returns, "termination": termination, "forfeit_seat": seat})
    assert tally.reasons == {"illegal move": 1, "timeout": 2, "forfeit": 2}
    assert tally.timeout_losses == {"C (cpu)": 1, "T": 1} and tally.won == {"C": {"T": 3}}


def test_the_rosters() -> None:
    assert [e.label for e in cpu_agents()] == [
        "Random", "MM_Open", "MM_Center", "MM_Improved", "AB_Open", "AB_Center", "AB_Improved",
    ]  # fmt: skip
    names = [e.label for e in candidates(extra=["best"])]
    assert names == ["AB_Improved", "AB_Custom", "AB_Custom_2", "AB_Custom_3", "AB_Custom_4", "best"]
    from_file = candidates(AGENT_FILE)
    assert [e.label for e in from_file][1:] == ["AB_Custom", "AB_Custom_2", "AB_Custom_3"]
    bot = make_bot(Isolation(), from_file[0].spec)
    assert type(bot.player).__module__.startswith("_aind_agent_game_agent") and bot.name == "AB_Improved"
    assert all(str(AGENT_FILE.resolve()) in e.spec for e in cpu_agents(AGENT_FILE))
    # The names of docs/isolation.md's gauntlet by hand: the same block and bot seeds.
    assert entrant_names([e.spec for e in [*candidates(), *cpu_agents()]]) == [
        "AB_Improved", "AB_Custom", "AB_Custom_2", "AB_Custom_3", "AB_Custom_4", "Random", "MM_Open",
        "MM_Center", "MM_Improved", "AB_Open", "AB_Center", "AB_Improved_opp",
    ]  # fmt: skip


STUDENT_FILE = """
def custom_score(game, player):
    # more moves than the opponent, counted twice
    own = len(game.get_legal_moves(player))
    opp = len(game.get_legal_moves(game.get_opponent(player)))
    return float(own - 2 * opp)
"""


def test_an_agent_file_with_only_custom_score_plays_with_our_players(tmp_path: Path) -> None:
    (tmp_path / "game_agent.py").write_text(STUDENT_FILE)
    file = tmp_path / "game_agent.py"
    assert borrowed_players(file) == ["MinimaxPlayer", "AlphaBetaPlayer"]
    custom = candidates(file)[1]
    assert custom.label == "AB_Custom" and "score='custom_score'" in custom.spec
    bot = make_bot(Isolation(), custom.spec)
    assert type(bot.player).__module__ == "gridarena.games.isolation.aind.agents"
    assert bot.player.score.__module__.startswith("_aind_agent_game_agent")


def test_an_agent_file_without_custom_score_is_refused(tmp_path: Path) -> None:
    (tmp_path / "game_agent.py").write_text("class AlphaBetaPlayer:\n    pass\n")
    with pytest.raises(AgentLoadError, match=r"game_agent\.py: no custom_score"):
        candidates(tmp_path / "game_agent.py")


def test_cli_tournament_of_a_file_with_only_custom_score(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "game_agent.py").write_text(STUDENT_FILE)
    code = run_cli(
        "aind-tournament",
        "--agents",
        "game_agent.py",
        "--matches",
        "1",
        "--seed",
        "3",
        "--time-limit",
        "40",
        "--width",
        "5",
        "--height",
        "5",
        "--backend",
        "inline",
        "--db",
        ":memory:",
        "--json",
    )  # fmt: skip  (at 11 ms AIND's minimax forfeits)
    assert code == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert [a["name"] for a in data["test_agents"]] == ["AB_Improved", "AB_Custom"]
    assert data["test_agents"][1]["games"] == 14 and data["forfeits"] == 0
    said = [line for line in captured.err.splitlines() if "has no" in line]
    assert said == [
        "game_agent.py has no MinimaxPlayer or AlphaBetaPlayer: gridarena's MinimaxPlayer, "
        "AlphaBetaPlayer play with its scores"
    ]


def run_cli(*argv: str) -> int:
    parser = argparse.ArgumentParser()
    cli.configure(parser)
    return cli.run(parser.parse_args(list(argv)))


def test_cli_tournament_json(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # the games go to ./gridarena.sqlite
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


def test_cli_pairs_and_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert (
        run_cli("pairs", "--agents", "random", "mm_open", "--pairs", "1", "--seed", "1", "--time-limit", "30")
        == 0
    )
    assert "random vs mm_open:" in capsys.readouterr().out
    with pytest.raises(cli.UsageError, match="unknown agent"):
        run_cli("pairs", "--agents", "random", "nobody")
    assert main(["isolation", "aind-tournament", "--matches", "0"]) == 1
    assert "argument --matches: must be an integer from 1 to 10^6, not '0'" in capsys.readouterr().err


def test_cli_pairs_of_the_load_independent_twins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
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


def test_the_rows_come_as_each_opponent_is_done() -> None:
    # AIND's tournament.py printed a row per opponent as it finished: the games are played one
    # opponent after another, so the first row comes after a third of the games here (issue 32).
    seen: list[int] = []
    events: list[tuple[str, int]] = []
    arena = Arena(Store(":memory:"), InlineBackend(), 50, on_progress=lambda done, total: seen.append(done))
    cpu = [Entrant(f"random(name=R{k})", f"R{k}") for k in range(3)]
    tests = [Entrant("greedy(name=G)", "G"), Entrant("random(name=X)", "X")]

    def row(line: str) -> None:
        events.append((line, seen[-1] if seen else 0))

    play_tournament(arena, tests, cpu, num_matches=2, seed=5, on_row=row)
    rows = [(line.split()[1], done) for line, done in events if line.strip()[:1].isdigit()]
    assert rows == [("R0", 8), ("R1", 16), ("R2", 24)]  # 2 tests x 2 matches x 2 seats per opponent
    assert seen == list(range(1, 25))


def test_cli_shows_progress_and_names_the_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("gridarena.cli.progress.LINE_SECONDS", 0.0)  # a line at every game
    # An idle machine: the load warning, which --quiet keeps (it says the results may suffer), is
    # another test's; a busy test run pushed the 1-minute load above the 2 cores once.
    monkeypatch.setattr("gridarena.arena.load.os.getloadavg", lambda: (0.0, 0.0, 0.0))
    argv = ["aind-tournament", "--agents", str(AGENT_FILE), "--matches", "1", "--seed", "3",
            "--time-limit", "11", "--width", "5", "--height", "5", "--backend", "inline"]  # fmt: skip
    assert run_cli(*argv) == 0
    out, err = capsys.readouterr()
    assert "games: 1 of 56 (1%)" in err and "games: 56 of 56 (100%)" in err
    db = tmp_path / "gridarena.sqlite"
    assert err.rstrip().endswith(f"games stored in {db}; see them with: gridarena serve --db {db}")
    with Store(db) as store:
        assert len(store.games(store.tournament().id)) == 56
    assert "Win Rate:" in out
    assert run_cli(*argv, "--quiet", "--db", str(tmp_path / "q.sqlite")) == 0
    assert capsys.readouterr().err == ""  # --quiet: no progress, no last words
    pairs = ["pairs", "--agents", "greedy", "random", "--pairs", "2", "--seed", "1", "--time-limit", "20",
             "--width", "5", "--backend", "inline", "--db", ":memory:"]  # fmt: skip
    assert run_cli(*pairs) == 0
    err = capsys.readouterr().err
    assert "games: 4 of 4 (100%)" in err and "won by greedy" in err and "kept in memory only" in err
