"""Golden playthroughs: after every ply, the board, the player to move, the legal actions and the returns.

A quiet change to rules or rendering shows up as a diff here; ``pytest --update-golden`` rewrites
the files when a change is intended, and the diff is reviewed like code.
"""

from __future__ import annotations

import difflib
import random
from pathlib import Path

import pytest

from gridarena.core.registry import make
from gridarena.core.seeding import derive_seed

GOLDEN = Path(__file__).parent / "golden"
CASES = {"isolation-seed7": ("isolation", 7), "isolation-5x4-seed3": ("isolation(width=5,height=4)", 3)}


def playthrough(spec: str, seed: int) -> str:
    """The transcript of one seeded random game."""
    game = make(spec)
    rng = random.Random(derive_seed("golden", seed))
    state = game.new_initial_state(seed)
    lines = [f"# {spec}, seed {seed}: random playthrough", ""]
    for ply in range(100_000):
        lines.append(f"ply {ply}")
        lines.append(state.to_text())
        actions = [] if state.is_terminal() else [state.action_to_string(a) for a in state.legal_actions()]
        lines.append(f"current_player: {state.current_player()}")
        lines.append(f"legal: {' '.join(actions)}")
        lines.append(f"returns: {list(state.returns())}")
        lines.append("")
        if state.is_terminal():
            return "\n".join(lines)
        action = state.random_action(rng)
        lines.append(f"play: {state.action_to_string(action)}")
        state = state.apply_action(action)
    raise AssertionError(f"{spec}: no end after 100000 plies")


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough(name: str, update_golden: bool) -> None:
    path = GOLDEN / f"{name}.txt"
    text = playthrough(*CASES[name])
    if update_golden or not path.exists():
        path.write_text(text)
        if not update_golden:
            pytest.fail(f"{path} did not exist and was written; review and commit it")
        return
    expected = path.read_text()
    if text != expected:
        diff = "".join(
            difflib.unified_diff(expected.splitlines(True), text.splitlines(True), "golden", "now", n=2)
        )
        pytest.fail(f"{path} differs (run pytest --update-golden if intended):\n{diff[:4000]}")
