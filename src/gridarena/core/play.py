"""Play one game between bots: the loop every command and the arena share.

The loop owns the bookkeeping a game should not: it samples chance, gives each bot its time
control, measures wall and CPU time, turns a bot's failure into a forfeit with its reason (never
an exception out of the loop), checks legality once, and writes the replay as it goes.
"""

from __future__ import annotations

import os
import random
import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from gridarena.bots.base import Bot, Decision
from gridarena.core.clock import TimeControl
from gridarena.core.errors import GridArenaError
from gridarena.core.seeding import derive_seed
from gridarena.core.types import CHANCE, JSON, Game, GameState, Outcome, Player

#: Extra seconds allowed after the limit before a late answer is a timeout. In-process bots poll
#: their clock, and a loaded machine delays the return; AIND's 10 ms margin proved too small.
DEFAULT_GRACE = 0.05


@dataclass(frozen=True, slots=True)
class Turn:
    """One ply as played: who, what (as text), how long, and the bot's info."""

    ply: int
    player: Player
    action: str
    wall_ms: float
    cpu_ms: float
    info: dict[str, JSON] = field(default_factory=dict)

    def to_json(self, state_text: str | None = None) -> dict[str, JSON]:
        """The replay record of this turn, with the state after it when given."""
        record: dict[str, JSON] = {
            "ply": self.ply,
            "player": self.player,
            "action": self.action,
            "wall_ms": round(self.wall_ms, 3),
            "cpu_ms": round(self.cpu_ms, 3),
        }
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
    bot: Bot, state: GameState[Any], seconds: float | None
) -> tuple[Decision | None, str, float, float]:
    """Ask ``bot`` for a move: (decision or None, failure detail, wall s, cpu s)."""
    clock = TimeControl.for_seconds(seconds)
    wall0, cpu0 = time.perf_counter(), time.thread_time()
    try:
        decision = bot.act(state, clock)
        detail = ""
    except GridArenaError as exc:
        decision, detail = None, str(exc)
    except Exception as exc:  # a bot's bug is a forfeit, never the end of the harness
        decision = None
        detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    return decision, detail, time.perf_counter() - wall0, time.thread_time() - cpu0


def _judge(
    state: GameState[Any],
    decision: Decision | None,
    detail: str,
    wall: float,
    limit: float | None,
    grace: float,
) -> tuple[Any, str | None, str]:
    """(action, termination or None if fine, reason) for a bot's answer."""
    if decision is None:
        return None, "crash", detail
    if limit is not None and wall > limit + grace:
        return None, "timeout", f"answered after {wall * 1000:.0f} ms, limit {limit * 1000:.0f} ms"
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
) -> GameRecord:
    """Play ``bots`` (one per seat) from ``state`` (default: the seed's initial state) to the end.

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
    for seat, bot in enumerate(bots):
        bot.reset(game, seat, derive_seed("bot", seed, names[seat]))
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
            action, wall, cpu, info = state.random_action(chance), 0.0, 0.0, {}
        else:
            decision, detail, wall, cpu = _decide(bots[player], state, time_per_move)
            action, termination, reason = _judge(state, decision, detail, wall, time_per_move, grace)
            if termination is not None:
                state = state.forfeit(player, termination, f"{names[player]}: {reason}")
                continue
            info = decision.info if decision is not None else {}
        turn = Turn(len(turns), player, state.action_to_string(action), wall * 1000, cpu * 1000, dict(info))
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
