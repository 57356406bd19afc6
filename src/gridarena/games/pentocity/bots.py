"""Pentocity's bots, by registry name: factories only (the players live in ``ai/``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gridarena.core.types import Game
from gridarena.games.pentocity.ai.bands import BandPlayer
from gridarena.games.pentocity.ai.greedy import (
    ComponentsPlayer,
    DiagonalPlayer,
    Group1Player,
    JigsawPlayer,
    PackerPlayer,
    PlacementPlayer,
    ShortRoadPlayer,
    set_weights,
)
from gridarena.games.pentocity.ai.reserve import ReservePacker
from gridarena.games.pentocity.ai.simple import ExampleBot, RowByRowBot


def make_example_bot(game: Game[Any], seed: int | None = None) -> ExampleBot:
    """Registry factory of :class:`ExampleBot`."""
    return ExampleBot(seed)


def make_rowbyrow_bot(game: Game[Any], seed: int | None = None) -> RowByRowBot:
    """Registry factory of :class:`RowByRowBot`."""
    return RowByRowBot(seed)


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
