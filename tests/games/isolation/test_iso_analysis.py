"""Isolation's analyser against the memoised reference solver on 5x5, and exact on 7x7 from the first move."""

from __future__ import annotations

import functools
import random

from gridarena import make
from gridarena.arena.analysis import analyze_positions, graph
from gridarena.games.isolation.rules import State


@functools.cache
def mover_wins(state: State) -> bool:
    return any(not mover_wins(state.child(m)) for m in state.legal_actions())


@functools.cache
def distance(state: State) -> int:
    """Plies to the end with perfect play, positive if the mover wins (quickest win, longest defence)."""
    moves = state.legal_actions()
    if not moves:
        return 0
    values = [distance(state.child(m)) for m in moves]
    wins = [1 - v for v in values if v <= 0]
    return min(wins) if wins else -(max(values) + 1)


def _games(width: int, height: int, count: int, seed: int) -> list[list[State]]:
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        state, states = State(width, height), [State(width, height)]
        while not state.is_terminal():
            state = state.child(rng.choice(state.legal_actions()))
            states.append(state)
        games.append(states)
    return games


def test_isolation_marks_agree_with_the_reference_solver_on_5x5() -> None:
    game = make("isolation(width=5,height=5)")
    checked = 0
    for states in _games(5, 5, 6, seed=11):
        actions = [states[i + 1].locs[i % 2] for i in range(len(states) - 1)]
        analysis = analyze_positions(game, states, actions, ["a", "b"], seconds=5.0)
        assert analysis.complete and len(analysis.plies) == len(actions)
        for p in analysis.plies:
            before, after = states[p.ply], states[p.ply + 1]
            won_before, won_after = mover_wins(before), not mover_wins(after)
            assert p.before.exact and p.after.exact, p.ply
            assert (p.before.value > 0) == won_before and (p.after.value > 0) == won_after, p.ply
            assert (p.mark == "blunder") == (won_before and not won_after), p.ply
            if p.ply >= 6:  # exact distances as well (the oracle's memory grows fast before)
                d_before, d_after = distance(before), -distance(after)
                if p.before.plies is not None:
                    assert p.before.plies == abs(d_before), p.ply
                if p.after.plies is not None:
                    assert p.after.plies == abs(d_after), p.ply
                if p.before.plies is not None and p.after.plies is not None:
                    slower = d_before > 0 and d_after > 0 and d_after > d_before - 1
                    faster = d_before < 0 and d_after < 0 and -d_after < -d_before - 1
                    assert (p.mark == "slower") == slower and (p.mark == "faster") == faster, p.ply
                    checked += 1
    assert checked > 20


def test_isolation_analysis_of_7x7_is_exact_from_move_one() -> None:
    """The shipped solution answers the first plies; the proof search the rest, within a second."""
    game = make("isolation")
    states = _games(7, 7, 1, seed=5)[0][:6]
    actions = [states[i + 1].locs[i % 2] for i in range(len(states) - 1)]
    analysis = analyze_positions(game, states, actions, ["a", "b"], seconds=2.0)
    assert all(p.before.exact and p.after.exact for p in analysis.plies)
    assert analysis.plies[0].before.value == -1.0  # the first player is lost from the empty board


def test_two_player_graphs_show_the_first_players_view() -> None:
    game = make("isolation(width=5,height=5)")
    states = _games(5, 5, 1, seed=2)[0]
    actions = [states[i + 1].locs[i % 2] for i in range(len(states) - 1)]
    analysis = analyze_positions(game, states, actions, ["a", "b"], seconds=2.0)
    (series,) = graph(game, analysis.kind, analysis.plies, 2)
    points = {p[0]: p[1] for p in series["points"]}
    assert sorted(points) == list(range(len(states)))
    for n, state in enumerate(states[:-1]):
        assert (points[n] > 0) == (mover_wins(state) == (n % 2 == 0))


def test_a_search_cut_off_before_its_first_depth_is_no_result() -> None:
    """Found on the viewer's graph: with almost no time, the search's starting score (-WIN, no depth
    searched) was read as a proven loss in 0 plies."""
    from gridarena.games.isolation.analysis import make_analyser

    state = State(7, 7).child(25).child(23).child(16).child(30)  # past the book, not provable at once
    value = make_analyser(make("isolation"), 1e-6).evaluate(state, state.ply % 2)
    assert value is not None and not value.exact and value.text == "?"


def test_with_little_time_the_exact_values_still_agree_with_each_other() -> None:
    """No move turns a proven loss into a proven win, whatever the budget cut short."""
    game = make("isolation")
    for states in _games(7, 7, 3, seed=9):
        actions = [states[i + 1].locs[i % 2] for i in range(len(states) - 1)]
        analysis = analyze_positions(game, states, actions, ["a", "b"], seconds=0.005)
        for p in analysis.plies:
            if p.before.exact and p.after.exact:
                assert not (p.before.value < 0 < p.after.value), p.ply
