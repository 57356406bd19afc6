"""The sliding puzzle's analyser: every distance and every wasted slide against breadth-first search on 3x3."""

from __future__ import annotations

import random

from sp_oracles import distances as bfs

from gridarena import make
from gridarena.arena.analysis import analyze_positions


def test_puzzle_distances_and_waste_agree_with_bfs_on_3x3() -> None:
    game = make("slidingpuzzle(rows=3,cols=3,scramble=30)")
    distances = bfs(game.goal)  # type: ignore[attr-defined]
    assert len(distances) == 181_440
    rng = random.Random(4)
    for seed in range(4):
        state = game.new_initial_state(seed)
        states, actions = [state], []
        for _ in range(12):
            if state.is_terminal():
                break
            action = rng.choice(state.legal_actions())
            state = state.apply_action(action)
            states.append(state)
            actions.append(action)
        analysis = analyze_positions(game, states, actions, ["me"], seconds=5.0)
        for p in analysis.plies:
            before, after = distances[states[p.ply].board], distances[states[p.ply + 1].board]
            assert (p.before.value, p.after.value) == (before, after)
            assert (p.mark == "wasted") == (after >= before)
        waste = analysis.players()["me"]["loss"]
        assert waste == len(analysis.plies) - (distances[states[0].board] - distances[states[-1].board])
