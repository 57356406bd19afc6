"""Play in the browser: a person against a bot (Isolation), or alone at a puzzle with a hint button.

A game runs through the one game loop (:func:`gridarena.core.play.play_game`) in its own thread, so
timing, forfeits and the replay are the arena's. The person's seat is a :class:`BrowserSeat`, a bot
whose ``act`` waits for the move the page posts; the bot's seat is a :class:`WorkerSeat`, a bot whose
``act`` asks a worker process of the pool (:mod:`gridarena.web.workers`) and waits in the game's
thread, never in one of the server's. Only the bot's seat is timed (:class:`SeatClock`); the person
thinks up to :data:`IDLE_SECONDS`. Each game is written as a replay (JSON Lines) while it runs, so it
opens in the viewer like any other.

A game belongs to whoever started it: :attr:`PlaySession.token` (unguessable, unlike the id that the
replay's file name shows) is required to move, ask a hint or resign. The page's requests await the
change they want (:meth:`PlaySession.settle`) on the event loop; resigning or evicting a game stops
the worker that thinks for it at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from gridarena.arena.replay import ReplayRecorder
from gridarena.core.bot import BaseBot, BotForfeit, Decision
from gridarena.core.clock import TimeControl, TurnClock
from gridarena.core.errors import GridArenaError
from gridarena.core.gameclock import UNTIMED, GameClock, game_clock
from gridarena.core.play import GameRecord, Turn, play_game
from gridarena.core.registry import game_words, has_renderer, playable, renderer
from gridarena.core.seeding import derive_seed
from gridarena.core.types import JSON, Game, GameState, Outcome, Player
from gridarena.core.words import Ending, describe
from gridarena.web.workers import KILL_GRACE, Lease, WorkerError, WorkerPool

MAX_SESSIONS: Final = 32
IDLE_SECONDS: Final = 3600.0
"""How long the person may think before the game is given up for them (its thread then ends)."""
HINT_SECONDS: Final = 5.0
RESIGN: Final = object()
LEFT: Final = ("crash", "the player left the game")


def hint_bot(game: str) -> str | None:
    """The spec of the bot that gives hints in ``game`` on the play page (None: no hints)."""
    entry = playable().get(game)
    return None if entry is None else entry.hint


class PlayError(GridArenaError):
    """A move or request the game cannot take (not your turn, illegal, game over); the text says why."""


class BrowserSeat(BaseBot):
    """The person's seat: ``act`` waits for the move the page posts (or a resignation)."""

    name = "you"

    def __init__(self, session: PlaySession) -> None:
        super().__init__()
        self.session = session
        self.moves: queue.Queue[Any] = queue.Queue()

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        """The posted move, as text (the loop parses and checks it like any bot's answer)."""
        self.session.waiting(True)
        try:
            move = self.moves.get(timeout=IDLE_SECONDS)
        except queue.Empty:
            raise BotForfeit("timeout", f"no move for {IDLE_SECONDS / 60:.0f} minutes") from None
        finally:
            self.session.waiting(False)
        if move is RESIGN:
            raise BotForfeit(*LEFT)
        return Decision(move, {"source": "browser"})

    def withdrawn(self) -> tuple[str, str] | None:
        """The person resigned (told to the loop while the bot thinks, so the bot's answer is dropped)."""
        return LEFT if self.session.resigned else None


class WorkerSeat(BaseBot):
    """The bot's seat: each move is a job for a worker process (the bot is built there, per move)."""

    def __init__(self, session: PlaySession, spec: str) -> None:
        super().__init__()
        self.session, self.spec, self.name = session, spec, spec
        self.seed = 0
        self.last_move_cpu: float | None = None

    def reset(self, game: Game[Any], seat: Player, seed: int) -> None:
        """A new game: the seat and the seed each move's bot is built with."""
        super().reset(game, seat, seed)
        self.seed = seed

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        """Ask a worker; its answer, or a forfeit when it is late (the worker is killed) or it failed."""
        assert isinstance(clock, TurnClock)
        lease = self.session.take_lease() or self.session.pool.reserve(max(0.0, clock.time_left()))
        if lease is None:
            raise BotForfeit("timeout", "no worker process was free within the move's time")
        hard = clock.hard_deadline if clock.hard_deadline is not None else clock.deadline
        wait = IDLE_SECONDS if hard is None else hard - time.perf_counter() + KILL_GRACE
        job: dict[str, JSON] = {
            "op": "move",
            "game": self.session.spec,
            "bot": self.spec,
            "state": state.to_json(),
            "seat": self.seat,
            "seed": derive_seed("web-move", self.seed, len(self.session.turns)),
            "seconds": max(0.0, clock.time_left()),
            "cpu": float(clock.limit or clock.time_left()),
            "depth": clock.depth,
        }
        try:
            if not self.session.begin(lease):
                raise BotForfeit(*LEFT)
            answer = lease.ask(job, wait)
        except WorkerError as exc:
            raise BotForfeit(exc.termination, str(exc)) from None
        finally:
            self.session.end(lease)
            lease.release()
        if "error" in answer:
            raise BotForfeit(str(answer.get("termination", "crash")), str(answer["error"]))
        self.last_move_cpu = float(str(answer["cpu"]))
        info = answer.get("info")
        return Decision(str(answer["action"]), dict(info) if isinstance(info, dict) else {})


class SeatClock:
    """A game clock per seat: the person's seat untimed, the bot's seat on its own control."""

    def __init__(self, clocks: list[GameClock]) -> None:
        self.clocks = clocks

    def turn_clock(self, seat: Player) -> TurnClock:
        """The seat's clock for its next move."""
        return self.clocks[seat].turn_clock(seat)

    def charge(self, seat: Player, wall: float, cpu: float) -> str | None:
        """Charge the seat's own clock."""
        return self.clocks[seat].charge(seat, wall, cpu)

    def left(self, seat: Player) -> float | None:
        """What the seat's own clock has left."""
        return self.clocks[seat].left(seat)

    def exhausted(self, seat: Player) -> str | None:
        """Whether the seat's own budget is spent."""
        return self.clocks[seat].exhausted(seat)


@dataclass
class PlaySession:
    """One game in the browser: its thread, the position so far, its owner's token and its replay."""

    id: str
    token: str
    game: Game[Any]
    spec: str
    human: Player
    opponent: str | None
    replay: Path
    names: list[str]
    state: GameState[Any]
    pool: WorkerPool
    seconds: float = 1.0
    seat: BrowserSeat | None = None
    turns: list[dict[str, JSON]] = field(default_factory=list)
    last_action: Any = None
    record: GameRecord | None = None
    error: str | None = None
    resigned: bool = False
    created: float = field(default_factory=time.time)
    _waiting: bool = False
    _pending: Lease | None = None
    _thinking: set[Lease] = field(default_factory=set)
    _listeners: list[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = field(default_factory=list)
    _changed: threading.Condition = field(default_factory=threading.Condition)

    @classmethod
    def start(
        cls,
        game: Game[Any],
        spec: str,
        opponent: str | None,
        human: Player,
        folder: str | Path,
        pool: WorkerPool,
        *,
        seconds: float = 1.0,
        seed: int | None = None,
        lease: Lease | None = None,
    ) -> PlaySession:
        """Start a game in its thread; ``lease`` is the worker for the bot's first move when it has the
        first seat. ``spec`` builds ``game`` in the workers (through the request-safe constructor)."""
        if game.num_players != (2 if opponent else 1):
            raise PlayError(f"{game.name} needs {game.num_players - 1} opponent(s) to play in the browser")
        if human not in range(game.num_players):
            raise PlayError(f"seat {human + 1} is not a seat of {game.name}")
        seed = secrets.randbits(32) if seed is None else seed
        sid = secrets.token_hex(6)
        names = ["you" if s == human else str(opponent) for s in range(game.num_players)]
        path = Path(folder) / f"{time.strftime('%Y%m%d-%H%M%S')}-{game.name}-{sid}.jsonl"
        state = game.new_initial_state(seed)
        session = cls(
            sid, secrets.token_urlsafe(32), game, spec, human, opponent, path, names, state, pool, seconds
        )
        if lease is not None and (state.is_terminal() or state.current_player() == human):
            lease.release()  # the person moves first: the bot needs no worker yet
        else:
            session._pending = lease
        session.seat = BrowserSeat(session)
        bots: list[Any] = [
            session.seat if s == human else WorkerSeat(session, str(opponent)) for s in range(2)
        ]
        clocks = [UNTIMED if s == human else game_clock(seconds, game.num_players) for s in range(2)]
        recorder = ReplayRecorder(path, game, names, seed, state, source="browser")
        thread = threading.Thread(
            target=session._run,
            args=(bots[: game.num_players], seed, SeatClock(clocks[: game.num_players]), recorder),
            name=f"gridarena-play-{sid}",
            daemon=True,
        )
        thread.start()
        return session

    def _run(self, bots: list[Any], seed: int, clock: SeatClock, recorder: ReplayRecorder) -> None:
        try:
            play_game(self.game, bots, seed=seed, names=self.names, clock=clock, recorders=[recorder, self])
        except (
            Exception
        ) as exc:  # the loop turns bots' failures into forfeits; this is a bug, shown on the page
            with self._changed:
                self.error = f"{type(exc).__name__}: {exc}"
                self._notify()
        finally:
            self._drop_pending()

    # -- the loop's recorder interface -------------------------------------------------------------

    def turn(self, turn: Turn, state: GameState[Any]) -> None:
        """A ply was played (by either side)."""
        with self._changed:
            self.last_action = state.string_to_action(turn.action) if turn.player >= 0 else None
            self.state = state
            self.turns.append(turn.to_json())
            self._notify()

    def result(self, record: GameRecord) -> None:
        """The game ended."""
        with self._changed:
            self.record = record
            self.state = record.final_state
            self._notify()
        self._drop_pending()

    # -- workers -----------------------------------------------------------------------------------

    def take_lease(self) -> Lease | None:
        """The worker reserved by the request that made the bot move (None: the bot reserves its own)."""
        with self._changed:
            lease, self._pending = self._pending, None
        return lease

    def begin(self, lease: Lease) -> bool:
        """``lease`` starts thinking for this game; False if the game was given up meanwhile."""
        with self._changed:
            if self.resigned:
                return False
            self._thinking.add(lease)
            return True

    def end(self, lease: Lease) -> None:
        """``lease`` is done with this game."""
        with self._changed:
            self._thinking.discard(lease)

    def _drop_pending(self) -> None:
        lease = self.take_lease()
        if lease is not None:
            lease.release()

    # -- what the pages ask --------------------------------------------------------------------------

    def _notify(self) -> None:
        """Wake whoever waits for a change (threads and event loops); call with the lock held."""
        self._changed.notify_all()
        for loop, event in self._listeners:
            with contextlib.suppress(RuntimeError):  # a loop closed meanwhile (the server stopped)
                loop.call_soon_threadsafe(event.set)
        self._listeners.clear()

    def waiting(self, flag: bool) -> None:
        """Called by the person's seat when it starts and stops waiting for a move."""
        with self._changed:
            self._waiting = flag
            self._notify()

    @property
    def over(self) -> bool:
        """True once the game has ended (or failed)."""
        return self.record is not None or self.error is not None

    @property
    def your_turn(self) -> bool:
        """True while the person's seat waits for a move."""
        return self._waiting and not self.over

    def wait_for_turn(self, timeout: float) -> None:
        """Block this thread until the person is to move or the game is over (tests and benchmarks)."""
        with self._changed:
            self._changed.wait_for(lambda: self._waiting or self.over, timeout=timeout)

    async def settle(self, timeout: float, ready: Callable[[], bool] | None = None) -> None:
        """Await, without a thread, until ``ready()`` (default: the person's turn or the end) or ``timeout``."""
        ready = ready or (lambda: self._waiting or self.over)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            event = asyncio.Event()
            with self._changed:
                if ready():
                    return
                self._listeners.append((loop, event))
            try:
                await asyncio.wait_for(event.wait(), deadline - loop.time())
            except TimeoutError:
                return

    def needs_worker(self, action: str) -> bool:
        """Whether the bot moves after ``action`` (the request that posts it then reserves a worker)."""
        with self._changed:
            state = self.state
        try:
            after = state.apply_action(state.string_to_action(action))
        except GridArenaError:
            return False
        return self.opponent is not None and not after.is_terminal() and after.current_player() != self.human

    def post(self, action: str, lease: Lease | None) -> int:
        """Play the person's move (``lease``: the worker for the bot's answer); the plies before it."""
        with self._changed:
            if self.over:
                raise PlayError("the game is over")
            if not self._waiting:
                raise PlayError("it is not your turn")
            try:
                reason = self.state.illegal_reason(self.state.string_to_action(action))
            except GridArenaError as exc:
                raise PlayError(str(exc)) from None
            if reason is not None:
                raise PlayError(f"{action!r}: {reason}")
            assert self.seat is not None
            self._waiting = False
            if self._pending is None:
                self._pending = lease
            elif lease is not None:  # a worker already waits for the bot's move
                lease.release()
            self.seat.moves.put(action)
            return len(self.turns)

    def hint_job(self, spec: str) -> dict[str, JSON]:
        """The worker job that asks ``spec`` (a bot of the game: the puzzle's optimal solver) for a move here."""
        with self._changed:
            state = self.state
        if state.is_terminal() or self.over:
            raise PlayError("the game is over")
        return {
            "op": "move",
            "game": self.spec,
            "bot": spec,
            "state": state.to_json(),
            "seat": state.current_player(),
            "seed": secrets.randbits(32),
            "seconds": HINT_SECONDS,
            "cpu": HINT_SECONDS,
        }

    def resign(self) -> None:
        """Leave the game (the person's seat forfeits) and stop every worker thinking for it."""
        with self._changed:
            if self.over or self.resigned:
                return
            self.resigned = True
            thinking = list(self._thinking)
        for lease in thinking:
            lease.kill()
        if self.seat is not None:
            self.seat.moves.put(RESIGN)

    def svg(self) -> str:
        """The current position drawn by the game's renderer (its text when it has none)."""
        if has_renderer(self.game.name):
            picture: str = renderer(self.game.name)(self.state, last_action=self.last_action)
            return picture
        from gridarena.web.frames import text_svg

        return text_svg(self.state.to_text(), self.game.name, len(self.turns))

    def status(self, since: int = 0, *, yours: bool = False) -> dict[str, JSON]:
        """What the play page shows: the position, and the turns from ply ``since`` on (the page has the
        earlier ones: an answer never carries the whole game again)."""
        with self._changed:
            outcome = self.state.outcome() if self.record is None else self.record.outcome
            since = max(0, min(since, len(self.turns)))
            return {
                "id": self.id,
                "game": self.game.name,
                "names": list(self.names),
                "human": self.human,
                "plies": len(self.turns),
                "since": since,
                "turns": self.turns[since:],
                "svg": self.svg(),
                "your_turn": self.your_turn,
                "yours": yours,
                "over": self.over,
                "result": None if outcome is None or not self.over else outcome.to_json(),
                "verdict": None if outcome is None or not self.over else self._verdict(outcome),
                "error": self.error,
                "replay": self.replay.name,
                "hint": hint_bot(self.game.name),
            }

    def _verdict(self, outcome: Outcome) -> str:
        """How the game ended, in the game's words."""
        info = self.state.result_info() if self.state.is_terminal() else {}
        return describe(game_words(self.game.name), Ending(outcome, tuple(self.names), info))


class Sessions:
    """The server's games, at most :data:`MAX_SESSIONS` (the oldest is resigned and dropped)."""

    def __init__(self) -> None:
        self.table: dict[str, PlaySession] = {}
        self.lock = threading.Lock()

    def add(self, session: PlaySession) -> None:
        """Keep ``session``; resign and drop the oldest when there are too many."""
        with self.lock:
            self.table[session.id] = session
            while len(self.table) > MAX_SESSIONS:
                oldest = min(self.table.values(), key=lambda s: s.created)
                oldest.resign()
                del self.table[oldest.id]

    def get(self, sid: str) -> PlaySession | None:
        """The session with this id, if any."""
        with self.lock:
            return self.table.get(sid)

    def close(self) -> None:
        """Resign every game (server shutdown)."""
        with self.lock:
            for session in self.table.values():
                session.resign()
