"""Positions shared by the Pentocity tests."""

from __future__ import annotations

import random

from gridarena.games.pentocity import Pentocity, PentocityState


def played(seed: int, plies: int, sequencer: str = "random") -> PentocityState:
    """A state ``plies`` random moves into a seeded game (or its end, if that comes first)."""
    rng, state = random.Random(seed), Pentocity(sequencer=sequencer).new_initial_state(seed=seed)
    for _ in range(plies):
        state = state.apply_action(state.random_action(rng))
        if state.is_terminal():
            break
    return state
