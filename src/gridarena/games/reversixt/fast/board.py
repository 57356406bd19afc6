"""The fast engine's Python face: :class:`FastBoard` holds one map's tables and a position's arrays.

It loads a position (a map's start or a clear-rules state), runs perft, lists moves and plays
them, so the tests can hold the kernels to the clear rules move by move.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from gridarena.games.reversixt.fast import kernels as K
from gridarena.games.reversixt.fast.layout import (
    BOMBS,
    COUNT,
    CTOP,
    DISQ,
    HASH,
    LAST,
    NONHOLE,
    OV,
    OVER,
    PHASE,
    POS,
    RADIUS,
    SLOTS,
    P,
    geometry,
    status_keys,
)
from gridarena.games.reversixt.formats import BONUS, CHOICE, HOLE, ReversiMap

Move = tuple[int, int, int]
"""``(x, y, special)``, as the clear rules' actions."""

MAX_PLY: Final = 128
"""The deepest ply the arrays hold (perft and search)."""
PLY_MEMORY: Final = 96 << 20
"""Bytes for the arrays that grow with the plies (moves, their sort keys, the change log): on a large
board fewer plies fit (a 1000 x 1000 board holds 4), so the memory stays bounded on every legal map."""


def pack(cell: int, special: int) -> int:
    """A move as the kernels pack it.

    >>> pack(3, 20) >> 5, pack(3, 20) & 31
    (3, 20)
    """
    return (cell << 5) | special


class FastBoard:
    """One map's tables and the arrays of one position, changed in place by the kernels.

    ``weights`` are per-field values the search's evaluation sums per player (kept incrementally
    in ``st[POS + k]``); zeros by default.
    """

    def __init__(self, m: ReversiMap, max_ply: int = MAX_PLY, weights: np.ndarray | None = None) -> None:
        self.map = m
        self.n = n = m.width * m.height
        plain, trans = geometry(m)
        self.geo = np.zeros((4, n * 8), dtype=np.int32)
        self.geo[K.PLAIN], self.geo[K.TRANS] = plain, trans
        self.cells = np.frombuffer(m.cells, dtype=np.uint8).copy()
        self.zs = status_keys()
        self.wt = np.zeros(n, dtype=np.int32) if weights is None else weights.astype(np.int32)
        choices, bonuses = m.cells.count(CHOICE), m.cells.count(BONUS)
        self.width = n + choices * (m.players - 1) + bonuses + 8
        per_ply = 12 * self.width + 4 * (2 * n + 2)  # moves (int32), the search's keys (int64), clog (int32)
        self.max_ply = max(2, min(max_ply, PLY_MEMORY // per_ply - 2))
        self.moves = np.zeros((self.max_ply + 2, self.width), dtype=np.int32)
        self.count = np.zeros(self.max_ply + 2, dtype=np.int64)
        self.index = np.zeros(self.max_ply + 2, dtype=np.int64)
        self.movers = np.zeros(self.max_ply + 2, dtype=np.int64)
        self.saves = np.zeros((self.max_ply + 2, SLOTS), dtype=np.int64)
        self.clog = np.zeros((self.max_ply + 2) * (2 * n + 2), dtype=np.int32)  # cell << 8 | code < 2**28
        self.buf = np.zeros(8 * n + 16, dtype=np.int32)
        self.marks = np.zeros(n + 1, dtype=np.int32)
        self.st = np.zeros(SLOTS, dtype=np.int64)
        self.load_start()

    # ---- loading -------------------------------------------------------------------------------

    def load_start(self) -> None:
        """The map's initial position."""
        p = self.map.players
        self._load(self.map.cells, (self.map.overrides,) * p, (self.map.bombs,) * p, (False,) * p, 1, p)

    def load(self, state: Any) -> None:
        """A clear-rules state (``cells``, ``overrides``, ``bombs``, ``disqualified``, ``phase``, ``last``)."""
        disq = tuple(d is not None for d in state.disqualified)
        self._load(state.cells, state.overrides, state.bombs, disq, state.phase, state.last)

    def _load(
        self,
        cells: bytes,
        overrides: tuple[int, ...],
        bombs: tuple[int, ...],
        disq: tuple[bool, ...],
        phase: int,
        last: int,
    ) -> None:
        st, p = self.st, self.map.players
        self.cells[:] = np.frombuffer(cells, dtype=np.uint8)
        K.rebuild(self.cells, self.geo)
        st[:] = 0
        st[P], st[RADIUS], st[PHASE], st[LAST] = p, self.map.radius, phase, last
        for k in range(1, p + 1):
            st[OV + k], st[BOMBS + k], st[DISQ + k] = overrides[k - 1], bombs[k - 1], int(disq[k - 1])
            mine = self.cells == k
            st[COUNT + k] = int(mine.sum())
            st[POS + k] = int(self.wt[mine].sum())
        st[NONHOLE] = int((self.cells != HOLE).sum())
        st[HASH] = K.hash_cells(self.cells)
        st[CTOP] = 0

    # ---- rules -----------------------------------------------------------------------------------

    def mover(self) -> int:
        """The player to move (1..p), 0 when the game is over; his moves wait in row 0."""
        return int(K.advance(self.cells, self.geo, self.st, self.moves, 0, self.count))

    @property
    def phase(self) -> int:
        """1, 2, or 3 (over), as far as :meth:`mover` has found out."""
        return int(self.st[PHASE])

    def legal_moves(self) -> tuple[int, list[Move]]:
        """The player to move and his moves as ``(x, y, special)``, sorted like the clear rules' actions."""
        k = self.mover()
        w = self.map.width
        moves = [(int(m >> 5) % w, int(m >> 5) // w, int(m & 31)) for m in self.moves[0, : self.count[0]]]
        return k, sorted(moves)

    def play(self, move: Move) -> int:
        """Play ``(x, y, special)`` for the player to move (unchecked, not undoable); returns that player."""
        k = self.mover()
        x, y, special = move
        K.make(
            pack(y * self.map.width + x, special), k, 0, self.cells, self.geo, self.st, self.clog,
            self.saves, self.wt, self.buf, self.marks,
        )  # fmt: skip
        self.st[CTOP] = 0  # nothing to undo at the root
        return k

    def perft(self, depth: int) -> int:
        """Leaves of the move tree ``depth`` plies down (phase-1 moves with every special byte, bombs)."""
        if depth > self.max_ply:
            raise ValueError(f"reversixt perft: depth {depth} exceeds this board's {self.max_ply} plies")
        saved = self.st.copy()
        try:
            leaves = K.perft_loop(
                depth, self.cells, self.geo, self.st, self.clog, self.saves, self.wt,
                self.buf, self.marks, self.moves, self.count, self.index, self.movers,
            )  # fmt: skip
            return int(leaves)
        finally:
            self.st[:] = saved

    def stones(self) -> tuple[int, ...]:
        """Stones of players 1..p."""
        return tuple(int(self.st[COUNT + k]) for k in range(1, self.map.players + 1))

    def snapshot(self) -> dict[str, Any]:
        """The position as plain values (cells, stocks, phase, last), to compare with the clear rules."""
        p = self.map.players
        return {
            "cells": self.cells.tobytes(),
            "overrides": tuple(int(self.st[OV + k]) for k in range(1, p + 1)),
            "bombs": tuple(int(self.st[BOMBS + k]) for k in range(1, p + 1)),
            "phase": int(self.st[PHASE]),
            "last": int(self.st[LAST]),
        }


def perft(position: ReversiMap | Any, depth: int) -> int:
    """Leaves of the move tree of a map's start or of a clear-rules state, by the fast kernels.

    >>> from gridarena.games.reversixt.formats import parse_map
    >>> othello = "2 0 0 0 8 8 " + "0 " * 27 + "2 1 " + "0 " * 6 + "1 2 " + "0 " * 27
    >>> [perft(parse_map(othello), d) for d in range(1, 5)]
    [4, 12, 56, 244]
    """
    if isinstance(position, ReversiMap):
        return FastBoard(position, max_ply=depth + 1).perft(depth)
    board = FastBoard(position.game.board, max_ply=depth + 1)
    board.load(position)
    return board.perft(depth)


__all__ = ["OVER", "FastBoard", "perft"]
