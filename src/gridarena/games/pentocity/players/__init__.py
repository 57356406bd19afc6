"""Pentocity players beyond the course's two: placement features over the whole grid, then a policy.

``candidates`` scores every placement of a request (all rotations, all locations) with numpy;
``plans`` lays the road, water and parks of a chosen placement; ``greedy`` holds the players:
``diagonal``, ``jigsaw``, ``components``, ``shortroad``, ``group1`` (group 1's final algorithm) and
``packer`` (ours); ``bands`` (the packer with a layout planned in advance for streams of I pentominoes
and 1 × 1 factories, registered as ``best``).

>>> make_player("packer", shortlist=4).shortlist
4
"""

from __future__ import annotations

import difflib
from typing import Any, Final

from gridarena.core.errors import UnknownNameError
from gridarena.core.types import Game
from gridarena.games.pentocity.players.bands import BandPlayer
from gridarena.games.pentocity.players.greedy import PLAYER_CLASSES, PlacementPlayer, set_weights
from gridarena.games.pentocity.players.reserve import ReservePacker

#: The strongest player, registered under the name ``best`` as well.
BEST: Final = "bands"

#: Every player of this package by name.
PLAYERS: Final[dict[str, type[PlacementPlayer]]] = {
    **PLAYER_CLASSES,
    ReservePacker.name: ReservePacker,
    BandPlayer.name: BandPlayer,
}


def make_player(name: str, seed: int | None = None, **weights: float) -> PlacementPlayer:
    """A player of this package by name, with class attributes (weights, ``shortlist``) overridden."""
    if name not in PLAYERS:
        raise UnknownNameError("pentocity player", name, difflib.get_close_matches(name, PLAYERS))
    return set_weights(PLAYERS[name](seed), **weights)


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
make_bands_bot = _factory("bands")
make_reserve_bot = _factory("reserve")
make_best_bot = _factory(BEST)

__all__ = [
    "BEST",
    "PLAYERS",
    "BandPlayer",
    "PlacementPlayer",
    "make_bands_bot",
    "make_best_bot",
    "make_components_bot",
    "make_diagonal_bot",
    "make_group1_bot",
    "make_jigsaw_bot",
    "make_packer_bot",
    "make_player",
    "make_reserve_bot",
    "make_shortroad_bot",
]
