"""The fast engine's Python face: :class:`Engine` holds one board size's tables and runs the kernels.

It also holds the readable twins of the search (the tests' oracles).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from gridarena.games.isolation.fast import control
from gridarena.games.isolation.fast.movegen import (
    MAX_CELLS,
    mask_table,
    neighbour_table,
    perft_words,
    popcount,
    split,
    to_words,
)
from gridarena.games.isolation.fast.search import (
    FRAME_FIELDS,
    INF,
    MAX_PLY,
    OPP_WEIGHT,
    OWN_WEIGHT,
    WIN,
    WON,
    negamax,
    root_hash,
    zobrist_keys,
)
from gridarena.games.isolation.rules import Cell, State


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What a search found: the move (a row-major cell, -1 if none), its score for the mover, depth, nodes.

    ``history`` holds the root move of every completed depth (``history[d - 1]``: depth ``d``'s move).
    """

    move: Cell
    score: int
    depth: int
    nodes: int
    seconds: float
    history: tuple[Cell, ...] = ()

    @property
    def proven(self) -> bool:
        """Whether the score is a proven win or loss."""
        return abs(self.score) >= WON


class Engine:
    """The tables and the transposition table of one board size; :meth:`search` runs the kernels.

    ``tt_bits``: the table holds ``2**tt_bits`` entries (0 disables it). ``endgame``: solve
    separated positions by longest paths, when both path bounds are at most ``path_max`` and each
    path search needs at most ``path_budget`` nodes. ``weights``: leaf value ``own*w0 - opp*w1``.
    """

    def __init__(
        self,
        width: int = 7,
        height: int = 7,
        tt_bits: int = 16,
        endgame: bool = True,
        path_budget: int = 20_000,
        path_max: int = 40,
        sep_depth: int = 7,
        weights: tuple[int, int] = (OWN_WEIGHT, OPP_WEIGHT),
    ) -> None:
        if width * height > MAX_CELLS:
            raise ValueError(f"isolation fast engine: {width}x{height} has more than {MAX_CELLS} cells")
        self.width, self.height = width, height
        self.nbr = neighbour_table(width, height)
        self.masks = mask_table(width, height)
        self.keys = zobrist_keys(width * height)
        lo, hi = split(sum(1 << c for c in range(width * height) if (c // width + c % width) % 2))
        self.dark = np.array([lo, hi], dtype=np.uint64)
        # np.full writes every page now, so the first search does not pay the page faults.
        self.tt = np.full((1 << max(tt_bits, 0), 2), 0, dtype=np.int64)
        self.ctl = np.zeros(control.SLOTS, dtype=np.int64)
        self.ctl[control.USE_TT] = int(tt_bits > 0)
        self.ctl[control.USE_ENDGAME] = int(endgame)
        self.ctl[control.PATH_BUDGET], self.ctl[control.PATH_MAX], self.ctl[control.SEP_DEPTH] = (
            path_budget,
            path_max,
            sep_depth,
        )
        self.ctl[control.OWN_W], self.ctl[control.OPP_W] = weights
        self.stack = np.empty((MAX_PLY, 2 * MAX_CELLS), dtype=np.int64)
        self.frames = np.zeros((MAX_PLY, FRAME_FIELDS), dtype=np.int64)
        self.words = np.zeros((MAX_PLY, 2), dtype=np.uint64)
        self.path = np.zeros((2, MAX_CELLS + 1), dtype=np.int64)
        self.path_words = np.zeros((2, MAX_CELLS + 1), dtype=np.uint64)

    def clear(self) -> None:
        """Forget the transposition table (a new game)."""
        self.tt[:, 0] = 0

    def _check(self, state: State) -> None:
        if (state.width, state.height) != (self.width, self.height):
            raise ValueError(
                f"isolation fast engine: built for {self.width}x{self.height}, got {state.width}x{state.height}"
            )

    def perft(self, state: State, depth: int) -> int:
        """Leaf count of the game tree ``depth`` plies below ``state``."""
        self._check(state)
        lo, hi, loc0, loc1 = to_words(state)
        me, other = (loc0, loc1) if state.ply % 2 == 0 else (loc1, loc0)
        return int(perft_words(lo, hi, me, other, self.nbr, depth))

    def _root(self, state: State, nodes: int | None) -> _Root:
        """Reset the counters and limits for a search of ``state``; its words, side, locations and hash."""
        self._check(state)
        lo, hi, loc0, loc1 = to_words(state)
        side, locs = state.ply % 2, (loc0, loc1)
        ctl = self.ctl
        ctl[
            [
                control.NODES,
                control.ABORT,
                control.ENDGAME_CALLS,
                control.ENDGAME_SOLVED,
                control.NEXT_CHECK,
                control.PATH_STEPS,
            ]
        ] = 0
        ctl[control.NODE_LIMIT] = -1 if nodes is None else nodes
        ctl[control.ROOT_SIDE] = side
        h = root_hash(lo, hi, np.array(locs, dtype=np.int64), side, self.keys, self.width * self.height)
        return _Root(lo, hi, locs[side], locs[1 - side], side, h, popcount(lo) + popcount(hi))

    def _negamax(self, root: _Root, depth: int, deadline: float, alpha: int, beta: int) -> int:
        return int(
            negamax(
                root.lo, root.hi, root.me, root.other, root.side, depth, root.hash, self.masks, self.nbr,
                self.keys, self.tt, self.stack, self.frames, self.words, self.dark, self.path,
                self.path_words, self.ctl, deadline, alpha, beta,
            )
        )  # fmt: skip

    def search(
        self,
        state: State,
        deadline: float | None = None,
        max_depth: int | None = None,
        nodes: int | None = None,
    ) -> SearchResult:
        """Iterative deepening until ``deadline`` (a ``time.perf_counter`` value), ``max_depth`` or ``nodes``.

        Returns the move of the last completed depth. Deterministic when only ``max_depth`` and
        ``nodes`` limit it. The search also stops at the end of the game, or at a proven result once
        it has searched as deep as that result is far, so a proven win is the quickest one.
        """
        root = self._root(state, nodes)
        ctl = self.ctl
        start = time.perf_counter()
        moves = state.legal_actions()
        move, score, completed = (moves[0] if moves else -1), -WIN, 0
        limit = root.blank if max_depth is None else min(max_depth, root.blank)
        stop = math.inf if deadline is None else deadline
        history: list[Cell] = []
        for depth in range(1, limit + 1 if moves else 1):
            ctl[control.ROOT_FIRST], ctl[control.ROOT_MOVE] = move, move
            value = self._negamax(root, depth, stop, -INF, INF)
            if ctl[control.ABORT]:
                break
            move, score, completed = int(ctl[control.ROOT_MOVE]), value, depth
            history.append(move)
            if abs(score) >= WON and depth >= WIN - abs(score):
                # Proven, and at the result's own distance: a quicker win (or a longer defence) would
                # have shown up. An endgame leaf can prove a result before that depth is searched.
                break
        seconds = time.perf_counter() - start
        return SearchResult(move, score, completed, int(ctl[control.NODES]), seconds, tuple(history))

    def prove(
        self,
        state: State,
        deadline: float | None = None,
        nodes: int | None = None,
        threshold: int = 1,
    ) -> SearchResult:
        """Whether the mover's exact value is at least ``threshold``: one search to the end of the game in a null window.

        With the default threshold 1 this asks who wins: a score of ``WIN - k`` then means the mover
        wins in at most ``k`` plies and the move wins, ``-(WIN - k)`` that it loses within ``k``.
        ``threshold = WIN - k`` asks whether it wins within ``k`` plies, ``-(WIN - k) + 1`` whether it
        avoids losing within ``k``. The score is a bound on the exact value on the side of the
        threshold it falls. Past the ``deadline`` or ``nodes`` the result has depth 0 and score 0
        (unknown). Asking only a yes or a no, the search cuts far more than the iterative deepening
        of :meth:`search`, which finds the quickest win: a 7x7 2-ply opening takes about a second
        of CPU instead of a minute and a half.
        """
        root = self._root(state, nodes)
        ctl = self.ctl
        start = time.perf_counter()
        moves = state.legal_actions()
        ctl[control.ROOT_FIRST] = ctl[control.ROOT_MOVE] = moves[0] if moves else -1
        stop = math.inf if deadline is None else deadline
        value = self._negamax(root, root.blank, stop, threshold - 1, threshold)
        seconds, done = time.perf_counter() - start, not ctl[control.ABORT]
        move = int(ctl[control.ROOT_MOVE]) if done and moves else -1
        return SearchResult(
            move, value if done else 0, root.blank if done else 0, int(ctl[control.NODES]), seconds
        )


@dataclass(frozen=True, slots=True)
class _Root:
    lo: np.uint64
    hi: np.uint64
    me: int
    other: int
    side: int
    hash: int
    blank: int


def leaf_ref(
    state: State, root: int, weights: tuple[int, int] = (OWN_WEIGHT, OPP_WEIGHT), ply: int = 0
) -> int:
    """Readable twin of the leaf value: for the player to move, mobility weighted from ``root``'s side."""
    mover = state.ply % 2
    mine, theirs = len(state.moves_of(mover)), len(state.moves_of(1 - mover))
    if not mine:
        return -(WIN - ply)
    if not theirs:
        return WIN - (ply + 1)
    if mover == root:
        return weights[0] * mine - weights[1] * theirs
    return -(weights[0] * theirs - weights[1] * mine)


def negamax_ref(
    state: State,
    depth: int,
    weights: tuple[int, int] = (OWN_WEIGHT, OPP_WEIGHT),
    root: int | None = None,
    ply: int = 0,
) -> int:
    """Readable twin of the search (no table, no endgame): plain negamax over the same leaf values."""
    root = state.ply % 2 if root is None else root
    moves = state.legal_actions()
    if depth <= 0 or not moves:
        return leaf_ref(state, root, weights, ply)
    return max(-negamax_ref(state.child(m), depth - 1, weights, root, ply + 1) for m in moves)


def solve_ref(state: State) -> int:
    """+1 if the player to move wins with best play, -1 if it loses (exhaustive: small boards only)."""
    moves = state.legal_actions()
    if not moves:
        return -1
    return 1 if any(solve_ref(state.child(m)) < 0 for m in moves) else -1
