"""Named boards and partitions, PDB file names, the cache, and the sets of tables a partition names."""

from __future__ import annotations

import functools
import json
import os
import time
import zlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from gridarena.games.slidingpuzzle.board import Board, goal_board, homework_goal
from gridarena.games.slidingpuzzle.fast.pdbbuild import search_states
from gridarena.games.slidingpuzzle.formats import PdbError
from gridarena.games.slidingpuzzle.pdb.build import build_pdb
from gridarena.games.slidingpuzzle.pdb.fileformat import PdbFileError, load_pdb, save_pdb
from gridarena.games.slidingpuzzle.pdb.table import PatternDatabase

#: The partition a solver uses when none is named, by :func:`board_key`. The homework's is the largest
#: of three region-keyed sets' sums (issue 16's two 5-5-5 sets and 6-6-3r): 660 MB, built in about 4
#: minutes within 1 GB; on the first 10 benchmark boards it needed fewer nodes than 6-6-3r alone or the
#: two 5-5-5 sets alone (docs/slidingpuzzle.md).
DEFAULT_PARTITIONS: Final = {"4x5-homework": "5-5-5ar/5-5-5br/6-6-3r", "4x4": "6-6-3"}


def board_by_name(name: str, *, blank_first: bool = False) -> Board:
    """The goal named ``homework`` or ``RxC`` (a classic one-blank board).

    >>> board_by_name("3x3").cells
    (1, 2, 3, 4, 5, 6, 7, 8, 0)
    """
    if name == "homework":
        return homework_goal()
    rows, sep, cols = name.lower().partition("x")
    if not sep or not rows.isdigit() or not cols.isdigit():
        raise PdbError(f"board {name!r} is neither 'homework' nor RxC such as '4x4'")
    return goal_board(int(rows), int(cols), blank_first=blank_first)


def board_key(goal: Board) -> str:
    """The key of ``goal`` in :data:`DEFAULT_PARTITIONS`: ``4x5-homework`` for the homework goal, else ``RxC``.

    >>> board_key(homework_goal()), board_key(goal_board(4, 4, blank_first=True))
    ('4x5-homework', '4x4')
    """
    return "4x5-homework" if goal == homework_goal() else f"{goal.rows}x{goal.cols}"


def default_partition(goal: Board) -> str | None:
    """The partition used for ``goal`` when none is named, or None if the board has no default.

    >>> default_partition(homework_goal()), default_partition(goal_board(3, 3))
    ('5-5-5ar/5-5-5br/6-6-3r', None)
    """
    return DEFAULT_PARTITIONS.get(board_key(goal))


def default_cache_dir() -> Path:
    """Where PDB files go: ``$GRIDARENA_CACHE`` (its ``pdb`` folder) or ``~/.cache/gridarena/pdb``."""
    root = os.environ.get("GRIDARENA_CACHE")
    return Path(root) / "pdb" if root else Path.home() / ".cache" / "gridarena" / "pdb"


def pdb_folder(directory: str | os.PathLike[str] | None = None) -> Path:
    """``directory``, or the cache (:func:`default_cache_dir`) when it is None."""
    return Path(directory) if directory is not None else default_cache_dir()


def pdb_filename(goal: Board, pattern: Sequence[int], regions: bool = False) -> str:
    """A file name fixed by the goal, the pattern and the key, so builds are found again.

    >>> pdb_filename(goal_board(2, 3), (1, 2)), pdb_filename(goal_board(2, 3), (1, 2), regions=True)
    ('2x3-eaf9f2c8-1_2.pdb', '2x3-eaf9f2c8-1_2-r.pdb')
    """
    digest = zlib.crc32(json.dumps(list(goal.cells)).encode())
    return f"{goal.rows}x{goal.cols}-{digest:08x}-{'_'.join(map(str, pattern))}{'-r' if regions else ''}.pdb"


def split_set_name(name: str) -> tuple[str, bool]:
    """A set name and whether its tables are keyed by the blanks' regions too (a trailing ``r``).

    >>> split_set_name("6-6-3r"), split_set_name("7-8")
    (('6-6-3', True), ('7-8', False))
    """
    return (name[:-1], True) if name.endswith("r") else (name, False)


_BLANK_LAST_4X4: Final = {
    "5-5-5": ((1, 2, 5, 6, 9), (3, 4, 7, 8, 12), (10, 11, 13, 14, 15)),
    "6-6-3": ((1, 5, 6, 9, 10, 13), (7, 8, 11, 12, 14, 15), (2, 3, 4)),
    "7-8": ((9, 10, 11, 12, 13, 14, 15), (1, 2, 3, 4, 5, 6, 7, 8)),
}
_HOMEWORK: Final = {
    "5-5-5": ((1, 2, 3, 6, 7), (4, 5, 10, 14, 15), (8, 12, 16, 17, 18)),
    # The two 5-5-5 sets of issue 16 (a throw-away C++ IDA* took the larger of their sums).
    "5-5-5a": ((1, 2, 6, 7, 12), (3, 4, 5, 8, 10), (14, 15, 16, 17, 18)),
    "5-5-5b": ((1, 2, 3, 6, 7), (4, 5, 8, 10, 15), (12, 14, 16, 17, 18)),
    "6-6-3": ((1, 2, 3, 6, 7, 8), (12, 14, 15, 16, 17, 18), (4, 5, 10)),
    "7-8": ((1, 2, 3, 6, 7, 8, 12), (4, 5, 10, 14, 15, 16, 17, 18)),
    "7-7-1": ((1, 2, 6, 7, 12, 16, 17), (3, 4, 5, 8, 10, 14, 15), (18,)),
    "3-4-4-4": ((1, 2, 6, 7), (3, 4, 8), (5, 10, 14, 15), (12, 16, 17, 18)),
    "2-2-2-2-2-2-1-1-1": ((1, 6), (2, 3), (4, 5), (7, 8), (10, 15), (16, 17), (12,), (14,), (18,)),
}
_BLANK_LAST_5X5: Final = {
    "6-6-6-6": (
        (1, 2, 6, 7, 11, 12),
        (3, 4, 5, 8, 9, 10),
        (13, 14, 15, 18, 19, 20),
        (16, 17, 21, 22, 23, 24),
    ),
}


def partition(goal: Board, name: str) -> tuple[tuple[int, ...], ...]:
    """Disjoint patterns named by their sizes, e.g. ``"7-8"`` on the 15-puzzle.

    Named layouts exist for the 4x4 and 5x5 goals (either blank convention) and the homework board;
    elsewhere the tiles are cut in row-major order of their home cells into groups of those sizes.

    >>> partition(goal_board(2, 3), "3-2")
    ((1, 2, 3), (4, 5))
    >>> partition(goal_board(4, 4, blank_first=True), "7-8")[0]
    (1, 2, 3, 4, 5, 6, 7)
    """
    named = _named_partition(goal, name)
    if named is not None:
        return named
    try:
        sizes = [int(s) for s in name.split("-")]
    except ValueError:
        raise PdbError(f"partition {name!r} is not sizes joined by '-', such as '7-8'") from None
    tiles = sorted(goal.tiles, key=goal.positions().__getitem__)
    if sum(sizes) > len(tiles) or min(sizes) < 1:
        raise PdbError(f"partition {name!r} needs {sum(sizes)} tiles; the board has {len(tiles)}")
    groups, start = [], 0
    for size in sizes:
        groups.append(tuple(sorted(tiles[start : start + size])))
        start += size
    return tuple(groups)


def _named_partition(goal: Board, name: str) -> tuple[tuple[int, ...], ...] | None:
    if goal == homework_goal():
        return _HOMEWORK.get(name)
    for side, table in ((4, _BLANK_LAST_4X4), (5, _BLANK_LAST_5X5)):
        n = side * side
        if name not in table:
            continue
        if goal == goal_board(side, side):
            return table[name]
        if goal == goal_board(side, side, blank_first=True):
            # Blank-first is blank-last turned 180 degrees with tile v renamed n - v.
            return tuple(tuple(sorted(n - t for t in group)) for group in table[name])
    return None


@dataclass(frozen=True)
class PatternSet:
    """One disjoint set of a partition name: its patterns, and whether their tables are keyed by the
    blanks' regions too (a set name ending in ``r``)."""

    name: str
    patterns: tuple[tuple[int, ...], ...]
    regions: bool

    def storage(self, requested: str = "auto") -> str:
        """The storage of the set's tables: ``r4`` for a region-keyed set (which refuses any other)."""
        if not self.regions:
            return requested
        if requested not in ("auto", "r4"):
            raise PdbError(f"partition {self.name}: region-keyed sets are stored as r4, not {requested}")
        return "r4"


def pattern_sets(goal: Board, name: str) -> list[PatternSet]:
    """The disjoint sets a partition name stands for: ``a/b`` names several (h is the largest of their sums).

    >>> [(s.patterns, s.regions) for s in pattern_sets(goal_board(2, 3), "3-2/2r")]
    [(((1, 2, 3), (4, 5)), False), (((1, 2),), True)]
    """
    sets = []
    for part in name.split("/"):
        sizes, regions = split_set_name(part)
        sets.append(PatternSet(part, partition(goal, sizes), regions))
    return sets


@dataclass(frozen=True)
class TableJob:
    """One table to build: its file, pattern and storage, and its work in search states."""

    path: Path
    pattern: tuple[int, ...]
    storage: str
    states: int


@dataclass(frozen=True)
class BuildProgress:
    """How far a build of pattern databases has come: enough for a bar with a percentage and the time left."""

    path: Path  # the table being built
    number: int  # its number among the build's tables, from 1
    tables: int
    done: int  # search states found so far, over the whole build
    total: int  # search states of the whole build (:func:`search_states`)
    seconds: float  # since the build started

    @property
    def fraction(self) -> float:
        """The share of the work done, 0 to 1."""
        return min(1.0, self.done / self.total) if self.total > 0 else 0.0

    @property
    def remaining(self) -> float | None:
        """Seconds still to go at the rate so far; None before 2% of the work, whose rate says little (the
        first layers of a search are small, and each costs a scan of the whole table)."""
        if self.fraction < 0.02 or self.seconds <= 0:
            return None
        return self.seconds * max(0, self.total - self.done) / self.done

    def line(self) -> str:
        """One line of text, e.g. ``37% (table 2 of 9: 4x5-...-r.pdb), 41 s so far, about 70 s left``.

        >>> BuildProgress(Path("t.pdb"), 1, 2, 25, 100, 10.0).line()
        '25% (table 1 of 2: t.pdb), 10 s so far, about 30 s left'
        """
        left = self.remaining
        rest = "" if left is None else f", about {left:.0f} s left"
        return (
            f"{100 * self.fraction:.0f}% (table {self.number} of {self.tables}: {self.path.name}), "
            f"{self.seconds:.0f} s so far{rest}"
        )


def table_jobs(
    goal: Board, name: str, directory: str | os.PathLike[str] | None = None, *, force: bool = False
) -> list[TableJob]:
    """The tables of partition ``name`` still to build in ``directory`` (all of them with ``force``).

    A file that is there but unusable (another goal or pattern, truncated, a wrong checksum) is built again.
    """
    folder = pdb_folder(directory)
    jobs: dict[Path, TableJob] = {}
    for chosen in pattern_sets(goal, name):
        storage = chosen.storage()
        for pattern in chosen.patterns:
            path = folder / pdb_filename(goal, pattern, chosen.regions)
            if path not in jobs and (force or not _usable(path, goal, pattern)):
                jobs[path] = TableJob(path, tuple(pattern), storage, search_states(goal, len(pattern)))
    return list(jobs.values())


def tables_present(goal: Board, name: str, directory: str | os.PathLike[str] | None = None) -> bool:
    """Whether every file of partition ``name`` is in ``directory`` (not checked: a bad one is rebuilt
    when the set is loaded through :func:`table_jobs`)."""
    folder = pdb_folder(directory)
    return all(
        (folder / pdb_filename(goal, pattern, chosen.regions)).is_file()
        for chosen in pattern_sets(goal, name)
        for pattern in chosen.patterns
    )


def build_tables(
    goal: Board, jobs: Sequence[TableJob], progress: Callable[[BuildProgress], None] | None = None
) -> Iterator[tuple[TableJob, PatternDatabase, float]]:
    """Build and save each table of ``jobs``, yielding it with its seconds once it is on disk.

    ``progress`` hears how far the whole build has come: at the start of each table and after each chunk
    of each breadth-first layer (a few times a second on the largest tables).
    """
    started = time.perf_counter()
    total = sum(job.states for job in jobs)
    done = 0  # the states of the tables already built

    def report(number: int, states: int) -> None:
        if progress is not None:
            job = jobs[number - 1]
            now = min(total, done + min(states, job.states))
            progress(BuildProgress(job.path, number, len(jobs), now, total, time.perf_counter() - started))

    for number, job in enumerate(jobs, 1):
        report(number, 0)
        table_started = time.perf_counter()
        pdb = build_pdb(goal, job.pattern, job.storage, progress=functools.partial(_layer, report, number))
        save_pdb(pdb, job.path)
        done += job.states
        report(number, 0)
        yield job, pdb, time.perf_counter() - table_started


def _layer(report: Callable[[int, int], None], number: int, depth: int, states: int) -> None:
    """The builder's ``progress(depth, states)`` as the report of table ``number``."""
    report(number, states)


def build_set(
    goal: Board,
    patterns: Sequence[Sequence[int]],
    directory: str | os.PathLike[str] | None = None,
    *,
    force: bool = False,
    paths: Sequence[str | os.PathLike[str]] | None = None,
    storage: str = "auto",
    progress: Callable[[BuildProgress], None] | None = None,
) -> list[Path]:
    """Build (or reuse, unless ``force``) one file per pattern in ``directory``; their paths.

    ``storage="r4"`` builds region-keyed tables (file names end in ``-r``); ``progress`` as in
    :func:`build_tables`.
    """
    folder = pdb_folder(directory)
    out: list[Path] = []
    jobs: list[TableJob] = []
    for number, pattern in enumerate(patterns):
        name = pdb_filename(goal, pattern, regions=storage == "r4")
        target = folder / (paths[number] if paths is not None else name)
        if (force or not _usable(target, goal, pattern)) and target not in {job.path for job in jobs}:
            jobs.append(TableJob(target, tuple(pattern), storage, search_states(goal, len(pattern))))
        out.append(target)
    for _ in build_tables(goal, jobs, progress):
        pass
    return out


def _usable(path: Path, goal: Board, pattern: Sequence[int]) -> bool:
    if not path.exists():
        return False
    try:
        load_pdb(path, goal=goal, pattern=pattern)
    except PdbFileError:
        return False
    return True


def load_set(
    goal: Board,
    patterns: Sequence[Sequence[int]],
    directory: str | os.PathLike[str] | None = None,
    *,
    regions: bool = False,
) -> list[PatternDatabase]:
    """Load the files of a partition from ``directory`` (default: the cache), checked against it."""
    folder = pdb_folder(directory)
    found = []
    for pattern in patterns:
        path = folder / pdb_filename(goal, pattern, regions)
        if not path.exists():
            raise PdbError(
                f"{path}: no database for pattern {list(pattern)}; build it with 'gridarena puzzle pdb build'"
            )
        found.append(load_pdb(path, goal=goal, pattern=pattern))
    return found
