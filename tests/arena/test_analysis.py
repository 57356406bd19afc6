"""Game analysis: every registered game analysed from a replay, and the exact analysers against independent oracles."""

from __future__ import annotations

import functools
import json
import random
from collections import deque
from pathlib import Path
from typing import Any

import pytest

from gridarena import make, make_bot, play_game
from gridarena.arena.analysis import analyze_positions, analyze_replay, graph, player_summary
from gridarena.arena.replay import ReplayRecorder, read_replay
from gridarena.core.analysis import Evaluation, mark
from gridarena.core.registry import _ANALYSERS, available_games, has_analyser
from gridarena.games.isolation.rules import State
from gridarena.games.slidingpuzzle.rules import Board, legal_slides, slide

#: A short game per registered game, its players, and seconds per position for the analysis.
GAMES: dict[str, tuple[str, list[str], float]] = {
    "isolation": ("isolation(width=5,height=5)", ["greedy", "random"], 0.3),
    "slidingpuzzle": ("slidingpuzzle(rows=3,cols=3,scramble=12)", ["random"], 0.5),
    "reversixt": ("reversixt(map=mini)", ["best", "random"], 0.05),
    "iceandfire": ("iceandfire", ["best", "random"], 0.1),
    "pentocity": ("pentocity", ["random"], 0.1),
}


def test_every_game_has_an_analyser() -> None:
    assert set(_ANALYSERS) == set(available_games()) == set(GAMES)
    assert all(has_analyser(name) for name in available_games())


@pytest.mark.parametrize("name", sorted(GAMES))
def test_analyze_a_replay_of_every_game(name: str, tmp_path: Path) -> None:
    spec, players, seconds = GAMES[name]
    game = make(spec)
    bots = [make_bot(game, p) for p in players]
    path = tmp_path / f"{name}.jsonl"
    state = game.new_initial_state(3)
    recorder = ReplayRecorder(path, game, players, 3, state)
    play_game(game, bots, seed=3, names=players, recorders=[recorder], max_plies=40)
    replay = read_replay(path)
    analysis = analyze_replay(replay, seconds)
    data = analysis.to_json()
    json.dumps(data)
    moves = [t for t in replay.turns if int(t["player"]) >= 0]
    assert data["game"] == name and data["complete"]
    assert len(data["plies"]) >= min(3, len(moves))
    for ply in data["plies"]:
        assert replay.turns[ply["ply"]]["action"] == ply["action"]
        assert ply["mark"] in (None, "blunder", "mistake", "inaccuracy", "slower", "faster", "wasted")
    assert set(data["players"]) == set(players)
    assert data["graph"] and all(len(p) == 4 for s in data["graph"] for p in s["points"])


# -- Isolation: marks against the memoised reference solver on 5x5 -----------------------------


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


# -- sliding puzzle: every 3x3 distance by breadth-first search ------------------------------------


@functools.cache
def bfs_distances(goal: Board) -> dict[Board, int]:
    """Distance to ``goal`` of every board reachable from it (181,440 on 3x3)."""
    seen = {goal: 0}
    queue = deque([goal])
    while queue:
        board = queue.popleft()
        for action in legal_slides(board):
            nxt = slide(board, action)
            if nxt not in seen:
                seen[nxt] = seen[board] + 1
                queue.append(nxt)
    return seen


def test_puzzle_distances_and_waste_agree_with_bfs_on_3x3() -> None:
    game = make("slidingpuzzle(rows=3,cols=3,scramble=30)")
    distances = bfs_distances(game.goal)  # type: ignore[attr-defined]
    assert len(distances) == 181_440
    rng = random.Random(4)
    for seed in range(4):
        state = game.new_initial_state(seed)
        states, actions = [state], []
        for _ in range(12):
            if state.is_terminal():
                break
            action = rng.choice(state.legal_actions())
            state = state.apply_action(action)
            states.append(state)
            actions.append(action)
        analysis = analyze_positions(game, states, actions, ["me"], seconds=5.0)
        for p in analysis.plies:
            before, after = distances[states[p.ply].board], distances[states[p.ply + 1].board]
            assert (p.before.value, p.after.value) == (before, after)
            assert (p.mark == "wasted") == (after >= before)
        waste = analysis.players()["me"]["loss"]
        assert waste == len(analysis.plies) - (distances[states[0].board] - distances[states[-1].board])


# -- the marks, the graph, the summary -------------------------------------------------------------


def test_marks_of_estimates_and_results() -> None:
    won, lost = Evaluation(1.0, True, 5), Evaluation(-1.0, True, 6)
    assert mark("result", won, lost) == "blunder"
    assert mark("result", Evaluation(0.1), lost) == "mistake"  # an estimate then a result: not certain
    assert mark("result", Evaluation(0.5), Evaluation(0.35)) is None
    assert mark("result", Evaluation(1.0, True, 5), Evaluation(1.0, True, 4)) is None
    assert mark("result", Evaluation(-1.0, True, 8), Evaluation(-1.0, True, 3)) == "faster"
    assert mark("score", Evaluation(2000.0), Evaluation(1700.0)) == "blunder"


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


def test_player_summary_adds_games_up() -> None:
    one = {
        "players": {
            "a": {"moves": 10, "blunders": 1, "loss": 2.0},
            "b": {"moves": 0, "blunders": 0, "loss": 0},
        }
    }
    two = {"players": {"a": {"moves": 5, "blunders": 0, "loss": 1.0}}}
    summary = player_summary([one, two])
    assert summary["a"] == {"games": 2, "moves": 15, "blunders_per_game": 0.5, "loss_per_move": 0.2}
    assert "b" not in summary


def test_pentocity_regret_is_zero_along_bests_own_playout() -> None:
    game = make("pentocity")
    from gridarena.games.pentocity.analysis import PentocityAnalyser

    analyser = PentocityAnalyser(game, 60.0)
    state: Any = game.new_initial_state(5)
    state = state.child(state.chance_outcomes()[0][0])
    value = analyser.evaluate(state, 0)
    assert value is not None and value.exact and value.best is not None
    after = state.apply_action(state.string_to_action(value.best))
    after = after.child(after.chance_outcomes()[0][0])
    again = analyser.evaluate(after, 0)
    assert again is not None and again.value == value.value  # best's own placement has no regret
