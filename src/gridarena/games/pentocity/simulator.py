"""Pentocity timed as ``pentos.sim.Simulator`` times it, on the shared game loop.

The Java simulator gives the player a CPU-time budget for the whole game (``Pentocity.cpu_time``,
Java: 300 s) counted on the player's thread (Java's ``ThreadMXBean``; here ``time.thread_time`` of the
bot's call), checks it before every move, and lets a move run 1 ms past it. That is the arena's
``total`` time control on the CPU clock with a 1 ms grace; the loop is
:func:`gridarena.core.play.play_game`, so a crash, a non-move (``protocol``), an invalid move (``illegal``,
with the simulator's message) or a spent budget (``timeout``) ends the game as for every other game.

>>> from gridarena.bots.base import RandomBot
>>> record = play(Pentocity(sequencer="g6"), RandomBot(), seed=3)
>>> record.outcome.termination, record.final_state.rejects
('normal', 3)
"""

from __future__ import annotations

from typing import Final

from gridarena.core.bot import Bot
from gridarena.core.gameclock import GameClock, game_clock
from gridarena.core.play import GameRecord, play_game
from gridarena.games.pentocity.rules import Pentocity

#: Java lets a ``play()`` run 1 ms past the budget before it counts as a timeout.
JAVA_GRACE: Final = 0.001

#: The budget is CPU time of the player's thread.
JAVA_CLOCK: Final = "cpu"


def time_control(game: Pentocity) -> str | None:
    """The game's budget as a ``--time`` value (``total:300``), None without one.

    >>> time_control(Pentocity()), time_control(Pentocity(cpu_time=None))
    ('total:300', None)
    """
    return None if game.cpu_time is None else f"total:{game.cpu_time:g}"


def java_clock(game: Pentocity) -> GameClock:
    """The clock of one game as the Java simulator keeps it."""
    return game_clock(time_control(game), 1, clock=JAVA_CLOCK, grace=JAVA_GRACE)


def play(game: Pentocity, bot: Bot, seed: int, bot_seed: int | None = None) -> GameRecord:
    """One game on the request stream seeded ``seed`` (the player seeded ``bot_seed``, default ``seed``)."""
    seeds = [seed if bot_seed is None else bot_seed]
    return play_game(game, [bot], seed=seed, bot_seeds=seeds, clock=java_clock(game), names=[bot.name])
