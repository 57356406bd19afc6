"""Game analysis: every registered game analysed from a replay, and the exact analysers against independent oracles."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from gridarena import make, make_bot, play_game
from gridarena.arena.analysis import analyze_positions, analyze_replay, player_summary
from gridarena.arena.replay import ReplayRecorder, read_replay
from gridarena.core.analysis import Evaluation, mark
from gridarena.core.clock import TimeControl
from gridarena.core.registry import available_games, has_analyser, make_analyser

#: A short game per registered game, its players, and seconds per position for the analysis.
GAMES: dict[str, tuple[str, list[str], float]] = {
    "isolation": ("isolation(width=5,height=5)", ["greedy", "random"], 0.3),
    "slidingpuzzle": ("slidingpuzzle(rows=3,cols=3,scramble=12)", ["random"], 0.5),
    "reversixt": ("reversixt(map=mini)", ["best", "random"], 0.05),
    "iceandfire": ("iceandfire", ["best", "random"], 0.1),
    "pentocity": ("pentocity", ["random"], 0.1),
}


def test_every_game_has_an_analyser() -> None:
    assert set(available_games()) == set(GAMES)
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


# -- the marks, the graph, the summary -------------------------------------------------------------


def test_marks_of_estimates_and_results() -> None:
    won, lost = Evaluation(1.0, True, 5), Evaluation(-1.0, True, 6)
    assert mark("result", won, lost) == "blunder"
    assert mark("result", Evaluation(0.1), lost) == "mistake"  # an estimate then a result: not certain
    assert mark("result", Evaluation(0.5), Evaluation(0.35)) is None
    assert mark("result", Evaluation(1.0, True, 5), Evaluation(1.0, True, 4)) is None
    assert mark("result", Evaluation(-1.0, True, 8), Evaluation(-1.0, True, 3)) == "faster"
    assert mark("score", Evaluation(2000.0), Evaluation(1700.0)) == "blunder"


def test_a_change_within_the_analysers_uncertainty_is_no_mark() -> None:
    """Issue 32: Ice and Fire openings were marked from noisy estimates."""
    assert mark("result", Evaluation(0.3), Evaluation(-0.2)) == "mistake"
    assert mark("result", Evaluation(0.3, error=0.2), Evaluation(-0.2, error=0.2)) is None
    assert mark("result", Evaluation(0.9, error=0.1), Evaluation(-0.9, error=0.1)) == "blunder"  # 1.8 - 0.2
    assert mark("score", Evaluation(2000.0, error=150.0), Evaluation(1700.0, error=150.0)) is None
    assert mark("distance", Evaluation(5.0, error=9.0), Evaluation(6.0, error=9.0)) == "wasted"  # exact kind


def test_ice_and_fire_judges_a_move_at_the_same_ply_and_reports_its_uncertainty() -> None:
    """The analyser's own move costs nothing (the mover is judged after it), and estimates carry an error."""
    game = make("iceandfire")
    state = game.new_initial_state(seed=2)
    rng_bot = make_bot(game, "random", seed=2)
    for _ in range(6):  # a few random turns: a position with units on the board
        state = state.apply_action(rng_bot.act(state, TimeControl.for_seconds(1)).action)
    analyser = make_analyser(game, 0.2)
    mover = state.current_player()
    before = analyser.evaluate(state, mover)
    assert before is not None and before.best is not None and not before.exact
    after = analyser.evaluate(state.apply_action(state.string_to_action(before.best)), mover)
    assert after is not None and after.value == before.value and mark("result", before, after) is None
    assert before.error >= 0 and after.error == before.error


class SlowToStart:
    """An analyser whose first position carries a start-up of ``start`` seconds (kernels compiling)."""

    kind = "result"

    def __init__(self, start: float) -> None:
        self.start, self.calls = start, 0

    def evaluate(self, state: object, player: int) -> Evaluation:
        self.calls += 1
        if self.calls == 1:
            time.sleep(self.start)
        return Evaluation(0.0)


def test_a_per_ply_budget_does_not_pay_for_the_analysers_start_up() -> None:
    """Issue 32: the viewer's graph gave up after one Isolation move while the kernels compiled."""
    game = make("isolation(width=5,height=5)")
    states, actions = [game.new_initial_state(1)], []
    for _ in range(12):
        actions.append(states[-1].legal_actions()[0])
        states.append(states[-1].apply_action(actions[-1]))
    names = ["a", "b"]
    whole = analyze_positions(game, states, actions, names, 0.01, analyser=SlowToStart(0.5), budget=0.2)
    assert whole.complete and len(whole.plies) == len(actions)
    cut = analyze_positions(game, states, actions, names, 0.01, time.perf_counter() + 0.2, SlowToStart(0.5))
    assert not cut.complete and len(cut.plies) == 1  # a deadline that counts the start-up


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
