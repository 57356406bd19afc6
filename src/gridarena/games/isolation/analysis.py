"""Isolation's analyser: exact results where the fast engine proves them, the engine's estimate elsewhere.

A position is looked up in the shipped solution first (the first plies of a solved board), then
proved by :meth:`~.fast.Engine.prove` with half of the time, and its distance to the end found by
iterative deepening with the rest (the quickest win, the longest defence). Positions it cannot
prove in time get the search's mobility score, squashed below 0.9 so that no estimate looks
like a result. A move from a proven win to a proven loss is a blunder; one that stays won but
further from the end than one ply less, or lost but sooner, is marked too (see
:func:`gridarena.core.analysis.mark`).

>>> from gridarena.games.isolation.rules import Isolation, State
>>> analyser = make_analyser(Isolation(4, 4), 1.0)
>>> analyser.evaluate(State(4, 4).child(5).child(10), 0)
Evaluation(value=-1.0, exact=True, plies=10, best='d3', text='lost in 10', error=0.0)
"""

from __future__ import annotations

import math
import time
from typing import Any, Final

from gridarena.core.analysis import Evaluation, Kind
from gridarena.core.types import Game, GameState, Player
from gridarena.games.isolation.fast import WIN, Engine
from gridarena.games.isolation.rules import Isolation, State
from gridarena.games.isolation.solve import SOLVE_PATH_BUDGET, SOLVE_PATH_MAX, shipped_solution

ANALYSIS_TT_BITS: Final = 20
"""The analyser's table: 2^20 entries of 16 bytes (16 MB)."""
ESTIMATE_SCALE: Final = 60.0
"""A mobility score of this much (own moves x 10 - the opponent's x 14) reads as about 0.68."""


class IsolationAnalyser:
    """Values for the player to move from the solution, the proof search and the engine's search."""

    kind: Kind = "result"

    def __init__(self, game: Isolation, seconds: float, tt_bits: int = ANALYSIS_TT_BITS) -> None:
        self.seconds = seconds
        self.engine = Engine(
            game.width, game.height, tt_bits=tt_bits, path_max=SOLVE_PATH_MAX, path_budget=SOLVE_PATH_BUDGET
        )
        self.solution = shipped_solution(game.width, game.height)
        self._cache: dict[State, Evaluation] = {}

    def evaluate(self, state: GameState[Any], player: Player) -> Evaluation | None:
        """The value for ``player``: the mover's, or its opposite for the other player."""
        assert isinstance(state, State)
        if state not in self._cache:
            self._cache[state] = self._for_mover(state)
        value = self._cache[state]
        return value if player == state.ply % 2 else opposite(value)

    def _for_mover(self, state: State) -> Evaluation:
        if not state.legal_actions():
            return result(False, 0)
        verdict = None if self.solution is None else self.solution.verdict(state)
        if verdict is not None:
            won = verdict.winner == state.ply % 2
            best = None if verdict.move is None else state.action_to_string(verdict.move)
            return result(won, None, best)
        start = time.perf_counter()
        self.engine.clear()
        proof = self.engine.prove(state, deadline=start + self.seconds / 2)
        self.engine.clear()
        search = self.engine.search(state, deadline=start + self.seconds)
        best = state.action_to_string(search.move) if search.depth else None
        if search.depth and search.proven and search.depth >= WIN - abs(search.score):
            return result(search.score > 0, WIN - abs(search.score), best)
        if proof.depth:
            won = proof.score > 0
            return result(won, None, state.action_to_string(proof.move) if won else best)
        if search.depth == 0:
            return Evaluation(0.0, text="?")
        value = 0.9 * math.tanh(search.score / ESTIMATE_SCALE)
        return Evaluation(value, best=best, text=f"{value:+.2f}")


def result(won: bool, plies: int | None, best: str | None = None) -> Evaluation:
    """An exact result for the player to move, with its distance in plies when known."""
    text = ("won" if won else "lost") + ("" if plies is None else f" in {plies}")
    return Evaluation(1.0 if won else -1.0, exact=True, plies=plies, best=best, text=text)


def opposite(value: Evaluation) -> Evaluation:
    """The same position for the other player (a zero-sum game of two: the value negated)."""
    if value.exact:
        return result(value.value < 0, value.plies)
    text = "?" if value.text == "?" else f"{-value.value:+.2f}"
    return Evaluation(-value.value, text=text, error=value.error)


def make_analyser(game: Game[Any], seconds: float, tt_bits: int = ANALYSIS_TT_BITS) -> IsolationAnalyser:
    """Registry entry: the analyser of an Isolation board, about ``seconds`` per position."""
    assert isinstance(game, Isolation)
    return IsolationAnalyser(game, seconds, tt_bits)
