"""A bot is ready before it is asked: its ``warm_up`` hook, timed, here or in the background.

A bot whose search runs on numba kernels compiles them (seconds, on a fresh install) or loads them
from numba's cache (about a second) on first use; its ``warm_up(game)`` does that. The game loop
(:func:`gridarena.core.play.play_game`) calls :func:`~gridarena.core.bot.warm_up` for every bot before the first move,
outside the clock, so every front end that plays through it is covered (the arena and its workers,
``gridarena play``, ``iceandfire match``, the web viewer).

A program that is asked by someone else's clock (a CodinGame referee, a ReversiXT server) cannot wait
for the warm-up before it reads: it wraps its bot in :class:`WarmingBot`, which warms up in a
thread and answers a cheap legal action until the bot is ready.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from typing import Any

from gridarena.core.bot import Bot, Closes, Decision, WantsResult, WarmUp, warm_up
from gridarena.core.clock import TimeControl
from gridarena.core.types import Game, GameState, Outcome, Player


def cheap_action(state: GameState[Any], rng: random.Random) -> Any:
    """A legal action found at once: the first legal one, or a random one where actions are not listed.

    >>> from gridarena import make
    >>> cheap_action(make("isolation(width=5,height=5)").new_initial_state(), random.Random(0))
    0
    """
    if state.game.enumerable_actions:
        return state.legal_actions()[0]
    return state.random_action(rng)


class WarmingBot:
    """``bot``, warming up in a thread from construction; until it is ready, each move is a cheap one.

    ``on_ready(seconds)`` is called from the thread when the bot's warm-up hook is done (to say so on
    stderr; a bot without the hook is ready at once and nothing is said);
    a warm-up that fails leaves the bot on cheap moves and keeps the error in ``error``. A ``reset``
    that comes during the warm-up waits until it is over (the bot's tables are being built), and
    :meth:`warm_up` waits for the end of the warm-up, so the game loop can call it as on any bot.

    >>> from gridarena import make, make_bot
    >>> game = make("isolation(width=5,height=5)")
    >>> bot = WarmingBot(make_bot(game, "greedy"), game)
    >>> bot.wait(10.0), bot.seconds is not None
    (True, True)
    """

    def __init__(
        self, bot: Bot, game: Game[Any], on_ready: Callable[[float], None] | None = None, seed: int = 0
    ) -> None:
        self.bot, self.name = bot, getattr(bot, "name", "bot")
        self.seconds: float | None = None
        self.error: BaseException | None = None
        self.cheap_moves = 0
        self._rng = random.Random(seed)
        self._pending: tuple[Game[Any], Player, int] | None = None
        self._lock = threading.Lock()
        self._ready = threading.Event()
        if isinstance(bot, WarmUp):
            threading.Thread(target=self._warm, args=(game, on_ready), name="warm-up", daemon=True).start()
        else:  # nothing to wait for (nor to tell): ready now, so that no move is a cheap one by chance
            self._warm(game, None)

    def _warm(self, game: Game[Any], on_ready: Callable[[float], None] | None) -> None:
        started = time.perf_counter()
        try:
            warm_up(self.bot, game)
        except Exception as exc:  # a bot that cannot warm up plays cheap moves; its error is kept
            self.error = exc
        else:
            self.seconds = time.perf_counter() - started
        self._ready.set()
        if on_ready is not None and self.error is None:
            on_ready(self.seconds or 0.0)

    def ready(self) -> bool:
        """Whether the warm-up is over (and succeeded)."""
        return self._ready.is_set() and self.error is None

    def wait(self, timeout: float | None = None) -> bool:
        """Wait up to ``timeout`` seconds for the warm-up; whether the bot is ready."""
        self._ready.wait(timeout)
        return self.ready()

    def warm_up(self, game: Game[Any]) -> None:
        """Wait for the warm-up that started with this object."""
        self._ready.wait()

    def reset(self, game: Game[Any], seat: Player, seed: int) -> None:
        """Reset the bot now if it is ready, else as soon as it is (before its first real move)."""
        self._rng = random.Random(seed)
        with self._lock:
            self._pending = (game, seat, seed)
        if self._ready.is_set():
            self._apply_reset()

    def _apply_reset(self) -> None:
        with self._lock:
            pending, self._pending = self._pending, None
        if pending is not None:
            self.bot.reset(*pending)

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        """The bot's move once it is ready; a cheap legal action before."""
        if not self.ready():
            self.cheap_moves += 1
            return Decision(cheap_action(state, self._rng), {"warming_up": True})
        self._apply_reset()
        return self.bot.act(state, clock)

    def end(self, outcome: Outcome) -> None:
        """Pass the result on to a bot that wants it."""
        if isinstance(self.bot, WantsResult):
            self.bot.end(outcome)

    def close(self) -> None:
        """Release what the bot holds."""
        if isinstance(self.bot, Closes):
            self.bot.close()
