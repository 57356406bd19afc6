"""Pentocity's analyser: what ``best`` would score from a position, with the same requests to come.

The request stream lives in the state (the sequencer and its generator), so ``best`` (from the
registry) can play a position out to the end against exactly the requests the player met. A
placement's *before* is what ``best`` scores from the position the player faced, its *after* what
``best`` scores from the position the placement left: the difference is the placement's regret,
and a game's regrets add up to how far the player finished below ``best`` playing from the start.
A playout that runs out of time stops at the score so far (a lower bound, not exact).

``best`` draws random numbers (its road walks) and remembers across a game whether requests still
fit its layout, so two playouts from one position could differ. In the playouts it is made a
function of the position: before every placement it is reset and seeded from the position's text.
Then a placement that is ``best``'s own keeps the value exactly (no regret), every position of a
playout has the playout's final score as its own value (so the analysis of a game ``best`` played
costs one playout), and regrets of different placements compare.
"""

from __future__ import annotations

import time
import zlib
from typing import Any

from gridarena.core.analysis import Evaluation, Kind
from gridarena.core.clock import TimeControl
from gridarena.core.registry import make_bot
from gridarena.core.types import CHANCE, Game, GameState, Player
from gridarena.games.pentocity.rules import PentocityState


class PentocityAnalyser:
    """Values by playing ``best`` out from each position (a fresh bot for every playout)."""

    kind: Kind = "score"

    def __init__(self, game: Game[Any], seconds: float) -> None:
        self.game, self.seconds = game, seconds
        self._cache: dict[PentocityState, Evaluation] = {}

    def evaluate(self, state: GameState[Any], player: Player) -> Evaluation | None:
        """The final score ``best`` reaches from ``state``; None at a chance node (a request comes)."""
        assert isinstance(state, PentocityState)
        if state.is_terminal():
            return Evaluation(float(state.score), exact=True, text=f"{state.score} points")
        if state.current_player() == CHANCE:
            return None
        return self._cache.get(state) or self._playout(state)

    def _playout(self, state: PentocityState) -> Evaluation:
        deadline = time.perf_counter() + self.seconds
        bot = make_bot(self.game, "best", seed=0)
        current: GameState[Any] = state
        path: list[tuple[PentocityState, str]] = []  # the decision positions passed, with best's move
        while not current.is_terminal() and current not in self._cache and time.perf_counter() < deadline:
            if current.current_player() == CHANCE:
                current = current.child(current.chance_outcomes()[0][0])
                continue
            assert isinstance(current, PentocityState)
            bot.reset(self.game, 0, zlib.crc32(current.to_text().encode()))
            decision = bot.act(current, TimeControl(deadline=deadline))
            path.append((current, current.action_to_string(decision.action)))
            current = current.apply_action(decision.action)
        assert isinstance(current, PentocityState)
        if current in self._cache:
            end = self._cache[current]
            score, done = end.value, end.exact
        else:
            score, done = float(current.score), current.is_terminal()
        text = f"{score:g} points" if done else f">= {score:g} points"
        for position, move in path:
            self._cache[position] = Evaluation(score, exact=done, best=move, text=text)
        return self._cache.get(state) or Evaluation(score, exact=done, text=text)


def make_analyser(game: Game[Any], seconds: float) -> PentocityAnalyser:
    """Registry entry: Pentocity's analyser, a playout of about ``seconds`` per position."""
    return PentocityAnalyser(game, seconds)
