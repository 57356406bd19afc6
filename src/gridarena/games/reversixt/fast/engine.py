"""The search's Python face: :class:`Engine` holds one map's board, table and weights, and deepens.

Iterative deepening runs in Python around the kernel (one call per depth): the previous depth's
move is searched first, and an interrupted depth still hands back its move when the first root
move (the previous best) was searched to the end and another beat it.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

import numpy as np

from gridarena.games.reversixt.fast import layout as L
from gridarena.games.reversixt.fast import maxn as X
from gridarena.games.reversixt.fast import search as S
from gridarena.games.reversixt.fast.board import FastBoard
from gridarena.games.reversixt.fast.layout import BOMBS, COUNT, DISQ, OV, PHASE, P
from gridarena.games.reversixt.formats import BONUS, CHOICE, EMPTY, EXPANSION, HOLE, INVERSION, ReversiMap
from gridarena.games.reversixt.geometry import step_array
from gridarena.games.reversixt.timing import Budget, RootView, next_iteration_fits

MAX_DEPTH: Final = 64
"""Deepest iteration (a finished game stops the deepening sooner)."""
CORNER, EDGE_STABLE, EDGE, NEXT_TO_CORNER = 120, 32, 12, -40
"""Positional weights (a 64th of a late-game stone each): a field with no open axis (a corner),
with one, with two, and a field one step from a corner (it hands the corner over)."""


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What one search found: the move ``(x, y, special)`` (None without one), its value for the
    searcher, the deepest completed depth, nodes and seconds. ``partial``: the move comes from an
    interrupted deeper iteration, where it beat the previous depth's move searched before it.
    ``budget``: the time management's plan for this move, if any."""

    move: tuple[int, int, int] | None
    score: int
    depth: int
    nodes: int
    seconds: float
    partial: bool = False
    budget: Budget | None = None


def field_weights(m: ReversiMap, step: np.ndarray) -> np.ndarray:
    """``best_v1``'s static field values from the board's shape: fields that lines cannot pass through
    are stable.

    An axis (a direction and its opposite) is open at a field when ``step`` leads on both ways; a
    field with no open axis can never be flanked (a corner, also along transitions).
    """
    steps = step.reshape(m.width * m.height, 8)
    axes = open_axes(m, step)
    hole = np.frombuffer(m.cells, dtype=np.uint8) == HOLE
    weights: np.ndarray = np.array([CORNER, EDGE_STABLE, EDGE, 0, 0], dtype=np.int32)[axes]
    weights[hole] = 0
    near = steps[~hole & (axes == 0)].ravel()
    near = near[near >= 0] >> 3
    near = near[axes[near] > 0]
    weights[near] = np.minimum(weights[near], NEXT_TO_CORNER)
    return weights


MAP_FIELD_WEIGHTS: Final = (60, 16, 6, 0, 0)
"""The map-reading evaluation's static weights by open axes (0: a corner, 1, 2, 3, 4): smaller than
``best_v1``'s, since stability, frontier and the corner-adjacent term now say what they stood for."""
MAP_WEIGHTS: Final[dict[str, tuple[int, int]]] = {
    "stable": (48, 24),
    "frontier": (12, 4),
    "potential": (6, 2),
    "corner_next": (80, 20),
    "bonus": (150, 150),
    "mobility": (24, 24),
    "override": (300, 300),
}
"""The map-reading evaluation's (early, late) weights per term (:data:`.layout.TERMS`), in 64ths of a
late-game stone; tuned by SPRT over the 2-player competition maps (docs/reversixt.md)."""


def open_axes(m: ReversiMap, step: np.ndarray) -> np.ndarray:
    """Per field, how many of its four axes are open (``step`` leads on both ways); holes: 0."""
    steps = step.reshape(m.width * m.height, 8)
    axes: np.ndarray = ((steps[:, :4] >= 0) & (steps[:, 4:] >= 0)).sum(axis=1)
    return axes


def map_tables(m: ReversiMap, step: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The map-reading evaluation's static field weights (:data:`MAP_FIELD_WEIGHTS`) and its geometry
    array ``ev`` (:func:`.evaluate.features`): per field the steps that lead somewhere, the corners (no
    open axis), the (corner, neighbour with an open axis) pairs, the bonus fields, and the scratch rows
    of :data:`.layout.FEATURES`."""
    n = m.width * m.height
    steps = step.reshape(n, 8)
    axes = open_axes(m, step)
    field = np.frombuffer(m.cells, dtype=np.uint8) != HOLE
    weights: np.ndarray = np.array(MAP_FIELD_WEIGHTS, dtype=np.int32)[axes]
    weights[~field] = 0
    corners = np.flatnonzero(field & (axes == 0))
    near = steps[corners]
    pairs = sorted(
        {
            (int(c), int(s) >> 3)
            for c, row in zip(corners, near, strict=True)
            for s in row
            if s >= 0 and axes[s >> 3] > 0
        }
    )
    bonuses = np.flatnonzero(np.frombuffer(m.cells, dtype=np.uint8) == BONUS)
    ev = np.concatenate([
        (steps >= 0).sum(axis=1), [len(corners)], corners, [len(pairs)], np.array(pairs, dtype=np.int64).reshape(-1),
        [len(bonuses)], bonuses, np.zeros(9 * L.FEATURES, dtype=np.int64),
    ]).astype(np.int64)  # fmt: skip
    return weights, ev


class Engine:
    """One map's fast board, transposition table and history, and the search options.

    ``mode``: ``"paranoid"``, ``"brs"`` or ``"maxn"`` (:mod:`.maxn`); ``evaluation``: ``"map"`` (the map-reading evaluation,
    :func:`.evaluate.map_value`, with ``weights`` overriding :data:`MAP_WEIGHTS` per term), ``"strong"``
    (``best_v1``'s) or ``"trivial"`` (ai_trivial's stone difference). ``tt_bits``: the table holds ``2**tt_bits`` entries. ``eliminate``: apply the
    elimination rule (:meth:`out_of_reach`) in the bomb phase. ``override_plies``: from this ply on,
    override moves are searched only by a player who has no other move (forward pruning; the
    default searches them everywhere). ``swap_weight``: the two-player swap term
    (:func:`.evaluate.swap_term`) in quarters of its full weight (0: off). ``lmr``, ``lmr2``: late
    move reductions, by one ply from this move index of a node on, by two from ``lmr2`` on, at
    depth 3 (4) and more (0: none). ``rank_ref``: whom the searcher's value is measured against
    (:data:`.layout.RANK_REF`: his rank neighbours, the leader among the others, or their mean).
    ``static_leaves``: 1 evaluates paranoid and max^n leaves without the mover's mobility.
    ``apart``: in phase 1, players with no stone within this many steps of the searcher's group
    (:meth:`apart_from`) are passed over by the search and left out of his reference (0: never).
    ``survive``: 1 values a position where the searcher has no stone left, with three or more
    players, as a finished game in which he ranks last (:data:`.layout.SURVIVE`; 0: by his gap).
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
        weights: dict[str, tuple[int, int]] | None = None,
        swap_whole: int = 0,
        rank_ref: int = L.NEIGHBOURS,
        static_leaves: int = 0,
        apart: int = 0,
        survive: int = 0,
    ) -> None:
        self.map, self.eliminate = m, eliminate
        step = step_array(m)
        if evaluation == "map":
            self.weights, self.ev = map_tables(m, step)
        else:
            self.weights, self.ev = field_weights(m, step), np.zeros(1, dtype=np.int64)
        self.board = FastBoard(m, max_ply=MAX_DEPTH + 2, weights=self.weights)
        b = self.board
        self.keys = np.zeros(b.moves.shape, dtype=np.int64)
        self.frames = np.zeros((b.max_ply + 2, S.FRAME_FIELDS), dtype=np.int64)
        self.tt = np.zeros((1 << tt_bits, 3), dtype=np.int64)
        self.hist = np.zeros(b.n, dtype=np.int64)
        self.ign = np.zeros(9, dtype=np.int64)
        self.ctl = np.zeros(L.CTL_SLOTS, dtype=np.int64)
        self.ctl[L.MODE] = {"paranoid": L.PARANOID, "brs": L.BRS, "maxn": L.MAXN}[mode]
        self.vec = np.zeros((b.max_ply + 2, 2, 9), dtype=np.int64)  # max^n's value vectors
        self.ctl[L.EVAL] = {"strong": L.STRONG, "trivial": L.TRIVIAL, "map": L.MAP}[evaluation]
        self.ctl[L.SWAP_WHOLE] = swap_whole
        self.ctl[L.RANK_REF] = rank_ref
        self.ctl[L.STATIC_LEAVES] = static_leaves
        self.ctl[L.SURVIVE] = survive
        self.apart = apart if mode != "maxn" else 0  # max^n values every player: no one is apart
        scratch = b.n if self.apart else 0  # apart_from's search; none when it is off (maps up to 1000x1000)
        self._dist = np.zeros(scratch, dtype=np.int64)
        self._queue = np.zeros(scratch, dtype=np.int64)
        self._links = np.zeros((9, 9), dtype=np.int64)
        self._linked = False  # every player linked to the searcher's group: nothing to compute
        terms = {**MAP_WEIGHTS, **(weights or {})}
        for t, name in enumerate(L.TERMS):
            self.ctl[L.W2 + 2 * t], self.ctl[L.W2 + 2 * t + 1] = terms[name]
        area = min(b.n, (2 * m.radius + 1) ** 2)
        self.area = area
        self.ctl[L.W_MOB], self.ctl[L.W_OV] = mobility, override_value
        self.ctl[L.W_BOMB] = 32 * area if bomb_value is None else bomb_value
        self.ctl[L.AREA] = area
        self.ctl[L.OVERRIDE_PLIES] = override_plies
        self.ctl[L.W_SWAP] = swap_weight
        self.ctl[L.LMR], self.ctl[L.LMR2] = lmr, lmr2
        codes = np.frombuffer(m.cells, dtype=np.uint8)
        self.swaps = np.flatnonzero((codes == CHOICE) | (codes == INVERSION)).astype(np.int64)
        self.ctl[L.MAXPLY] = b.max_ply - 1
        self.ctl[L.CHECK_EVERY] = max(8, min(256, 100_000 // max(b.n, 1)))

    def clear(self) -> None:
        """Forget the table and the history (a new game)."""
        self.tt[:] = 0
        self.hist[:] = 0
        self._linked = False

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

    def apart_from(self, root: int) -> np.ndarray:
        """The players apart from ``root`` in the loaded position (1 at ``[k]``; :data:`.layout.APART`).

        Players are linked when a stone of one lies within ``apart`` steps (neighbours and
        transitions, over fields that are not holes) of a stone of the other; ``root``'s group is
        every player linked to him directly or through others, and the rest are apart: on a map
        where the players start on separate islands (``comp2024_04_8p``: players 1-4 and 5-8, about
        30 rows between them) no move of theirs can touch his stones within the search's horizon,
        so the search spends its plies on the players who can. Only in phase 1 (a bomb reaches any
        field), never with max^n, and never when ``apart`` is 0. Once every player is linked, the
        game's later searches skip the computation: phase 1 removes no stone (a capture only changes
        its colour), so the islands have met for good (a player captured down to his last stones
        stays counted as linked)."""
        b, p = self.board, self.map.players
        out = np.zeros(9, dtype=np.int64)
        if not self.apart or b.st[PHASE] != 1 or self._linked:
            return out
        S.reach_links(b.cells, b.geo, p, self.apart, self._dist, self._queue, self._links)
        links = self._links
        group, unvisited = {root}, [root]  # the players linked to root, and those whose links are unread
        while unvisited:
            i = unvisited.pop()
            for j in range(1, p + 1):
                if j not in group and (links[i, j] or links[j, i]):
                    group.add(j)
                    unvisited.append(j)
        for k in range(1, p + 1):
            out[k] = int(k not in group and not b.st[DISQ + k])
        self._linked = not out.any()  # stays so for the rest of phase 1 (until :meth:`clear`)
        return out

    def root_view(self, root: int, count: int) -> RootView:
        """What the time management looks at in the loaded position (its moves in row 0)."""
        b = self.board
        codes = np.bincount(b.cells, minlength=16)
        fields_left = int(codes[EMPTY] + codes[CHOICE] + codes[INVERSION] + codes[BONUS])
        stones = int(codes[1:9].sum())
        at = b.cells[b.moves[0, :count] >> 5]
        return RootView(
            phase=int(b.st[PHASE]),
            fields_left=fields_left,
            active=sum(1 for k in range(1, self.map.players + 1) if not b.st[DISQ + k]),
            bombs=int(b.st[BOMBS + root]),
            fill=stones / max(1, stones + fields_left),
            moves=count,
            override_moves=int(np.count_nonzero(((at >= 1) & (at <= 8)) | (at == EXPANSION))),
            swap_moves=int(np.count_nonzero((at == CHOICE) | (at == INVERSION))),
        )

    def search(
        self,
        state: Any,
        deadline: float | None = None,
        max_depth: int | None = None,
        nodes: int | None = None,
        cpu: bool = False,
        pace: Callable[[RootView], Budget | None] | None = None,
    ) -> SearchResult:
        """Iterative deepening from a clear-rules state for its player to move, until the deadline
        (a ``time.perf_counter`` value, or with ``cpu`` a ``time.thread_time`` value), ``max_depth``
        plies or about ``nodes`` nodes.

        ``pace`` (time management, :mod:`..timing`) sees the root and may set a budget: a target
        (a new iteration starts only when it is predicted to end before it,
        :func:`~..timing.next_iteration_fits`) and a hard stop before the deadline; a target of 0
        answers at once (one legal move)."""
        start = time.perf_counter()
        clock = time.thread_time if cpu else time.perf_counter
        began = clock()
        b = self.board
        b.load(state)
        root = b.mover()
        if root == 0:
            return SearchResult(None, 0, 0, 0, 0.0)
        count = int(b.count[0])
        w = self.map.width
        ctl = self.ctl
        ctl[L.ROOT] = root
        ctl[L.NODES] = ctl[L.ABORT] = ctl[L.NEXT_CHECK] = 0
        ctl[L.NODE_LIMIT] = -1 if nodes is None else nodes
        ctl[L.CPU_CLOCK] = int(cpu)
        self.ign[:] = self.out_of_reach(root)
        apart = self.apart_from(root)
        if not np.array_equal(apart[1:], ctl[L.APART + 1 : L.APART + 9]):
            self.tt[:] = 0  # the table's values measured R against another set of players
            ctl[L.APART : L.APART + 9] = apart
        best = (int(b.moves[0, 0]) & S.MOVE_MASK) | (root << S.MOVER_SHIFT)
        score, completed, partial = 0, 0, False
        limit = MAX_DEPTH if max_depth is None else max(1, min(max_depth, MAX_DEPTH))
        limit = min(limit, int(ctl[L.MAXPLY]))  # deeper iterations would stop at the arrays' last ply
        stop = math.inf if deadline is None else deadline
        target = math.inf
        budget = None if pace is None else pace(self.root_view(root, count))
        if budget is not None:
            if budget.target <= 0:
                limit = 0  # nothing to think about: the one move (or the table's best) at once
            target = began + budget.target
            stop = min(stop, began + budget.hard)
        self.hist //= 4
        last, before = 0.0, None  # the seconds of the last two completed iterations
        for depth in range(1, limit + 1):
            started = clock()
            ctl[L.ROOT_FIRST] = best
            ctl[L.ROOT_MOVE] = best
            ctl[L.HORIZON] = 0
            if ctl[L.MODE] == L.MAXN:
                value = X.maxn_search(
                    depth, b.cells, b.geo, b.st, b.clog, b.saves, b.wt, b.buf, b.marks, b.moves,
                    self.keys, self.frames, self.vec, self.hist, ctl, self.ign, self.swaps, self.ev, stop,
                )  # fmt: skip
            else:
                value = S.search(
                    depth, b.cells, b.geo, b.st, b.clog, b.saves, b.wt, b.zs, b.buf, b.marks, b.moves,
                    self.keys, self.frames, self.tt, self.hist, ctl, self.ign, self.swaps, self.ev, stop,
                )  # fmt: skip
            if ctl[L.ABORT]:
                if ctl[L.ROOT_DONE] >= 1 and int(ctl[L.ROOT_MOVE]) != best:
                    best, partial = int(ctl[L.ROOT_MOVE]), True
                break
            changed = int(ctl[L.ROOT_MOVE]) != best
            best, score, completed = int(ctl[L.ROOT_MOVE]), int(value), depth
            if not ctl[L.HORIZON]:  # every line reached the end of the game: deeper changes nothing
                break
            now = clock()
            last, before = now - started, (last if depth > 1 else None)
            if not next_iteration_fits(now - began, last, before, target - began, changed and depth > 1):
                break  # the next iteration would not end before the target
        cell, special = (best & S.MOVE_MASK) >> 5, best & 31
        move = (cell % w, cell // w, special)
        seconds = time.perf_counter() - start
        return SearchResult(move, score, completed, int(ctl[L.NODES]), seconds, partial, budget)

    def stocks(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Override stones and bombs of players 1..p in the loaded position."""
        st, p = self.board.st, int(self.board.st[P])
        return tuple(int(st[OV + k]) for k in range(1, p + 1)), tuple(
            int(st[BOMBS + k]) for k in range(1, p + 1)
        )
