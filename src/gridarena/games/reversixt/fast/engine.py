"""The search's Python face: :class:`Engine` holds one map's board, table and weights, and deepens.

Iterative deepening runs in Python around the kernel (one call per depth): the previous depth's
move is searched first, and an interrupted depth still hands back its move when the first root
move (the previous best) was searched to the end and another beat it.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any, Final

import numpy as np

from gridarena.games.reversixt.fast import search as S
from gridarena.games.reversixt.fast.board import FastBoard
from gridarena.games.reversixt.fast.kernels import STEP
from gridarena.games.reversixt.fast.layout import BOMBS, COUNT, DISQ, OV, PHASE, P
from gridarena.games.reversixt.formats import CHOICE, HOLE, INVERSION, ReversiMap

MAX_DEPTH: Final = 64
"""Deepest iteration (a finished game stops the deepening sooner)."""
CORNER, EDGE_STABLE, EDGE, NEXT_TO_CORNER = 120, 32, 12, -40
"""Positional weights (a 64th of a late-game stone each): a field with no open axis (a corner),
with one, with two, and a field one step from a corner (it hands the corner over)."""


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What one search found: the move ``(x, y, special)`` (None without one), its value for the
    searcher, the deepest completed depth, nodes and seconds. ``partial``: the move comes from an
    interrupted deeper iteration, where it beat the previous depth's move searched before it."""

    move: tuple[int, int, int] | None
    score: int
    depth: int
    nodes: int
    seconds: float
    partial: bool = False


def field_weights(m: ReversiMap, step: np.ndarray) -> np.ndarray:
    """Static field values from the board's shape: fields that lines cannot pass through are stable.

    An axis (a direction and its opposite) is open at a field when ``step`` leads on both ways; a
    field with no open axis can never be flanked (a corner, also along transitions).
    """
    n = m.width * m.height
    weights = np.zeros(n, dtype=np.int32)
    axes = np.zeros(n, dtype=np.int32)
    for c in range(n):
        if m.cells[c] == HOLE:
            continue
        axes[c] = sum(1 for d in range(4) if step[c * 8 + d] >= 0 and step[c * 8 + d + 4] >= 0)
        weights[c] = (CORNER, EDGE_STABLE, EDGE, 0, 0)[axes[c]]
    for c in range(n):
        if m.cells[c] != HOLE and axes[c] == 0:
            for d in range(8):
                s = step[c * 8 + d]
                if s >= 0 and axes[s >> 3] > 0:
                    weights[s >> 3] = min(weights[s >> 3], NEXT_TO_CORNER)
    return weights


class Engine:
    """One map's fast board, transposition table and history, and the search options.

    ``mode``: ``"paranoid"`` or ``"brs"``; ``evaluation``: ``"strong"`` or ``"trivial"`` (ai_trivial's
    stone difference). ``tt_bits``: the table holds ``2**tt_bits`` entries. ``eliminate``: apply the
    elimination rule (:meth:`out_of_reach`) in the bomb phase. ``override_plies``: from this ply on,
    override moves are searched only by a player who has no other move (forward pruning; the
    default searches them everywhere). ``swap_weight``: the two-player swap term
    (:func:`.search.swap_term`) in quarters of its full weight (0: off). ``lmr``, ``lmr2``: late
    move reductions, by one ply from this move index of a node on, by two from ``lmr2`` on, at
    depth 3 (4) and more (0: none).
    """

    def __init__(
        self,
        m: ReversiMap,
        mode: str = "paranoid",
        evaluation: str = "strong",
        tt_bits: int = 20,
        mobility: int = 24,
        override_value: int = 300,
        bomb_value: int | None = None,
        eliminate: bool = True,
        override_plies: int = MAX_DEPTH + 2,
        swap_weight: int = 4,
        lmr: int = 0,
        lmr2: int = 0,
    ) -> None:
        self.map, self.eliminate = m, eliminate
        probe = FastBoard(m, max_ply=2)
        self.weights = field_weights(m, probe.geo[STEP])
        self.board = FastBoard(m, max_ply=MAX_DEPTH + 2, weights=self.weights)
        b = self.board
        self.keys = np.zeros(b.moves.shape, dtype=np.int64)
        self.frames = np.zeros((b.max_ply + 2, S.FRAME_FIELDS), dtype=np.int64)
        self.tt = np.zeros((1 << tt_bits, 3), dtype=np.int64)
        self.hist = np.zeros(b.n, dtype=np.int64)
        self.ign = np.zeros(9, dtype=np.int64)
        self.ctl = np.zeros(S.CTL_SLOTS, dtype=np.int64)
        self.ctl[S.MODE] = {"paranoid": S.PARANOID, "brs": S.BRS}[mode]
        self.ctl[S.EVAL] = {"strong": S.STRONG, "trivial": S.TRIVIAL}[evaluation]
        area = min(b.n, (2 * m.radius + 1) ** 2)
        self.area = area
        self.ctl[S.W_MOB], self.ctl[S.W_OV] = mobility, override_value
        self.ctl[S.W_BOMB] = 32 * area if bomb_value is None else bomb_value
        self.ctl[S.AREA] = area
        self.ctl[S.OVERRIDE_PLIES] = override_plies
        self.ctl[S.W_SWAP] = swap_weight
        self.ctl[S.LMR], self.ctl[S.LMR2] = lmr, lmr2
        self.swaps = np.array([c for c, v in enumerate(m.cells) if v in (CHOICE, INVERSION)], dtype=np.int64)
        self.ctl[S.MAXPLY] = b.max_ply - 1
        self.ctl[S.CHECK_EVERY] = max(8, min(256, 100_000 // max(b.n, 1)))

    def clear(self) -> None:
        """Forget the table and the history (a new game)."""
        self.tt[:] = 0
        self.hist[:] = 0

    def out_of_reach(self, root: int) -> np.ndarray:
        """The elimination rule: players whose stone gap to ``root`` no remaining bomb can close.

        Every bomb left in the game destroys at most ``area`` fields; a gap larger than all of
        them together cannot change places with the searcher, so the bomb-phase search ignores
        that player (his turns and his stones as targets).
        """
        st, p = self.board.st, self.map.players
        ign = np.zeros(9, dtype=np.int64)
        if st[PHASE] != 2 or not self.eliminate:
            return ign
        reach = self.area * sum(int(st[BOMBS + k]) for k in range(1, p + 1) if not st[DISQ + k])
        for k in range(1, p + 1):
            if k != root and abs(int(st[COUNT + k]) - int(st[COUNT + root])) > reach:
                ign[k] = 1
        return ign

    def search(
        self,
        state: Any,
        deadline: float | None = None,
        max_depth: int | None = None,
        nodes: int | None = None,
        cpu: bool = False,
    ) -> SearchResult:
        """Iterative deepening from a clear-rules state for its player to move, until the deadline
        (a ``time.perf_counter`` value, or with ``cpu`` a ``time.thread_time`` value), ``max_depth``
        plies or about ``nodes`` nodes."""
        start = time.perf_counter()
        b = self.board
        b.load(state)
        root = b.mover()
        if root == 0:
            return SearchResult(None, 0, 0, 0, 0.0)
        count = int(b.count[0])
        w = self.map.width
        packed = [int(m) for m in b.moves[0, :count]]
        ctl = self.ctl
        ctl[S.ROOT] = root
        ctl[S.NODES] = ctl[S.ABORT] = ctl[S.NEXT_CHECK] = 0
        ctl[S.NODE_LIMIT] = -1 if nodes is None else nodes
        ctl[S.CPU_CLOCK] = int(cpu)
        self.ign[:] = self.out_of_reach(root)
        best = (packed[0] & S.MOVE_MASK) | (root << S.MOVER_SHIFT)
        score, completed, partial = 0, 0, False
        limit = MAX_DEPTH if max_depth is None else max(1, min(max_depth, MAX_DEPTH))
        stop = math.inf if deadline is None else deadline
        self.hist //= 4
        for depth in range(1, limit + 1):
            ctl[S.ROOT_FIRST] = best
            ctl[S.ROOT_MOVE] = best
            ctl[S.HORIZON] = 0
            value = S.search(
                depth, b.cells, b.geo, b.st, b.clog, b.saves, b.wt, b.zc, b.zs, b.buf, b.marks, b.moves,
                self.keys, self.frames, self.tt, self.hist, ctl, self.ign, self.swaps, stop,
            )  # fmt: skip
            if ctl[S.ABORT]:
                if ctl[S.ROOT_DONE] >= 1 and int(ctl[S.ROOT_MOVE]) != best:
                    best, partial = int(ctl[S.ROOT_MOVE]), True
                break
            best, score, completed = int(ctl[S.ROOT_MOVE]), int(value), depth
            if not ctl[S.HORIZON]:  # every line reached the end of the game: deeper changes nothing
                break
        cell, special = (best & S.MOVE_MASK) >> 5, best & 31
        move = (cell % w, cell // w, special)
        return SearchResult(move, score, completed, int(ctl[S.NODES]), time.perf_counter() - start, partial)

    def stocks(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Override stones and bombs of players 1..p in the loaded position."""
        st, p = self.board.st, int(self.board.st[P])
        return tuple(int(st[OV + k]) for k in range(1, p + 1)), tuple(
            int(st[BOMBS + k]) for k in range(1, p + 1)
        )
