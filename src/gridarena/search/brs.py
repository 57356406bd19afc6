"""Best-reply search (Schadd and Winands, 2011) over the generic state API.

BRS alternates a layer where the searching player moves (it maximises its value) with one layer
where, of all its opponents, only the one with the most damaging reply moves (the minimum). That
makes the searcher's own moves reach deeper than in paranoid search at the same cost.

A generic state cannot let an opponent move out of turn, so the opponents whose reply is not the
one searched play a fixed move instead of passing, as in BRS+ (Esser et al., 2013): the move that
is best for them by one ply of ``evaluate``, first on ties. A MIN layer thus tries, for every
opponent in turn order, each of its moves with the others' fixed moves around it, up to the
searcher's next turn. Each layer counts as one ply of ``depth``; with two players BRS is alpha-beta.
Chance nodes are refused.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from gridarena.core.clock import TimeControl
from gridarena.core.types import CHANCE, TERMINAL, GameState, Player
from gridarena.search.adversarial import (
    Action,
    Evaluate,
    Progress,
    SearchResult,
    root_player,
    terminal_value,
)
from gridarena.search.errors import SearchAborted, UnsupportedGameError
from gridarena.search.iterative import deepen


@dataclass(slots=True)
class _BestReply:
    evaluate: Evaluate
    player: Player
    clock: TimeControl | None
    nodes: int = 0
    cut: bool = False
    root_best: Action | None = None

    def value(
        self, state: GameState[Any], depth: int, alpha: float, beta: float, root: bool = False
    ) -> float:
        """The BRS value of ``state`` for the searching player, fail-soft within (alpha, beta)."""
        self.nodes += 1
        if self.clock is not None and self.clock.tick():
            raise SearchAborted("the time control stopped the search")
        mover = state.current_player()
        if mover == TERMINAL:
            return terminal_value(state, self.player)
        if depth <= 0:
            self.cut = True
            return self.evaluate(state, self.player)
        if mover == CHANCE:
            raise UnsupportedGameError(f"{state.game.name}: best-reply search does not handle chance nodes")
        if mover == self.player:
            return self._max_layer(state, depth, alpha, beta, root)
        best = math.inf
        for reply in self.replies(state):
            best = min(best, self.value(reply, depth - 1, alpha, beta))
            beta = min(beta, best)
            if alpha >= beta:
                break
        return best

    def _max_layer(self, state: GameState[Any], depth: int, alpha: float, beta: float, root: bool) -> float:
        best, best_action = -math.inf, None
        for action in state.legal_actions():
            value = self.value(state.child(action), depth - 1, alpha, beta)
            if best_action is None or value > best:
                best, best_action = value, action
                alpha = max(alpha, best)
                if alpha >= beta:
                    break
        if root:
            self.root_best = best_action
        return best

    def replies(self, state: GameState[Any]) -> Iterator[GameState[Any]]:
        """The states after one opponent's reply and the others' fixed moves, up to the searcher's turn."""
        first = True
        while self._opponent_to_move(state):
            fixed = self.fixed_move(state)
            for action in state.legal_actions():
                if first or action != fixed:
                    yield self._others_fixed(state.child(action))
            state, first = state.child(fixed), False

    def _others_fixed(self, state: GameState[Any]) -> GameState[Any]:
        """Play every opponent's fixed move until the searcher moves or the game ends."""
        while self._opponent_to_move(state):
            state = state.child(self.fixed_move(state))
        return state

    def _opponent_to_move(self, state: GameState[Any]) -> bool:
        mover = state.current_player()
        if mover == CHANCE:
            raise UnsupportedGameError(f"{state.game.name}: best-reply search does not handle chance nodes")
        return mover not in (TERMINAL, self.player)

    def fixed_move(self, state: GameState[Any]) -> Action:
        """The move of an opponent that does not reply: its best by one ply of ``evaluate``."""
        mover = state.current_player()
        best, best_value = None, -math.inf
        for action in state.legal_actions():
            child = state.child(action)
            value = (
                terminal_value(child, mover)
                if child.current_player() == TERMINAL
                else self.evaluate(child, mover)
            )
            if best is None or value > best_value:
                best, best_value = action, value
        return best


def brs(
    state: GameState[Any],
    depth: int,
    evaluate: Evaluate,
    player: Player | None = None,
    *,
    clock: TimeControl | None = None,
) -> SearchResult:
    """The best-reply value of ``state`` at ``depth`` layers for ``player`` and a best action.

    >>> from gridarena.games.isolation.rules import Isolation
    >>> state = Isolation(4, 4).new_initial_state().child(5).child(10)
    >>> brs(state, 3, lambda s, p: 0.0)  # two players: the same as alpha-beta
    SearchResult(score=0.0, best=11, nodes=21, exact=False, values=None)
    """
    search = _BestReply(evaluate, root_player(state, player), clock)
    score = search.value(state, depth, -math.inf, math.inf, root=True)
    return SearchResult(score, search.root_best, search.nodes, not search.cut)


def brs_deepening(
    state: GameState[Any],
    evaluate: Evaluate,
    clock: TimeControl | None = None,
    player: Player | None = None,
    *,
    max_depth: int | None = None,
) -> Iterator[Progress]:
    """Iterative-deepening best-reply search: yields a progress after each completed depth."""
    return deepen(lambda d: brs(state, d, evaluate, player, clock=clock), clock, max_depth)
