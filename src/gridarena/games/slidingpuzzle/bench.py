"""Seeded instance sets and a benchmark loop shared by ``gridarena puzzle bench`` and the benchmark script."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from gridarena.games.slidingpuzzle.formats import PuzzleCase
from gridarena.games.slidingpuzzle.pdb import PdbError, build_set, load_set, partition
from gridarena.games.slidingpuzzle.pdb.partitions import split_set_name
from gridarena.games.slidingpuzzle.rules import Board, goal_board, homework_goal, random_walk
from gridarena.games.slidingpuzzle.solvability import check_solvable
from gridarena.games.slidingpuzzle.solvers import Heuristic, IdaStar, Solution, make_heuristic


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


def walk_instances(goal: Board, count: int, slides: int, seed: int) -> list[Board]:
    """``count`` boards, each a random walk of ``slides`` slides from the goal (instance i: seed + i)."""
    return [random_walk(goal, slides, random.Random(seed + i)) for i in range(count)]


def random_instances(goal: Board, count: int, seed: int) -> list[Board]:
    """``count`` uniformly random solvable one-blank boards: a random arrangement, two tiles swapped if needed."""
    rng = random.Random(seed)
    movable = [c for c, v in enumerate(goal.cells) if v >= 0]
    out: list[Board] = []
    while len(out) < count:
        values = [goal.cells[c] for c in movable]
        rng.shuffle(values)
        cells = list(goal.cells)
        for c, v in zip(movable, values, strict=True):
            cells[c] = v
        board = Board(goal.rows, goal.cols, tuple(cells))
        if check_solvable(board, goal).verdict == "unsolvable":
            # Swapping two tiles flips the permutation parity, the only obstruction here.
            a, b = [c for c in movable if cells[c] > 0][:2]
            cells[a], cells[b] = cells[b], cells[a]
            board = Board(goal.rows, goal.cols, tuple(cells))
        out.append(board)
    return out


def pdb_heuristic(
    goal: Board,
    name: str,
    directory: str | None = None,
    *,
    mirror: bool | None = None,
    build: bool = True,
    progress: Callable[[str], None] | None = None,
) -> Heuristic:
    """The heuristic of partition ``name`` (built into the cache first when ``build`` and missing).

    ``a/b`` names several disjoint sets, e.g. ``7-7-1/6-6-3``: h is the maximum of their sums. A set
    name ending in ``r`` (``6-6-3r``) uses tables keyed by the blanks' regions too (storage ``r4``).
    """
    pdbs, groups = [], []
    for number, part in enumerate(name.split("/")):
        sizes, regions = split_set_name(part)
        patterns = partition(goal, sizes)
        if build:
            started = time.perf_counter()
            if progress is not None:
                progress(
                    f"PDB set {part}: loading, or building what is missing (once; minutes for 7+ tile patterns)"
                )
            paths = build_set(goal, patterns, directory, storage="r4" if regions else "auto")
            if progress is not None:
                progress(f"PDB set {part}: {len(paths)} files ready in {time.perf_counter() - started:.1f} s")
        pdbs += load_set(goal, patterns, directory, regions=regions)
        groups += [number] * len(patterns)
    return make_heuristic(goal, pdbs, mirror=mirror, groups=groups)


@dataclass(frozen=True)
class Summary:
    """Distribution of one method's results over an instance set."""

    method: str
    solved: int
    count: int
    lengths: tuple[int, ...]
    generated: tuple[int, ...]
    expanded: tuple[int, ...]
    seconds: tuple[float, ...]
    h0: tuple[int, ...]
    cpu_seconds: float = 0.0  # process CPU time of all solves (wall times suffer on a shared machine)

    def row(self) -> dict[str, Any]:
        """Medians, means and maxima as a JSON-ready dict."""

        def stats(values: Sequence[float]) -> tuple[float, float, float]:
            return (statistics.median(values), statistics.fmean(values), max(values)) if values else (0, 0, 0)

        length, gen, sec = stats(self.lengths), stats(self.generated), stats(self.seconds)
        return {
            "method": self.method,
            "solved": self.solved,
            "count": self.count,
            "mean_h0": round(statistics.fmean(self.h0), 2) if self.h0 else 0,
            "length_median": length[0],
            "length_mean": round(length[1], 2),
            "length_max": length[2],
            "generated_median": gen[0],
            "generated_mean": round(gen[1]),
            "generated_max": gen[2],
            "seconds_median": round(sec[0], 5),
            "seconds_mean": round(sec[1], 5),
            "seconds_max": round(sec[2], 5),
            "cpu_seconds_mean": round(self.cpu_seconds / self.count, 5) if self.count else 0,
        }


def run_method(
    method: str,
    solver: IdaStar,
    boards: Sequence[Board],
    *,
    max_nodes: int = 1 << 62,
    on_result: Callable[[int, Solution], None] | None = None,
) -> Summary:
    """Solve every board with ``solver`` (compile time excluded: one tiny warm-up solve first)."""
    goal = solver.heuristic.goal
    solver.solve(random_walk(goal, 4, random.Random(0)))
    results = []
    cpu = time.process_time()
    for number, board in enumerate(boards):
        found = solver.solve(board, max_nodes=max_nodes)
        results.append(found)
        if on_result is not None:
            on_result(number, found)
    done = [r for r in results if r.status == "solved"]
    return Summary(
        method,
        len(done),
        len(results),
        tuple(r.length or 0 for r in done),
        tuple(r.generated for r in done),
        tuple(r.expanded for r in done),
        tuple(r.seconds for r in done),
        tuple(r.h0 for r in results),
        time.process_time() - cpu,
    )


def cases(boards: Sequence[Board], goal: Board) -> list[PuzzleCase]:
    """The boards as cases with a common goal."""
    return [PuzzleCase(b, goal) for b in boards]
