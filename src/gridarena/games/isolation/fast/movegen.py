"""Knight moves on two-word bitboards: the tables, move generation and perft of the fast engine.

A position is two ``uint64`` words of open cells (bit ``c & 63`` of word ``c >> 6`` set: row-major
cell ``c`` is blank) and the two pieces' cells (-1 before placement). Counting a piece's moves, the
hot operation (two per leaf), is two ANDs with the cell's knight mask and two popcounts (about
1.5 ns); a move is one XOR on a copy, so nothing is undone.

>>> from gridarena.games.isolation.rules import State
>>> lo, hi, me, other = to_words(State(5, 5))
>>> perft_words(lo, hi, me, other, neighbour_table(5, 5), 3)
2208
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, TypeVar, cast

import numpy as np
from numba import njit

from gridarena.games.isolation.rules import State, knight_targets

MAX_CELLS: Final = 128
"""The engine's largest board: two 64-bit words (11x11 = 121 cells fits)."""

_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)
_S2, _S4, _S56 = np.uint64(2), np.uint64(4), np.uint64(56)
ONE = np.uint64(1)
ZERO = np.uint64(0)


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

_F = TypeVar("_F", bound=Callable[..., Any])


def kernel(function: _F) -> _F:
    """``njit(cache=True)`` without reference counting, for the search's kernels.

    They allocate nothing, and with the default numba reference-counts every array argument on
    every call (atomic calls that cost more than a leaf): turning it off made the search about
    twice as fast. Kernels that allocate (the public wrappers) keep the default.
    """
    return cast(_F, njit(cache=True, _nrt=False)(function))  # type: ignore[call-overload]


@kernel
def popcount(x: np.uint64) -> int:
    """Set bits of a 64-bit word (SWAR; LLVM turns it into one instruction where the CPU has one)."""
    x = x - ((x >> ONE) & _M1)
    x = (x & _M2) + ((x >> _S2) & _M2)
    x = (x + (x >> _S4)) & _M4
    return int(np.int64((x * _H01) >> _S56))  # int() alone keeps uint64, and uint64 + int64 is float64


@kernel
def is_open(lo: np.uint64, hi: np.uint64, cell: int) -> bool:
    """Whether ``cell`` is blank."""
    if cell < 64:
        return bool(((lo >> np.uint64(cell)) & ONE) != ZERO)
    return bool(((hi >> np.uint64(cell - 64)) & ONE) != ZERO)


@kernel
def count_moves(lo: np.uint64, hi: np.uint64, masks: np.ndarray, loc: int) -> int:
    """Moves of a piece on ``loc``: its open knight targets, or every open cell while unplaced (-1)."""
    if loc < 0:
        return popcount(lo) + popcount(hi)
    return popcount(masks[loc, 0] & lo) + popcount(masks[loc, 1] & hi)


@kernel
def gen_row(lo: np.uint64, hi: np.uint64, nbr: np.ndarray, loc: int, stack: np.ndarray, row: int) -> int:
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
    return gen_row(lo, hi, nbr, loc, out.reshape((1, out.shape[0])), 0)


@kernel
def close_cell(lo: np.uint64, hi: np.uint64, cell: int) -> tuple[np.uint64, np.uint64]:
    """The words with ``cell`` blocked."""
    if cell < 64:
        return lo & ~(ONE << np.uint64(cell)), hi
    return lo, hi & ~(ONE << np.uint64(cell - 64))


@njit(cache=True)
def perft_words(lo: np.uint64, hi: np.uint64, me: int, other: int, nbr: np.ndarray, depth: int) -> int:
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
    count[0] = gen_row(lo, hi, nbr, me, moves, 0)
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
        nlo, nhi = close_cell(words[top, 0], words[top, 1], m)
        top += 1
        words[top, 0], words[top, 1], locs[top, 0], locs[top, 1] = nlo, nhi, locs[top - 1, 1], m
        count[top] = gen_row(nlo, nhi, nbr, locs[top, 0], moves, top)
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
