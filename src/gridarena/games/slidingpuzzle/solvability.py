"""Whether a start board can reach a goal board: decided by a rule where one applies, else by a search."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Literal, TypeAlias

from gridarena.games.slidingpuzzle.board import BLANK, WALL, Board, Cell, movable_neighbours

#: Why a complete search that found no way to the goal answers "unsolvable".
EXHAUSTED: Final = "every reachable board was searched"

Verdict: TypeAlias = Literal["solvable", "unsolvable", "unknown"]


@dataclass(frozen=True, slots=True)
class Solvability:
    """Whether ``start`` can reach ``goal``: a verdict and the reason behind it."""

    verdict: Verdict
    reason: str


def _components(adjacent: Sequence[Sequence[Cell]], cells: Sequence[Cell]) -> list[list[Cell]]:
    """Connected components of the graph induced on ``cells``."""
    inside, seen, parts = set(cells), set[int](), []
    for start in cells:
        if start in seen:
            continue
        part, stack = [], [start]
        seen.add(start)
        while stack:
            c = stack.pop()
            part.append(c)
            for m in adjacent[c]:
                if m in inside and m not in seen:
                    seen.add(m)
                    stack.append(m)
        parts.append(sorted(part))
    return parts


def _biconnected(adjacent: Sequence[Sequence[Cell]], cells: Sequence[Cell]) -> bool:
    """True if the induced graph stays connected after removing any one cell (and has >= 3 cells)."""
    return len(cells) >= 3 and all(
        len(_components(adjacent, [c for c in cells if c != cut])) == 1 for cut in cells
    )


def _permutation_parity(mapping: Mapping[int, int]) -> int:
    """Parity (0 even, 1 odd) of a permutation given as a dict, by counting cycles."""
    seen, parity = set[int](), 0
    for start in mapping:
        length, c = 0, start
        while c not in seen:
            seen.add(c)
            c = mapping[c]
            length += 1
        if length:
            parity ^= (length - 1) & 1
    return parity


def _cycle_order(adjacent: Sequence[Sequence[Cell]], part: Sequence[Cell], board: Board) -> list[int]:
    """Tiles read once around a component that is a simple cycle, starting at its smallest cell."""
    order, previous, c = [], -1, part[0]
    for _ in part:
        order.append(board.cells[c])
        previous, c = c, next(m for m in adjacent[c] if m != previous and m in set(part))
    return [v for v in order if v > 0]


def _rotations_equal(a: list[int], b: list[int]) -> bool:
    return len(a) == len(b) and (not a or any(a[i:] + a[:i] == b for i in range(len(a))))


def check_solvable(start: Board, goal: Board) -> Solvability:
    """Decide whether ``start`` reaches ``goal`` where a rule decides it; else say why not.

    Always checked: same size and walls, same tiles, and per connected region of movable cells the
    same tiles and number of blanks. With one blank, the permutation parity must match the parity of
    the blank's displacement (grid graphs are bipartite); that parity is also sufficient when the
    blank's region is 2-connected and not a cycle (Wilson, 1974). A cycle is decided by the cyclic
    order of its tiles. Other cases (two or more blanks, a region with a cut cell) have no rule here:
    the verdict is "unknown" and a complete search decides.

    >>> check_solvable(Board(2, 2, (2, 1, 3, 0)), Board(2, 2, (1, 2, 3, 0))).verdict
    'unsolvable'
    >>> from gridarena.games.slidingpuzzle.board import goal_board
    >>> check_solvable(Board(3, 3, (1, 2, 3, 4, 5, 6, 7, 0, 8)), goal_board(3, 3)).verdict
    'solvable'
    """
    if (start.rows, start.cols) != (goal.rows, goal.cols):
        return Solvability(
            "unsolvable", f"boards differ in size: {start.rows}x{start.cols} vs {goal.rows}x{goal.cols}"
        )
    if start.walls != goal.walls:
        return Solvability("unsolvable", f"walls differ: {list(start.walls)} vs {list(goal.walls)}")
    if start.tiles != goal.tiles:
        return Solvability("unsolvable", f"tiles differ: {list(start.tiles)} vs {list(goal.tiles)}")
    adjacent = movable_neighbours(goal)
    movable = [c for c, v in enumerate(goal.cells) if v != WALL]
    parts = _components(adjacent, movable)
    for part in parts:
        a = sorted(start.cells[c] for c in part)
        b = sorted(goal.cells[c] for c in part)
        if a != b:
            return Solvability("unsolvable", f"the region of cells {part} holds different tiles or blanks")
        if BLANK not in a and any(start.cells[c] != goal.cells[c] for c in part):
            return Solvability(
                "unsolvable", f"the region of cells {part} has no blank, so nothing in it moves"
            )
    if len(start.blanks) > 1:
        return Solvability(
            "unknown",
            "with two or more blanks no parity invariant exists and no rule is implemented; "
            "a complete search decides (the solvers answer 'unsolvable' when they exhaust the space)",
        )
    (part,) = [p for p in parts if start.blanks[0] in p]
    return _one_blank_verdict(start, goal, adjacent, part)


def _one_blank_verdict(
    start: Board, goal: Board, adjacent: list[list[Cell]], part: list[Cell]
) -> Solvability:
    """The one-blank rules on the blank's region ``part``."""
    if all(len([m for m in adjacent[c] if m in part]) == 2 for c in part) and len(part) > 2:
        same = _rotations_equal(_cycle_order(adjacent, part, start), _cycle_order(adjacent, part, goal))
        why = "the region is a cycle; tiles keep their cyclic order"
        return Solvability("solvable" if same else "unsolvable", why)
    where = {v: c for c, v in enumerate(goal.cells) if v >= 0}
    mapping = {c: where[start.cells[c]] for c in part}
    (s_blank,), (g_blank,) = start.blanks, goal.blanks
    colour = sum(divmod(s_blank, start.cols)) + sum(divmod(g_blank, goal.cols))
    if _permutation_parity(mapping) != colour & 1:
        return Solvability(
            "unsolvable", "permutation parity differs from the parity of the blank's displacement"
        )
    if _biconnected(adjacent, part):
        return Solvability(
            "solvable", "parity matches and the blank's region is 2-connected (Wilson's theorem)"
        )
    return Solvability(
        "unknown",
        "parity matches, but the blank's region has a cut cell, where parity is not sufficient; "
        "a complete search decides",
    )
