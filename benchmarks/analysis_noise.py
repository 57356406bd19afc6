"""How far an analyser's estimates wander, and whether its errors keep noise from marking moves (issue 32).

A move is marked (blunder, mistake, ...) from the change of its value; where the values are estimates
(Ice and Fire's playouts, Isolation's unproven searches), part of that change is noise. For each game,
seeded games between two bots are played (Ice and Fire: ``best`` against itself at CodinGame's
clock, the first 60 plies: the openings) and every k-th position where a player is to move is judged
by fresh analysers: as it is (*before*), once more (*repeat*), and after the analyser's own move
there (*after*, for the same player). The analyser's own move should cost nothing, so every mark it
earns is noise. The table gives, over the positions whose values are estimates, the median, 90th
percentile and largest ``|before - repeat|`` and ``|before - after|``, the median ``error`` the
analyser reported, and how many of its own moves would be marked with the errors ignored (the
baseline, in the same run) and with them counted (``core/analysis.py``: a drop counts only beyond
the two values' errors).

Run: .venv/bin/python benchmarks/analysis_noise.py [--game iceandfire] [--games 3] [--every 3] [--plies 60]
     [--seconds 0.15,1.0]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
from dataclasses import dataclass, field, replace
from typing import Any

from gridarena import make, make_bot, play_game
from gridarena.core.analysis import mark
from gridarena.core.gameclock import game_clock
from gridarena.core.registry import make_analyser
from gridarena.core.types import CHANCE, TERMINAL, GameState

#: The game, its players, and the time control of the games whose positions are judged.
GAMES = {
    "iceandfire": ("iceandfire", ["best", "best"], "1/0.05"),
    "isolation": ("isolation", ["greedy", "random"], None),
}


def positions(
    spec: str, players: list[str], control: str | None, games: int, every: int, plies: int
) -> list[GameState[Any]]:
    """Every ``every``-th position of the first ``plies``, where a player is to move, of ``games`` seeded games."""
    game = make(spec)
    found: list[GameState[Any]] = []
    for seed in range(1, games + 1):
        bots = [make_bot(game, p, seed=seed) for p in players]
        clock = game_clock(control, game.num_players)
        record = play_game(game, bots, seed=seed, names=players, clock=clock, max_plies=plies)
        state = game.new_initial_state(seed)
        for n, turn in enumerate(record.turns):
            if n % every == 0 and state.current_player() not in (CHANCE, TERMINAL):
                found.append(state)
            state = state.apply_action(state.string_to_action(turn.action))
    return found


@dataclass
class Judged:
    """What the analysers said about the sampled positions, at one time per position."""

    repeat: list[float] = field(default_factory=list)
    own: list[float] = field(default_factory=list)
    errors: list[float] = field(default_factory=list)
    marked_ignoring_errors: int = 0
    marked: int = 0


def judge(spec: str, states: list[GameState[Any]], seconds: float) -> Judged:
    """Each estimate judged as it is, once more, and after the analyser's own move."""
    game = make(spec)
    found = Judged()
    for state in states:
        mover = state.current_player()
        before = make_analyser(game, seconds).evaluate(state, mover)
        again = make_analyser(game, seconds).evaluate(state, mover)
        if before is None or again is None or before.exact or before.best is None:
            continue
        moved = state.apply_action(state.string_to_action(before.best))
        after = make_analyser(game, seconds).evaluate(moved, mover)
        if after is None:
            continue
        found.repeat.append(abs(before.value - again.value))
        found.own.append(abs(before.value - after.value))
        found.errors.append(before.error)
        found.marked_ignoring_errors += (
            mark("result", replace(before, error=0.0), replace(after, error=0.0)) is not None
        )
        found.marked += mark("result", before, after) is not None
    return found


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def p90(values: list[float]) -> float:
    return sorted(values)[min(len(values) - 1, int(0.9 * len(values)))] if values else float("nan")


def top(values: list[float]) -> float:
    return max(values) if values else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", default="iceandfire", choices=sorted(GAMES))
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--every", type=int, default=3)
    parser.add_argument("--plies", type=int, default=60, help="judge positions of the first PLIES plies")
    parser.add_argument("--seconds", default="0.15,1.0")
    args = parser.parse_args()
    spec, players, control = GAMES[args.game]
    print(
        f"# {platform.python_version()} · load {os.getloadavg()[0]:.2f} · {args.game}: {' vs '.join(players)}"
    )
    states = positions(spec, players, control, args.games, args.every, args.plies)
    print(
        f"{'s/position':>10} {'n':>4} | {'repeat: median':>14} {'p90':>5} {'max':>5} | {'own move: median':>16} "
        f"{'p90':>5} {'max':>5} | {'error':>5} | own moves marked: {'errors ignored':>14} {'counted':>8}"
    )
    for seconds in (float(s) for s in args.seconds.split(",")):
        j = judge(spec, states, seconds)
        n = len(j.own)
        print(
            f"{seconds:>10g} {n:>4} | {median(j.repeat):>14.3f} {p90(j.repeat):>5.2f} {top(j.repeat):>5.2f} | "
            f"{median(j.own):>16.3f} {p90(j.own):>5.2f} {top(j.own):>5.2f} | {median(j.errors):>5.2f} | "
            f"{'':>17} {j.marked_ignoring_errors:>9} / {n:<3} {j.marked:>3} / {n:<3}"
        )
    print(f"# load {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
