"""The fast Isolation engine: numba kernels over two-word bitboards, for boards of up to 128 cells (11x11).

:mod:`.movegen` holds the tables, move generation and perft; :mod:`.endgame` the separation test,
longest paths and the exact endgame; :mod:`.search` the negamax alpha-beta kernels and the
transposition table; :mod:`.engine` the :class:`Engine` that runs them, and the readable twins
(``*_ref``) that the tests hold every kernel to. :mod:`.control` names the slots of the array the
kernels of one search share.

A first version over a ``uint8`` cell array (eight loads per count, make/unmake) searched 2-3
million nodes per second on the benchmark positions; the bitboards search 5-10 million on the same
machine, though part of that gain came from the two changes noted at ``movegen.kernel`` and
``search.negamax``. Numba's cache would track each file on its own (callers in other files kept
their compiled copy of a changed kernel); :mod:`gridarena.core.kernelcache`, imported first, stamps
every kernel with all the files of the game.

>>> from gridarena.games.isolation.rules import State
>>> engine = Engine(5, 5, tt_bits=10)
>>> engine.perft(State(5, 5), 3)
2208
>>> Engine(4, 4, tt_bits=10).search(State(4, 4).child(5).child(10)).score < 0  # solved: player 1 loses
True
"""

from gridarena.core import kernelcache  # noqa: F401  (first: every file of the game stamps its kernels)
from gridarena.games.isolation.fast.engine import Engine, SearchResult
from gridarena.games.isolation.fast.movegen import MAX_CELLS
from gridarena.games.isolation.fast.search import WIN, WON

__all__ = ["MAX_CELLS", "WIN", "WON", "Engine", "SearchResult"]
