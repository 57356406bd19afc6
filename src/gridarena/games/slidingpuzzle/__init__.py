"""Sliding-tile puzzles: the NTU homework variant (walls, two blanks) and the classic N-puzzle."""

from gridarena.games.slidingpuzzle.board import Board
from gridarena.games.slidingpuzzle.rules import PuzzleState, SlidingPuzzle

__all__ = ["Board", "PuzzleState", "SlidingPuzzle"]
