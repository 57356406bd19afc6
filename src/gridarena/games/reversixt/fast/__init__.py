"""The fast ReversiXT engine: numba kernels over flat arrays, for perft and search.

:mod:`.layout` names the arrays and builds the tables, :mod:`.kernels` holds the rules as kernels
(captures through transitions, overrides, choice, inversion, bonus, bombs, the next player and
the phases, perft), :mod:`.board` the :class:`FastBoard` that runs them. :mod:`.search` searches
(paranoid alpha-beta, BRS) over the values of :mod:`.evaluate`, :mod:`.engine` deepens it from Python,
:mod:`.mcts` plays UCT with random playouts. The clear rules (:mod:`gridarena.games.reversixt.rules`)
are the oracle the tests hold them to.
"""

from gridarena.core import kernelcache  # noqa: F401  (first: every file of the game stamps its kernels)
from gridarena.games.reversixt.fast.board import FastBoard, perft

__all__ = ["FastBoard", "perft"]
