"""Pentocity players beyond the course's two: placement features over the whole grid, then a policy.

``candidates`` scores every placement of a request (all rotations, all locations) with numpy;
``plans`` lays the road, water and parks of a chosen placement; ``greedy`` holds the players:
``diagonal``, ``jigsaw``, ``components``, ``shortroad``, ``group1`` (group 1's final algorithm) and
``packer`` (ours); ``bands`` (the packer with a layout planned in advance for streams of I pentominoes
and 1 × 1 factories, registered as ``best``). The registry (:mod:`gridarena.core.registry`) is the one
list of their names; build them with ``make_bot(game, "packer(shortlist=4)")``.

>>> from gridarena import make, make_bot
>>> make_bot(make("pentocity"), "packer(shortlist=4)").shortlist
4
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gridarena.core.types import Game
from gridarena.games.pentocity.players.bands import BandPlayer
from gridarena.games.pentocity.players.greedy import (
    ComponentsPlayer,
    DiagonalPlayer,
    Group1Player,
    JigsawPlayer,
    PackerPlayer,
    PlacementPlayer,
    ShortRoadPlayer,
    set_weights,
)
from gridarena.games.pentocity.players.reserve import ReservePacker


def _factory(cls: type[PlacementPlayer]) -> Callable[..., PlacementPlayer]:
    def make(game: Game[Any], seed: int | None = None, **weights: float) -> PlacementPlayer:
        return set_weights(cls(seed), **weights)

    make.__name__ = f"make_{cls.name}_bot"
    make.__doc__ = f"Registry factory of the ``{cls.name}`` player (keyword arguments override its weights)."
    return make


make_diagonal_bot = _factory(DiagonalPlayer)
make_jigsaw_bot = _factory(JigsawPlayer)
make_components_bot = _factory(ComponentsPlayer)
make_shortroad_bot = _factory(ShortRoadPlayer)
make_group1_bot = _factory(Group1Player)
make_packer_bot = _factory(PackerPlayer)
make_reserve_bot = _factory(ReservePacker)
make_bands_bot = _factory(BandPlayer)

__all__ = [
    "BandPlayer",
    "PlacementPlayer",
    "make_bands_bot",
    "make_components_bot",
    "make_diagonal_bot",
    "make_group1_bot",
    "make_jigsaw_bot",
    "make_packer_bot",
    "make_reserve_bot",
    "make_shortroad_bot",
]
