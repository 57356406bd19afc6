"""Isolation solved: the engine's proof search against oracles, the symmetries, the plan and the shipped 7x7 solution."""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from iso_states import random_state

from gridarena.games.isolation.fast import WIN, Engine
from gridarena.games.isolation.rules import State, knight_targets
from gridarena.games.isolation.solve import (
    OpeningResult,
    ProofPlan,
    Solution,
    SolutionError,
    all_openings,
    canonical,
    first_moves,
    inverse,
    replies,
    shipped_solution,
    solve_opening,
    symmetries,
)
from gridarena.search.minimax import minimax


@functools.cache
def exact(state: State) -> int:
    """The oracle: plies to the end with perfect play, positive if the mover wins (memoised negamax).

    The winner takes the quickest win and the loser the longest defence, as the engine's scores do.
    """
    moves = state.legal_actions()
    if not moves:
        return 0
    values = [exact(state.child(m)) for m in moves]
    wins = [1 - v for v in values if v <= 0]  # the child's mover loses (or is stuck): we win
    if wins:
        return min(wins)
    return -(max(values) + 1)


@functools.cache
def mover_wins(state: State) -> bool:
    """The oracle for who wins alone (memoised, stopping at the first winning move): 5x5 in seconds."""
    return any(not mover_wins(state.child(m)) for m in state.legal_actions())


# -- the engine's proof search -------------------------------------------------------------------


@settings(deadline=None, max_examples=40)
@given(st.sampled_from([(4, 4), (5, 4), (4, 5), (3, 5)]), st.integers(2, 12), st.integers(0, 10**6))
def test_prove_matches_the_oracle(size: tuple[int, int], plies: int, seed: int) -> None:
    state = random_state(*size, plies, seed)
    if state.is_terminal():
        return
    result = Engine(*size, tt_bits=12).prove(state)
    truth = exact(state)
    assert (result.score > 0) == (truth > 0)
    assert WIN - abs(result.score) >= abs(truth)  # a bound: never quicker than the truth
    if truth > 0:
        assert exact(state.child(result.move)) <= 0  # the move it names wins


@settings(deadline=None, max_examples=40)
@given(st.sampled_from([(4, 4), (5, 4)]), st.integers(2, 8), st.integers(0, 10**6), st.integers(1, 16))
def test_prove_with_a_threshold_asks_for_a_distance(
    size: tuple[int, int], plies: int, seed: int, k: int
) -> None:
    state = random_state(*size, plies, seed)
    if state.is_terminal():
        return
    engine, truth = Engine(*size, tt_bits=12), exact(state)
    wins_within = engine.prove(state, threshold=WIN - k).score >= WIN - k
    assert wins_within == (0 < truth <= k)
    avoids_losing_within = engine.prove(state, threshold=-(WIN - k) + 1).score >= -(WIN - k) + 1
    assert avoids_losing_within == (truth > 0 or -truth > k)


def test_prove_respects_its_budget() -> None:
    state = State(7, 7).child(24)
    result = Engine(7, 7, tt_bits=12).prove(state, nodes=5_000)
    assert (result.depth, result.score, result.move) == (0, 0, -1)
    assert result.nodes <= 5_000 + 1_024


def test_prove_on_a_finished_position() -> None:
    stuck = State(3, 3).child(4).child(0)  # the centre of 3x3 has no knight move
    result = Engine(3, 3, tt_bits=4).prove(stuck)
    assert result.score == -WIN and result.move == -1


# -- symmetries and the plan ------------------------------------------------------------------------


@pytest.mark.parametrize("size", [(7, 7), (6, 6), (5, 4), (4, 6)])
def test_symmetries_keep_knight_moves_and_form_a_group(size: tuple[int, int]) -> None:
    width, height = size
    group = set(symmetries(width, height))
    assert len(group) == (8 if width == height else 4)
    for s in group:
        assert sorted(s) == list(range(width * height))
        assert inverse(s) in group
        assert all(tuple(s[t[c]] for c in range(width * height)) in group for t in group)
        for cell in range(width * height):
            images = sorted(s[t] for t in knight_targets(cell, width, height))
            assert images == sorted(knight_targets(s[cell], width, height))


@pytest.mark.parametrize("size", [(7, 7), (6, 6), (5, 5), (5, 4)])
def test_openings_cover_every_pair_once(size: tuple[int, int]) -> None:
    width, height = size
    classes = {
        canonical(width, height, (f, r))[0]
        for f in range(width * height)
        for r in range(width * height)
        if f != r
    }
    assert classes == set(all_openings(width, height))
    assert {canonical(width, height, (c,))[0][0] for c in range(width * height)} == set(
        first_moves(width, height)
    )


def test_the_plan_tries_replies_until_one_refutes() -> None:
    plan = ProofPlan(5, 5)
    first, reply = plan.next()
    assert reply == plan.order(first)[0]
    plan.add(OpeningResult(first, reply, 1, -1, -999_990, 10, 0.1))
    assert plan.status(first) == "lost"
    assert plan.next() is not None and plan.next()[0] != first
    busy = {plan.next()}
    assert plan.next(busy) not in busy


def test_a_first_move_is_won_only_when_every_reply_is() -> None:
    plan = ProofPlan(4, 4)
    first = plan.firsts[0]
    for reply in plan.replies[first][:-1]:
        plan.add(OpeningResult(first, reply, 0, 0, 999_990, 1, 0.0))
        assert plan.status(first) is None
    plan.add(OpeningResult(first, plan.replies[first][-1], 0, 0, 999_990, 1, 0.0))
    assert plan.status(first) == "won" and plan.winner() == 0


# -- 5x5 and 6x6 solved completely -------------------------------------------------------------------


@functools.cache
def solved(width: int, height: int) -> ProofPlan:
    plan = ProofPlan(width, height, complete=True)
    for first, reply in all_openings(width, height):
        plan.add(solve_opening(width, height, first, reply, tt_bits=18))
    return plan


def test_5x5_every_opening_agrees_with_the_oracle() -> None:
    plan = solved(5, 5)
    for (first, reply), result in plan.results.items():
        state = State(5, 5).child(first).child(reply)
        assert result.winner == (0 if mover_wins(state) else 1), (first, reply)
        if result.winner == 0:
            assert not mover_wins(state.child(result.move))
    assert plan.winner() == (0 if mover_wins(State(5, 5)) else 1) == 1


def _minimax_winner(state: State) -> int:
    """The seat that wins ``state`` by plain minimax to the end (gridarena.search, no pruning, no table)."""
    score = minimax(state, state.width * state.height, lambda s, p: 0.0, player=0).score
    return 0 if score > 0 else 1


def test_5x5_openings_agree_with_plain_minimax_sample() -> None:
    plan = solved(5, 5)
    for first, reply in random.Random(5).sample(sorted(plan.results), 1):
        state = State(5, 5).child(first).child(reply)
        assert _minimax_winner(state) == plan.results[first, reply].winner


@pytest.mark.slow
def test_5x5_value_by_plain_minimax() -> None:
    """Every opening by plain minimax (about 8 minutes), and the empty board's value from them."""
    plan = solved(5, 5)
    winners = {}
    for first, reply in sorted(plan.results):
        winners[first, reply] = _minimax_winner(State(5, 5).child(first).child(reply))
        assert winners[first, reply] == plan.results[first, reply].winner
    first_wins = any(all(winners[f, r] == 0 for r in replies(5, 5, f)) for f in first_moves(5, 5))
    assert (0 if first_wins else 1) == plan.winner()


def test_5x5_and_6x6_roots_proved_directly_agree() -> None:
    for size in ((5, 5), (6, 6)):
        root = Engine(*size, tt_bits=18).prove(State(*size))
        assert (0 if root.score > 0 else 1) == solved(*size).winner() == 1


def test_6x6_openings_agree_with_iterative_deepening_sample() -> None:
    plan = solved(6, 6)
    engine = Engine(6, 6, tt_bits=18)
    for first, reply in random.Random(6).sample(sorted(plan.results), 4):
        engine.clear()
        result = engine.search(State(6, 6).child(first).child(reply))
        assert result.proven and (0 if result.score > 0 else 1) == plan.results[first, reply].winner


@pytest.mark.slow
def test_6x6_every_opening_agrees_with_iterative_deepening() -> None:
    plan = solved(6, 6)
    engine = Engine(6, 6, tt_bits=20)
    for (first, reply), expected in plan.results.items():
        engine.clear()
        result = engine.search(State(6, 6).child(first).child(reply))
        assert result.proven and (0 if result.score > 0 else 1) == expected.winner, (first, reply)


# -- the shipped 7x7 solution ---------------------------------------------------------------------


def test_the_7x7_solution_is_shipped_and_decided() -> None:
    solution = shipped_solution(7, 7)
    assert solution is not None
    assert solution.winner == 1
    assert len(solution.plan.results) == len(all_openings(7, 7))
    assert all(solution.plan.status(f) == "lost" for f in first_moves(7, 7))


def _reverify(result: OpeningResult, engine: Engine) -> None:
    engine.clear()
    state = State(7, 7).child(result.first).child(result.reply)
    proved = engine.prove(state)
    assert (0 if proved.score > 0 else 1) == result.winner, (result.first, result.reply)
    if result.winner == 0:
        engine.clear()
        assert engine.prove(state.child(result.move)).score < 0  # the stored move wins


def test_a_sample_of_the_7x7_results_reproduces() -> None:
    solution = shipped_solution(7, 7)
    assert solution is not None
    plan = solution.plan
    refutations = [plan.refutation(f) for f in plan.firsts]
    won = [r for r in plan.results.values() if r.winner == 0]
    sample = random.Random(7).sample([r for r in refutations if r is not None], 3) + random.Random(7).sample(
        won, 2
    )
    engine = Engine(7, 7, tt_bits=20)  # another table size than the solve's: another search order
    for result in sample:
        _reverify(result, engine)


@pytest.mark.slow
def test_every_7x7_result_reproduces() -> None:
    solution = shipped_solution(7, 7)
    assert solution is not None
    engine = Engine(7, 7, tt_bits=22)
    for result in solution.plan.results.values():
        _reverify(result, engine)


@pytest.mark.slow
@pytest.mark.timeout(7200)
def test_7x7_refutations_hold_by_iterative_deepening() -> None:
    """The proof's ten refutations by the engine's other search, which also finds the distance (minutes each)."""
    solution = shipped_solution(7, 7)
    assert solution is not None
    engine = Engine(7, 7, tt_bits=24, path_max=60, path_budget=200_000)
    for first in solution.plan.firsts:
        refutation = solution.plan.refutation(first)
        assert refutation is not None
        engine.clear()
        result = engine.search(State(7, 7).child(first).child(refutation.reply))
        assert result.proven and result.score < 0, first


def test_the_verdicts_follow_the_symmetries() -> None:
    solution = shipped_solution(7, 7)
    assert solution is not None
    rng = random.Random(3)
    for _ in range(20):
        first, reply = rng.sample(range(49), 2)
        verdict = solution.verdict(State(7, 7).child(first))
        assert verdict is not None and verdict.winner == 1 and verdict.move is not None
        refuted = State(7, 7).child(first).child(verdict.move)
        after = solution.verdict(refuted)
        assert after is not None and after.winner == 1
        two = solution.verdict(State(7, 7).child(first).child(reply))
        assert two is not None
        (f, r), _ = canonical(7, 7, (first, reply))
        assert two.winner == solution.plan.results[f, r].winner
        if two.winner == 0:
            assert two.move in State(7, 7).child(first).child(reply).legal_actions()
    assert solution.verdict(State(7, 7)).winner == 1
    assert solution.verdict(State(7, 7).child(0).child(1).child(10)) is None


def test_a_solution_file_round_trips(tmp_path: Path) -> None:
    plan = solved(5, 5)
    solution = Solution(5, 5, plan.results.values(), {"command": "x"})
    path = tmp_path / "s.json"
    solution.write(path)
    again = Solution.from_json(json.loads(path.read_text()))
    assert again.plan.results == solution.plan.results and again.winner == 1
    with pytest.raises(SolutionError, match="not a gridarena Isolation solution"):
        Solution.from_json({"format": "x"})
    with pytest.raises(SolutionError, match="not decided"):
        Solution(5, 5, list(plan.results.values())[:3])
