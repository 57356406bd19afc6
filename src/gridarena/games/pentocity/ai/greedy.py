"""Greedy placement players: rank every placement with whole-grid features, plan the best few, keep one.

Each player is a ranking of :class:`Candidates` (numpy arithmetic over all placements of all
rotations), a shortlist size, and optionally a second look at the shortlist once the roads, water and
parks of each placement are planned (:meth:`PlacementPlayer.refine`). Residences go towards the top-left
corner and factories towards the bottom-right one, so the two kinds, which may not touch, meet late.

>>> from gridarena.games.pentocity.simulator import play
>>> play(Pentocity(sequencer="g6", cpu_time=None), JigsawPlayer(), seed=1).final_state.score > 1500
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray
from scipy import ndimage

from gridarena.core.bot import BaseBot, Decision
from gridarena.core.clock import TimeControl
from gridarena.core.errors import SpecError
from gridarena.core.types import GameState
from gridarena.games.pentocity.ai.candidates import Candidates, candidates, land_maps
from gridarena.games.pentocity.ai.plans import (
    compact_group,
    descend_road,
    extend_group,
    walk_group,
    with_cells,
)
from gridarena.games.pentocity.ai.simple import shortest_road
from gridarena.games.pentocity.buildings import Building, Cell, Kind, Shape
from gridarena.games.pentocity.land import SIDE, CellType, Land, Mask, Mode, Move, edge_mask, group_mask
from gridarena.games.pentocity.placement import Violation, resolve_move
from gridarena.games.pentocity.rules import Pentocity, PentocityState

Scores = NDArray[np.float64]

_FOUR: Final = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], dtype=bool)
_EDGE: Final = edge_mask(1)
_EMPTY: Final = int(CellType.EMPTY)
#: Empty regions smaller than this are treated as lost: no pentomino fits in them.
SMALL_REGION: Final = 5


@dataclass(frozen=True, slots=True)
class Context:
    """What every plan of one move shares: the land, its ponds and fields, and its lost cells."""

    land: Land
    ponds: Mask
    fields: Mask
    lost: int

    @classmethod
    def of(cls, land: Land) -> Context:
        """The context of a move on ``land``."""
        return cls(land, group_mask(land, CellType.WATER), group_mask(land, CellType.PARK), lost_cells(land))

    def groups(self, kind: CellType) -> Mask:
        """Ponds (``WATER``) or fields (``PARK``)."""
        return self.ponds if kind == CellType.WATER else self.fields


@dataclass(frozen=True, slots=True)
class Plan:
    """One placement with everything it builds; ``index`` points into the :class:`Candidates`."""

    index: int
    location: Cell
    rotation: int
    cells: Shape
    road: frozenset[Cell]
    water: frozenset[Cell] = frozenset()
    park: frozenset[Cell] = frozenset()

    def move(self) -> Move:
        """The plan as a move."""
        return Move.build(self.location, self.rotation, self.road, self.water, self.park)

    def extra_cells(self) -> int:
        """Cells of road, water and park this plan lays."""
        return len(self.road) + len(self.water) + len(self.park)


def diagonal_distance(c: Candidates, kind: Kind) -> NDArray[np.int32]:
    """Steps from the kind's home corner: residences count from the top-left, factories from the
    bottom-right (measured from the far corner of the building's box).

    >>> from gridarena.games.pentocity.buildings import rect
    >>> from gridarena.games.pentocity.land import empty_land
    >>> c = candidates(empty_land(), rect(1, 1), Pentocity())
    >>> int(diagonal_distance(c, Kind.FACTORY).min()), int(diagonal_distance(c, Kind.RESIDENCE).min())
    (0, 0)
    """
    if kind is Kind.RESIDENCE:
        return np.asarray(c.row + c.col, dtype=np.int32)
    last = SIDE - 1
    return np.asarray((last - (c.row + c.height - 1)) + (last - (c.col + c.width - 1)), dtype=np.int32)


def lexicographic(*keys: NDArray[Any]) -> Scores:
    """One score per placement that orders like the keys, first key first (higher is better).

    >>> lexicographic(np.array([1, 1, 0]), np.array([0, 2, 9])).argsort().tolist()
    [2, 0, 1]
    """
    score = np.zeros(keys[0].shape, dtype=np.float64)
    for key in keys:
        values = np.asarray(key, dtype=np.float64)
        # Dense ranks keep every key's order exact whatever its range.
        ranks = np.unique(values, return_inverse=True)[1]
        score = score * (int(ranks.max(initial=0)) + 1) + ranks
    return score


def lost_cells(land: Land) -> int:
    """EMPTY cells that no building will use: in empty regions too small for a pentomino, or cut off from
    the edge (no road can ever reach them through EMPTY and ROAD cells).

    >>> land = np.full((SIDE, SIDE), CellType.ROAD, dtype=np.uint8); land[0, :3] = CellType.EMPTY
    >>> lost_cells(land)
    3
    >>> land[:] = CellType.EMPTY; land[10:20, 10] = land[10:20, 19] = land[10, 10:20] = land[19, 10:20] = CellType.PARK
    >>> lost_cells(land)
    64
    """
    empty = land == CellType.EMPTY
    labels, count = ndimage.label(empty, structure=_FOUR)
    if count == 0:
        return 0
    sizes = np.bincount(labels.ravel())
    small = sizes < SMALL_REGION
    small[0] = False
    lost = small[labels]
    open_labels, _ = ndimage.label(empty | (land == CellType.ROAD), structure=_FOUR)
    reachable = np.unique(open_labels[_EDGE & (open_labels > 0)])
    lost |= empty & ~np.isin(open_labels, reachable)
    return int(lost.sum())


def pentocity_state(state: GameState[Any]) -> PentocityState:
    """``state`` as a Pentocity state with a pending request; TypeError otherwise."""
    if not isinstance(state, PentocityState) or state.request is None:
        raise TypeError("a Pentocity player needs a Pentocity state with a pending request")
    return state


class PlacementPlayer(BaseBot):
    """Base of the greedy players: rank all placements, plan the shortlist, keep the best plan.

    Subclasses write :meth:`rank`; they may override :meth:`extras` (water and parks) and :meth:`refine`.
    """

    name = "placement"
    shortlist = 1
    batches = 1
    good_enough = float("-inf")
    hug_roads = False

    def rank(self, c: Candidates, request: Building, land: Land) -> Scores:
        """One score per placement, higher is better."""
        raise NotImplementedError

    def extras(self, ctx: Context, request: Building, plan: Plan) -> Plan:
        """The plan with the water and parks this player adds (none by default)."""
        return plan

    def refine(self, ctx: Context, request: Building, plan: Plan, score: float) -> float:
        """The score of a fully planned placement (by default the ranking score)."""
        return score

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        """The best planned placement that the rules accept, or a rejection when nothing fits."""
        st = pentocity_state(state)
        request = st.request
        assert request is not None
        plans = self.plans(st.land, request, st.pentocity)
        for plan in plans:
            move = plan.move()
            # The rules have the last word: a plan they refuse (never seen so far) is skipped, not played.
            if not isinstance(resolve_move(st.land, request, move, st.pentocity.mode), Violation):
                return Decision(move, {"road_cells": len(plan.road), "extra_cells": plan.extra_cells()})
        return Decision(Move.reject())

    def plans(self, land: Land, request: Building, game: Pentocity) -> list[Plan]:
        """Planned placements, best first: the shortlist re-ordered by :meth:`refine`, widened batch by
        batch (up to ``batches``) while no plan scores above ``good_enough``."""
        maps = land_maps(land)
        c = candidates(land, request, game, maps)
        if len(c) == 0:
            return []
        score = self.rank(c, request, land)
        ctx = Context.of(land)
        planned: list[tuple[float, int, Plan]] = []
        order = np.argsort(-score, kind="stable")
        tried = 0
        for batch in range(self.batches):
            target = (batch + 1) * self.shortlist
            while len(planned) < target and tried < min(len(order), 4 * target):
                k = int(order[tried])
                tried += 1
                plan = self._road_plan(land, request, c, k, maps["distance"])
                if plan is None:
                    continue
                plan = self.extras(ctx, request, plan)
                planned.append((self.refine(ctx, request, plan, float(score[k])), -len(planned), plan))
            if planned and max(planned, key=lambda e: e[0])[0] > self.good_enough:
                break
        planned.sort(key=lambda entry: (entry[0], entry[1]), reverse=True)
        return [plan for _, _, plan in planned]

    def _road_plan(
        self, land: Land, request: Building, c: Candidates, k: int, distance: NDArray[np.int32]
    ) -> Plan | None:
        cells = c.cells(k, request)
        road: frozenset[Cell] | None = frozenset()
        if c.road[k] > 0:
            hug = land if self.hug_roads else None
            road = descend_road(distance, cells, hug) or shortest_road(land, cells)
        if road is None:
            return None
        return Plan(k, c.location(k), int(c.rotation[k]), cells, road)


class DiagonalPlayer(PlacementPlayer):
    """Residences as close to the top-left corner as they fit, factories to the bottom-right; fewer road
    cells break ties."""

    name = "diagonal"

    def rank(self, c: Candidates, request: Building, land: Land) -> Scores:
        return lexicographic(-diagonal_distance(c, request.kind), -c.road, -c.row)


class JigsawPlayer(PlacementPlayer):
    """Group 1's "jigsaw": the placement whose outline touches the most built or off-land cells, ties
    broken by the diagonal (closest to the kind's corner), then by fewer road cells."""

    name = "jigsaw"

    def rank(self, c: Candidates, request: Building, land: Land) -> Scores:
        return lexicographic(c.contact, -diagonal_distance(c, request.kind), -c.road)


class ComponentsPlayer(JigsawPlayer):
    """The jigsaw ranking, re-checked on a shortlist: a placement that cuts off small empty regions
    (where no pentomino fits any more) loses one contact per lost cell."""

    name = "components"
    shortlist = 6

    def refine(self, ctx: Context, request: Building, plan: Plan, score: float) -> float:
        after = after_plan(ctx.land, request, plan)
        return contact_of(ctx.land, plan) - (lost_cells(after) - ctx.lost) - 0.001 * len(plan.road)


class ShortRoadPlayer(JigsawPlayer):
    """The jigsaw's placement, with a shortest road chosen by perimeter: of the shortest roads, the one
    whose cells touch the most built cells, edge or building (it hugs the city instead of cutting across
    open land)."""

    name = "shortroad"
    hug_roads = True


class Group1Player(JigsawPlayer):
    """Group 1's final algorithm: the jigsaw placement; for residences, extend a pond and a field that
    are near, else grow new ones as the least-perimeter of several random walks."""

    name = "group1"
    walks = 8

    def extras(self, ctx: Context, request: Building, plan: Plan) -> Plan:
        if request.kind is not Kind.RESIDENCE:
            return plan
        return add_resorts(
            ctx, plan, lambda grid, cells, taken: walk_group(grid, cells, taken, self.rng, self.walks)
        )


def add_resorts(ctx: Context, plan: Plan, new_group: Any) -> Plan:
    """``plan`` with a pond and a field beside its building: an existing one extended by up to three
    cells when possible, else ``new_group(land, cells, taken)`` (or nothing when that is None)."""
    work = with_cells(ctx.land, plan.road, CellType.ROAD)
    taken = plan.road
    found: dict[CellType, frozenset[Cell]] = {}
    for kind in (CellType.WATER, CellType.PARK):
        # Roads and the other resort kind never change this kind's groups, so the move's masks hold.
        cells = extend_group(work, plan.cells, kind, taken, ctx.groups(kind))
        if cells is None:
            cells = new_group(work, plan.cells, taken) or frozenset()
        found[kind] = cells
        work = with_cells(work, cells, kind)
        taken = taken | cells
    return Plan(
        plan.index,
        plan.location,
        plan.rotation,
        plan.cells,
        plan.road,
        found[CellType.WATER],
        found[CellType.PARK],
    )


def after_plan(land: Land, request: Building, plan: Plan) -> Land:
    """The land after ``plan`` (unchecked: the plan came from valid candidates)."""
    out = np.array(land, copy=True)
    for cells, kind in ((plan.road, CellType.ROAD), (plan.water, CellType.WATER), (plan.park, CellType.PARK)):
        for cell in cells:
            out[cell] = kind
    building = CellType.RESIDENCE if request.kind is Kind.RESIDENCE else CellType.FACTORY
    for cell in plan.cells:
        out[cell] = building
    return out


def contact_of(land: Land, plan: Plan) -> int:
    """Cells of the building's outline that are built on, off the land, or laid by the plan itself (the
    readable twin of the ``contact`` feature when the plan lays nothing)."""
    own = set(plan.cells)
    laid = plan.road | plan.water | plan.park
    outline = {(i + di, j + dj) for i, j in plan.cells for di, dj in ((0, 1), (0, -1), (1, 0), (-1, 0))} - own
    return sum(
        1
        for a, b in outline
        if not (0 <= a < SIDE and 0 <= b < SIDE) or land[a, b] != _EMPTY or (a, b) in laid
    )


class PackerPlayer(PlacementPlayer):
    """Our player: a weighted value of every placement (points, bonuses within reach, perimeter
    contact, road and resort cells, distance from the kind's corner), then a planned shortlist where
    lost empty cells and the actual road, water and park cells are charged."""

    name = "packer"
    shortlist = 8
    batches = 5
    good_enough = 0.0
    road_weight = 1.0
    resort_weight = 1.0
    contact_weight = 0.6
    diagonal_weight = 1.0
    #: Scales the diagonal weight for 1 × 1 factories. Below 1 they fill holes wherever their pond, field
    #: and contact are best (a 1 × 1 needs no room), leaving the factory corner to the big ones.
    filler_diagonal = 1.0
    lost_weight = 1.0
    factory_resort_cells = 4

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.mode = Mode.FAITHFUL

    def rank(self, c: Candidates, request: Building, land: Land) -> Scores:
        value = request.size + self.contact_weight * c.contact - self.road_weight * c.road
        if self._bonus_for(request.kind):
            for cost in (c.water, c.park):
                value = value + np.maximum(0.0, 2.0 - self.resort_weight * cost)
        weight = self.diagonal_weight
        if request.kind is Kind.FACTORY and request.size == 1:
            weight *= self.filler_diagonal
        return np.asarray(value - weight * diagonal_distance(c, request.kind), dtype=np.float64)

    def _bonus_for(self, kind: Kind) -> bool:
        return kind is Kind.RESIDENCE or self.mode is Mode.FAITHFUL

    def extras(self, ctx: Context, request: Building, plan: Plan) -> Plan:
        if not self._bonus_for(request.kind):
            return plan
        full = add_resorts(ctx, plan, compact_group)
        if request.kind is Kind.FACTORY:
            # Caps what a factory's bonus may cost; the default (4) always lays it, which measured better:
            # the cells also fill the holes that rectangles leave.
            water = full.water if len(full.water) <= self.factory_resort_cells else frozenset()
            park = full.park if len(full.park) <= self.factory_resort_cells else frozenset()
            return Plan(plan.index, plan.location, plan.rotation, plan.cells, plan.road, water, park)
        return full

    def refine(self, ctx: Context, request: Building, plan: Plan, score: float) -> float:
        after = after_plan(ctx.land, request, plan)
        value = request.size + self.contact_weight * contact_of(ctx.land, plan)
        value -= self.road_weight * len(plan.road) + self.resort_weight * (len(plan.water) + len(plan.park))
        value -= self.lost_weight * (lost_cells(after) - ctx.lost)
        return value + _bonus_points(ctx, after, plan)

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        st = pentocity_state(state)
        self.mode = st.pentocity.mode
        return super().act(state, clock)


def _bonus_points(ctx: Context, after: Land, plan: Plan) -> float:
    """The bonus points the planned building earns (pond and field masks recomputed only when the plan
    laid cells of that kind)."""
    points = 0.0
    for kind, laid in ((CellType.WATER, plan.water), (CellType.PARK, plan.park)):
        groups = group_mask(after, kind) if laid else ctx.groups(kind)
        if any(groups[n] for c in plan.cells for n in _neighbours(c)):
            points += 2.0
    return points


def _neighbours(cell: Cell) -> list[Cell]:
    i, j = cell
    return [
        (a, b) for a, b in ((i, j + 1), (i, j - 1), (i + 1, j), (i - 1, j)) if 0 <= a < SIDE and 0 <= b < SIDE
    ]


def set_weights(player: PlacementPlayer, **weights: float) -> PlacementPlayer:
    """``player`` with class attributes (weights, ``shortlist``) overridden; SpecError for an unknown one.

    >>> set_weights(PackerPlayer(), shortlist=4).shortlist
    4
    """
    for key, value in weights.items():
        default = getattr(type(player), key, None)
        if key.startswith("_") or not isinstance(default, (int, float)):
            raise SpecError(f"pentocity player {player.name!r} has no parameter {key!r}")
        setattr(player, key, type(default)(value))
    return player
