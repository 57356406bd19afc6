"""A transposition table is bounded by bytes, not by a count of entries (issue 31, item 4).

A count that suits 7x7 Isolation (200,000 entries, about 60 MB) overran with 26x26 states, whose
``blocked`` integers are much larger: the alpha-beta bot's table grew past 80 MB. The budget holds
whatever the states weigh.
"""

from __future__ import annotations

import random
import tracemalloc

import pytest

from gridarena.games.isolation.rules import State
from gridarena.search.tt import Bound, Entry, TranspositionTable

BUDGET = 64 * 1024**2
"""The default budget (``tt.DEFAULT_BUDGET``), written out: the test holds the landed main to it too."""


@pytest.mark.parametrize("side", [7, 26])
def test_a_table_stays_within_its_budget_whatever_the_states_weigh(side: int) -> None:
    rng = random.Random(side)
    cells = side * side
    tracemalloc.start()
    try:
        table = TranspositionTable()
        for ply in range(250_000):
            blocked = rng.getrandbits(cells) | 1 << (cells - 1)  # every bit of a late position's board
            state = State(side, side, blocked, (rng.randrange(cells), rng.randrange(cells)), ply)
            table.store(state, Entry(5, 0.5, Bound.EXACT, 3, False))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < BUDGET, f"{side}x{side}: the table reached {peak / 2**20:.0f} MiB"
    assert len(table) > 40_000  # still a useful table


def test_a_small_budget_keeps_few_entries() -> None:
    table = TranspositionTable(budget=64 * 1024)
    for ply in range(5_000):
        table.store(State(7, 7, ply << 3, (1, 2), ply), Entry(1, 0.0, Bound.EXACT, None, False))
    assert 0 < len(table) <= table.limit < 1_000
