"""Search kernels: paranoid alpha-beta and best-reply search (BRS) over the fast rules, with a table.

Values are always the root player's (R): MAX nodes are R's, MIN nodes an opponent's. Paranoid
search follows the real turn order (every opponent minimises R's value). BRS (Schadd and
Winands, 2011) alternates R's layer with one MIN layer holding every opponent's moves, so R's
own moves reach deeper; the kernels' moves carry their mover, so any opponent may reply out of
turn. BRS applies to phase 1; in the bomb phase both follow the real order. The bomb phase is
searched, not guessed: with radius 0 all stones of one player are the same target (no captures
happen in phase 2), so each player's stones are one move; with a larger radius the best
:data:`BOMB_CANDIDATES` targets by immediate damage are searched. Players out of reach of the
remaining bombs (``ign``, the student report's elimination rule) neither move nor are targeted.

The leaves' values are :mod:`.evaluate`'s; the control array ``ctl`` is named in :mod:`.layout`.
Recursion is a loop over explicit frames (numba 0.68 cannot reload a cached recursive kernel).
"""

from __future__ import annotations

import time
from typing import Final

import numba
import numpy as np
from numba import njit

from gridarena.games.reversixt.fast.evaluate import INF, leaf_value, terminal_value, trivial_value
from gridarena.games.reversixt.fast.kernels import EXPANSION, HOLE, STEP, gen_phase1, kernel, make, unmake
from gridarena.games.reversixt.fast.layout import (
    ABORT,
    APART,
    BOMBS,
    BRS,
    CHECK_EVERY,
    COUNT,
    CPU_CLOCK,
    DISQ,
    EVAL,
    HASH,
    HORIZON,
    LAST,
    LMR,
    LMR2,
    MAXPLY,
    MODE,
    NEXT_CHECK,
    NODE_LIMIT,
    NODES,
    NONHOLE,
    OV,
    OVER,
    OVERRIDE_PLIES,
    PHASE,
    RADIUS,
    ROOT,
    ROOT_DONE,
    ROOT_FIRST,
    ROOT_MOVE,
    STATIC_LEAVES,
    TRIVIAL,
    P,
)

EXPAND: Final = INF + 1
MOVER_SHIFT: Final = 26
MOVE_MASK: Final = (1 << MOVER_SHIFT) - 1
BOMB_CANDIDATES: Final = 8
MAX_SORT: Final = 256
"""Longer move lists are not sorted (phase-2 target lists); the table's move still comes first."""

# Fields of a frame (one row per ply).
(F_ALPHA, F_BETA, F_BEST, F_BESTM, F_I, F_K, F_DEPTH, F_MAX, F_KEY, F_A0, F_B0, F_TURN, F_KILLER, F_NULL,
 F_AGAIN, F_RED) = range(16)  # fmt: skip
FRAME_FIELDS: Final = 16
MAX_TURN, MIN_TURN = 0, 1


@njit(cache=True)
def _now(cpu: int) -> float:
    """The wall clock (``time.perf_counter``), or with ``cpu`` this thread's CPU time, as the arena's clocks."""
    with numba.objmode(t="float64"):
        t = time.thread_time() if cpu else time.perf_counter()
    return t


@kernel
def _stop(ctl: np.ndarray, deadline: float) -> bool:
    if ctl[NODES] >= ctl[NEXT_CHECK]:
        ctl[NEXT_CHECK] = ctl[NODES] + ctl[CHECK_EVERY]
        if _now(ctl[CPU_CLOCK]) >= deadline or (ctl[NODE_LIMIT] >= 0 and ctl[NODES] > ctl[NODE_LIMIT]):
            ctl[ABORT] = 1
    return bool(ctl[ABORT] != 0)


@kernel
def full_key(st: np.ndarray, zs: np.ndarray, turn: int) -> int:
    """The position's key: the fields' hash, the phase, the last mover, the stocks (and BRS's turn)."""
    h = st[HASH] ^ zs[st[PHASE]] ^ zs[8 + st[LAST]] ^ zs[32 + turn]
    for k in range(1, st[P] + 1):
        h ^= zs[128 + k * 64 + min(st[OV + k], 63)] ^ zs[704 + k * 64 + min(st[BOMBS + k], 63)]
    return int(h)


@kernel
def _blast_score(
    target: int, mover: int, r: int, cells: np.ndarray, geo: np.ndarray, st: np.ndarray,
    buf: np.ndarray, marks: np.ndarray, ign: np.ndarray,
) -> int:  # fmt: skip
    """Immediate damage of a bomb on ``target`` as the mover sees it in paranoid search.

    R's bombs count opponents' stones (out-of-reach players' excepted) minus R's own; an
    opponent's bombs count R's stones (paranoid: they aim at R)."""
    n = len(cells)
    rad = st[RADIUS]
    marks[n] += 1
    stamp = marks[n]
    buf[0], buf[n], marks[target] = target, 0, stamp
    head, tail, score = 0, 1, 0
    while head < tail:
        f = buf[head]
        dist = buf[n + head]
        head += 1
        v = cells[f]
        if 1 <= v <= 8:
            if mover == r:
                score += -2 if v == r else (0 if ign[v] else 1)
            elif v == r:
                score += 1
        if dist == rad:
            continue
        for d in range(8):
            s = geo[STEP, f * 8 + d]
            if s >= 0 and marks[s >> 3] != stamp:
                marks[s >> 3] = stamp
                buf[tail] = s >> 3
                buf[n + tail] = dist + 1
                tail += 1
    return score


@kernel
def gen_bomb_targets(
    k: int, r: int, cells: np.ndarray, geo: np.ndarray, st: np.ndarray, moves: np.ndarray, keys: np.ndarray,
    row: int, buf: np.ndarray, marks: np.ndarray, ign: np.ndarray,
) -> int:  # fmt: skip
    """The bomb targets the search tries for ``k`` (mover packed in), best first; their count."""
    n = 0
    tag = k << MOVER_SHIFT
    if st[RADIUS] == 0:
        # No captures in phase 2: every stone of one player is the same target, every other field too.
        seen = np.int64(0)
        neutral = -1
        for c in range(len(cells)):
            v = cells[c]
            if v == HOLE:
                continue
            if 1 <= v <= 8:
                if v != k and not ign[v] and not (seen >> v) & 1:
                    seen |= np.int64(1) << v
                    moves[row, n] = tag | (c << 5)
                    # R bombs the player just above first; opponents bomb R first.
                    keys[row, n] = (1 << 20) if (k != r and v == r) else -abs(st[COUNT + v] - st[COUNT + r])
                    n += 1
            elif neutral < 0 or v == EXPANSION:
                neutral = c
        if n == 0 or neutral >= 0:
            c = neutral
            if c < 0:  # only own stones (or ignored players') remain
                for x in range(len(cells)):
                    if cells[x] != HOLE:
                        c = x
                        break
            if c >= 0:
                moves[row, n] = tag | (c << 5)
                keys[row, n] = -(1 << 30)
                n += 1
    else:
        # Keep the BOMB_CANDIDATES best targets by immediate damage (insertion into a short list).
        for c in range(len(cells)):
            if cells[c] == HOLE:
                continue
            score = _blast_score(c, k, r, cells, geo, st, buf, marks, ign)
            if n < BOMB_CANDIDATES:
                i = n
                n += 1
            elif score > keys[row, n - 1]:
                i = n - 1
            else:
                continue
            while i > 0 and keys[row, i - 1] < score:
                keys[row, i] = keys[row, i - 1]
                moves[row, i] = moves[row, i - 1]
                i -= 1
            keys[row, i] = score
            moves[row, i] = tag | (c << 5)
    return n


@kernel
def reach_links(
    cells: np.ndarray, geo: np.ndarray, p: int, reach: int, dist: np.ndarray, queue: np.ndarray, links: np.ndarray
) -> None:  # fmt: skip
    """``links[i, j] = 1`` where a stone of player j lies within ``reach`` steps of a stone of player i
    (single steps and transitions, over every field that is not a hole), for players 1..p.

    One breadth-first search per player, ``dist`` and ``queue`` (one entry per field) its scratch."""
    n = cells.shape[0]
    for i in range(links.shape[0]):
        for j in range(links.shape[1]):
            links[i, j] = 0
    for i in range(1, p + 1):
        tail = 0
        for x in range(n):
            dist[x] = -1
            if cells[x] == i:
                dist[x] = 0
                queue[tail] = x
                tail += 1
        head = 0
        while head < tail:
            x = queue[head]
            head += 1
            v = cells[x]
            if 1 <= v <= p:
                links[i, v] = 1
            if dist[x] >= reach:
                continue
            for d in range(8):
                s = geo[STEP, x * 8 + d]
                if s >= 0 and dist[s >> 3] < 0 and cells[s >> 3] != HOLE:
                    dist[s >> 3] = dist[x] + 1
                    queue[tail] = s >> 3
                    tail += 1


@kernel
def _tag(moves: np.ndarray, row: int, start: int, n: int, k: int) -> None:
    tag = k << MOVER_SHIFT
    for i in range(start, start + n):
        moves[row, i] |= tag


@kernel
def _prune_overrides(moves: np.ndarray, ply: int, n: int, cells: np.ndarray, ctl: np.ndarray) -> int:
    """From ply ``ctl[OVERRIDE_PLIES]`` on, drop override moves where other moves exist (forward pruning).

    With override stones in hand every flanking stone on the board is a move, which multiplies the
    width; spending one is rarely best, so below the first plies only a player without another move
    uses one. The moves stay complete at the root and just below it."""
    if ply < ctl[OVERRIDE_PLIES]:
        return n
    kept = 0
    for i in range(n):
        v = cells[(moves[ply, i] & MOVE_MASK) >> 5]
        if not (1 <= v <= 8 or v == EXPANSION):
            moves[ply, kept] = moves[ply, i]
            kept += 1
    if kept == 0:  # only override moves: the loop wrote nothing, all of them stay
        return n
    return kept


@kernel
def node_moves(
    cells: np.ndarray, geo: np.ndarray, st: np.ndarray, moves: np.ndarray, keys: np.ndarray, ply: int,
    turn: int, ctl: np.ndarray, buf: np.ndarray, marks: np.ndarray, ign: np.ndarray,
) -> tuple[int, int]:  # fmt: skip
    """The moves of the node at ``ply`` (movers packed in) and whether it is a MAX node (1), a MIN
    node (0) or the end (-1, no moves). Moves phase 1 into phase 2 and phase 2 to the end as the rules do."""
    r = ctl[ROOT]
    p = st[P]
    active = 0
    for k in range(1, p + 1):
        if st[DISQ + k] == 0:
            active += 1
    if active <= 1:
        st[PHASE] = OVER
        return 0, -1
    if st[PHASE] == 1 and ctl[MODE] == BRS:
        for attempt in range(2):
            if (turn + attempt) % 2 == MAX_TURN:
                n = gen_phase1(r, cells, geo, st, moves, ply, 0)
                if n > 0:
                    _tag(moves, ply, 0, n, r)
                    return _prune_overrides(moves, ply, n, cells, ctl), 1
            else:
                n = 0
                for k in range(1, p + 1):
                    if k != r and st[DISQ + k] == 0 and ctl[APART + k] == 0:
                        got = gen_phase1(k, cells, geo, st, moves, ply, n)
                        _tag(moves, ply, n, got, k)
                        n += got
                if n > 0:
                    return _prune_overrides(moves, ply, n, cells, ctl), 0
        # Neither R nor an opponent of his group can move: the real order below finds the players
        # apart from him, if any can, else ends phase 1.
    last = st[LAST]
    if st[PHASE] == 1:
        # The real order, first without the players apart from R (:data:`.layout.APART`), who move
        # only when no one else can (phase 1 ends when no player has a move).
        for apart in range(2):
            for j in range(1, p + 1):
                k = (last + j - 1) % p + 1
                if st[DISQ + k] or ctl[APART + k] != apart:
                    continue
                n = gen_phase1(k, cells, geo, st, moves, ply, 0)
                if n > 0:
                    _tag(moves, ply, 0, n, k)
                    return _prune_overrides(moves, ply, n, cells, ctl), 1 if k == r else 0
        st[PHASE] = 2
    if st[PHASE] == 2 and st[NONHOLE] > 0:
        for j in range(1, p + 1):
            k = (last + j - 1) % p + 1
            if st[DISQ + k] == 0 and st[BOMBS + k] > 0 and not ign[k]:
                n = gen_bomb_targets(k, r, cells, geo, st, moves, keys, ply, buf, marks, ign)
                if n > 0:
                    return n, 1 if k == r else 0
    st[PHASE] = OVER
    return 0, -1


@kernel
def _order(
    moves: np.ndarray, keys: np.ndarray, ply: int, k: int, first: int, hist: np.ndarray, wt: np.ndarray,
    phase: int, cells: np.ndarray, killer: int,
) -> None:  # fmt: skip
    """Sort ``moves[ply, :k]``: ``first`` (the table's or the previous iteration's move), then by key.

    Phase-1 keys: the history counter and the field's weight; override moves (onto a stone or an
    expansion stone) go behind the others, since spending an override stone is rarely best."""
    if phase == 1:
        for i in range(k):
            c = (moves[ply, i] & MOVE_MASK) >> 5
            keys[ply, i] = hist[c] + 16 * wt[c]
            v = cells[c]
            if 1 <= v <= 8 or v == EXPANSION:
                keys[ply, i] -= 1 << 40
            if moves[ply, i] == killer:  # the last move that cut off at this ply
                keys[ply, i] += 1 << 50
    for i in range(k):
        if moves[ply, i] == first:
            keys[ply, i] = INF
    if k > MAX_SORT:
        for i in range(k):
            if keys[ply, i] == INF:
                moves[ply, 0], moves[ply, i] = moves[ply, i], moves[ply, 0]
                keys[ply, 0], keys[ply, i] = keys[ply, i], keys[ply, 0]
        return
    for i in range(1, k):
        key, m = keys[ply, i], moves[ply, i]
        j = i - 1
        while j >= 0 and keys[ply, j] < key:
            keys[ply, j + 1] = keys[ply, j]
            moves[ply, j + 1] = moves[ply, j]
            j -= 1
        keys[ply, j + 1] = key
        moves[ply, j + 1] = m


@kernel
def _enter(
    ply: int, depth: int, alpha: int, beta: int, turn: int,
    cells: np.ndarray, geo: np.ndarray, st: np.ndarray, moves: np.ndarray, keys: np.ndarray,
    fr: np.ndarray, tt: np.ndarray, zs: np.ndarray, hist: np.ndarray, wt: np.ndarray,
    ctl: np.ndarray, buf: np.ndarray, marks: np.ndarray, ign: np.ndarray, sw: np.ndarray, ev: np.ndarray,
    deadline: float,
) -> int:  # fmt: skip
    """Open a node: its value if decided here, else :data:`EXPAND` with its moves ordered in ``moves[ply]``."""
    ctl[NODES] += 1
    if _stop(ctl, deadline):
        return 0
    r = ctl[ROOT]
    if st[PHASE] == OVER:
        return terminal_value(st, r)
    if depth <= 0:
        ctl[HORIZON] = 1  # a line was cut: a deeper search may see more
        if ctl[EVAL] == TRIVIAL:
            return trivial_value(st, r)
        if st[PHASE] == 2 or ctl[MODE] == BRS or ctl[STATIC_LEAVES]:
            # BRS's MIN layer would generate every opponent's moves for one mobility figure:
            # its leaves are static (the search reached twice the plies for it).
            return leaf_value(cells, geo, st, r, 0, 0, ctl, sw, ev, buf, marks)
    k, is_max = node_moves(cells, geo, st, moves, keys, ply, turn, ctl, buf, marks, ign)
    if is_max < 0:
        return terminal_value(st, r)
    if depth <= 0 or ply >= ctl[MAXPLY]:
        ctl[HORIZON] = 1
        mover = moves[ply, 0] >> MOVER_SHIFT
        return leaf_value(cells, geo, st, r, mover, k, ctl, sw, ev, buf, marks)
    # Values are the root player's: his number is part of the key, so one engine may search for several.
    key = full_key(st, zs, turn if ctl[MODE] == BRS else 0) ^ zs[48 + r]
    slot = key & (tt.shape[0] - 1)
    first = -1
    if ply == 0:
        first = ctl[ROOT_FIRST]
    elif tt[slot, 0] == key:
        first = tt[slot, 1]
        data = tt[slot, 2]
        if (data & 0xFF) >= depth:
            flag = (data >> 8) & 3
            score = data >> 10
            if flag == 0 or (flag == 1 and score >= beta) or (flag == 2 and score <= alpha):
                ctl[HORIZON] = 1  # the stored search may have been cut
                return int(score)
    _order(moves, keys, ply, k, first, hist, wt, st[PHASE], cells, fr[ply, F_KILLER])
    fr[ply, F_ALPHA], fr[ply, F_BETA], fr[ply, F_A0], fr[ply, F_B0] = alpha, beta, alpha, beta
    fr[ply, F_BEST] = -INF if is_max else INF
    fr[ply, F_BESTM], fr[ply, F_I], fr[ply, F_K] = moves[ply, 0], 0, k
    fr[ply, F_DEPTH], fr[ply, F_MAX], fr[ply, F_KEY] = depth, is_max, key
    fr[ply, F_TURN] = MIN_TURN if is_max else MAX_TURN
    return EXPAND


@kernel
def _record(ply: int, fr: np.ndarray, tt: np.ndarray) -> int:
    best = fr[ply, F_BEST]
    if best <= fr[ply, F_A0]:
        flag = 2
    elif best >= fr[ply, F_B0]:
        flag = 1
    else:
        flag = 0
    slot = fr[ply, F_KEY] & (tt.shape[0] - 1)
    tt[slot, 0], tt[slot, 1] = fr[ply, F_KEY], fr[ply, F_BESTM]
    tt[slot, 2] = (best << 10) | (flag << 8) | min(fr[ply, F_DEPTH], 255)
    return int(best)


@kernel
def search(
    depth: int, cells: np.ndarray, geo: np.ndarray, st: np.ndarray, clog: np.ndarray, saves: np.ndarray,
    wt: np.ndarray, zs: np.ndarray, buf: np.ndarray, marks: np.ndarray, moves: np.ndarray,
    keys: np.ndarray, fr: np.ndarray, tt: np.ndarray, hist: np.ndarray, ctl: np.ndarray, ign: np.ndarray,
    sw: np.ndarray, ev: np.ndarray, deadline: float,
) -> int:  # fmt: skip
    """The value for R (``ctl[ROOT]``) of the position to ``depth`` plies; the root's move in ``ctl[ROOT_MOVE]``.

    ``ctl[ROOT_DONE]`` counts the root moves searched to the end, so an interrupted depth can still
    hand back a move that beat the previous iteration's (searched first)."""
    ctl[ROOT_DONE] = 0
    value = _enter(0, depth, -INF, INF, MAX_TURN, cells, geo, st, moves, keys, fr, tt, zs, hist, wt, ctl, buf, marks, ign, sw, ev, deadline)  # fmt: skip
    if value != EXPAND:
        return value
    ply = 0
    fr[0, F_NULL] = fr[0, F_AGAIN] = 0
    while True:
        i = fr[ply, F_I]
        if i > 0 and not fr[ply, F_AGAIN]:
            if ctl[ABORT]:
                while ply > 0:
                    ply -= 1
                    unmake(ply, cells, geo, st, clog, saves)
                return 0
            m = moves[ply, i - 1]
            if fr[ply, F_NULL] and fr[ply, F_ALPHA] < value < fr[ply, F_BETA]:
                # The null window failed towards the full window: the value is only a bound.
                fr[ply, F_I] = i - 1
                fr[ply, F_AGAIN] = 1
                continue
            if fr[ply, F_RED] and (value > fr[ply, F_ALPHA] if fr[ply, F_MAX] else value < fr[ply, F_BETA]):
                # A reduced search that did not fail low proves nothing: search it again, full depth.
                fr[ply, F_I] = i - 1
                fr[ply, F_AGAIN] = 1
                continue
            if fr[ply, F_MAX]:
                if value > fr[ply, F_BEST]:
                    fr[ply, F_BEST], fr[ply, F_BESTM] = value, m
                    if ply == 0:
                        ctl[ROOT_MOVE] = m
                    if value > fr[ply, F_ALPHA]:
                        fr[ply, F_ALPHA] = value
            elif value < fr[ply, F_BEST]:
                fr[ply, F_BEST], fr[ply, F_BESTM] = value, m
                if value < fr[ply, F_BETA]:
                    fr[ply, F_BETA] = value
            if ply == 0:
                ctl[ROOT_DONE] += 1
            if fr[ply, F_ALPHA] >= fr[ply, F_BETA]:
                c = (m & MOVE_MASK) >> 5
                hist[c] += fr[ply, F_DEPTH] * fr[ply, F_DEPTH]
                fr[ply, F_KILLER] = m
        if i == fr[ply, F_K] or fr[ply, F_ALPHA] >= fr[ply, F_BETA]:
            value = _record(ply, fr, tt)
            if ply == 0:
                return value
            ply -= 1
            unmake(ply, cells, geo, st, clog, saves)
            continue
        m = moves[ply, i]
        fr[ply, F_I] = i + 1
        # Principal variation search: after the first move a null window proves the others no better;
        # a move it cannot refute is searched again with the full window (F_AGAIN).
        alpha, beta = fr[ply, F_ALPHA], fr[ply, F_BETA]
        fr[ply, F_NULL] = fr[ply, F_RED] = 0
        child_depth = fr[ply, F_DEPTH] - 1
        if fr[ply, F_AGAIN]:
            fr[ply, F_AGAIN] = 0
        elif i > 0 and fr[ply, F_DEPTH] >= 2:
            if beta - alpha > 1:
                fr[ply, F_NULL] = 1
                if fr[ply, F_MAX]:
                    beta = alpha + 1
                else:
                    alpha = beta - 1
            if ctl[LMR] > 0 and i >= ctl[LMR] and fr[ply, F_DEPTH] >= 3:
                # Late move reduction: a move the ordering put this far back is searched a ply
                # shallower first, and again at full depth only if it does not fail low.
                fr[ply, F_RED] = 1
                child_depth -= 1
                if ctl[LMR2] > 0 and i >= ctl[LMR2] and fr[ply, F_DEPTH] >= 4:
                    child_depth -= 1
        make(m & MOVE_MASK, m >> MOVER_SHIFT, ply, cells, geo, st, clog, saves, wt, buf, marks)
        child = _enter(
            ply + 1, child_depth, alpha, beta, fr[ply, F_TURN],
            cells, geo, st, moves, keys, fr, tt, zs, hist, wt, ctl, buf, marks, ign, sw, ev, deadline,
        )  # fmt: skip
        if child == EXPAND:
            ply += 1
            fr[ply, F_NULL] = fr[ply, F_AGAIN] = 0
        else:
            value = child
            unmake(ply, cells, geo, st, clog, saves)
