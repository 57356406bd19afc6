"""One time-control object for every search and bot: a deadline, a node budget, a depth budget.

The search never reads the time itself: it calls :meth:`TimeControl.stop` every ``check_every``
nodes (reading a clock costs about as much as expanding a small node), so a limit is overshot
by at most that many nodes. Tests pass a node budget, so they are deterministic.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(slots=True)
class TimeControl:
    """Limits for one decision. ``None`` means no limit of that kind.

    >>> tc = TimeControl(nodes=3)
    >>> [tc.tick() for _ in range(4)]
    [False, False, False, True]
    """

    deadline: float | None = None  # a value of `clock`, in seconds
    nodes: int | None = None
    depth: int | None = None
    check_every: int = 1024
    clock: Callable[[], float] = time.perf_counter
    count: int = field(default=0, init=False)
    _stopped: bool = field(default=False, init=False)

    @classmethod
    def for_seconds(cls, seconds: float | None, margin: float = 0.0, **limits: int | None) -> TimeControl:
        """Limits that end ``seconds - margin`` from now (no time limit when ``seconds`` is None)."""
        deadline = None if seconds is None else time.perf_counter() + max(0.0, seconds - margin)
        return cls(deadline=deadline, **limits)  # type: ignore[arg-type]

    def time_left(self) -> float:
        """Seconds until the deadline (``inf`` without one); negative once it has passed."""
        return float("inf") if self.deadline is None else self.deadline - self.clock()

    def expired(self) -> bool:
        """True once the deadline has passed or the node budget is spent (reads the clock)."""
        if self._stopped:
            return True
        if (self.nodes is not None and self.count >= self.nodes) or (
            self.deadline is not None and self.clock() >= self.deadline
        ):
            self._stopped = True
        return self._stopped

    def tick(self, n: int = 1) -> bool:
        """Count ``n`` nodes; True when the search must stop (the clock is read every ``check_every``)."""
        self.count += n
        if self._stopped:
            return True
        if self.nodes is not None and self.count > self.nodes:
            self._stopped = True
            return True
        if self.deadline is not None and self.count % self.check_every < n:
            return self.expired()
        return False

    def depth_allowed(self, depth: int) -> bool:
        """Whether an iteration to ``depth`` may start."""
        return (self.depth is None or depth <= self.depth) and not self.expired()


#: Extra seconds allowed after the limit before a late answer is a timeout. In-process bots poll
#: their clock, and a loaded machine delays the return; AIND's 10 ms margin proved too small.
DEFAULT_GRACE = 0.05


@dataclass(slots=True)
class TurnClock(TimeControl):
    """The time control of one move: the bot's deadline (``deadline``, short of its margin) and the referee's.

    ``limit`` is what the rules allow for this move (seconds of ``clock``), ``hard_deadline`` a
    ``time.perf_counter`` value after which the referee stops waiting (external bots read it).
    """

    limit: float | None = None
    hard_deadline: float | None = None


def bot_margin(limit: float) -> float:
    """The bot's safety margin for a limit: max(5 ms, 10 % of it) (AIND's fixed 10 ms lost games under load).

    >>> bot_margin(0.15), bot_margin(0.02)
    (0.015, 0.005)
    """
    return max(0.005, round(0.1 * limit, 9))
