"""Pentocity's entry in the catalogue: the game, its players with their declared parameters, its pages."""

from __future__ import annotations

from typing import Final

from gridarena.core.catalogue import BotEntry, GameEntry
from gridarena.core.params import Flag, Int, Number, Param

_BOTS: Final = "gridarena.games.pentocity.bots"


def _weight(default: float, help: str) -> Number:
    return Number(-1000, 1000, closed=True, default=default, help=help)


def _plans(shortlist: int, batches: int, hug_roads: bool) -> dict[str, Param]:
    return {
        "shortlist": Int(1, 64, default=shortlist, help="placements planned in full, best ranked first"),
        "batches": Int(1, 64, default=batches, help="shortlists tried while no plan is good enough"),
        "hug_roads": Flag(default=hug_roads, help="lay roads along the roads already built"),
    }


def _packer(shortlist: int = 8, filler_diagonal: float = 1.0) -> dict[str, Param]:
    return {
        "shortlist": Int(1, 64, default=shortlist, help="placements planned in full, best ranked first"),
        "batches": Int(1, 64, default=5, help="shortlists tried while no plan is good enough"),
        "good_enough": Number(
            -1e9, 1e9, closed=True, default=0.0, help="a plan scoring above this ends the search"
        ),
        "road_weight": _weight(1.0, "cost of each road cell built"),
        "resort_weight": _weight(1.0, "cost of cells cut off from the rest"),
        "contact_weight": _weight(0.6, "value of sides touching buildings and the edge"),
        "diagonal_weight": _weight(1.0, "residences toward one corner, factories toward the other"),
        "filler_diagonal": _weight(filler_diagonal, "the diagonal's weight for water and parks"),
        "lost_weight": _weight(1.0, "cost of cells no building can use any more"),
        "factory_resort_cells": Int(0, 64, default=4, help="factory cells kept free beside the resort"),
    }


def _reserve(cover_weight: float = 0.0, filler_diagonal: float = 1.0) -> dict[str, Param]:
    return {
        **_packer(filler_diagonal=filler_diagonal),
        "reserve_weight": _weight(10.0, "value of keeping room for the requests to come"),
        "reserve_places": Int(0, 1000, default=10, help="places kept in reserve"),
        "cover_weight": _weight(cover_weight, "value of covering the reserve"),
    }


_BANDS: Final = BotEntry(
    f"{_BOTS}:make_bands_bot",
    "our best: residences and factories in bands, room kept for the requests to come",
    {
        **_reserve(cover_weight=0.3, filler_diagonal=0.0),
        "confirm": Int(0, 64, default=2, help="plans confirmed"),
    },
)

BOTS: Final[dict[str, BotEntry]] = {
    "example": BotEntry(f"{_BOTS}:make_example_bot", "the course's example player (first place that fits)"),
    "rowbyrow": BotEntry(f"{_BOTS}:make_rowbyrow_bot", "fills the land row by row"),
    "diagonal": BotEntry(
        f"{_BOTS}:make_diagonal_bot",
        "residences toward one corner, factories toward the other",
        _plans(1, 1, False),
    ),
    "jigsaw": BotEntry(
        f"{_BOTS}:make_jigsaw_bot", "the placement touching the most sides", _plans(1, 1, False)
    ),
    "components": BotEntry(
        f"{_BOTS}:make_components_bot",
        "the jigsaw placement that keeps the land in one piece",
        _plans(6, 1, False),
    ),
    "shortroad": BotEntry(
        f"{_BOTS}:make_shortroad_bot", "the jigsaw placement with the shortest road", _plans(1, 1, True)
    ),
    "group1": BotEntry(
        f"{_BOTS}:make_group1_bot",
        "the 2016 group 1's player: jigsaw placement, ponds and fields grown by random walks",
        {
            **_plans(1, 1, False),
            "walks": Int(1, 1000, default=8, help="random walks tried for a pond or field"),
        },
    ),
    "packer": BotEntry(f"{_BOTS}:make_packer_bot", "packs buildings tightly, few road cells", _packer()),
    "reserve": BotEntry(
        f"{_BOTS}:make_reserve_bot", "packer that keeps room for the requests to come", _reserve()
    ),
    "bands": _BANDS,
    "best": _BANDS,
}

ENTRY: Final = GameEntry(
    name="pentocity",
    title="Pentocity (Columbia COMS 4444)",
    factory="gridarena.games.pentocity.rules:Pentocity",
    bots=BOTS,
    renderer="gridarena.games.pentocity.render:render_svg",
    words="gridarena.games.pentocity.render:WORDS",
    analyser="gridarena.games.pentocity.analysis:make_analyser",
)
