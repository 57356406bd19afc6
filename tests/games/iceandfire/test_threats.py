"""What the opponent can do to our land (``ai/threats.py``), the front (``ai/front.py``) and the chain
search through cut-off land it reconnects (``tactics.chain_search(joins=True)``)."""

from __future__ import annotations

from gridarena.core.registry import make
from gridarena.games.iceandfire.ai.board import ME, OPP
from gridarena.games.iceandfire.ai.front import cut_size, front_cells, wall
from gridarena.games.iceandfire.ai.tactics import chain_search, chain_steps, play_chain
from gridarena.games.iceandfire.ai.threats import Exposure, exposure, strongest_replies, turn_start
from gridarena.games.iceandfire.geometry import cell_of
from gridarena.games.iceandfire.positions import state_from_rows
from gridarena.games.iceandfire.rules import IceAndFireState

from .test_bots import board_of, rows_with

GAME = make("iceandfire")


def cut_off_row() -> list[str]:
    """Red's HQ and (1,0); red's (3,0)-(5,0), cut off from it by the neutral (2,0); blue far away."""
    return rows_with({(0, 0): "R", (1, 0): "R", (3, 0): "r", (4, 0): "r", (5, 0): "r", (11, 11): "B"})


def test_a_chain_joins_the_cut_off_land_it_reconnects() -> None:
    board = board_of(state_from_rows(cut_off_row(), gold=(50, 0)))
    target = cell_of(6, 0)
    assert chain_search(board, ME, 50).cost[target] == 50  # five trains: (2,0) to (6,0)
    joined = chain_search(board, ME, 50, joins=True)
    assert joined.cost[target] == 20  # (2,0) reconnects (3,0)-(5,0); then (6,0)
    commands = play_chain(board.copy(), chain_steps(joined, board, target))
    assert commands == ["TRAIN 1 2 0", "TRAIN 1 6 0"]
    state = state_from_rows(cut_off_row(), gold=(50, 0))
    after = state.apply_action(state.string_to_action(";".join(commands)))
    assert not [entry for entry in after.log if "ignored" in entry], after.log
    assert after.owner[target] == 0 and after.active[target] and after.active[cell_of(4, 0)]


def salient(thick: bool, gold: int) -> IceAndFireState:
    """Red's HQ corner and a salient along row 0 (rows 0 and 1 if ``thick``) to column 8; blue's land
    lies along it one row below, from column 2, and runs up column 11 from its HQ. Blue's level-3 unit
    far away eats its income: its gold is what it can spend next turn."""
    marks = {(x, 0): "R" for x in range(9)} | {(0, 1): "R", (1, 1): "R"}
    row = 2 if thick else 1
    if thick:
        marks |= {(x, 1): "R" for x in range(9)}
    marks |= {(x, row): "B" for x in range(2, 11)} | {(11, y): "B" for y in range(row, 12)}
    return state_from_rows(rows_with(marks), units=[(1, 1, 3, 11, 6)], gold=(10, gold))


def test_a_thin_salient_is_more_exposed_than_a_thick_one() -> None:
    thin, thick = board_of(salient(False, 15)), board_of(salient(True, 15))
    assert thin.compute_income(OPP) <= 0 and thick.compute_income(OPP) <= 0
    # One level-1 train on (2,0) parts (3,0)-(8,0) from the HQ; the thick salient needs two.
    assert exposure(thin, ME) == Exposure(6.0, 0.0)
    assert exposure(thick, ME) == Exposure(0.0, 0.0)


def test_the_strongest_replies_cut_the_salient_and_rush_the_hq() -> None:
    view = turn_start(board_of(salient(False, 20)), OPP)
    replies = strongest_replies(view, OPP, horizon=5.0, cuts=1, rushes=True)
    cut = replies[0]
    assert cut.what == "cut" and cut.target == cell_of(2, 0)
    assert cut.board.owner[cell_of(8, 0)] == ME and not cut.board.active[cell_of(8, 0)]
    assert replies[-1].what == "rush" and view.info.dist[replies[-1].target][view.hq[ME]] == 1
    finish = strongest_replies(turn_start(board_of(salient(False, 30)), OPP), OPP, 5.0, 2, True)
    assert [plan.what for plan in finish] == ["finish"]  # (1,1), (1,0) or (0,1), then the HQ


def test_the_wall_stands_where_a_loss_would_cut_most() -> None:
    board = board_of(salient(False, 15))
    front = front_cells(board)
    assert cell_of(2, 0) in front and cell_of(1, 1) in front and cell_of(0, 0) not in front
    first = max(front, key=lambda i: (cut_size(board, i), -i))
    assert first == cell_of(2, 0) and cut_size(board, first) == 7
    commands: list[str] = []
    after = wall(board.copy(), commands, limit=3)
    assert commands == ["TRAIN 1 2 0"] and after.gold[ME] == 0  # the gold for one unit
    assert exposure(after, ME).soon == 5.0  # now a train on (3,0) parts only (4,0)-(8,0)
