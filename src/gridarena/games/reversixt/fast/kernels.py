"""ReversiXT's rules as numba kernels over flat arrays: captures, move generation, make/unmake, bombs, perft.

Every kernel works in place on the arrays of :mod:`.layout`. ``make`` logs every changed field
(``clog``: ``cell << 8 | old code``) and saves the status vector of its ply (``saves``), so
``unmake`` restores a position exactly; a bomb's patched ``step`` entries are recomputed from the
restored fields. A move is packed ``cell << 5 | special`` (special 0, 1..8 for a choice, 20/21
for a bonus); the mover is passed beside it, so best-reply search can let any player move.

Numba 0.68 cannot reload a cached recursive kernel, so perft (and the search) are loops over an
explicit stack of plies.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, TypeVar, cast

import numpy as np
from numba import njit

from gridarena.games.reversixt.fast.layout import (
    BOMBS,
    CODES,
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
    P,
)

_F = TypeVar("_F", bound=Callable[..., Any])

CHOICE: Final = 9
INVERSION: Final = 10
BONUS: Final = 11
EXPANSION: Final = 12
HOLE: Final = 13
PLAIN, TRANS, STEP, ADJ = 0, 1, 2, 3
"""Rows of the ``geo`` table (``int32``, shape ``(4, cells * 8)``). ``geo[ADJ, c]`` (first ``cells``
entries) counts the occupied fields one step from ``c``: an empty field with none cannot capture,
so phase-1 move generation skips it without walking (occupancy only grows in phase 1)."""


def kernel(function: _F) -> _F:
    """``njit(cache=True)`` without reference counting and without the GIL: these kernels allocate nothing.

    Numba otherwise reference-counts every array argument on every call, which costs more than
    a small kernel's work (the Isolation engine measured twice the speed without it).
    """
    # nogil: a search in a worker thread (the network client's) leaves the event loop running.
    return cast(_F, njit(cache=True, _nrt=False, nogil=True)(function))  # type: ignore[call-overload]


@kernel
def is_stone(code: int) -> bool:
    return 1 <= code <= 8


@kernel
def zkey(c: int, code: int) -> int:
    """The Zobrist key of ``code`` on field ``c``: splitmix64's finaliser of ``c * 16 + code``.

    Computed, not looked up: a table of a key per field and code took 128 MB on a 1000 x 1000 map.
    The arithmetic is int64 (numba wraps on overflow); the masks make the right shifts logical."""
    z = np.int64(c * CODES + code + 1) * np.int64(-7046029254386353131)  # 0x9E3779B97F4A7C15
    z = (z ^ ((z >> 30) & np.int64(0x3FFFFFFFF))) * np.int64(-4658895280553007687)  # 0xBF58476D1CE4E5B9
    z = (z ^ ((z >> 27) & np.int64(0x1FFFFFFFFF))) * np.int64(-7723592293110705685)  # 0x94D049BB133111EB
    return int(z ^ ((z >> 31) & np.int64(0x1FFFFFFFF)))


@kernel
def hash_cells(cells: np.ndarray) -> int:
    """The fields' part of a position's key: the XOR of every field's :func:`zkey`."""
    h = np.int64(0)
    for c in range(len(cells)):
        h ^= zkey(c, cells[c])
    return int(h)


@kernel
def set_cell(c: int, new: int, cells: np.ndarray, st: np.ndarray, clog: np.ndarray, wt: np.ndarray) -> None:
    """Change one field, logging the old code and keeping counts, positional sums and the hash."""
    old = int(cells[c])
    clog[st[CTOP]] = (c << 8) | old
    st[CTOP] += 1
    cells[c] = new
    if 1 <= old <= 8:
        st[COUNT + old] -= 1
        st[POS + old] -= wt[c]
    if 1 <= new <= 8:
        st[COUNT + new] += 1
        st[POS + new] += wt[c]
    st[HASH] ^= zkey(c, old) ^ zkey(c, new)


@kernel
def captures_any(k: int, c: int, cells: np.ndarray, geo: np.ndarray) -> bool:
    """Whether a stone of ``k`` on ``c`` captures in some direction."""
    for d in range(8):
        s = geo[STEP, c * 8 + d]
        if s < 0:
            continue
        x = s >> 3
        code = cells[x]
        if not (1 <= code <= 8 and code != k) and code != EXPANSION:
            continue
        while True:
            if x == c:
                break
            code = cells[x]
            if code == k:
                return True
            if not (1 <= code <= 8 or code == EXPANSION):
                break
            s = geo[STEP, x * 8 + (s & 7)]
            if s < 0:
                break
            x = s >> 3
    return False


@kernel
def collect_captures(k: int, c: int, cells: np.ndarray, geo: np.ndarray, buf: np.ndarray) -> int:
    """Write the fields ``k`` captures by playing ``c`` into ``buf`` (repeats possible); their count."""
    n = 0
    for d in range(8):
        s = geo[STEP, c * 8 + d]
        start = n
        closed = False
        while s >= 0:
            x = s >> 3
            if x == c:
                break
            code = cells[x]
            if code == k:
                closed = n > start
                break
            if not (1 <= code <= 8 or code == EXPANSION):
                break
            buf[n] = x
            n += 1
            s = geo[STEP, x * 8 + (s & 7)]
        if not closed:
            n = start
    return n


@kernel
def gen_phase1(
    k: int, cells: np.ndarray, geo: np.ndarray, st: np.ndarray, moves: np.ndarray, row: int, start: int
) -> int:
    """Player ``k``'s phase-1 moves, every special byte expanded, into ``moves[row, start:]``; their count."""
    n = start
    ov = st[OV + k]
    p = st[P]
    for c in range(len(cells)):
        code = cells[c]
        if code == HOLE:
            continue
        if code == EXPANSION:
            if ov > 0:
                moves[row, n] = c << 5
                n += 1
            continue
        if 1 <= code <= 8:
            if ov <= 0:
                continue
        elif geo[ADJ, c] == 0:
            continue
        if not captures_any(k, c, cells, geo):
            continue
        if code == CHOICE:
            for s in range(1, p + 1):
                moves[row, n] = (c << 5) | s
                n += 1
        elif code == BONUS:
            moves[row, n] = (c << 5) | 20
            moves[row, n + 1] = (c << 5) | 21
            n += 2
        else:
            moves[row, n] = c << 5
            n += 1
    return n - start


@kernel
def count_phase1(k: int, cells: np.ndarray, geo: np.ndarray, st: np.ndarray) -> int:
    """The number of :func:`gen_phase1`'s moves without writing them (perft's last ply)."""
    n = 0
    ov = st[OV + k]
    p = st[P]
    for c in range(len(cells)):
        code = cells[c]
        if code == HOLE:
            continue
        if code == EXPANSION:
            if ov > 0:
                n += 1
            continue
        if 1 <= code <= 8:
            if ov <= 0:
                continue
        elif geo[ADJ, c] == 0:
            continue
        if captures_any(k, c, cells, geo):
            n += p if code == CHOICE else (2 if code == BONUS else 1)
    return n


@kernel
def count_next(cells: np.ndarray, geo: np.ndarray, st: np.ndarray) -> int:
    """The number of moves of the next player to move (what :func:`advance` would list), without listing them."""
    p = st[P]
    active = 0
    for k in range(1, p + 1):
        if st[DISQ + k] == 0:
            active += 1
    if active <= 1 or st[PHASE] == OVER:
        return 0
    last = st[LAST]
    if st[PHASE] == 1:
        for j in range(1, p + 1):
            k = (last + j - 1) % p + 1
            if st[DISQ + k] == 0:
                n = count_phase1(k, cells, geo, st)
                if n > 0:
                    return n
    if st[NONHOLE] > 0:
        for j in range(1, p + 1):
            k = (last + j - 1) % p + 1
            if st[DISQ + k] == 0 and st[BOMBS + k] > 0:
                return int(st[NONHOLE])
    return 0


@kernel
def has_phase1_move(k: int, cells: np.ndarray, geo: np.ndarray, st: np.ndarray) -> bool:
    """Whether ``k`` has a phase-1 move (stops at the first)."""
    ov = st[OV + k]
    for c in range(len(cells)):
        code = cells[c]
        if code == HOLE:
            continue
        if code == EXPANSION:
            if ov > 0:
                return True
            continue
        if 1 <= code <= 8 and ov <= 0:
            continue
        if captures_any(k, c, cells, geo):
            return True
    return False


@kernel
def gen_bombs(cells: np.ndarray, moves: np.ndarray, row: int) -> int:
    """Every field that is not a hole, as bomb targets, into ``moves[row]``; their count."""
    n = 0
    for c in range(len(cells)):
        if cells[c] != HOLE:
            moves[row, n] = c << 5
            n += 1
    return n


@kernel
def advance(
    cells: np.ndarray, geo: np.ndarray, st: np.ndarray, moves: np.ndarray, row: int, count: np.ndarray
) -> int:
    """The player to move (the first after the last mover who can move), his moves in ``moves[row]`` and
    their number in ``count[row]``.

    Sets ``st[PHASE]`` to 2 when phase 1 is over and to :data:`OVER` at the end (then returns 0).
    """
    p = st[P]
    active = 0
    for k in range(1, p + 1):
        if st[DISQ + k] == 0:
            active += 1
    count[row] = 0
    if active <= 1:
        st[PHASE] = OVER
        return 0
    last = st[LAST]
    if st[PHASE] == 1:
        for j in range(1, p + 1):
            k = (last + j - 1) % p + 1
            if st[DISQ + k]:
                continue
            n = gen_phase1(k, cells, geo, st, moves, row, 0)
            if n > 0:
                count[row] = n
                return int(k)
        st[PHASE] = 2
    if st[PHASE] == 2:
        if st[NONHOLE] > 0:
            for j in range(1, p + 1):
                k = (last + j - 1) % p + 1
                if st[DISQ + k] == 0 and st[BOMBS + k] > 0:
                    count[row] = gen_bombs(cells, moves, row)
                    return int(k)
        st[PHASE] = OVER
    return 0


@kernel
def _step_at(c: int, d: int, cells: np.ndarray, geo: np.ndarray) -> int:
    """The single step (neighbour or transition) from ``c`` in direction ``d`` now, from the fixed tables."""
    if cells[c] == HOLE:
        return -1
    nb = geo[PLAIN, c * 8 + d]
    if nb >= 0 and cells[nb] != HOLE:
        return int(nb * 8 + d)
    t = geo[TRANS, c * 8 + d]
    if t >= 0 and cells[t >> 3] != HOLE:
        return int(t)
    return -1


@kernel
def _occupy(c: int, geo: np.ndarray, delta: int) -> None:
    """``c`` became occupied (``delta`` 1) or empty again (-1): update its neighbours' counts."""
    for d in range(8):
        s = geo[STEP, c * 8 + d]
        if s >= 0:
            geo[ADJ, s >> 3] += delta


@kernel
def rebuild(cells: np.ndarray, geo: np.ndarray) -> None:
    """Compute ``step`` and the occupied-neighbour counts of a whole board (a loaded position)."""
    n = len(cells)
    for c in range(n):
        geo[ADJ, c] = 0
    for c in range(n):
        for d in range(8):
            geo[STEP, c * 8 + d] = _step_at(c, d, cells, geo)
    for c in range(n):
        v = cells[c]
        if 1 <= v <= 8 or v == EXPANSION:
            _occupy(c, geo, 1)


@kernel
def patch_steps(t: int, cells: np.ndarray, geo: np.ndarray) -> None:
    """Recompute every ``step`` entry that leaves ``t`` or may arrive on it (after ``t`` changed holeness)."""
    for d in range(8):
        geo[STEP, t * 8 + d] = _step_at(t, d, cells, geo)
        nb = geo[PLAIN, t * 8 + d]
        if nb >= 0:
            back = (d + 4) & 7
            geo[STEP, nb * 8 + back] = _step_at(nb, back, cells, geo)
        tr = geo[TRANS, t * 8 + d]
        if tr >= 0:
            u, back = tr >> 3, ((tr & 7) + 4) & 7
            geo[STEP, u * 8 + back] = _step_at(u, back, cells, geo)


@kernel
def explode(
    target: int,
    cells: np.ndarray,
    geo: np.ndarray,
    st: np.ndarray,
    clog: np.ndarray,
    wt: np.ndarray,
    buf: np.ndarray,
    marks: np.ndarray,
) -> int:
    """Turn every field within the radius of ``target`` into a hole; the number destroyed.

    Breadth-first over ``step`` on the board before the explosion; ``buf`` holds the queue and the
    distances (``buf[n + i]``), ``marks`` the visited fields by a stamp kept in ``marks[n]`` (not in
    ``st``: unmake restores ``st``, and a stamp used again would find stale marks).
    """
    n = len(cells)
    r = st[RADIUS]
    marks[n] += 1
    stamp = marks[n]
    buf[0] = target
    buf[n] = 0
    marks[target] = stamp
    head, tail = 0, 1
    while head < tail:
        f = buf[head]
        dist = buf[n + head]
        head += 1
        if dist == r:
            continue
        for d in range(8):
            s = geo[STEP, f * 8 + d]
            if s >= 0:
                x = s >> 3
                if marks[x] != stamp:
                    marks[x] = stamp
                    buf[tail] = x
                    buf[n + tail] = dist + 1
                    tail += 1
    for i in range(tail):
        set_cell(buf[i], HOLE, cells, st, clog, wt)
    for i in range(tail):
        patch_steps(buf[i], cells, geo)
    st[NONHOLE] -= tail
    return tail


@kernel
def _save(st: np.ndarray, saves: np.ndarray, ply: int) -> None:
    """Save the slots a move can change (the scalars and the per-player stocks, counts and sums;
    the disqualified flags never change inside a search): a third of ``st`` with two players."""
    p = st[P]
    for i in range(OV):
        saves[ply, i] = st[i]
    for k in range(1, p + 1):
        saves[ply, OV + k] = st[OV + k]
        saves[ply, BOMBS + k] = st[BOMBS + k]
        saves[ply, COUNT + k] = st[COUNT + k]
        saves[ply, POS + k] = st[POS + k]


@kernel
def _restore(st: np.ndarray, saves: np.ndarray, ply: int) -> None:
    p = st[P]
    for i in range(OV):
        st[i] = saves[ply, i]
    for k in range(1, p + 1):
        st[OV + k] = saves[ply, OV + k]
        st[BOMBS + k] = saves[ply, BOMBS + k]
        st[COUNT + k] = saves[ply, COUNT + k]
        st[POS + k] = saves[ply, POS + k]


@kernel
def make(
    m: int,
    k: int,
    ply: int,
    cells: np.ndarray,
    geo: np.ndarray,
    st: np.ndarray,
    clog: np.ndarray,
    saves: np.ndarray,
    wt: np.ndarray,
    buf: np.ndarray,
    marks: np.ndarray,
) -> None:
    """Player ``k`` plays the packed move ``m`` (a phase-1 move or, in phase 2, a bomb); saved at ``ply``."""
    _save(st, saves, ply)
    c, s = m >> 5, m & 31
    if st[PHASE] == 2:
        explode(c, cells, geo, st, clog, wt, buf, marks)
        st[BOMBS + k] -= 1
        st[LAST] = k
        return
    code = int(cells[c])
    if 1 <= code <= 8 or code == EXPANSION:
        st[OV + k] -= 1
    else:
        _occupy(c, geo, 1)
    n = collect_captures(k, c, cells, geo, buf)
    set_cell(c, k, cells, st, clog, wt)
    for i in range(n):
        if cells[buf[i]] != k:
            set_cell(buf[i], k, cells, st, clog, wt)
    p = st[P]
    if code == CHOICE and s != k:
        for x in range(len(cells)):
            v = cells[x]
            if v == k:
                set_cell(x, s, cells, st, clog, wt)
            elif v == s:
                set_cell(x, k, cells, st, clog, wt)
    elif code == INVERSION:
        for x in range(len(cells)):
            v = cells[x]
            if 1 <= v <= p:
                set_cell(x, v % p + 1, cells, st, clog, wt)
    elif code == BONUS:
        if s == 20:
            st[BOMBS + k] += 1
        else:
            st[OV + k] += 1
    st[LAST] = k


@kernel
def unmake(
    ply: int, cells: np.ndarray, geo: np.ndarray, st: np.ndarray, clog: np.ndarray, saves: np.ndarray
) -> None:
    """Undo the move made at ``ply`` (fields from the log, then the status vector)."""
    top = saves[ply, CTOP]
    bomb = saves[ply, PHASE] == 2
    if not bomb and st[CTOP] > top:
        first = clog[top]  # a phase-1 move logs its own field first
        old = first & 0xFF
        if not (1 <= old <= 8 or old == EXPANSION):
            _occupy(first >> 8, geo, -1)
    i = st[CTOP] - 1
    while i >= top:
        e = clog[i]
        cells[e >> 8] = e & 0xFF
        i -= 1
    if bomb:
        for j in range(top, st[CTOP]):
            patch_steps(clog[j] >> 8, cells, geo)
    _restore(st, saves, ply)


@kernel
def perft_loop(
    depth: int,
    cells: np.ndarray,
    geo: np.ndarray,
    st: np.ndarray,
    clog: np.ndarray,
    saves: np.ndarray,
    wt: np.ndarray,
    buf: np.ndarray,
    marks: np.ndarray,
    moves: np.ndarray,
    count: np.ndarray,
    index: np.ndarray,
    movers: np.ndarray,
) -> int:
    """Leaves ``depth`` plies below the position (a game that ends sooner adds none)."""
    if depth == 0:
        return 1
    mover = advance(cells, geo, st, moves, 0, count)
    if mover == 0:
        return 0
    if depth == 1:
        return int(count[0])
    total = 0
    ply = 0
    index[0] = 0
    movers[0] = mover
    while True:
        if index[ply] >= count[ply]:
            if ply == 0:
                break
            ply -= 1
            unmake(ply, cells, geo, st, clog, saves)
            continue
        m = moves[ply, index[ply]]
        index[ply] += 1
        make(m, movers[ply], ply, cells, geo, st, clog, saves, wt, buf, marks)
        if depth - ply - 1 == 1:  # the child's moves are the leaves: count them, list nothing
            total += count_next(cells, geo, st)
            unmake(ply, cells, geo, st, clog, saves)
            continue
        child = advance(cells, geo, st, moves, ply + 1, count)
        if child == 0:
            unmake(ply, cells, geo, st, clog, saves)
            continue
        ply += 1
        index[ply] = 0
        movers[ply] = child
    return total
