"""Time management for ReversiXT's search bots: a budget per move from an account that carries over.

The reference server (``server_nogl -t T``) keeps an account per player: each request adds the increment T and
offers the whole account; what a move does not use is kept for later. The arena's ``--time
account:T`` does the same. Spending each move's whole increment leaves nothing for the end, where
the lead swings and a few more plies decide the game; answering with 200-300 ms left also risks a
timeout on a loaded machine. So each move gets

* a **target**: the increment plus an even share of the surplus over the moves we still expect to
  make (``T + (A - T - R) / M``), times a factor for the game's stage and how critical the position
  is (0.6 on an empty board to 1.4 on a full one, so the early moves save and the late middle game
  spends; more where override stones or swap fields are at stake, nothing to think about with one
  legal move); the search starts a new iteration only when it is predicted to end before the target
  (:func:`next_iteration_fits`), which stretches by :data:`UNSTABLE` when the last one changed the move;
* a **hard stop**: never past the account less the **reserve** R (:func:`reserve`: the larger of
  0.5 s and one increment; half the account while the account is still smaller than 2 R), nor past
  1.5 targets (:data:`HARD_FACTOR`).

The moves we still expect (M) are the empty and special fields left divided among the players still
in the game, plus our bombs: a generous count (not every field gets filled), so the surplus is spent
slowly. Per-move limits (no carry-over) are spent whole, as before.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from gridarena.core.gameclock import TimeSpec, TimeSpecError

MIN_RESERVE: Final = 0.5
"""Seconds always kept in the account at an answer (with at least one increment: :func:`reserve`)."""
HARD_FACTOR: Final = 1.5
"""The hard stop is at most this many targets: an iteration that runs past the target is cut there
(its move still counts when it beat the previous one), so a move never takes all of the surplus."""
GROWTH: Final = (2.0, 6.0)
"""Bounds on how many times longer the next iteration of the deepening takes than the last one (the
last two's ratio, 3 after the first)."""
UNSTABLE: Final = 1.25
"""The target stretches this far when the last iteration changed the move."""
EARLY_FACTOR, LATE_FACTOR = 0.6, 1.4
"""The factor on the even share from an empty board to a full one (linear in the share of fields
holding stones): the early moves leave part of each increment in the account, the late middle game,
where the lead swings, spends it."""
CRITICAL_FACTOR: Final = 1.5
"""More time where override stones or swap fields (choice, inversion) can be played now."""
FEW_MOVES_FACTOR: Final = 0.5
"""Less time with two legal moves (one: none at all)."""
BOMB_FACTOR: Final = 0.5
"""The bomb phase: short trees, the search ends early anyway."""


@dataclass(frozen=True, slots=True)
class RootView:
    """What the budget looks at in the position to move: its phase, the empty and special fields left,
    the players still in the game, our bombs, the share of fields holding stones, and the root's
    moves (all, override moves, moves onto a choice or inversion field)."""

    phase: int
    fields_left: int
    active: int
    bombs: int
    fill: float
    moves: int
    override_moves: int = 0
    swap_moves: int = 0


@dataclass(frozen=True, slots=True)
class Budget:
    """Seconds from now: the target (:func:`next_iteration_fits`) and the hard stop."""

    target: float
    hard: float


def reserve(increment: float) -> float:
    """Seconds kept in the account at an answer: the larger of :data:`MIN_RESERVE` and one increment.

    >>> reserve(1.0), reserve(0.2), reserve(2.0)
    (1.0, 0.5, 2.0)
    """
    return max(MIN_RESERVE, increment)


def moves_left(view: RootView) -> float:
    """The requests we still expect, at least 1: our share of the fields left, then our bombs.

    >>> moves_left(RootView(phase=1, fields_left=40, active=2, bombs=1, fill=0.5, moves=5))
    21.0
    """
    if view.phase != 1:
        return float(max(1, view.bombs))
    return max(1.0, view.fields_left / max(1, view.active) + view.bombs)


def criticality(view: RootView) -> float:
    """The factor on the even share: 0 with one legal move, from :data:`EARLY_FACTOR` on an empty
    board to :data:`LATE_FACTOR` on a full one, half in the bomb phase and with two moves, more where
    override stones or swap fields can be played now.

    >>> criticality(RootView(1, 40, 2, 0, 0.5, moves=1)), round(criticality(RootView(1, 40, 2, 0, 0.25, moves=8)), 3)
    (0.0, 0.8)
    >>> criticality(RootView(1, 40, 2, 0, 0.5, moves=8, override_moves=3))
    1.5
    """
    if view.moves <= 1:
        return 0.0
    if view.phase != 1:
        return BOMB_FACTOR
    factor = EARLY_FACTOR + (LATE_FACTOR - EARLY_FACTOR) * view.fill
    if view.override_moves or view.swap_moves:
        factor *= CRITICAL_FACTOR
    if view.moves == 2:
        factor *= FEW_MOVES_FACTOR
    return factor


def next_iteration_fits(
    elapsed: float, last: float, before: float | None, target: float, changed: bool
) -> bool:
    """Whether the next iteration of the deepening should start: ``elapsed`` seconds since the search
    began, the last iteration took ``last``, the one before it ``before`` (None: none), and the move's
    ``target``; the next is predicted to take ``last`` times their ratio (within :data:`GROWTH`).

    >>> next_iteration_fits(0.1, 0.07, 0.02, 1.0, False), next_iteration_fits(0.4, 0.3, 0.1, 1.0, False)
    (True, False)
    >>> next_iteration_fits(0.4, 0.3, 0.1, 1.1, False), next_iteration_fits(0.4, 0.3, 0.1, 1.1, True)
    (False, True)
    """
    low, high = GROWTH
    growth = 3.0 if not before or before <= 0 else min(high, max(low, last / before))
    return elapsed + growth * last <= target * (UNSTABLE if changed else 1.0)


def plan(account: float, increment: float, view: RootView) -> Budget:
    """The budget of a move with ``account`` seconds offered and ``increment`` added per request.

    >>> b = plan(1.0, 1.0, RootView(1, 200, 2, 0, 0.05, moves=6))  # the first move: an opening
    >>> round(b.target, 3), round(b.hard, 3)
    (0.5, 0.5)
    >>> b = plan(12.0, 1.0, RootView(1, 20, 2, 0, 0.75, moves=6))  # late, with a surplus of 10 s
    >>> round(b.target, 3), round(b.hard, 3)
    (2.4, 3.6)
    """
    keep = min(reserve(increment), account / 2)
    available = max(0.0, account - keep)
    surplus = max(0.0, account - increment - keep)
    share = increment + surplus / moves_left(view)
    target = min(available, criticality(view) * share)
    return Budget(target, min(available, HARD_FACTOR * target))


class Pacer:
    """One game's time management: knows the kind of clock and the increment, plans each move.

    ``time_control`` is the control's text (``account:2``, ``60+0.5``, ``total:300``; a per-move
    limit such as ``0.5`` is spent whole). The network client sets ``account:T`` from its first
    request, which offers exactly one increment.

    >>> Pacer("account:1").carries_over, Pacer("0.5").carries_over, Pacer(None).carries_over
    (True, False, False)
    """

    def __init__(self, time_control: str | None) -> None:
        self.increment = 0.0
        self.carries_over = False
        if time_control:
            try:
                spec = TimeSpec.parse(time_control)
            except TimeSpecError:
                return
            if spec.kind in ("account", "increment"):
                self.increment, self.carries_over = spec.per_move, True
            elif spec.kind == "total":
                self.carries_over = True

    def plan(self, account: float, view: RootView) -> Budget | None:
        """The move's budget, or None when the limit is per move (spend it all, as the deadline says)."""
        if not self.carries_over or not math.isfinite(account):
            return None
        return plan(account, self.increment, view)
