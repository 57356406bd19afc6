"""Python's garbage collector kept off what was alive before a timed game.

CPython's cycle collector walks every container object it tracks on a full (generation 2) pass,
and the pass falls wherever the allocation counts say: inside a bot's move as often as not, charged
to that move. A process that has imported this package (numpy, scipy, the web stack: some 70,000
tracked objects) pays 20-45 ms for a pass on the 2-core machine of docs/arena.md. Against Ice and
Fire's 50 ms a move that was a forfeit: in the strength benchmark's runs about one game of ``best``
in 900 ended with an answer after 102-110 ms of CPU, in a turn whose hard limit had been read in
time but whose collector pass could not be stopped.

The standard library has the answer, ``gc.freeze``: the objects alive now leave the collector's
sight until ``gc.unfreeze``. :func:`game_heap` does that for one timed game of the arena's loop, so a
pass during a move walks only what the game has made; afterwards everything is collected once,
outside every clock. :func:`freeze_startup` is for a program that plays one game over a protocol:
what it built before its first turn (its imports, its tables) stays for its whole life.

The freeze is the process's: games played in threads of one process (the web viewer's) share it,
and the first of them to end unfreezes for all; the others then run as every game did before,
without the protection, never with less memory safety (a frozen object is only left unvisited).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def game_heap() -> Iterator[None]:
    """Freeze what is alive for the block (a game), then unfreeze it and collect it all once."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.collect()  # the game's cycles, and anything frozen that died meanwhile


def freeze_startup() -> None:
    """Collect once, then keep what is alive out of every later pass (a one-game program's start)."""
    gc.collect()
    gc.freeze()
