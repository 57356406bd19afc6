"""An Isolation bot of your own: the move that leaves it the most moves and its opponent the fewest.

In this process:  gridarena play isolation --players 'python(file=mybot.py),random'
As a program:     gridarena play isolation --players "external(cmd='python3 mybot.py',name=mine),random"
"""

import sys

from gridarena import BaseBot, Decision
from gridarena.bots.jsonl import serve
from gridarena.core.clock import TimeControl
from gridarena.games.isolation.rules import State


class MostMoves(BaseBot):
    """One ply deep: each legal cell is valued by the moves it leaves the two players (AIND's "improved")."""

    name = "mostmoves"

    def act(self, state: State, clock: TimeControl) -> Decision:
        me, opponent = state.current_player(), 1 - state.current_player()
        values = {}
        for cell in state.legal_actions():
            after = state.child(cell)  # a new state: `state` itself never changes
            values[cell] = len(after.moves_of(me)) - len(after.moves_of(opponent))
        best = max(values.values())
        choice = self.rng.choice([cell for cell, value in values.items() if value == best])
        return Decision(choice, {"value": best})


if __name__ == "__main__":  # run as a program, it speaks the jsonl protocol on stdin and stdout
    serve(MostMoves(), sys.stdin, sys.stdout)
