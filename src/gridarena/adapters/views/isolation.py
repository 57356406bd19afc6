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

from typing import Any, Final

import numpy as np

from gridarena.adapters.views import Planes, View
from gridarena.core.types import Game, Player
from gridarena.games.isolation.rules import Cell, State

_BYTE_FLOATS: Final = [
    np.unpackbits(np.array([byte], dtype=np.uint8), bitorder="little").astype(np.float32).tobytes()
    for byte in range(256)
]
"""The eight bits of each byte value as eight float32 0.0/1.0, lowest bit first (a bit board's
plane is then joined from these, no loop over cells)."""


class IsolationView(View):
    """Cells as actions; planes: own piece, other piece, entered cells."""

    plane_names = ("own piece", "other piece", "entered")

    def __init__(self, game: Game[Any]) -> None:
        super().__init__(game)
        self.width, self.height = int(game.params["width"]), int(game.params["height"])
        self.num_actions = self.width * self.height
        self.shape = (self.height, self.width)
        cells = self.num_actions
        zero, one = np.zeros(1, np.float32).tobytes(), np.ones(1, np.float32).tobytes()
        #: The float32 bytes of a plane with one piece on each cell, and (last) of an empty plane.
        self._piece = [zero * c + one + zero * (cells - 1 - c) for c in range(cells)] + [zero * cells]
        self._bytes = (cells + 7) // 8

    def legal_indices(self, state: Any) -> list[int]:
        """The legal cells themselves (already ascending)."""
        legal: list[int] = state.legal_actions()
        return legal

    def encode(self, state: Any, action: Cell) -> int:
        return int(action)

    def decode(self, state: Any, index: int) -> Cell:
        return int(index)

    def planes(self, state: State, player: Player) -> Planes:
        """Own piece, other piece, entered cells: joined as float32 bytes from tables (no per-cell loop)."""
        n, own, other = self.num_actions, state.locs[player], state.locs[1 - player]
        out = bytearray(self._piece[n if own is None else own])
        out += self._piece[n if other is None else other]
        out += b"".join(map(_BYTE_FLOATS.__getitem__, state.blocked.to_bytes(self._bytes, "little")))[: 4 * n]
        return np.frombuffer(out, dtype=np.float32).reshape(3, self.height, self.width)
