"""An Ice and Fire bot of your own: every unit marches on the enemy HQ, the gold trains more behind them.

In this process:  gridarena play iceandfire --players 'python(file=mybot.py),wood2' --time 1/0.05
As a program:     gridarena play iceandfire --players "external(cmd='python3 mybot.py',name=mine),wood2" --time 1/0.05
On CodinGame's protocol: gridarena iceandfire match --p1 "python3 -m gridarena.cli.iceandfire bot 'python(file=mybot.py)'" --p2 wood2
"""

import sys

from gridarena import BaseBot, Decision
from gridarena.bots.jsonl import serve
from gridarena.core.clock import TimeControl
from gridarena.games.iceandfire.rules import IceAndFireState

UNIT_COST = 10  # gold for a level-1 unit


class Rusher(BaseBot):
    """One turn: each unit MOVEs towards the enemy HQ (the referee walks it one cell along a shortest
    path), then level-1 units are trained on the cells nearest that HQ while the gold lasts."""

    name = "rusher"

    def act(self, state: IceAndFireState, clock: TimeControl) -> Decision:
        me = state.current_player()  # 0: red, HQ at (0, 0); 1: blue, HQ at (11, 11)
        hx, hy = (11, 11) if me == 0 else (0, 0)
        commands = [f"MOVE {unit.id} {hx} {hy}" for unit in state.units if unit.owner == me]
        # The position after the moves, still in this turn: its legal commands are the ones to add.
        after = state.after_commands(state.string_to_action(";".join(commands or ["WAIT"])))
        trains = [c for c in after.legal_texts() if c.startswith("TRAIN 1 ")]  # "TRAIN 1 x y"
        trains.sort(key=lambda text: abs(int(text.split()[2]) - hx) + abs(int(text.split()[3]) - hy))
        commands += trains[: after.gold[me] // UNIT_COST]
        turn = ";".join(commands or ["WAIT"])
        return Decision(
            state.string_to_action(turn), {"trains": min(len(trains), after.gold[me] // UNIT_COST)}
        )


if __name__ == "__main__":  # run as a program, it speaks the jsonl protocol on stdin and stdout
    serve(Rusher(), sys.stdin, sys.stdout)
