"""The capture rules as functions of the cells and the step table: runs, captures, explosions, ranks,
and the cells after a placement or a bomb.

Pure functions over ``bytes`` cells and the map's step table (:func:`.geometry.step_table`), shared by
the game's state (:mod:`.rules`), the traces and the tests; the numba kernels (``fast/``) are held to them.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterator, Sequence
from typing import Final

from gridarena.games.reversixt.formats import (
    BONUS,
    BONUS_BOMB,
    CHOICE,
    EXPANSION,
    HOLE,
    INVERSION,
    Move,
    ReversiMap,
    is_stone,
)
from gridarena.games.reversixt.geometry import StepTable, step


def run(table: StepTable, cells: bytes | bytearray, start: int, d: int, k: int) -> list[int]:
    """The fields a stone of player ``k`` placed on ``start`` captures in direction ``d``.

    The walk follows ``step`` (transitions and their direction changes included) over foreign stones
    and expansion stones and is closed by the first stone of k. It captures nothing when it meets an
    empty or special field, falls off the board, or comes back to the placed field itself.
    """
    fields: list[int] = []
    pos = step(table, cells, start, d)
    limit = len(table)  # a walk on a map of one-to-one transitions never needs more
    while pos is not None and limit:
        i, d = pos
        if i == start:
            return []
        c = cells[i]
        if c == k:
            return fields
        if is_stone(c) or c == EXPANSION:
            fields.append(i)
            pos = step(table, cells, i, d)
            limit -= 1
        else:
            return []
    return []


def captures(table: StepTable, cells: bytes | bytearray, start: int, k: int) -> set[int]:
    """The union of the runs of all eight directions."""
    out: set[int] = set()
    for d in range(8):
        out.update(run(table, cells, start, d, k))
    return out


def is_valid_placement(table: StepTable, cells: bytes, i: int, k: int, overrides: int) -> bool:
    """Whether player ``k`` holding ``overrides`` override stones may place on cell ``i``."""
    c = cells[i]
    if c == HOLE:
        return False
    if c == EXPANSION:
        return overrides > 0
    if is_stone(c) and overrides == 0:
        return False
    return any(run(table, cells, i, d, k) for d in range(8))


def explosion(table: StepTable, cells: bytes | bytearray, target: int, radius: int) -> list[int]:
    """The fields a bomb on ``target`` turns into holes, in breadth-first order.

    Breadth-first over the eight neighbours and through transitions (``step``), never onto a hole,
    on the board as it is before the explosion.
    """
    dist = {target: 0}
    queue = deque([target])
    while queue:
        f = queue.popleft()
        if dist[f] == radius:
            continue
        for d in range(8):
            pos = step(table, cells, f, d)
            if pos is not None and pos[0] not in dist:
                dist[pos[0]] = dist[f] + 1
                queue.append(pos[0])
    return list(dist)


def place(
    table: StepTable,
    m: ReversiMap,
    cells: bytes,
    overrides: tuple[int, ...],
    bombs: tuple[int, ...],
    move: Move,
    k: int,
) -> tuple[bytes, tuple[int, ...], tuple[int, ...]]:
    """Cells and stocks after map player ``k`` places ``move`` on map ``m`` (the move must be valid)."""
    p = m.players
    i = m.index(move.x, move.y)
    before = cells[i]
    taken = captures(table, cells, i, k)
    board = bytearray(cells)
    ov, bo = list(overrides), list(bombs)
    if is_stone(before) or before == EXPANSION:
        ov[k - 1] -= 1
    board[i] = k
    for j in taken:
        board[j] = k
    if before == CHOICE and move.special != k:
        s = move.special
        board = bytearray(s if c == k else k if c == s else c for c in board)
    elif before == INVERSION:
        board = bytearray(c % p + 1 if is_stone(c) else c for c in board)
    elif before == BONUS:
        if move.special == BONUS_BOMB:
            bo[k - 1] += 1
        else:
            ov[k - 1] += 1
    return bytes(board), tuple(ov), tuple(bo)


def bomb(
    table: StepTable, m: ReversiMap, cells: bytes, bombs: tuple[int, ...], move: Move, k: int
) -> tuple[bytes, tuple[int, ...]]:
    """Cells and bomb stocks after map player ``k`` bombs ``move`` on map ``m`` (the target is valid)."""
    board = bytearray(cells)
    for j in explosion(table, cells, m.index(move.x, move.y), m.radius):
        board[j] = HOLE
    bo = list(bombs)
    bo[k - 1] -= 1
    return bytes(board), tuple(bo)


def order_after(last: int, p: int) -> Iterator[int]:
    """Map players L+1, ..., L+p (mod p, L itself last): the candidates to move after L."""
    for n in range(1, p + 1):
        yield (last - 1 + n) % p + 1


def stone_counts(cells: bytes, p: int) -> tuple[int, ...]:
    """Stones of each map player 1..p on the board."""
    return tuple(cells.count(k) for k in range(1, p + 1))


def competition_ranks(scores: Sequence[int | None]) -> tuple[int, ...]:
    """Ranks from scores: higher is better, ties share the better rank, None (disqualified) last.

    >>> competition_ranks([12, 30, 12, None])
    (2, 1, 2, 4)
    >>> competition_ranks([5, None, None])
    (1, 2, 2)
    """
    alive = [s for s in scores if s is not None]
    return tuple(len(alive) + 1 if s is None else 1 + sum(other > s for other in alive) for s in scores)


def returns_from_ranks(ranks: Sequence[int]) -> tuple[float, ...]:
    """Returns in [-1, 1], linear in the rank: rank 1 gets 1, rank p gets -1.

    The map keeps the order (a higher rank, i.e. a smaller rank number, is a higher return) and ties,
    so ``Outcome.ranks()`` of these returns gives the ranks back. Not zero-sum: two players sharing
    first place both get 1.

    >>> returns_from_ranks((1, 2, 2, 5, 5))
    (1.0, 0.5, 0.5, -1.0, -1.0)
    """
    p = len(ranks)
    return tuple((p + 1 - 2 * r) / (p - 1) for r in ranks)


_FOREIGN: Final = tuple(
    bytes(int(c == EXPANSION or (is_stone(c) and c != k)) for c in range(256)) for k in range(9)
)
"""``cells.translate(_FOREIGN[k])``: 1 on an expansion stone or a stone of a player other than ``k``, else 0."""


def candidates(into: Sequence[Sequence[int]], cells: bytes, k: int, overrides: int) -> Iterator[int]:
    """The cells that may be valid placements of player ``k``, each once, in no fixed order: a
    superset of the valid ones, produced lazily (a search for one valid cell stops early).

    A placement is valid only through a run whose first step lands on a foreign or expansion stone
    (or, with override stones, on an expansion stone itself), so the cells one step before such
    stones are the only candidates (``into``: :func:`~gridarena.games.reversixt.geometry.arrivals`). This
    prunes the search, it decides nothing: :func:`is_valid_placement` is applied to every candidate.
    """
    seen: set[int] = set()
    # The foreign and expansion stones, found at C speed: a mask byte 1 marks each (large sparse boards).
    for found in re.finditer(b"\x01", cells.translate(_FOREIGN[k])):
        j = found.start()
        more = [*into[j], j] if cells[j] == EXPANSION and overrides > 0 else into[j]
        for i in more:
            if i not in seen:
                seen.add(i)
                yield i


def candidate_cells(into: Sequence[Sequence[int]], cells: bytes, k: int, overrides: int) -> list[int]:
    """:func:`candidates`, ascending."""
    return sorted(candidates(into, cells, k, overrides))


def has_valid_cell(
    table: StepTable, into: Sequence[Sequence[int]], cells: bytes, k: int, overrides: int
) -> bool:
    """Whether player ``k`` has any valid placement (stops at the first, without listing them)."""
    return any(
        is_valid_placement(table, cells, i, k, overrides) for i in candidates(into, cells, k, overrides)
    )
