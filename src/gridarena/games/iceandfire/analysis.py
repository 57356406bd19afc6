"""Ice and Fire's analyser: a win-chance estimate from ``best`` playing both sides on from a position.

``best`` (from the registry) reports no value of its own, so a position is judged by what follows
when ``best`` plays both players from it, a CodinGame turn of at most :data:`MOVE_SECONDS` each,
until the time given runs out or the game ends: a finished playout counts as 0.9 for its winner,
an unfinished one by the referee's military score (gold plus the units' training cost) that
decides a game at the turn limit, squashed below 0.9. Only a finished game is exact. Values are
for the first player and negated for the second (the game is zero-sum).

One playout is a noisy judge: ``best``'s moves depend on its clock, so the same position can end
in a win for either side (``benchmarks/analysis_noise.py``: in ``best``-against-``best`` openings,
one position in ten judged twice at a second a position came out +0.9 once and -0.9 the other
time). So each position gets :data:`PLAYOUTS` playouts with different seeds, its value is their
mean and its ``error`` half their spread: a move is marked only for a drop beyond what the
playouts disagree on (:func:`gridarena.core.analysis.mark`).
"""

from __future__ import annotations

import math
import time
from typing import Any, Final

from gridarena.core.analysis import Evaluation, Kind
from gridarena.core.clock import TimeControl
from gridarena.core.registry import make_bot
from gridarena.core.types import TERMINAL, Game, GameState, Player
from gridarena.games.iceandfire.rules import military_score

MOVE_SECONDS: Final = 0.03
"""Each turn of a playout: CodinGame's 50 ms less ``best``'s own margins leaves about this much."""
ESTIMATE_SCALE: Final = 60.0
"""A lead in military score of this much reads as about 0.68."""
PLAYOUT_WIN: Final = 0.9
"""What a playout that ends in a win counts for: a strong estimate, not a proof."""
PLAYOUTS: Final = 2
"""Playouts per position, each with its own seed and an equal share of the time."""


class IceAndFireAnalyser:
    """Values from ``best``-against-``best`` playouts, :data:`PLAYOUTS` per position (for the first player)."""

    kind: Kind = "result"

    def __init__(self, game: Game[Any], seconds: float) -> None:
        self.game, self.seconds = game, seconds
        self._cache: dict[GameState[Any], Evaluation] = {}

    def evaluate(self, state: GameState[Any], player: Player) -> Evaluation | None:
        """``player``'s value of ``state``: its return at the end, else the playout's estimate."""
        if state.current_player() == TERMINAL:
            value = state.returns()[player]
            return Evaluation(value, exact=True, text="won" if value > 0 else "lost")
        if state not in self._cache:
            self._cache[state] = self._playout(state)
        first = self._cache[state]
        value = first.value if player == 0 else -first.value
        best = first.best if player == state.current_player() else None
        return Evaluation(value, best=best, text=f"{value:+.2f}", error=first.error)

    def _playout(self, state: GameState[Any]) -> Evaluation:
        """The mean of :data:`PLAYOUTS` playouts, with half their spread as its error."""
        share = self.seconds / PLAYOUTS
        outcomes = [self._one(state, seed, share) for seed in range(PLAYOUTS)]
        values = [value for value, _ in outcomes]
        value = sum(values) / len(values)
        error = (max(values) - min(values)) / 2
        return Evaluation(value, best=outcomes[0][1], text=f"{value:+.2f}", error=error)

    def _one(self, state: GameState[Any], seed: int, seconds: float) -> tuple[float, str | None]:
        """One playout's value for the first player, and its first move."""
        deadline = time.perf_counter() + seconds
        bots = [make_bot(self.game, "best", seed=seed) for _ in range(2)]
        for seat, bot in enumerate(bots):
            bot.reset(self.game, seat, seed)
        current, first = state, None
        while current.current_player() != TERMINAL and time.perf_counter() < deadline:
            mover = current.current_player()
            clock = TimeControl(deadline=min(deadline, time.perf_counter() + MOVE_SECONDS))
            action = bots[mover].act(current, clock).action
            if isinstance(action, str):  # a CodinGame bot answers with its output line
                action = current.string_to_action(action)
            first = first or current.action_to_string(action)
            current = current.apply_action(action)
        if current.current_player() == TERMINAL:
            return PLAYOUT_WIN * current.returns()[0], first
        lead = military_score(current, 0) - military_score(current, 1)  # type: ignore[arg-type]
        return PLAYOUT_WIN * math.tanh(lead / ESTIMATE_SCALE), first


def make_analyser(game: Game[Any], seconds: float) -> IceAndFireAnalyser:
    """Registry entry: Ice and Fire's analyser, playouts of about ``seconds`` per position in all."""
    return IceAndFireAnalyser(game, seconds)
