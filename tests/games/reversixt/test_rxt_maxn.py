"""Max^n search (``fast/maxn.py``): its value against a plain max^n over the clear rules.

Among children that are equally good for the player to move, max^n may take any; the kernel takes
the first in its move order, which a plain oracle cannot know. So the oracle returns every vector a
node can have under some tie-break (a child's vector v is possible when each other child has a
possible vector no better for the mover than v), and the kernel's value must be the root player's
component of one of them; where no ties occur, that set holds one vector.
"""

from __future__ import annotations

import random

import pytest

from gridarena.games.reversixt.fast.engine import Engine
from gridarena.games.reversixt.fast.evaluate import WIN_STEP
from gridarena.games.reversixt.rules import ReversiState, ReversiXT

Vector = tuple[int, ...]


def trivial_vector(state: ReversiState) -> Vector:
    """Every player's value as the kernels' ai_trivial evaluation gives it (index k - 1 for player k)."""
    p = state.game.num_players
    counts = [state.cells.count(k) for k in range(1, p + 1)]
    if state.is_terminal():
        out = []
        for k in range(p):
            others = [c for j, c in enumerate(counts) if j != k]
            steps = sum(1 for s in others if s < counts[k]) - sum(1 for s in others if s > counts[k])
            out.append(steps * WIN_STEP + counts[k] - max(others))
        return tuple(out)
    return tuple(counts[k] - max(c for j, c in enumerate(counts) if j != k) for k in range(p))


def possible(state: ReversiState, depth: int) -> set[Vector]:
    """The vectors max^n can give ``state`` to ``depth`` plies under any tie-break."""
    if state.is_terminal() or depth == 0:
        return {trivial_vector(state)}
    mover = state.mover - 1
    children = [possible(state.child(a), depth - 1) for a in state.legal_actions()]
    floor = [min(v[mover] for v in c) for c in children]
    out: set[Vector] = set()
    for i, child in enumerate(children):
        others = max((f for j, f in enumerate(floor) if j != i), default=None)
        out |= {v for v in child if others is None or v[mover] >= others}
    return out


def positions(name: str, count: int, seed: int) -> list[ReversiState]:
    """The start and positions after a few random plies, all in phase 1."""
    game, rng = ReversiXT(name), random.Random(seed)
    found = []
    for _ in range(count):
        state = game.new_initial_state()
        for _ in range(rng.randrange(0, 8)):
            if state.is_terminal() or state.phase != 1:
                break
            state = state.child(rng.choice(state.legal_actions()))
        if not state.is_terminal() and state.phase == 1:
            found.append(state)
    return found


@pytest.mark.parametrize("name, depth", [("sampler", 3), ("othello8", 3)])
def test_maxn_value_is_a_max_n_value_of_the_tree(name: str, depth: int) -> None:
    states = positions(name, 6, seed=5)
    assert len(states) >= 4
    single = 0
    for state in states:
        engine = Engine(state.game.board, mode="maxn", evaluation="trivial", eliminate=False)
        result = engine.search(state, max_depth=depth)
        assert result.depth == depth
        expected = possible(state, depth)
        single += len(expected) == 1
        assert result.score in {v[state.mover - 1] for v in expected}
        assert result.move is not None
        assert state.illegal_reason(state.string_to_action(",".join(map(str, result.move)))) is None
    assert single >= 1  # at least one position pins the value down completely


def test_maxn_differs_from_paranoid_where_an_opponent_helps_himself() -> None:
    """With three players paranoid search assumes both opponents minimise R; max^n lets each maximise
    his own value, so from the sampler's start the two give R different values."""
    game = ReversiXT("sampler")
    state = game.new_initial_state()
    maxn = Engine(game.board, mode="maxn", evaluation="trivial").search(state, max_depth=3)
    paranoid = Engine(game.board, mode="paranoid", evaluation="trivial").search(state, max_depth=3)
    assert maxn.score >= paranoid.score
    assert maxn.score != paranoid.score
