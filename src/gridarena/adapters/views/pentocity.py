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

from typing import Any

import numpy as np

from gridarena.adapters.views import Mask, Planes, Position, View, one_hot
from gridarena.core.types import CHANCE, Game, Player
from gridarena.games.pentocity.buildings import Kind
from gridarena.games.pentocity.encoding import (
    PLACEMENT_ACTIONS,
    REJECT,
    index_to_move,
    move_to_index,
    placement_mask,
)
from gridarena.games.pentocity.land import SIDE, CellType, Move
from gridarena.games.pentocity.placement import has_road_access
from gridarena.games.pentocity.rules import PentocityState


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

    def legal_indices(self, state: Any) -> list[int]:
        """The indices the encoding's mask allows."""
        return [int(i) for i in np.flatnonzero(placement_mask(state))]

    def mask(self, pos: Position) -> Mask:
        if pos.now.current_player() == CHANCE or pos.now.is_terminal():
            return np.zeros(self.num_actions, dtype=np.int8)
        mask: Mask | None = pos.memo.get("mask")
        if mask is None:
            mask = pos.memo["mask"] = placement_mask(pos.now)  # type: ignore[arg-type]
            pos.memo["legal"] = [int(i) for i in np.flatnonzero(mask)]
        return mask

    def legal(self, pos: Position) -> list[int]:
        if pos.now.current_player() == CHANCE or pos.now.is_terminal():
            return super().legal(pos)
        self.mask(pos)
        legal: list[int] = pos.memo["legal"]
        return legal

    def index_text(self, pos: Position, index: int) -> str:
        """``reject``, or ``row,col rotation`` with `` +road`` when the placement needs the shortest road
        (named, not laid: listing every legal action must not search every road)."""
        state = pos.now
        if state.current_player() == CHANCE or index == REJECT:
            return super().index_text(pos, index)
        rotation, corner = divmod(index - 1, SIDE * SIDE)
        (row, col), request = divmod(corner, SIDE), state.request  # type: ignore[attr-defined]
        road = ""
        if request is not None and rotation < len(request.rotations()):
            shape = request.rotations()[rotation]
            road = "" if has_road_access(state.land, shape, (row, col), self.game.mode) else " +road"  # type: ignore[attr-defined]
        return f"{row},{col} r{rotation}{road}"

    def encode(self, state: Any, action: Move) -> int:
        return move_to_index(action)

    def decode(self, state: Any, index: int) -> Move:
        return index_to_move(state, index)

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
        out[: len(CellType)] = one_hot(state.land, tuple(CellType))
        if state.request is not None:
            for r, shape in enumerate(state.request.rotations()):
                rows, cols = zip(*shape, strict=True)
                out[len(CellType) + r, list(rows), list(cols)] = 1.0
            out[-1] = state.request.kind is Kind.FACTORY
        return out
