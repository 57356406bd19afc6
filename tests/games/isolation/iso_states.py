"""Positions shared by the Isolation tests (imported as a plain module: this folder has no package)."""

from __future__ import annotations

import random

from gridarena.games.isolation.ai import heuristics
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


def minimax_ref(state: State, depth: int, me: int) -> float:
    """Plain minimax over the reference rules with improved_score at the leaves (the oracle)."""
    moves = state.legal_actions()
    if depth == 0 or not moves:
        return heuristics.improved(state, me)
    values = [minimax_ref(state.child(m), depth - 1, me) for m in moves]
    return max(values) if state.ply % 2 == me else min(values)
