"""Play one game between bots: the one loop every command, every game and the arena share.

The loop owns the bookkeeping a game should not: it samples chance, gives each bot its time
control, measures wall and CPU time, turns a bot's failure into a forfeit with its reason (never
an exception out of the loop), checks legality once, and feeds recorders (the replay writer) as it goes.

Time is kept by a :class:`~gridarena.core.gameclock.GameClock`: the loop asks it for each move's
:class:`~gridarena.core.clock.TurnClock` (the bot's deadline, already short of the bot's margin, and
the referee's hard limit), refuses a seat whose game budget is spent before asking it, and charges it
the time the move took, wall or CPU. Every control of :mod:`gridarena.core.gameclock` plays here: per
move, first and later moves, accounts, whole-game budgets (Pentocity's 300 s of CPU) and increments.

A forfeit need not end the game (ReversiXT goes on without a disqualified player). Such a forfeit is
told to recorders that have a ``forfeit(seat, termination, reason, state)`` method at once, and is
kept on the next ply (:attr:`Turn.forfeits`), so a replay re-applies it before that ply's action. A bot
may also leave on its own between its moves (a network peer whose connection broke or who spoke out
of turn): its optional ``withdrawn()`` hook then answers ``(termination, detail)``, and the loop
forfeits it before the next move and, when it left while another seat was thinking, before that
seat's answer is judged (the answer still counts if the same seat is to move after the forfeit).
"""

from __future__ import annotations

import os
import random
import time
import traceback
from collections.abc import Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from gridarena.core.bot import Bot, BotForfeit, Decision, ReportsCpu, Withdraws, warm_up
from gridarena.core.clock import DEFAULT_GRACE, TurnClock
from gridarena.core.collector import game_heap
from gridarena.core.errors import ActionParseError, GridArenaError
from gridarena.core.gameclock import GameClock, Untimed, game_clock
from gridarena.core.seeding import derive_seed
from gridarena.core.types import CHANCE, JSON, Game, GameState, Outcome, Player


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
    forfeits: tuple[tuple[Player, str, str], ...] = ()
    """Seats forfeited since the previous ply, before this one's action: (seat, termination, reason)."""

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
        if self.forfeits:
            record["forfeits"] = [[seat, termination, reason] for seat, termination, reason in self.forfeits]
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
    """Receives each turn and the result: the replay writer and progress displays implement it.

    A recorder may also have ``forfeit(seat, termination, reason, state)``, called at once when a
    seat forfeits (``state`` is the position after it; the game may go on).
    """

    def turn(self, turn: Turn, state: GameState[Any]) -> None: ...
    def result(self, record: GameRecord) -> None: ...


def _describe(exc: Exception) -> str:
    """An exception as its last traceback line (``RuntimeError: deliberate bug``)."""
    return "".join(traceback.format_exception_only(type(exc), exc)).strip()


def _decide(
    bot: Bot, state: GameState[Any], clock: TurnClock, cpu_report: ReportsCpu | None = None
) -> tuple[Decision | None, str, str, float, float]:
    """Ask ``bot`` for a move: (decision or None, failure termination, detail, wall s, cpu s).

    A bot whose time is spent elsewhere (an external program, ``cpu_report``: the bot itself) reports
    its CPU seconds for the move in ``last_move_cpu``; the thread time of this thread would only count
    the waiting.
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
        detail = _describe(exc)
    wall, cpu = time.perf_counter() - wall0, time.thread_time() - cpu0
    reported = None if cpu_report is None else cpu_report.last_move_cpu
    return decision, termination, detail, wall, cpu if reported is None else float(reported)


def _warm_up(bots: Sequence[Bot], game: Game[Any]) -> dict[Player, str]:
    """Get each bot ready outside the clock; what went wrong, by seat (the seat forfeits its first move)."""
    failures: dict[Player, str] = {}
    for seat, bot in enumerate(bots):
        try:
            warm_up(bot, game)
        except Exception as exc:  # a bot's bug is a forfeit, never the end of the harness
            failures[seat] = f"warm-up failed: {_describe(exc)}"
    return failures


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
    try:
        reason = state.illegal_reason(action)
    except ActionParseError as exc:  # an object that is no action of this game at all
        return None, "protocol", str(exc)
    if reason is not None:
        return None, "illegal", reason
    return action, None, ""


class _Forfeits:
    """One game's forfeits: applied to the state, told to recorders at once, kept for the next ply."""

    def __init__(self, bots: Sequence[Bot], names: Sequence[str], recorders: Sequence[Recorder]) -> None:
        self.names = names
        self.told = [r for r in recorders if callable(getattr(r, "forfeit", None))]
        self.watched = [(seat, bot.withdrawn) for seat, bot in enumerate(bots) if isinstance(bot, Withdraws)]
        self.out: set[Player] = set()
        self.pending: list[tuple[Player, str, str]] = []

    def apply(self, state: GameState[Any], seat: Player, termination: str, detail: str) -> GameState[Any]:
        """``seat`` forfeits: the state after it (terminal or not)."""
        reason = f"{self.names[seat]}: {detail}"
        state = state.forfeit(seat, termination, reason)
        self.out.add(seat)
        self.pending.append((seat, termination, reason))
        for recorder in self.told:
            recorder.forfeit(seat, termination, reason, state)  # type: ignore[attr-defined]
        return state

    def withdrawals(self, state: GameState[Any]) -> GameState[Any]:
        """Forfeit, in seat order, every bot that has left the game on its own (``state`` itself if none)."""
        for seat, withdrawn in self.watched:
            if seat in self.out or state.is_terminal():
                continue
            gone = withdrawn()
            if gone is not None:
                state = self.apply(state, seat, *gone)
        return state

    def take(self) -> tuple[tuple[Player, str, str], ...]:
        """The forfeits since the last ply (for the next :class:`Turn`)."""
        taken, self.pending = tuple(self.pending), []
        return taken


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

    ``clock`` keeps the time (default: ``time_per_move`` seconds per move on the wall clock, ``grace``
    late allowed; see :func:`~gridarena.core.gameclock.game_clock` for the other controls);
    ``bot_seeds`` seeds each seat's bot (default: derived from ``seed`` and the bot's name).
    Before the first move, outside the clock, each bot with a ``warm_up(game)`` hook gets ready
    (compiles or loads its kernels), so that no first move pays for it.

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
    unready = _warm_up(bots, game)
    for seat, bot in enumerate(bots):
        if seat not in unready:  # a bot that could not get ready forfeits its first move
            bot.reset(game, seat, seeds[seat])
    timer = clock if clock is not None else game_clock(time_per_move, game.num_players, grace=grace)
    chance = random.Random(derive_seed("chance", seed))
    state = game.new_initial_state(seed) if state is None else state
    cap = max_plies if max_plies is not None else game.max_plies()
    turns: list[Turn] = []
    forfeits = _Forfeits(bots, names, recorders)
    cpu_reports = [b if isinstance(b, ReportsCpu) else None for b in bots]  # once: a protocol check is slow
    start = time.perf_counter()
    outcome: Outcome | None = None
    # A timed game: no pass of the garbage collector during a move walks what was alive before it.
    with nullcontext() if isinstance(timer, Untimed) else game_heap():
        while not state.is_terminal():
            if cap is not None and len(turns) >= cap:
                outcome = Outcome(
                    (0.0,) * game.num_players, "adjudicated", f"move cap of {cap} plies reached"
                )
                break
            state = forfeits.withdrawals(state)
            if state.is_terminal():
                break
            player = state.current_player()
            if player == CHANCE:
                action, wall, cpu, info, left = state.random_action(chance), 0.0, 0.0, {}, None
            else:
                spent = timer.exhausted(player)
                if spent is not None:
                    state = forfeits.apply(state, player, "timeout", spent)
                    continue
                if player in unready:
                    state = forfeits.apply(state, player, "crash", unready.pop(player))
                    continue
                turn_clock = timer.turn_clock(player)
                if watcher is not None:
                    watcher.started(player, len(turns), turn_clock)
                decision, failure, detail, wall, cpu = _decide(
                    bots[player], state, turn_clock, cpu_reports[player]
                )
                if watcher is not None:
                    watcher.finished(player, len(turns))
                others = forfeits.withdrawals(state)  # seats that left while this one was thinking come first
                if others is not state:
                    state = others
                    if state.is_terminal() or state.current_player() != player:
                        continue  # the game went on without this answer
                late = timer.charge(player, wall, cpu) if decision is not None else None
                action, termination, reason = _judge(state, decision, late)
                if termination is not None:
                    termination = failure if decision is None else termination
                    state = forfeits.apply(state, player, termination, reason or detail)
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
                forfeits.take(),
            )
            state = state.child(action)  # _judge checked it: no second legality check
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
