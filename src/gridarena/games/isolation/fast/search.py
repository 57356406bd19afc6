"""The fast engine's search kernels: iterative deepening's negamax alpha-beta and its transposition table.

The previous best (or the table's) move comes first and the others are ordered by their leaf
value; leaf values are computed in the depth-1 node without a call per leaf; separated positions
go to the exact endgame (:mod:`.endgame`). Recursion is written as a loop over explicit frames.
"""

from __future__ import annotations

import time
from typing import Final

import numba
import numpy as np
from numba import njit

from gridarena.games.isolation.fast.control import (
    ABORT,
    NEXT_CHECK,
    NODE_LIMIT,
    NODES,
    OPP_W,
    OWN_W,
    ROOT_FIRST,
    ROOT_MOVE,
    ROOT_SIDE,
    SEP_DEPTH,
    USE_ENDGAME,
    USE_TT,
)
from gridarena.games.isolation.fast.endgame import pieces_separated, solve_endgame
from gridarena.games.isolation.fast.movegen import (
    MAX_CELLS,
    close_cell,
    count_moves,
    gen_row,
    is_open,
    kernel,
)

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

_EXACT, _LOWER, _UPPER = 0, 1, 2


@njit(cache=True)
def _now() -> float:
    with numba.objmode(t="float64"):
        t = time.perf_counter()
    return t


@kernel
def _leaf(mine: int, theirs: int, side: int, ply: int, ctl: np.ndarray) -> int:
    """Value for the mover (``side``, ``mine`` moves) of a leaf; the weights apply from the root's side."""
    if mine == 0:
        return -(WIN - ply)
    if theirs == 0:
        return WIN - (ply + 1)
    if side == ctl[ROOT_SIDE]:
        return int(ctl[OWN_W] * mine - ctl[OPP_W] * theirs)
    return int(ctl[OPP_W] * mine - ctl[OWN_W] * theirs)


@kernel
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


@kernel
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


@kernel
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
        ctl[NODES] += 1
        value = _child_value(lo, hi, masks, other, base, m, side, ply, ctl)
        if value > best:
            best = value
            if ply == 0:
                ctl[ROOT_MOVE] = m
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
    return best


@kernel
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
    ctl[NODES] += 1
    if _stop(ctl, deadline):
        return 0
    k = gen_row(lo, hi, nbr, me, stack, ply)
    if k == 0:
        return -(WIN - ply)
    return _frontier(lo, hi, masks, other, side, stack, k, ply, alpha, beta, ctl)


# A table entry is two words: the position's hash and its data packed as score (high bits, biased
# to stay positive), depth, flag and best move + 1 (a byte each). Five words per entry made the table
# five times the cache: at 2**18 entries the search ran 30-45% fewer nodes per second.
_TT_BYTE, _TT_FLAG, _TT_DEPTH, _TT_SCORE, _TT_BIAS = 0xFF, 8, 16, 24, 2 * INF


@kernel
def _tt_entry(score: int, depth: int, flag: int, move: int) -> int:
    return ((score + _TT_BIAS) << _TT_SCORE) | (depth << _TT_DEPTH) | (flag << _TT_FLAG) | (move + 1)


@kernel
def _to_tt(score: int, ply: int) -> int:
    """A score relative to this node (wins counted from here), as the table stores it."""
    if score >= WON:
        return score + ply
    if score <= -WON:
        return score - ply
    return score


@kernel
def _from_tt(score: int, ply: int) -> int:
    if score >= WON:
        return score - ply
    if score <= -WON:
        return score + ply
    return score


@kernel
def _stop(ctl: np.ndarray, deadline: float) -> bool:
    """Poll the clock and the node budget once per 1,024 nodes; the abort flag stays set once raised."""
    if ctl[NODES] >= ctl[NEXT_CHECK]:
        ctl[NEXT_CHECK] = ctl[NODES] + 1024
        if _now() >= deadline or (ctl[NODE_LIMIT] >= 0 and ctl[NODES] > ctl[NODE_LIMIT]):
            ctl[ABORT] = 1
    return bool(ctl[ABORT] != 0)


# Fields of a search frame (one row per ply of the explicit stack); the words live in a uint64 twin.
(_F_ME, _F_OTHER, _F_SIDE, _F_DEPTH, _F_ALPHA, _F_BETA, _F_HASH, _F_SEP, _F_BEST, _F_BEST_MOVE, _F_ALPHA0, _F_I,
 _F_K, _F_SLOT) = range(14)  # fmt: skip
FRAME_FIELDS: Final = 14
"""Width of a search frame row."""
_EXPAND = INF + 1


@kernel
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
    ctl[NODES] += 1
    if _stop(ctl, deadline):
        return 0
    k = gen_row(lo, hi, nbr, me, stack, ply)
    if k == 0:
        return -(WIN - ply)
    if depth <= 1:
        return _frontier(lo, hi, masks, other, side, stack, k, ply, alpha, beta, ctl)
    h = frames[ply, _F_HASH]
    slot = h & (tt.shape[0] - 1)
    first = -1
    if ply == 0:
        first = ctl[ROOT_FIRST]
    elif (depth >= 3 or frames[ply, _F_SEP]) and ctl[USE_TT] and tt[slot, 0] == h:
        # Depth-2 nodes are cheaper to redo than to look up, unless separated: then an endgame may be stored.
        data = tt[slot, 1]
        first = (data & _TT_BYTE) - 1
        if (data >> _TT_DEPTH) & _TT_BYTE >= depth:
            score, flag = _from_tt((data >> _TT_SCORE) - _TT_BIAS, ply), (data >> _TT_FLAG) & 3
            if flag == _EXACT or (flag == _LOWER and score >= beta) or (flag == _UPPER and score <= alpha):
                return score
    # Separation is permanent, so it is tested only well above the leaves and then inherited.
    # _F_SEP: 0 not known to be separated, else the first ply at which to try the exact endgame.
    if frames[ply, _F_SEP] == 0 and depth >= ctl[SEP_DEPTH] and ctl[USE_ENDGAME]:
        frames[ply, _F_SEP] = ply if pieces_separated(lo, hi, masks, me, other) else 0
    if frames[ply, _F_SEP] and ply > 0 and ply >= frames[ply, _F_SEP]:
        plies = solve_endgame(lo, hi, me, other, masks, nbr, dark, ctl, path, path_words)
        if plies != 0:
            # Exact at any depth: stored as such, transpositions inside the regions skip the path searches.
            score = WIN - (ply + plies) if plies > 0 else -(WIN - (ply - plies))
            if ctl[USE_TT]:
                tt[slot, 0], tt[slot, 1] = h, _tt_entry(_to_tt(score, ply), MAX_PLY, _EXACT, -1)
            return score
        frames[ply, _F_SEP] = ply + RETRY_PLIES  # too big for now: the regions shrink as the game goes on
    _order(lo, hi, masks, other, side, stack, k, first, ply, ctl)
    frames[ply, _F_BEST], frames[ply, _F_BEST_MOVE], frames[ply, _F_ALPHA0] = -INF, stack[ply, 0], alpha
    frames[ply, _F_I], frames[ply, _F_K], frames[ply, _F_SLOT] = 0, k, slot
    return _EXPAND


@kernel
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


@kernel
def _record(ply: int, frames: np.ndarray, tt: np.ndarray, ctl: np.ndarray) -> int:
    """Close the node of frame ``ply``: store it in the table and return its value."""
    best = frames[ply, _F_BEST]
    if ctl[USE_TT] and frames[ply, _F_DEPTH] >= 3:
        flag = (
            _UPPER if best <= frames[ply, _F_ALPHA0] else (_LOWER if best >= frames[ply, _F_BETA] else _EXACT)
        )
        slot = frames[ply, _F_SLOT]
        tt[slot, 0] = frames[ply, _F_HASH]
        tt[slot, 1] = _tt_entry(_to_tt(best, ply), frames[ply, _F_DEPTH], flag, frames[ply, _F_BEST_MOVE])
    return int(best)


@kernel
def negamax(
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
    alpha: int,
    beta: int,
) -> int:
    """Alpha-beta value of the root to ``depth`` plies in the window ``(alpha, beta)``; its best move goes to ``ctl[ROOT_MOVE]``.

    A value outside the window is a bound (fail-soft): at or above ``beta`` a lower bound, at or
    below ``alpha`` an upper one. :meth:`Engine.prove` searches to the end in a null window.

    Recursion written as a loop over ``frames`` (numba 0.68 cannot reload a cached recursive kernel).
    A child's value comes back in ``value``, negated for its parent; depth-2 nodes score their
    children with :func:`_depth_one` directly.
    """
    n = nbr.shape[0]
    words[0, 0], words[0, 1] = lo, hi
    frames[0, _F_ME], frames[0, _F_OTHER], frames[0, _F_SIDE], frames[0, _F_DEPTH] = me, other, side, depth
    frames[0, _F_ALPHA], frames[0, _F_BETA], frames[0, _F_HASH], frames[0, _F_SEP] = alpha, beta, h, 0
    ply = 0
    value = _enter(0, frames, words, masks, nbr, tt, stack, dark, path, path_words, ctl, deadline)
    if value != _EXPAND:
        return value
    while True:
        i = frames[ply, _F_I]
        if i > 0:  # the value of move i - 1 has just come back
            if ctl[ABORT]:
                return 0
            if value > frames[ply, _F_BEST]:
                frames[ply, _F_BEST], frames[ply, _F_BEST_MOVE] = value, stack[ply, i - 1]
                if ply == 0:
                    ctl[ROOT_MOVE] = stack[ply, i - 1]
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
        clo, chi = close_cell(words[ply, 0], words[ply, 1], m)
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


def zobrist_keys(n: int, seed: int = 2017) -> np.ndarray:
    """Random 63-bit keys: 0..n-1 a blocked cell, n..2n-1 player 0 there, 2n..3n-1 player 1, 3n the side."""
    rng = np.random.default_rng(seed)
    return rng.integers(1, 2**63 - 1, size=3 * n + 1, dtype=np.int64)


@kernel
def root_hash(lo: np.uint64, hi: np.uint64, locs: np.ndarray, side: int, keys: np.ndarray, n: int) -> int:
    """The Zobrist key of a root position (the search updates it move by move)."""
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
