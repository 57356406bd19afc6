"""Max^n (Luckhardt and Irani, 1986): each player maximises its own component of a value vector.

A leaf's vector is ``evaluate(leaf, p)`` for every player ``p`` (``returns() * WIN`` at the end of
the game); at a player's node the child whose vector is best for that player wins, the first one
on ties. Chance nodes take the expected vector and do not use up depth.

**Pruning.** Only shallow pruning (Korf, 1991) stays valid in max^n, and only with bounds: if every
leaf vector has components ``>= lower`` and a sum ``<= total``, then once the player to move at a
node has found ``v_i >= total - (n - 2) * lower - b``, where ``b`` is the best value its parent's
player has found so far, the parent's player can get at most ``b`` here, and the remaining children
are skipped. The result is the same as without pruning (the parent keeps its first best child).
Pass ``bounds=(lower, total)`` to enable it; a leaf outside them raises
:class:`~gridarena.search.errors.InvalidBoundsError` rather than silently giving a wrong answer.
Deep pruning is not valid in max^n and is not done.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from gridarena.core.clock import TimeControl
from gridarena.core.types import CHANCE, TERMINAL, GameState, Player
from gridarena.search.adversarial import (
    WIN,
    Action,
    Evaluate,
    Progress,
    SearchResult,
    root_player,
)
from gridarena.search.errors import InvalidBoundsError, SearchAborted, UnsupportedGameError
from gridarena.search.iterative import deepen

Vector = tuple[float, ...]


@dataclass(slots=True)
class _MaxN:
    evaluate: Evaluate
    players: int
    bounds: tuple[float, float] | None
    clock: TimeControl | None
    nodes: int = 0
    cut: bool = False
    root_best: Action | None = None

    def value(
        self, state: GameState[Any], depth: int, parent: Player | None, parent_best: float, root: bool = False
    ) -> Vector:
        """The max^n vector of ``state``; ``parent`` and its best value so far allow shallow pruning."""
        self.nodes += 1
        if self.clock is not None and self.clock.tick():
            raise SearchAborted("the time control stopped the search")
        mover = state.current_player()
        if mover == TERMINAL:
            return self._checked(state, tuple(r * WIN for r in state.returns()))
        if mover == CHANCE:
            return self._expectation(state, depth)
        if depth <= 0:
            self.cut = True
            return self._checked(state, tuple(self.evaluate(state, p) for p in range(self.players)))
        best: Vector | None = None
        best_action: Action | None = None
        for action in state.legal_actions():
            vector = self.value(
                state.child(action), depth - 1, mover, -math.inf if best is None else best[mover]
            )
            if best is None or vector[mover] > best[mover]:
                best, best_action = vector, action
                if self._prunes(best[mover], mover, parent, parent_best):
                    break
        if best is None:
            raise UnsupportedGameError(f"{state.game.name}: player {mover} to move has no legal action")
        if root:
            self.root_best = best_action
        return best

    def _prunes(self, mine: float, mover: Player, parent: Player | None, parent_best: float) -> bool:
        """Shallow pruning: the parent's player cannot do better here than it already has."""
        if self.bounds is None or parent is None or parent == mover:
            return False
        lower, total = self.bounds
        return mine >= total - (self.players - 2) * lower - parent_best

    def _expectation(self, state: GameState[Any], depth: int) -> Vector:
        """A chance node's vector: its outcomes' vectors weighted by probability (no pruning below)."""
        total = [0.0] * self.players
        for outcome, p in state.chance_outcomes():
            for i, v in enumerate(self.value(state.child(outcome), depth, None, -math.inf)):
                total[i] += p * v
        return tuple(total)

    def _checked(self, state: GameState[Any], vector: Vector) -> Vector:
        """``vector``, after checking it against the promised pruning bounds."""
        if self.bounds is not None:
            lower, total = self.bounds
            if min(vector) < lower or sum(vector) > total:
                raise InvalidBoundsError(
                    f"{state.game.name}: leaf values {vector} break the max^n bounds "
                    f"(each >= {lower}, sum <= {total}); pass bounds=None to search without pruning"
                )
        return vector


def maxn(
    state: GameState[Any],
    depth: int,
    evaluate: Evaluate,
    player: Player | None = None,
    *,
    bounds: tuple[float, float] | None = None,
    clock: TimeControl | None = None,
) -> SearchResult:
    """The max^n vector of ``state`` at ``depth`` plies; ``score`` is ``player``'s component.

    >>> from gridarena.games.isolation.rules import Isolation
    >>> state = Isolation(4, 4).new_initial_state().child(5).child(10)
    >>> result = maxn(state, 3, lambda s, p: float(len(s.moves_of(p))))
    >>> result.values, result.best
    ((2.0, 2.0), 11)
    """
    search = _MaxN(evaluate, state.game.num_players, bounds, clock)
    me = root_player(state, player)
    values = search.value(state, depth, None, -math.inf, root=True)
    best = search.root_best
    return SearchResult(values[me], best, search.nodes, not search.cut, values)


def maxn_deepening(
    state: GameState[Any],
    evaluate: Evaluate,
    clock: TimeControl | None = None,
    player: Player | None = None,
    *,
    max_depth: int | None = None,
    bounds: tuple[float, float] | None = None,
) -> Iterator[Progress]:
    """Iterative-deepening max^n: yields a progress after each completed depth."""
    return deepen(lambda d: maxn(state, d, evaluate, player, bounds=bounds, clock=clock), clock, max_depth)
