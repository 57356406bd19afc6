"""The slots of the ``int64`` control array that the kernels of one search share.

A search passes one small array instead of a dozen arguments to every kernel: its limits and
options (set by :class:`~gridarena.games.isolation.fast.engine.Engine`) and its counters.
"""

from __future__ import annotations

from typing import Final

(NODES, NODE_LIMIT, ABORT, USE_TT, USE_ENDGAME, PATH_BUDGET, OWN_W, OPP_W, ROOT_MOVE, ROOT_FIRST,
 ROOT_SIDE, PATH_MAX, ENDGAME_CALLS, ENDGAME_SOLVED, SEP_DEPTH, NEXT_CHECK, PATH_STEPS) = range(17)  # fmt: skip
SLOTS: Final = 17
"""Length of the control array."""
