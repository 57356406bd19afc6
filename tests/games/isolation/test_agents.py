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
from iso_states import random_state

from gridarena.cli import isolation as cli
from gridarena.core.clock import TimeControl
from gridarena.games.isolation import agents, fast, heuristics
from gridarena.games.isolation import aind_samples as samples
from gridarena.games.isolation import tournament as t
from gridarena.games.isolation.aind import Board, TimeLeft, board_from_state
from gridarena.games.isolation.rules import Isolation, State

AGENT_FILE = Path(__file__).parent / "data" / "aind_agent" / "game_agent.py"
BOT_NAMES = [
    "random", "mm_open", "mm_center", "mm_improved", "ab_open", "ab_center", "ab_improved",
    "ab_custom", "ab_custom_2", "ab_custom_3", "ab_custom_4", "best",
]  # fmt: skip


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
    player: agents.AlphaBetaPlayer | agents.MinimaxPlayer = (
        agents.AlphaBetaPlayer(score_fn=samples.improved_score, max_depth=depth)
        if alphabeta
        else agents.MinimaxPlayer(search_depth=depth, score_fn=samples.improved_score)
    )
    seats = (player, "other") if me == 0 else ("other", player)
    row, col = player.get_move(
        board_from_state(state, seats[0], seats[1], rng=random.Random(seed)), never_late
    )
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
        t.Agent(agents.BestPlayer(nodes=100_000), "best"), t.Agent(samples.RandomPlayer(random.Random(1)), "Random"),
        pairs=3, seed=4, time_limit=10_000,  # a node budget: the outcome does not depend on the load
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


# ---- AB_Improved's fixed-depth proxy and trap play ---------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 14), st.integers(0, 10**6), st.integers(1, 3))
def test_model_plays_an_improved_score_minimax_move(plies: int, seed: int, depth: int) -> None:
    state = random_state(5, 5, plies, seed)
    if state.is_terminal():
        return
    me = state.ply % 2
    model = agents.ImprovedModel(5, 5)
    move = model.replies(state, (depth,))[0]
    best = max(minimax_ref(state.child(m), depth - 1, me) for m in state.legal_actions())
    # Equal value, unless the model saw a forced win that improved_score only counts as "own - 0".
    proven = model.engine.search(state, max_depth=depth).proven
    assert minimax_ref(state.child(move), depth - 1, me) == best or proven


def test_proxy_depths_and_player() -> None:
    assert [agents.proxy_depth(p) for p in (2, 9, 10, 19, 20, 40)] == [7, 7, 9, 9, 13, 13]
    state = random_state(7, 7, 12, 8)
    proxy = agents.ImprovedDepthPlayer()
    board = board_from_state(state, proxy, "x") if state.ply % 2 == 0 else board_from_state(state, "x", proxy)
    row, col = proxy.get_move(board, lambda: -1.0)  # ignores the clock
    assert row * 7 + col == proxy.choose(state) and (row, col) in board.get_legal_moves()
    assert agents.ImprovedDepthPlayer().choose(random_state(3, 3, 9, 0)) == -1


def test_best_with_a_node_budget_is_deterministic() -> None:
    state = random_state(7, 7, 8, 2)
    moves = [agents.BestPlayer(nodes=30_000).search(state, None) for _ in range(2)]
    assert moves[0] == moves[1] and moves[0] in state.legal_actions()


def lost_position() -> State:
    """A 7x7 position the best agent proves lost for the side to move, with several moves left."""
    for seed in range(200):
        state = random_state(7, 7, 14, seed)
        if state.is_terminal() or len(state.legal_actions()) < 2:
            continue
        result = agents.BestPlayer(trap=False).engine(7, 7).search(state, nodes=300_000)
        if result.proven and result.score < 0 and result.score > -fast.WIN + 8:
            return state
    raise AssertionError("no lost position found")


class ScriptedModel:
    """An opponent model that answers ``move`` with ``reply`` and every other move with ``default``."""

    def __init__(self, move: int, reply: int, default: dict[int, int]) -> None:
        self.move, self.reply, self.default, self.nodes = move, reply, default, 0

    def replies(self, state: State, depths: tuple[int, ...], deadline: float | None = None) -> list[int]:
        last = state.locs[1 - state.ply % 2]
        assert last is not None
        return [self.reply if last == self.move else self.default[last]] * len(depths)


def test_trap_move_plays_into_a_modelled_mistake() -> None:
    state = lost_position()
    solver = agents.BestPlayer(trap=False).engine(7, 7)
    refutations = {m: solver.search(state.child(m), nodes=300_000).move for m in state.legal_actions()}
    for move in state.legal_actions():
        for reply in state.child(move).legal_actions():
            if solver.search(state.child(move).child(reply), nodes=300_000).score >= fast.WON:
                player = agents.BestPlayer(nodes=10**6)
                player.engine(7, 7)
                player._models[7, 7] = ScriptedModel(move, reply, refutations)  # type: ignore[assignment]
                first = next(m for m in state.legal_actions() if m != move)
                assert player.trap_move(state, first, None, None) == move
                return
    raise AssertionError("the opponent has no mistake here")


def test_trap_move_respects_its_budget() -> None:
    state = lost_position()
    player = agents.BestPlayer(nodes=10**6)
    player.engine(7, 7)
    first = state.legal_actions()[0]
    chosen = player.trap_move(state, first, None, None)
    assert chosen in state.legal_actions()
    assert player.trap_move(state, first, None, 0) == first  # no budget: the first move stands


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


def test_proxy_bot_factory() -> None:
    bot = agents.make_ab_improved_depth(Isolation(), seed=1)
    state = random_state(7, 7, 10, 6)
    assert bot.act(state, TimeControl(nodes=10)).action == agents.ImprovedDepthPlayer().choose(state)


class Overrunner:
    """An AIND player that keeps searching until its clock reads past the limit."""

    def get_move(self, game: Board, time_left: TimeLeft) -> tuple[int, int]:
        while time_left() > -1.0:
            pass
        return game.get_legal_moves()[0]


def test_cpu_clock_times_moves_on_cpu_time() -> None:
    state = random_state(7, 7, 6, 2)
    clocked = t.CpuClock(agents.AlphaBetaPlayer(score_fn=samples.improved_score), limit=40.0)
    board = board_from_state(state, clocked, "x")
    assert clocked.get_move(board, lambda: -1.0) in board.get_legal_moves()  # the wall clock is ignored
    assert clocked.late == 0 and clocked.player.completed_depth >= 1
    late = t.CpuClock(Overrunner(), limit=5.0)
    late.get_move(board_from_state(state, late, "x"), never_late)
    assert late.late == 1
