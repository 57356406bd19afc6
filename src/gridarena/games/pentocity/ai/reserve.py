"""Keep room for the largest factory: the packer, charged for the places of a big factory it builds over.

Late in a game the third rejection ends it, and the requests rejected first are the big factories (a 5 × 5
needs a 5 × 5 hole away from residences): with g5's or g3's stream a game used to end with 150 to 350 EMPTY
cells, room for twenty or more residences. So while few places for the largest factory seen so far are left,
each plan pays for the places it takes away, and smaller buildings go elsewhere while they can.

>>> from gridarena.games.pentocity.buildings import rect
>>> from gridarena.games.pentocity.land import empty_land
>>> big_places(empty_land(), rect(5, 5))
100
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gridarena.core.bot import Decision
from gridarena.core.clock import TimeControl
from gridarena.core.types import Game, GameState, Player
from gridarena.games.pentocity.ai.greedy import Context, PackerPlayer, Plan, after_plan, pentocity_state
from gridarena.games.pentocity.ai.simple import window_all
from gridarena.games.pentocity.buildings import Building, Kind, Shape
from gridarena.games.pentocity.land import SIDE, Land, Mask, buildable_cells


def big_places(land: Land, factory: Building, limit: int = SIDE * SIDE) -> int:
    """Places for ``factory`` that do not overlap: greedily, row by row, over its best rotation, counted
    up to ``limit``. Road access is not checked, since nearly every EMPTY region can still be reached.

    >>> from gridarena.games.pentocity.buildings import rect
    >>> from gridarena.games.pentocity.land import CellType, empty_land
    >>> land = np.asarray(empty_land()).copy(); land[:, 7:] = CellType.ROAD
    >>> big_places(land, rect(5, 5)), big_places(land, rect(2, 5)), big_places(land, rect(1, 1))
    (10, 30, 350)
    >>> big_places(land, rect(1, 1), limit=10)
    10
    """
    ok = buildable_cells(land, Kind.FACTORY)
    return max(_disjoint(window_all(ok, shape), shape, limit) for shape in factory.rotations())


def _disjoint(corners: Mask, shape: Shape, limit: int) -> int:
    """Greedy count, up to ``limit``, of corners whose boxes do not overlap (each pick rules out the
    boxes it meets)."""
    h, w = max(i for i, _ in shape) + 1, max(j for _, j in shape) + 1
    left = corners.copy()
    count = 0
    while count < limit:
        flat = int(np.argmax(left))
        i, j = divmod(flat, left.shape[1])
        if not left[i, j]:
            return count
        count += 1
        left[max(0, i - h + 1) : i + h, max(0, j - w + 1) : j + w] = False
    return count


def big_cover(land: Land, factory: Building) -> int:
    """EMPTY cells that some place of ``factory`` (any rotation, road access not checked) would cover.

    >>> from gridarena.games.pentocity.buildings import rect
    >>> from gridarena.games.pentocity.land import CellType, empty_land
    >>> land = np.asarray(empty_land()).copy(); land[:, 7:] = CellType.ROAD
    >>> big_cover(land, rect(5, 5)), big_cover(land, rect(8, 5)), big_cover(land, rect(8, 8))
    (350, 350, 0)
    >>> land[2, 3] = CellType.RESIDENCE; big_cover(land, rect(5, 5))  # 5 cells barred, 23 stranded
    322
    """
    ok = buildable_cells(land, Kind.FACTORY)
    covered = np.zeros((SIDE, SIDE), dtype=bool)
    for shape in factory.rotations():
        corners = window_all(ok, shape)
        for di, dj in shape:
            covered[di : di + corners.shape[0], dj : dj + corners.shape[1]] |= corners
    return int(covered.sum())


class ReservePacker(PackerPlayer):
    """The packer, charged ``reserve_weight`` per place of the largest factory seen so far that a plan
    takes away, for as long as fewer than ``reserve_places`` such places are left, and ``cover_weight``
    (0 here; ``bands`` sets it) per EMPTY cell that the plan leaves outside every place of that factory."""

    name = "reserve"
    reserve_weight = 10.0
    reserve_places = 10
    cover_weight = 0.0

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.big: Building | None = None
        self.places = 0
        self.cover = 0

    def reset(self, game: Game[Any], seat: Player, seed: int) -> None:
        super().reset(game, seat, seed)
        self.big = None

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        st = pentocity_state(state)
        request = st.request
        assert request is not None
        if st.requests <= 1:
            self.big = None
        if request.kind is Kind.FACTORY and (self.big is None or request.size > self.big.size):
            self.big = request
        self.places = 0 if self.big is None else big_places(st.land, self.big, self.reserve_places)
        self.cover = 0 if self.big is None or not self.cover_weight else big_cover(st.land, self.big)
        return super().act(state, clock)

    def refine(self, ctx: Context, request: Building, plan: Plan, score: float) -> float:
        value = super().refine(ctx, request, plan, score)
        if self.big is None:
            return value
        land = after_plan(ctx.land, request, plan)
        if self.cover_weight:
            value -= self.cover_weight * (self.cover - big_cover(land, self.big))
        # Counted from reserve_places down: taking places away from a large supply costs nothing.
        after = big_places(land, self.big, self.reserve_places)
        lost = min(self.places, self.reserve_places) - min(after, self.reserve_places)
        return value - self.reserve_weight * max(0, lost)
