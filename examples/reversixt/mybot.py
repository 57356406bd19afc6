"""A ReversiXT bot of your own: it counts the stones after each move and prefers corners and edges.

In this process:  gridarena play 'reversixt(map=othello8)' --players 'python(file=mybot.py),random'
As a program:     gridarena play 'reversixt(map=othello8)' --players "external(cmd='python3 mybot.py',name=mine),random"
On a server:      gridarena reversixt client --port 7777 --group 5 --bot 'python(file=mybot.py)'
"""

import sys

from gridarena import BaseBot, Decision
from gridarena.bots.jsonl import serve
from gridarena.core.clock import TimeControl
from gridarena.games.reversixt.formats import HOLE
from gridarena.games.reversixt.rules import ReversiState

AROUND = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]


class StonesAndCorners(BaseBot):
    """One ply deep: its lead in stones over the best of the others after the move, plus 3 points per
    side of the field that is a hole or off the board (a stone there is hard to take back)."""

    name = "stonesandcorners"

    def act(self, state: ReversiState, clock: TimeControl) -> Decision:
        me = state.current_player()  # seat 0 is map player 1
        values = {}
        for move in state.legal_actions():  # Move(x, y, special): a choice field once per player to swap with
            stones = [n or 0 for n in state.child(move).scores()]  # None: a disqualified player
            lead = stones[me] - max(n for seat, n in enumerate(stones) if seat != me)
            sheltered = self.closed_sides(state, move.x, move.y) if state.phase == 1 else 0  # phase 2: bombs
            values[move] = lead + 3 * sheltered
        best = max(values.values())
        choice = self.rng.choice([move for move, value in values.items() if value == best])
        return Decision(choice, {"value": best})

    def closed_sides(self, state: ReversiState, x: int, y: int) -> int:
        """Of the 8 neighbours of field (x, y), those off the board or holes (transitions are not counted)."""
        width, height = state.game.board.width, state.game.board.height
        open_sides = sum(
            0 <= x + dx < width and 0 <= y + dy < height and state.cells[(y + dy) * width + x + dx] != HOLE
            for dx, dy in AROUND
        )
        return 8 - open_sides


if __name__ == "__main__":  # run as a program, it speaks the jsonl protocol on stdin and stdout
    serve(StonesAndCorners(), sys.stdin, sys.stdout)
