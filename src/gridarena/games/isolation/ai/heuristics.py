"""Isolation evaluation functions: the four AIND samples and the reference report's four custom ones.

Each heuristic is written once as a formula over a few numbers (``*_value``), then wrapped twice:
here as ``evaluate(state, player) -> float`` over gridarena's reference state (fields ``width``,
``height``, ``blocked``, ``locs``, ``ply``; cells row-major), and in :mod:`.aind.samples` as AIND's
``score(game, player)`` over the AIND ``Board``. Both first return ``-inf`` when ``player`` is to
move without a move and ``+inf`` when the opponent is, as AIND's sample heuristics do.

Choices the originals leave open: an unplaced piece has every blank cell as its moves (AIND's
rule); taxicab uses ``d = 1`` while a piece is unplaced; correlation counts an empty block (0)
for an unplaced player; center fails for an unplaced player, as AIND's does.

>>> s = State(7, 7, blocked=(1 << 17) | (1 << 5) | (1 << 8) | (1 << 18), locs=(8, 18), ply=4)
>>> improved(s, 0), center(s, 0), linear(s, 0), taxicab(s, 0), correlation(s, 0)
(-4.0, 12.5, -18.0, -0.5, -18.5)
>>> round(intersection(s, 0), 4)
-17.7778
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Final, TypeAlias

from gridarena.games.isolation.rules import Cell, State

LINEAR_WEIGHTS: Final = (1.0, 3.0)
"""(a) linear: weight of own moves and of the penalty for the opponent's (own - 3 * opp)."""
TAXICAB_K: Final = 0.5
"""(b) taxicab: ``k`` in ``(own - opp) * k / d``."""
INTERSECTION_M: Final = 1.0
"""(c) intersection: weight of ``own - 3 * opp``."""
INTERSECTION_BONUS: Final = 5.0
"""(c) intersection: the shared-target bonus is ``5 * common / blanks``."""
CORRELATION_WEIGHT: Final = 0.5
"""(d) correlation: weight of the non-blank count of the 3x3 block around the player."""

Evaluator: TypeAlias = Callable[[State, int], float]
"""``evaluate(state, player) -> float``, from ``player``'s point of view."""


# ---- formulas ------------------------------------------------------------------------------------


def improved_value(own: int, opp: int) -> float:
    """``own - opp``.

    >>> improved_value(3, 7)
    -4.0
    """
    return float(own - opp)


def center_value(width: int, height: int, row: int, col: int) -> float:
    """Squared distance from the board's geometric centre ``(height/2, width/2)`` (AIND's center_score).

    >>> center_value(7, 7, 3, 3), center_value(7, 7, 0, 0)
    (0.5, 24.5)
    """
    w, h = width / 2.0, height / 2.0
    return float((h - row) ** 2 + (w - col) ** 2)


def linear_value(own: int, opp: int) -> float:
    """(a) ``own - 3 * opp``.

    >>> linear_value(3, 7)
    -18.0
    """
    return LINEAR_WEIGHTS[0] * own - LINEAR_WEIGHTS[1] * opp


def taxicab_value(own: int, opp: int, distance: int) -> float:
    """(b) ``(own - opp) * 0.5 / d``.

    >>> taxicab_value(3, 7, 4)
    -0.5
    """
    return (own - opp) * TAXICAB_K / distance


def intersection_value(own: int, opp: int, common: int, blanks: int) -> float:
    """(c) ``1 * (own - 3 * opp) + 5 * (1 / blanks) * common``.

    >>> intersection_value(3, 7, 2, 45) == -18 + 10 / 45
    True
    """
    return INTERSECTION_M * (own - 3 * opp) + INTERSECTION_BONUS * (1 / blanks) * common


def correlation_value(own: int, opp: int, block: int) -> float:
    """(d) ``(own - 3 * opp) - 0.5 * C``, ``C`` the non-blank cells of the 3x3 block on the player.

    >>> correlation_value(3, 7, 1)
    -18.5
    """
    return (own - 3 * opp) - CORRELATION_WEIGHT * block


# ---- the reference state -------------------------------------------------------------------------


def _terminal_value(state: State, player: int, own: list[Cell], opp: list[Cell]) -> float | None:
    """``-inf`` if ``player`` is to move and stuck, ``+inf`` if its opponent is; else None."""
    to_move = state.ply % 2
    if to_move == player and not own:
        return -math.inf
    if to_move != player and not opp:
        return math.inf
    return None


def _mobilities(state: State, player: int) -> tuple[list[Cell], list[Cell], float | None]:
    own, opp = state.moves_of(player), state.moves_of(1 - player)
    return own, opp, _terminal_value(state, player, own, opp)


def null(state: State, player: int) -> float:
    """AIND ``null_score``: 0 unless the game is decided."""
    _, _, done = _mobilities(state, player)
    return 0.0 if done is None else done


def open_move(state: State, player: int) -> float:
    """AIND ``open_move_score``: the player's number of moves."""
    own, _, done = _mobilities(state, player)
    return float(len(own)) if done is None else done


def improved(state: State, player: int) -> float:
    """AIND ``improved_score``: own moves minus the opponent's."""
    own, opp, done = _mobilities(state, player)
    return improved_value(len(own), len(opp)) if done is None else done


def center(state: State, player: int) -> float:
    """AIND ``center_score``: squared distance from the board's centre point (it prefers edges)."""
    _, _, done = _mobilities(state, player)
    if done is not None:
        return done
    loc = state.locs[player]
    if loc is None:
        raise TypeError("center score of an unplaced player (AIND's center_score fails here too)")
    return center_value(state.width, state.height, *divmod(loc, state.width))


def linear(state: State, player: int) -> float:
    """(a) Linear combination ``own - 3 * opp``."""
    own, opp, done = _mobilities(state, player)
    return linear_value(len(own), len(opp)) if done is None else done


def taxicab(state: State, player: int) -> float:
    """(b) ``(own - opp) * 0.5 / d``, ``d`` the Manhattan distance between the pieces (1 while one is unplaced)."""
    own, opp, done = _mobilities(state, player)
    if done is not None:
        return done
    a, b = state.locs[player], state.locs[1 - player]
    d = 1
    if a is not None and b is not None:
        (r1, c1), (r2, c2) = divmod(a, state.width), divmod(b, state.width)
        d = abs(r1 - r2) + abs(c1 - c2)
    return taxicab_value(len(own), len(opp), d)


def intersection(state: State, player: int) -> float:
    """(c) ``(own - 3 * opp) + 5 * common / blanks``, ``common`` the targets both players share."""
    own, opp, done = _mobilities(state, player)
    if done is not None:
        return done
    blanks = state.width * state.height - state.blocked.bit_count()
    return intersection_value(len(own), len(opp), len(set(own) & set(opp)), blanks)


def block_count(state: State, cell: Cell) -> int:
    """Non-blank cells in the 3x3 block centred on ``cell`` (off-board cells count as blank).

    >>> block_count(State(3, 3, blocked=0b110000011, locs=(0, 8), ply=2), 4)
    4
    """
    row, col = divmod(cell, state.width)
    return sum(
        state.blocked >> (r * state.width + c) & 1
        for r in range(max(0, row - 1), min(state.height, row + 2))
        for c in range(max(0, col - 1), min(state.width, col + 2))
    )


def correlation(state: State, player: int) -> float:
    """(d) ``(own - 3 * opp) - 0.5 * C``, ``C`` the 3x3 correlation of the blocked cells at the player."""
    own, opp, done = _mobilities(state, player)
    if done is not None:
        return done
    loc = state.locs[player]
    block = 0 if loc is None else block_count(state, loc)
    return correlation_value(len(own), len(opp), block)


#: The eight heuristics by name, for ``bots.EVALUATORS``.
HEURISTICS: Final[dict[str, Evaluator]] = {
    "null": null,
    "open_move": open_move,
    "improved": improved,
    "center": center,
    "linear": linear,
    "taxicab": taxicab,
    "intersection": intersection,
    "correlation": correlation,
}
