"""Gymnasium single-agent environments ``gridarena/<game>-v0``: a puzzle, Pentocity, or one seat of a
game against fixed gridarena bots.

Importing this module registers one id per registered game; ``game=`` takes any spec of that game:

    import gymnasium as gym
    import gridarena.adapters.gymnasium  # registers the ids
    env = gym.make("gridarena/isolation-v0", game="isolation(width=5,height=5)", opponent="greedy")

* **Observation**: the game's planes (see :mod:`gridarena.adapters.views`), a ``Box`` in [0, 1] of shape
  ``(channels, rows, cols)``, seen by the agent's seat (its own pieces first).
* **Action**: ``Discrete(n)``, the game's action indices. ``action_masks()`` (what sb3-contrib's
  MaskablePPO reads) and ``info["action_mask"]`` give the legal ones.
* **An illegal action is a loss**: the agent forfeits (``termination`` ``illegal``), the episode ends
  and the reward is what the game's forfeit gives (-1 in the two-player games, the puzzle's
  capped score, Pentocity's 0). So unmasked random actions, as Gymnasium's ``check_env`` plays them,
  are fine.
* **Reward**: the change of the agent's score: the game's return at the end (+1 win, -1 loss in
  the two-player games), the points as they are scored in Pentocity, -1 a slide in the puzzle; the
  rewards of an episode add up to the game's return.
* **Opponents**: ``opponent`` is a bot spec of the game's registry or a bot object (or a list, one
  per other seat);
  they play whole turns between the agent's steps, untimed. ``seat`` is the agent's seat, or
  ``"random"`` for a seat drawn at each reset. ``opening`` is an arena opening (``random(plies=2)``),
  the same positions the arena's ``--opening`` gives for the same seed.
* ``render_mode``: ``"ansi"`` (the state's text) or ``"rgb_array"`` (the planes painted).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from gridarena.adapters.pictures import planes_picture
from gridarena.adapters.views import Mask, Planes, Position, View, make_view
from gridarena.arena.runner import start_state
from gridarena.core.bot import Bot
from gridarena.core.clock import TimeControl
from gridarena.core.errors import GridArenaError, SpecError
from gridarena.core.registry import available_games, make, make_bot
from gridarena.core.types import CHANCE, GameState, Player

SEED_LIMIT = 2**31
"""Game and bot seeds are drawn below this from the environment's generator."""


class GridArenaEnv(gymnasium.Env[Planes, np.int64]):
    """One seat of a gridarena game as a Gymnasium environment (see the module's docstring)."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}  # noqa: RUF012 (Gymnasium declares it so)

    def __init__(
        self,
        game: str = "isolation",
        opponent: str | Bot | Sequence[str | Bot] = "random",
        seat: int | str = 0,
        opening: str | None = None,
        render_mode: str | None = None,
    ) -> None:
        self.view: View = make_view(make(game))
        self.game = self.view.game
        players = self.game.num_players
        if seat != "random" and (not isinstance(seat, int) or not 0 <= seat < players):
            raise SpecError(f"{self.game.name}: seat must be 0..{players - 1} or 'random', got {seat!r}")
        specs = [opponent] * (players - 1) if isinstance(opponent, str | Bot) else list(opponent)
        if len(specs) != players - 1:
            raise SpecError(f"{self.game.name}: {players - 1} opponent specs needed, got {len(specs)}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise SpecError(f"render_mode must be 'ansi' or 'rgb_array', got {render_mode!r}")
        self.opponent_specs = specs
        self.seat_choice = seat
        self.opening = opening
        self.render_mode = render_mode
        rows, cols = self.view.shape
        self.observation_space = spaces.Box(
            0.0, 1.0, (len(self.view.plane_names), rows, cols), dtype=np.float32
        )
        self.action_space = spaces.Discrete(self.view.num_actions)
        self.seat: Player = 0
        self.bots: dict[Player, Bot] = {}
        self.position: Position = self.view.start(self.game.new_initial_state(0))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Planes, dict[str, Any]]:
        """A new game: the seed draws the game's seed, the agent's seat (``seat="random"``) and the bots' seeds."""
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(SEED_LIMIT))
        players = self.game.num_players
        self.seat = (
            int(self.np_random.integers(players)) if self.seat_choice == "random" else int(self.seat_choice)
        )
        others = [p for p in range(players) if p != self.seat]
        self.bots = {}
        for p, spec in zip(others, self.opponent_specs, strict=True):
            bot: Bot = make_bot(self.game, spec) if isinstance(spec, str) else spec
            bot.reset(self.game, p, int(self.np_random.integers(SEED_LIMIT)))
            self.bots[p] = bot
        self.position = self._others_play(self.view.start(start_state(self.game, game_seed, self.opening)))
        return self._observation(), self._info()

    def step(self, action: np.int64 | int) -> tuple[Planes, SupportsFloat, bool, bool, dict[str, Any]]:
        """The agent's step, then the other seats' turns (and chance) until the agent is to move again."""
        pos, index = self.position, int(action)
        running = self.view.running_score
        before = self.view.score(pos, self.seat) if running else 0.0
        info: dict[str, Any] = {}
        if index in self.view.legal(pos):
            pos = self.view.apply(pos, index)
        else:
            reason = self.view.illegal_reason(pos, index)
            info["illegal"] = reason
            pos = self.view.forfeit(pos, reason)
        self.position = pos = self._others_play(pos)
        over = self.view.is_terminal(pos)
        # Without a running score, the score is 0 until the end (see View.running_score).
        reward = self.view.score(pos, self.seat) - before if running or over else 0.0
        return self._observation(), reward, over, False, {**self._info(), **info}

    def action_masks(self) -> Mask:
        """The legal actions of the agent now, as booleans (sb3-contrib's MaskablePPO reads this)."""
        return self.view.mask(self.position).astype(bool)

    def render(self) -> Any:
        """The state's text (``ansi``) or the planes painted (``rgb_array``)."""
        if self.render_mode == "ansi":
            return self.view.game_state(self.position).to_text()
        if self.render_mode == "rgb_array":
            return planes_picture(self._observation())
        return None

    @property
    def state(self) -> GameState[Any]:
        """The game's state now."""
        return self.view.game_state(self.position)

    def _observation(self) -> Planes:
        return self.view.observation(self.position, self.seat)

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self.view.mask(self.position), "seat": self.seat}
        outcome = self.state.outcome()
        if outcome is not None:
            info["outcome"] = outcome.to_json()
        return info

    def _others_play(self, pos: Position) -> Position:
        """Chance and the bots' whole turns until the agent's seat is to move or the game is over."""
        while not self.view.is_terminal(pos) and self.view.current_player(pos) != self.seat:
            player = self.view.current_player(pos)
            state = self.view.game_state(pos)
            if player == CHANCE:
                outcomes = state.chance_outcomes()
                draw = int(self.np_random.choice(len(outcomes), p=[p for _, p in outcomes]))
                pos = self.view.start(state.apply_action(outcomes[draw][0]))
                continue
            try:
                action = self.bots[player].act(state, TimeControl()).action
                pos = self.view.start(state.apply_action(action))
            except GridArenaError as error:  # the bot's illegal action or its own refusal: it forfeits
                pos = self.view.start(state.forfeit(player, "illegal", str(error)))
        return pos


def register_environments() -> list[str]:
    """Register ``gridarena/<game>-v0`` for every registered game (done on import); the ids."""
    ids = []
    for name in available_games():
        env_id = f"gridarena/{name}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point=f"{__name__}:GridArenaEnv", kwargs={"game": name})
        ids.append(env_id)
    return ids


ENV_IDS = register_environments()
