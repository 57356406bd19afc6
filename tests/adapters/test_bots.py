"""The ``policy`` and ``openspiel`` bots: they play every game through its view, and bad files are refused."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from gridarena.adapters.policy import PolicyFileError, read_policy, write_policy
from gridarena.adapters.views import make_view
from gridarena.core.clock import TimeControl
from gridarena.core.errors import SpecError
from gridarena.core.play import play_game
from gridarena.core.registry import make, make_bot
from gridarena.core.types import CHANCE

from .cases import GAMES, spec_of


def tiny_policy(spec: str, folder: Path, hidden: int = 8, seed: int = 0) -> Path:
    """A policy of random weights for the game of ``spec``."""
    view = make_view(spec)
    inputs = len(view.plane_names) * view.shape[0] * view.shape[1]
    rng = np.random.default_rng(seed)
    layers = [(rng.normal(size=(inputs, hidden)), rng.normal(size=hidden))]
    layers.append((rng.normal(size=(hidden, view.num_actions)), rng.normal(size=view.num_actions)))
    path = folder / "policy.npz"
    write_policy(path, spec, layers, {"note": "random"})
    return path


@pytest.mark.parametrize("name", GAMES)
def test_a_policy_plays_a_legal_action_in_every_game(name: str, tmp_path: Path) -> None:
    spec = spec_of(name)
    game = make(spec)
    bot = make_bot(game, f"policy(file={tiny_policy(spec, tmp_path)})")
    state = game.new_initial_state(1)
    if state.current_player() == CHANCE:
        state = state.apply_action(state.chance_outcomes()[0][0])
    decision = bot.act(state, TimeControl())
    assert state.illegal_reason(decision.action) is None
    assert 0 < decision.info["p"] <= 1


@pytest.mark.parametrize("spec", ["isolation(width=5,height=5)", "reversixt(map=othello8)"])
def test_a_policy_plays_whole_games_the_same_way_twice(spec: str, tmp_path: Path) -> None:
    game, file = make(spec), tiny_policy(spec, tmp_path)
    records = [
        play_game(
            game, [make_bot(game, f"policy(file={file},temperature=1)"), make_bot(game, "random")], seed=4
        )
        for _ in range(2)
    ]
    assert records[0].outcome.termination == "normal"
    assert records[0].outcome == records[1].outcome and records[0].plies == records[1].plies


def test_bad_policy_files_are_refused_with_one_line(tmp_path: Path) -> None:
    game = make("isolation(width=5,height=5)")
    with pytest.raises(SpecError, match="policy: file is required"):
        make_bot(game, "policy")
    with pytest.raises(PolicyFileError, match="no such policy file"):
        make_bot(game, f"policy(file={tmp_path / 'missing.npz'})")
    garbage = tmp_path / "garbage.npz"
    garbage.write_bytes(b"not a zip archive")
    with pytest.raises(PolicyFileError, match=r"garbage\.npz: not a gridarena policy file"):
        read_policy(garbage)
    other = tiny_policy("isolation(width=4,height=4)", tmp_path)
    with pytest.raises(PolicyFileError, match=r"16 actions; isolation with .* has 75 and 25"):
        make_bot(game, f"policy(file={other})")
    with pytest.raises(PolicyFileError, match="a policy for 'isolation', not for reversixt"):
        make_bot(make("reversixt"), f"policy(file={other})")
    np.savez(tmp_path / "pickled.npz", meta=np.array([{"format": "x"}], dtype=object))
    with pytest.raises(PolicyFileError, match="not a gridarena policy file"):
        read_policy(tmp_path / "pickled.npz")


pyspiel = pytest.importorskip("pyspiel", reason="the rl extra is not installed")


def test_openspiel_mcts_beats_random_at_isolation() -> None:
    game = make("isolation(width=5,height=5)")
    wins = 0
    for seed in range(4):
        bots = [make_bot(game, "openspiel(bot=mcts,simulations=60)"), make_bot(game, "random")]
        seat = seed % 2
        record = play_game(game, bots if seat == 0 else bots[::-1], seed=seed)
        wins += record.outcome.returns[seat] > 0
    assert wins >= 3


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_bots_play_every_game(name: str) -> None:
    game = make(spec_of(name))
    state = game.new_initial_state(2)
    if state.current_player() == CHANCE:
        state = state.apply_action(state.chance_outcomes()[0][0])
    kind = "mcts,simulations=3" if name in ("isolation", "reversixt", "slidingpuzzle") else "random"
    bot = make_bot(game, f"openspiel(bot={kind})")
    bot.reset(game, state.current_player(), 5)
    assert state.illegal_reason(bot.act(state, TimeControl()).action) is None


def test_openspiel_bot_refuses_unknown_kinds() -> None:
    with pytest.raises(SpecError, match=r"bot must be one of \('mcts', 'random'\)"):
        make_bot(make("isolation"), "openspiel(bot=cfr)")
