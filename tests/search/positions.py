"""Seeded random positions of small Isolation boards, and evaluations to search them with."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from gridarena.core.types import Player
from gridarena.games.isolation.rules import Isolation, State

SHAPES = [(4, 4), (5, 4), (4, 5), (5, 5), (3, 4)]


def random_position(rng: random.Random, min_plies: int = 2, max_plies: int = 10) -> State:
    """A non-terminal position after a few random plies on a random small board."""
    width, height = rng.choice(SHAPES)
    state = Isolation(width, height).new_initial_state()
    for _ in range(rng.randint(min_plies, max_plies)):
        child = state.child(rng.choice(state.legal_actions()))
        if child.is_terminal():
            break
        state = child
    return state


def random_positions(count: int, seed: int, max_depth: int = 5) -> Iterator[tuple[State, int]]:
    """``count`` (position, depth) pairs; depth 1..max_depth, smaller while pieces are being placed."""
    rng = random.Random(seed)
    for _ in range(count):
        state = random_position(rng)
        yield state, rng.randint(1, max_depth if None not in state.locs else 2)


def mobility(state: Any, player: Player) -> float:
    """AIND's improved score: own moves minus the opponent's (many ties, which tests tie handling)."""
    return float(len(state.moves_of(player)) - len(state.moves_of(1 - player)))


def scrambled_value(state: Any, player: Player) -> float:
    """A deterministic pseudo-random evaluation (few ties), zero-sum between the two players."""
    first, second = (-1 if loc is None else loc for loc in state.locs)
    value = (state.blocked * 2654435761 + first * 97 + second * 7919) % 1009 - 504
    return float(value if player == 0 else -value)
