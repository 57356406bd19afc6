"""Play one game between bots: the loop every command and the arena share.

The loop owns the bookkeeping a game should not: it samples chance, gives each bot its time
control, measures wall and CPU time, turns a bot's failure into a forfeit with its reason (never
an exception out of the loop), checks legality once, and writes the replay as it goes.

Time is kept by a :class:`GameClock`: the loop asks it for each move's :class:`TurnClock` (the bot's
deadline, already short of the bot's margin, and the referee's hard limit) and charges it the time the
move took, wall or CPU. ``time_per_move`` is the simple case; the arena's
:mod:`gridarena.arena.timecontrol` adds first-move limits, accounts, whole-game budgets and CPU time.
"""

from __future__ import annotations

import os
import random
import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from gridarena.bots.base import Bot, Decision
from gridarena.core.clock import TimeControl
from gridarena.core.errors import GridArenaError
from gridarena.core.seeding import derive_seed
from gridarena.core.types import CHANCE, JSON, Game, GameState, Outcome, Player

#: Extra seconds allowed after the limit before a late answer is a timeout. In-process bots poll
#: their clock, and a loaded machine delays the return; AIND's 10 ms margin proved too small.
DEFAULT_GRACE = 0.05


class BotForfeit(GridArenaError):
    """Raised by a bot wrapper (an external program) to forfeit with a given termination and detail.

    >>> str(BotForfeit("timeout", "no answer within 150 ms"))
    'no answer within 150 ms'
    """

    def __init__(self, termination: str, detail: str) -> None:
        super().__init__(detail)
        self.termination = termination


@dataclass(slots=True)
class TurnClock(TimeControl):
    """The time control of one move: the bot's deadline (``deadline``, short of its margin) and the referee's.

    ``limit`` is what the rules allow for this move (seconds of ``clock``), ``hard_deadline`` a
    ``time.perf_counter`` value after which the referee stops waiting (external bots read it).
    """

    limit: float | None = None
    hard_deadline: float | None = None


class GameClock(Protocol):
    """The time accounting of one game: each seat's clock for its next move, and the verdict after it."""

    def turn_clock(self, seat: Player) -> TurnClock: ...
    def charge(self, seat: Player, wall: float, cpu: float) -> str | None: ...
    def left(self, seat: Player) -> float | None: ...


def bot_margin(limit: float) -> float:
    """The bot's safety margin for a limit: max(5 ms, 10 % of it) (spec section 4.3).

    >>> bot_margin(0.15), bot_margin(0.02)
    (0.015, 0.005)
    """
    return max(0.005, round(0.1 * limit, 9))


class PerMoveClock:
    """The same wall-time limit for every move (AIND's 150 ms), with the referee's grace.

    >>> clock = PerMoveClock(0.15, grace=0.05)
    >>> clock.charge(0, wall=0.19, cpu=0.19) is None, clock.charge(0, wall=0.21, cpu=0.2)
    (True, 'answered after 210 ms, limit 150 ms')
    """

    def __init__(self, seconds: float | None, grace: float = DEFAULT_GRACE) -> None:
        self.seconds, self.grace = seconds, grace

    def turn_clock(self, seat: Player) -> TurnClock:
        """A fresh deadline ``seconds - margin`` from now."""
        if self.seconds is None:
            return TurnClock()
        now = time.perf_counter()
        deadline = now + max(0.0, self.seconds - bot_margin(self.seconds))
        return TurnClock(deadline=deadline, limit=self.seconds, hard_deadline=now + self.seconds + self.grace)

    def charge(self, seat: Player, wall: float, cpu: float) -> str | None:
        """A timeout detail if the answer came after limit + grace."""
        if self.seconds is not None and wall > self.seconds + self.grace:
            return f"answered after {wall * 1000:.0f} ms, limit {self.seconds * 1000:.0f} ms"
        return None

    def left(self, seat: Player) -> float | None:
        """Nothing carries over between moves."""
        return None


@runtime_checkable
class MoveWatcher(Protocol):
    """Told when a bot starts thinking and when it is done (a worker's watchdog uses it)."""

    def started(self, seat: Player, ply: int, clock: TurnClock) -> None: ...
    def finished(self, seat: Player, ply: int) -> None: ...


@dataclass(frozen=True, slots=True)
class Turn:
    """One ply as played: who, what (as text), how long, and the bot's info."""

    ply: int
    player: Player
    action: str
    wall_ms: float
    cpu_ms: float
    info: dict[str, JSON] = field(default_factory=dict)
    left_ms: float | None = None

    def to_json(self, state_text: str | None = None) -> dict[str, JSON]:
        """The replay record of this turn, with the state after it when given."""
        record: dict[str, JSON] = {
            "ply": self.ply,
            "player": self.player,
            "action": self.action,
            "wall_ms": round(self.wall_ms, 3),
            "cpu_ms": round(self.cpu_ms, 3),
        }
        if self.left_ms is not None:
            record["left_ms"] = round(self.left_ms, 3)
        if self.info:
            record["info"] = self.info
        if state_text is not None:
            record["state"] = state_text
        return record


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A finished game: its outcome, the turns, the final state and the wall time it took."""

    outcome: Outcome
    turns: tuple[Turn, ...]
    final_state: GameState[Any]
    seconds: float
    seed: int

    @property
    def plies(self) -> int:
        """Number of plies played (chance plies included)."""
        return len(self.turns)


class Recorder(Protocol):
    """Receives each turn and the result: the replay writer and progress displays implement it."""

    def turn(self, turn: Turn, state: GameState[Any]) -> None: ...
    def result(self, record: GameRecord) -> None: ...


def _decide(
    bot: Bot, state: GameState[Any], clock: TurnClock
) -> tuple[Decision | None, str, str, float, float]:
    """Ask ``bot`` for a move: (decision or None, failure termination, detail, wall s, cpu s).

    A bot whose time is spent elsewhere (an external program) reports its CPU seconds for the move in
    ``last_move_cpu``; the thread time of this thread would only count the waiting.
    """
    wall0, cpu0 = time.perf_counter(), time.thread_time()
    termination = "crash"
    try:
        decision = bot.act(state, clock)
        detail = ""
    except BotForfeit as exc:
        decision, termination, detail = None, exc.termination, str(exc)
    except GridArenaError as exc:
        decision, detail = None, str(exc)
    except Exception as exc:  # a bot's bug is a forfeit, never the end of the harness
        decision = None
        detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    wall, cpu = time.perf_counter() - wall0, time.thread_time() - cpu0
    reported = getattr(bot, "last_move_cpu", None)
    return decision, termination, detail, wall, cpu if reported is None else float(reported)


def _judge(state: GameState[Any], decision: Decision | None, late: str | None) -> tuple[Any, str | None, str]:
    """(action, termination or None if fine, reason) for an answer that arrived (``late``: the clock's verdict)."""
    if decision is None:
        return None, "crash", ""
    if late is not None:
        return None, "timeout", late
    action = decision.action
    if isinstance(action, str):
        try:
            action = state.string_to_action(action)
        except GridArenaError as exc:
            return None, "protocol", f"unreadable action {decision.action!r}: {exc}"
    reason = state.illegal_reason(action)
    if reason is not None:
        return None, "illegal", reason
    return action, None, ""


def play_game(
    game: Game[Any],
    bots: Sequence[Bot],
    *,
    seed: int | None = None,
    names: Sequence[str] | None = None,
    time_per_move: float | None = None,
    grace: float = DEFAULT_GRACE,
    state: GameState[Any] | None = None,
    max_plies: int | None = None,
    recorders: Sequence[Recorder] = (),
    clock: GameClock | None = None,
    bot_seeds: Sequence[int] | None = None,
    watcher: MoveWatcher | None = None,
) -> GameRecord:
    """Play ``bots`` (one per seat) from ``state`` (default: the seed's initial state) to the end.

    ``clock`` keeps the time (default: ``time_per_move`` seconds per move, ``grace`` late allowed);
    ``bot_seeds`` seeds each seat's bot (default: derived from ``seed`` and the bot's name).

    >>> from gridarena import make, make_bot
    >>> game = make("isolation(width=4,height=4)")
    >>> record = play_game(game, [make_bot(game, "random"), make_bot(game, "random")], seed=3)
    >>> record.outcome.termination, sorted(record.outcome.returns)
    ('normal', [-1.0, 1.0])
    """
    if len(bots) != game.num_players:
        raise GridArenaError(f"{game.name} needs {game.num_players} players, got {len(bots)}")
    seed = int.from_bytes(os.urandom(8), "big") if seed is None else seed
    names = list(names) if names is not None else [getattr(b, "name", f"bot{i}") for i, b in enumerate(bots)]
    seeds = list(bot_seeds) if bot_seeds is not None else [derive_seed("bot", seed, n) for n in names]
    for seat, bot in enumerate(bots):
        bot.reset(game, seat, seeds[seat])
    timer: GameClock = clock if clock is not None else PerMoveClock(time_per_move, grace)
    chance = random.Random(derive_seed("chance", seed))
    state = game.new_initial_state(seed) if state is None else state
    cap = max_plies if max_plies is not None else game.max_plies()
    turns: list[Turn] = []
    start = time.perf_counter()
    outcome: Outcome | None = None
    while not state.is_terminal():
        if cap is not None and len(turns) >= cap:
            outcome = Outcome((0.0,) * game.num_players, "adjudicated", f"move cap of {cap} plies reached")
            break
        player = state.current_player()
        if player == CHANCE:
            action, wall, cpu, info, left = state.random_action(chance), 0.0, 0.0, {}, None
        else:
            turn_clock = timer.turn_clock(player)
            if watcher is not None:
                watcher.started(player, len(turns), turn_clock)
            decision, failure, detail, wall, cpu = _decide(bots[player], state, turn_clock)
            if watcher is not None:
                watcher.finished(player, len(turns))
            late = timer.charge(player, wall, cpu) if decision is not None else None
            action, termination, reason = _judge(state, decision, late)
            if termination is not None:
                termination = failure if decision is None else termination
                state = state.forfeit(player, termination, f"{names[player]}: {reason or detail}")
                continue
            info = decision.info if decision is not None else {}
            left = timer.left(player)
        turn = Turn(
            len(turns),
            player,
            state.action_to_string(action),
            wall * 1000,
            cpu * 1000,
            dict(info),
            None if left is None else left * 1000,
        )
        state = state.apply_action(action)
        turns.append(turn)
        for recorder in recorders:
            recorder.turn(turn, state)
    if outcome is None:
        outcome = state.outcome()
        assert outcome is not None, "a terminal state must have an outcome"
    record = GameRecord(outcome, tuple(turns), state, time.perf_counter() - start, seed)
    for recorder in recorders:
        recorder.result(record)
    return record
