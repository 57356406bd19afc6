"""How many moves an analyser marks from noise, and how many its errors keep unmarked (issue 32).

A move is marked (blunder, mistake, inaccuracy) from the drop of its value; where the values are
estimates (Ice and Fire's playouts), part of a drop is noise, and an analyser reports how far an
estimate may be off (``Evaluation.error``): a drop counts only beyond the two values' errors
(``core/analysis.py``). Games between two equal players are played (Ice and Fire: ``best`` against
itself at four times CodinGame's clock, so that a busy machine ends no game on time; the first 60
plies of each game: the openings, where issue 32 saw blunders marked from noise), each is analysed
at the given seconds per position, and the table gives the moves analysed, the median error and the
moves marked by: the analyser as it was before issue 32 (one playout from the position itself, no
error: the baseline, in the same run), today's with its errors ignored, and today's.

Run: .venv/bin/python benchmarks/analysis_noise.py [--games 4] [--plies 60] [--seconds 0.25,1.0]
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import statistics
import time
from dataclasses import replace
from typing import Any

from gridarena import make, make_bot, play_game
from gridarena.arena.analysis import analyze_positions
from gridarena.core.analysis import Evaluation, mark
from gridarena.core.clock import TimeControl
from gridarena.core.gameclock import game_clock
from gridarena.core.types import TERMINAL, GameState
from gridarena.games.iceandfire.analysis import ESTIMATE_SCALE, MOVE_SECONDS, PLAYOUT_WIN
from gridarena.games.iceandfire.rules import military_score

SPEC, PLAYERS, CONTROL = "iceandfire", ["best", "best"], "1/0.2"  # CodinGame's 50 ms, x4 for a busy machine
MARKS = ("blunder", "mistake", "inaccuracy")


class BeforeIssue32:
    """Ice and Fire's analyser as it was (commit 6320f3b): one playout of the whole time from the
    position itself, its value for the first player, no error."""

    kind = "result"

    def __init__(self, game: Any, seconds: float) -> None:
        self.game, self.seconds = game, seconds
        self.cache: dict[Any, float] = {}

    def evaluate(self, state: Any, player: int) -> Evaluation:
        if state.current_player() == TERMINAL:
            return Evaluation(state.returns()[player], exact=True)
        if state not in self.cache:
            self.cache[state] = self.playout(state)
        return Evaluation(self.cache[state] if player == 0 else -self.cache[state])

    def playout(self, state: Any) -> float:
        deadline = time.perf_counter() + self.seconds
        bots = [make_bot(self.game, "best", seed=0) for _ in range(2)]
        for seat, bot in enumerate(bots):
            bot.reset(self.game, seat, 0)
        current = state
        while current.current_player() != TERMINAL and time.perf_counter() < deadline:
            clock = TimeControl(deadline=min(deadline, time.perf_counter() + MOVE_SECONDS))
            action = bots[current.current_player()].act(current, clock).action
            current = current.apply_action(
                current.string_to_action(action) if isinstance(action, str) else action
            )
        if current.current_player() == TERMINAL:
            return PLAYOUT_WIN * current.returns()[0]
        return PLAYOUT_WIN * math.tanh(
            (military_score(current, 0) - military_score(current, 1)) / ESTIMATE_SCALE
        )


def games(spec: str, players: list[str], control: str | None, count: int, plies: int) -> list[Any]:
    """``count`` seeded games of at most ``plies`` plies, each as (positions, actions)."""
    game = make(spec)
    played = []
    for seed in range(1, count + 1):
        bots = [make_bot(game, p, seed=seed) for p in players]
        clock = game_clock(control, game.num_players)
        record = play_game(game, bots, seed=seed, names=players, clock=clock, max_plies=plies)
        states: list[GameState[Any]] = [game.new_initial_state(seed)]
        actions = []
        for turn in record.turns:
            actions.append(states[-1].string_to_action(turn.action))
            states.append(states[-1].apply_action(actions[-1]))
        played.append((states, actions))
    return played


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--plies", type=int, default=60, help="analyse the first PLIES plies of each game")
    parser.add_argument("--seconds", default="0.25,1.0")
    args = parser.parse_args()
    print(f"# {platform.python_version()} · load {os.getloadavg()[0]:.2f} · {SPEC}: {' vs '.join(PLAYERS)}")
    played = games(SPEC, PLAYERS, CONTROL, args.games, args.plies)
    print(
        f"{'s/position':>10} {'moves':>6} {'median error':>13} | marked: {'before 32':>9} {'errors ignored':>15} {'today':>6}"
    )
    game = make(SPEC)
    for seconds in (float(s) for s in args.seconds.split(",")):
        moves, errors, before, ignoring, counted = 0, [], 0, 0, 0
        for states, actions in played:
            old = analyze_positions(
                game, states, actions, PLAYERS, seconds, analyser=BeforeIssue32(game, seconds)
            )
            before += sum(p.mark in MARKS for p in old.plies)
            analysis = analyze_positions(game, states, actions, PLAYERS, seconds)
            for p in analysis.plies:
                moves += 1
                errors.append(p.before.error + p.after.error)
                bare = mark(analysis.kind, replace(p.before, error=0.0), replace(p.after, error=0.0))
                ignoring += bare in MARKS
                counted += p.mark in MARKS
        print(
            f"{seconds:>10g} {moves:>6} {statistics.median(errors):>13.3f} | {'':>7} {before:>9} "
            f"{ignoring:>15} {counted:>6}"
        )
    print(f"# load {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
