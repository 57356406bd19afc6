"""The raid (``ai/raid.py``: units step in, then the chain of trains that darkens most, as the
contest bot ``morozec`` attacks), its replay on another board, and ``best``'s blocks against it."""

from __future__ import annotations

import pytest

from gridarena.games.iceandfire.ai.best import BestBot
from gridarena.games.iceandfire.ai.board import ME, OPP, Board
from gridarena.games.iceandfire.ai.raid import darkness, raid, replay_raid, unit_mask
from gridarena.games.iceandfire.ai.tactics import best_cut
from gridarena.games.iceandfire.geometry import CELLS, cell_of
from gridarena.games.iceandfire.positions import state_from_rows
from gridarena.games.iceandfire.rules import IceAndFireState

from .test_bots import board_of, positions, rows_with
from .test_threats import salient


def darkened(before: Board, after: Board, player: int) -> int:
    return darkness(before, player) - darkness(after, player)


def rejoin(gold: int) -> IceAndFireState:
    """Red's salient along row 0 to column 8; blue's land along row 3 and up column 11, and its
    cut-off cell (3,1); a blue unit on (3,3) below the neutral (3,2), which joins (3,1) to it."""
    marks = {(x, 0): "R" for x in range(9)} | {(0, 1): "R", (1, 1): "R"}
    marks |= {(x, 3): "B" for x in range(2, 11)} | {(11, y): "B" for y in range(3, 12)} | {(3, 1): "b"}
    return state_from_rows(rows_with(marks), units=[(1, 1, 1, 3, 3)], gold=(10, gold))


def test_a_raid_steps_in_rejoins_its_land_and_cuts_where_the_chain_search_does_not() -> None:
    board = board_of(rejoin(10))
    assert board.owner[cell_of(3, 1)] == OPP and not board.active[cell_of(3, 1)]
    plan = raid(board, OPP, 10, 5.0, all_units_act=True)
    assert plan is not None
    # The step onto (3,2) reconnects (3,1) for nothing; one train on (3,0) parts (4,0)-(8,0) from the HQ.
    assert plan.commands == ["MOVE 1 3 2", "TRAIN 1 3 0"]
    assert darkened(board, plan.board, OPP) == 6
    assert plan.board.owner[cell_of(8, 0)] == ME and not plan.board.active[cell_of(8, 0)]
    # The chain Dijkstra pays for (3,1) as for any other cell: 20 gold, more than blue has.
    assert best_cut(board, OPP, 10, 5.0, limit=200, all_units_act=True) is None


def test_a_raid_keeps_the_cheaper_of_equal_chains_and_finds_nothing_without_gold() -> None:
    board = board_of(salient(False, 15))
    plan = raid(board, OPP, 15, 5.0, all_units_act=True)
    assert plan is not None and plan.commands[-1] == "TRAIN 1 2 0"
    assert darkened(board, plan.board, OPP) == 7  # (2,0) and the six cells beyond it
    assert plan.board.gold[OPP] == 5  # one level-1 unit: the longer chains darken no more
    assert raid(board_of(salient(False, 0)), OPP, 0, 5.0) is None  # no gold, no unit near: nothing


def arm(gold: int) -> IceAndFireState:
    """:func:`salient`'s land and an arm from (1,1) down column 1 to (1,4), where red has a unit."""
    marks = {(x, 0): "R" for x in range(9)} | {(0, 1): "R"} | {(1, y): "R" for y in range(1, 5)}
    marks |= {(x, 1): "B" for x in range(2, 11)} | {(11, y): "B" for y in range(1, 12)}
    return state_from_rows(rows_with(marks), units=[(1, 1, 3, 11, 6), (2, 0, 1, 1, 4)], gold=(10, gold))


def test_a_raid_weighted_by_units_kills_the_unit_rather_than_darken_more_cells() -> None:
    board = board_of(arm(15))
    assert unit_mask(board, ME) == 1 << cell_of(1, 4)
    plain = raid(board, OPP, 15, 5.0, all_units_act=True)
    assert plain is not None and plain.commands[-1] == "TRAIN 1 2 0"  # (2,0)-(8,0): 7 cells
    assert darkened(board, plain.board, OPP) == 7
    # Each of our units darkened counts 5 more: (1,1) parts the arm, 4 cells and the unit, 9 > 7.
    hunt = raid(board, OPP, 15, 5.0, all_units_act=True, weight=5)
    assert hunt is not None and hunt.commands[-1] == "TRAIN 1 1 1"
    assert darkened(board, hunt.board, OPP) == 4
    assert replay_raid(board, OPP, 15, hunt.steps, weight=5) == 9
    assert replay_raid(board, OPP, 15, plain.steps, weight=5) == 7


def test_a_raid_that_reaches_the_hq_takes_it() -> None:
    board = board_of(salient(False, 30))
    plan = raid(board, OPP, 30, 5.0, all_units_act=True)
    assert plan is not None and plan.board.won == OPP
    assert plan.commands[-1] == "TRAIN 1 0 0"
    assert replay_raid(board, OPP, 30, plan.steps) == CELLS


def test_a_replayed_raid_darkens_as_found_and_less_after_a_block() -> None:
    board = board_of(salient(False, 15))
    plan = raid(board, OPP, 15, 5.0, all_units_act=True)
    assert plan is not None
    assert replay_raid(board, OPP, 15, plan.steps) == 7
    blocked = board.copy()
    assert blocked.train(cell_of(2, 0), 1)  # a level-1 unit: (2,0) now needs level 2, 20 gold
    assert replay_raid(blocked, OPP, 15, plan.steps) == 0


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_referee_plays_a_raid_as_it_was_found(seed: int) -> None:
    """Each raid's commands, sent to the referee, are all accepted and leave both players' active
    land where the raid's board has it."""
    played = 0
    for state in positions(8, seed):
        board = board_of(state)
        plan = raid(board, ME, board.gold[ME], 5.0)
        if plan is None:
            continue
        played += 1
        mover = state.current_player()
        after = state.apply_action(state.string_to_action(";".join(plan.commands)))
        assert not [entry for entry in after.log if "ignored" in entry], (plan.commands, after.log)
        for ours, theirs in ((ME, mover), (OPP, 1 - mover)):
            expected = {i for i in range(CELLS) if plan.board.owner[i] == ours and plan.board.active[i]}
            assert {i for i in range(CELLS) if after.owner[i] == theirs and after.active[i]} == expected
    assert played  # the positions are mid-game: some raid darkens something in each set


def test_best_blocks_the_raid_with_its_gold() -> None:
    bot = BestBot(1)
    board = board_of(salient(False, 15))
    commands: list[str] = []
    after = bot.block_raids(board.copy(), commands)
    assert commands == ["TRAIN 1 2 0"]  # the raid's cell, cheaper than a tower; all our gold
    nxt = raid(after, OPP, 15, 5.0, all_units_act=True)
    assert nxt is not None and nxt.commands[-1] == "TRAIN 1 3 0"  # the next raid: one cell less
    assert darkened(after, nxt.board, OPP) == 6
    bot.antiraid = 0
    assert bot.block_raids(board.copy(), []).gold[ME] == board.gold[ME]  # off: nothing placed


def test_the_judge_takes_off_what_the_raid_next_turn_darkens() -> None:
    """``raid_penalty`` points a cell of our land the opponent's raid darkens; all of them when
    the raid takes the HQ."""
    board = board_of(salient(False, 15))
    plain, wary = BestBot(1), BestBot(1)
    wary.raid_penalty = 10.0
    assert plain.judge(board, board.copy()) - wary.judge(board, board.copy()) == pytest.approx(
        70.0
    )  # 7 cells
    board = board_of(salient(False, 30))  # the raid takes the HQ
    assert plain.judge(board, board.copy()) - wary.judge(board, board.copy()) == pytest.approx(10.0 * CELLS)


def test_cells_leaf_values_a_position_by_its_active_cells_alone() -> None:
    """``cells_leaf`` points per active cell, ours less the opponent's (its cut-off (3,1) not
    counted), in place of the income lead, gold and units; a won or lost game keeps its value."""
    board = board_of(rejoin(10))
    bot = BestBot(1)
    bot.configure("cells_leaf", 15.0)
    ours = sum(1 for i in range(CELLS) if board.owner[i] == ME and board.active[i])
    theirs = sum(1 for i in range(CELLS) if board.owner[i] == OPP and board.active[i])
    assert (ours, theirs) == (11, 18)  # row 0 to (8,0) and (0,1), (1,1); row 3 and column 11
    assert bot.evaluate(board) == pytest.approx(15.0 * (11 - 18))
    board.gold[ME] += 100  # gold in hand no longer counts
    assert bot.evaluate(board) == pytest.approx(15.0 * (11 - 18))
    for winner in (ME, OPP):
        board.won = winner
        assert bot.evaluate(board) == BestBot(1).evaluate(board)


def blue_to_move(state: IceAndFireState) -> Board:
    """The position as blue sees it at the start of its turn (blue is ``ME``)."""
    view = board_of(state).flipped()
    view.start_turn(ME)
    return view


def test_best_strikes_with_its_own_raid_when_it_darkens_enough() -> None:
    """``strike``: blue's unit steps onto (3,2), which reconnects its (3,1), and two trains part
    seven of red's cells; played when that is at least ``strike`` cells (4 by default), as its own
    variant, judged second."""
    view = blue_to_move(rejoin(10))
    bot = BestBot(1)
    assert bot.strike == 4
    assert bot.variants_for(view)[1][: len(BestBot.strike_variant)] == BestBot.strike_variant
    bot.configure("strike", 0)
    assert all(v[:2] != BestBot.strike_variant[:2] for v in bot.variants_for(view))  # off
    bot.configure("strike", 7)
    commands: list[str] = []
    after = bot.our_raid(view.copy(), commands)
    assert commands == ["MOVE 1 3 2", "TRAIN 1 3 0", "TRAIN 1 2 0"]
    assert darkened(view, after, ME) == 7
    bot.configure("strike", 8)
    commands = []
    assert bot.our_raid(view.copy(), commands).gold[ME] == view.gold[ME] and commands == []


def test_best_cuts_with_its_raid_where_it_scores_more_than_the_chain_search() -> None:
    """``raid_cuts``: the cuts step takes the raid (two trains beyond the reconnected (3,1), seven
    cells) where the chain Dijkstra's best cut trains on (3,1) itself and darkens fewer."""
    view = blue_to_move(rejoin(10))
    plain, raider = BestBot(1), BestBot(1)
    raider.configure("raid_cuts", True)
    commands: list[str] = []
    after = plain.cuts(view.copy(), commands)
    assert commands == ["MOVE 1 3 2", "TRAIN 1 3 1", "TRAIN 1 3 0"]
    assert darkened(view, after, ME) == 6
    commands = []
    after = raider.cuts(view.copy(), commands)
    assert commands == ["MOVE 1 3 2", "TRAIN 1 3 0", "TRAIN 1 2 0"]
    assert darkened(view, after, ME) == 7
