"""The bot interface: a bot looks at a state and answers one action, optionally with search info.

It lives in the core because the game loop (:mod:`gridarena.core.play`) speaks it; the bots
themselves live in ``gridarena.bots`` (generic ones) and in each game's package.

Besides ``reset`` and ``act``, a bot may offer optional hooks that the loop and the arena call when
present: ``warm_up(game)`` (compile kernels, load tables: outside the clock), ``end(outcome)`` (the
result, for programs that want it), ``close()`` (release a process or a file), ``time_control``
(set to the control's text before the game, for programs that are told it), ``last_move_cpu``
(CPU seconds of the last move, for a bot whose time is spent in another process),
``latency_ms`` (measured round trips) and ``withdrawn()`` (``(termination, detail)`` once the bot
has left the game on its own between its moves, e.g. a network peer whose connection broke; the
loop then forfeits it).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from gridarena.core.clock import TimeControl
from gridarena.core.errors import GridArenaError
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


class BotForfeit(GridArenaError):
    """Raised by a bot wrapper (an external program) to forfeit with a given termination and detail.

    >>> str(BotForfeit("timeout", "no answer within 150 ms"))
    'no answer within 150 ms'
    """

    def __init__(self, termination: str, detail: str) -> None:
        super().__init__(detail)
        self.termination = termination
