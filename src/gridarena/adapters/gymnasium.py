"""Gymnasium single-agent environments ``gridarena/<game>-v0``: a puzzle, Pentocity, or one seat of a
game against fixed gridarena bots.

``import gridarena`` registers one id per registered game (as soon as Gymnasium is imported, see
:mod:`gridarena.adapters.registration`); ``game=`` takes any spec of that game:

    import gridarena, gymnasium as gym
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
* ``render_mode``: ``"ansi"`` (the state's text) or ``"rgb_array"`` (the planes painted); through
  ``gymnasium.make`` also ``"ansi_list"`` and ``"rgb_array_list"``. Any other (``"human"``: no window
  is drawn) is refused with one line.
* **Defaults**: ``game="isolation"`` (7x7), ``opponent="random"``, ``seat=0`` (the agent moves first),
  no ``opening``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.wrappers import RenderCollection

from gridarena.adapters.pictures import RENDER_MODES, planes_picture, render_mode_refused
from gridarena.adapters.registration import register_ids
from gridarena.adapters.views import Mask, Planes, Position, View, draw, make_view
from gridarena.arena.runner import start_state
from gridarena.core.bot import Bot
from gridarena.core.clock import TimeControl
from gridarena.core.errors import GridArenaError, SpecError
from gridarena.core.registry import make, make_bot
from gridarena.core.types import CHANCE, TERMINAL, GameState, Player

SEED_LIMIT = 2**31
"""Game and bot seeds are drawn below this from the environment's generator."""


class GridArenaEnv(gymnasium.Env[Planes, np.int64]):
    """One seat of a gridarena game as a Gymnasium environment (see the module's docstring)."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 4}  # noqa: RUF012 (Gymnasium declares it so)

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
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise SpecError(render_mode_refused(render_mode))
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
        view, pos, index = self.view, self.position, int(action)
        running = view.running_score
        before = view.score(pos, self.seat) if running else 0.0
        illegal = None
        if view.is_legal(pos, index):
            pos = view.apply(pos, index)
        else:
            illegal = view.illegal_reason(pos, index)
            pos = view.forfeit(pos, illegal)
        if pos.player != self.seat:
            pos = self._others_play(pos)
        self.position = pos
        over = pos.player == TERMINAL
        # Without a running score, the score is 0 until the end (see View.running_score).
        reward = view.score(pos, self.seat) - before if running or over else 0.0
        info = self._info()
        if illegal is not None:
            info["illegal"] = illegal
        return view.observation(pos, self.seat), reward, over, False, info

    def action_masks(self) -> Mask:
        """The legal actions of the agent now, as booleans (sb3-contrib's MaskablePPO reads this)."""
        return self.view.mask(self.position).view(np.bool_)  # a new array: 0/1 bytes are booleans

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
        if self.view.is_terminal(self.position):
            outcome = self.state.outcome()
            if outcome is not None:
                info["outcome"] = outcome.to_json()
        return info

    def _others_play(self, pos: Position) -> Position:
        """Chance and the bots' whole turns until the agent's seat is to move or the game is over."""
        while pos.player != self.seat and pos.player != TERMINAL:
            player, state = pos.player, self.view.game_state(pos)
            if player == CHANCE:
                pos = self.view.apply(pos, draw(self.np_random, state.chance_outcomes()))
                continue
            try:
                action = self.bots[player].act(state, TimeControl()).action
                pos = self.view.start(state.apply_action(action))
            except GridArenaError as error:  # the bot's illegal action or its own refusal: it forfeits
                pos = self.view.start(state.forfeit(player, "illegal", str(error)))
        return pos


def make_env(**kwargs: Any) -> gymnasium.Env[Planes, np.int64]:
    """What ``gymnasium.make("gridarena/<game>-v0", ...)`` builds: a :class:`GridArenaEnv`.

    Being a function, not the class, it keeps Gymnasium from wrapping ``render_mode="human"`` in its
    pygame window, which these environments do not draw: that mode is refused in one line like any
    other unknown one; ``ansi_list`` and ``rgb_array_list`` collect the frames of an episode.
    """
    mode = kwargs.get("render_mode")
    if isinstance(mode, str) and mode.endswith("_list") and mode.removesuffix("_list") in RENDER_MODES:
        return RenderCollection(GridArenaEnv(**{**kwargs, "render_mode": mode.removesuffix("_list")}))
    return GridArenaEnv(**kwargs)


def register_environments() -> list[str]:
    """Register ``gridarena/<game>-v0`` for every registered game (``import gridarena`` does it); the ids."""
    return register_ids(gymnasium)


ENV_IDS = register_environments()
