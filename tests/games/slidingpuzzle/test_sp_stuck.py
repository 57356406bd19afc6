"""A board on which no tile can slide (issue 31: a hint on an all-blank 2x2 puzzle was a 500).

The start [0,0,0,0] under the goal [1,2,3,0] has no legal slide, yet it is not the goal: a state that is
not terminal and has no legal action, which the game API forbids. The game refuses such a start, and the
solver names the problem instead of calling ``min`` on no slides.
"""

from __future__ import annotations

import pytest

from gridarena import make, make_bot
from gridarena.core.clock import TimeControl
from gridarena.core.errors import GridArenaError
from gridarena.games.slidingpuzzle.board import Board
from gridarena.games.slidingpuzzle.rules import PuzzleState


@pytest.mark.parametrize(
    "spec",
    [
        "slidingpuzzle(rows=2,cols=2,start=[0,0,0,0])",
        "slidingpuzzle(rows=2,cols=2,goal=[1,-1,-1,0],start=[0,-1,-1,1])",  # each blank walled in
    ],
)
def test_a_start_where_no_tile_can_slide_is_refused(spec: str) -> None:
    with pytest.raises(GridArenaError, match="start has no tile that can slide"):
        make(spec)


def test_an_all_blank_goal_is_solved_at_the_start() -> None:
    state = make("slidingpuzzle(rows=2,cols=2,blanks=4)").new_initial_state(1)
    assert state.is_terminal() and state.legal_actions() == []


def test_the_solver_names_a_board_without_a_slide() -> None:
    game = make("slidingpuzzle(rows=2,cols=2)")
    stuck = PuzzleState(game, Board(2, 2, (0, 0, 0, 0)))  # only a hand-made state can be stuck now
    bot = make_bot(game, "solver")
    with pytest.raises(GridArenaError, match="no tile can slide"):
        bot.act(stuck, TimeControl.for_seconds(1))
