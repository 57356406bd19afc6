"""Minimax, alpha-beta, tables, deepening, paranoid, BRS and max^n against each other and known values."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gridarena.core.clock import TimeControl
from gridarena.core.types import TERMINAL
from gridarena.games.isolation.ai.heuristics import improved
from gridarena.search import (
    WIN,
    AlphaBeta,
    InvalidBoundsError,
    TranspositionTable,
    UnsupportedGameError,
    alphabeta,
    alphabeta_deepening,
    brs,
    last,
    maxn,
    minimax,
    paranoid,
    paranoid_deepening,
)

from .positions import mobility, random_position, random_positions, scrambled_value
from .toygames import Nim, TreeGame, tree_heuristic

# AIND's improved score returns +-inf before the game is over (the side not to move is stuck).
EVALUATIONS = [mobility, scrambled_value, improved]


def tree_size(state: Any, depth: int) -> int:
    """The number of states in the game tree below ``state`` cut at ``depth`` plies."""
    if depth == 0 or state.current_player() == TERMINAL:
        return 1
    return 1 + sum(tree_size(state.child(a), depth - 1) for a in state.legal_actions())


def test_alphabeta_equals_minimax_on_1000_isolation_positions() -> None:
    pruned = 0
    for index, (state, depth) in enumerate(random_positions(1000, seed=7)):
        evaluate = EVALUATIONS[index % 3]
        player = state.current_player() if index % 5 else 1 - state.current_player()
        expected = minimax(state, depth, evaluate, player)
        result = alphabeta(state, depth, evaluate, player)
        assert result.score == expected.score, (state, depth)
        assert result.nodes <= expected.nodes
        pruned += result.nodes < expected.nodes
    assert pruned > 300  # the comparison is not vacuous: alpha-beta did cut in many positions


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 5), st.sampled_from(EVALUATIONS), st.booleans())
def test_alphabeta_variants_keep_the_minimax_value(
    seed: int, depth: int, evaluate: Any, history: bool
) -> None:
    state = random_position(random.Random(seed))
    expected = minimax(state, depth, evaluate).score
    assert alphabeta(state, depth, evaluate, tt=TranspositionTable(), history=history).score == expected
    if math.isfinite(expected):  # inside a window that contains it, the value is exact
        assert alphabeta(state, depth, evaluate, alpha=expected - 0.5, beta=expected + 0.5).score == expected


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 5))
def test_minimax_nodes_are_the_exact_tree_size(seed: int, depth: int) -> None:
    state = random_position(random.Random(seed), min_plies=2)
    assert minimax(state, depth, mobility).nodes == tree_size(state, depth)


def test_minimax_nodes_known_count_on_an_empty_board() -> None:
    # 3x3 board: 9 placements, then 8 replies: 1 + 9 + 72 states to depth 2.
    from gridarena.games.isolation.rules import Isolation

    assert minimax(Isolation(3, 3).new_initial_state(), 2, mobility).nodes == 82


def test_transposition_table_leaves_every_value_unchanged() -> None:
    for index, (state, depth) in enumerate(random_positions(300, seed=11)):
        evaluate = EVALUATIONS[index % 3]
        expected = minimax(state, depth, evaluate)
        table = TranspositionTable()
        first = alphabeta(state, depth, evaluate, tt=table)
        again = alphabeta(state, depth, evaluate, tt=table)  # answered mostly from the table
        assert first.score == again.score == expected.score
        assert again.nodes <= first.nodes


def test_deepening_with_table_and_aspiration_matches_minimax_at_every_depth() -> None:
    for index, (state, _) in enumerate(random_positions(120, seed=3)):
        evaluate = EVALUATIONS[index % 3]
        progress = list(
            alphabeta_deepening(state, evaluate, TimeControl(depth=5), aspiration=3.0, history=True)
        )
        assert [p.depth for p in progress] == list(range(1, len(progress) + 1))
        for step in progress:
            assert step.score == minimax(state, step.depth, evaluate).score, (state, step.depth)
        if progress[-1].exact:  # ended early: the game's value is known
            assert abs(progress[-1].score) == WIN


def hopeless(state: Any, player: int) -> float:
    return -math.inf


def test_a_best_action_even_when_every_value_is_minus_infinity() -> None:
    state = random_position(random.Random(9))
    for search in (minimax, alphabeta, paranoid, brs, maxn):
        result = search(state, 2, hopeless)
        assert result.best == state.legal_actions()[0], search
    progress = list(alphabeta_deepening(state, hopeless, TimeControl(depth=3)))
    assert [p.best for p in progress] == [state.legal_actions()[0]] * len(progress)


def test_one_table_reused_along_a_game() -> None:
    """A bot keeps its table from move to move: values stay those of a fresh search."""
    rng = random.Random(5)
    state = random_position(rng, min_plies=2, max_plies=2)
    table = TranspositionTable()
    player = state.current_player()
    while state.current_player() != TERMINAL:
        if state.current_player() == player:
            result = last(alphabeta_deepening(state, mobility, TimeControl(depth=4), tt=table))
            assert result is not None
            assert result.score == minimax(state, result.depth, mobility).score
        state = state.child(rng.choice(state.legal_actions()))


def test_a_table_serves_one_player_and_evaluation() -> None:
    table = TranspositionTable()
    AlphaBeta(mobility, 0, table)
    with pytest.raises(UnsupportedGameError, match="one table per player"):
        AlphaBeta(mobility, 1, table)


def test_table_capacity_empties_when_full() -> None:
    table = TranspositionTable(capacity=10)
    state = random_position(random.Random(1))
    alphabeta(state, 4, mobility, tt=table)
    assert 0 < len(table) <= 10


@pytest.mark.parametrize("heap", range(1, 13))
def test_nim_values_are_known(heap: int) -> None:
    """Two-player Nim, take 1-3: the player to move wins iff the heap is not a multiple of 4."""
    state = Nim(2, heap, 3).new_initial_state()
    expected = -WIN if heap % 4 == 0 else WIN
    assert minimax(state, heap, mobility).score == expected
    result = alphabeta(state, heap, mobility)
    assert result.score == expected and result.exact
    if heap % 4:
        assert result.best == heap % 4  # the only winning move: leave a multiple of 4


def test_paranoid_equals_alphabeta_with_two_players() -> None:
    for index, (state, depth) in enumerate(random_positions(300, seed=13)):
        evaluate = EVALUATIONS[index % 3]
        expected = alphabeta(state, depth, evaluate)
        assert paranoid(state, depth, evaluate) == expected
        assert brs(state, depth, evaluate).score == expected.score


@pytest.mark.parametrize("seed", range(30))
def test_paranoid_equals_minimax_with_three_players(seed: int) -> None:
    state = TreeGame(seed, num_players=3, depth=6).new_initial_state()
    for depth in (2, 4, 6):
        assert paranoid(state, depth, tree_heuristic).score == minimax(state, depth, tree_heuristic).score
    progress = list(paranoid_deepening(state, tree_heuristic, TimeControl()))
    assert progress[-1].exact and progress[-1].score == minimax(state, 6, tree_heuristic).score


def test_alphabeta_refuses_three_players() -> None:
    with pytest.raises(UnsupportedGameError, match="needs 2 players"):
        alphabeta(Nim(3).new_initial_state(), 2, mobility)


def maxn_oracle(state: Any, depth: int) -> tuple[float, ...]:
    """Max^n written as plainly as possible (first best child on ties)."""
    mover = state.current_player()
    if mover == TERMINAL:
        return tuple(r * WIN for r in state.returns())
    if mover < 0:  # chance
        vectors = [(p, maxn_oracle(state.child(o), depth)) for o, p in state.chance_outcomes()]
        return tuple(sum(p * v[i] for p, v in vectors) for i in range(state.game.num_players))
    if depth == 0:
        return tuple(tree_heuristic(state, p) for p in range(state.game.num_players))
    best = None
    for action in state.legal_actions():
        vector = maxn_oracle(state.child(action), depth - 1)
        if best is None or vector[mover] > best[mover]:
            best = vector
    assert best is not None
    return best


@pytest.mark.parametrize("seed", range(40))
def test_maxn_shallow_pruning_changes_nothing(seed: int) -> None:
    players = 3 + seed % 2
    state = TreeGame(seed, num_players=players, branching=4, depth=6).new_initial_state()
    for depth in (1, 3, 6):
        plain = maxn(state, depth, tree_heuristic)
        pruned = maxn(state, depth, tree_heuristic, bounds=(0.0, WIN))
        assert plain.values == pruned.values == maxn_oracle(state, depth)
        assert plain.best == pruned.best
        assert pruned.nodes <= plain.nodes == tree_size(state, depth)


def test_maxn_pruning_cuts_something() -> None:
    saved = 0
    for seed in range(40):
        state = TreeGame(seed, num_players=3, branching=4, depth=6).new_initial_state()
        saved += (
            maxn(state, 6, tree_heuristic).nodes - maxn(state, 6, tree_heuristic, bounds=(0.0, WIN)).nodes
        )
    assert saved > 0


def test_maxn_refuses_leaves_outside_the_promised_bounds() -> None:
    state = TreeGame(1, num_players=3).new_initial_state()
    with pytest.raises(InvalidBoundsError, match="break the max"):
        maxn(state, 2, tree_heuristic, bounds=(0.0, 1.0))


def test_maxn_with_two_players_and_a_zero_sum_evaluation_is_minimax() -> None:
    for state, depth in random_positions(200, seed=17, max_depth=4):
        assert maxn(state, depth, scrambled_value).score == minimax(state, depth, scrambled_value).score


@pytest.mark.parametrize("seed", range(20))
def test_chance_nodes_take_the_expectation(seed: int) -> None:
    game = TreeGame(seed, num_players=2, branching=3, depth=6, chance_every=3)
    state = game.new_initial_state()
    for depth in (2, 4, 6):
        expected = minimax(state, depth, tree_heuristic)
        assert alphabeta(state, depth, tree_heuristic).score == expected.score
        assert alphabeta(state, depth, tree_heuristic, tt=TranspositionTable()).score == expected.score
        assert maxn(state, depth, tree_heuristic).values == maxn_oracle(state, depth)
    with pytest.raises(UnsupportedGameError, match="chance"):
        brs(state, 6, tree_heuristic)


def test_chance_expectation_by_hand() -> None:
    game = TreeGame(4, num_players=2, branching=2, depth=2, chance_every=2)  # a move, then chance
    state = game.new_initial_state()
    values = []
    for action in state.legal_actions():
        child = state.child(action)
        values.append(sum(p * child.child(o).returns()[0] * WIN for o, p in child.chance_outcomes()))
    assert math.isclose(minimax(state, 1, tree_heuristic).score, max(values))


def brs_oracle(search: Any, state: Any, depth: int) -> float:
    """BRS without pruning, over the same replies."""
    mover = state.current_player()
    if mover == TERMINAL:
        return float(state.returns()[search.player] * WIN)
    if depth == 0:
        return tree_heuristic(state, search.player)
    if mover == search.player:
        return max(brs_oracle(search, state.child(a), depth - 1) for a in state.legal_actions())
    return min(brs_oracle(search, reply, depth - 1) for reply in search.replies(state))


@pytest.mark.parametrize("seed", range(30))
def test_brs_pruning_matches_the_plain_recursion(seed: int) -> None:
    from gridarena.search.brs import _BestReply

    state = TreeGame(seed, num_players=3, branching=3, depth=8).new_initial_state()
    oracle = _BestReply(tree_heuristic, 0, None)
    for depth in (1, 2, 3, 4):
        assert brs(state, depth, tree_heuristic).score == brs_oracle(oracle, state, depth)


def test_brs_replies_let_one_opponent_choose() -> None:
    """Three-player Nim: after our move, each opponent in turn gets to pick any move."""
    from gridarena.search.brs import _BestReply

    state = Nim(3, heap=9, max_take=2).new_initial_state().child(1)  # player 1 to move, heap 8
    search = _BestReply(lambda s, p: 0.0, 0, None)
    replies = list(search.replies(state))
    # Player 1 chooses (2 moves, player 2 fixed), then player 2 chooses after player 1's fixed move.
    assert len(replies) in (3, 4)
    assert all(r.current_player() in (0, TERMINAL) for r in replies)
