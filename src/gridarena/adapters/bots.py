"""Bots that bring learned or OpenSpiel play into the arena: ``policy(file=...)`` and ``openspiel(bot=mcts)``.

``policy`` plays a network exported with :func:`gridarena.adapters.policy.write_policy` with numpy
alone: the observation planes of its seat, the logits, the legal mask, then the most likely action
(``temperature=T`` samples from the masked softmax at that temperature, with the bot's seeded RNG).
Where a turn takes several steps (Ice and Fire), it steps through its own view until the turn ends.

``openspiel`` runs one of OpenSpiel's own bots (``mcts``: ``MCTSBot`` with random rollouts, or
``random``) on the game's OpenSpiel form (:mod:`gridarena.adapters.openspiel`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from gridarena.adapters.policy import PolicyFileError, read_policy
from gridarena.adapters.views import View, make_view
from gridarena.core.bot import BaseBot, Decision
from gridarena.core.clock import TimeControl
from gridarena.core.errors import SpecError
from gridarena.core.types import Game, GameState

MAX_STEPS_PER_TURN = 10_000
"""A turn of several steps that has not ended after this many is ended by force (never reached in
the five games: an Ice and Fire turn has at most a few hundred commands)."""


class PolicyBot(BaseBot):
    """A trained network's choice among the legal actions (see the module's docstring)."""

    name = "policy"

    def __init__(self, game: Game[Any], file: str, temperature: float = 0.0, seed: int | None = None) -> None:
        super().__init__(seed)
        self.policy = read_policy(file)
        self.view: View = make_view(game)
        self.policy.check_view(self.view, file)
        if temperature < 0:
            raise SpecError(
                f"policy: temperature must be 0 (the most likely action) or above, got {temperature}"
            )
        self.temperature = float(temperature)

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        """Step through the view from ``state`` until a whole game action is chosen."""
        pos = self.view.start(state)
        seat = self.view.current_player(pos)
        for _ in range(MAX_STEPS_PER_TURN):
            index, p = self._choose(self.view.observation(pos, seat), self.view.mask(pos))
            action = self.view.game_action(pos, index)
            if action is not None:
                return Decision(action, {"p": round(p, 4)})
            pos = self.view.apply(pos, index)
        raise SpecError(f"policy: no end of the turn after {MAX_STEPS_PER_TURN} steps")

    def _choose(self, planes: Any, mask: Any) -> tuple[int, float]:
        probabilities = self.policy.probabilities(planes, mask)
        if self.temperature == 0:
            index = int(np.argmax(probabilities))
            return index, float(probabilities[index])
        weights = np.where(mask > 0, probabilities ** (1.0 / self.temperature), 0.0)
        index = self.rng.choices(range(len(weights)), weights=weights.tolist())[0]
        return index, float(probabilities[index])


def make_policy_bot(
    game: Game[Any], seed: int | None = None, *, file: str, temperature: float = 0.0
) -> PolicyBot:
    """Catalogue factory of :class:`PolicyBot`: ``policy(file=PATH)``."""
    if not Path(file).is_file():
        raise PolicyFileError(file, "no such policy file")
    return PolicyBot(game, file, temperature, seed)


def make_openspiel_bot(
    game: Game[Any],
    seed: int | None = None,
    bot: str = "mcts",
    simulations: int = 100,
    uct_c: float = 2.0,
    rollouts: int = 1,
) -> BaseBot:
    """Catalogue factory of the ``openspiel`` bot (needs the ``rl`` extra)."""
    from gridarena.adapters.openspiel import OpenSpielBot

    return OpenSpielBot(game, bot, seed, simulations, uct_c, rollouts)
