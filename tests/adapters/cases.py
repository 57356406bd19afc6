"""The game each adapter test plays for every registered game, and a playout through our own API.

A registered game missing from ``SPECS`` is played with its default spec, so a new game is tested by
every adapter test (and fails without a view) the moment it is registered.
"""

from __future__ import annotations

import random
from typing import Any

from gridarena.adapters.views import View
from gridarena.core.registry import available_games
from gridarena.core.types import GameState

#: Small or fast variants of the games (the defaults where they are fast enough).
SPECS = {
    "iceandfire": "iceandfire",
    "isolation": "isolation(width=5,height=5)",
    "pentocity": "pentocity(sequencer=g6)",
    "reversixt": "reversixt",
    "slidingpuzzle": "slidingpuzzle(rows=3,cols=3,scramble=20,max_moves=30)",
}

GAMES = available_games()

#: Games whose random games through OpenSpiel's checker are too slow to play 20 times in every run
#: (about 6 s each: random placements lay long roads); the slow suite plays all 20.
SLOW_GAMES = {"pentocity"}

SEEDS = range(20)


def spec_of(name: str) -> str:
    """The spec the tests play for the registered game ``name``."""
    return SPECS.get(name, name)


def playout(view: View, state: GameState[Any], seed: int) -> list[tuple[GameState[Any], Any]]:
    """A seeded random playout through our own API: (state, action) pairs, the final state last with None.

    Each action is ``random_action``'s, as the view's steps play it (an Ice and Fire turn cut after a
    command that ends the game: the referee never reads the rest).
    """
    rng = random.Random(seed)
    steps: list[tuple[GameState[Any], Any]] = []
    while not state.is_terminal():
        action = view.played_action(view.start(state), state.random_action(rng))
        steps.append((state, action))
        state = state.apply_action(action)
    steps.append((state, None))
    return steps
