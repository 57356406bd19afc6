"""The fast Isolation engine: numba kernels over two-word bitboards, for boards of up to 128 cells (11x11).

A position is two ``uint64`` words of open cells (bit ``c & 63`` of word ``c >> 6`` set: row-major
cell ``c`` is blank), the mover's and the other piece's cells (-1 before placement) and the side
to move. Counting a piece's moves, the hot operation (two per leaf), is two ANDs with the cell's
knight mask and two popcounts (about 1.5 ns); a move is one XOR on a copy, so nothing is undone.
A first version over a ``uint8`` cell array (eight loads per count, make/unmake) searched 2-3
million nodes per second on the benchmark positions; this one searches 5-10 million on the same
machine, though part of that gain came from the two changes noted at ``_kernel`` and ``_negamax``.

The search is iterative-deepening negamax alpha-beta with a Zobrist-keyed transposition table,
the previous best (or the table's) move first and the others ordered by their leaf value, leaf
values computed in the depth-1 node without a call per leaf, and an exact endgame: once the
pieces can no longer reach a common cell, each side's longest knight path through its own
region decides the game (the side to move wins iff its path is longer).

Every kernel has a readable twin (``*_ref`` here, or the reference rules), the tests' oracle.

>>> from gridarena.games.isolation.rules import State
>>> engine = Engine(5, 5, tt_bits=10)
>>> engine.perft(State(5, 5), 3)
2208
>>> Engine(4, 4, tt_bits=10).search(State(4, 4).child(5).child(10)).score < 0  # solved: player 1 loses
True
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, TypeVar, cast

import numba
import numpy as np
from numba import njit

from gridarena.games.isolation.rules import Cell, State, knight_targets

MAX_CELLS: Final = 128
"""The engine's largest board: two 64-bit words (11x11 = 121 cells fits)."""
MAX_PLY: Final = MAX_CELLS + 2
WIN: Final = 1_000_000
"""Score of a won position at the root; a win in ``k`` plies scores ``WIN - k``."""
WON: Final = WIN - 1_000
"""Scores at or beyond ``+-WON`` are proven results."""
INF: Final = 10_000_000
RETRY_PLIES: Final = 4
"""After an endgame too big to solve, the plies until the search tries again below that node."""

#: Leaf weights (own moves, the opponent's), both from the root player's side. Against AB_Improved,
#: 10:10, 10:14 and 10:20 scored within each other's noise over 30 games each; 10:14 leans to attack.
OWN_WEIGHT: Final = 10
OPP_WEIGHT: Final = 14

# Slots of the int64 control array shared by the kernels of one search.
(_NODES, _NODE_LIMIT, _ABORT, _USE_TT, _USE_ENDGAME, _PATH_BUDGET, _OWN_W, _OPP_W, _ROOT_MOVE, _ROOT_FIRST,
 _ROOT_SIDE, _PATH_MAX, _ENDGAME_CALLS, _ENDGAME_SOLVED, _SEP_DEPTH, _NEXT_CHECK, _PATH_STEPS) = range(17)  # fmt: skip
_EXACT, _LOWER, _UPPER = 0, 1, 2

_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)
_S1, _S2, _S4, _S56 = np.uint64(1), np.uint64(2), np.uint64(4), np.uint64(56)
_ZERO = np.uint64(0)


# ---- tables and conversions ------------------------------------------------------------------------


def neighbour_table(width: int, height: int) -> np.ndarray:
    """Knight targets of every cell, an ``(n, 8)`` int64 array padded with -1.

    >>> neighbour_table(3, 3)[0].tolist()
    [5, 7, -1, -1, -1, -1, -1, -1]
    """
    table = np.full((width * height, 8), -1, dtype=np.int64)
    for cell in range(width * height):
        targets = knight_targets(cell, width, height)
        table[cell, : len(targets)] = targets
    return table


def split(bits: int) -> tuple[np.uint64, np.uint64]:
    """A Python bit set of up to 128 cells as its two words ``(low, high)``.

    >>> split((1 << 70) | 5)
    (np.uint64(5), np.uint64(64))
    """
    return np.uint64(bits & (2**64 - 1)), np.uint64(bits >> 64)


def mask_table(width: int, height: int) -> np.ndarray:
    """Knight-target masks of every cell as ``(n, 2)`` uint64 words."""
    table = np.zeros((width * height, 2), dtype=np.uint64)
    for cell in range(width * height):
        table[cell] = split(sum(1 << t for t in knight_targets(cell, width, height)))
    return table


def zobrist_keys(n: int, seed: int = 2017) -> np.ndarray:
    """Random 63-bit keys: 0..n-1 a blocked cell, n..2n-1 player 0 there, 2n..3n-1 player 1, 3n the side."""
    rng = np.random.default_rng(seed)
    return rng.integers(1, 2**63 - 1, size=3 * n + 1, dtype=np.int64)


def to_words(state: State) -> tuple[np.uint64, np.uint64, int, int]:
    """``(low, high, loc0, loc1)`` of a reference state: the open cells and the locations (-1 unplaced).

    >>> to_words(State(3, 3, blocked=1, locs=(0, None), ply=1))
    (np.uint64(510), np.uint64(0), 0, -1)
    """
    n = state.width * state.height
    lo, hi = split(((1 << n) - 1) & ~state.blocked)
    loc0, loc1 = (-1 if loc is None else loc for loc in state.locs)
    return lo, hi, loc0, loc1


# ---- bit kernels ---------------------------------------------------------------------------------

F = TypeVar("F", bound=Callable[..., Any])


def _kernel(function: F) -> F:
    """``njit(cache=True)`` without reference counting, for the search's kernels.

    They allocate nothing, and with the default numba reference-counts every array argument on
    every call (atomic calls that cost more than a leaf): turning it off made the search about
    twice as fast. Kernels that allocate (the public wrappers) keep the default.
    """
    return cast(F, njit(cache=True, _nrt=False)(function))  # type: ignore[call-overload]


@_kernel
def popcount(x: np.uint64) -> int:
    """Set bits of a 64-bit word (SWAR; LLVM turns it into one instruction where the CPU has one)."""
    x = x - ((x >> _S1) & _M1)
    x = (x & _M2) + ((x >> _S2) & _M2)
    x = (x + (x >> _S4)) & _M4
    return int(np.int64((x * _H01) >> _S56))  # int() alone keeps uint64, and uint64 + int64 is float64


@_kernel
def is_open(lo: np.uint64, hi: np.uint64, cell: int) -> bool:
    """Whether ``cell`` is blank."""
    if cell < 64:
        return bool(((lo >> np.uint64(cell)) & _S1) != _ZERO)
    return bool(((hi >> np.uint64(cell - 64)) & _S1) != _ZERO)


@_kernel
def count_moves(lo: np.uint64, hi: np.uint64, masks: np.ndarray, loc: int) -> int:
    """Moves of a piece on ``loc``: its open knight targets, or every open cell while unplaced (-1)."""
    if loc < 0:
        return popcount(lo) + popcount(hi)
    return popcount(masks[loc, 0] & lo) + popcount(masks[loc, 1] & hi)


@_kernel
def _gen(lo: np.uint64, hi: np.uint64, nbr: np.ndarray, loc: int, stack: np.ndarray, row: int) -> int:
    """Write the moves of a piece on ``loc`` to ``stack[row]`` (ascending cells); return how many.

    Kernels index the 2-D stack instead of taking row views: a view costs reference counting.
    """
    k = 0
    if loc < 0:
        for c in range(nbr.shape[0]):
            if is_open(lo, hi, c):
                stack[row, k] = c
                k += 1
        return k
    for i in range(8):
        t = nbr[loc, i]
        if t < 0:
            break
        if is_open(lo, hi, t):
            stack[row, k] = t
            k += 1
    return k


@njit(cache=True)
def gen_moves(lo: np.uint64, hi: np.uint64, nbr: np.ndarray, loc: int, out: np.ndarray) -> int:
    """Write the moves of a piece on ``loc`` to ``out`` (ascending cells); return how many."""
    return _gen(lo, hi, nbr, loc, out.reshape((1, out.shape[0])), 0)


@_kernel
def _close(lo: np.uint64, hi: np.uint64, cell: int) -> tuple[np.uint64, np.uint64]:
    """The words with ``cell`` blocked."""
    if cell < 64:
        return lo & ~(_S1 << np.uint64(cell)), hi
    return lo, hi & ~(_S1 << np.uint64(cell - 64))


@njit(cache=True)
def _perft(lo: np.uint64, hi: np.uint64, me: int, other: int, nbr: np.ndarray, depth: int) -> int:
    """Leaf count ``depth`` plies down, by an explicit stack (numba's cache cannot hold recursive kernels)."""
    if depth == 0:
        return 1
    n = nbr.shape[0]
    moves = np.empty((depth, n), dtype=np.int64)
    count = np.zeros(depth, dtype=np.int64)
    index = np.zeros(depth, dtype=np.int64)
    words = np.empty((depth, 2), dtype=np.uint64)
    locs = np.empty((depth, 2), dtype=np.int64)
    words[0, 0], words[0, 1], locs[0, 0], locs[0, 1] = lo, hi, me, other
    count[0] = _gen(lo, hi, nbr, me, moves, 0)
    total, top = 0, 0
    while top >= 0:
        if top == depth - 1:
            total += count[top]
            top -= 1
            continue
        if index[top] == count[top]:
            top -= 1
            continue
        m = moves[top, index[top]]
        index[top] += 1
        nlo, nhi = _close(words[top, 0], words[top, 1], m)
        top += 1
        words[top, 0], words[top, 1], locs[top, 0], locs[top, 1] = nlo, nhi, locs[top - 1, 1], m
        count[top] = _gen(nlo, nhi, nbr, locs[top, 0], moves, top)
        index[top] = 0
    return total


def perft_ref(state: State, depth: int) -> int:
    """Readable twin of the perft kernel: leaf count of the reference rules' game tree."""
    if depth == 0:
        return 1
    moves = state.legal_actions()
    if depth == 1:
        return len(moves)
    return sum(perft_ref(state.child(m), depth - 1) for m in moves)


# ---- exact endgame -------------------------------------------------------------------------------


@_kernel
def _lowest(x: np.uint64) -> int:
    """Index of the lowest set bit of a non-zero word."""
    return popcount((x & (~x + _S1)) - _S1)


@_kernel
def _ring(flo: np.uint64, fhi: np.uint64, masks: np.ndarray) -> tuple[np.uint64, np.uint64]:
    """Union of the knight masks of the cells in ``(flo, fhi)``."""
    rlo, rhi = _ZERO, _ZERO
    while flo != _ZERO:
        c = _lowest(flo)
        flo &= flo - _S1
        rlo |= masks[c, 0]
        rhi |= masks[c, 1]
    while fhi != _ZERO:
        c = _lowest(fhi) + 64
        fhi &= fhi - _S1
        rlo |= masks[c, 0]
        rhi |= masks[c, 1]
    return rlo, rhi


@_kernel
def _flood(
    lo: np.uint64,
    hi: np.uint64,
    masks: np.ndarray,
    start: int,
    stop_lo: np.uint64,
    stop_hi: np.uint64,
) -> tuple[np.uint64, np.uint64, bool]:
    """Open cells reachable from ``start`` over open cells, as two words; stops early (True) at a stop cell.

    Ring by ring on the words: each ring is the OR of its cells' knight masks, less what is known.
    A first version kept a breadth-first queue and tested each cell's eight targets one by one;
    with the rings, one path bound per endgame and solved endgames kept in the table, the search
    went from 7.6-8.0 to 9.3-9.5 million nodes per CPU second at plies 12-14 (docs/isolation.md).
    """
    flo, fhi = masks[start, 0] & lo, masks[start, 1] & hi
    rlo, rhi = flo, fhi
    while True:
        if (flo & stop_lo) != _ZERO or (fhi & stop_hi) != _ZERO:
            return rlo, rhi, True
        if flo == _ZERO and fhi == _ZERO:
            return rlo, rhi, False
        nlo, nhi = _ring(flo, fhi, masks)
        flo, fhi = nlo & lo & ~rlo, nhi & hi & ~rhi
        rlo, rhi = rlo | flo, rhi | fhi


@_kernel
def _separated(
    lo: np.uint64,
    hi: np.uint64,
    masks: np.ndarray,
    me: int,
    other: int,
) -> bool:
    # The regions are unions of open components; they meet iff mine reaches one of the other's targets.
    if me < 0 or other < 0:
        return False
    return not _flood(lo, hi, masks, me, masks[other, 0] & lo, masks[other, 1] & hi)[2]


@njit(cache=True)
def separated(lo: np.uint64, hi: np.uint64, masks: np.ndarray, loc0: int, loc1: int) -> bool:
    """Whether both pieces are placed and no open cell is reachable by both."""
    return _separated(lo, hi, masks, loc0, loc1)


@_kernel
def _path_bound(lo: np.uint64, hi: np.uint64, masks: np.ndarray, dark: np.ndarray, loc: int) -> int:
    """An upper bound on the longest path from ``loc``: knight moves alternate the square colour."""
    rlo, rhi, _ = _flood(lo, hi, masks, loc, _ZERO, _ZERO)
    on_dark = popcount(rlo & dark[0]) + popcount(rhi & dark[1])
    on_light = popcount(rlo) + popcount(rhi) - on_dark
    same, other = (on_dark, on_light) if is_open(dark[0], dark[1], loc) else (on_light, on_dark)
    return min(2 * other, 2 * same + 1)


@_kernel
def _longest(
    lo: np.uint64,
    hi: np.uint64,
    loc: int,
    bound: int,
    nbr: np.ndarray,
    budget: int,
    path: np.ndarray,
    path_words: np.ndarray,
) -> tuple[int, int]:
    """(Longest path from ``loc`` over open cells, steps taken), depth first; stops at ``bound``.

    An explicit stack instead of recursion: level ``d`` keeps its cell and next neighbour index in
    ``path[:, d]`` and its board in ``path_words[:, d]``. The length is -1 once ``budget`` steps are spent.
    """
    path[0, 0], path[1, 0], path_words[0, 0], path_words[1, 0] = loc, 0, lo, hi
    top, best, steps = 0, 0, 0
    while top >= 0:
        steps += 1
        if steps > budget:
            return -1, steps
        i, c = path[1, top], path[0, top]
        if i >= 8 or nbr[c, i] < 0:
            top -= 1
            continue
        path[1, top] = i + 1
        t = nbr[c, i]
        if is_open(path_words[0, top], path_words[1, top], t):
            nlo, nhi = _close(path_words[0, top], path_words[1, top], t)
            top += 1
            path[0, top], path[1, top], path_words[0, top], path_words[1, top] = t, 0, nlo, nhi
            if top > best:
                best = top
                if best >= bound:
                    return best, steps
    return best, steps


@njit(cache=True)
def longest_path(
    lo: np.uint64,
    hi: np.uint64,
    nbr: np.ndarray,
    masks: np.ndarray,
    dark: np.ndarray,
    loc: int,
    budget: int,
    cap: int,
) -> int:
    """Longest knight path from ``loc`` over open cells, searched up to length ``cap``; -1 if ``budget`` runs out.

    The answer is exact when below ``cap``; a path of length ``cap`` ends the search at once.
    """
    path = np.empty((2, MAX_CELLS + 1), dtype=np.int64)
    path_words = np.empty((2, MAX_CELLS + 1), dtype=np.uint64)
    bound = min(_path_bound(lo, hi, masks, dark, loc), cap)
    return _longest(lo, hi, loc, bound, nbr, budget, path, path_words)[0]


def longest_path_ref(state: State, player: int) -> int:
    """Readable twin of :func:`longest_path`: exhaustive depth-first search over the reference state."""
    loc = state.locs[player]
    assert loc is not None
    best = 0
    for t in knight_targets(loc, state.width, state.height):
        if state.is_open(t):
            locs = (t, state.locs[1]) if player == 0 else (state.locs[0], t)
            child = State(state.width, state.height, state.blocked | 1 << t, locs, state.ply)
            best = max(best, 1 + longest_path_ref(child, player))
    return best


def separated_ref(state: State) -> bool:
    """Readable twin of :func:`separated`: the open cells each piece can reach are disjoint."""
    regions = []
    for loc in state.locs:
        if loc is None:
            return False
        seen: set[int] = set()
        frontier = [loc]
        while frontier:
            cell = frontier.pop()
            for t in knight_targets(cell, state.width, state.height):
                if state.is_open(t) and t not in seen:
                    seen.add(t)
                    frontier.append(t)
        regions.append(seen)
    return not regions[0] & regions[1]


@_kernel
def _endgame(
    lo: np.uint64,
    hi: np.uint64,
    me: int,
    other: int,
    masks: np.ndarray,
    nbr: np.ndarray,
    dark: np.ndarray,
    ctl: np.ndarray,
    path: np.ndarray,
    path_words: np.ndarray,
) -> int:
    """Exact result of a separated position for the side to move, in plies to the end (0 if unknown).

    Positive: the mover wins and the opponent is stuck after that many plies; negative: it loses
    after that many. The mover wins iff its longest path is longer, so its own search stops at the
    opponent's length + 1. Regions whose bound exceeds the path limit are left to the search.
    """
    limit = ctl[_PATH_MAX]
    mine_bound = _path_bound(lo, hi, masks, dark, me)
    if mine_bound > limit:
        return 0
    theirs_bound = _path_bound(lo, hi, masks, dark, other)
    if theirs_bound > limit:
        return 0
    ctl[_ENDGAME_CALLS] += 1
    budget = ctl[_PATH_BUDGET]
    theirs, steps = _longest(lo, hi, other, theirs_bound, nbr, budget, path, path_words)
    ctl[_PATH_STEPS] += steps
    if theirs < 0:
        return 0
    mine, steps = _longest(lo, hi, me, min(mine_bound, theirs + 1), nbr, budget, path, path_words)
    ctl[_PATH_STEPS] += steps
    if mine < 0:
        return 0
    ctl[_ENDGAME_SOLVED] += 1
    return 2 * theirs + 1 if mine > theirs else -2 * mine


# ---- search --------------------------------------------------------------------------------------


@njit(cache=True)
def _now() -> float:
    with numba.objmode(t="float64"):
        t = time.perf_counter()
    return t


@_kernel
def _leaf(mine: int, theirs: int, side: int, ply: int, ctl: np.ndarray) -> int:
    """Value for the mover (``side``, ``mine`` moves) of a leaf; the weights apply from the root's side."""
    if mine == 0:
        return -(WIN - ply)
    if theirs == 0:
        return WIN - (ply + 1)
    if side == ctl[_ROOT_SIDE]:
        return int(ctl[_OWN_W] * mine - ctl[_OPP_W] * theirs)
    return int(ctl[_OPP_W] * mine - ctl[_OWN_W] * theirs)


@_kernel
def _child_value(
    lo: np.uint64,
    hi: np.uint64,
    masks: np.ndarray,
    other: int,
    base: int,
    m: int,
    side: int,
    ply: int,
    ctl: np.ndarray,
) -> int:
    """Leaf value, for the mover, of the position after it moves to ``m`` (the child's value negated).

    ``base`` is the other piece's move count before the move: moving to ``m`` takes away at most
    ``m`` itself, and ``m`` is not a target of ``m``, so no board needs to be built.
    """
    mine = count_moves(lo, hi, masks, m)
    theirs = base - 1 if other < 0 or is_open(masks[other, 0], masks[other, 1], m) else base
    return -_leaf(theirs, mine, 1 - side, ply + 1, ctl)


@_kernel
def _order(
    lo: np.uint64,
    hi: np.uint64,
    masks: np.ndarray,
    other: int,
    side: int,
    stack: np.ndarray,
    k: int,
    first: int,
    ply: int,
    ctl: np.ndarray,
) -> None:
    """Sort the moves ``stack[ply, :k]``: ``first`` (the table's move), then by leaf value, best first.

    The keys go to ``stack[ply, MAX_CELLS:]``, so ordering allocates nothing.
    """
    row = ply
    base = count_moves(lo, hi, masks, other)
    for i in range(k):
        m = stack[row, i]
        stack[row, MAX_CELLS + i] = (
            INF if m == first else _child_value(lo, hi, masks, other, base, m, side, ply, ctl)
        )
    for i in range(1, k):
        key, m = stack[row, MAX_CELLS + i], stack[row, i]
        j = i - 1
        while j >= 0 and stack[row, MAX_CELLS + j] < key:
            stack[row, MAX_CELLS + j + 1] = stack[row, MAX_CELLS + j]
            stack[row, j + 1] = stack[row, j]
            j -= 1
        stack[row, MAX_CELLS + j + 1] = key
        stack[row, j + 1] = m


@_kernel
def _frontier(
    lo: np.uint64,
    hi: np.uint64,
    masks: np.ndarray,
    other: int,
    side: int,
    stack: np.ndarray,
    k: int,
    ply: int,
    alpha: int,
    beta: int,
    ctl: np.ndarray,
) -> int:
    """A depth-1 node: each child's leaf value computed here, without a call per leaf (each counts as a node)."""
    best = -INF
    base = count_moves(lo, hi, masks, other)
    for i in range(k):
        m = stack[ply, i]
        ctl[_NODES] += 1
        value = _child_value(lo, hi, masks, other, base, m, side, ply, ctl)
        if value > best:
            best = value
            if ply == 0:
                ctl[_ROOT_MOVE] = m
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
    return best


@_kernel
def _depth_one(
    lo: np.uint64,
    hi: np.uint64,
    masks: np.ndarray,
    nbr: np.ndarray,
    me: int,
    other: int,
    side: int,
    ply: int,
    alpha: int,
    beta: int,
    stack: np.ndarray,
    ctl: np.ndarray,
    deadline: float,
) -> int:
    """A whole depth-1 node, called directly by its parent: the commonest inner node costs no recursion."""
    ctl[_NODES] += 1
    if _stop(ctl, deadline):
        return 0
    k = _gen(lo, hi, nbr, me, stack, ply)
    if k == 0:
        return -(WIN - ply)
    return _frontier(lo, hi, masks, other, side, stack, k, ply, alpha, beta, ctl)


# A table entry is two words: the position's hash and its data packed as score (high bits, biased
# to stay positive), depth, flag and best move + 1 (a byte each). Five words per entry made the table
# five times the cache: at 2**18 entries the search ran 30-45% fewer nodes per second.
_TT_BYTE, _TT_FLAG, _TT_DEPTH, _TT_SCORE, _TT_BIAS = 0xFF, 8, 16, 24, 2 * INF


@_kernel
def _tt_entry(score: int, depth: int, flag: int, move: int) -> int:
    return ((score + _TT_BIAS) << _TT_SCORE) | (depth << _TT_DEPTH) | (flag << _TT_FLAG) | (move + 1)


@_kernel
def _to_tt(score: int, ply: int) -> int:
    """A score relative to this node (wins counted from here), as the table stores it."""
    if score >= WON:
        return score + ply
    if score <= -WON:
        return score - ply
    return score


@_kernel
def _from_tt(score: int, ply: int) -> int:
    if score >= WON:
        return score - ply
    if score <= -WON:
        return score + ply
    return score


@_kernel
def _stop(ctl: np.ndarray, deadline: float) -> bool:
    """Poll the clock and the node budget once per 1,024 nodes; the abort flag stays set once raised."""
    if ctl[_NODES] >= ctl[_NEXT_CHECK]:
        ctl[_NEXT_CHECK] = ctl[_NODES] + 1024
        if _now() >= deadline or (ctl[_NODE_LIMIT] >= 0 and ctl[_NODES] > ctl[_NODE_LIMIT]):
            ctl[_ABORT] = 1
    return bool(ctl[_ABORT] != 0)


# Fields of a search frame (one row per ply of the explicit stack); the words live in a uint64 twin.
(_F_ME, _F_OTHER, _F_SIDE, _F_DEPTH, _F_ALPHA, _F_BETA, _F_HASH, _F_SEP, _F_BEST, _F_BEST_MOVE, _F_ALPHA0, _F_I,
 _F_K, _F_SLOT) = range(14)  # fmt: skip
_EXPAND = INF + 1


@_kernel
def _enter(
    ply: int,
    frames: np.ndarray,
    words: np.ndarray,
    masks: np.ndarray,
    nbr: np.ndarray,
    tt: np.ndarray,
    stack: np.ndarray,
    dark: np.ndarray,
    path: np.ndarray,
    path_words: np.ndarray,
    ctl: np.ndarray,
    deadline: float,
) -> int:
    """Open the node of frame ``ply``: its value if it is decided here, else ``_EXPAND`` with the moves ordered."""
    lo, hi = words[ply, 0], words[ply, 1]
    me, other, side, depth, alpha, beta = (
        frames[ply, _F_ME],
        frames[ply, _F_OTHER],
        frames[ply, _F_SIDE],
        frames[ply, _F_DEPTH],
        frames[ply, _F_ALPHA],
        frames[ply, _F_BETA],
    )
    ctl[_NODES] += 1
    if _stop(ctl, deadline):
        return 0
    k = _gen(lo, hi, nbr, me, stack, ply)
    if k == 0:
        return -(WIN - ply)
    if depth <= 1:
        return _frontier(lo, hi, masks, other, side, stack, k, ply, alpha, beta, ctl)
    h = frames[ply, _F_HASH]
    slot = h & (tt.shape[0] - 1)
    first = -1
    if ply == 0:
        first = ctl[_ROOT_FIRST]
    elif (depth >= 3 or frames[ply, _F_SEP]) and ctl[_USE_TT] and tt[slot, 0] == h:
        # Depth-2 nodes are cheaper to redo than to look up, unless separated: then an endgame may be stored.
        data = tt[slot, 1]
        first = (data & _TT_BYTE) - 1
        if (data >> _TT_DEPTH) & _TT_BYTE >= depth:
            score, flag = _from_tt((data >> _TT_SCORE) - _TT_BIAS, ply), (data >> _TT_FLAG) & 3
            if flag == _EXACT or (flag == _LOWER and score >= beta) or (flag == _UPPER and score <= alpha):
                return score
    # Separation is permanent, so it is tested only well above the leaves and then inherited.
    # _F_SEP: 0 not known to be separated, else the first ply at which to try the exact endgame.
    if frames[ply, _F_SEP] == 0 and depth >= ctl[_SEP_DEPTH] and ctl[_USE_ENDGAME]:
        frames[ply, _F_SEP] = ply if _separated(lo, hi, masks, me, other) else 0
    if frames[ply, _F_SEP] and ply > 0 and ply >= frames[ply, _F_SEP]:
        plies = _endgame(lo, hi, me, other, masks, nbr, dark, ctl, path, path_words)
        if plies != 0:
            # Exact at any depth: stored as such, transpositions inside the regions skip the path searches.
            score = WIN - (ply + plies) if plies > 0 else -(WIN - (ply - plies))
            if ctl[_USE_TT]:
                tt[slot, 0], tt[slot, 1] = h, _tt_entry(_to_tt(score, ply), MAX_PLY, _EXACT, -1)
            return score
        frames[ply, _F_SEP] = ply + RETRY_PLIES  # too big for now: the regions shrink as the game goes on
    _order(lo, hi, masks, other, side, stack, k, first, ply, ctl)
    frames[ply, _F_BEST], frames[ply, _F_BEST_MOVE], frames[ply, _F_ALPHA0] = -INF, stack[ply, 0], alpha
    frames[ply, _F_I], frames[ply, _F_K], frames[ply, _F_SLOT] = 0, k, slot
    return _EXPAND


@_kernel
def _push(
    ply: int,
    m: int,
    frames: np.ndarray,
    words: np.ndarray,
    keys: np.ndarray,
    n: int,
    lo: np.uint64,
    hi: np.uint64,
) -> None:
    """Fill frame ``ply + 1`` with the child after the mover of frame ``ply`` enters ``m``."""
    side, me = frames[ply, _F_SIDE], frames[ply, _F_ME]
    h = frames[ply, _F_HASH] ^ keys[m] ^ keys[(side + 1) * n + m] ^ keys[3 * n]
    if me >= 0:
        h ^= keys[(side + 1) * n + me]
    words[ply + 1, 0], words[ply + 1, 1] = lo, hi
    frames[ply + 1, _F_ME], frames[ply + 1, _F_OTHER], frames[ply + 1, _F_SIDE], frames[ply + 1, _F_DEPTH] = (
        frames[ply, _F_OTHER],
        m,
        1 - side,
        frames[ply, _F_DEPTH] - 1,
    )
    frames[ply + 1, _F_ALPHA], frames[ply + 1, _F_BETA], frames[ply + 1, _F_HASH], frames[ply + 1, _F_SEP] = (
        -frames[ply, _F_BETA],
        -frames[ply, _F_ALPHA],
        h,
        frames[ply, _F_SEP],
    )


@_kernel
def _record(ply: int, frames: np.ndarray, tt: np.ndarray, ctl: np.ndarray) -> int:
    """Close the node of frame ``ply``: store it in the table and return its value."""
    best = frames[ply, _F_BEST]
    if ctl[_USE_TT] and frames[ply, _F_DEPTH] >= 3:
        flag = (
            _UPPER if best <= frames[ply, _F_ALPHA0] else (_LOWER if best >= frames[ply, _F_BETA] else _EXACT)
        )
        slot = frames[ply, _F_SLOT]
        tt[slot, 0] = frames[ply, _F_HASH]
        tt[slot, 1] = _tt_entry(_to_tt(best, ply), frames[ply, _F_DEPTH], flag, frames[ply, _F_BEST_MOVE])
    return int(best)


@_kernel
def _negamax(
    lo: np.uint64,
    hi: np.uint64,
    me: int,
    other: int,
    side: int,
    depth: int,
    h: int,
    masks: np.ndarray,
    nbr: np.ndarray,
    keys: np.ndarray,
    tt: np.ndarray,
    stack: np.ndarray,
    frames: np.ndarray,
    words: np.ndarray,
    dark: np.ndarray,
    path: np.ndarray,
    path_words: np.ndarray,
    ctl: np.ndarray,
    deadline: float,
) -> int:
    """Alpha-beta value of the root to ``depth`` plies; the root's best move goes to ``ctl[_ROOT_MOVE]``.

    Recursion written as a loop over ``frames`` (numba 0.68 cannot reload a cached recursive kernel).
    A child's value comes back in ``value``, negated for its parent; depth-2 nodes score their
    children with :func:`_depth_one` directly.
    """
    n = nbr.shape[0]
    words[0, 0], words[0, 1] = lo, hi
    frames[0, _F_ME], frames[0, _F_OTHER], frames[0, _F_SIDE], frames[0, _F_DEPTH] = me, other, side, depth
    frames[0, _F_ALPHA], frames[0, _F_BETA], frames[0, _F_HASH], frames[0, _F_SEP] = -INF, INF, h, 0
    ply = 0
    value = _enter(0, frames, words, masks, nbr, tt, stack, dark, path, path_words, ctl, deadline)
    if value != _EXPAND:
        return value
    while True:
        i = frames[ply, _F_I]
        if i > 0:  # the value of move i - 1 has just come back
            if ctl[_ABORT]:
                return 0
            if value > frames[ply, _F_BEST]:
                frames[ply, _F_BEST], frames[ply, _F_BEST_MOVE] = value, stack[ply, i - 1]
                if ply == 0:
                    ctl[_ROOT_MOVE] = stack[ply, i - 1]
                if value > frames[ply, _F_ALPHA]:
                    frames[ply, _F_ALPHA] = value
        if i == frames[ply, _F_K] or frames[ply, _F_ALPHA] >= frames[ply, _F_BETA]:
            value = _record(ply, frames, tt, ctl)
            if ply == 0:
                return value
            ply -= 1
            value = -value
            continue
        m = stack[ply, i]
        frames[ply, _F_I] = i + 1
        clo, chi = _close(words[ply, 0], words[ply, 1], m)
        if frames[ply, _F_DEPTH] == 2:
            value = -_depth_one(
                clo, chi, masks, nbr, frames[ply, _F_OTHER], m, 1 - frames[ply, _F_SIDE], ply + 1, -frames[ply, _F_BETA], -frames[ply, _F_ALPHA],
                stack, ctl, deadline,
            )  # fmt: skip
            continue
        _push(ply, m, frames, words, keys, n, clo, chi)
        child = _enter(ply + 1, frames, words, masks, nbr, tt, stack, dark, path, path_words, ctl, deadline)
        if child == _EXPAND:
            ply += 1
            value = 0
            frames[ply, _F_I] = 0
        else:
            value = -child


@_kernel
def _hash(lo: np.uint64, hi: np.uint64, locs: np.ndarray, side: int, keys: np.ndarray, n: int) -> int:
    h = 0
    for c in range(n):
        if not is_open(lo, hi, c):
            h ^= keys[c]
    for p in range(2):
        if locs[p] >= 0:
            h ^= keys[(p + 1) * n + locs[p]]
    if side:
        h ^= keys[3 * n]
    return h


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
        self.ctl = np.zeros(17, dtype=np.int64)
        self.ctl[_USE_TT] = int(tt_bits > 0)
        self.ctl[_USE_ENDGAME] = int(endgame)
        self.ctl[_PATH_BUDGET], self.ctl[_PATH_MAX], self.ctl[_SEP_DEPTH] = path_budget, path_max, sep_depth
        self.ctl[_OWN_W], self.ctl[_OPP_W] = weights
        self.stack = np.empty((MAX_PLY, 2 * MAX_CELLS), dtype=np.int64)
        self.frames = np.zeros((MAX_PLY, 14), dtype=np.int64)
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
        return int(_perft(lo, hi, me, other, self.nbr, depth))

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
        self._check(state)
        lo, hi, loc0, loc1 = to_words(state)
        side, locs = state.ply % 2, (loc0, loc1)
        ctl = self.ctl
        ctl[[_NODES, _ABORT, _ENDGAME_CALLS, _ENDGAME_SOLVED, _NEXT_CHECK, _PATH_STEPS]] = 0
        ctl[_NODE_LIMIT] = -1 if nodes is None else nodes
        ctl[_ROOT_SIDE] = side
        start = time.perf_counter()
        moves = state.legal_actions()
        move, score, completed = (moves[0] if moves else -1), -WIN, 0
        blank = popcount(lo) + popcount(hi)
        limit = blank if max_depth is None else min(max_depth, blank)
        h = _hash(lo, hi, np.array(locs, dtype=np.int64), side, self.keys, self.width * self.height)
        stop = math.inf if deadline is None else deadline
        history: list[Cell] = []
        for depth in range(1, limit + 1 if moves else 1):
            ctl[_ROOT_FIRST], ctl[_ROOT_MOVE] = move, move
            value = _negamax(
                lo, hi, locs[side], locs[1 - side], side, depth, h, self.masks, self.nbr, self.keys,
                self.tt, self.stack, self.frames, self.words, self.dark, self.path, self.path_words, ctl, stop,
            )  # fmt: skip
            if ctl[_ABORT]:
                break
            move, score, completed = int(ctl[_ROOT_MOVE]), int(value), depth
            history.append(move)
            if abs(score) >= WON and depth >= WIN - abs(score):
                # Proven, and at the result's own distance: a quicker win (or a longer defence) would
                # have shown up. An endgame leaf can prove a result before that depth is searched.
                break
        seconds = time.perf_counter() - start
        return SearchResult(move, score, completed, int(ctl[_NODES]), seconds, tuple(history))


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
