"""The best agent (the fast engine with AIND's interface and as a bot), AB_Improved's model and proxy, trap play."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from iso_states import minimax_ref, random_state

from gridarena.core.clock import TimeControl
from gridarena.core.registry import make_bot
from gridarena.games.isolation.ai.best import (
    BEST_NODES,
    BestPlayer,
    ImprovedDepthPlayer,
    ImprovedModel,
    proxy_depth,
)
from gridarena.games.isolation.aind import board_from_state
from gridarena.games.isolation.aind.adapter import AindBestPlayer, AindImprovedDepthPlayer
from gridarena.games.isolation.bots import make_ab_improved_depth, make_best
from gridarena.games.isolation.fast import WIN, WON, Engine
from gridarena.games.isolation.rules import Isolation, State
from gridarena.games.isolation.solve import canonical, shipped_solution


@pytest.mark.timing
def test_best_bot_meets_a_deadline() -> None:
    best = make_best(Isolation(), seed=2)
    state = State(9, 9).child(40)  # no solution is shipped for 9x9
    decision = best.act(state, TimeControl.for_seconds(0.06))
    assert decision.action in state.legal_actions() and decision.info["depth"] >= 1


def test_best_plays_the_solution_from_move_one() -> None:
    """7x7 is a second-player win: best refutes every first move from the book, then proves its moves."""
    best = make_best(Isolation(), seed=2)
    solution = shipped_solution(7, 7)
    assert solution is not None
    for first in range(49):
        state = State(7, 7).child(first)
        decision = best.act(state, TimeControl.for_seconds(0.06))
        assert decision.info["source"] == "book"
        opening = canonical(7, 7, (first, decision.action))[0]
        assert solution.plan.results[opening].winner == 1  # a stored refutation
    engine = Engine(7, 7, tt_bits=18)
    won = next(s for seed in range(100) if engine.prove(s := random_state(7, 7, 9, seed)).score > 0)
    decision = best.act(won, TimeControl.for_seconds(10))
    assert decision.info["source"] == "proof"  # past the book, the proof search finds a winning move
    assert engine.prove(won.child(decision.action)).score < 0


def test_best_player_finds_the_won_endgame() -> None:
    state = random_state(5, 5, 12, 5)
    while not state.is_terminal():
        best = AindBestPlayer()
        seats = (best, "x") if state.ply % 2 == 0 else ("x", best)
        row, col = best.get_move(board_from_state(state, *seats), lambda: 1e6)
        assert best.last is not None and best.last.proven  # 5x5 after 12 plies: solved outright
        state = state.apply_action(row * 5 + col)


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 14), st.integers(0, 10**6), st.integers(1, 3))
def test_model_plays_an_improved_score_minimax_move(plies: int, seed: int, depth: int) -> None:
    state = random_state(5, 5, plies, seed)
    if state.is_terminal():
        return
    me = state.ply % 2
    model = ImprovedModel(5, 5)
    move = model.replies(state, (depth,))[0]
    best = max(minimax_ref(state.child(m), depth - 1, me) for m in state.legal_actions())
    # Equal value, unless the model saw a forced win that improved_score only counts as "own - 0".
    proven = model.engine.search(state, max_depth=depth).proven
    assert minimax_ref(state.child(move), depth - 1, me) == best or proven


def test_proxy_depths_and_player() -> None:
    assert [proxy_depth(p) for p in (2, 9, 10, 19, 20, 40)] == [7, 7, 9, 9, 13, 13]
    state = random_state(7, 7, 12, 8)
    proxy = AindImprovedDepthPlayer()
    board = board_from_state(state, proxy, "x") if state.ply % 2 == 0 else board_from_state(state, "x", proxy)
    row, col = proxy.get_move(board, lambda: -1.0)  # ignores the clock
    assert row * 7 + col == proxy.choose(state) and (row, col) in board.get_legal_moves()
    assert ImprovedDepthPlayer().choose(random_state(3, 3, 9, 0)) == -1


def test_best_with_a_node_budget_is_deterministic() -> None:
    state = random_state(7, 7, 8, 2)
    moves = [BestPlayer(nodes=30_000).search(state, None) for _ in range(2)]
    assert moves[0] == moves[1] and moves[0] in state.legal_actions()


def lost_position() -> State:
    """A 7x7 position the best agent proves lost for the side to move, with several moves left."""
    for seed in range(200):
        state = random_state(7, 7, 14, seed)
        if state.is_terminal() or len(state.legal_actions()) < 2:
            continue
        result = BestPlayer(trap=False).engine(7, 7).search(state, nodes=300_000)
        if result.proven and result.score < 0 and result.score > -WIN + 8:
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
    solver = BestPlayer(trap=False).engine(7, 7)
    refutations = {m: solver.search(state.child(m), nodes=300_000).move for m in state.legal_actions()}
    for move in state.legal_actions():
        for reply in state.child(move).legal_actions():
            if solver.search(state.child(move).child(reply), nodes=300_000).score >= WON:
                player = BestPlayer(nodes=10**6)
                player.engine(7, 7)
                player._models[7, 7] = ScriptedModel(move, reply, refutations)  # type: ignore[assignment]
                first = next(m for m in state.legal_actions() if m != move)
                assert player.trap_move(state, first, None, None) == move
                return
    raise AssertionError("the opponent has no mistake here")


def test_trap_move_respects_its_budget() -> None:
    state = lost_position()
    player = BestPlayer(nodes=10**6)
    player.engine(7, 7)
    first = state.legal_actions()[0]
    chosen = player.trap_move(state, first, None, None)
    assert chosen in state.legal_actions()
    assert player.trap_move(state, first, None, 0) == first  # no budget: the first move stands


def test_proxy_bot_factory() -> None:
    bot = make_ab_improved_depth(Isolation(), seed=1)
    state = random_state(7, 7, 10, 6)
    assert bot.act(state, TimeControl(nodes=10)).action == ImprovedDepthPlayer().choose(state)


def test_best_nodes_plays_to_its_node_budget() -> None:
    state = random_state(7, 7, 8, 2)
    moves = [make_bot(Isolation(), "best_nodes").act(state, TimeControl.for_seconds(60.0)) for _ in range(2)]
    assert moves[0].action == moves[1].action and moves[0].info["nodes"] <= BEST_NODES + 1_024
    assert make_bot(Isolation(), "best(nodes=5000)").act(state, TimeControl()).info["nodes"] <= 5_000 + 1_024


@pytest.mark.slow
def test_best_keeps_every_won_seat_on_7x7_from_move_one() -> None:
    """As the second player (the won seat), best_nodes plays only winning moves against random first players."""
    import random

    best = make_bot(Isolation(), "best_nodes")
    judge = Engine(7, 7, tt_bits=22)
    rng = random.Random(7)
    for _ in range(30):
        state = State(7, 7)
        while not state.is_terminal():
            if state.ply % 2 == 0:
                state = state.child(rng.choice(state.legal_actions()))
                continue
            move = best.act(state, TimeControl()).action
            state = state.child(move)
            judge.clear()
            assert state.is_terminal() or judge.prove(state).score < 0, state  # the first player is lost
