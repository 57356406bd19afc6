"""The game runner: CPU budget, crashes, protocol errors and invalid moves end a game, never the run."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from gridarena.bots.base import RandomBot
from gridarena.core.bot import BaseBot, Decision
from gridarena.core.clock import TimeControl
from gridarena.core.types import GameState
from gridarena.games.pentocity import Move, Pentocity
from gridarena.games.pentocity.simulator import play_game


class ScriptBot(BaseBot):
    """Plays the given moves in turn (any object: the runner must cope with a bad one)."""

    name = "script"

    def __init__(self, *moves: object) -> None:
        super().__init__()
        self.moves = list(moves)

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        move = self.moves.pop(0)
        if isinstance(move, Exception):
            raise move
        return Decision(move)


def fake_clock(step: float) -> Any:
    """A CPU clock that advances ``step`` seconds per reading."""
    counter = itertools.count()
    return lambda: next(counter) * step


def test_normal_game_and_record() -> None:
    record = play_game(
        Pentocity(sequencer="g6"),
        ScriptBot(Move.build((0, 0)), Move.reject(), Move.reject(), Move.reject()),
        seed=1,
    )
    assert (record.score, record.termination, record.accepted, record.rejects) == (5, "normal", 1, 3)
    assert record.moves == ("0,0 r0", "reject", "reject", "reject")
    assert record.to_json()["returns"] == [5.0]


def test_invalid_move_ends_the_game_with_the_java_message() -> None:
    record = play_game(Pentocity(sequencer="g6"), ScriptBot(Move.build((0, 0)), Move.build((20, 20))), seed=1)
    assert record.termination == "illegal" and record.returns == (0.0,) and record.score == 5
    assert record.reason == "Invalid building placement (Building not next to road.)"


def test_invalid_move_as_rejection_policy() -> None:
    game = Pentocity(sequencer="g6", on_invalid="reject")
    record = play_game(
        game, ScriptBot(Move.build((20, 20)), Move.build((0, 0)), Move.reject(), Move.reject()), seed=1
    )
    assert (record.termination, record.score, record.rejects) == ("normal", 5, 3)


@pytest.mark.parametrize(
    ("move", "termination", "reason"),
    [
        (ValueError("boom"), "crash", "ValueError: boom"),
        ("0,0 r0", "protocol", "expected a Move, got '0,0 r0'"),
    ],
)
def test_crash_and_protocol_errors_end_the_game(move: object, termination: str, reason: str) -> None:
    record = play_game(Pentocity(sequencer="g6"), ScriptBot(move), seed=1)
    assert (record.termination, record.reason) == (termination, reason)


def test_cpu_budget_stops_the_game_and_keeps_the_score() -> None:
    game = Pentocity(sequencer="g6", cpu_time=1.0)
    bot = ScriptBot(Move.build((0, 0)), Move.build((2, 0)), Move.build((4, 0)), Move.reject())
    record = play_game(game, bot, seed=1, clock=fake_clock(0.3))  # each move costs 0.3 s of "CPU"
    assert record.termination == "timeout" and record.score == 15 and record.returns == (15.0,)
    overrun = play_game(game, ScriptBot(Move.build((0, 0))), seed=1, clock=fake_clock(2.0))
    assert overrun.termination == "timeout" and overrun.score == 0 and overrun.accepted == 0


def test_no_budget_and_random_bot() -> None:
    record = play_game(Pentocity(sequencer="random", cpu_time=None), RandomBot(), seed=869, bot_seed=3)
    assert record.termination == "normal" and record.score > 0 and record.cpu_seconds >= 0
