"""Isolation as a learner sees it: one action per cell, three planes.

Actions: the cell, ``row * width + col`` (placements and knight jumps share the space: both enter a
cell), so ``width * height`` indices, 49 on the 7x7 board. Planes (``height`` x ``width``): the
observer's piece, the other piece, and every cell already entered (blocked, the pieces' cells included).

>>> from gridarena.core.registry import make
>>> view = IsolationView(make("isolation(width=3,height=3)"))
>>> pos = view.apply(view.start(view.game.new_initial_state()), 4)
>>> view.observation(pos, 1)[[1, 2]].astype(int).tolist()
[[[0, 0, 0], [0, 1, 0], [0, 0, 0]], [[0, 0, 0], [0, 1, 0], [0, 0, 0]]]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gridarena.adapters.views import Planes, View
from gridarena.core.types import Game, Player
from gridarena.games.isolation.rules import Cell, State

_BITS = bytes.maketrans(b"01", b"\x00\x01")


class IsolationView(View):
    """Cells as actions; planes: own piece, other piece, entered cells."""

    plane_names = ("own piece", "other piece", "entered")

    def __init__(self, game: Game[Any]) -> None:
        super().__init__(game)
        self.width, self.height = int(game.params["width"]), int(game.params["height"])
        self.num_actions = self.width * self.height
        self.shape = (self.height, self.width)

    def legal_indices(self, state: Any) -> list[int]:
        """The legal cells themselves (already ascending)."""
        legal: list[int] = state.legal_actions()
        return legal

    def encode(self, state: Any, action: Cell) -> int:
        return int(action)

    def decode(self, state: Any, index: int) -> Cell:
        return int(index)

    def planes(self, state: State, player: Player) -> Planes:
        """Own piece, other piece, entered cells."""
        n = self.num_actions
        cells = bytearray(2 * n) + format(state.blocked, f"0{n}b")[::-1].encode().translate(_BITS)
        for plane, seat in ((0, player), (1, 1 - player)):
            loc = state.locs[seat]
            if loc is not None:
                cells[plane * n + loc] = 1
        return np.frombuffer(cells, dtype=np.uint8).astype(np.float32).reshape(3, self.height, self.width)
