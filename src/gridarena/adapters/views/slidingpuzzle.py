"""The sliding puzzle as a learner sees it: the game's own packed slides, one plane per tile.

Actions: ``cell * 4 + direction`` (0 up, 1 down, 2 left, 3 right), the game's own action integers:
``rows * cols * 4`` indices, 80 on the 4x5 homework board. Planes (``rows`` x ``cols``): one per tile
of the goal, in tile order, then the blanks and the walls. The score is minus the slides so far, so
every slide costs a reward of -1, and it ends at the game's return (``-slides`` when solved, the
capped ``-(max_moves + 1)`` when not).

>>> from gridarena.core.registry import make
>>> view = SlidingPuzzleView(make("slidingpuzzle(variant=homework)"))
>>> view.num_actions, len(view.plane_names), view.shape
(80, 17, (4, 5))
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gridarena.adapters.views import Planes, Position, View, one_hot
from gridarena.core.types import Game, Player
from gridarena.games.slidingpuzzle import PuzzleState
from gridarena.games.slidingpuzzle.board import BLANK, WALL, Action


class SlidingPuzzleView(View):
    """Slides as actions; planes per tile, blanks, walls."""

    def __init__(self, game: Game[Any]) -> None:
        super().__init__(game)
        goal = game.goal  # type: ignore[attr-defined]
        self.shape = (goal.rows, goal.cols)
        self.num_actions = goal.rows * goal.cols * 4
        self.codes = (*goal.tiles, BLANK, WALL)
        self.plane_names = (*(f"tile {t}" for t in goal.tiles), "blank", "wall")

    def legal_indices(self, state: Any) -> list[int]:
        """The game's legal slides are already the indices, ascending."""
        legal: list[int] = state.legal_actions()
        return legal

    def encode(self, state: Any, action: Action) -> int:
        return int(action)

    def decode(self, state: Any, index: int) -> Action:
        return int(index)

    running_score = True

    def score(self, pos: Position, player: Player) -> float:
        """Minus the slides so far; the game's return at the end."""
        state = pos.state
        assert isinstance(state, PuzzleState)
        return state.returns()[0] if state.is_terminal() else -float(state.moves)

    def utility_range(self) -> tuple[float, float]:
        """From the capped ``-(max_moves + 1)`` to 0 (a start that is already solved)."""
        return (-float(self.game.max_plies() + 1), 0.0)  # type: ignore[operator]

    def planes(self, state: PuzzleState, player: Player) -> Planes:
        """One plane per tile, then blanks and walls."""
        return one_hot(np.array(state.board.cells).reshape(self.shape), self.codes)
