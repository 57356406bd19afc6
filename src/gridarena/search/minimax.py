"""Minimax at a fixed depth: the plain oracle that alpha-beta and the tables are checked against.

The searching player maximises, every other player minimises its value (with more than two
players this is the paranoid assumption). Leaves are evaluated only at the depth limit or the end
of the game, so ``nodes`` is exactly the size of the tree cut at ``depth``. Chance nodes take the
expectation over their outcomes and do not use up depth (a leaf is never a chance node).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gridarena.core.clock import TimeControl
from gridarena.core.types import CHANCE, TERMINAL, GameState, Player
from gridarena.search.adversarial import (
    Action,
    Evaluate,
    SearchResult,
    root_player,
    terminal_value,
)
from gridarena.search.errors import SearchAborted


@dataclass(slots=True)
class _Minimax:
    evaluate: Evaluate
    player: Player
    clock: TimeControl | None
    nodes: int = 0
    cut: bool = False

    def value(self, state: GameState[Any], depth: int) -> float:
        """The minimax value of ``state`` searched ``depth`` plies deep."""
        self.nodes += 1
        if self.clock is not None and self.clock.tick():
            raise SearchAborted("the time control stopped the search")
        mover = state.current_player()
        if mover == TERMINAL:
            return terminal_value(state, self.player)
        if mover == CHANCE:
            return sum(p * self.value(state.child(o), depth) for o, p in state.chance_outcomes())
        if depth <= 0:
            self.cut = True
            return self.evaluate(state, self.player)
        values = (self.value(state.child(a), depth - 1) for a in state.legal_actions())
        return max(values) if mover == self.player else min(values)


def minimax(
    state: GameState[Any],
    depth: int,
    evaluate: Evaluate,
    player: Player | None = None,
    clock: TimeControl | None = None,
) -> SearchResult:
    """The minimax value of ``state`` at ``depth`` plies for ``player`` and the first best action.

    >>> from gridarena.games.isolation.rules import state_from_board
    >>> state = state_from_board(["1.#", "#.#", "#.2"])  # player 1 (at a1) to move, and loses
    >>> minimax(state, 2, lambda s, p: 0.0)
    SearchResult(score=-1000000000.0, best=7, nodes=3, exact=True, values=None)
    >>> minimax(state, 1, lambda s, p: 0.0)  # the heuristic is 0 at b3, where player 2 still moves
    SearchResult(score=0.0, best=7, nodes=2, exact=False, values=None)
    """
    search = _Minimax(evaluate, root_player(state, player), clock)
    search.nodes = 1
    mover = state.current_player()
    if mover == TERMINAL or depth <= 0:
        search.nodes = 0
        return SearchResult(search.value(state, depth), None, search.nodes, not search.cut)
    best: Action | None = None
    score = 0.0
    maximise = mover == search.player
    for action in state.legal_actions():
        value = search.value(state.child(action), depth - 1)
        if best is None or (value > score if maximise else value < score):
            best, score = action, value
    return SearchResult(score, best, search.nodes, not search.cut)
