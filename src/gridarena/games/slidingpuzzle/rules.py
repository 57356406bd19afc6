"""The sliding puzzle as a game: :class:`SlidingPuzzle` and its state, over the boards of :mod:`.board`."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final

from gridarena.core.errors import StateFormatError
from gridarena.core.params import Choice, Flag, Int, Ints, Param, check_params
from gridarena.core.types import JSON, TERMINAL, BaseState, Outcome, Player
from gridarena.games.slidingpuzzle import formats
from gridarena.games.slidingpuzzle.board import (
    HOMEWORK_WALLS,
    MAX_CELLS,
    MAX_SIDE,
    WALL,
    Action,
    Board,
    BoardError,
    Cell,
    action_to_text,
    goal_board,
    legal_slides,
    parse_action,
    random_walk,
    slide,
)

MAX_SCRAMBLE: Final = 10_000
"""The longest random walk that scrambles a start board."""
MAX_MOVES: Final = 1_000_000
"""The largest slide limit of a game."""


class SlidingPuzzle:
    """A one-player sliding puzzle: reach the goal in as few slides as possible.

    ``variant="homework"`` is the NTU board (4x5, walls 8/10/12, two blanks); ``"classic"`` builds
    ``goal_board(rows, cols, blanks=..., walls=..., blank_first=...)``; an explicit ``goal`` (and
    ``start``) as row-major cells overrides both. Without ``start`` the initial board is a seeded
    random walk of ``scramble`` slides from the goal. The game ends at the goal, with returns
    ``(-slides,)``, or after ``max_moves`` slides without it, with ``(-(max_moves + 1),)``: worse
    than any solution, so random play ends and ranks below every solver.

    >>> game = SlidingPuzzle(rows=2, cols=2, scramble=3)
    >>> game.new_initial_state(seed=1).board.tiles
    (1, 2, 3)
    """

    name = "slidingpuzzle"
    num_players = 1
    enumerable_actions = True
    zero_sum = False
    #: The parameters and their ranges (docs/slidingpuzzle.md lists them), checked before a board is built.
    PARAMETERS: ClassVar[Mapping[str, Param]] = {
        "rows": Int(1, MAX_SIDE),
        "cols": Int(1, MAX_SIDE),
        "variant": Choice(("classic", "homework")),
        "blanks": Int(1, MAX_CELLS),
        "walls": Ints(MAX_CELLS, 0, MAX_CELLS - 1, optional=False),
        "blank_first": Flag(),
        "goal": Ints(MAX_CELLS, WALL, MAX_CELLS),
        "start": Ints(MAX_CELLS, WALL, MAX_CELLS),
        "scramble": Int(0, MAX_SCRAMBLE),
        "max_moves": Int(0, MAX_MOVES),
    }

    def __init__(
        self,
        rows: int = 3,
        cols: int = 3,
        *,
        variant: str = "classic",
        blanks: int = 1,
        walls: Sequence[Cell] = (),
        blank_first: bool = False,
        goal: Sequence[int] | None = None,
        start: Sequence[int] | None = None,
        scramble: int = 200,
        max_moves: int = 200,
    ) -> None:
        given = {"rows": rows, "cols": cols, "variant": variant, "blanks": blanks, "walls": walls}
        given |= {"blank_first": blank_first, "goal": goal, "start": start}
        check_params(self.name, self.PARAMETERS, {**given, "scramble": scramble, "max_moves": max_moves})
        if variant == "homework":
            rows, cols, blanks, walls, blank_first = 4, 5, 2, HOMEWORK_WALLS, False
        elif variant != "classic":
            raise BoardError(f"unknown sliding-puzzle variant {variant!r}; use 'classic' or 'homework'")
        self.goal = (
            Board(rows, cols, tuple(goal))
            if goal is not None
            else goal_board(rows, cols, blanks=blanks, walls=walls, blank_first=blank_first)
        )
        self.start = Board(rows, cols, tuple(start)) if start is not None else None
        if self.start is not None and self.start != self.goal and not legal_slides(self.start):
            # Every later board can slide back, so only a start can be stuck: a game that never ends.
            raise BoardError(f"{self.name}: start has no tile that can slide, and it is not the goal")
        self.scramble, self.max_moves = scramble, max_moves
        self._params: dict[str, JSON] = {
            "rows": rows,
            "cols": cols,
            "variant": variant,
            "goal": list(self.goal.cells),
            "start": None if start is None else list(start),
            "scramble": scramble,
            "max_moves": max_moves,
        }

    @property
    def params(self) -> Mapping[str, JSON]:
        """The parameters that rebuild this game."""
        return dict(self._params)

    def max_plies(self) -> int | None:
        """At most ``max_moves`` slides are played."""
        return self.max_moves

    def new_initial_state(self, seed: int | None = None) -> PuzzleState:
        """The given start, or a random walk from the goal seeded by ``seed`` (0 when None)."""
        board = self.start or random_walk(
            self.goal, self.scramble, random.Random(0 if seed is None else seed)
        )
        return PuzzleState(self, board)

    def state_from_json(self, data: Mapping[str, JSON]) -> PuzzleState:
        """Inverse of :meth:`PuzzleState.to_json`."""
        if not isinstance(data, Mapping):
            raise StateFormatError(
                f"slidingpuzzle: not a state: expected a JSON object, got {type(data).__name__}"
            )
        cells, moves = data.get("cells"), data.get("moves", 0)
        if not isinstance(cells, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in cells
        ):
            raise StateFormatError(
                "slidingpuzzle: not a state: field 'cells' must be a list of whole numbers"
            )
        if not isinstance(moves, int) or isinstance(moves, bool) or moves < 0:
            raise StateFormatError(
                f"slidingpuzzle: not a state: field 'moves' must be a whole number >= 0, got {moves!r}"
            )
        try:
            board = Board(self.goal.rows, self.goal.cols, tuple(cells))
            forfeit = data.get("forfeit")
            return PuzzleState(
                self,
                board,
                moves,
                None if forfeit is None else Outcome.from_json(forfeit),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise StateFormatError(f"slidingpuzzle: not a state: {error}") from error


@dataclass(frozen=True, slots=True)
class PuzzleState(BaseState[Action]):
    """A position of :class:`SlidingPuzzle`: the board and the number of slides made so far."""

    puzzle: SlidingPuzzle = field(repr=False, compare=False)
    board: Board
    moves: int = 0
    forfeited: Outcome | None = None

    @property
    def game(self) -> Any:
        return self.puzzle

    def current_player(self) -> Player:
        return TERMINAL if self.is_terminal() else 0

    def legal_actions(self) -> list[Action]:
        """Every legal slide, ascending; empty at the end."""
        return [] if self.is_terminal() else legal_slides(self.board)

    def _apply(self, action: Action) -> PuzzleState:
        return PuzzleState(self.puzzle, slide(self.board, action), self.moves + 1)

    def is_solved(self) -> bool:
        """True when the board is the goal."""
        return self.board == self.puzzle.goal

    def is_terminal(self) -> bool:
        return self.forfeited is not None or self.is_solved() or self.moves >= self.puzzle.max_moves

    def outcome(self) -> Outcome | None:
        if self.forfeited is not None:
            return self.forfeited
        if self.is_solved():
            return Outcome((-float(self.moves),), "normal", f"solved in {self.moves} slides")
        if self.moves >= self.puzzle.max_moves:
            return Outcome((-float(self.puzzle.max_moves + 1),), "adjudicated", "move cap reached unsolved")
        return None

    def forfeit(self, player: Player, termination: str, reason: str) -> PuzzleState:
        result = Outcome((-float(self.puzzle.max_moves + 1),), termination, reason, player)
        return PuzzleState(self.puzzle, self.board, self.moves, result)

    def action_to_string(self, action: Action) -> str:
        return action_to_text(action)

    def string_to_action(self, text: str) -> Action:
        return parse_action(text)

    def to_json(self) -> dict[str, JSON]:
        return {
            "cells": list(self.board.cells),
            "moves": self.moves,
            "forfeit": None if self.forfeited is None else self.forfeited.to_json(),
        }

    def to_text(self) -> str:
        return f"{formats.render_board(self.board)}\nslides {self.moves}"
