"""Count files (``tests/data/<game>/*.txt``): their reader, for the registry-wide runner and the engines' tests.

The format is described in ``tests/test_counts.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gridarena.core.registry import make
from gridarena.core.types import GameState

DATA = Path(__file__).parent / "data"
COUNT_KINDS = ("perft", "reachable", "placements", "commands")


@dataclass(frozen=True, slots=True)
class Count:
    """One expected count: its kind, the depth (perft only) and the value."""

    kind: str
    depth: int | None
    expected: int

    def __str__(self) -> str:
        return self.kind if self.depth is None else f"{self.kind} {self.depth}"


@dataclass
class Entry:
    """One position of a count file and the counts expected from it."""

    game: str
    name: str
    where: str
    state: str = ""
    plays: list[str] = field(default_factory=list)
    counts: list[Count] = field(default_factory=list)

    @property
    def id(self) -> str:
        return f"{self.game}/{self.name}"


def count_files(game: str) -> list[Path]:
    """The count files of ``game``, sorted."""
    return sorted((DATA / game).glob("*.txt"))


def read_count_file(path: Path, game: str) -> list[Entry]:
    """The entries of one count file; AssertionError naming the line of anything unexpected."""
    entries: list[Entry] = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        word, _, rest = line.strip().partition(" ")
        if not word or word.startswith("#"):
            continue
        if word == "id":
            entries.append(Entry(game, rest.strip(), f"{path}:{number}"))
        elif not entries:
            raise AssertionError(f"{path}:{number}: expected 'id NAME' before {line!r}")
        elif word == "state":
            entries[-1].state = rest.strip()
        elif word == "play":
            entries[-1].plays.append(rest.strip())
        elif word in COUNT_KINDS:
            *depth, value = rest.split()
            entries[-1].counts.append(Count(word, int(depth[0]) if depth else None, int(value)))
        else:
            raise AssertionError(f"{path}:{number}: unexpected line {line!r} (format: tests/test_counts.py)")
    return entries


def spec_state(text: str) -> GameState[Any]:
    """``SPEC [seed N]``: the game's initial state for that seed (None when no seed is given)."""
    spec, has_seed, seed = text.rpartition(" seed ")
    if not has_seed:
        spec, seed = text, ""
    state: GameState[Any] = make(spec.strip()).new_initial_state(int(seed) if seed else None)
    return state


def isolation_board(text: str) -> GameState[Any]:
    """Isolation's ``WxH rows/joined/by/slashes``; the ply is the number of used cells."""
    size, board = text.split()
    width, height = size.split("x")
    used = sum(ch != "." for ch in board if ch != "/")
    game = make(f"isolation(width={width},height={height})")
    state: GameState[Any] = game.state_from_json({"board": board, "ply": used})
    return state


#: A game's own form of the ``state`` line, where it predates ``SPEC seed N`` (other tests read it too).
STATE_READERS: dict[str, Callable[[str], GameState[Any]]] = {"isolation": isolation_board}


def entry_state(entry: Entry) -> GameState[Any]:
    """The entry's position: its state line read, then its actions played."""
    state = STATE_READERS.get(entry.game, spec_state)(entry.state)
    assert state.game.name == entry.game, f"{entry.where}: the state is a {state.game.name} position"
    for text in entry.plays:
        state = state.apply_action(state.string_to_action(text))
    return state
