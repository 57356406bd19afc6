"""AIND's agents (MinimaxPlayer, AlphaBetaPlayer) and the AIND players as registry bots."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from iso_states import minimax_ref, random_state

from gridarena.core.clock import TimeControl
from gridarena.core.registry import make_bot
from gridarena.games.isolation.aind import AgentLoadError, Board, TimeLeft, board_from_state, samples
from gridarena.games.isolation.aind.agents import AlphaBetaPlayer, CpuClock, MinimaxPlayer
from gridarena.games.isolation.bots import make_ab_custom_3, make_ab_improved, make_random
from gridarena.games.isolation.rules import Isolation, State

BOT_NAMES = [
    "random", "mm_open", "mm_center", "mm_improved", "ab_open", "ab_center", "ab_improved",
    "ab_custom", "ab_custom_2", "ab_custom_3", "ab_custom_4", "best",
]  # fmt: skip


def never_late() -> float:
    return math.inf


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 20), st.integers(0, 10**6), st.integers(1, 3), st.booleans())
def test_searches_return_a_minimax_best_move(plies: int, seed: int, depth: int, alphabeta: bool) -> None:
    state = random_state(5, 5, plies, seed)
    if state.is_terminal():
        return
    me = state.ply % 2
    player: AlphaBetaPlayer | MinimaxPlayer = (
        AlphaBetaPlayer(score_fn=samples.improved_score, max_depth=depth)
        if alphabeta
        else MinimaxPlayer(search_depth=depth, score_fn=samples.improved_score)
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
    minimax = MinimaxPlayer()
    board = board_from_state(state, minimax, "x")
    assert minimax.get_move(board, lambda: 5.0) == (-1, -1)  # below the 10 ms threshold: AIND's forfeit
    alphabeta = AlphaBetaPlayer()
    board = board_from_state(state, alphabeta, "x")
    move = alphabeta.get_move(board, lambda: 5.0)
    assert move in board.get_legal_moves() and alphabeta.completed_depth == 0  # fallback: a legal move


@pytest.mark.timing
def test_alphabeta_stops_on_time() -> None:
    import time

    state = random_state(7, 7, 2, 3)
    player = AlphaBetaPlayer(timeout=10.0)
    board = board_from_state(state, player, "x")
    start = time.perf_counter()
    deadline = start + 0.05
    move = player.get_move(board, lambda: 1000 * (deadline - time.perf_counter()))
    assert time.perf_counter() - start < 0.1 and move in board.get_legal_moves()  # 50 ms, plus a busy CI
    assert player.completed_depth >= 1


@pytest.mark.parametrize("name", BOT_NAMES)
def test_bot_factories(name: str) -> None:
    game = Isolation()
    bot = make_bot(game, name, seed=3)
    bot.reset(game, 0, 3)
    state = random_state(7, 7, 4, 9)
    decision = bot.act(state, TimeControl(depth=2, nodes=50_000))
    assert decision.action in state.legal_actions()
    if name not in {"random"}:
        assert decision.info["depth"] == 2 or name.startswith("mm")


def test_bots_are_deterministic_with_a_node_budget() -> None:
    state = random_state(7, 7, 6, 4)
    first = make_ab_improved(Isolation(), seed=1).act(state, TimeControl(nodes=800))
    second = make_ab_improved(Isolation(), seed=1).act(state, TimeControl(nodes=800))
    assert first == second and first.info["depth"] >= 1


def test_bot_plays_placements() -> None:
    bot = make_ab_custom_3(Isolation(), seed=2)
    decision = bot.act(State(7, 7), TimeControl.for_seconds(0.05))
    assert decision.action in range(49)


def test_board_round_trip_through_bot() -> None:
    state = random_state(7, 7, 8, 2)
    board = board_from_state(state, "a", "b")
    assert isinstance(board, Board) and board.move_count == state.ply


def test_random_bot_follows_its_seed() -> None:
    state = random_state(7, 7, 4, 1)
    bot = make_random(Isolation(), seed=1)
    picks = []
    for _ in range(2):
        bot.reset(Isolation(), 0, 99)
        picks.append([bot.act(state, TimeControl()).action for _ in range(5)])
    assert picks[0] == picks[1] and all(p in state.legal_actions() for p in picks[0])


class Overrunner:
    """An AIND player that keeps searching until its clock reads past the limit."""

    def get_move(self, game: Board, time_left: TimeLeft) -> tuple[int, int]:
        while time_left() > -1.0:
            pass
        return game.get_legal_moves()[0]


def test_cpu_clock_times_moves_on_cpu_time() -> None:
    state = random_state(7, 7, 6, 2)
    clocked = CpuClock(AlphaBetaPlayer(score_fn=samples.improved_score), limit=40.0)
    board = board_from_state(state, clocked, "x")
    assert clocked.get_move(board, lambda: -1.0) in board.get_legal_moves()  # the wall clock is ignored
    assert clocked.late == 0 and clocked.player.completed_depth >= 1
    late = CpuClock(Overrunner(), limit=5.0)
    late.get_move(board_from_state(state, late, "x"), never_late)
    assert late.late == 1


AGENT_FILE = Path(__file__).parent / "data" / "aind_agent" / "game_agent.py"


def test_aind_bot_plays_an_agent_file_s_player() -> None:
    spec = f"aind(file={str(AGENT_FILE)!r},player=AlphaBetaPlayer,score=custom_score_2)"
    bot = make_bot(Isolation(), spec, seed=5)
    assert type(bot.player).__module__.startswith("_aind_agent_game_agent")
    assert bot.player.score.__name__ == "custom_score_2"
    state = random_state(7, 7, 6, 3)
    assert bot.act(state, TimeControl(nodes=2_000)).action in state.legal_actions()
    cpu_opponent = make_bot(
        Isolation(), f"aind(file={str(AGENT_FILE)!r},player=MinimaxPlayer,score=center_score)"
    )
    assert (
        cpu_opponent.player.score is samples.center_score
    )  # from the sample_players the file was loaded with
    with pytest.raises(AgentLoadError, match="no 'custom_score_9'"):
        make_bot(Isolation(), f"aind(file={str(AGENT_FILE)!r},score=custom_score_9)")


def test_aind_bot_defaults_to_gridarena_s_players() -> None:
    random_player = make_bot(Isolation(), "aind(player=RandomPlayer)")
    random_player.reset(Isolation(), 0, 7)
    state = random_state(7, 7, 4, 2)
    assert random_player.player.rng is random_player.rng  # seeded by the game, not the shared generator
    assert random_player.act(state, TimeControl()).action in state.legal_actions()
    preset, general = (
        make_bot(Isolation(), "mm_center"),
        make_bot(Isolation(), "aind(player=MinimaxPlayer,score=center_score)"),
    )
    assert (type(preset.player), preset.player.score) == (type(general.player), general.player.score)


def test_ab_improved_on_its_cpu_clock_reports_its_search() -> None:
    bot = make_bot(Isolation(), "ab_improved_cpu(limit=40)", seed=1)
    state = random_state(7, 7, 6, 2)
    decision = bot.act(state, TimeControl.for_seconds(60.0))
    assert decision.action in state.legal_actions() and decision.info["depth"] >= 1
