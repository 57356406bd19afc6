"""Every gridarena game as an OpenSpiel Python game, and OpenSpiel's own bots as gridarena bots.

Importing this module registers ``gridarena_<game>`` for every registered game, with the game's own
parameters (those that are numbers, booleans or text) and ``seed`` (the seed of the initial state:
Ice and Fire's map, the puzzle's scramble, Pentocity's request stream):

    import pyspiel
    import gridarena.adapters.openspiel  # registers the games
    game = pyspiel.load_game("gridarena_isolation(width=5,height=5)")
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])

Actions are the view's indices (:mod:`gridarena.adapters.views`), chance outcomes are numbered in
``chance_outcomes()`` order (Pentocity's request: one outcome, probability 1), observation tensors
are the view's planes seen by the player asked. OpenSpiel's algorithms (MCTS, CFR on small games,
the random-simulation test) run on them. The games are perfect-information and give their returns
at the end. :class:`OpenSpielBot` runs an OpenSpiel bot (``mcts`` or ``random``) in the arena:
``openspiel(bot=mcts,simulations=200,rollouts=1)``.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts
from open_spiel.python.bots import uniform_random

from gridarena.adapters.views import Position, View, make_view
from gridarena.core.bot import BaseBot, Decision
from gridarena.core.clock import TimeControl
from gridarena.core.errors import SpecError
from gridarena.core.registry import available_games, make
from gridarena.core.types import CHANCE, Game, GameState

PREFIX: Final = "gridarena_"
MAX_PLAYERS: Final = 8


def scalar_params(game: Game[Any]) -> dict[str, Any]:
    """The game's parameters that OpenSpiel can carry (numbers, booleans, text), plus ``seed``.

    >>> scalar_params(make("isolation"))
    {'width': 7, 'height': 7, 'seed': 0}
    """
    kept = {k: v for k, v in game.params.items() if isinstance(v, bool | int | float | str)}
    return {**kept, "seed": 0}


def game_type(name: str) -> pyspiel.GameType:
    """The OpenSpiel game type of the registered game ``name`` (its defaults as parameters)."""
    default = make(name)
    view = make_view(default)
    zero_sum = default.zero_sum and default.num_players > 1
    many = default.num_players > 2 or (not default.zero_sum and default.num_players > 1)
    return pyspiel.GameType(
        short_name=PREFIX + name,
        long_name=f"gridarena {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
            if view.max_chance_outcomes
            else pyspiel.GameType.ChanceMode.DETERMINISTIC
        ),
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=MAX_PLAYERS if many else default.num_players,
        min_num_players=min(2, default.num_players) if many else default.num_players,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=scalar_params(default),
    )


class GridArenaGame(pyspiel.Game):  # type: ignore[misc]
    """A gridarena game with OpenSpiel's interface (one subclass is registered per game)."""

    NAME: str = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.seed = int(params.pop("seed", 0))
        defaults = scalar_params(make(self.NAME))
        changed = {k: v for k, v in params.items() if k in defaults and v != defaults[k]}
        self.gridarena = make(self.NAME, **changed)
        self.view: View = make_view(self.gridarena)
        lo, hi = self.view.utility_range()
        info = pyspiel.GameInfo(
            num_distinct_actions=self.view.num_actions,
            max_chance_outcomes=self.view.max_chance_outcomes,
            num_players=self.gridarena.num_players,
            min_utility=lo,
            max_utility=hi,
            utility_sum=0.0 if self.gridarena.zero_sum and self.gridarena.num_players > 1 else None,
            max_game_length=self.view.max_steps(),
        )
        super().__init__(_TYPES[self.NAME], info, {**params, "seed": self.seed})
        self.initial = self.view.start(self.gridarena.new_initial_state(self.seed))

    def new_initial_state(self, state: Any = None) -> GridArenaState:
        """The game's initial state for the ``seed`` parameter (made once: states are immutable)."""
        return GridArenaState(self, self.initial)

    def state_at(self, state: GameState[Any]) -> GridArenaState:
        """An OpenSpiel state at a gridarena state (its history starts there)."""
        return GridArenaState(self, self.view.start(state))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> PlanesObserver:
        """The observer of the view's planes."""
        return PlanesObserver(self.view, params)


class GridArenaState(pyspiel.State):  # type: ignore[misc]
    """A position of a gridarena game with OpenSpiel's interface (mutable, as OpenSpiel's states are)."""

    def __init__(self, game: GridArenaGame, position: Position) -> None:
        super().__init__(game)
        self.view = game.view
        self.position = position

    def current_player(self) -> int:
        return self.view.current_player(self.position)

    def _legal_actions(self, player: int) -> list[int]:
        return self.view.legal(self.position)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.view.current_player(self.position) != CHANCE:
            return []
        return [(i, p) for i, (_, p) in enumerate(self.position.now.chance_outcomes())]

    def _apply_action(self, action: int) -> None:
        self.position = self.view.apply(self.position, int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.view.index_text(self.position, int(action))

    def is_terminal(self) -> bool:
        return self.view.is_terminal(self.position)

    def returns(self) -> list[float]:
        return list(self.view.game_state(self.position).returns())

    def __str__(self) -> str:
        return position_text(self.position)

    @property
    def gridarena_state(self) -> GameState[Any]:
        """The gridarena state of this position (where the turn in progress began)."""
        return self.view.game_state(self.position)


class PlanesObserver:
    """OpenSpiel's observer interface over the view's planes (perfect information: the whole board)."""

    def __init__(self, view: View, params: Any) -> None:
        if params:
            raise SpecError(f"gridarena observers take no parameters, got {params}")
        self.view = view
        shape = (len(view.plane_names), *view.shape)
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: GridArenaState, player: int) -> None:
        """The planes of ``state`` seen by ``player`` (kept with the position: OpenSpiel asks often)."""
        key = f"planes {player}"
        if key not in state.position.memo:
            state.position.memo[key] = self.view.observation(state.position, player)
        self.dict["observation"][...] = state.position.memo[key]

    def string_from(self, state: GridArenaState, player: int) -> str:
        """The state's text (the same for every player: perfect information)."""
        return position_text(state.position)


def position_text(pos: Position) -> str:
    """The text of the state the mover sees, made once per position."""
    if "text" not in pos.memo:
        pos.memo["text"] = pos.now.to_text()
    text: str = pos.memo["text"]
    return text


def _register() -> dict[str, pyspiel.GameType]:
    types: dict[str, pyspiel.GameType] = {}
    registered = set(pyspiel.registered_names())
    for name in available_games():
        types[name] = game_type(name)
        game_class = type(f"GridArena_{name}", (GridArenaGame,), {"NAME": name})
        if PREFIX + name not in registered:
            pyspiel.register_game(types[name], game_class)
    return types


_TYPES: Final = _register()


def load(game: Game[Any], seed: int = 0) -> GridArenaGame:
    """The OpenSpiel form of a gridarena game (with its parameters) for initial-state seed ``seed``."""
    params = {**scalar_params(game), "seed": seed}
    loaded = pyspiel.load_game(PREFIX + game.name, params)
    assert isinstance(loaded, GridArenaGame)
    if loaded.gridarena.params != game.params:
        raise SpecError(f"{game.name}: parameters {dict(game.params)} do not all pass through OpenSpiel")
    return loaded


class OpenSpielBot(BaseBot):
    """OpenSpiel's ``MCTSBot`` (random rollouts) or uniform random bot over the game's OpenSpiel form.

    ``simulations`` (default 100) and ``uct_c`` (2.0) are MCTSBot's; ``rollouts`` (1) is the random
    evaluator's. The search has a fixed budget: it reads no clock.
    """

    name = "openspiel"

    def __init__(
        self,
        game: Game[Any],
        bot: str = "mcts",
        seed: int | None = None,
        simulations: int = 100,
        uct_c: float = 2.0,
        rollouts: int = 1,
    ) -> None:
        super().__init__(seed)
        if bot not in ("mcts", "random"):
            raise SpecError(f"openspiel: bot must be 'mcts' or 'random', got {bot!r}")
        if simulations < 1 or rollouts < 1:
            raise SpecError("openspiel: simulations and rollouts must be at least 1")
        self.kind, self.simulations, self.uct_c, self.rollouts = bot, simulations, uct_c, rollouts
        self.spiel = load(game)
        self.bot = self._make(seed, 0)

    def _make(self, seed: int | None, seat: int) -> Any:
        rng = np.random.RandomState(seed % 2**32 if seed is not None else None)
        if self.kind == "random":
            return uniform_random.UniformRandomBot(seat, rng)
        evaluator = mcts.RandomRolloutEvaluator(self.rollouts, rng)
        return mcts.MCTSBot(self.spiel, self.uct_c, self.simulations, evaluator, random_state=rng)

    def reset(self, game: Game[Any], seat: int, seed: int) -> None:
        """A new game: the OpenSpiel bot is made again for this seat, with this game's seed."""
        super().reset(game, seat, seed)
        self.bot = self._make(seed, seat)

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        """OpenSpiel's bot steps from ``state`` until a whole game action is chosen."""
        spiel_state = self.spiel.state_at(state)
        view = self.spiel.view
        for steps in range(1, view.max_steps() + 1):
            index = int(self.bot.step(spiel_state))
            action = view.game_action(spiel_state.position, index)
            if action is not None:
                return Decision(action, {"steps": steps, "simulations": self.simulations})
            spiel_state.apply_action(index)
        raise SpecError("openspiel: the turn never ended")
