"""What ``gridarena puzzle`` shows: answers on stdout, statistics on stderr, and the progress of long work
there (a search's bound and speed; a table build's percentage and time left, as a rich bar on a terminal,
a line every few seconds otherwise).

The library reports through callbacks (``IdaStar.solve(progress=...)``, ``build_tables(..., progress)``);
only the CLI puts them on the screen.
"""

from __future__ import annotations

import json
import math
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from rich.progress import BarColumn, TaskProgressColumn, TextColumn, TimeElapsedColumn
from rich.progress import Progress as RichProgress

from gridarena.cli.output import err
from gridarena.games.slidingpuzzle.ai.idastar import Progress
from gridarena.games.slidingpuzzle.ai.solvers import solution_stats
from gridarena.games.slidingpuzzle.board import Action
from gridarena.games.slidingpuzzle.formats import format_solution, moves_to_json
from gridarena.games.slidingpuzzle.pdb import BuildProgress
from gridarena.search import Solution


class BuildLines:
    """A table build's progress on stderr without a terminal: a line every ``every`` seconds, and the last."""

    def __init__(self, every: float = 5.0) -> None:
        self.every = every
        self.last = -math.inf
        self.shown = ""

    def __call__(self, where: BuildProgress) -> None:
        now = time.monotonic()
        line = where.line()
        if (now - self.last >= self.every or where.done >= where.total) and line != self.shown:
            self.last, self.shown = now, line
            _say("building: " + line)


@contextmanager
def build_bar() -> Iterator[Callable[[BuildProgress], None]]:
    """Where a table build reports: a rich bar with the percentage and the time left on a terminal, else
    BuildLines."""
    if not sys.stderr.isatty():
        yield BuildLines()
        return
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        TaskProgressColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[left]}"),
    )
    with RichProgress(*columns, console=err) as bar:
        task = bar.add_task("tables", total=1, left="")

        def show(where: BuildProgress) -> None:
            left = where.remaining
            bar.update(
                task,
                completed=where.done,
                total=max(1, where.total),
                description=f"table {where.number} of {where.tables}",
                left="" if left is None else f"about {left:.0f} s left",
            )

        yield show


class SearchLine:
    """The search's progress on stderr: rewritten in place on a terminal, a line each time otherwise."""

    def __init__(self, on: bool) -> None:
        self.on = on
        self.tty = sys.stderr.isatty()
        self.shown = False

    def __call__(self, where: Progress) -> None:
        if not self.on:
            return
        if self.tty:
            sys.stderr.write("\r" + where.line() + "\x1b[K")
        else:
            sys.stderr.write("progress: " + where.line() + "\n")
        sys.stderr.flush()
        self.shown = True

    def end(self) -> None:
        if self.on and self.tty and self.shown:
            sys.stderr.write("\n")
            sys.stderr.flush()


def announce(found: Solution[Action], bound: int, as_json: bool) -> None:
    """An anytime answer better than the ones before: on stdout, with the proven bound and the gap."""
    assert found.path is not None
    length = len(found.path)
    if as_json:
        print(
            json.dumps(
                {"anytime": True, "moves": moves_to_json(found.path), "length": length, "lower_bound": bound}
            )
        )
    else:
        print(f"# anytime: {length} slides ({found.algorithm}), optimum {bound}..{length}")
        sys.stdout.write(format_solution(found.path))
    sys.stdout.flush()


def totals(results: Sequence[dict[str, object]]) -> dict[str, object]:
    """The sums over the cases of a run (``cases``, ``solved``, ``slides``, counts and seconds)."""
    solved = [r for r in results if r.get("moves") is not None]

    def total(key: str) -> int | float:
        return sum(r[key] for r in solved if isinstance(r.get(key), int | float))  # type: ignore[misc]

    return {
        "cases": len(results),
        "solved": len(solved),
        "slides": total("length"),
        "expanded": total("expanded"),
        "generated": total("generated"),
        "seconds": round(float(total("seconds")), 6),
    }


def report(found: Solution[Action], as_json: bool) -> int:
    """One case's answer on stdout and statistics on stderr (``as_json``: all on stdout); the exit code."""
    stats = solution_stats(found)
    if as_json:
        moves = None if found.path is None else moves_to_json(found.path)
        print(json.dumps({"moves": moves, **stats}))
    else:
        _say(" ".join(f"{k}={v}" for k, v in stats.items() if v not in ("", None)))
        if found.path is not None:
            sys.stdout.write(format_solution(found.path))
    if found.path is None:
        _say(f"no solution: {found.status}" + (f" ({found.reason})" if found.reason else ""))
        return 1
    return 0


def _say(message: str) -> None:
    print(message, file=sys.stderr)
