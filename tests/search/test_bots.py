"""The search bots: legal answers under every kind of limit, info, determinism, refusals."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from gridarena.bots.search_bots import (
    make_alphabeta_bot,
    make_brs_bot,
    make_maxn_bot,
    make_mcts_bot,
    make_minimax_bot,
    make_paranoid_bot,
    resolve_heuristic,
)
from gridarena.core.bot import Bot
from gridarena.core.clock import TimeControl
from gridarena.core.errors import UnknownNameError
from gridarena.core.types import TERMINAL
from gridarena.games.isolation.rules import Isolation
from gridarena.search import UnsupportedGameError, minimax

from .positions import mobility, random_position
from .toygames import Nim

TWO_PLAYER_FACTORIES = [
    make_minimax_bot,
    make_alphabeta_bot,
    make_paranoid_bot,
    make_maxn_bot,
    make_brs_bot,
]


def neutral(state: Any, player: int) -> float:
    """An evaluation that knows nothing: only the ends of games count."""
    return 0.0


def build(factory: Any, game: Any, heuristic: Any = mobility, **options: Any) -> Any:
    if factory is make_mcts_bot:
        return factory(game, iterations=200, seed=1, **options)
    return factory(game, heuristic=heuristic, seed=1, **options)


@pytest.mark.parametrize("factory", [*TWO_PLAYER_FACTORIES, make_mcts_bot])
def test_bots_answer_legal_moves_deterministically_under_a_node_budget(factory: Any) -> None:
    rng = random.Random(3)
    for _ in range(5):
        state = random_position(rng)
        bot = build(factory, state.game)
        assert isinstance(bot, Bot)
        bot.reset(state.game, state.current_player(), 9)
        first = bot.act(state, TimeControl(nodes=3000))
        bot.reset(state.game, state.current_player(), 9)
        second = bot.act(state, TimeControl(nodes=3000))
        assert first == second
        assert first.action in state.legal_actions()
        assert 0 < first.info["nodes"] <= 3001


@pytest.mark.parametrize("factory", TWO_PLAYER_FACTORIES)
def test_deepening_bots_report_the_minimax_score_of_their_depth(factory: Any) -> None:
    rng = random.Random(5)
    for _ in range(5):
        state = random_position(rng)
        decision = build(factory, state.game, depth=3).act(state, TimeControl())
        depth = decision.info["depth"]
        assert 1 <= depth <= 3
        expected = minimax(state, depth, mobility)
        assert decision.info["score"] == expected.score
        child_value = minimax(state.child(decision.action), depth - 1, mobility, state.current_player())
        assert child_value.score == expected.score  # the action played achieves the score


@pytest.mark.parametrize("factory", TWO_PLAYER_FACTORIES)
def test_no_completed_depth_falls_back_to_a_legal_action(factory: Any) -> None:
    state = random_position(random.Random(1))
    decision = build(factory, state.game).act(state, TimeControl(nodes=0))
    assert decision.action == state.legal_actions()[0]
    assert decision.info["depth"] == 0


@pytest.mark.timing
def test_alphabeta_bot_keeps_its_deadline() -> None:
    state = Isolation(7, 7).new_initial_state().child(24).child(10)
    bot = make_alphabeta_bot(state.game, heuristic=mobility)
    start = time.perf_counter()
    decision = bot.act(state, TimeControl.for_seconds(0.05))
    elapsed = time.perf_counter() - start
    assert decision.action in state.legal_actions()
    assert decision.info["depth"] >= 1
    assert elapsed < 0.5  # the clock is read every 1,024 nodes: far less than this overshoot


def test_the_alphabeta_table_lives_for_one_game() -> None:
    state = random_position(random.Random(2))
    bot = make_alphabeta_bot(state.game, heuristic=mobility, depth=4)
    bot.act(state, TimeControl())
    assert bot.tables and len(bot.tables[state.current_player()]) > 0
    bot.reset(state.game, 0, 1)
    assert not bot.tables
    assert not make_alphabeta_bot(state.game, heuristic=mobility, tt=False).tables


def play_out(bots: list[Any], state: Any) -> Any:
    for seat, bot in enumerate(bots):
        bot.reset(state.game, seat, seat)
    while state.current_player() != TERMINAL:
        decision = bots[state.current_player()].act(state, TimeControl(nodes=2000))
        assert decision.action in state.legal_actions()
        state = state.child(decision.action)
    return state


@pytest.mark.parametrize("factory", [make_paranoid_bot, make_maxn_bot, make_brs_bot, make_mcts_bot])
def test_multi_player_bots_play_three_player_nim(factory: Any) -> None:
    game = Nim(3, heap=11, max_take=3)
    final = play_out([build(factory, game, neutral) for _ in range(3)], game.new_initial_state())
    assert sorted(final.returns()) == [-0.5, -0.5, 1.0]


def test_searching_bots_win_two_player_nim_from_a_winning_start() -> None:
    game = Nim(2, heap=10, max_take=3)  # 10 is not a multiple of 4: the first player wins
    winners = [
        make_alphabeta_bot(game, heuristic=neutral),
        make_brs_bot(game, heuristic=neutral),
        make_paranoid_bot(game, heuristic=neutral),
        make_mcts_bot(game, iterations=3000, seed=4),
    ]
    for bot in winners:
        opponent = make_mcts_bot(game, iterations=50, seed=2)
        assert play_out([bot, opponent], game.new_initial_state()).returns()[0] == 1.0


def test_two_player_bots_refuse_three_players() -> None:
    for factory in (make_alphabeta_bot, make_minimax_bot):
        with pytest.raises(UnsupportedGameError, match="needs 2 players"):
            factory(Nim(3), heuristic=mobility)


def test_heuristic_names_go_through_the_registry() -> None:
    assert resolve_heuristic(Nim(2), mobility) is mobility
    with pytest.raises(UnknownNameError):
        resolve_heuristic(Nim(2), "improved")  # "nim" is not a registered game


def test_isolation_heuristics_by_name() -> None:
    from gridarena.core import registry
    from gridarena.games.isolation.ai import heuristics

    game = Isolation(5, 5)
    assert registry.evaluators(game.name)["improved"] is heuristics.improved
    assert resolve_heuristic(game, "improved") is heuristics.improved
    bot = make_alphabeta_bot(game, heuristic="improved", depth=2)
    state = game.new_initial_state().child(12).child(6)
    assert bot.act(state, TimeControl()).info["depth"] == 2


SEARCH_BOTS = ("minimax", "alphabeta", "paranoid", "maxn", "brs", "mcts")


@pytest.mark.parametrize("name", SEARCH_BOTS)
def test_the_catalogue_entries_build_search_bots(name: str) -> None:
    from gridarena.core import registry

    game = Isolation(4, 4)
    entry = registry.bot_entry(game.name, name)
    assert entry.factory == f"gridarena.bots.search_bots:make_{name}_bot"
    bot = registry.make_bot(game, f"{name}(seed=1)")
    assert bot.name == name and isinstance(bot, Bot)


def test_mcts_bot_with_a_heuristic_evaluator() -> None:
    state = random_position(random.Random(6))
    bot = make_mcts_bot(state.game, iterations=300, rollout=mobility, scale=4.0, seed=3)
    decision = bot.act(state, TimeControl())
    assert decision.action in state.legal_actions()
    assert decision.info["iterations"] == 300
