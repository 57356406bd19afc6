"""Pentocity on the shared loop: CPU budget, crashes, protocol errors and invalid moves end a game, never the run.

These were the tests of Pentocity's own runner; the runner is gone (the one loop is ``core.play``) and the
Java simulator's clock is ``simulator.java_clock``. Two things changed with it, as for every game: a
forfeit's reason names the player (``script: ...``), and text answers are actions' text (a non-Move
object is the protocol error now).
"""

from __future__ import annotations

from typing import Any

import pytest

from gridarena.bots.base import RandomBot
from gridarena.core.bot import BaseBot, Decision
from gridarena.core.clock import TimeControl
from gridarena.core.types import GameState
from gridarena.games.pentocity import Move, Pentocity
from gridarena.games.pentocity.simulator import play, time_control


class ScriptBot(BaseBot):
    """Plays the given moves in turn (any object: the loop must cope with a bad one).

    ``cpu`` is the CPU time each move reports (the loop charges it instead of the thread's own time).
    """

    name = "script"

    def __init__(self, *moves: object, cpu: float | None = None) -> None:
        super().__init__()
        self.moves = list(moves)
        self.last_move_cpu = cpu

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        move = self.moves.pop(0)
        if isinstance(move, Exception):
            raise move
        return Decision(move)


def test_normal_game_and_record() -> None:
    record = play(Pentocity(sequencer="g6"), ScriptBot(Move.build((0, 0)), *[Move.reject()] * 3), seed=1)
    final = record.final_state
    assert (final.score, record.outcome.termination, final.accepted, final.rejects) == (5, "normal", 1, 3)
    assert [t.action for t in record.turns if t.player == 0] == ["0,0 r0", "reject", "reject", "reject"]
    assert record.outcome.returns == (5.0,)
    assert final.result_info() == {"score": 5, "requests": 4, "accepted": 1, "rejects": 3}


def test_invalid_move_ends_the_game_with_the_java_message() -> None:
    record = play(Pentocity(sequencer="g6"), ScriptBot(Move.build((0, 0)), Move.build((20, 20))), seed=1)
    outcome = record.outcome
    assert outcome.termination == "illegal" and outcome.returns == (0.0,) and record.final_state.score == 5
    assert outcome.reason == "script: Invalid building placement (Building not next to road.)"


def test_invalid_move_as_rejection_policy() -> None:
    game = Pentocity(sequencer="g6", on_invalid="reject")
    record = play(
        game, ScriptBot(Move.build((20, 20)), Move.build((0, 0)), Move.reject(), Move.reject()), seed=1
    )
    final = record.final_state
    assert (record.outcome.termination, final.score, final.rejects) == ("normal", 5, 3)


@pytest.mark.parametrize(
    ("move", "termination", "reason"),
    [
        (ValueError("boom"), "crash", "script: ValueError: boom"),
        (42, "protocol", "script: expected a Move, got 42"),
        ("somewhere", "protocol", "script: unreadable action 'somewhere'"),
    ],
)
def test_crash_and_protocol_errors_end_the_game(move: object, termination: str, reason: str) -> None:
    outcome = play(Pentocity(sequencer="g6"), ScriptBot(move), seed=1).outcome
    assert outcome.termination == termination and outcome.reason.startswith(reason)


def test_a_move_as_text_is_played() -> None:
    record = play(Pentocity(sequencer="g6"), ScriptBot("0,0 r0", *[Move.reject()] * 3), seed=1)
    assert record.outcome.termination == "normal" and record.final_state.score == 5


def test_cpu_budget_stops_the_game_and_keeps_the_score() -> None:
    game = Pentocity(sequencer="g6", cpu_time=1.0)
    assert time_control(game) == "total:1"
    bot = ScriptBot(Move.build((0, 0)), Move.build((2, 0)), Move.build((4, 0)), Move.reject(), cpu=0.3)
    record = play(game, bot, seed=1)  # each move costs 0.3 s of "CPU": the fourth overruns
    assert record.outcome.termination == "timeout" and record.final_state.score == 15
    assert record.outcome.returns == (15.0,)
    overrun = play(game, ScriptBot(Move.build((0, 0)), cpu=2.0), seed=1)
    assert overrun.outcome.termination == "timeout" and overrun.final_state.score == 0
    assert overrun.final_state.accepted == 0


def test_a_spent_budget_loses_before_the_next_move() -> None:
    game = Pentocity(sequencer="g6", cpu_time=1.0)
    # 1.0005 s used: within the 1 ms grace, so the move counts, but nothing is left for the next one.
    bot = ScriptBot(Move.build((0, 0)), Move.build((2, 0)), cpu=1.0005)
    record = play(game, bot, seed=1)
    assert record.outcome.termination == "timeout" and record.final_state.score == 5
    assert record.outcome.reason == "script: CPU budget of 1 s used up"


def test_no_budget_and_random_bot() -> None:
    record = play(Pentocity(sequencer="random", cpu_time=None), RandomBot(), seed=869, bot_seed=3)
    assert record.outcome.termination == "normal" and record.final_state.score > 0
    assert sum(t.cpu_ms for t in record.turns) >= 0
