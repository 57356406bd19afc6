"""The random bot, which every game can use (the bot interface itself is :mod:`gridarena.core.bot`)."""

from __future__ import annotations

from typing import Any

from gridarena.core.bot import BaseBot, Decision
from gridarena.core.clock import TimeControl
from gridarena.core.types import Game, GameState


class RandomBot(BaseBot):
    """Plays a uniformly random legal action (``random_action`` where actions are not enumerable)."""

    name = "random"

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        return Decision(state.random_action(self.rng))


def make_random_bot(game: Game[Any], seed: int | None = None) -> RandomBot:
    """Registry factory of :class:`RandomBot`."""
    return RandomBot(seed)
