"""One server game on the shared loop: network seats are bots, broadcasts and the console trace a recorder.

The game runs in :func:`gridarena.core.play.play_game` on a thread of its own, like any game; the
sockets live on the server's event loop. Three small objects join them:

* :class:`NetworkSeat`, a bot: ``act`` sends the move request (the time is what the game clock allows
  for this move, as the reference's account; the depth byte is the server's) and waits for the answer until the clock's
  hard deadline; a late, broken or malformed answer is a :class:`~gridarena.core.bot.BotForfeit`, and a
  client that broke off between its moves reports it through ``withdrawn()``.
* :class:`TableRecorder`, a recorder and move watcher: it tells the table each request, move,
  forfeit and the result, and the table announces them (messages 4 to 9) and writes the reference
  console lines.
* :class:`Table`, on the event loop: it owns the game's connections and is the one place that writes
  to them, so the clients, the trace and the game's state see events in one order.

A client that breaks off while the server waits for an answer (its own, or another's) is disqualified
at once: message 7 to every client still connected, the offender included, then his connection is
closed. At any other moment (the server is between a move and the next request) the announcement
waits for the next request to be written; either way the game loop forfeits him before it judges the
answer it waits for, so the order on the wire is the order of the game.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, Final, TypeVar

from gridarena.core.bot import BaseBot, BotForfeit, Decision
from gridarena.core.clock import TimeControl, TurnClock
from gridarena.core.play import GameRecord, Turn
from gridarena.core.types import GameState, Player
from gridarena.games.reversixt.formats import Move
from gridarena.games.reversixt.net.connection import STATUS, Broken, Connection
from gridarena.games.reversixt.net.console import (
    answer_line,
    disqualified_line,
    opening_lines,
    reference_board,
    request_lines,
    score_lines,
)
from gridarena.games.reversixt.net.protocol import (
    Disqualification,
    EndGame,
    EndPhase1,
    Message,
    MoveAnnouncement,
    MoveAnswer,
    MoveRequest,
)
from gridarena.games.reversixt.rules import PHASE_STONES, ReversiState, wire_move

log: Final = logging.getLogger("gridarena.reversixt.server")

Emit = Callable[..., None]
"""``emit(*lines, stamp=False)``: lines of the reference console format for this game."""

T = TypeVar("T")


def offered_ms(clock: TimeControl) -> int:
    """The time field of a move request: what the clock allows for this move, in ms (0: no limit).

    >>> offered_ms(TurnClock(limit=2.0)), offered_ms(TurnClock()), offered_ms(TurnClock(limit=-0.3))
    (2000, 0, 1)
    """
    limit = getattr(clock, "limit", None)
    if limit is None:
        return 0
    return min(max(1, int(limit * 1000)), 0xFFFF_FFFF)  # 0 would mean "no limit"


def active_players(state: ReversiState) -> int:
    """Players who are not disqualified."""
    return sum(reason is None for reason in state.disqualified)


class Table:
    """One game's connections on the event loop; see the module docstring."""

    def __init__(
        self,
        number: int,
        connections: Sequence[Connection],
        names: Sequence[str],
        state: ReversiState,
        *,
        depth: int,
        emit: Emit,
        tracing: bool,
        loop: asyncio.AbstractEventLoop,
    ) -> None:
        self.number, self.conns, self.names = number, list(connections), list(names)
        self.state, self.depth, self.emit, self.loop = state, depth, emit, loop
        self.tracing = tracing
        self.moves = 0
        self.end1_sent = False
        self.waiting = False  # an answer is awaited: a client that breaks off is disqualified at once
        self.deferred: list[Connection] = []
        self.announced: set[int] = set()  # seats whose message 7 went out
        self.withdrawals: dict[int, tuple[str, str]] = {}  # seat -> (termination, detail), for the loop
        self.closed: set[int] = set()
        self.tasks: set[asyncio.Task[None]] = set()

    # -- the game thread calls in ----------------------------------------------------------------

    def call(self, step: Coroutine[Any, Any, T]) -> T:
        """Run one step on the event loop from the game's thread and wait for it."""
        return asyncio.run_coroutine_threadsafe(step, self.loop).result()

    async def begin(self) -> None:
        """The start: the console's opening, END1 at once on a bombing-only map; broken clients noticed."""
        opening, self.moves = opening_lines(self.state)
        self.emit("Game started.", *opening, stamp=True)
        self.board(self.state)
        log.info("game %d started: %d players", self.number, len(self.conns))
        for conn in self.conns:
            conn.on_break = self.withdraw
            if conn.broken is not None:
                self.withdraw(conn)
        await self.phase_check(self.state)

    async def before_request(self, seat: Player, clock: TimeControl) -> None:
        """The console lines before a request (the reference prints them before it sends)."""
        self.emit(*request_lines(self.state, self.depth, offered_ms(clock)), stamp=True)

    async def ask(
        self, seat: Player, request: MoveRequest, timeout: float | None
    ) -> MoveAnswer | Broken | None:
        """Send a request and wait for the answer (None: ``timeout`` passed first)."""
        conn = self.conns[seat]
        if conn.broken is not None:  # he broke off before his turn: no request
            self.flush()
            return conn.broken
        conn.expect_answer()
        conn.write(request)
        self.waiting = True
        self.flush()
        try:
            return await conn.answer(timeout)
        finally:
            self.waiting = False

    async def on_turn(self, turn: Turn, state: ReversiState) -> None:
        """A move was played: its console lines, and the announcement to every client."""
        k, move = turn.player + 1, state.last_move or Move(0, 0)
        left = 0 if turn.left_ms is None else int(turn.left_ms)
        self.emit(answer_line(k, self.moves, move, left), stamp=True)
        self.board(state)
        self.emit("", "")
        log.debug(
            "game %d move %d: player %d plays (%d,%d) special %d in %.0f ms%s",
            *(self.number, self.moves, k, move.x, move.y, move.special, turn.wall_ms),
            "" if turn.left_ms is None else f", account {left} ms",
        )
        self.moves += 1
        self.state = state
        await self.broadcast(MoveAnnouncement(move.x, move.y, move.special, k))
        await self.phase_check(state)

    async def on_forfeit(self, seat: Player, termination: str, reason: str, state: ReversiState) -> None:
        """A seat forfeited (the loop's verdict, or a withdrawal already announced)."""
        if seat not in self.announced:
            self.announce(self.conns[seat], STATUS[termination], reason.removeprefix(f"{self.names[seat]}: "))
        self.state = state
        await self.settle()
        await self.phase_check(state)

    async def on_result(self, record: GameRecord) -> None:
        """The end: END1 if it is still due, END2 to all, the final scores."""
        self.deferred.clear()  # broke off after the last move: the game was over before
        state = record.final_state
        assert isinstance(state, ReversiState)
        if not self.end1_sent and active_players(state) >= 2:
            await self.end_phase1(state)
        await self.broadcast(EndGame())
        self.emit("Final state reached.", stamp=True)
        self.emit("", "", *score_lines(state), "bye bye.")
        log.info("game %d over after %d moves: %s", self.number, record.plies, record.outcome.reason)

    # -- the event loop's side -------------------------------------------------------------------

    def withdraw(self, conn: Connection) -> None:
        """A client broke off (``conn.on_break``): disqualify him now, or at the next request."""
        if conn.player - 1 in self.announced or conn in self.deferred:
            return
        if self.waiting:
            self.disqualify_withdrawn(conn)
        else:
            self.deferred.append(conn)

    def flush(self) -> None:
        """Disqualify the clients who broke off while no answer was awaited."""
        deferred, self.deferred = self.deferred, []
        for conn in deferred:
            self.disqualify_withdrawn(conn)

    def disqualify_withdrawn(self, conn: Connection) -> None:
        broken = conn.broken
        assert broken is not None
        self.withdrawals[conn.player - 1] = (broken.termination, broken.detail)
        self.announce(conn, broken.status, broken.detail)
        self.spawn(self.settle())

    def announce(self, conn: Connection, status: str, detail: str) -> None:
        """Message 7 to every client still connected, the offender included (our choice); he is closed later."""
        self.write_all(Disqualification(conn.player))
        self.announced.add(conn.player - 1)
        if conn in self.deferred:
            self.deferred.remove(conn)
        self.emit(disqualified_line(conn.player, status, detail), stamp=True)
        log.info("game %d: player %d disqualified (%s: %s)", self.number, conn.player, status, detail)

    def write_all(self, message: Message) -> None:
        """Put ``message`` in the buffer of every client still in the game, in this order on every wire."""
        for conn in self.conns:
            if conn.player - 1 not in self.announced:
                conn.write(message)

    async def broadcast(self, message: Message) -> None:
        """Write to every client still in the game and wait until they have it."""
        self.write_all(message)
        await self.settle()

    async def settle(self) -> None:
        """Wait for every connection to take its frames; close the disqualified ones."""
        await asyncio.gather(*(conn.drain() for conn in self.conns))
        for seat in sorted(self.announced - self.closed):
            self.closed.add(seat)
            await self.conns[seat].close()

    def spawn(self, step: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(step)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def phase_check(self, state: ReversiState) -> None:
        if not state.is_terminal() and state.phase != PHASE_STONES:
            await self.end_phase1(state)

    async def end_phase1(self, state: ReversiState) -> None:
        if self.end1_sent:
            return
        self.end1_sent = True
        await self.broadcast(EndPhase1())
        self.emit("", "Terminal state reached.", "", "", *score_lines(state), "")
        log.info("game %d: end of phase 1, stones %s", self.number, [s or 0 for s in state.scores()])

    def board(self, state: ReversiState) -> None:
        if self.tracing:  # the marks cost a move generation: only for a trace
            self.emit(*reference_board(state))

    def abort(self) -> None:
        """The server is stopping: every pending request fails at once, and so will every later one."""
        for conn in self.conns:
            conn.abort("the server is shutting down")

    async def close(self) -> None:
        """Close every connection and wait for the table's own tasks."""
        await asyncio.gather(*self.tasks, return_exceptions=True)
        for conn in self.conns:
            await conn.close()


class NetworkSeat(BaseBot):
    """A client as a bot of the game loop: a move is a request over the network and its answer."""

    def __init__(self, table: Table, seat: Player) -> None:
        super().__init__()
        self.table, self.seat = table, seat
        self.name = table.names[seat]

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        """Send the request and wait (until the clock's hard deadline) for a well-formed answer."""
        offered = offered_ms(clock)
        hard = getattr(clock, "hard_deadline", None)
        timeout = None if hard is None else max(0.0, hard - time.perf_counter())
        request = MoveRequest(offered, self.table.depth)
        answer = self.table.call(self.table.ask(self.seat, request, timeout))
        if answer is None:
            raise BotForfeit("timeout", f"no answer within {offered} ms")
        if isinstance(answer, Broken):
            raise BotForfeit(answer.termination, answer.detail)
        assert isinstance(state, ReversiState)
        return Decision(
            wire_move(state, answer.x, answer.y, answer.special)
        )  # a bomb's byte is ignored, as on the reference server

    def withdrawn(self) -> tuple[str, str] | None:
        """``(termination, detail)`` once this client broke off between its moves and was told so."""
        return self.table.withdrawals.get(self.seat)


class TableRecorder:
    """The recorder and move watcher that tells the :class:`Table` what the game loop did."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def started(self, seat: Player, ply: int, clock: TurnClock) -> None:
        """A request is about to go out."""
        self.table.call(self.table.before_request(seat, clock))

    def finished(self, seat: Player, ply: int) -> None:
        """Nothing to do: the answer's fate comes with ``turn`` or ``forfeit``."""

    def turn(self, turn: Turn, state: GameState[Any]) -> None:
        """Announce a move."""
        assert isinstance(state, ReversiState)
        self.table.call(self.table.on_turn(turn, state))

    def forfeit(self, seat: Player, termination: str, reason: str, state: GameState[Any]) -> None:
        """Announce a disqualification."""
        assert isinstance(state, ReversiState)
        self.table.call(self.table.on_forfeit(seat, termination, reason, state))

    def result(self, record: GameRecord) -> None:
        """Announce the end."""
        self.table.call(self.table.on_result(record))
