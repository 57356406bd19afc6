"""Evaluation kernels: a position's value for the root player R, at the search's leaves and at the end.

ai_trivial's stone difference (:func:`trivial_value`), ``best_v1``'s full evaluation
(:func:`strong_value`: stones weighted up as the board fills, field weights, stocks and mobility, against
the rank neighbours), the map-reading evaluation (:func:`map_value`, over the per-player counts of
:func:`features`) and the two-player swap term (:func:`swap_control`, :func:`swap_term`);
:func:`leaf_value` takes the one ``ctl[EVAL]`` names (the control array of :mod:`.layout`). A finished
game is :func:`terminal_value`. Higher is better for R.
"""

from __future__ import annotations

from typing import Final

import numpy as np

from gridarena.games.reversixt.fast.kernels import (
    ADJ,
    BONUS,
    CHOICE,
    EXPANSION,
    HOLE,
    INVERSION,
    STEP,
    captures_any,
    kernel,
)
from gridarena.games.reversixt.fast.layout import (
    APART,
    BOMBS,
    BONUS_REACH,
    CORNER_NEXT,
    COUNT,
    DISQ,
    EVAL,
    FEATURES,
    FIELD,
    FRONTIER,
    LEADER,
    MAP,
    MOBILITY,
    NONHOLE,
    OV,
    OVER,
    OVERRIDE,
    PHASE,
    POS,
    POTENTIAL,
    RANK_REF,
    STABLE,
    SURVIVE,
    SWAP_WHOLE,
    TRIVIAL,
    W2,
    W_BOMB,
    W_MOB,
    W_OV,
    W_SWAP,
    P,
)

NO_SWAP: Final = 2
""":func:`swap_control` when no swap can happen any more."""
INF: Final = 1 << 60
WIN_STEP: Final = 1 << 40
"""A terminal position scores this much per player beaten (minus per player ahead), plus the stone gap."""


@kernel
def terminal_value(st: np.ndarray, r: int) -> int:
    """A finished game for R: a win step per player below, a loss step per player above, plus the gap."""
    if st[DISQ + r]:
        return -WIN_STEP * 8
    mine = st[COUNT + r]
    value = 0
    best_other = -1
    for k in range(1, st[P] + 1):
        if k == r:
            continue
        s = -1 if st[DISQ + k] else st[COUNT + k]
        if s < mine:
            value += WIN_STEP
        elif s > mine:
            value -= WIN_STEP
        best_other = max(best_other, s)
    return int(value + mine - max(best_other, 0))


@kernel
def trivial_value(st: np.ndarray, r: int) -> int:
    """ai_trivial's evaluation: R's stones minus the strongest opponent's."""
    best = 0
    for k in range(1, st[P] + 1):
        if k != r and st[DISQ + k] == 0:
            best = max(best, st[COUNT + k])
    return int(st[COUNT + r] - best)


@kernel
def _weight(ctl: np.ndarray, term: int, fill: int) -> int:
    """Term ``term``'s weight at ``fill`` (0..1024 of the fields holding stones): early to late, linear."""
    early, late = ctl[W2 + 2 * term], ctl[W2 + 2 * term + 1]
    return int((early * (1024 - fill) + late * fill) >> 10)


@kernel
def _player_value(
    st: np.ndarray, k: int, ws: int, fill: int, ctl: np.ndarray, ev: np.ndarray, base: int
) -> int:
    """Player ``k``'s value: stones (``ws`` each), static field weights, override stones and bombs held;
    with ``base >= 0`` (the map-reading evaluation) also the features in ``ev`` from ``base`` on
    (:func:`features`), each at its weight for ``fill``. The bomb phase: stones and bombs."""
    if st[PHASE] == 2:
        return int(64 * st[COUNT + k] + ctl[W_BOMB] * st[BOMBS + k])
    v = ws * st[COUNT + k] + st[POS + k] + ctl[W_BOMB] * st[BOMBS + k]
    if base < 0:
        return int(v + ctl[W_OV] * st[OV + k])
    v += _weight(ctl, OVERRIDE, fill) * st[OV + k] + _weight(ctl, STABLE, fill) * ev[base + k]
    v -= _weight(ctl, FRONTIER, fill) * ev[base + 9 + k] + _weight(ctl, CORNER_NEXT, fill) * ev[base + 27 + k]
    return int(
        v
        + _weight(ctl, POTENTIAL, fill) * ev[base + 18 + k]
        + _weight(ctl, BONUS_REACH, fill) * ev[base + 36 + k]
    )


@kernel
def _ranked(
    st: np.ndarray, r: int, mover: int, mobility: int, ctl: np.ndarray, ev: np.ndarray, base: int, swap: int
) -> int:  # fmt: skip
    """R's value (:func:`_player_value`) against his rank neighbours (the student report's ranking
    heuristic: the mean of the players just above and just below R; ``ctl[RANK_REF]`` may name the
    strongest other player or the mean of the others instead; in phase 1 not the players apart from R,
    :data:`.layout.APART`), plus the mobility of the player
    to move in phase 1 (for R or against him). With ``swap`` (:func:`swap_control`, two players) the
    gap moves towards ``swap * |gap|``, ``ctl[W_SWAP]`` quarters of the way."""
    if ctl[SURVIVE] and st[COUNT + r] == 0 and st[P] > 2:
        return terminal_value(st, r)  # wiped out: last, whatever his gap (:data:`.layout.SURVIVE`)
    total = 0
    for k in range(1, st[P] + 1):
        total += st[COUNT + k]
    fill = (1024 * total) // max(st[NONHOLE], 1)
    ws = 8 + (fill * 56) // 1024
    mine = _player_value(st, r, ws, fill, ctl, ev, base)
    above, below = INF, -INF
    others, top, sum_others = 0, -INF, 0
    for k in range(1, st[P] + 1):
        if k == r or st[DISQ + k] or (st[PHASE] == 1 and ctl[APART + k]):
            continue
        others += 1
        v = _player_value(st, k, ws, fill, ctl, ev, base)
        top = max(top, v)
        sum_others += v
        if v > mine:
            above = min(above, v)
        else:
            below = max(below, v)
    if others == 0:
        return mine
    if ctl[RANK_REF] == LEADER:
        ref = top
    elif ctl[RANK_REF] == FIELD:
        ref = sum_others // others
    elif above == INF:
        ref = below
    elif below == -INF:
        ref = above
    else:
        ref = (above + below) // 2
    value = mine - ref
    if swap != NO_SWAP:  # two players, a swap still to come: who takes the last one gets the better colour
        value = (ctl[W_SWAP] * swap * abs(value) + (4 - ctl[W_SWAP]) * value) // 4
    if st[PHASE] == 1 and mover > 0:
        weight = ctl[W_MOB] if base < 0 else _weight(ctl, MOBILITY, fill)
        mob = min(mobility, 40) * weight
        value += mob if mover == r else -mob
    return value


@kernel
def strong_value(st: np.ndarray, r: int, mover: int, mobility: int, ctl: np.ndarray) -> int:
    """``best_v1``'s evaluation for R: stones (weighted up as the board fills), positional field weights,
    override stones and bombs held, mobility of the player to move, measured against the rank
    neighbours (:func:`_ranked`)."""
    return _ranked(st, r, mover, mobility, ctl, st, -1, NO_SWAP)  # no features: ``st`` stands in for ``ev``


@kernel
def _held(x: int, k: int, cells: np.ndarray, geo: np.ndarray, marks: np.ndarray, stamp: int) -> bool:
    """Whether every axis of ``x`` ends, or holds a stable stone of ``k`` (``marks == stamp``), on one side."""
    for a in range(4):
        one, two = geo[STEP, x * 8 + a], geo[STEP, x * 8 + a + 4]
        open_one = one >= 0 and not (cells[one >> 3] == k and marks[one >> 3] == stamp)
        open_two = two >= 0 and not (cells[two >> 3] == k and marks[two >> 3] == stamp)
        if open_one and open_two:
            return False
    return True


@kernel
def features(
    cells: np.ndarray, geo: np.ndarray, st: np.ndarray, ev: np.ndarray, buf: np.ndarray, marks: np.ndarray
) -> int:
    """Each player's stable, frontier and corner-adjacent stones, potential mobility and the bonus fields
    he can take now, in ``ev``'s scratch rows (the order of :data:`TERMS`); returns where they start.
    Phase 1 only (``step`` is the map's).

    * stable: a stone no line can flip: along each of its four axes one side ends (no step: a wall,
      a hole, a transition's end; a "corner" has no open axis at all) or holds a stable stone of the
      same player; found from the corners outwards (each stone is checked when a neighbour becomes
      stable), so the work follows the stable stones, not the board;
    * frontier: stones next to a field that is empty or special (fewer is better: they give moves away);
    * potential mobility: empty or special fields next to another player's stone (where moves may come);
    * corner_next: stones one step from an empty corner (they hand it over);
    * bonus: empty bonus fields where the player captures now (an override stone or a bomb to take).
    """
    n = len(cells)
    p = st[P]
    corners = ev[n]
    pairs = ev[n + 1 + corners]
    bonus_at = n + 2 + corners + 2 * pairs
    bonuses = ev[bonus_at]
    base = bonus_at + 1 + bonuses
    for i in range(base, base + 9 * FEATURES):
        ev[i] = 0
    stable, front, pot, near, bonus = base, base + 9, base + 18, base + 27, base + 36
    for i in range(bonuses):
        c = ev[bonus_at + 1 + i]
        if cells[c] == BONUS and geo[ADJ, c] > 0:
            for k in range(1, p + 1):
                if st[DISQ + k] == 0 and captures_any(k, c, cells, geo):
                    ev[bonus + k] += 1
    for c in range(n):
        v = cells[c]
        if 1 <= v <= 8:
            if geo[ADJ, c] < ev[c]:
                ev[front + v] += 1
        elif v != HOLE and v != EXPANSION and geo[ADJ, c] > 0:
            owners = 0
            for d in range(8):
                s = geo[STEP, c * 8 + d]
                if s >= 0:
                    w = cells[s >> 3]
                    if 1 <= w <= 8:
                        owners |= 1 << w
            for k in range(1, p + 1):
                if owners & ~(1 << k):
                    ev[pot + k] += 1
    for i in range(pairs):
        c, x = ev[n + 2 + corners + 2 * i], ev[n + 3 + corners + 2 * i]
        v, w = cells[c], cells[x]
        if not (1 <= v <= 8 or v == EXPANSION) and 1 <= w <= 8:
            ev[near + w] += 1
    marks[n] += 1
    stamp = marks[n]
    head, tail = 0, 0
    for i in range(corners):
        c = ev[n + 1 + i]
        if 1 <= cells[c] <= 8:
            marks[c] = stamp
            buf[tail] = c
            tail += 1
    while head < tail:
        c = buf[head]
        head += 1
        k = cells[c]
        ev[stable + k] += 1
        for d in range(8):
            s = geo[STEP, c * 8 + d]
            if s < 0:
                continue
            x = s >> 3
            if cells[x] != k or marks[x] == stamp:
                continue
            if _held(x, k, cells, geo, marks, stamp):
                marks[x] = stamp
                buf[tail] = x
                tail += 1
    return int(base)


@kernel
def map_value(
    cells: np.ndarray, geo: np.ndarray, st: np.ndarray, r: int, mover: int, mobility: int, ctl: np.ndarray,
    ev: np.ndarray, buf: np.ndarray, marks: np.ndarray, swap: int,
) -> int:  # fmt: skip
    """The map-reading evaluation for R: :func:`strong_value`'s stones, static field weights, stocks and
    rank neighbours, plus the map's stability, frontier, potential mobility and corner-adjacent stones
    (:func:`features`) and the mover's mobility, each weighted from its early to its late weight as the
    board fills; an override stone held is worth its own (falling) weight. The bomb phase is
    :func:`strong_value`'s (stones and bombs)."""
    if st[PHASE] != 1:
        return strong_value(st, r, 0, 0, ctl)
    return _ranked(st, r, mover, mobility, ctl, ev, features(cells, geo, st, ev, buf, marks), swap)


@kernel
def swap_control(
    cells: np.ndarray, geo: np.ndarray, st: np.ndarray, r: int, sw: np.ndarray, ctl: np.ndarray
) -> int:
    """Who will swap last, with two players and swap fields (choice, inversion) still empty.

    A swap exchanges every stone of the two players, so while one can still happen the stone
    difference D says little: the player who takes the last swap field ends with the larger
    colour. A player with more swap fields he can take now (he captures there) can wait for the
    other to run out, so R expects +|D| when he can reach more of them (1), -|D| when his opponent
    can (-1), and 0 on a tie (0; measured: the sign of who is or is not to move did no better).
    :data:`NO_SWAP` when no swap can happen any more (or the term is off)."""
    if st[P] != 2 or st[PHASE] != 1 or ctl[W_SWAP] == 0:
        return NO_SWAP
    o = 3 - r
    left, mine, theirs = 0, 0, 0
    for i in range(len(sw)):
        c = sw[i]
        v = cells[c]
        if v != CHOICE and v != INVERSION:
            continue
        left += 1
        if geo[ADJ, c] > 0:  # an empty field with no occupied neighbour captures nothing
            if captures_any(r, c, cells, geo):
                mine += 1
            if captures_any(o, c, cells, geo):
                theirs += 1
    if left == 0:
        return NO_SWAP
    return 1 if mine > theirs else (-1 if mine < theirs else 0)


@kernel
def swap_term(
    cells: np.ndarray, geo: np.ndarray, st: np.ndarray, r: int, sw: np.ndarray, ctl: np.ndarray
) -> int:
    """The swap term of the full evaluation (:func:`swap_control`): it moves the stone part
    (``ws * D``) towards ``ctrl * |D|``, ``ctl[W_SWAP]`` quarters of the way (4, the default: the
    estimate replaces the stone difference; 2, 3, 5 and 8 did worse in equal-node matches,
    docs/reversixt.md). After the last swap field it is 0."""
    ctrl = swap_control(cells, geo, st, r, sw, ctl)
    if ctrl == NO_SWAP:
        return 0
    d = st[COUNT + r] - st[COUNT + 3 - r]
    total = 0
    for k in range(1, st[P] + 1):
        total += st[COUNT + k]
    fill = (1024 * total) // max(st[NONHOLE], 1)
    ws = 8 + (fill * 56) // 1024
    return int(ctl[W_SWAP] * ws * (ctrl * abs(d) - d) // 4)


@kernel
def leaf_value(
    cells: np.ndarray, geo: np.ndarray, st: np.ndarray, r: int, mover: int, mobility: int, ctl: np.ndarray,
    sw: np.ndarray, ev: np.ndarray, buf: np.ndarray, marks: np.ndarray,
) -> int:  # fmt: skip
    """The evaluation ``ctl[EVAL]`` names at a leaf (``mover`` 0: no mobility known)."""
    if ctl[EVAL] == TRIVIAL:
        return trivial_value(st, r)
    if ctl[EVAL] == MAP and ctl[SWAP_WHOLE]:
        return map_value(
            cells, geo, st, r, mover, mobility, ctl, ev, buf, marks, swap_control(cells, geo, st, r, sw, ctl)
        )
    swap = swap_term(cells, geo, st, r, sw, ctl)
    if ctl[EVAL] == MAP:
        return map_value(cells, geo, st, r, mover, mobility, ctl, ev, buf, marks, NO_SWAP) + swap
    return strong_value(st, r, mover, mobility, ctl) + swap


@kernel
def leaf_vector(
    cells: np.ndarray, geo: np.ndarray, st: np.ndarray, mover: int, mobility: int, ctl: np.ndarray,
    sw: np.ndarray, ev: np.ndarray, buf: np.ndarray, marks: np.ndarray, out: np.ndarray,
) -> None:  # fmt: skip
    """Every player's value at a leaf of max^n search, in ``out[1..p]`` (0 for the disqualified): for
    each player k what :func:`leaf_value` gives with k as R; the map's features are counted once."""
    p = st[P]
    if st[PHASE] == OVER:
        for k in range(1, p + 1):
            out[k] = terminal_value(st, k)
        return
    if ctl[EVAL] == MAP and st[PHASE] == 1:
        base = features(cells, geo, st, ev, buf, marks)
        for k in range(1, p + 1):
            out[k] = 0 if st[DISQ + k] else _ranked(st, k, mover, mobility, ctl, ev, base, NO_SWAP)
        return
    for k in range(1, p + 1):
        out[k] = (
            0 if st[DISQ + k] else leaf_value(cells, geo, st, k, mover, mobility, ctl, sw, ev, buf, marks)
        )
