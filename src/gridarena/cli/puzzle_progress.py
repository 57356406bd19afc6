"""What the long work of ``gridarena puzzle`` shows on stderr: a search's bound and speed, a table build's
percentage and time left (a rich bar on a terminal, a line every few seconds otherwise).

The library reports through callbacks (``IdaStar.solve(progress=...)``, ``build_tables(..., progress)``);
only the CLI puts them on the screen.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.progress import BarColumn, TaskProgressColumn, TextColumn, TimeElapsedColumn
from rich.progress import Progress as RichProgress

from gridarena.cli.output import err
from gridarena.games.slidingpuzzle.ai.idastar import Progress
from gridarena.games.slidingpuzzle.pdb import BuildProgress


class BuildLines:
    """A table build's progress on stderr without a terminal: a line every ``every`` seconds, and the last."""

    def __init__(self, every: float = 5.0) -> None:
        self.every = every
        self.last = -math.inf

    def __call__(self, where: BuildProgress) -> None:
        now = time.monotonic()
        if now - self.last >= self.every or where.done >= where.total:
            self.last = now
            print("building: " + where.line(), file=sys.stderr, flush=True)


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
