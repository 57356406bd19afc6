"""Play in the browser: a person against a bot (Isolation), or alone at a puzzle with a hint button.

A game runs through the one game loop (:func:`gridarena.core.play.play_game`) in its own thread, so
timing, forfeits and the replay are the arena's: the person's seat is a :class:`BrowserSeat`, a bot
whose ``act`` waits for the move the page posts. Only the bot's seat is timed (:class:`SeatClock`);
the person thinks as long as they like. Each game is written as a replay (JSON Lines) while it runs,
so it opens in the viewer like any other.

>>> import tempfile
>>> from gridarena import make
>>> session = PlaySession.start(make("isolation(width=4,height=4)"), "random", 0, tempfile.mkdtemp())
>>> session.move("a1")["plies"]
2
>>> session.resign()
"""

from __future__ import annotations

import queue
import secrets
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from gridarena.arena.replay import ReplayRecorder
from gridarena.core.bot import BaseBot, BotForfeit, Decision
from gridarena.core.clock import TimeControl, TurnClock
from gridarena.core.errors import GridArenaError
from gridarena.core.gameclock import UNTIMED, GameClock, game_clock
from gridarena.core.play import GameRecord, Turn, play_game
from gridarena.core.registry import game_words, has_renderer, make_bot_for_request, playable, renderer
from gridarena.core.types import JSON, Game, GameState, Outcome, Player
from gridarena.core.words import Ending, describe

MAX_SESSIONS: Final = 32
RESIGN: Final = object()


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
        move = self.moves.get()
        self.session.waiting(False)
        if move is RESIGN:
            raise BotForfeit("crash", "the player left the game")
        return Decision(move, {"source": "browser"})


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
    """One game in the browser: its thread, the position so far and where the replay goes."""

    id: str
    game: Game[Any]
    human: Player
    opponent: str | None
    replay: Path
    names: list[str]
    state: GameState[Any]
    seat: BrowserSeat | None = None
    turns: list[dict[str, JSON]] = field(default_factory=list)
    last_action: Any = None
    record: GameRecord | None = None
    error: str | None = None
    created: float = field(default_factory=time.time)
    _waiting: bool = False
    _changed: threading.Condition = field(default_factory=threading.Condition)

    @classmethod
    def start(
        cls,
        game: Game[Any],
        opponent: str | None,
        human: Player,
        folder: str | Path,
        *,
        seconds: float = 1.0,
        seed: int | None = None,
    ) -> PlaySession:
        """Start a game (the bot moves at once if it has the first seat); raises on a bad bot spec."""
        seed = secrets.randbits(32) if seed is None else seed
        others = [make_bot_for_request(game, opponent)] if game.num_players == 2 and opponent else []
        if len(others) + 1 != game.num_players:
            raise PlayError(f"{game.name} needs {game.num_players - 1} opponent(s) to play in the browser")
        if human not in range(game.num_players):
            raise PlayError(f"seat {human + 1} is not a seat of {game.name}")
        sid = secrets.token_hex(6)
        names = ["you" if s == human else str(opponent) for s in range(game.num_players)]
        path = Path(folder) / f"{time.strftime('%Y%m%d-%H%M%S')}-{game.name}-{sid}.jsonl"
        state = game.new_initial_state(seed)
        session = cls(sid, game, human, opponent, path, names, state)
        browser = BrowserSeat(session)
        session.seat = browser
        bots: list[Any] = []
        timed = game_clock(seconds, game.num_players)
        clocks: list[GameClock] = []
        for s in range(game.num_players):
            bots.append(browser if s == human else others.pop(0))
            clocks.append(UNTIMED if s == human else timed)
        recorder = ReplayRecorder(path, game, names, seed, state, source="browser")
        thread = threading.Thread(
            target=session._run,
            args=(bots, seed, SeatClock(clocks), recorder),
            name=f"gridarena-play-{sid}",
            daemon=True,
        )
        thread.start()
        session.wait_for_turn(timeout=seconds * 5 + 10)
        return session

    def _run(self, bots: list[Any], seed: int, clock: SeatClock, recorder: ReplayRecorder) -> None:
        try:
            play_game(self.game, bots, seed=seed, names=self.names, clock=clock, recorders=[recorder, self])
        except (
            Exception
        ) as exc:  # the loop turns bots' failures into forfeits; this is a bug, shown on the page
            with self._changed:
                self.error = f"{type(exc).__name__}: {exc}"
                self._changed.notify_all()

    # -- the loop's recorder interface -------------------------------------------------------------

    def turn(self, turn: Turn, state: GameState[Any]) -> None:
        """A ply was played (by either side)."""
        with self._changed:
            self.last_action = state.string_to_action(turn.action) if turn.player >= 0 else None
            self.state = state
            self.turns.append(turn.to_json())
            self._changed.notify_all()

    def result(self, record: GameRecord) -> None:
        """The game ended."""
        with self._changed:
            self.record = record
            self.state = record.final_state
            self._changed.notify_all()

    # -- what the pages ask --------------------------------------------------------------------------

    def waiting(self, flag: bool) -> None:
        """Called by the person's seat when it starts and stops waiting for a move."""
        with self._changed:
            self._waiting = flag
            self._changed.notify_all()

    @property
    def over(self) -> bool:
        """True once the game has ended (or failed)."""
        return self.record is not None or self.error is not None

    def wait_for_turn(self, timeout: float) -> None:
        """Block until the person is to move or the game is over."""
        with self._changed:
            self._changed.wait_for(lambda: self._waiting or self.over, timeout=timeout)

    def move(self, action: str, timeout: float = 60.0) -> dict[str, JSON]:
        """Play the person's move, wait for the bot's answer, and return the new status."""
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
            plies = len(self.turns)
            assert self.seat is not None
            self._waiting = False
            self.seat.moves.put(action)
            self._changed.wait_for(lambda: len(self.turns) > plies or self.over, timeout=timeout)
        self.wait_for_turn(timeout)
        return self.status()

    def hint(self, spec: str, seconds: float = 5.0) -> dict[str, JSON]:
        """What ``spec`` (a bot of the game: the puzzle's optimal solver) would play here."""
        with self._changed:
            state = self.state
        if state.is_terminal():
            raise PlayError("the game is over")
        bot = make_bot_for_request(self.game, spec)
        bot.reset(self.game, state.current_player(), 0)
        decision = bot.act(state, TimeControl.for_seconds(seconds))
        action = (
            decision.action if isinstance(decision.action, str) else state.action_to_string(decision.action)
        )
        return {"action": action, "info": dict(decision.info), "by": spec}

    def resign(self) -> None:
        """Leave the game (the person's seat forfeits), e.g. when the server drops old sessions."""
        if self.seat is not None and not self.over:
            self.seat.moves.put(RESIGN)

    def svg(self) -> str:
        """The current position drawn by the game's renderer (its text when it has none)."""
        if has_renderer(self.game.name):
            picture: str = renderer(self.game.name)(self.state, last_action=self.last_action)
            return picture
        from gridarena.web.frames import text_svg

        return text_svg(self.state.to_text(), self.game.name, len(self.turns))

    def status(self) -> dict[str, JSON]:
        """Everything the play page shows."""
        with self._changed:
            outcome = self.state.outcome() if self.record is None else self.record.outcome
            return {
                "id": self.id,
                "game": self.game.name,
                "names": list(self.names),
                "human": self.human,
                "plies": len(self.turns),
                "turns": list(self.turns),
                "svg": self.svg(),
                "your_turn": self._waiting and not self.over,
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
    """The server's games in progress, at most :data:`MAX_SESSIONS` (the oldest is resigned)."""

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
