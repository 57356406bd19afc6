"""Time controls: the --time forms, accounts, budgets, first-move limits, and wall against CPU time."""

from __future__ import annotations

import time
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gridarena.core.bot import BaseBot, Decision
from gridarena.core.clock import TimeControl
from gridarena.core.gameclock import GameTimer, TimeSpec, TimeSpecError
from gridarena.core.play import play_game
from gridarena.core.registry import make
from gridarena.core.types import GameState

GAME = make("isolation(width=5,height=5)")


@pytest.mark.parametrize(
    "text,spec",
    [
        ("0.15", TimeSpec("move", per_move=0.15)),
        ("150ms", TimeSpec("move", per_move=0.15)),
        ("1/0.05", TimeSpec("move", per_move=0.05, first=1.0)),
        ("account:2", TimeSpec("account", per_move=2.0)),
        ("total:300", TimeSpec("total", base=300.0)),
        ("60+0.5", TimeSpec("increment", per_move=0.5, base=60.0)),
        ("60+0", TimeSpec("increment", per_move=0.0, base=60.0)),
    ],
)
def test_every_form_of_the_spec_parses(text: str, spec: TimeSpec) -> None:
    assert TimeSpec.parse(text) == spec


@pytest.mark.parametrize("text", ["", "fast", "0", "account:", "total:-1", "1/0", "-0.5"])
def test_bad_time_controls_are_refused_with_the_forms(text: str) -> None:
    with pytest.raises(TimeSpecError, match="--time"):
        TimeSpec.parse(text)


millis = st.integers(1, 999_999).map(lambda ms: ms / 1000)


@given(
    st.one_of(
        st.builds(lambda s: TimeSpec("move", per_move=s), millis),
        st.builds(lambda f, s: TimeSpec("move", per_move=s, first=f), millis, millis),
        st.builds(lambda s: TimeSpec("account", per_move=s), millis),
        st.builds(lambda b: TimeSpec("total", base=b), millis),
        st.builds(lambda b, s: TimeSpec("increment", per_move=s, base=b), millis, millis),
    )
)
def test_text_round_trip(spec: TimeSpec) -> None:
    assert TimeSpec.parse(spec.to_text()) == spec


def test_first_move_limit_then_later_moves() -> None:
    timer = GameTimer(TimeSpec.parse("1/0.05"), players=2, grace=0.0)
    assert timer.allowance(0) == 1.0
    assert timer.charge(0, wall=0.9, cpu=0.9) is None
    assert timer.allowance(0) == 0.05 and timer.allowance(1) == 1.0
    assert "limit 50 ms" in (timer.charge(0, wall=0.06, cpu=0.06) or "")


def test_a_budget_runs_down_and_an_increment_refills_it() -> None:
    total = GameTimer(TimeSpec.parse("total:1"), players=1, grace=0.0)
    for _ in range(3):
        assert total.charge(0, wall=0.3, cpu=0.3) is None
    assert total.left(0) == pytest.approx(0.1)
    assert "budget left 100 ms" in (total.charge(0, wall=0.2, cpu=0.2) or "")
    increment = GameTimer(TimeSpec.parse("1+0.5"), players=1, grace=0.0)
    assert increment.charge(0, wall=0.8, cpu=0.8) is None
    assert increment.left(0) == pytest.approx(0.7)


@pytest.mark.timing
def test_the_bot_sees_a_deadline_short_of_its_margin_and_the_referee_a_later_one() -> None:
    clock = GameTimer(TimeSpec.parse("0.2"), players=2, grace=0.05).turn_clock(0)
    assert clock.deadline is not None and clock.hard_deadline is not None
    assert clock.hard_deadline - clock.deadline == pytest.approx(0.02 + 0.05, abs=0.005)
    assert 0.1 < clock.time_left() <= 0.18  # a loaded machine may pause us between the two reads


class Sleeper(BaseBot):
    """Waits (no CPU used) and then plays the first legal action."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.seconds = seconds

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        time.sleep(self.seconds)
        return Decision(state.legal_actions()[0])


class Spinner(BaseBot):
    """Burns CPU until its clock expires: a bot that honours the deadline it is given."""

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        while not clock.expired():
            sum(range(1000))
        return Decision(state.legal_actions()[0])


def test_cpu_clock_does_not_charge_waiting_but_wall_clock_does() -> None:
    spec = TimeSpec.parse("total:0.1")
    names = ["fast", "sleepy"]
    wall = play_game(
        GAME,
        [Sleeper(0.0), Sleeper(0.03)],
        seed=1,
        names=names,
        clock=GameTimer(spec, 2, clock="wall", grace=0.0),
    )
    assert wall.outcome.termination == "timeout" and wall.outcome.forfeit_player == 1
    cpu = play_game(
        GAME,
        [Sleeper(0.0), Sleeper(0.03)],
        seed=1,
        names=names,
        clock=GameTimer(spec, 2, clock="cpu", grace=0.0),
    )
    assert cpu.outcome.termination == "normal"
    assert all(t.cpu_ms < t.wall_ms for t in cpu.turns if t.player == 1)


def test_an_account_carries_unused_time_and_a_budget_honouring_bot_never_times_out() -> None:
    # On the CPU clock: on the wall clock a loaded machine preempts the spinner past its deadline
    # (left_ms -11 ms at load 5), which says nothing about the account's arithmetic.
    timer = GameTimer(TimeSpec.parse("account:0.02"), 2, clock="cpu", grace=0.2)
    record = play_game(GAME, [Spinner(), Spinner()], seed=4, names=["a", "b"], clock=timer)
    assert record.outcome.termination == "normal"
    assert all(t.left_ms is not None and t.left_ms > -10 for t in record.turns)
