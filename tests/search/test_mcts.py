"""UCT: forced wins found, limits kept, evaluators pluggable, chance handled."""

from __future__ import annotations

import random

import pytest

from gridarena.core.clock import TimeControl
from gridarena.core.types import TERMINAL
from gridarena.games.isolation.rules import State
from gridarena.search import MCTS, WIN, HeuristicValue, RandomRollout, minimax

from .positions import mobility, random_position
from .toygames import Nim, TreeGame, tree_heuristic


def uct(seed: int, c: float = 1.4) -> MCTS:
    return MCTS(RandomRollout(random.Random(seed)), c=c, rng=random.Random(seed))


@pytest.mark.parametrize("heap", [5, 6, 7, 9, 10, 11])
def test_finds_the_only_winning_move_in_nim(heap: int) -> None:
    state = Nim(2, heap, 3).new_initial_state()
    result = uct(heap).search(state, iterations=3000)
    assert result.best == heap % 4
    assert result.iterations == 3000 and sum(result.visits.values()) == 3000


def forced_win_positions(count: int) -> list[tuple[State, int]]:
    """Isolation positions with 3+ moves where exactly one wins by force, and not at once."""
    rng = random.Random(21)
    found: list[tuple[State, int]] = []
    while len(found) < count:
        state = random_position(rng, min_plies=6, max_plies=12)
        wins = [
            a
            for a in state.legal_actions()
            if minimax(state.child(a), 12, mobility, state.current_player()).score == WIN
        ]
        deep = len(wins) == 1 and state.child(wins[0]).current_player() != TERMINAL
        if deep and len(state.legal_actions()) > 2:
            found.append((state, wins[0]))
    return found


def test_finds_forced_wins_in_small_isolation_positions() -> None:
    for state, winning in forced_win_positions(6):
        assert uct(1).search(state, iterations=2000).best == winning


def test_three_players_take_the_immediate_win() -> None:
    state = Nim(3, heap=3, max_take=3).new_initial_state()
    assert uct(2).search(state, iterations=500).best == 3


def test_clock_limits_the_iterations() -> None:
    state = random_position(random.Random(4))
    result = uct(0).search(state, clock=TimeControl(nodes=50))
    assert result.iterations == 50
    assert result.nodes <= 51  # an iteration adds one node, none when it ends on a known terminal


def test_same_seed_same_search() -> None:
    state = random_position(random.Random(8))
    assert uct(3).search(state, iterations=300) == uct(3).search(state, iterations=300)


def test_heuristic_evaluator_and_chance_nodes() -> None:
    state = TreeGame(3, num_players=3, depth=6, chance_every=2).new_initial_state()
    search = MCTS(HeuristicValue(tree_heuristic, scale=WIN), rng=random.Random(0))
    result = search.search(state, iterations=400)
    assert result.best in state.legal_actions()
    assert sum(result.visits.values()) == 400


def test_rollout_cut_is_valued_zero() -> None:
    state = Nim(2, heap=30, max_take=1).new_initial_state()
    assert RandomRollout(random.Random(0), max_plies=5)(state) == (0.0, 0.0)
    finished = RandomRollout(random.Random(0))(state)
    assert finished == (-1.0, 1.0)  # 30 single stones: the second player takes the last one


def test_terminal_children_are_valued_by_returns() -> None:
    state = Nim(2, heap=2, max_take=2).new_initial_state()
    result = uct(5).search(state, iterations=200)
    assert result.best == 2
    assert state.child(2).current_player() == TERMINAL
    assert result.value == 1.0
