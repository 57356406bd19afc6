"""The flat arrays the ReversiXT kernels share, and the tables built once per map.

A position lives in a few arrays that the kernels change in place (make/unmake, private to the
search and perft loops): ``cells`` (one ``uint8`` code per field, :mod:`..formats`' codes) and the
``int64`` status vector ``st`` whose slots are named below (and the search's control array ``ctl``). The geometry is three ``int32`` tables
indexed ``cell * 8 + direction``: ``plain`` (the neighbour inside the rectangle, -1 outside),
``trans`` (the transition's arrival, packed ``cell * 8 + heading``, -1 if none) and ``step``, the
single step (neighbour or transition) on the current board, packed the same way. Bombs only add holes, so
``step`` is patched around each destroyed field (and patched back on unmake), never rebuilt.
"""

from __future__ import annotations

from typing import Final

import numpy as np

from gridarena.games.reversixt.formats import ReversiMap
from gridarena.games.reversixt.geometry import plain_and_glue

# Slots of the status vector ``st``. OV, BOMBS, DISQ, COUNT and POS are bases: slot base + k for player k.
P, RADIUS, PHASE, LAST, HASH, CTOP, SPARE, NONHOLE = range(8)
OV: Final = 8
BOMBS: Final = 17
DISQ: Final = 26
COUNT: Final = 35
POS: Final = 44
SLOTS: Final = 53
"""Length of ``st``."""

OVER: Final = 3
"""``st[PHASE]`` once the game is over (1 and 2 are the phases)."""

CODES: Final = 16
"""Codes per field in a Zobrist key (0..13 used)."""

# Slots of the control array ``ctl`` (int64): the search's settings and counters (:mod:`.search`) and the
# evaluation's choice and weights (:mod:`.evaluate`).
(NODES, ABORT, NEXT_CHECK, NODE_LIMIT, ROOT, MODE, EVAL, ROOT_MOVE, ROOT_DONE, ROOT_FIRST, W_MOB, W_OV,
 W_BOMB, AREA, MAXPLY, HORIZON, CHECK_EVERY, CPU_CLOCK, OVERRIDE_PLIES, W_SWAP, LMR, LMR2) = range(22)  # fmt: skip
W2: Final = 22
"""First slot of the map-reading evaluation's weights: an (early, late) pair per term of :data:`TERMS`."""
TERMS: Final = ("stable", "frontier", "potential", "corner_next", "bonus", "mobility", "override")
"""The map-reading evaluation's terms, in the order of their weight pairs from ``ctl[W2]`` on; the
first :data:`FEATURES` are counted per player by :func:`.evaluate.features`, in this order."""
STABLE, FRONTIER, POTENTIAL, CORNER_NEXT, BONUS_REACH, MOBILITY, OVERRIDE = range(7)
FEATURES: Final = 5
"""Rows of per-player counts that :func:`.evaluate.features` writes (9 slots each, players 1..8)."""
SWAP_WHOLE: Final = W2 + 2 * len(TERMS)
"""``ctl[SWAP_WHOLE]``: 1 lets the map-reading evaluation's swap term move R's whole value gap (its
features swap with the stones), 0 only the stone part, as ``best_v1``'s."""
RANK_REF: Final = SWAP_WHOLE + 1
"""``ctl[RANK_REF]``: whom R's value is measured against (:func:`.evaluate._ranked`): :data:`NEIGHBOURS`
(the mean of the players just above and just below him), :data:`LEADER` (the strongest other player)
or :data:`FIELD` (the mean of the others)."""
STATIC_LEAVES: Final = RANK_REF + 1
"""``ctl[STATIC_LEAVES]``: 1 evaluates paranoid and max^n leaves without generating the mover's moves
(no mobility term; BRS's leaves are always static), which takes the search deeper on large boards."""
APART: Final = STATIC_LEAVES + 1
"""``ctl[APART + k]`` (players 1..8): 1 where player k is apart from R in phase 1 (no stone of his
within the engine's ``apart`` steps of R's group, :meth:`.engine.Engine.apart_from`): the search
passes over his turns and the evaluation measures R against the others only."""
SURVIVE: Final = APART + 9
"""``ctl[SURVIVE]``: 1 values a position where R has no stone left, with three or more players, as a
finished game (:func:`.evaluate.terminal_value`: he ranks below everyone who has one), not by his
gap to the reference, in which no stones is only a few stones less than some."""
CTL_SLOTS: Final = SURVIVE + 1
NEIGHBOURS, LEADER, FIELD = 0, 1, 2
"""``ctl[RANK_REF]``'s values."""

PARANOID, BRS, MAXN = 0, 1, 2
"""``ctl[MODE]``: paranoid alpha-beta, best-reply search (:mod:`.search`) or max^n (:mod:`.maxn`)."""
TRIVIAL, STRONG, MAP = 0, 1, 2
"""``ctl[EVAL]``: ai_trivial's stone difference, the full evaluation of ``best_v1``, or the
map-reading evaluation (:func:`.evaluate.map_value`)."""


def geometry(m: ReversiMap) -> tuple[np.ndarray, np.ndarray]:
    """The ``plain`` and ``trans`` tables of a map (see the module docstring; built with numpy by
    :func:`~gridarena.games.reversixt.geometry.plain_and_glue`, which the clear rules share).

    >>> from gridarena.games.reversixt.formats import parse_map
    >>> plain, trans = geometry(parse_map("2 0 0 0 1 2 1 2 0 0 6 <-> 1 0 2"))
    >>> plain.reshape(2, 8)[0].tolist(), int(trans[6]) // 8, int(trans[6]) % 8
    ([-1, -1, 1, -1, -1, -1, -1, -1], 1, 6)
    """
    return plain_and_glue(m)


def status_keys(seed: int = 2009) -> np.ndarray:
    """Random keys for the status part of a position's key (phase, last mover, stock counts, turn);
    the fields' keys are computed (``kernels.zkey``)."""
    return np.random.default_rng(seed).integers(1, 2**63 - 1, size=2048, dtype=np.int64)
