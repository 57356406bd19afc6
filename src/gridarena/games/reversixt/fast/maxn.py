"""The max^n search kernel (Luckhardt and Irani, 1986): every player maximises his own value.

A node's value is a vector, one value per player (:func:`.evaluate.leaf_vector`: each player's
evaluation as if he were the root); the player to move picks the child whose vector is best for
him, in the real turn order of both phases. Nothing is pruned: the values are not zero-sum (each
player's value is measured against his own rank neighbours), so the bounds of shallow pruning do
not hold, and the table is not used (its entries hold one value). The moves are ordered as in
:mod:`.search` (the previous iteration's move first at the root, then history and field weights),
which decides among equal values; the best move of each node feeds the history.

It shares :mod:`.search`'s frames, move generation (override moves pruned from
``ctl[OVERRIDE_PLIES]`` on) and bomb targets, and its control slots: the root's move in
``ctl[ROOT_MOVE]``, ``ctl[ROOT_DONE]`` root moves searched to the end, ``ctl[HORIZON]`` when a line
was cut. The engine (:class:`.engine.Engine`, ``mode="maxn"``) deepens around it as around the others.
"""

from __future__ import annotations

import numpy as np

from gridarena.games.reversixt.fast.evaluate import leaf_vector
from gridarena.games.reversixt.fast.kernels import kernel, make, unmake
from gridarena.games.reversixt.fast.layout import (
    ABORT,
    HORIZON,
    MAXPLY,
    NODES,
    OVER,
    PHASE,
    ROOT,
    ROOT_DONE,
    ROOT_FIRST,
    ROOT_MOVE,
    STATIC_LEAVES,
    P,
)
from gridarena.games.reversixt.fast.search import (
    F_BESTM,
    F_DEPTH,
    F_I,
    F_K,
    F_KILLER,
    F_MAX,
    MOVE_MASK,
    MOVER_SHIFT,
    _order,
    _stop,
    node_moves,
)


@kernel
def _open(
    ply: int, depth: int, cells: np.ndarray, geo: np.ndarray, st: np.ndarray, moves: np.ndarray, keys: np.ndarray,
    fr: np.ndarray, vec: np.ndarray, hist: np.ndarray, wt: np.ndarray, ctl: np.ndarray, buf: np.ndarray,
    marks: np.ndarray, ign: np.ndarray, sw: np.ndarray, ev: np.ndarray, deadline: float,
) -> bool:  # fmt: skip
    """Open the node at ``ply``: True with its moves ordered in ``moves[ply]`` (the mover in
    ``fr[ply, F_MAX]``), or False with its value vector in ``vec[ply, 1]`` (a leaf, the end, or the
    clock ran out: then ``ctl[ABORT]`` is set and the vector means nothing)."""
    ctl[NODES] += 1
    if _stop(ctl, deadline):
        return False
    out = vec[ply, 1]
    if st[PHASE] == OVER:
        leaf_vector(cells, geo, st, 0, 0, ctl, sw, ev, buf, marks, out)
        return False
    if depth <= 0 and ctl[STATIC_LEAVES] and st[PHASE] == 1:
        ctl[HORIZON] = 1
        leaf_vector(cells, geo, st, 0, 0, ctl, sw, ev, buf, marks, out)
        return False
    k, kind = node_moves(cells, geo, st, moves, keys, ply, 0, ctl, buf, marks, ign)
    if kind < 0:
        leaf_vector(cells, geo, st, 0, 0, ctl, sw, ev, buf, marks, out)
        return False
    mover = moves[ply, 0] >> MOVER_SHIFT
    if depth <= 0 or ply >= ctl[MAXPLY]:
        ctl[HORIZON] = 1  # a line was cut: a deeper search may see more
        leaf_vector(cells, geo, st, mover if st[PHASE] == 1 else 0, k, ctl, sw, ev, buf, marks, out)
        return False
    first = ctl[ROOT_FIRST] if ply == 0 else -1
    _order(moves, keys, ply, k, first, hist, wt, st[PHASE], cells, fr[ply, F_KILLER])
    fr[ply, F_I], fr[ply, F_K], fr[ply, F_DEPTH], fr[ply, F_MAX] = 0, k, depth, mover
    fr[ply, F_BESTM] = moves[ply, 0]
    return True


@kernel
def maxn_search(
    depth: int, cells: np.ndarray, geo: np.ndarray, st: np.ndarray, clog: np.ndarray, saves: np.ndarray,
    wt: np.ndarray, buf: np.ndarray, marks: np.ndarray, moves: np.ndarray, keys: np.ndarray, fr: np.ndarray,
    vec: np.ndarray, hist: np.ndarray, ctl: np.ndarray, ign: np.ndarray, sw: np.ndarray, ev: np.ndarray,
    deadline: float,
) -> int:  # fmt: skip
    """The root player's component of the max^n value to ``depth`` plies; the root's move in
    ``ctl[ROOT_MOVE]``. ``vec[ply, 0]`` holds the best vector found at ``ply`` so far, ``vec[ply, 1]``
    the vector of the node at ``ply`` once it is done."""
    ctl[ROOT_DONE] = 0
    r = ctl[ROOT]
    p = st[P]
    if not _open(
        0, depth, cells, geo, st, moves, keys, fr, vec, hist, wt, ctl, buf, marks, ign, sw, ev, deadline
    ):
        return int(vec[0, 1, r])
    ply = 0
    while True:
        i = fr[ply, F_I]
        if i > 0:  # the child of move i - 1 is done: its vector is vec[ply + 1, 1]
            if ctl[ABORT]:
                while ply > 0:
                    ply -= 1
                    unmake(ply, cells, geo, st, clog, saves)
                return 0
            k = fr[ply, F_MAX]
            if i == 1 or vec[ply + 1, 1, k] > vec[ply, 0, k]:
                for j in range(1, p + 1):
                    vec[ply, 0, j] = vec[ply + 1, 1, j]
                fr[ply, F_BESTM] = moves[ply, i - 1]
                if ply == 0:
                    ctl[ROOT_MOVE] = moves[ply, i - 1]
            if ply == 0:
                ctl[ROOT_DONE] += 1
        if i == fr[ply, F_K]:
            for j in range(1, p + 1):
                vec[ply, 1, j] = vec[ply, 0, j]
            best = fr[ply, F_BESTM]
            hist[(best & MOVE_MASK) >> 5] += fr[ply, F_DEPTH] * fr[ply, F_DEPTH]
            fr[ply, F_KILLER] = best
            if ply == 0:
                return int(vec[0, 1, r])
            ply -= 1
            unmake(ply, cells, geo, st, clog, saves)
            continue
        m = moves[ply, i]
        fr[ply, F_I] = i + 1
        make(m & MOVE_MASK, m >> MOVER_SHIFT, ply, cells, geo, st, clog, saves, wt, buf, marks)
        deeper = _open(
            ply + 1, fr[ply, F_DEPTH] - 1, cells, geo, st, moves, keys, fr, vec, hist, wt, ctl, buf, marks, ign,
            sw, ev, deadline,
        )  # fmt: skip
        if deeper:
            ply += 1
        else:
            unmake(ply, cells, geo, st, clog, saves)
