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

from gridarena.adapters import openspiel  # noqa: E402
from gridarena.adapters.gymnasium import GridArenaEnv  # noqa: E402
from gridarena.adapters.pettingzoo import raw_env  # noqa: E402

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
        for i in indices[:: max(1, len(indices) // 10)]:
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


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_walks_our_playout(name: str) -> None:
    spec = spec_of(name)
    if make(spec).num_players < 2:
        pytest.skip(f"{name} has one player: its adapter is Gymnasium's")
    env = raw_env(spec)
    env.reset(seed=5)
    view = env.view
    steps = playout(view, env.state, 5)
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
    assert all(env.terminations.values())
    assert [totals[a] for a in env.possible_agents] == list(steps[-1][0].returns())


class Replay(BaseBot):
    """Plays the playout's action for the state it is shown."""

    def __init__(self, actions: dict[int, Any]) -> None:
        super().__init__()
        self.actions = actions

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        return Decision(self.actions[id(state)])


@pytest.mark.parametrize("name", GAMES)
def test_gymnasium_walks_our_playout(name: str) -> None:
    spec = spec_of(name)
    players = make(spec).num_players
    probe = GridArenaEnv(spec, opponent="random")
    probe.reset(seed=9)
    view = probe.view
    steps = playout(view, probe.state, 9)
    # The opponents replay the playout: the states they are shown are the playout's own objects?
    # No: the environment makes its own states, so the replay is keyed by equal states instead.
    by_state = {_key(s): a for s, a in steps[:-1]}

    class ByState(BaseBot):
        def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
            return Decision(by_state[_key(state)])

    env = GridArenaEnv(spec, opponent=[ByState() for _ in range(players - 1)])
    observation, info = env.reset(seed=9)
    total = 0.0
    for state, action in steps[:-1]:
        if env.state != state:  # a state the opponents or chance played through
            continue
        assert view.current_player(env.position) == 0
        for index in index_of(view, env.position, action):
            assert_mask_is_legal(view, env.position, info["action_mask"])
            assert (env.action_masks() == info["action_mask"].astype(bool)).all()
            observation, reward, terminated, truncated, info = env.step(index)
            total += float(reward)
    assert env.state == steps[-1][0] and terminated and not truncated
    assert total == steps[-1][0].returns()[0]


def _key(state: GameState[Any]) -> str:
    import json

    return json.dumps(state.to_json(), sort_keys=True)


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_walks_our_playout(name: str) -> None:
    game = make(spec_of(name))
    spiel = openspiel.load(game, seed=11)
    spiel_state = spiel.new_initial_state()
    view = spiel.view
    steps = playout(view, spiel_state.gridarena_state, 11)
    for state, action in steps[:-1]:
        assert spiel_state.gridarena_state == state
        for index in index_of(view, spiel_state.position, action):
            if not spiel_state.is_chance_node():
                assert spiel_state.legal_actions() == view.legal(spiel_state.position)
            spiel_state.apply_action(index)
    assert spiel_state.gridarena_state == steps[-1][0] and spiel_state.is_terminal()
    assert spiel_state.returns() == list(steps[-1][0].returns())
