"""Bots for the arena tests, loaded by name through ``TournamentConfig.extra_bots`` (also in workers).

``faulty(fault=...)`` misbehaves on its first move in one chosen way; ``slowgreedy`` is the
deterministic greedy bot with a fixed pause per move, so a tournament lasts long enough to be killed.
"""

from __future__ import annotations

import os
import time
from typing import Any

from gridarena.core.bot import BaseBot, Decision
from gridarena.core.catalogue import BotEntry
from gridarena.core.clock import TimeControl
from gridarena.core.params import Choice, Number
from gridarena.core.types import Game, GameState
from gridarena.games.isolation.ai.greedy import GreedyBot

FAULTY = BotEntry(
    "arenabots:make_faulty",
    "misbehaves on its first move in one chosen way",
    {
        "fault": Choice(("", "raise", "sleep", "hang", "exit", "illegal", "garbage"), default=""),
        "seconds": Number(0, 3600, closed=True, default=0.0),
    },
)
SLOWGREEDY = BotEntry(
    "arenabots:make_slow_greedy", "greedy with a pause", {"pause": Number(0, 60, closed=True, default=0.002)}
)
WARMING = BotEntry(
    "arenabots:make_warming", "needs a slow warm-up", {"seconds": Number(0, 60, closed=True, default=0.2)}
)
BOTS = {"faulty": "arenabots:FAULTY", "slowgreedy": "arenabots:SLOWGREEDY", "warming": "arenabots:WARMING"}


class FaultyBot(BaseBot):
    """Plays the first legal action, except for its one fault."""

    name = "faulty"

    def __init__(self, fault: str, seconds: float = 0.0) -> None:
        super().__init__()
        self.fault, self.seconds = fault, seconds

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        if self.fault == "raise":
            raise RuntimeError("deliberate bug")
        if self.fault == "sleep":
            time.sleep(self.seconds)
        if self.fault == "hang":
            while True:  # ignores its clock entirely: only killing the worker ends it
                time.sleep(0.01)
        if self.fault == "exit":
            os._exit(3)
        if self.fault == "illegal":
            return Decision(10_000)
        if self.fault == "garbage":
            return Decision("not a cell")
        return Decision(state.legal_actions()[0])


class SlowGreedy(GreedyBot):
    """Greedy with a fixed pause per move: deterministic and slow enough to be interrupted."""

    def __init__(self, pause: float) -> None:
        super().__init__()
        self.pause = pause

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        time.sleep(self.pause)
        return super().act(state, clock)


def make_faulty(game: Game[Any], seed: int | None = None, fault: str = "", seconds: float = 0.0) -> FaultyBot:
    return FaultyBot(fault, seconds)


def make_slow_greedy(game: Game[Any], seed: int | None = None, pause: float = 0.002) -> SlowGreedy:
    return SlowGreedy(pause)


class Warming(FaultyBot):
    """Needs a slow preparation (like compiling numba kernels) before it can move quickly."""

    def __init__(self, seconds: float) -> None:
        super().__init__("")
        self.seconds, self.warm = seconds, False

    def warm_up(self, game: Game[Any]) -> None:
        time.sleep(self.seconds)
        self.warm = True

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        if not self.warm:
            time.sleep(self.seconds)
        return super().act(state, clock)


def make_warming(game: Game[Any], seed: int | None = None, seconds: float = 0.2) -> Warming:
    return Warming(seconds)
