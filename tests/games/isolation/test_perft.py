"""Perft counts of tests/data/isolation/perft.txt, checked two ways.

The reference rules must reproduce every count, and so must an independent brute force written
here from the spec alone (sets of (row, col) pairs, no code shared with the package), so a wrong
data file cannot agree with a wrong engine by construction.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from gridarena.games.isolation.formats import parse_board
from gridarena.games.isolation.rules import State

PERFT_FILE = Path(__file__).parents[2] / "data" / "isolation" / "perft.txt"


@dataclass
class Entry:
    name: str
    size: tuple[int, int] = (0, 0)
    rows: list[str] = field(default_factory=list)
    counts: dict[int, int] = field(default_factory=dict)


def read_perft(path: Path) -> list[Entry]:
    entries: list[Entry] = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        if words[0] == "id":
            entries.append(Entry(words[1]))
        elif words[0] == "state":
            width, height = map(int, words[1].split("x"))
            entries[-1].size, entries[-1].rows = (width, height), words[2].split("/")
        elif words[0] == "perft":
            entries[-1].counts[int(words[1])] = int(words[2])
        else:
            raise AssertionError(f"{path}:{number}: unexpected line {line!r}")
    return entries


ENTRIES = read_perft(PERFT_FILE)
JUMPS = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]


def brute_force(width: int, height: int, used: frozenset[tuple[int, int]], pieces: list, depth: int) -> int:
    """Leaves at ``depth`` straight from the spec: placements anywhere blank, then knight jumps."""
    if depth == 0:
        return 1
    mover = len(used) % 2
    here = pieces[mover]
    if here is None:
        targets = [(r, c) for r in range(height) for c in range(width) if (r, c) not in used]
    else:
        targets = [(here[0] + dr, here[1] + dc) for dr, dc in JUMPS]
        targets = [(r, c) for r, c in targets if 0 <= r < height and 0 <= c < width and (r, c) not in used]
    total = 0
    for target in targets:
        after = list(pieces)
        after[mover] = target
        total += brute_force(width, height, used | {target}, after, depth - 1)
    return total


def engine_perft(state: State, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(engine_perft(state.child(a), depth - 1) for a in state.legal_actions())


def test_the_file_covers_the_required_boards() -> None:
    sizes = {entry.size for entry in ENTRIES}
    assert {(5, 5), (7, 7), (11, 9)} <= sizes
    assert all(sorted(entry.counts) == [1, 2, 3, 4] for entry in ENTRIES)


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.name for e in ENTRIES])
def test_reference_rules_match_perft(entry: Entry) -> None:
    state = parse_board(entry.rows)
    assert (state.width, state.height) == entry.size
    for depth, expected in entry.counts.items():
        got = engine_perft(state, depth)
        if got != expected:
            divide = {
                state.action_to_string(a): engine_perft(state.child(a), depth - 1)
                for a in state.legal_actions()
            }
            pytest.fail(f"{entry.name}: perft {depth} = {got}, expected {expected}; divide: {divide}")


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.name for e in ENTRIES])
def test_independent_brute_force_matches_perft(entry: Entry) -> None:
    width, height = entry.size
    used = frozenset((r, c) for r, row in enumerate(entry.rows) for c, ch in enumerate(row) if ch != ".")
    pieces = [
        next(((r, c) for r, row in enumerate(entry.rows) for c, ch in enumerate(row) if ch == p), None)
        for p in "12"
    ]
    for depth, expected in entry.counts.items():
        assert brute_force(width, height, used, pieces, depth) == expected, (entry.name, depth)
