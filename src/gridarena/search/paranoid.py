"""Paranoid alpha-beta for any number of players: every opponent minimises the searcher's value.

The opponents are treated as one coalition against the searching player, which turns an N-player
game into a two-sided one where alpha-beta pruning is valid (Sturtevant and Korf, 2000). It is the
:class:`~gridarena.search.alphabeta.AlphaBeta` engine without the two-player check, so with two
players it is alpha-beta, value for value. It is pessimistic: opponents are assumed to sacrifice
their own interests to hurt the searcher, which makes the play cautious.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from gridarena.core.clock import TimeControl
from gridarena.core.types import GameState, Player
from gridarena.search.adversarial import Evaluate, Progress, SearchResult, root_player
from gridarena.search.alphabeta import AlphaBeta
from gridarena.search.iterative import aspirated, deepen
from gridarena.search.tt import TranspositionTable


def paranoid(
    state: GameState[Any],
    depth: int,
    evaluate: Evaluate,
    player: Player | None = None,
    *,
    tt: TranspositionTable | None = None,
    clock: TimeControl | None = None,
) -> SearchResult:
    """The paranoid value of ``state`` at ``depth`` plies for ``player`` and a best action.

    >>> from gridarena.games.isolation.rules import Isolation
    >>> state = Isolation(4, 4).new_initial_state().child(5).child(10)
    >>> paranoid(state, 3, lambda s, p: 0.0)
    SearchResult(score=0.0, best=11, nodes=21, exact=False, values=None)
    """
    engine = AlphaBeta(evaluate, root_player(state, player), tt, clock)
    return engine.search(state, depth, -math.inf, math.inf)


def paranoid_deepening(
    state: GameState[Any],
    evaluate: Evaluate,
    clock: TimeControl | None = None,
    player: Player | None = None,
    *,
    max_depth: int | None = None,
    tt: TranspositionTable | None = None,
    aspiration: float | None = None,
) -> Iterator[Progress]:
    """Iterative-deepening paranoid search: yields a progress after each completed depth."""
    table = TranspositionTable() if tt is None else tt
    engine = AlphaBeta(evaluate, root_player(state, player), table, clock)
    return deepen(aspirated(lambda d, a, b: engine.search(state, d, a, b), aspiration), clock, max_depth)
