"""A pattern database built in memory: the numba builder's values packed into a :class:`PatternDatabase`."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from math import comb, perm
from typing import Any

import numpy as np

from gridarena.games.slidingpuzzle.board import Board
from gridarena.games.slidingpuzzle.fast.pdbbuild import UNSET, build_values, check_build_size
from gridarena.games.slidingpuzzle.formats import PdbError
from gridarena.games.slidingpuzzle.pdb.table import PatternDatabase, pack_nibbles


def build_pdb(
    goal: Board,
    pattern: Sequence[int],
    storage: str = "auto",
    *,
    progress: Callable[[int, int], None] | None = None,
) -> PatternDatabase:
    """Build the table of ``pattern`` in memory; ``auto`` storage packs 4 bits when values fit.

    ``progress(depth, states so far)`` is called as each breadth-first layer finds new states.

    >>> from gridarena.games.slidingpuzzle.board import goal_board
    >>> build_pdb(goal_board(2, 3), (4, 5)).storage
    'u4'
    """
    started = time.perf_counter()
    if storage not in ("u4", "u8", "r4", "auto"):
        raise PdbError(f"storage must be 'u4', 'u8', 'r4' or 'auto', not {storage!r}")
    deltas = None
    check_build_size(goal, pattern, storage)  # before the deltas' bytes are allocated
    if storage == "r4":
        size = len(goal.cells) - len(goal.walls)
        states = perm(size, len(pattern)) * comb(size - len(pattern), len(goal.blanks))
        deltas = np.full((states + 1) // 2, 255, dtype=np.uint8)
    values, states = build_values(goal, pattern, progress=progress, deltas=deltas)
    unreachable = int(np.count_nonzero(values == UNSET))
    top = int(values.max()) if not unreachable else int(values[values != UNSET].max())
    if storage == "auto":
        storage = "u4" if top < 15 and not unreachable else "u8"
    if storage == "u4" and (top >= 15 or unreachable):
        raise PdbError(f"values up to {top} (or unreachable placements) do not fit 4 bits; use 'u8'")
    if deltas is not None:
        table = np.concatenate([values, deltas])
        del deltas
    else:
        table = pack_nibbles(values) if storage == "u4" else values
    header: dict[str, Any] = {
        "max_value": top,
        "states": states,
        "unreachable": unreachable,
        "build_seconds": round(time.perf_counter() - started, 3),
    }
    return PatternDatabase(goal, tuple(pattern), storage, table, None, header)
