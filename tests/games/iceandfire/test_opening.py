"""The planned opening (``ai/opening.py``): the claim race, the opening turn, and the judge's worst
case among other replies (``best(worst_models=...)``)."""

from __future__ import annotations

from gridarena.core.clock import TimeControl
from gridarena.core.registry import make, make_bot
from gridarena.games.iceandfire.ai.board import ME, OPP
from gridarena.games.iceandfire.ai.opening import claim_race, contact, expand, race_value
from gridarena.games.iceandfire.ai.postmortem import PostMortemBot
from gridarena.games.iceandfire.geometry import cell_of
from gridarena.games.iceandfire.positions import state_from_rows
from gridarena.games.iceandfire.rules import IceAndFireState

from .test_bots import board_of, rows_with

GAME = make("iceandfire")


def test_the_race_gives_each_side_the_cells_its_units_reach_first() -> None:
    # Red's unit on (5,0) walks; blue has only its HQ corner: the top row is red's, the corner blue's.
    marks = {(0, 0): "R", (1, 0): "R", (2, 0): "R", (3, 0): "R", (4, 0): "R", (5, 0): "R", (11, 11): "B"}
    state = state_from_rows(rows_with(marks), units=[(1, 0, 1, 5, 0)])
    board = board_of(state)
    mine, theirs, tied = claim_race(board)
    assert mine >> cell_of(11, 0) & 1, "the unit reaches the far end of the top row first"
    assert theirs >> cell_of(11, 10) & 1 and theirs >> cell_of(10, 11) & 1
    assert not mine & theirs and not (mine | theirs) & tied
    without = board.copy()
    without.unit_level[cell_of(5, 0)] = 0
    without.unit_owner[cell_of(5, 0)] = without.unit_owner[cell_of(0, 1)]
    without.changed()
    assert race_value(board) > race_value(without), "a unit that walks claims ground"
    assert contact(board) > 3


def opening_turns(seed: int, planned: bool, turns: int = 6) -> IceAndFireState:
    """Red's first ``turns`` turns against a blue that waits: the opening plan, or the post-mortem's turn."""
    state = GAME.new_initial_state(seed)
    model = PostMortemBot()
    model.new_game()
    for _ in range(turns):
        board = board_of(state)
        commands: list[str] = []
        if planned:
            expand(board, commands)
        else:
            commands = model.play_turn(board)[0]
        state = state.apply_action(state.string_to_action(";".join(commands) or "WAIT"))
        assert not [entry for entry in state.log if "ignored" in entry], state.log
        state = state.apply_action(state.string_to_action("WAIT"))
    return state


def test_the_opening_plan_claims_more_than_the_post_mortem_turn() -> None:
    # Seed 123457 is the lost game: red's three units went along the top edge.
    cells = {
        seed: [sum(1 for o in opening_turns(seed, planned).owner if o == 0) for planned in (True, False)]
        for seed in (2, 123457)
    }
    assert all(planned >= old for planned, old in cells.values()), cells
    assert cells[123457][0] > cells[123457][1], cells


def test_the_opening_trains_only_while_a_unit_gains_ground() -> None:
    board = board_of(GAME.new_initial_state(1))
    commands: list[str] = []
    after = expand(board.copy(), commands)
    assert commands and all(c.startswith("TRAIN 1 ") for c in commands)
    assert after.gold[ME] == board.gold[ME] - 10 * len(commands) and after.gold[ME] < 10


def test_the_worst_case_judge_is_never_above_the_mixture() -> None:
    board = board_of(GAME.new_initial_state(1006))
    plain = make_bot(GAME, "best")
    worst = make_bot(GAME, "best(worst_models=light)")
    for bot in (plain, worst):
        bot.reset(GAME, 0, 1006)
        bot.control = TimeControl()
        bot.weights = {"postmortem": 1.0}
        bot.predicted = {}
    after = board.copy()
    expand(after, [])
    assert worst.judge(board, after) <= plain.judge(board, after) + 1e-9
    assert board.gold[OPP] == 20


def test_best_plays_the_opening_as_red_until_contact() -> None:
    state = GAME.new_initial_state(123457)
    planned: list[str] = []
    expand(board_of(state), planned)
    bot = make_bot(GAME, "best")
    bot.reset(GAME, 0, 123457)
    line = str(bot.act(state, TimeControl()).action)  # type: ignore[attr-defined]
    assert line == ";".join(planned), line
    old = make_bot(GAME, "best(opening=0)")
    old.reset(GAME, 0, 123457)
    assert str(old.act(state, TimeControl()).action) != line  # type: ignore[attr-defined]
