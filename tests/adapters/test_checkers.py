"""Each library's own checker over every registered game, on 20 seeds.

PettingZoo's ``api_test`` and ``seed_test`` (games of two or more players), Gymnasium's ``check_env``
(every game: a puzzle, Pentocity, or seat 0 against ``random``) and OpenSpiel's ``random_sim_test``
(every game). The seeds reach the games through a wrapper that shifts the seed a checker asks for,
so each seed is a different game. Random games of Pentocity through OpenSpiel take seconds each
(random placements lay long roads): the fast suite plays one seed, ``-m slow`` all twenty.
"""

from __future__ import annotations

import warnings
from typing import Any

import pytest

from gridarena.core.errors import SpecError
from gridarena.core.registry import make

from .cases import GAMES, SEEDS, SLOW_GAMES, spec_of

pettingzoo_test = pytest.importorskip("pettingzoo.test", reason="the rl extra is not installed")
gymnasium = pytest.importorskip("gymnasium", reason="the rl extra is not installed")
pyspiel = pytest.importorskip("pyspiel", reason="the rl extra is not installed")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.utils.wrappers import BaseWrapper  # noqa: E402

from gridarena.adapters import openspiel  # noqa: E402
from gridarena.adapters.gymnasium import GridArenaEnv  # noqa: E402
from gridarena.adapters.pettingzoo import env as pettingzoo_env  # noqa: E402

#: PettingZoo steps per agent in one api_test (Ice and Fire's random commands make long games).
CYCLES = {"iceandfire": 40}


class ShiftedSeeds(BaseWrapper):  # type: ignore[misc]
    """A PettingZoo environment whose ``reset(seed=s)`` plays seed ``s + shift`` (None stays None)."""

    def __init__(self, env: Any, shift: int) -> None:
        super().__init__(env)
        self.shift = shift
        self.env.reset(seed=shift)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.env.reset(seed=None if seed is None else seed + 1000 * self.shift, options=options)


class ShiftedGymSeeds(gymnasium.Wrapper):  # type: ignore[misc]
    """A Gymnasium environment whose ``reset(seed=s)`` plays seed ``s + shift``."""

    def __init__(self, env: Any, shift: int) -> None:
        super().__init__(env)
        self.shift = shift

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> Any:
        return self.env.reset(seed=None if seed is None else seed + 1000 * self.shift, options=options)


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_api_and_seed_tests(name: str) -> None:
    spec = spec_of(name)
    if make(spec).num_players < 2:
        with pytest.raises(SpecError, match="Gymnasium"):
            pettingzoo_env(spec)
        return
    cycles = CYCLES.get(name, 10_000)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test's advice on spaces and all-zero planes
        for seed in SEEDS:
            pettingzoo_test.api_test(ShiftedSeeds(pettingzoo_env(spec), seed), num_cycles=cycles)
            pettingzoo_test.seed_test(
                lambda seed=seed: ShiftedSeeds(pettingzoo_env(spec), seed), num_cycles=cycles
            )


@pytest.mark.parametrize("name", GAMES)
def test_gymnasium_check_env(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for seed in SEEDS:
            check_env(ShiftedGymSeeds(GridArenaEnv(spec_of(name), opponent="random"), seed).unwrapped)


def random_sims(name: str, seeds: range) -> None:
    game = make(spec_of(name))
    for seed in seeds:
        params = {**openspiel.scalar_params(game), "seed": seed}
        pyspiel.random_sim_test(
            pyspiel.load_game(openspiel.PREFIX + name, params), num_sims=1, serialize=False, verbose=False
        )


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_random_sim_test(name: str) -> None:
    random_sims(name, SEEDS[:1] if name in SLOW_GAMES else SEEDS)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SLOW_GAMES))
def test_openspiel_random_sim_test_on_twenty_seeds(name: str) -> None:
    random_sims(name, SEEDS)
