"""The bot interface: a bot looks at a state and answers one action, optionally with search info."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from gridarena.core.clock import TimeControl
from gridarena.core.types import JSON, Game, GameState, Player


@dataclass(frozen=True, slots=True)
class Decision:
    """A bot's answer: the action and what it wants recorded (depth, score, nodes, pv, ...)."""

    action: Any
    info: dict[str, JSON] = field(default_factory=dict)


@runtime_checkable
class Bot(Protocol):
    """Anything that plays: ``act`` gets the state and the time control for this move."""

    name: str

    def reset(self, game: Game[Any], seat: Player, seed: int) -> None: ...
    def act(self, state: GameState[Any], clock: TimeControl) -> Decision: ...


class BaseBot:
    """Convenience base: stores the seat and a seeded RNG; subclasses write ``act``."""

    name = "bot"

    def __init__(self, seed: int | None = None) -> None:
        self.seat: Player = 0
        self.rng = random.Random(seed)

    def reset(self, game: Game[Any], seat: Player, seed: int) -> None:
        """Start a new game in ``seat``; the RNG is reseeded so runs repeat."""
        self.seat = seat
        self.rng = random.Random(seed)

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        raise NotImplementedError


class RandomBot(BaseBot):
    """Plays a uniformly random legal action (``random_action`` where actions are not enumerable)."""

    name = "random"

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        return Decision(state.random_action(self.rng))


def make_random_bot(game: Game[Any], seed: int | None = None) -> RandomBot:
    """Registry factory of :class:`RandomBot`."""
    return RandomBot(seed)
