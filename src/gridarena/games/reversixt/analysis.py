"""ReversiXT's analyser: the ``best`` bot's search value for the player to move.

Each position is searched by the registry's ``best`` (so it follows whatever ``best`` becomes)
within the time given. A score that carries the result steps of a finished game (the search reached
the end: a step per player beaten, less one per player ahead) is an exact result, scaled as the
game's returns are (1 first, -1 last); any other score is the evaluation, squashed to a win-chance
estimate below 0.9. With two players the other player's value is the mover's negated, and the
mover's own value is that of the position after ``best``'s move: so a move's value before and after
come from searches of positions at the same ply (the best move's and the played move's), and an
evaluation that swings between odd and even depths cannot mark a move. With more players, a player
is judged only where it is to move (the arena takes its next turn as the value after its move, so
the others' replies count in).
"""

from __future__ import annotations

import math
from typing import Any, Final

from gridarena.core.analysis import Evaluation, Kind
from gridarena.core.clock import TimeControl
from gridarena.core.registry import make_bot
from gridarena.core.types import TERMINAL, Game, GameState, Player
from gridarena.games.reversixt.fast.evaluate import WIN_STEP

ESTIMATE_SCALE: Final = 300.0
"""An evaluation of this much (the full evaluation's units) reads as about 0.68."""


class ReversiAnalyser:
    """Values from ``best``'s search, one search per position."""

    kind: Kind = "result"

    def __init__(self, game: Game[Any], seconds: float) -> None:
        self.game, self.seconds = game, seconds
        self.bot = make_bot(game, "best")
        self.bot.reset(game, 0, 0)
        self._cache: dict[GameState[Any], tuple[Evaluation, Any]] = {}

    def evaluate(self, state: GameState[Any], player: Player) -> Evaluation | None:
        """``player``'s value: from the returns at the end, else from ``best``'s searches."""
        mover = state.current_player()
        if mover == TERMINAL:
            value = state.returns()[player]
            return Evaluation(value, exact=True, text=f"result {value:+.2f}")
        searched, move = self._search(state)
        if player == mover and self.game.num_players == 2:
            after = self.evaluate(state.child(move), player)
            assert after is not None
            return Evaluation(after.value, after.exact, None, searched.best, after.text)
        if player == mover:
            return searched
        if self.game.num_players != 2:
            return None
        return Evaluation(-searched.value, searched.exact, searched.plies, None, f"{-searched.value:+.2f}")

    def _search(self, state: GameState[Any]) -> tuple[Evaluation, Any]:
        """``best``'s value of ``state`` for its mover, and its move (searched once per position)."""
        if state in self._cache:
            return self._cache[state]
        decision = self.bot.act(state, TimeControl.for_seconds(self.seconds))
        score = int(decision.info.get("score", 0))
        best = state.action_to_string(decision.action)
        steps = round(score / WIN_STEP)
        if steps:
            value = max(-1.0, min(1.0, steps / (self.game.num_players - 1)))
            found = Evaluation(value, exact=True, best=best, text=f"result {value:+.2f}")
        else:
            value = 0.9 * math.tanh(score / ESTIMATE_SCALE)
            found = Evaluation(value, best=best, text=f"{value:+.2f}")
        self._cache[state] = (found, decision.action)
        return self._cache[state]


def make_analyser(game: Game[Any], seconds: float) -> ReversiAnalyser:
    """Registry entry: ReversiXT's analyser, about ``seconds`` of ``best``'s search per position."""
    return ReversiAnalyser(game, seconds)
