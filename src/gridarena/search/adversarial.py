"""What every game-tree search here shares: the evaluation type, terminal values and results.

**Values.** A search values positions from one player's point of view (``player``, by default the
player to move at the root), as AIND's agents do: ``evaluate(state, player)`` at leaves cut by the
depth limit, and :func:`terminal_value` at finished games. Terminal values are the game's
``returns()`` times :data:`WIN` (10^9), so a won game beats any heuristic value a game offers (they
must stay within +-10^8). There is no adjustment for the distance to the end: every algorithm then
reads a value straight from a leaf, so alpha-beta, minimax and the tables agree to the last bit.

**Nodes.** ``nodes`` counts the states a search visited: every call on a state, the root included,
whether it was expanded, evaluated, terminal or answered by the transposition table. For plain
minimax it is the size of the tree cut at the depth limit.

**Players.** ``current_player()`` is the one query made of a state to tell a finished game
(``TERMINAL``) and a chance node (``CHANCE``) from a player's turn.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Final, TypeAlias

from gridarena.core.types import GameState, Player
from gridarena.search.errors import UnsupportedGameError

Action: TypeAlias = Hashable
Evaluate: TypeAlias = Callable[[Any, Player], float]
"""``evaluate(state, player) -> float``: how good a non-terminal ``state`` is for ``player``."""

WIN: Final = 1e9
"""Scale of terminal values: ``returns()[player] * WIN``."""


def terminal_value(state: GameState[Any], player: Player) -> float:
    """The value of a finished game for ``player``: its return times :data:`WIN`."""
    return state.returns()[player] * WIN


def root_player(state: GameState[Any], player: Player | None) -> Player:
    """The player whose values a search maximises: ``player``, or the one to move at the root.

    Every search calls it once at its root, so it also refuses games whose actions cannot be listed
    (checked here rather than at each node, where reading ``state.game`` would cost time).
    """
    if not state.game.enumerable_actions:
        raise UnsupportedGameError(
            f"{state.game.name}: its actions cannot be enumerated, so it cannot be searched"
        )
    if player is not None:
        return player
    mover = state.current_player()
    if mover < 0:
        raise UnsupportedGameError(
            f"{state.game.name}: search needs a player to move at the root (got {mover})"
        )
    return mover


@dataclass(frozen=True, slots=True)
class SearchResult:
    """One depth-limited search: ``score`` for the searching player, the first best action, counts.

    ``best`` is None when the root is finished or the depth is 0. ``exact`` is True when no leaf
    was cut by the depth limit, so a deeper search would return the same value. ``values`` holds
    every player's value where the algorithm computes them (max^n).
    """

    score: float
    best: Action | None
    nodes: int
    exact: bool
    values: tuple[float, ...] | None = None


@dataclass(frozen=True, slots=True)
class Progress:
    """What an anytime search yields after each completed depth.

    >>> Progress(depth=3, score=2.0, best=17, nodes=412, exact=False)
    Progress(depth=3, score=2.0, best=17, nodes=412, exact=False)
    """

    depth: int
    score: float
    best: Action | None
    nodes: int  # visited by this iteration (its re-searches included)
    exact: bool  # the value is final: deeper iterations cannot change it
