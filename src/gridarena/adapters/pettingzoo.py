"""PettingZoo AEC environments of the games with two or more players: ``env(spec)`` and ``raw_env(spec)``.

    from gridarena.adapters.pettingzoo import env
    game = env("reversixt(map=sampler)", render_mode="ansi")
    game.reset(seed=7)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        mask = observation["action_mask"]
        action = None if termination or truncation else int(np.flatnonzero(mask)[0])
        game.step(action)

* Agents ``player_0`` ... ``player_{n-1}`` are the game's seats (``player_0`` moves first).
* Observations are dicts ``{"observation": planes, "action_mask": int8}`` (the PettingZoo classic
  convention): the planes of :mod:`gridarena.adapters.views` seen by that agent (its own pieces
  first); the mask is all zeros except for the agent to move.
* ``agent_selection`` is the seat the game says is to move: ReversiXT's skipped players are never
  selected, and in Ice and Fire the same agent stays selected, one command a step, until its ``END``.
* Rewards come at the end: each agent's return. An illegal action is the mover's forfeit
  (termination ``illegal``): in a two-player game it ends the game (-1 for the mover); in ReversiXT
  the player is disqualified, leaves through PettingZoo's dead step with the return of its place
  then (last), and the others play on.
* ``render_mode``: ``"ansi"`` (the state's text) or ``"rgb_array"`` (the planes of ``player_0`` painted).
* ``reset(seed=s)`` draws the game's seed from ``s``, so the same seed gives the same game.
"""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from gridarena.adapters.pictures import RENDER_MODES, planes_picture, render_mode_refused
from gridarena.adapters.views import Position, View, draw, make_view
from gridarena.core.errors import SpecError
from gridarena.core.registry import make
from gridarena.core.types import CHANCE, TERMINAL, GameState

SEED_LIMIT = 2**31


def agent_name(seat: int) -> str:
    """``player_0`` for seat 0, and so on."""
    return f"player_{seat}"


class GridArenaAEC(AECEnv[str, dict[str, np.ndarray], int | None]):  # type: ignore[misc]
    """A gridarena game as a PettingZoo AEC environment (see the module's docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES),
        "name": "gridarena_v0",
        "is_parallelizable": False,
    }

    def __init__(self, spec: str = "isolation", render_mode: str | None = None) -> None:
        super().__init__()
        self.view: View = make_view(make(spec))
        self.game = self.view.game
        if self.game.num_players < 2:
            raise SpecError(
                f"{self.game.name} has one player: use its Gymnasium environment (gridarena.adapters.gymnasium)"
            )
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise SpecError(render_mode_refused(render_mode))
        self.metadata = {**self.metadata, "name": f"gridarena_{self.game.name}_v0"}  # type: ignore[misc]
        self.render_mode = render_mode
        self.possible_agents = [agent_name(p) for p in range(self.game.num_players)]
        self.seat_of = {a: p for p, a in enumerate(self.possible_agents)}
        rows, cols = self.view.shape
        planes = spaces.Box(0.0, 1.0, (len(self.view.plane_names), rows, cols), dtype=np.float32)
        mask = spaces.Box(0, 1, (self.view.num_actions,), dtype=np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": planes, "action_mask": mask}) for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self.view.num_actions) for a in self.possible_agents}
        self.np_random, _ = seeding.np_random(None)
        self.position: Position = self.view.start(self.game.new_initial_state(0))

    def observation_space(self, agent: str) -> gymnasium.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.Space[Any]:
        return self.action_spaces[agent]

    @property
    def state(self) -> GameState[Any]:
        """The game's state now."""
        return self.view.game_state(self.position)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; ``seed`` draws the game's seed (and chance, where a game has it)."""
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        game_seed = int(self.np_random.integers(SEED_LIMIT))
        self.position = self._deal(self.view.start(self.game.new_initial_state(game_seed)))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.position.player]
        self._rewards_zero = True

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s planes and its mask (zeros unless it is to move)."""
        seat = self.seat_of[agent]
        pos = self.position
        moving = (
            agent == self.agent_selection and pos.player == seat and not self.terminations.get(agent, True)
        )
        return {
            "observation": self.view.observation(pos, seat),
            "action_mask": self.view.mask(pos) if moving else np.zeros(self.view.num_actions, np.int8),
        }

    def step(self, action: int | None) -> None:
        """The selected agent's step (``None`` for a dead agent, which then leaves).

        Unless the game ends, the mover forfeits or the view keeps a running score, no score moves: such
        a quiet step zeroes the mover's cumulative reward (and the rewards of a step before that had
        any), as PettingZoo's contract asks, and touches no other bookkeeping.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        view, pos = self.view, self.position
        before = {a: view.score(pos, self.seat_of[a]) for a in self.agents} if view.running_score else None
        index = -1 if action is None else int(action)
        forfeit = not view.is_legal(pos, index)
        if forfeit:
            reason = view.illegal_reason(pos, index)
            self.infos[agent] = {**self.infos[agent], "illegal": reason}
            pos = view.forfeit(pos, reason)
        else:
            pos = view.apply(pos, index)
        if pos.player == CHANCE:
            pos = self._deal(pos)
        self.position = pos
        self._cumulative_rewards[agent] = 0.0
        over = pos.player == TERMINAL
        if before is None and not over and not forfeit:  # the quiet step: no score moved
            if not self._rewards_zero:
                self._clear_rewards()
                self._rewards_zero = True
            self.agent_selection = self.possible_agents[pos.player]
            return
        for a in self.agents:
            p = self.seat_of[a]
            self.rewards[a] = view.score(pos, p) - (before[a] if before is not None else 0.0)
        self._rewards_zero = False
        if over or forfeit:
            for a in self.agents:
                self.terminations[a] = over or view.has_left(pos, self.seat_of[a])
        if over:
            outcome = self.state.outcome()
            for a in self.agents:
                self.infos[a] = {**self.infos[a], "outcome": None if outcome is None else outcome.to_json()}
        self._accumulate_rewards()
        if not over:
            self.agent_selection = self.possible_agents[pos.player]
        if over or forfeit:
            self._deads_step_first()

    def render(self) -> Any:
        """The state's text (``ansi``) or ``player_0``'s planes painted (``rgb_array``)."""
        if self.render_mode == "ansi":
            return self.state.to_text()
        if self.render_mode == "rgb_array":
            return planes_picture(self.view.observation(self.position, 0))
        gymnasium.logger.warn("render() needs render_mode 'ansi' or 'rgb_array'")
        return None

    def close(self) -> None:
        """Nothing to release."""

    def _deal(self, pos: Position) -> Position:
        """Chance outcomes drawn with the environment's generator until a seat is to move."""
        while pos.player == CHANCE:
            pos = self.view.apply(pos, draw(self.np_random, pos.now.chance_outcomes()))
        return pos


def raw_env(spec: str = "isolation", render_mode: str | None = None) -> GridArenaAEC:
    """The environment itself."""
    return GridArenaAEC(spec, render_mode)


def env(
    spec: str = "isolation", render_mode: str | None = None
) -> AECEnv[str, dict[str, np.ndarray], int | None]:
    """The environment behind PettingZoo's usual wrappers (actions in range, calls in order)."""
    wrapped: Any = wrappers.AssertOutOfBoundsWrapper(raw_env(spec, render_mode))
    return wrappers.OrderEnforcingWrapper(wrapped)
