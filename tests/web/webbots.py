"""Bots for the web tests, loaded by name through ``TournamentConfig.extra_bots``.

``crasher`` raises on its first move (a forfeit with a reason for the tournament page); ``slowrandom``
pauses before each random move, so a tournament runs long enough to be watched live.
"""

from __future__ import annotations

import time
from typing import Any

from gridarena.bots.base import RandomBot
from gridarena.core.bot import BaseBot, Decision
from gridarena.core.catalogue import BotEntry
from gridarena.core.clock import TimeControl
from gridarena.core.params import Number
from gridarena.core.types import Game, GameState

CRASHER = BotEntry("webbots:make_crasher", "raises on its first move")
SLOWRANDOM = BotEntry(
    "webbots:make_slow_random", "random after a pause", {"pause": Number(0, 60, closed=True, default=0.05)}
)
BOTS = {"crasher": "webbots:CRASHER", "slowrandom": "webbots:SLOWRANDOM"}


class Crasher(BaseBot):
    """Raises on its first move."""

    name = "crasher"

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        raise RuntimeError("deliberate crash for the forfeit list")


class SlowRandom(RandomBot):
    """A random bot that waits ``pause`` seconds before each move."""

    def __init__(self, pause: float, seed: int | None) -> None:
        super().__init__(seed)
        self.pause = pause

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        time.sleep(self.pause)
        return super().act(state, clock)


def make_crasher(game: Game[Any], seed: int | None = None) -> Crasher:
    return Crasher(seed)


def make_slow_random(game: Game[Any], seed: int | None = None, pause: float = 0.05) -> SlowRandom:
    return SlowRandom(pause, seed)
