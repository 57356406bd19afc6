"""``survive``: with three or more players, a line that leaves the searcher no stone is valued as a
game he ends last, not by his gap to the others."""

from __future__ import annotations

from gridarena.core.registry import make_bot
from gridarena.games.reversixt.fast import layout as L
from gridarena.games.reversixt.fast.engine import Engine
from gridarena.games.reversixt.fast.evaluate import WIN_STEP
from gridarena.games.reversixt.formats import Move, parse_map
from gridarena.games.reversixt.rules import ReversiXT

# Player 1 (to move) has one stone, on (5,2). Taking (3,2) captures (4,2); player 2 then plays
# (2,2) and takes both of player 1's stones. Taking (5,0) captures (5,1) and leaves player 2 no
# such reply. (Found among random positions; a two-ply search is where the wipe-out is its leaf.)
ROWS = """\
2 0 3 2 0 0 0
0 0 3 0 0 2 0
3 0 0 0 2 1 2
0 3 2 0 0 0 0
0 0 2 2 3 0 2"""
GAME = ReversiXT.from_map(parse_map(f"3\n0\n0 0\n5 7\n{ROWS}\n"))


def wiping_replies(move: Move) -> list[Move]:
    after = GAME.new_initial_state().apply_action(move)
    return [m for m in after.legal_actions() if after.apply_action(m).scores()[0] == 0]


def test_the_rules_let_player_2_wipe_out_player_1_after_one_move_only() -> None:
    state = GAME.new_initial_state()
    assert state.legal_actions() == [Move(3, 2, 0), Move(5, 0, 0)]
    assert wiping_replies(Move(3, 2, 0)) == [Move(2, 2, 0)]
    assert wiping_replies(Move(5, 0, 0)) == []


def test_measured_by_his_gap_he_walks_into_it_and_with_survive_he_does_not() -> None:
    state = GAME.new_initial_state()
    found = {
        s: Engine(GAME.board, mode="brs", evaluation="map", survive=s).search(state, max_depth=2)
        for s in (0, 1)
    }
    assert found[0].move == (3, 2, 0) and found[0].score > -WIN_STEP  # no stone: only a few stones less
    assert found[1].move == (5, 0, 0) and found[1].score > -WIN_STEP  # the line it plays keeps a stone


def test_the_bot_takes_survive_as_a_parameter() -> None:
    bot = make_bot(GAME, "best(survive=1)")
    assert bot.engine(GAME.board).ctl[L.SURVIVE] == 1
    assert make_bot(GAME, "best").engine(GAME.board).ctl[L.SURVIVE] == 0
