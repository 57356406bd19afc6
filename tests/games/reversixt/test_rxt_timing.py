"""Time management on an account that carries over (the reference server's ``-t``): budgets keep a reserve on any account,
the opening saves time for later, a forced move costs nothing, and ``best`` reports what it planned."""

from __future__ import annotations

import time

from hypothesis import given, settings
from hypothesis import strategies as st

from gridarena.core.clock import TurnClock
from gridarena.core.registry import make_bot
from gridarena.games.reversixt.formats import parse_map
from gridarena.games.reversixt.rules import ReversiXT
from gridarena.games.reversixt.timing import HARD_FACTOR, Pacer, RootView, plan, reserve

views = st.builds(
    RootView,
    phase=st.sampled_from([1, 1, 1, 2]),
    fields_left=st.integers(0, 2500),
    active=st.integers(1, 8),
    bombs=st.integers(0, 10),
    fill=st.floats(0, 1),
    moves=st.integers(1, 300),
    override_moves=st.integers(0, 50),
    swap_moves=st.integers(0, 5),
)


@settings(max_examples=400, deadline=None)
@given(account=st.floats(0.01, 600), increment=st.floats(0.01, 30), view=views)
def test_a_budget_never_reaches_into_the_reserve(account: float, increment: float, view: RootView) -> None:
    b = plan(account, increment, view)
    keep = min(reserve(increment), account / 2)
    assert 0 <= b.target <= b.hard <= account - keep + 1e-9
    assert b.hard <= HARD_FACTOR * b.target + 1e-9
    if view.moves == 1:
        assert b.target == 0  # a forced move: answered at once


@settings(max_examples=200, deadline=None)
@given(increment=st.floats(0.2, 5), views=st.lists(views, min_size=50, max_size=300))
def test_spending_every_hard_stop_still_keeps_the_reserve(increment: float, views: list[RootView]) -> None:
    # The worst case: every move runs to its hard stop and answers 50 ms late on top.
    account, late = 0.0, 0.05
    for n, view in enumerate(views):
        account += increment
        used = plan(account, increment, view).hard + late
        assert used <= account, (n, account, used)
        account -= used
        if n >= 3:  # the reserve builds up over the first moves (the opening spends half an increment)
            assert account >= min(reserve(increment), increment) / 2 - late


def test_the_opening_saves_and_the_late_game_spends_the_surplus() -> None:
    opening = plan(1.0, 1.0, RootView(1, 300, 2, 0, fill=0.05, moves=8))
    assert opening.target <= 0.5  # half an increment: the rest builds the reserve and the surplus
    late = plan(20.0, 1.0, RootView(1, 12, 2, 0, fill=0.9, moves=6))
    assert late.target > 2.0  # 19 s of surplus over the 6 moves still to come
    critical = plan(20.0, 1.0, RootView(1, 12, 2, 0, fill=0.9, moves=6, override_moves=2))
    assert critical.target > late.target


def test_per_move_limits_are_spent_whole_and_accounts_are_paced() -> None:
    view = RootView(1, 100, 2, 0, 0.5, 8)
    assert Pacer("0.5").plan(0.5, view) is None  # the arena's per-move limit: no carry-over
    assert Pacer(None).plan(0.5, view) is None
    assert Pacer("account:2").plan(2.0, view) is not None
    assert Pacer("60+0.5").increment == 0.5 and Pacer("total:300").carries_over


MAP = "2 0 0 0 4 4  0 0 0 0  0 1 2 0  0 2 1 0  0 0 0 0"


def test_best_plans_its_moves_and_answers_a_forced_move_at_once() -> None:
    game = ReversiXT.from_map(parse_map(MAP))
    bot = make_bot(game, "best")
    bot.reset(game, 0, 1)
    bot.time_control = "account:1"  # type: ignore[attr-defined]
    state = game.new_initial_state()
    start = time.perf_counter()
    decision = bot.act(state, TurnClock(deadline=start + 0.9, limit=1.0))
    assert decision.info["target"] == 0.5 and decision.info["hard"] == 0.5  # opening: half the account
    forced = ReversiXT.from_map(parse_map("2 0 0 0 1 4  1 2 0 0"))
    bot.reset(forced, 0, 1)
    bot.time_control = "account:1"  # type: ignore[attr-defined]
    decision = bot.act(forced.new_initial_state(), TurnClock(deadline=time.perf_counter() + 0.9, limit=1.0))
    assert decision.info["target"] == 0 and decision.info["depth"] == 0 and decision.action == (2, 0, 0)


def test_best_v1_spends_the_deadline_as_before() -> None:
    game = ReversiXT.from_map(parse_map(MAP))
    bot = make_bot(game, "best_v1")
    bot.reset(game, 0, 1)
    bot.time_control = "account:1"  # type: ignore[attr-defined]
    decision = bot.act(game.new_initial_state(), TurnClock(deadline=time.perf_counter() + 0.3, limit=1.0))
    assert "target" not in decision.info
