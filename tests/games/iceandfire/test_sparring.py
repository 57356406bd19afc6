"""The sparring pool (``pusher``, ``climber``, perturbed ``postmortem``) and what ``best`` learned from
it: the opponent-independent reach of an army towards our HQ, the HQ guard, the mixture of opponent
models weighted by what the opponent has shown."""

from __future__ import annotations

import pytest

from gridarena.core.errors import SpecError
from gridarena.core.play import play_game
from gridarena.core.registry import make, make_bot
from gridarena.games.iceandfire.ai.board import ME, OPP
from gridarena.games.iceandfire.ai.defence import hq_guard
from gridarena.games.iceandfire.ai.tactics import hq_chain_cost, hq_reach, walk_region
from gridarena.games.iceandfire.geometry import CELLS, cell_of
from gridarena.games.iceandfire.positions import state_from_rows
from gridarena.games.iceandfire.rules import IceAndFireState

from .test_bots import answer, board_of, play_checked, rows_with

GAME = make("iceandfire")


def rushed() -> IceAndFireState:
    """Red owns only its HQ; blue's level-1 unit stands on (3,0), three steps from it, at the end of
    a blue corridor along row 0 and column 11; red to move with 50 gold, blue with none."""
    marks = {(0, 0): "R"} | {(x, 0): "B" for x in range(3, 12)} | {(11, y): "B" for y in range(12)}
    return state_from_rows(rows_with(marks), units=[(1, 1, 1, 3, 0)], gold=(50, 0))


def test_the_reach_of_an_army_counts_its_units_walking() -> None:
    board = board_of(rushed())
    assert hq_chain_cost(board, OPP, 100) == 20  # one free step to (2,0), then (1,0) and the HQ
    assert hq_reach(board, OPP, 1) == 20
    assert hq_reach(board, OPP, 2) == 10  # two steps to (1,0), then the HQ
    assert hq_reach(board, OPP, 3) == 0  # the unit walks onto the unguarded HQ
    region = walk_region(board, OPP, 2)
    assert {i for i in range(CELLS) if region[i]} >= {cell_of(3, 0), cell_of(2, 0), cell_of(1, 0)}


def test_the_hq_guard_pushes_the_reach_out_of_the_budget() -> None:
    board = board_of(rushed())
    board.gold[OPP] = 5  # two turns of its income and savings: within reach of 10
    assert hq_reach(board, OPP, 2) <= board.gold[OPP] + 2 * board.compute_income(OPP)
    commands: list[str] = []
    after = hq_guard(board.copy(), commands)
    assert commands, "the HQ was within reach: something is built or trained"
    assert hq_reach(after, OPP, 2) > hq_reach(board, OPP, 2)


def test_best_with_the_reach_term_defends_the_rushed_hq() -> None:
    state = rushed()
    bot = make_bot(GAME, "best(reach_weight=300,hq_defence=1)")
    bot.reset(GAME, 0, 0)
    line = answer("", state, bot)
    after = state.apply_action(state.string_to_action(line))
    reply = board_of(after)  # blue's view: blue is ME
    assert hq_reach(reply, ME, 2) > reply.gold[ME] + 2 * max(0, reply.compute_income(ME)), line


def test_model_weights_follow_the_fit_and_keep_a_floor() -> None:
    bot = make_bot(GAME, "best(opponent_models='postmortem+pusher',model_floor=0.2)")
    bot.reset(GAME, 0, 0)
    assert bot.model_weights() == pytest.approx({"postmortem": 0.5, "pusher": 0.5})
    bot.fit = {"postmortem": 0.0, "pusher": 1.0}
    weights = bot.model_weights()
    assert weights["pusher"] > 0.7 and weights["postmortem"] >= 0.2 - 1e-9
    assert sum(weights.values()) == pytest.approx(1.0)


def test_observing_the_opponent_scores_the_models_that_foresaw_it() -> None:
    bot = make_bot(GAME, "best(opponent_models='postmortem+pusher')")
    bot.reset(GAME, 0, 0)
    board = board_of(rushed())
    before = bytearray(board.owner)
    took = cell_of(2, 0)
    board.owner[took] = OPP
    right, wrong = bytearray(before), bytearray(before)
    right[took] = OPP
    wrong[cell_of(3, 1)] = OPP
    bot.last_after, bot.last_predicted = before, {"pusher": right, "postmortem": wrong}
    bot.observe(board)
    assert bot.fit["pusher"] > 0.5 > bot.fit["postmortem"]


def test_unknown_settings_are_named() -> None:
    with pytest.raises(SpecError, match="best: unknown parameter 'depth'; best takes judge_mode"):
        make_bot(GAME, "best(depth=3)")
    with pytest.raises(SpecError, match="opponent_models must be text of the form models joined by"):
        make_bot(GAME, "best(opponent_models='postmortem+random')")
    assert make_bot(GAME, "best(hq_defence=0)").hq_defence is False
    with pytest.raises(SpecError, match="reply_cuts=3 acts only with replies='cut', which is not set"):
        make_bot(GAME, "best(reply_cuts=3)")
    assert make_bot(GAME, "best(replies='cut',reply_cuts=3)").reply_cuts == 3
    with pytest.raises(SpecError, match="raid_units=5 acts only with antiraid, which is not set"):
        make_bot(GAME, "best(antiraid=0,raid_units=5)")


@pytest.mark.parametrize(
    "name",
    [
        "pusher",
        "pusher(cuts=1,guard=1)",
        "climber(iterations=30)",
        "postmortem(perturb=0.3,variant=2)",
        "best(race=1)",
    ],
)
def test_the_sparring_bots_send_only_commands_the_referee_executes(name: str) -> None:
    play_checked(GAME, (name, "postmortem"), {0})


def test_perturbed_postmortems_differ_by_variant_and_repeat() -> None:
    one, again, other = (make_bot(GAME, f"postmortem(perturb=0.3,variant={k})") for k in (1, 1, 2))
    knobs = ("horizon", "danger", "compact", "closer", "mine_reserve", "reserve", "cut_tries")
    assert [getattr(one, k) for k in knobs] == [getattr(again, k) for k in knobs]
    assert [getattr(one, k) for k in knobs] != [getattr(other, k) for k in knobs]
    assert one.name == "postmortem~1"


def test_the_pusher_rushes_the_enemy_hq() -> None:
    record = play_game(GAME, [make_bot(GAME, "pusher"), make_bot(GAME, "wood1")], seed=2)
    assert record.outcome.returns == (1.0, -1.0) and "HQ" in record.outcome.reason
    assert record.final_state.result_info()["turns"] <= 30


def test_every_setting_of_best_is_declared_in_the_catalogue() -> None:
    """A knob added to ``BestBot.SETTINGS`` must be declared (type, range, default) to be reachable from a spec."""
    from gridarena.core.registry import bot_entry
    from gridarena.games.iceandfire.ai.best import BestBot

    assert set(bot_entry("iceandfire", "best").params) == set(BestBot.SETTINGS)
