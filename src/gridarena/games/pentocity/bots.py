"""Pentocity's bot factories, each called through its declaration in ``catalogue.py`` (the players
live in ``ai/``)."""

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


def _placement(cls: type[PlacementPlayer]) -> Callable[..., PlacementPlayer]:
    """The factory of a placement player that plans its shortlist (diagonal, jigsaw, components, shortroad)."""

    def make(
        game: Game[Any],
        seed: int | None = None,
        shortlist: int = cls.shortlist,
        batches: int = cls.batches,
        hug_roads: bool = cls.hug_roads,
    ) -> PlacementPlayer:
        return set_weights(cls(seed), shortlist=shortlist, batches=batches, hug_roads=hug_roads)

    return _named(make, cls)


def _group1(cls: type[Group1Player]) -> Callable[..., PlacementPlayer]:
    def make(
        game: Game[Any],
        seed: int | None = None,
        shortlist: int = cls.shortlist,
        batches: int = cls.batches,
        hug_roads: bool = cls.hug_roads,
        walks: int = cls.walks,
    ) -> PlacementPlayer:
        return set_weights(cls(seed), shortlist=shortlist, batches=batches, hug_roads=hug_roads, walks=walks)

    return _named(make, cls)


def _packer(cls: type[PackerPlayer]) -> Callable[..., PlacementPlayer]:
    def make(
        game: Game[Any],
        seed: int | None = None,
        shortlist: int = cls.shortlist,
        batches: int = cls.batches,
        good_enough: float = cls.good_enough,
        road_weight: float = cls.road_weight,
        resort_weight: float = cls.resort_weight,
        contact_weight: float = cls.contact_weight,
        diagonal_weight: float = cls.diagonal_weight,
        filler_diagonal: float = cls.filler_diagonal,
        lost_weight: float = cls.lost_weight,
        factory_resort_cells: int = cls.factory_resort_cells,
    ) -> PlacementPlayer:
        weights = {k: v for k, v in locals().items() if k not in ("game", "seed", "cls")}
        return set_weights(cls(seed), **weights)

    return _named(make, cls)


def _reserve(cls: type[ReservePacker]) -> Callable[..., PlacementPlayer]:
    def make(
        game: Game[Any],
        seed: int | None = None,
        shortlist: int = cls.shortlist,
        batches: int = cls.batches,
        good_enough: float = cls.good_enough,
        road_weight: float = cls.road_weight,
        resort_weight: float = cls.resort_weight,
        contact_weight: float = cls.contact_weight,
        diagonal_weight: float = cls.diagonal_weight,
        filler_diagonal: float = cls.filler_diagonal,
        lost_weight: float = cls.lost_weight,
        factory_resort_cells: int = cls.factory_resort_cells,
        reserve_weight: float = cls.reserve_weight,
        reserve_places: int = cls.reserve_places,
        cover_weight: float = cls.cover_weight,
    ) -> PlacementPlayer:
        weights = {k: v for k, v in locals().items() if k not in ("game", "seed", "cls")}
        return set_weights(cls(seed), **weights)

    return _named(make, cls)


def make_bands_bot(
    game: Game[Any],
    seed: int | None = None,
    shortlist: int = BandPlayer.shortlist,
    batches: int = BandPlayer.batches,
    good_enough: float = BandPlayer.good_enough,
    road_weight: float = BandPlayer.road_weight,
    resort_weight: float = BandPlayer.resort_weight,
    contact_weight: float = BandPlayer.contact_weight,
    diagonal_weight: float = BandPlayer.diagonal_weight,
    filler_diagonal: float = BandPlayer.filler_diagonal,
    lost_weight: float = BandPlayer.lost_weight,
    factory_resort_cells: int = BandPlayer.factory_resort_cells,
    reserve_weight: float = BandPlayer.reserve_weight,
    reserve_places: int = BandPlayer.reserve_places,
    cover_weight: float = BandPlayer.cover_weight,
    confirm: int = BandPlayer.confirm,
) -> PlacementPlayer:
    """Catalogue factory of the ``bands`` player, our best (keywords override its weights)."""
    weights = {k: v for k, v in locals().items() if k not in ("game", "seed")}
    return set_weights(BandPlayer(seed), **weights)


def _named(
    make: Callable[..., PlacementPlayer], cls: type[PlacementPlayer]
) -> Callable[..., PlacementPlayer]:
    make.__name__ = make.__qualname__ = f"make_{cls.name}_bot"
    make.__doc__ = f"Catalogue factory of the ``{cls.name}`` player (keywords override its weights)."
    return make


make_diagonal_bot = _placement(DiagonalPlayer)
make_jigsaw_bot = _placement(JigsawPlayer)
make_components_bot = _placement(ComponentsPlayer)
make_shortroad_bot = _placement(ShortRoadPlayer)
make_group1_bot = _group1(Group1Player)
make_packer_bot = _packer(PackerPlayer)
make_reserve_bot = _reserve(ReservePacker)
