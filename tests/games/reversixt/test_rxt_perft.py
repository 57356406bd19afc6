"""Perft of the fast engine against the count files, and the shallow counts against the clear rules too.

``tests/data/reversixt/perft_*.txt`` are read by the registry-wide runner (tests/test_counts.py,
clear rules); the deeper counts of ``tests/data/reversixt/fast/`` are checked here by the fast engine,
the counts of shared-data maps through the ``shared_data`` fixture.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from countfiles import DATA, Entry, count_files, entry_state, read_count_file
from gridarena.games.reversixt.fast import perft
from gridarena.games.reversixt.formats import read_map
from gridarena.games.reversixt.rules import ReversiState, ReversiXT

FAST = DATA / "reversixt" / "fast"
CLEAR_WORK = 1_500_000
"""Counts whose leaves times fields stay below this are also recomputed by the clear rules."""

PROJECT = [e for path in count_files("reversixt") for e in read_count_file(path, "reversixt")]
DEEP = read_count_file(FAST / "perft_deep.txt", "reversixt")
SHARED = read_count_file(FAST / "perft_shared.txt", "reversixt")


def clear_perft(state: ReversiState, depth: int) -> int:
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    return sum(clear_perft(state.child(a), depth - 1) for a in state.legal_actions())


@pytest.mark.parametrize("entry", PROJECT + DEEP, ids=[e.id for e in PROJECT + DEEP])
def test_fast_perft_matches_count_files(entry: Entry) -> None:
    state = entry_state(entry)
    for count in (c for c in entry.counts if c.kind == "perft"):
        assert perft(state, count.depth or 0) == count.expected, f"{entry.where}: {count}"


@pytest.mark.parametrize("entry", SHARED, ids=[e.id for e in SHARED])
def test_fast_perft_on_shared_maps(shared_data: Path, entry: Entry) -> None:
    m = read_map(shared_data / "reversixt" / entry.state)
    state = ReversiXT.from_map(m).new_initial_state()
    for count in entry.counts:
        depth = count.depth or 0
        assert perft(m, depth) == count.expected, f"{entry.where}: {count}"
        if count.expected * len(m.cells) <= CLEAR_WORK:
            assert clear_perft(state, depth) == count.expected, f"{entry.where}: {count} (clear rules)"


def test_the_deep_file_extends_the_othello_counts() -> None:
    """The usual Othello counts, 4 to 390,216 over depths 1..8, all present between the two files."""
    counts = {
        c.depth: c.expected for e in PROJECT + DEEP if e.id == "reversixt/othello8-start" for c in e.counts
    }
    assert [counts[d] for d in range(1, 9)] == [4, 12, 56, 244, 1396, 8200, 55092, 390216]


def test_perft_refuses_a_depth_beyond_its_arrays() -> None:
    from gridarena.games.reversixt.fast import FastBoard

    board = FastBoard(ReversiXT("othello8").board, max_ply=4)
    with pytest.raises(ValueError, match="exceeds"):
        board.perft(board.max_ply + 1)
