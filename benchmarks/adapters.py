"""What the reinforcement-learning adapters cost over our own API, game by game.

The same seeded random playouts (``random_action`` of our own API) are played five ways, alternately
in this process, and timed (CPU time of this process, medians over repeats):

* **api**: our own step, ``action = state.random_action(rng)`` (the legal actions and a choice among
  them) and ``state = state.apply_action(action)``;
* **view**: the learner's view, per step its mask, the mover's planes and ``apply`` of the step;
* **pettingzoo**: ``env.last()`` (planes and mask) and ``env.step(index)`` (games of two or more players);
* **gymnasium**: ``env.step(index)`` with its planes, mask and reward, the other seats replaying the
  playout through the environment's own opponent loop;
* **openspiel**: ``state.legal_actions()`` and ``state.apply_action(index)`` (OpenSpiel's own loop, as
  in its MCTS and random simulations: observation tensors are asked for separately).

The playouts are turned into the adapters' steps before the clock starts. A game's plies are the same
in every column; a step is one action index, so Ice and Fire takes one step per command and one per
``END`` against our one per turn. The table shows microseconds per ply and the ratio to ``api`` (the
adapter's cost: the target is at most 2x per step), and steps per second.

Run: .venv/bin/python benchmarks/adapters.py [--quick]   (under /work/bin/onecore for figures)
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from gridarena.adapters.gymnasium import GridArenaEnv
from gridarena.adapters.openspiel import load
from gridarena.adapters.pettingzoo import raw_env
from gridarena.adapters.views import View, make_view
from gridarena.core.bot import BaseBot, Decision
from gridarena.core.clock import TimeControl
from gridarena.core.registry import make
from gridarena.core.types import CHANCE, GameState

GAMES = (
    "isolation",
    "isolation(width=5,height=5)",
    "reversixt",
    "reversixt(map=othello8)",
    "iceandfire",
    "pentocity(sequencer=g6)",
    "slidingpuzzle(rows=3,cols=3,scramble=40,max_moves=200)",
)

Playout = list[tuple[GameState[Any], Any, list[int]]]
SEED = 7
#: Random games per measurement: enough plies that a repeat lasts a good part of a second.
PLAYOUTS = {"iceandfire": 2, "pentocity(sequencer=g6)": 3}


def playout(view: View, state: GameState[Any], seed: int) -> Playout:
    """(state, action, the adapter's indices) per ply of a seeded random game."""
    rng = random.Random(seed)
    plies: Playout = []
    while not state.is_terminal():
        pos = view.start(state)
        action = view.played_action(pos, state.random_action(rng))
        if state.current_player() == CHANCE:
            indices = [next(i for i, (o, _) in enumerate(state.chance_outcomes()) if o == action)]
        else:
            indices = view.steps_of(pos, action)
        plies.append((state, action, indices))
        state = state.apply_action(action)
    return plies


def run_api(games: list[Playout]) -> None:
    for seed, plies in enumerate(games):
        rng = random.Random(SEED + seed)
        state = plies[0][0]
        for _ in plies:
            state = state.apply_action(state.random_action(rng))


def run_view(view: View, games: list[Playout]) -> None:
    for plies in games:
        pos = view.start(plies[0][0])
        for _, _, indices in plies:
            for index in indices:
                player = view.current_player(pos)
                view.mask(pos)
                if player >= 0:
                    view.observation(pos, player)
                pos = view.apply(pos, index)


def run_pettingzoo(env: Any, games: list[Playout]) -> None:
    for plies in games:
        env.reset(seed=1)
        for _, _, indices in plies:
            for index in indices:
                env.last()
                env.step(index)


class Queue(BaseBot):
    """Plays the playout's actions of the other seats, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.actions: list[Any] = []

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        return Decision(self.actions.pop(0))


def run_gymnasium(env: GridArenaEnv, queue: Queue, games: list[Playout]) -> None:
    for plies in games:
        queue.actions = [a for s, a, _ in plies if s.current_player() not in (0, CHANCE)]
        env.reset(seed=1)
        for state, _, indices in plies:
            if state.current_player() == 0:
                for index in indices:
                    env.step(index)


def run_openspiel(spiel: Any, games: list[Playout]) -> None:
    for plies in games:
        state = spiel.new_initial_state()
        for _, _, indices in plies:
            for index in indices:
                if state.current_player() >= 0:
                    state.legal_actions()
                state.apply_action(index)


def timed(function: Callable[[], None]) -> float:
    start = time.process_time()
    function()
    return time.process_time() - start


def measure(spec: str, repeats: int, playouts: int) -> dict[str, Any]:
    game = make(spec)
    view = make_view(game)
    columns: dict[str, Callable[[], None]] = {}
    pz = raw_env(spec) if game.num_players > 1 else None
    if pz is not None:
        pz.reset(seed=1)
    start = pz.state if pz is not None else game.new_initial_state(1)
    games = [playout(view, start, SEED + seed) for seed in range(playouts)]
    columns["api"] = lambda: run_api(games)
    columns["view"] = lambda: run_view(view, games)
    if pz is not None:
        columns["pettingzoo"] = lambda: run_pettingzoo(pz, games)
    queue = Queue()
    env = GridArenaEnv(spec, opponent=[queue] * (game.num_players - 1), seat=0)
    env.reset(seed=1)
    if env.state == start:  # the environment's seed 1 starts where the playouts do
        columns["gymnasium"] = lambda: run_gymnasium(env, queue, games)
    spiel = load(game, seed=1)
    if spiel.new_initial_state().gridarena_state == start:
        columns["openspiel"] = lambda: run_openspiel(spiel, games)
    times: dict[str, list[float]] = {name: [] for name in columns}
    for _ in range(repeats):
        for name, function in columns.items():
            times[name].append(timed(function))
    return {
        "game": spec,
        "plies": sum(len(plies) for plies in games),
        "steps": sum(len(indices) for plies in games for _, _, indices in plies),
        "median": {name: statistics.median(values) for name, values in times.items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="one repeat, the small games only")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    games = GAMES[:4] if args.quick else GAMES
    repeats = 1 if args.quick else args.repeats
    print(f"load before: {os.getloadavg()[0]:.2f}; CPU time of this process, medians of {repeats}")
    names = ("api", "view", "pettingzoo", "gymnasium", "openspiel")
    print(
        f"| game | plies | steps | {' | '.join(f'{n} us/ply' for n in names)} | worst ratio | api ply/s | view step/s |"
    )
    print("| --- | ---: | ---: |" + " ---: |" * (len(names) + 3))
    for spec in games:
        result = measure(spec, repeats, PLAYOUTS.get(spec, 3 if args.quick else 200))
        median, plies = result["median"], result["plies"]
        cells, ratios = [], []
        for name in names:
            if name not in median:
                cells.append("-")
                continue
            cells.append(f"{median[name] / plies * 1e6:.0f}")
            if name != "api":
                cells[-1] += f" ({median[name] / median['api']:.2f}x)"
                ratios.append(median[name] / median["api"])
        api_rate = plies / median["api"]
        view_rate = result["steps"] / median["view"]
        print(
            f"| {spec} | {plies} | {result['steps']} | {' | '.join(cells)} | {max(ratios):.2f}x "
            f"| {api_rate:,.0f} | {view_rate:,.0f} |"
        )
    print(f"load after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
