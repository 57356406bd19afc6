"""Pentocity as a learner sees it: reject or place (with the shortest road), eleven 50x50 planes.

Actions: the game's placement encoding (:mod:`gridarena.games.pentocity.encoding`): 0 rejects, ``1 +
rotation * 2500 + row * 50 + col`` places the request with the shortest road it needs; 10,001 indices.
The request comes from a chance node (one outcome, probability 1), which the environments deal.
Planes (50 x 50): one per cell type (empty, residence, factory, water, park, road), the request's
rotations 0-3 drawn from the top-left corner (empty for a rotation it does not have), and a constant
plane that is 1 for a factory. The score is the points so far, so rewards are the points of each
placement, and it ends at the game's return (which is 0 after an invalid move, as the simulator's).

>>> from gridarena.core.registry import make
>>> view = PentocityView(make("pentocity(sequencer=g6)"))
>>> pos = view.start(view.game.new_initial_state(seed=1))
>>> view.current_player(pos), view.legal(pos)
(-1, [0])
>>> pos = view.apply(pos, 0)
>>> view.num_actions, int(view.mask(pos).sum()) > 1000, view.observation(pos, 0).shape
(10001, True, (11, 50, 50))
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from gridarena.adapters.views import Mask, Planes, Position, View, code_planes
from gridarena.core.types import Game, Player
from gridarena.games.pentocity.buildings import Kind
from gridarena.games.pentocity.encoding import (
    PLACEMENT_ACTIONS,
    REJECT,
    index_to_move,
    move_to_index,
    placement_table,
)
from gridarena.games.pentocity.land import SIDE, CellType, Move
from gridarena.games.pentocity.placement import has_road_access
from gridarena.games.pentocity.rules import PentocityState

_PLACES: Final = ["reject"] + [
    f"{row},{col} r{rotation}" for rotation in range(4) for row in range(SIDE) for col in range(SIDE)
]
"""The text of each index without its road (``row,col rotation``), made once."""


class PentocityView(View):
    """Placements as actions; planes: cell types, the request's rotations, factory or not."""

    num_actions = PLACEMENT_ACTIONS
    max_chance_outcomes = 1
    shape = (SIDE, SIDE)
    plane_names = (
        *(f"{t.name.lower()} cells" for t in CellType),
        *(f"request rotation {r}" for r in range(4)),
        "request is a factory",
    )

    def __init__(self, game: Game[Any]) -> None:
        super().__init__(game)
        self.cell_types = code_planes(tuple(CellType))

    def cached_mask(self, pos: Position) -> Mask:
        """The encoding's mask of valid placements (zeros at a chance node and at the end), made once
        per position and kept with it, with which of them need no road (for ``apply`` and
        ``index_text``): not to be written into."""
        mask: Mask | None = pos.memo.get("mask")
        if mask is None:
            if pos.player != 0:
                mask = np.zeros(self.num_actions, dtype=np.int8)
            else:
                mask, pos.memo["no road"] = placement_table(pos.now)  # type: ignore[arg-type]
            pos.memo["mask"] = mask
        return mask

    def mask(self, pos: Position) -> Mask:
        """A copy of :meth:`cached_mask` (the caller's own)."""
        return self.cached_mask(pos).copy()

    def legal(self, pos: Position) -> list[int]:
        """The mask's indices (a chance node's outcome, or none at the end)."""
        if pos.player != 0:
            return super().legal(pos)
        legal: list[int] | None = pos.memo.get("legal")
        if legal is None:
            legal = pos.memo["legal"] = np.flatnonzero(self.cached_mask(pos)).tolist()
        return legal

    def is_legal(self, pos: Position, index: int) -> bool:
        """The mask's entry (thousands of placements are legal: no list is searched)."""
        if pos.player != 0:
            return super().is_legal(pos, index)
        return 0 <= index < self.num_actions and bool(self.cached_mask(pos)[index])

    def index_text(self, pos: Position, index: int) -> str:
        """``reject``, or ``row,col rotation`` with `` +road`` when the placement needs the shortest road
        (named, not laid: a legal index reads the position's table, so OpenSpiel's listing of
        thousands of them searches no road and tests no access)."""
        state = pos.now
        if pos.player != 0 or index == REJECT or not 0 <= index < self.num_actions:
            return super().index_text(pos, index)
        assert isinstance(state, PentocityState) and state.request is not None
        roads: bytes | None = pos.memo.get("roads")
        if roads is None:  # per index: 0 not legal, 1 legal as it is, 2 legal with a road
            mask = self.cached_mask(pos)
            roads = pos.memo["roads"] = (mask + (mask & ~pos.memo["no road"])).tobytes()
        if roads[index]:
            return _PLACES[index] if roads[index] == 1 else _PLACES[index] + " +road"
        rotation, corner = divmod(index - 1, SIDE * SIDE)
        rotations = state.request.rotations()
        if rotation >= len(rotations):
            return _PLACES[index]
        access = has_road_access(state.land, rotations[rotation], divmod(corner, SIDE), state.pentocity.mode)
        return _PLACES[index] if access else _PLACES[index] + " +road"

    def encode(self, state: Any, action: Move) -> int:
        return move_to_index(action)

    def decode(self, state: Any, index: int) -> Move:
        return index_to_move(state, index)

    def apply(self, pos: Position, index: int) -> Position:
        """The placement (with its road, the table saying whether it needs one), or the request."""
        if pos.player != 0 or not self.is_legal(pos, index):
            return super().apply(pos, index)
        state = pos.now
        move = index_to_move(state, index, bool(pos.memo["no road"][index]))  # type: ignore[arg-type]
        return self.start(state.child(move))

    running_score = True

    def score(self, pos: Position, player: Player) -> float:
        """The points so far; the game's return at the end."""
        state = pos.state
        assert isinstance(state, PentocityState)
        return state.returns()[0] if state.is_terminal() else float(state.score)

    def utility_range(self) -> tuple[float, float]:
        """0 to 5 points a cell of land (a building of size s scores at most s + 4)."""
        return (0.0, 5.0 * SIDE * SIDE)

    def planes(self, state: PentocityState, player: Player) -> Planes:
        """Cell types, the request's rotations, factory or not."""
        out = np.zeros((len(self.plane_names), SIDE, SIDE), dtype=np.float32)
        np.equal(state.land, self.cell_types, out=out[: len(CellType)])
        if state.request is not None:
            for r, shape in enumerate(state.request.rotations()):
                rows, cols = zip(*shape, strict=True)
                out[len(CellType) + r, list(rows), list(cols)] = 1.0
            out[-1] = state.request.kind is Kind.FACTORY
        return out
