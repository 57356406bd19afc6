"""Alpha-beta: minimax with pruning, a transposition table, move ordering and iterative deepening.

The searching player maximises its value and the other player minimises it, exactly as in
:mod:`~gridarena.search.minimax`, so on any position ``alphabeta(...).score`` equals
``minimax(...).score`` (fail-soft, full window at the root). Move ordering tries, in this order,
the table's best action, the two killer actions of the ply (actions that caused a cutoff in a
sibling) and, with ``history=True``, the actions that caused the most and deepest cutoffs. Chance
nodes take the expectation of their outcomes, each searched with a full window.

The engine :class:`AlphaBeta` also serves :mod:`~gridarena.search.paranoid`: with more than two
players, "every opponent minimises" is the paranoid assumption.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field
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
from gridarena.search.iterative import aspirated, deepen
from gridarena.search.tt import Entry, TranspositionTable, bound_of


@dataclass(slots=True)
class AlphaBeta:
    """A reusable alpha-beta searcher for one player and evaluation (killers and history persist).

    >>> from gridarena.games.isolation.rules import Isolation
    >>> state = Isolation(4, 4).new_initial_state().child(5).child(10)  # b2 and c3 placed
    >>> AlphaBeta(lambda s, p: 0.0, player=0).search(state, 3)  # minimax visits 35 nodes
    SearchResult(score=0.0, best=11, nodes=21, exact=False, values=None)
    """

    evaluate: Evaluate
    player: Player
    tt: TranspositionTable | None = None
    clock: TimeControl | None = None
    killers: bool = True
    history: bool = False
    nodes: int = 0
    cut: bool = False
    _root_best: Action | None = None
    _killer_table: dict[int, list[Action]] = field(default_factory=dict)
    _history_table: dict[Action, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.tt is not None:
            self.tt.bind(self.player, self.evaluate)

    def search(
        self, state: GameState[Any], depth: int, alpha: float = -math.inf, beta: float = math.inf
    ) -> SearchResult:
        """Search ``state`` to ``depth`` plies with the window (alpha, beta); fail-soft."""
        self.nodes, self.cut, self._root_best = 0, False, None
        score = self._value(state, depth, alpha, beta, 0)
        return SearchResult(score, self._root_best, self.nodes, not self.cut)

    def _value(self, state: GameState[Any], depth: int, alpha: float, beta: float, ply: int) -> float:
        self.nodes += 1
        if self.clock is not None and self.clock.tick():
            raise SearchAborted("the time control stopped the search")
        mover = state.current_player()
        if mover == TERMINAL:
            return terminal_value(state, self.player)
        if mover == CHANCE:
            return self._expectation(state, depth, ply)
        if depth <= 0:
            self.cut = True
            return self.evaluate(state, self.player)
        first = None
        if self.tt is not None and (entry := self.tt.get(state)) is not None:
            if ply > 0 and entry.usable(depth, alpha, beta):
                self.cut = self.cut or not entry.resolved
                return entry.value
            first = entry.best
        return self._expand(state, mover, depth, alpha, beta, ply, first)

    def _expand(
        self,
        state: GameState[Any],
        mover: Player,
        depth: int,
        alpha: float,
        beta: float,
        ply: int,
        first: Any,
    ) -> float:
        """Search every child of a player's node in order, stopping at a cutoff; store the result."""
        cut_above, self.cut = self.cut, False
        window = (alpha, beta)
        maximise = mover == self.player
        best_value, best_action = (-math.inf if maximise else math.inf), None
        for action in self._ordered(state, first, ply):
            value = self._value(state.child(action), depth - 1, alpha, beta, ply + 1)
            if best_action is None or ((value > best_value) if maximise else (value < best_value)):
                best_value, best_action = value, action
                if maximise:
                    alpha = max(alpha, value)
                else:
                    beta = min(beta, value)
                if alpha >= beta:
                    self._reward(action, depth, ply)
                    break
        if best_action is None:
            raise UnsupportedGameError(f"{state.game.name}: player {mover} to move has no legal action")
        resolved = not self.cut
        self.cut = cut_above or self.cut
        if self.tt is not None:
            self.tt.store(
                state, Entry(depth, best_value, bound_of(best_value, *window), best_action, resolved)
            )
        if ply == 0:
            self._root_best = best_action
        return best_value

    def _expectation(self, state: GameState[Any], depth: int, ply: int) -> float:
        """A chance node's value: outcomes weighted by probability, each with a full window."""
        return sum(
            p * self._value(state.child(o), depth, -math.inf, math.inf, ply + 1)
            for o, p in state.chance_outcomes()
        )

    def _ordered(self, state: GameState[Any], first: Any, ply: int) -> list[Action]:
        """Legal actions, most promising first: table move, killers, then by history score."""
        actions = list(state.legal_actions())
        if self.history and self._history_table:
            table = self._history_table
            actions.sort(key=lambda a: -table.get(a, 0))  # stable: ties keep the game's order
        promoted = [first] if first is not None else []
        if self.killers:
            promoted += [k for k in self._killer_table.get(ply, ()) if k != first]
        for action in reversed(promoted):
            if action in actions:
                actions.remove(action)
                actions.insert(0, action)
        return actions

    def _reward(self, action: Action, depth: int, ply: int) -> None:
        """Remember an action that caused a cutoff (killer of this ply, history weighted by depth)."""
        if self.killers:
            slot = self._killer_table.setdefault(ply, [])
            if action not in slot:
                slot.insert(0, action)
                del slot[2:]
        if self.history:
            self._history_table[action] = self._history_table.get(action, 0) + depth * depth


def require_two_players(state: GameState[Any], algorithm: str) -> None:
    """Refuse a game that is not for two players (alpha-beta is meant for two-player zero-sum games)."""
    game = state.game
    if game.num_players != 2:
        raise UnsupportedGameError(
            f"{game.name}: {algorithm} needs 2 players, this game has {game.num_players} (use paranoid, maxn or brs)"
        )


def alphabeta(
    state: GameState[Any],
    depth: int,
    evaluate: Evaluate,
    player: Player | None = None,
    *,
    alpha: float = -math.inf,
    beta: float = math.inf,
    tt: TranspositionTable | None = None,
    clock: TimeControl | None = None,
    killers: bool = True,
    history: bool = False,
) -> SearchResult:
    """The alpha-beta value of ``state`` at ``depth`` plies for ``player`` and a best action.

    >>> from gridarena.games.isolation.rules import Isolation
    >>> from gridarena.search.minimax import minimax
    >>> state = Isolation(3, 3).new_initial_state().child(0)
    >>> mobility = lambda s, p: float(len(s.moves_of(p)))
    >>> alphabeta(state, 3, mobility).score == minimax(state, 3, mobility).score
    True
    """
    require_two_players(state, "alphabeta")
    engine = AlphaBeta(evaluate, root_player(state, player), tt, clock, killers, history)
    return engine.search(state, depth, alpha, beta)


def alphabeta_deepening(
    state: GameState[Any],
    evaluate: Evaluate,
    clock: TimeControl | None = None,
    player: Player | None = None,
    *,
    max_depth: int | None = None,
    tt: TranspositionTable | None = None,
    aspiration: float | None = None,
    killers: bool = True,
    history: bool = False,
) -> Iterator[Progress]:
    """Iterative-deepening alpha-beta: yields (depth, score, best, nodes) after each completed depth.

    Each depth searches the previous best action first (through the table, created here when
    ``tt`` is None). ``aspiration`` is the half-width of the window around the previous score.

    >>> from gridarena.core.clock import TimeControl
    >>> from gridarena.games.isolation.rules import Isolation
    >>> state = Isolation(4, 4).new_initial_state().child(5).child(10)
    >>> mobility = lambda s, p: float(len(s.moves_of(p)) - len(s.moves_of(1 - p)))
    >>> [(p.depth, p.score) for p in alphabeta_deepening(state, mobility, TimeControl(depth=4))]
    [(1, -2.0), (2, 0.0), (3, 0.0), (4, 0.0)]
    >>> [(p.depth, p.score, p.exact) for p in alphabeta_deepening(state, mobility)][-1]  # to the end
    (10, -1000000000.0, True)
    """
    require_two_players(state, "alphabeta")
    table = TranspositionTable() if tt is None else tt
    engine = AlphaBeta(evaluate, root_player(state, player), table, clock, killers, history)
    return deepen(aspirated(lambda d, a, b: engine.search(state, d, a, b), aspiration), clock, max_depth)
