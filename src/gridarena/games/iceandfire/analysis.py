"""Ice and Fire's analyser: a win-chance estimate from ``best`` playing both sides on from a position.

``best`` (from the registry) reports no value of its own, so a position is judged by what follows
when ``best`` plays both players from it, a CodinGame turn of at most :data:`MOVE_SECONDS` each,
until the time given runs out or the game ends: a finished playout counts as 0.9 for its winner,
an unfinished one by the referee's military score (gold plus the units' training cost) that
decides a game at the turn limit, squashed below 0.9 and read where red is to move (a turn's start).
Only a finished game is exact. Values are for the first player and negated for the second (the
game is zero-sum).

A playout's first mover has a move more within its horizon, so a position judged as it is looks
better for the player to move; judged so, every move would seem to lose value. As ReversiXT's
analyser does, the player to move is judged by the position after ``best``'s own move: a move's
value before and after are then both of positions with the other player to move. And one playout
is a noisy judge (``best``'s moves depend on its clock; a lead read after a few turns may still
swing from one turn to the next), so each position gets :data:`PLAYOUTS` playouts with different
seeds: its value is the mean of their final estimates, its ``error`` half the spread of those and of
each playout's estimate a turn earlier. A move is marked only for a drop beyond that
(:func:`gridarena.core.analysis.mark`; ``benchmarks/analysis_noise.py`` counts the marks).
"""

from __future__ import annotations

import math
import time
from dataclasses import replace
from typing import Any, Final, NamedTuple

from gridarena.core.analysis import Evaluation, Kind
from gridarena.core.clock import TimeControl
from gridarena.core.registry import make_bot
from gridarena.core.types import TERMINAL, Game, GameState, Player
from gridarena.games.iceandfire.geometry import RED
from gridarena.games.iceandfire.rules import military_score

MOVE_SECONDS: Final = 0.03
"""Each turn of a playout: CodinGame's 50 ms less ``best``'s own margins leaves about this much."""
ESTIMATE_SCALE: Final = 60.0
"""A lead in military score of this much reads as about 0.68."""
PLAYOUT_WIN: Final = 0.9
"""What a playout that ends in a win counts for: a strong estimate, not a proof."""
PLAYOUTS: Final = 2
"""Playouts per position, each with its own seed and an equal share of the time."""


class IceAndFireAnalyser:
    """Values from ``best``-against-``best`` playouts, :data:`PLAYOUTS` per position (for the first player)."""

    kind: Kind = "result"

    def __init__(self, game: Game[Any], seconds: float) -> None:
        self.game, self.seconds = game, seconds
        self._cache: dict[GameState[Any], Evaluation] = {}
        self._children: dict[GameState[Any], tuple[GameState[Any], str]] = {}

    def evaluate(self, state: GameState[Any], player: Player) -> Evaluation | None:
        """``player``'s value of ``state``: its return at the end, else the playouts' estimate. The
        player to move is judged by the position after ``best``'s move there, so that a move's value
        before and after are both of positions with the other player to move (a playout's first
        mover has a move more within its horizon: judged as it is, every move would look like a loss)."""
        if state.current_player() == TERMINAL:
            return _result(state, player)
        if player != state.current_player():
            return _for(player, self._judged(state))
        child, best = self._best_child(state)
        if child.current_player() == TERMINAL:
            return replace(_result(child, player), best=best)
        return replace(_for(player, self._judged(child)), best=best)

    def _best_child(self, state: GameState[Any]) -> tuple[GameState[Any], str]:
        """The position after ``best``'s move (a CodinGame turn's time), and that move as text."""
        if state not in self._children:
            bot = make_bot(self.game, "best", seed=0)
            bot.reset(self.game, state.current_player(), 0)
            action = bot.act(state, TimeControl(deadline=time.perf_counter() + MOVE_SECONDS)).action
            if isinstance(action, str):  # a CodinGame bot answers with its output line
                action = state.string_to_action(action)
            self._children[state] = (state.apply_action(action), state.action_to_string(action))
        return self._children[state]

    def _judged(self, state: GameState[Any]) -> Evaluation:
        """The first player's value of ``state`` from its playouts (kept per position)."""
        if state not in self._cache:
            self._cache[state] = self._playout(state)
        return self._cache[state]

    def _playout(self, state: GameState[Any]) -> Evaluation:
        """The mean of :data:`PLAYOUTS` playouts; its error is half the spread of their values and of
        their estimates one turn earlier (a lead that still swings from turn to turn is no verdict)."""
        share = (
            self.seconds / 2 / PLAYOUTS
        )  # a ply judges two positions: after best's move, after the move played
        playouts = [self._one(state, seed, share) for seed in range(PLAYOUTS)]
        finals = [p.value for p in playouts]
        seen = finals + [p.turn_before for p in playouts if p.turn_before is not None]
        value = sum(finals) / len(finals)
        error = (max(seen) - min(seen)) / 2
        return Evaluation(value, text=f"{value:+.2f}", error=error)

    def _one(self, state: GameState[Any], seed: int, seconds: float) -> Playout:
        """One playout: its value for the first player, and its estimate a turn earlier."""
        deadline = time.perf_counter() + seconds
        bots = [make_bot(self.game, "best", seed=seed) for _ in range(2)]
        for seat, bot in enumerate(bots):
            bot.reset(self.game, seat, seed)
        current, starts = state, []
        # Estimates are taken where red is to move (a turn's start), whatever the start's phase: the
        # military score swings within a turn (a player's gold grows when its turn begins).
        while current.current_player() != TERMINAL and (
            time.perf_counter() < deadline or current.current_player() != RED
        ):
            if current.current_player() == RED and current is not state:
                starts.append(_estimate(current))
            mover = current.current_player()
            clock = TimeControl(deadline=time.perf_counter() + MOVE_SECONDS)  # past the deadline: a ply more
            action = bots[mover].act(current, clock).action
            if isinstance(action, str):  # a CodinGame bot answers with its output line
                action = current.string_to_action(action)
            current = current.apply_action(action)
        if current.current_player() == TERMINAL:
            return Playout(PLAYOUT_WIN * current.returns()[0], None)
        return Playout(_estimate(current), starts[-1] if starts else None)


def _result(state: GameState[Any], player: Player) -> Evaluation:
    """A finished game's value for ``player``: exact."""
    value = state.returns()[player]
    return Evaluation(value, exact=True, text="won" if value > 0 else "lost")


def _for(player: Player, first: Evaluation) -> Evaluation:
    """The first player's estimate as ``player``'s (negated for the second)."""
    value = first.value if player == 0 else -first.value
    return Evaluation(value, text=f"{value:+.2f}", error=first.error)


class Playout(NamedTuple):
    """A playout's value (for the first player), and its estimate at the turn before the last."""

    value: float
    turn_before: float | None


def _estimate(state: GameState[Any]) -> float:
    """The military lead of the first player, squashed below :data:`PLAYOUT_WIN`."""
    lead = military_score(state, 0) - military_score(state, 1)  # type: ignore[arg-type]
    return PLAYOUT_WIN * math.tanh(lead / ESTIMATE_SCALE)


def make_analyser(game: Game[Any], seconds: float) -> IceAndFireAnalyser:
    """Registry entry: Ice and Fire's analyser, playouts of about ``seconds`` per position in all."""
    return IceAndFireAnalyser(game, seconds)
