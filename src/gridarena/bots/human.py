"""A person at the terminal, for every game: shows the state, reads an action as text."""

from __future__ import annotations

import sys
from typing import Any, TextIO

from gridarena.core.bot import BaseBot, Decision
from gridarena.core.clock import TimeControl
from gridarena.core.errors import GridArenaError
from gridarena.core.types import Game, GameState


class HumanQuit(GridArenaError):
    """The human closed the input (end of file) or typed ``quit``."""


class HumanBot(BaseBot):
    """Shows the state and the legal actions (where the game lists them), reads one such as ``d4``."""

    name = "human"

    def __init__(
        self, seed: int | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None
    ) -> None:
        super().__init__(seed)
        self.stdin, self.stdout = stdin or sys.stdin, stdout or sys.stderr

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        """Prompt until the answer is a legal action; ``quit`` or end of input forfeits."""
        print(state.to_text(), file=self.stdout)
        legal = ""
        if state.game.enumerable_actions:
            legal = (
                "legal moves: " + " ".join(state.action_to_string(a) for a in state.legal_actions()) + "\n"
            )
        while True:
            print(f"{legal}your move (or quit): ", end="", file=self.stdout, flush=True)
            line = self.stdin.readline()
            if not line or line.strip().lower() in {"quit", "q", "exit"}:
                raise HumanQuit("the human player left the game")
            try:
                action = state.string_to_action(line.strip())
            except GridArenaError as exc:
                print(exc, file=self.stdout)
                continue
            reason = state.illegal_reason(action)
            if reason is None:
                return Decision(action)
            print(reason, file=self.stdout)


def make_human_bot(game: Game[Any], seed: int | None = None) -> HumanBot:
    """Registry factory: a human at the terminal (stdin for moves, stderr for the board)."""
    return HumanBot(seed)
