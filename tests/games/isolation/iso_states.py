"""Positions shared by the Isolation tests (imported as a plain module: this folder has no package)."""

from __future__ import annotations

import random

from gridarena.games.isolation.rules import State


def random_state(width: int, height: int, plies: int, seed: int) -> State:
    """A state reached by random legal moves (fewer plies if the game ends first)."""
    rng = random.Random(seed)
    state = State(width, height)
    for _ in range(plies):
        if state.is_terminal():
            break
        state = state.child(rng.choice(state.legal_actions()))
    return state
