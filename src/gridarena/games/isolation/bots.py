"""Isolation's own bots (a human at the terminal, one-ply greedy) and its evaluation functions."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TextIO

from gridarena.bots.base import BaseBot, Decision
from gridarena.core.clock import TimeControl
from gridarena.core.errors import GridArenaError
from gridarena.core.types import Game, GameState
from gridarena.games.isolation import heuristics
from gridarena.games.isolation.rules import State


class HumanQuit(GridArenaError):
    """The human closed the input (end of file) or typed ``quit``."""


class HumanBot(BaseBot):
    """A person at the terminal: shows the board and the legal moves, reads a cell such as ``d4``."""

    name = "human"

    def __init__(
        self, seed: int | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None
    ) -> None:
        super().__init__(seed)
        self.stdin, self.stdout = stdin or sys.stdin, stdout or sys.stderr

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        """Prompt until the answer is a legal move; ``quit`` or end of input forfeits."""
        print(state.to_text(), file=self.stdout)
        moves = " ".join(state.action_to_string(a) for a in state.legal_actions())
        while True:
            print(f"legal moves: {moves}\nyour move (or quit): ", end="", file=self.stdout, flush=True)
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


class GreedyBot(BaseBot):
    """One-ply search: the move after which the mover has the most moves (ties: lowest cell).

    This is the 2018 AIND ``GreedyPlayer`` with liberties counted by the reference rules.
    """

    name = "greedy"

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        """Pick the move that keeps the most follow-up moves for the mover."""
        assert isinstance(state, State)
        mover = state.current_player()
        best = max(state.legal_actions(), key=lambda cell: (len(state.child(cell).moves_of(mover)), -cell))
        return Decision(best)


def make_human_bot(game: Game[Any], seed: int | None = None) -> HumanBot:
    """Registry factory: a human at the terminal (stdin for moves, stderr for the board)."""
    return HumanBot(seed)


def make_greedy_bot(game: Game[Any], seed: int | None = None) -> GreedyBot:
    """Registry factory of :class:`GreedyBot`."""
    return GreedyBot(seed)


#: Evaluation functions for the search bots (``alphabeta(heuristic=improved)``); ``default`` is
#: what a search bot uses when no heuristic is named: AIND's baseline, ``improved``.
EVALUATORS: dict[str, Callable[[State, int], float]] = {
    "default": heuristics.improved,
    **heuristics.HEURISTICS,
}
