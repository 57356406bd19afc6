"""Game clocks: the time accounting of one game, for every game and the arena.

A :class:`TimeSpec` is a control as written on the command line (``0.15``, ``150ms``, ``1/0.05``,
``account:2``, ``total:300``, ``60+0.5``); a :class:`GameTimer` keeps it for one game and is the
:class:`GameClock` the game loop (:func:`gridarena.core.play.play_game`) asks before and charges after
every move; :data:`UNTIMED` is the clock of a game without limits.

Wall time is the default because the originals measured it. CPU time (``clock="cpu"``) charges the
thread time of the bot's call, like Pentocity's per-thread Java clock, so a bot waiting for a core on
a loaded machine is not charged for the wait. The referee's ``grace`` is how late an answer may be
and still count; the bot's margin (``bot_margin``) is subtracted from the deadline the bot sees.
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass
from typing import Final, Literal, Protocol, TypeAlias

from gridarena.core.clock import DEFAULT_GRACE, TurnClock, bot_margin
from gridarena.core.errors import GridArenaError
from gridarena.core.types import Player

Kind: TypeAlias = Literal["move", "account", "total", "increment"]
ClockKind: TypeAlias = Literal["wall", "cpu"]
CLOCK_KINDS: Final = ("wall", "cpu")

_NUMBER = r"(\d+(?:\.\d*)?|\.\d+)(ms|s)?"


class TimeSpecError(GridArenaError, ValueError):
    """A ``--time`` value that cannot be read; the message shows the accepted forms."""


def _seconds(number: str, unit: str | None) -> float:
    value = float(number)
    return value / 1000.0 if unit == "ms" else value


def _text(seconds: float) -> str:
    """Seconds as short text: whole milliseconds below one second get ``ms``."""
    millis = seconds * 1000.0
    if seconds < 1.0 and math.isclose(millis, round(millis), abs_tol=1e-9):
        return f"{round(millis)}ms"
    return f"{seconds:g}"


@dataclass(frozen=True, slots=True)
class TimeSpec:
    """A time control: ``kind`` with its numbers, in seconds.

    ``move``: ``per_move`` each move, ``first`` for a player's first move if given. ``account``
    (ReversiXT): each move adds ``per_move`` to what is left, and the answer must come before it runs
    out. ``total`` (Pentocity): ``base`` for the whole game. ``increment``: ``base`` plus ``per_move``
    after each move.

    >>> TimeSpec.parse("1/0.05")
    TimeSpec(kind='move', per_move=0.05, first=1.0, base=0.0)
    >>> TimeSpec.parse("account:2").to_text(), TimeSpec.parse("150ms").to_text()
    ('account:2', '150ms')
    """

    kind: Kind
    per_move: float = 0.0
    first: float | None = None
    base: float = 0.0

    @classmethod
    def parse(cls, text: str) -> TimeSpec:
        """Read a ``--time`` value; raises :class:`TimeSpecError` naming the forms it accepts."""
        s = text.strip().lower()
        patterns: list[tuple[str, Kind]] = [
            (rf"^{_NUMBER}$", "move"),
            (rf"^{_NUMBER}/{_NUMBER}$", "move"),
            (rf"^account:{_NUMBER}$", "account"),
            (rf"^total:{_NUMBER}$", "total"),
            (rf"^{_NUMBER}\+{_NUMBER}$", "increment"),
        ]
        for pattern, kind in patterns:
            m = re.match(pattern, s)
            if m is None:
                continue
            values = [_seconds(m.group(i), m.group(i + 1)) for i in range(1, len(m.groups()), 2)]
            return cls._build(kind, values, text)
        raise TimeSpecError(
            f"--time {text!r}: expected seconds per move (0.15 or 150ms), first/later (1/0.05), "
            "account:S, total:S or base+increment (60+0.5)"
        )

    @classmethod
    def _build(cls, kind: Kind, values: list[float], text: str) -> TimeSpec:
        # An increment may be 0 (sudden death); every other number must leave some time.
        required = values[:1] if kind == "increment" else values
        if any(v <= 0 for v in required):
            raise TimeSpecError(f"--time {text!r}: times must be positive")
        if kind == "move":
            return cls("move", per_move=values[-1], first=values[0] if len(values) == 2 else None)
        if kind == "account":
            return cls("account", per_move=values[0])
        if kind == "total":
            return cls("total", base=values[0])
        return cls("increment", per_move=values[1], base=values[0])

    def to_text(self) -> str:
        """The control in ``--time`` syntax (inverse of :meth:`parse`)."""
        if self.kind == "move":
            later = _text(self.per_move)
            return later if self.first is None else f"{_text(self.first)}/{later}"
        if self.kind == "account":
            return f"account:{_text(self.per_move)}"
        if self.kind == "total":
            return f"total:{_text(self.base)}"
        return f"{_text(self.base)}+{_text(self.per_move)}"

    def longest_move(self) -> float:
        """An upper bound of what one move may take (for hard limits and default concurrency)."""
        if self.kind == "move":
            return max(self.per_move, self.first or 0.0)
        if self.kind == "account":
            return self.per_move * 4.0  # an account can build up; ReversiXT bots rarely save more
        return self.base + self.per_move


def _now(clock: ClockKind) -> float:
    return time.thread_time() if clock == "cpu" else time.perf_counter()


class GameTimer:
    """One game's clocks, one per seat: implements :class:`GameClock`.

    >>> timer = GameTimer(TimeSpec.parse("account:1"), players=2, grace=0.0)
    >>> timer.turn_clock(0).limit, timer.charge(0, wall=0.4, cpu=0.4), round(timer.left(0), 3)
    (1.0, None, 0.6)
    >>> timer.turn_clock(0).limit, timer.charge(0, wall=1.7, cpu=1.7)
    (1.6, 'answered after 1700 ms, account had 1600 ms')
    """

    def __init__(
        self, spec: TimeSpec, players: int, *, clock: ClockKind = "wall", grace: float = DEFAULT_GRACE
    ) -> None:
        if clock not in CLOCK_KINDS:
            raise TimeSpecError(f"--clock {clock!r}: expected one of {', '.join(CLOCK_KINDS)}")
        self.spec, self.clock, self.grace = spec, clock, grace
        self.moves = [0] * players
        start = spec.base if spec.kind in ("total", "increment") else 0.0
        self.account = [start] * players

    def allowance(self, seat: Player) -> float:
        """Seconds ``seat`` may use on its next move."""
        spec = self.spec
        if spec.kind == "move":
            return spec.first if self.moves[seat] == 0 and spec.first is not None else spec.per_move
        if spec.kind == "account":
            return self.account[seat] + spec.per_move
        return self.account[seat]

    def _margin(self, allowance: float) -> float:
        if self.spec.kind == "move":
            return bot_margin(allowance)
        # An account or budget must last many moves: 1 % of what is left, 10 % of the increment.
        return max(0.005, 0.1 * self.spec.per_move, 0.01 * allowance)

    def turn_clock(self, seat: Player) -> TurnClock:
        """The bot's deadline on the enforced clock, and a wall-time hard deadline for external bots."""
        allowance = self.allowance(seat)
        deadline = _now(self.clock) + max(0.0, allowance - self._margin(allowance))
        # CPU time cannot run faster than wall time for a one-thread bot, so waiting limit + grace of
        # wall time is always enough; on a loaded machine the wait covers the time without a core.
        slack = allowance + self.grace + (max(1.0, allowance) if self.clock == "cpu" else 0.0)
        clock_fn = time.thread_time if self.clock == "cpu" else time.perf_counter
        return TurnClock(
            deadline=deadline, clock=clock_fn, limit=allowance, hard_deadline=time.perf_counter() + slack
        )

    def charge(self, seat: Player, wall: float, cpu: float) -> str | None:
        """Book the move; a timeout detail if it came after the allowance plus grace."""
        used = cpu if self.clock == "cpu" else wall
        allowance = self.allowance(seat)
        self.moves[seat] += 1
        if self.spec.kind == "account":
            self.account[seat] = allowance - used
        elif self.spec.kind in ("total", "increment"):
            self.account[seat] = (
                allowance - used + (self.spec.per_move if self.spec.kind == "increment" else 0)
            )
        if used <= allowance + self.grace:
            return None
        label = "cpu " if self.clock == "cpu" else ""
        what = (
            "limit"
            if self.spec.kind == "move"
            else "account had"
            if self.spec.kind == "account"
            else "budget left"
        )
        return f"answered after {label}{used * 1000:.0f} ms, {what} {allowance * 1000:.0f} ms"

    def left(self, seat: Player) -> float | None:
        """The account or budget left after the last move (``None`` for per-move limits)."""
        return None if self.spec.kind == "move" else self.account[seat]

    def exhausted(self, seat: Player) -> str | None:
        """Why ``seat`` loses before it is asked (a game budget already spent), else None.

        Pentocity's Java simulator checks the budget before every move, so a move that ended within
        the grace but past the budget is the last one.
        """
        if self.spec.kind not in ("total", "increment") or self.allowance(seat) > 0:
            return None
        label = "CPU " if self.clock == "cpu" else ""
        return f"{label}budget of {self.spec.base:g} s used up"


class GameClock(Protocol):
    """The time accounting of one game: each seat's clock for its next move, and the verdict after it."""

    def turn_clock(self, seat: Player) -> TurnClock: ...
    def charge(self, seat: Player, wall: float, cpu: float) -> str | None: ...
    def left(self, seat: Player) -> float | None: ...
    def exhausted(self, seat: Player) -> str | None: ...


class Untimed:
    """The clock of a game without time limits: no deadline, never late."""

    def turn_clock(self, seat: Player) -> TurnClock:
        """A move without a deadline."""
        return TurnClock()

    def charge(self, seat: Player, wall: float, cpu: float) -> str | None:
        """Never a timeout."""
        return None

    def left(self, seat: Player) -> float | None:
        """Nothing is kept."""
        return None

    def exhausted(self, seat: Player) -> str | None:
        """Never out of time."""
        return None


UNTIMED: Final = Untimed()


def game_clock(
    time_control: str | float | TimeSpec | None,
    players: int,
    *,
    clock: str = "wall",
    grace: float = DEFAULT_GRACE,
) -> GameClock:
    """The clock of one game: ``time_control`` as ``--time`` text, seconds per move, a spec, or None.

    >>> game_clock(0.15, 2, grace=0.05).charge(0, wall=0.21, cpu=0.2)
    'answered after 210 ms, limit 150 ms'
    >>> game_clock(None, 2).turn_clock(0).deadline is None
    True
    """
    if time_control is None:
        return UNTIMED
    if isinstance(time_control, TimeSpec):
        spec = time_control
    elif isinstance(time_control, str):
        spec = TimeSpec.parse(time_control)
    else:
        spec = TimeSpec("move", per_move=float(time_control))
    return GameTimer(spec, players, clock=clock, grace=grace)  # type: ignore[arg-type]  # it checks the kind
