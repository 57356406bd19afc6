"""The adapters are views: the same seeded random playout through each of them and through our own API
reaches the same states, the masks are the legal actions, and the rewards add up to the game's returns.

The playout is drawn with our own API (``random_action``); each action is turned into the view's steps
and given to the view itself, a PettingZoo environment, a Gymnasium environment (the other seats
replay the playout) and an OpenSpiel state.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from gridarena.adapters.views import Position, View, make_view
from gridarena.core.bot import BaseBot, Decision
from gridarena.core.clock import TimeControl
from gridarena.core.registry import make
from gridarena.core.types import CHANCE, GameState

from .cases import GAMES, playout, spec_of

pytest.importorskip("pettingzoo", reason="the rl extra is not installed")
pytest.importorskip("pyspiel", reason="the rl extra is not installed")

from gridarena.adapters import openspiel
from gridarena.adapters.gymnasium import GridArenaEnv
from gridarena.adapters.pettingzoo import raw_env

SEEDS = (3,)


def index_of(view: View, pos: Position, action: Any) -> list[int]:
    """The steps of a playout's action: a chance outcome's place, else the view's steps."""
    state = pos.now
    if state.current_player() == CHANCE:
        return [next(i for i, (o, _) in enumerate(state.chance_outcomes()) if o == action)]
    return view.steps_of(pos, action)


def assert_mask_is_legal(view: View, pos: Position, mask: np.ndarray) -> None:
    """Set bits decode to exactly the legal actions (enumerable games), and to legal moves elsewhere."""
    state = pos.now
    indices = [int(i) for i in np.flatnonzero(mask)]
    if state.current_player() == CHANCE or state.is_terminal():
        assert not indices  # chance is dealt by the environments, never masked
        return
    assert indices == view.legal(pos)
    if state.game.enumerable_actions:
        assert sorted(view.decode(state, i) for i in indices) == sorted(state.legal_actions())
    elif pos.steps == ():  # a whole game action from the turn's first position: our API accepts it
        for i in indices[:: max(1, len(indices) // 3)]:
            action = view.game_action(pos, i)
            if action is not None:
                assert state.illegal_reason(action) is None, view.index_text(pos, i)


@pytest.mark.parametrize("name", GAMES)
def test_the_view_walks_our_playout(name: str) -> None:
    view = make_view(spec_of(name))
    for seed in SEEDS:
        steps = playout(view, view.game.new_initial_state(seed), seed)
        pos = view.start(steps[0][0])
        for state, action in steps[:-1]:
            assert view.game_state(pos) == state
            for index in index_of(view, pos, action):
                assert_mask_is_legal(view, pos, view.mask(pos))
                pos = view.apply(pos, index)
        final = steps[-1][0]
        assert view.game_state(pos) == final and view.is_terminal(pos)
        assert [view.score(pos, p) for p in range(view.game.num_players)] == list(final.returns())


#: Plies of Ice and Fire's playout the libraries walk in the fast suite (a whole game: ``-m slow``;
#: the view itself walks whole games in every run).
SHORT = 30


def library_cases() -> list[Any]:
    """Every game in full, except Ice and Fire, whose whole games through the libraries are slow."""
    cases: list[Any] = [pytest.param(name, None, id=name) for name in GAMES if name != "iceandfire"]
    cases.append(pytest.param("iceandfire", SHORT, id="iceandfire-short"))
    cases.append(pytest.param("iceandfire", None, id="iceandfire-whole", marks=pytest.mark.slow))
    return cases


def cut(steps: list[tuple[GameState[Any], Any]], limit: int | None) -> list[tuple[GameState[Any], Any]]:
    """The first ``limit`` plies of a playout, and the state after them."""
    if limit is None or limit >= len(steps) - 1:
        return steps
    return [*steps[:limit], (steps[limit][0], None)]


@pytest.mark.parametrize(("name", "limit"), library_cases())
def test_pettingzoo_walks_our_playout(name: str, limit: int | None) -> None:
    spec = spec_of(name)
    if make(spec).num_players < 2:
        pytest.skip(f"{name} has one player: its adapter is Gymnasium's")
    env = raw_env(spec)
    env.reset(seed=5)
    view = env.view
    steps = cut(playout(view, env.state, 5), limit)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for state, action in steps[:-1]:
        assert env.state == state
        for index in index_of(view, env.position, action):
            agent = env.agent_selection
            assert agent == f"player_{view.current_player(env.position)}"
            assert_mask_is_legal(view, env.position, env.observe(agent)["action_mask"])
            env.step(index)
            for a, r in env.rewards.items():
                totals[a] += r
    assert env.state == steps[-1][0]
    assert all(env.terminations.values()) == steps[-1][0].is_terminal()
    assert [totals[a] for a in env.possible_agents] == list(steps[-1][0].returns())


@pytest.mark.parametrize(("name", "limit"), library_cases())
def test_gymnasium_walks_our_playout(name: str, limit: int | None) -> None:
    spec = spec_of(name)
    players = make(spec).num_players
    probe = GridArenaEnv(spec, opponent="random")
    probe.reset(seed=9)
    view = probe.view
    steps = cut(playout(view, probe.state, 9), limit)
    # The other seats replay the playout, looked up by the state they are shown.
    by_state = {_key(s): a for s, a in steps[:-1]}

    class ByState(BaseBot):
        def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
            return Decision(by_state[_key(state)])

    env = GridArenaEnv(spec, opponent=[ByState() for _ in range(players - 1)])
    _, info = env.reset(seed=9)
    total, terminated, truncated = 0.0, False, False
    for state, action in steps[:-1]:
        if env.state != state:  # a state the opponents or chance played through
            continue
        assert view.current_player(env.position) == 0
        for index in index_of(view, env.position, action):
            assert_mask_is_legal(view, env.position, info["action_mask"])
            assert (env.action_masks() == info["action_mask"].astype(bool)).all()
            _, reward, terminated, truncated, info = env.step(index)
            total += float(reward)
    if limit is None:
        assert env.state == steps[-1][0] and terminated and not truncated
    assert total == steps[-1][0].returns()[0]


def _key(state: GameState[Any]) -> str:
    import json

    return json.dumps(state.to_json(), sort_keys=True)


@pytest.mark.parametrize(("name", "limit"), library_cases())
def test_openspiel_walks_our_playout(name: str, limit: int | None) -> None:
    game = make(spec_of(name))
    spiel = openspiel.load(game, seed=11)
    spiel_state = spiel.new_initial_state()
    view = spiel.view
    steps = cut(playout(view, spiel_state.gridarena_state, 11), limit)
    for state, action in steps[:-1]:
        assert spiel_state.gridarena_state == state
        for index in index_of(view, spiel_state.position, action):
            if not spiel_state.is_chance_node():
                assert spiel_state.legal_actions() == view.legal(spiel_state.position)
            spiel_state.apply_action(index)
    assert spiel_state.gridarena_state == steps[-1][0]
    assert spiel_state.is_terminal() == steps[-1][0].is_terminal()
    assert spiel_state.returns() == list(steps[-1][0].returns())


def test_iceandfire_mask_is_the_referees_verdict_on_every_command() -> None:
    """Every one of the 1,296 commands, on positions at and inside turns: in the mask exactly when the
    referee, given the turn so far and that command, carries it out instead of skipping it."""
    view = make_view("iceandfire")
    steps = playout(view, view.game.new_initial_state(8), 8)
    for state, action in steps[20:80:15]:
        pos = view.start(state)
        for index in view.steps_of(pos, action)[:2]:
            legal = set(view.legal(pos))
            for candidate in range(view.num_actions - 1):
                try:
                    command = view.decode(pos.now, candidate)
                except Exception:  # a MOVE slot without a unit: no command to give
                    assert candidate not in legal
                    continue
                played = state.apply_action((*pos.steps, command))
                skipped = any(line.startswith(f"{command.to_text()}: ignored") for line in played.log)
                assert (candidate in legal) == (not skipped), command.to_text()
            pos = view.apply(pos, index)


def test_pentocity_mask_is_the_rules_verdict() -> None:
    """Sampled placements of a position deep in a game: in the mask exactly when our API accepts them."""
    view = make_view("pentocity(sequencer=g6)")
    steps = playout(view, view.game.new_initial_state(2), 2)
    state = next(s for s, _ in steps[60:] if s.current_player() == 0)
    mask = view.mask(view.start(state))
    rng = np.random.default_rng(0)
    legal, other = np.flatnonzero(mask), np.flatnonzero(mask == 0)
    for index in [*rng.choice(legal, 40), *rng.choice(other, 40)]:
        assert (state.illegal_reason(view.decode(state, int(index))) is None) == bool(mask[index])
