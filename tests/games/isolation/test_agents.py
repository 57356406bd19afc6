"""AIND agents, their bot wrappers, the best bot, the tournament table and the CLI."""

from __future__ import annotations

import argparse
import json
import math
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gridarena.cli import isolation as cli
from gridarena.core.clock import TimeControl
from gridarena.games.isolation import agents, heuristics
from gridarena.games.isolation import aind_samples as samples
from gridarena.games.isolation import tournament as t
from gridarena.games.isolation.aind import Board, board_from_state
from gridarena.games.isolation.rules import Isolation, State

AGENT_FILE = Path(__file__).parent / "data" / "aind_agent" / "game_agent.py"
BOT_NAMES = [
    "random", "mm_open", "mm_center", "mm_improved", "ab_open", "ab_center", "ab_improved",
    "ab_custom", "ab_custom_2", "ab_custom_3", "ab_custom_4", "best",
]  # fmt: skip


def random_state(width: int, height: int, plies: int, seed: int) -> State:
    rng = random.Random(seed)
    state = State(width, height)
    for _ in range(plies):
        if state.is_terminal():
            break
        state = state.child(rng.choice(state.legal_actions()))
    return state


def minimax_ref(state: State, depth: int, me: int) -> float:
    """Plain minimax over the reference rules with improved_score at the leaves (the oracle)."""
    moves = state.legal_actions()
    if depth == 0 or not moves:
        return heuristics.improved(state, me)
    values = [minimax_ref(state.child(m), depth - 1, me) for m in moves]
    return max(values) if state.ply % 2 == me else min(values)


def never_late() -> float:
    return math.inf


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 20), st.integers(0, 10**6), st.integers(1, 3), st.booleans())
def test_searches_return_a_minimax_best_move(plies: int, seed: int, depth: int, alphabeta: bool) -> None:
    state = random_state(5, 5, plies, seed)
    if state.is_terminal():
        return
    me = state.ply % 2
    player: agents.IsolationPlayer = (
        agents.AlphaBetaPlayer(score_fn=samples.improved_score, max_depth=depth)
        if alphabeta
        else agents.MinimaxPlayer(search_depth=depth, score_fn=samples.improved_score)
    )
    seats = (player, "other") if me == 0 else ("other", player)
    row, col = player.get_move(board_from_state(state, *seats, rng=random.Random(seed)), never_late)
    best = max(minimax_ref(state.child(m), depth - 1, me) for m in state.legal_actions())
    assert minimax_ref(state.child(row * 5 + col), depth - 1, me) == best
    assert player.completed_depth == depth


def test_timer_threshold_convention() -> None:
    state = random_state(7, 7, 6, 1)
    minimax = agents.MinimaxPlayer()
    board = board_from_state(state, minimax, "x")
    assert minimax.get_move(board, lambda: 5.0) == (-1, -1)  # below the 10 ms threshold: AIND's forfeit
    alphabeta = agents.AlphaBetaPlayer()
    board = board_from_state(state, alphabeta, "x")
    move = alphabeta.get_move(board, lambda: 5.0)
    assert move in board.get_legal_moves() and alphabeta.completed_depth == 0  # fallback: a legal move


def test_alphabeta_stops_on_time() -> None:
    import time

    state = random_state(7, 7, 2, 3)
    player = agents.AlphaBetaPlayer(timeout=10.0)
    board = board_from_state(state, player, "x")
    start = time.perf_counter()
    deadline = start + 0.05
    move = player.get_move(board, lambda: 1000 * (deadline - time.perf_counter()))
    assert time.perf_counter() - start < 0.1 and move in board.get_legal_moves()  # 50 ms, plus a busy CI
    assert player.completed_depth >= 1


@pytest.mark.parametrize("name", BOT_NAMES)
def test_bot_factories(name: str) -> None:
    game = Isolation()
    bot = getattr(agents, f"make_{name}")(game, seed=3)
    bot.reset(game, 0, 3)
    state = random_state(7, 7, 4, 9)
    decision = bot.act(state, TimeControl(depth=2, nodes=50_000))
    assert decision.action in state.legal_actions()
    if name not in {"random"}:
        assert decision.info["depth"] == 2 or name.startswith("mm")


def test_bots_are_deterministic_with_a_node_budget() -> None:
    state = random_state(7, 7, 6, 4)
    first = agents.make_ab_improved(Isolation(), seed=1).act(state, TimeControl(nodes=800))
    second = agents.make_ab_improved(Isolation(), seed=1).act(state, TimeControl(nodes=800))
    assert first == second and first.info["depth"] >= 1


def test_bot_plays_placements_and_deadlines() -> None:
    bot = agents.make_ab_custom_3(Isolation(), seed=2)
    decision = bot.act(State(7, 7), TimeControl.for_seconds(0.05))
    assert decision.action in range(49)
    best = agents.make_best(Isolation(), seed=2)
    decision = best.act(State(7, 7).child(24), TimeControl.for_seconds(0.06))
    assert decision.action in State(7, 7).child(24).legal_actions() and decision.info["depth"] >= 1


def test_best_player_finds_the_won_endgame() -> None:
    state = random_state(5, 5, 12, 5)
    while not state.is_terminal():
        best = agents.BestPlayer()
        seats = (best, "x") if state.ply % 2 == 0 else ("x", best)
        row, col = best.get_move(board_from_state(state, *seats), lambda: 1e6)
        assert best.last is not None and best.last.proven  # 5x5 after 12 plies: solved outright
        state = state.apply_action(row * 5 + col)


def test_best_beats_random() -> None:
    result = t.play_pairs(
        t.Agent(agents.BestPlayer(margin=15.0), "best"), t.Agent(samples.RandomPlayer(random.Random(1)), "Random"),
        pairs=3, seed=4, time_limit=60,
    )  # fmt: skip
    assert result.games == 6 and result.wins == 6


# ---- tournament -------------------------------------------------------------------------------------


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


def test_board_round_trip_through_bot() -> None:
    state = random_state(7, 7, 8, 2)
    board = board_from_state(state, "a", "b")
    assert isinstance(board, Board) and board.move_count == state.ply


def test_random_bot_follows_its_seed() -> None:
    state = random_state(7, 7, 4, 1)
    bot = agents.make_random(Isolation(), seed=1)
    picks = []
    for _ in range(2):
        bot.reset(Isolation(), 0, 99)
        picks.append([bot.act(state, TimeControl()).action for _ in range(5)])
    assert picks[0] == picks[1] and all(p in state.legal_actions() for p in picks[0])
