"""Run one Pentocity game as ``pentos.sim.Simulator`` does: a CPU-time budget, and no crash ever escapes.

The budget (``Pentocity.cpu_time``, Java: 300 s) counts the CPU time of the thread that runs the bot's
``act`` (``time.thread_time``), like Java's ``ThreadMXBean`` on the player thread; the sequencer is not
timed. Before each move a spent budget ends the game (``timeout``); a move that overruns it does not
count. An exception in the bot ends the game as ``crash``, a non-move as ``protocol``, an invalid move
as ``illegal`` with the simulator's message (or a rejection under ``on_invalid="reject"``).

>>> from gridarena.bots.base import RandomBot
>>> record = play_game(Pentocity(sequencer="g6"), RandomBot(), seed=3)
>>> record.termination, record.rejects
('normal', 3)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from gridarena.core.bot import Bot
from gridarena.core.clock import TimeControl
from gridarena.core.errors import IllegalActionError
from gridarena.core.types import CHANCE, JSON
from gridarena.games.pentocity.formats import move_to_text
from gridarena.games.pentocity.land import Move
from gridarena.games.pentocity.rules import Pentocity, PentocityState

#: Java lets a ``play()`` run 1 ms past the budget before it counts as a timeout.
GRACE_SECONDS = 0.001


@dataclass(frozen=True, slots=True)
class GameRecord:
    """What one game produced: the result, the tallies and the moves as text."""

    seed: int
    score: int
    returns: tuple[float, ...]
    termination: str
    reason: str
    requests: int
    accepted: int
    rejects: int
    cpu_seconds: float
    moves: tuple[str, ...] = field(default=(), repr=False)

    def to_json(self) -> dict[str, JSON]:
        """The record as a JSON object."""
        return {
            "seed": self.seed,
            "score": self.score,
            "returns": list(self.returns),
            "termination": self.termination,
            "reason": self.reason,
            "requests": self.requests,
            "accepted": self.accepted,
            "rejects": self.rejects,
            "cpu_seconds": self.cpu_seconds,
            "moves": list(self.moves),
        }


def _bot_turn(
    state: PentocityState, bot: Bot, budget: float | None, used: float, clock: Callable[[], float]
) -> tuple[PentocityState, float, str | None]:
    """Ask ``bot`` for one move and apply it; returns the new state, the CPU time used and the move text."""
    if budget is not None and used >= budget:
        return state.forfeit(0, "timeout", f"CPU budget of {budget:g} s used up"), used, None
    left = None if budget is None else budget - used
    control = TimeControl.for_seconds(left)
    start = clock()
    try:
        decision = bot.act(state, control)
    except Exception as err:  # a player's bug ends its game, never the tournament
        return state.forfeit(0, "crash", f"{type(err).__name__}: {err}"), used + clock() - start, None
    used += clock() - start
    if budget is not None and used > budget + GRACE_SECONDS:
        return state.forfeit(0, "timeout", f"CPU budget of {budget:g} s used up during a move"), used, None
    move = decision.action
    if not isinstance(move, Move):
        return state.forfeit(0, "protocol", f"expected a Move, got {move!r}"), used, None
    try:
        return state.apply_action(move), used, move_to_text(move)
    except IllegalActionError as err:
        reason = str(err).removeprefix("pentocity: ")
        return state.forfeit(0, "illegal", reason), used, move_to_text(move)


def play_game(
    game: Pentocity,
    bot: Bot,
    seed: int,
    bot_seed: int | None = None,
    clock: Callable[[], float] = time.thread_time,
) -> GameRecord:
    """Play one game of ``game`` with the sequencer seeded ``seed``; never raises for a bot's misdeeds."""
    state = game.new_initial_state(seed)
    bot.reset(game, 0, seed if bot_seed is None else bot_seed)
    used, moves = 0.0, []
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state = state.apply_action(state.chance_outcomes()[0][0])
            continue
        state, used, text = _bot_turn(state, bot, game.cpu_time, used, clock)
        if text is not None:
            moves.append(text)
    outcome = state.outcome()
    assert outcome is not None
    return GameRecord(
        seed=seed,
        score=state.score,
        returns=outcome.returns,
        termination=outcome.termination,
        reason=outcome.reason,
        requests=state.requests,
        accepted=state.accepted,
        rejects=state.rejects,
        cpu_seconds=used,
        moves=tuple(moves),
    )
