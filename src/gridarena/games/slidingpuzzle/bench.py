"""The benchmark loop shared by ``gridarena puzzle bench`` and ``benchmarks/slidingpuzzle.py`` (benchmarks only)."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from gridarena.games.slidingpuzzle.ai.idastar import IdaStar
from gridarena.games.slidingpuzzle.board import Action, Board, random_walk
from gridarena.search import Solution


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
    time_cap: float | None = None,
    on_result: Callable[[int, Solution[Action]], None] | None = None,
) -> Summary:
    """Solve every board with ``solver`` (compile time excluded: one tiny warm-up solve first);
    ``time_cap``: seconds per board, after which it counts as unsolved with its proven bound."""
    goal = solver.heuristic.goal
    solver.solve(random_walk(goal, 4, random.Random(0)))
    results = []
    cpu = time.process_time()
    for number, board in enumerate(boards):
        deadline = None if time_cap is None else time.perf_counter() + time_cap
        found = solver.solve(board, max_nodes=max_nodes, deadline=deadline)
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
        tuple(int(r.h0) for r in results),
        time.process_time() - cpu,
    )
