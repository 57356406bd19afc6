"""Pentocity players beyond the course's two: placement features over the whole grid, then a policy.

``candidates`` scores every placement of a request (all rotations, all locations) with numpy;
``plans`` lays the road, water and parks of a chosen placement; ``greedy`` holds the players:
``diagonal``, ``jigsaw``, ``components``, ``shortroad``, ``group1`` (group 1's final algorithm) and
``packer`` (ours, registered as ``best`` too).
"""

from __future__ import annotations

from typing import Any, Final

from gridarena.core.types import Game
from gridarena.games.pentocity.players.greedy import PlacementPlayer, make_player

#: The strongest player, registered under the name ``best`` as well.
BEST: Final = "packer"


def _factory(name: str) -> Any:
    def make(game: Game[Any], seed: int | None = None, **weights: float) -> PlacementPlayer:
        return make_player(name, seed, **weights)

    make.__name__ = f"make_{name}_bot"
    make.__doc__ = f"Registry factory of the ``{name}`` player (keyword arguments override its weights)."
    return make


make_diagonal_bot = _factory("diagonal")
make_jigsaw_bot = _factory("jigsaw")
make_components_bot = _factory("components")
make_shortroad_bot = _factory("shortroad")
make_group1_bot = _factory("group1")
make_packer_bot = _factory("packer")
make_best_bot = _factory(BEST)

__all__ = [
    "BEST",
    "PlacementPlayer",
    "make_best_bot",
    "make_components_bot",
    "make_diagonal_bot",
    "make_group1_bot",
    "make_jigsaw_bot",
    "make_packer_bot",
    "make_player",
    "make_shortroad_bot",
]
