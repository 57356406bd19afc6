"""A Pentocity player of your own: it packs each building against the built land, along streets it lays.

In this process:  gridarena play pentocity --players 'python(file=mybot.py)'
As a program:     gridarena play pentocity --players "external(cmd='python3 mybot.py',name=mine)"
"""

import sys

from gridarena import BaseBot, Decision
from gridarena.bots.jsonl import serve
from gridarena.core.clock import TimeControl
from gridarena.games.pentocity import SIDE, CellType, Move, PentocityState

STREETS = (6, 13, 20, 27, 34, 41)  # rows kept free, each laid as a road across the land when needed


class Packer(BaseBot):
    """Of the placements that need no new road (``state.placements()``) and keep off the streets, the
    one with the most sides against built cells or the edge of the land (the first in reading order
    among equals). When none is left, the next street is laid with a building beside it; when no
    building fits beside it either, the request is rejected (the third rejection ends the game)."""

    name = "packer"

    def act(self, state: PentocityState, clock: TimeControl) -> Decision:
        moves = [move for move in state.placements() if not self.on_street(state, move)]
        if not moves:
            moves = self.beside_the_next_street(state)
        if not moves:
            return Decision(Move.reject())
        best = max(moves, key=lambda move: self.contact(state, move))
        return Decision(best, {"contact": self.contact(state, best), "choices": len(moves)})

    def cells(self, state: PentocityState, move: Move) -> set[tuple[int, int]]:
        """The land cells (row, column) the building of ``move`` covers."""
        shape = state.request.rotations()[move.rotation]  # cells relative to the top-left corner
        return {(move.location[0] + i, move.location[1] + j) for i, j in shape}

    def on_street(self, state: PentocityState, move: Move) -> bool:
        return any(row in STREETS for row, _ in self.cells(state, move))

    def beside_the_next_street(self, state: PentocityState) -> list[Move]:
        """Placements right above or below the first street not laid yet, each laying it whole."""
        unlaid = [row for row in STREETS if state.land[row, 0] == CellType.EMPTY]
        if not unlaid:
            return []
        street = [(unlaid[0], column) for column in range(SIDE)]  # it reaches the edge: connected
        found = []
        for rotation, shape in enumerate(state.request.rotations()):
            height = 1 + max(i for i, _ in shape)
            for top in (unlaid[0] - height, unlaid[0] + 1):
                for left in range(SIDE):
                    move = Move.build((top, left), rotation, road=street)
                    if not self.on_street(state, move) and state.illegal_reason(move) is None:
                        found.append(move)
        return found

    def contact(self, state: PentocityState, move: Move) -> int:
        """Sides of the building's cells that touch a non-EMPTY cell or the edge of the land."""
        cells = self.cells(state, move)
        touching = 0
        for i, j in cells:
            for ni, nj in ((i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1)):
                if (ni, nj) in cells:
                    continue
                if not (0 <= ni < SIDE and 0 <= nj < SIDE) or state.land[ni, nj] != CellType.EMPTY:
                    touching += 1  # off the land, or built (a street too)
        return touching


if __name__ == "__main__":  # run as a program, it speaks the jsonl protocol on stdin and stdout
    serve(Packer(), sys.stdin, sys.stdout)
