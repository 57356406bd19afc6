"""What the reinforcement-learning adapters cost over our own API, game by game.

The same seeded random playouts are played five ways, alternately in this process, and timed (CPU
time of this process, medians over repeats). Each column does, per step, what an agent loop on it
does; the action itself is the playout's (no policy is timed):

* **api**: our own agent loop: ``state.is_terminal()``, ``state.current_player()``, the legal moves
  (``legal_actions()``; a chance node's ``chance_outcomes()``; Pentocity, which cannot list its moves,
  ``random_action(rng)``, which looks at every rotation and corner) and ``state.apply_action(action)``.
  Ice and Fire, whose turn a learner gives command by command: before each command (and before
  ``END``) the legal commands, ``now.valid_commands()``, after each ``now = now.after_commands((command,))``
  (the position inside the turn), and the turn's ``state.apply_action(turn)``;
* **view**: the learner's view, per step ``current_player``, ``mask``, the mover's ``observation``
  (planes) and ``apply``;
* **pettingzoo**: ``env.last()`` (the selected agent's planes and mask) and ``env.step(index)`` on
  ``raw_env`` (games of two or more players);
* **gymnasium**: ``env.step(index)`` (planes, reward, ``info`` with the mask) on ``GridArenaEnv``; the
  other seats are bots that, like the api loop, ask the legal moves and play the playout's action;
* **openspiel**: ``state.legal_actions()`` and ``state.apply_action(index)`` (OpenSpiel's own loop, as
  in its MCTS and random simulations: observation tensors are asked for separately).

Every adapter starts where ``GridArenaEnv``'s ``reset(seed=1)`` does (seat 0 to move, chance dealt).
Only the steps are timed, each game's loop on its own clock: not the start of a game (PettingZoo's
and Gymnasium's ``reset(seed=1)``, which reseeds their generators, are timed apart and printed
below the table), nor the harness's own bookkeeping (movers and actions are listed beforehand).
The playouts are ``random_action``'s, turned into the adapters' steps before the clock starts; the row
marked ``indices`` draws each step uniformly from the view's legal indices instead (Pentocity: most
placements then need g0's shortest road, which the view lays). A game's plies are the same in every
column; a step is one action index, so Ice and Fire takes one step per command and one per ``END``
against one ply per turn. The table shows microseconds per ply and the ratio to ``api`` (the target
is at most 2x), and steps per second. For Ice and Fire it also compares with our whole-turn loop
(``random_action`` and ``apply_action`` a turn, as our bots play), which no command-level agent has.

Run: .venv/bin/python benchmarks/adapters.py [--quick] [--repeats N]   (under /work/bin/onecore for figures)
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gridarena.adapters.gymnasium import GridArenaEnv
from gridarena.adapters.openspiel import load
from gridarena.adapters.pettingzoo import raw_env
from gridarena.adapters.views import View, make_view
from gridarena.core.bot import BaseBot, Decision
from gridarena.core.clock import TimeControl
from gridarena.core.registry import make
from gridarena.core.types import CHANCE, GameState

ROWS = (
    ("isolation", "random"),
    ("isolation(width=5,height=5)", "random"),
    ("reversixt", "random"),
    ("reversixt(map=othello8)", "random"),
    ("iceandfire", "random"),
    ("pentocity(sequencer=g6)", "random"),
    ("pentocity(sequencer=g6)", "indices"),
    ("slidingpuzzle(rows=3,cols=3,scramble=40,max_moves=200)", "random"),
)
"""(game, playout): ``random`` plays ``random_action``, ``indices`` a uniform legal index a step."""

SEED = 7
START_SEED = 1
#: Random games per measurement: enough plies that a repeat lasts a good part of a second.
PLAYOUTS = {"iceandfire": 2, "pentocity(sequencer=g6)": 3}


@dataclass(frozen=True)
class Ply:
    """One ply of a playout: where it starts, the game action, the adapter's indices and, for a turn
    given command by command (Ice and Fire), each step's command (None for ``END``)."""

    state: GameState[Any]
    player: int
    action: Any
    indices: list[int]
    commands: list[Any] | None = None
    nows: list[Any] | None = None
    """The position inside the turn before each step (where ``commands`` is given)."""


Playout = list[Ply]


def playout(view: View, state: GameState[Any], seed: int, draw: str) -> Playout:
    """A seeded random game: ``random_action`` (``draw="random"``) or a uniform legal index a step."""
    rng = random.Random(seed)
    plies: Playout = []
    pos = view.start(state)
    while not view.is_terminal(pos):
        state, pos_player = view.game_state(pos), pos.player
        if draw == "indices":  # one step a ply (the games whose turn takes steps draw ``random``)
            index = rng.choice(view.legal(pos))
            action = state.chance_outcomes()[index][0] if pos.player == CHANCE else view.decode(state, index)
            indices = [index]
        else:
            action = view.played_action(pos, state.random_action(rng))
            if pos.player == CHANCE:
                indices = [next(i for i, (o, _) in enumerate(state.chance_outcomes()) if o == action)]
            else:
                indices = view.steps_of(pos, action)
        commands: list[Any] | None = [] if hasattr(state, "valid_commands") else None  # command by command
        nows = []
        for index in indices:
            if commands is not None:  # the step's command on the position inside the turn (None: END)
                commands.append(view.decode(pos.now, index))
                nows.append(pos.now)
            pos = view.apply(pos, index)
        plies.append(
            Ply(state, pos_player, action, indices, commands, nows if commands is not None else None)
        )
    return plies


def api_step(state: GameState[Any], rng: random.Random, enumerable: bool) -> None:
    """What an agent loop asks our API before a ply: is the game over, who moves, the legal moves
    (``enumerable``: the game's ``enumerable_actions``, read once per game: ``state.game`` may build
    the game object afresh)."""
    if state.is_terminal():
        raise AssertionError("the playout goes on after the end")
    player = state.current_player()
    if player == CHANCE:
        state.chance_outcomes()
    elif enumerable:
        state.legal_actions()
    else:
        state.random_action(rng)


def run_api(games: list[Playout], enumerable: bool) -> float:
    spent = 0.0
    for plies in games:
        rng, state = random.Random(SEED), plies[0].state
        start = time.process_time()
        for ply in plies:
            if ply.commands is None:
                api_step(state, rng, enumerable)
            else:  # our command-level loop: the legal commands before each step, the turn at the end
                if state.is_terminal():
                    raise AssertionError("the playout goes on after the end")
                state.current_player()
                now: Any = state
                for command in ply.commands:
                    now.valid_commands()
                    if command is not None:
                        now = now.after_commands((command,))
            state = state.apply_action(ply.action)
        spent += time.process_time() - start
    return spent


def run_turns(games: list[Playout], enumerable: bool) -> float:
    """Our whole-turn loop (as our bots play): a random turn and ``apply_action`` a ply."""
    spent = 0.0
    for plies in games:
        rng, state = random.Random(SEED), plies[0].state
        start = time.process_time()
        for ply in plies:
            api_step(state, rng, enumerable)
            state = state.apply_action(ply.action)
        spent += time.process_time() - start
    return spent


def run_view(view: View, games: list[Playout]) -> float:
    spent = 0.0
    for plies in games:
        pos = view.start(plies[0].state)
        start = time.process_time()
        for ply in plies:
            for index in ply.indices:
                player = view.current_player(pos)
                view.mask(pos)
                if player >= 0:
                    view.observation(pos, player)
                pos = view.apply(pos, index)
        spent += time.process_time() - start
    return spent


def run_pettingzoo(env: Any, games: list[Playout], resets: list[float]) -> float:
    spent = 0.0
    for plies in games:
        start = time.process_time()
        env.reset(seed=START_SEED)
        middle = time.process_time()
        for ply in plies:
            for index in ply.indices:
                env.last()
                env.step(index)
        spent += time.process_time() - middle
        resets.append(middle - start)
    return spent


class Queue(BaseBot):
    """The other seats: each asks what our whole-turn loop asks (the legal actions; a random turn in
    Ice and Fire, where our bots play whole turns), then plays the playout's action."""

    def __init__(self, enumerable: bool) -> None:
        super().__init__()
        self.actions: list[Any] = []
        self.rng = random.Random(SEED)
        self.enumerable = enumerable

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        api_step(state, self.rng, self.enumerable)
        return Decision(self.actions.pop())


def run_gymnasium(env: GridArenaEnv, queue: Queue, games: list[Playout], resets: list[float]) -> float:
    spent = 0.0
    for plies in games:
        others = [ply.action for ply in reversed(plies) if ply.player not in (0, CHANCE)]
        own = [index for ply in plies if ply.player == 0 for index in ply.indices]
        start = time.process_time()
        queue.actions = others
        env.reset(seed=START_SEED)
        middle = time.process_time()
        for index in own:
            env.step(index)
        spent += time.process_time() - middle
        resets.append(middle - start)
    return spent


def run_openspiel(spiel: Any, start: GameState[Any], games: list[Playout]) -> float:
    spent = 0.0
    for plies in games:
        state = spiel.state_at(start)
        begin = time.process_time()
        for ply in plies:
            for index in ply.indices:
                if state.current_player() >= 0:
                    state.legal_actions()
                state.apply_action(index)
        spent += time.process_time() - begin
    return spent


def turn_parts(view: View, games: list[Playout], repeats: int) -> dict[str, float]:
    """Seconds per step of what a command-level step asks (the legal commands, their indices, the
    position after the command, the planes) and per turn of what our whole-turn loop asks."""
    steps = [
        (now, command, ply.player)
        for plies in games
        for ply in plies
        for now, command in zip(ply.nows or (), ply.commands or (), strict=True)
    ]
    commands = [(now, command) for now, command, _ in steps if command is not None]
    plies = [ply for plies in games for ply in plies]
    parts: dict[str, Callable[[], object]] = {
        "valid_commands": lambda: [now.valid_commands() for now, _, _ in steps],
        "valid_commands and their indices": lambda: [view.legal_indices(now) for now, _, _ in steps],
        "after_commands": lambda: [now.after_commands((command,)) for now, command in commands],
        "planes": lambda: [view.planes(now, player) for now, _, player in steps],
        "random_action": lambda: [ply.state.random_action(random.Random(SEED)) for ply in plies],
        "apply_action": lambda: [ply.state.apply_action(ply.action) for ply in plies],
    }
    counts = {"after_commands": len(commands), "random_action": len(plies), "apply_action": len(plies)}
    out = {}
    for name, function in parts.items():
        times = []
        for _ in range(repeats):
            start = time.process_time()
            function()
            times.append(time.process_time() - start)
        out[name] = statistics.median(times) / counts.get(name, len(steps))
    return out


def measure(spec: str, draw: str, repeats: int, playouts: int) -> dict[str, Any]:
    game = make(spec)
    view = make_view(game)
    # Every adapter starts where the Gymnasium environment's reset(seed=START_SEED) does (seat 0 to
    # move, chance dealt): PettingZoo's reset draws the same game seed, OpenSpiel starts at that state.
    enumerable = game.enumerable_actions
    queue = Queue(enumerable)
    env = GridArenaEnv(spec, opponent=[queue] * (game.num_players - 1), seat=0)
    env.reset(seed=START_SEED)
    start = env.state
    games = [playout(view, start, SEED + seed, draw) for seed in range(playouts)]
    resets: dict[str, list[float]] = {"pettingzoo": [], "gymnasium": []}
    columns: dict[str, Callable[[], float]] = {"api": lambda: run_api(games, enumerable)}
    if any(ply.commands is not None for ply in games[0]):
        columns["turns"] = lambda: run_turns(games, enumerable)
    columns["view"] = lambda: run_view(view, games)
    if game.num_players > 1:
        pz = raw_env(spec)
        pz.reset(seed=START_SEED)
        if pz.state != start:
            raise AssertionError(f"{spec}: PettingZoo's seeded start is not Gymnasium's")
        columns["pettingzoo"] = lambda: run_pettingzoo(pz, games, resets["pettingzoo"])
    columns["gymnasium"] = lambda: run_gymnasium(env, queue, games, resets["gymnasium"])
    spiel = load(game)
    columns["openspiel"] = lambda: run_openspiel(spiel, start, games)
    times: dict[str, list[float]] = {name: [] for name in columns}
    for _ in range(repeats):
        for name, function in columns.items():
            times[name].append(function())
    return {
        "reset": {name: statistics.median(values) for name, values in resets.items() if values},
        "parts": turn_parts(view, games, repeats) if "turns" in columns else None,
        "plies": sum(len(plies) for plies in games),
        "steps": sum(len(ply.indices) for plies in games for ply in plies),
        "median": {name: statistics.median(values) for name, values in times.items()},
    }


ADAPTERS = ("view", "pettingzoo", "gymnasium", "openspiel")


def micro(seconds: float) -> str:
    """Microseconds, one decimal below 100."""
    us = seconds * 1e6
    return f"{us:.1f}" if us < 100 else f"{us:,.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="one repeat, the small games only")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--only", help="the rows whose game spec contains this text")
    args = parser.parse_args()
    rows = [row for row in (ROWS[:4] if args.quick else ROWS) if not args.only or args.only in row[0]]
    repeats = 1 if args.quick else args.repeats
    print(f"load before: {os.getloadavg()[0]:.2f}; CPU time of this process, medians of {repeats}")
    print(f"| game | plies | steps | api | {' | '.join(ADAPTERS)} | worst | api ply/s | view step/s |")
    print("| --- | ---: | ---: | ---: |" + " ---: |" * (len(ADAPTERS) + 3))
    turns, resets = [], []
    for spec, draw in rows:
        result = measure(spec, draw, repeats, PLAYOUTS.get(spec, 3 if args.quick else 200))
        median, plies = result["median"], result["plies"]
        cells, ratios = [], []
        for name in ADAPTERS:
            if name not in median:
                cells.append("-")
                continue
            ratios.append(median[name] / median["api"])
            cells.append(f"{micro(median[name] / plies)} ({ratios[-1]:.2f}x)")
        label = spec if draw == "random" else f"{spec}, {draw}"
        print(
            f"| {label} | {plies:,} | {result['steps']:,} | {micro(median['api'] / plies)} | "
            f"{' | '.join(cells)} | {max(ratios):.2f}x | {plies / median['api']:,.0f} | "
            f"{result['steps'] / median['view']:,.0f} |"
        )
        if "turns" in median:
            turns.append((label, plies, median, result["parts"]))
        resets.append(f"{label}: " + ", ".join(f"{k} {micro(v)} us" for k, v in result["reset"].items()))
    print("reset(seed=1) a game, outside the steps above: " + "; ".join(resets))
    for label, plies, median, parts in turns:
        whole = median["turns"]
        each = ", ".join(f"{name} {median[name] / whole:.1f}x" for name in ADAPTERS if name in median)
        print(
            f"{label}: our whole-turn loop {micro(whole / plies)} us a turn, "
            f"the command-level api {median['api'] / whole:.1f}x that; {each}"
        )
        print(f"{label}, us a step or a turn: " + ", ".join(f"{k} {micro(v)}" for k, v in parts.items()))
    print(f"load after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
