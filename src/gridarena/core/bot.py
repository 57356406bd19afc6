"""The bot interface: a bot looks at a state and answers one action, optionally with search info.

It lives in the core because the game loop (:mod:`gridarena.core.play`) speaks it; the bots
themselves live in ``gridarena.bots`` (generic ones) and in each game's package.

Besides ``reset`` and ``act``, a bot may offer optional hooks that the loop and the arena call when
present, each a small protocol here that they test with ``isinstance``: :class:`WarmUp`
(``warm_up(game)``: compile kernels, load tables, outside the clock), :class:`WantsResult`
(``end(outcome)``: the result, for programs that want it), :class:`Closes` (``close()``: release a
process or a file), :class:`WantsTimeControl` (``time_control``, set to the control's text before the
game, for programs that are told it), :class:`ReportsCpu` (``last_move_cpu``: CPU seconds of the last
move, for a bot whose time is spent in another process), :class:`ReportsLatency` (``latency_ms``:
measured round trips) and :class:`Withdraws` (``withdrawn()``: ``(termination, detail)`` once the bot
has left the game on its own between its moves, e.g. a network peer whose connection broke; the loop
then forfeits it).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from gridarena.core.clock import TimeControl
from gridarena.core.errors import GridArenaError
from gridarena.core.types import JSON, Game, GameState, Outcome, Player


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


@runtime_checkable
class WarmUp(Protocol):
    """A bot with work to do before its first move (compile kernels, load tables), done outside the clock."""

    def warm_up(self, game: Game[Any]) -> None: ...


@runtime_checkable
class WantsResult(Protocol):
    """A bot that is told the game's result (an external program that wants it)."""

    def end(self, outcome: Outcome) -> None: ...


@runtime_checkable
class Closes(Protocol):
    """A bot that holds something to release after the game (a process, a file)."""

    def close(self) -> None: ...


@runtime_checkable
class WantsTimeControl(Protocol):
    """A bot that is told the time control's text before the game (``None`` until it is)."""

    time_control: str | None


@runtime_checkable
class ReportsCpu(Protocol):
    """A bot whose time is spent in another process: the CPU seconds of its last move (None: unknown)."""

    @property
    def last_move_cpu(self) -> float | None: ...


@runtime_checkable
class ReportsLatency(Protocol):
    """A bot that measured its round trips (milliseconds), for the arena's records."""

    @property
    def latency_ms(self) -> Sequence[float]: ...


@runtime_checkable
class Withdraws(Protocol):
    """A bot that can leave the game between its moves: ``(termination, detail)`` once it has, else None."""

    def withdrawn(self) -> tuple[str, str] | None: ...


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


def warm_up(bot: object, game: Game[Any]) -> float | None:
    """Call ``bot.warm_up(game)`` if the bot has that hook (:class:`WarmUp`); the seconds it took (None without one).

    >>> from gridarena import make, make_bot
    >>> warm_up(make_bot(make("isolation"), "greedy"), make("isolation")) is None
    True
    """
    if not isinstance(bot, WarmUp):
        return None
    started = time.perf_counter()
    bot.warm_up(game)
    return time.perf_counter() - started
