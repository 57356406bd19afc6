"""Progress of long work on stderr, the same for every command: a rich bar on a terminal, a line every
few seconds otherwise (a log file, a pipe, a CI job), nothing with ``--quiet``.

A command opens a :func:`ticker`, calls :meth:`Ticker.update` as work completes and prints its result
rows with :meth:`Ticker.row`, which keeps them above the bar on a terminal and on stdout (or wherever
they go) otherwise. The library below the CLI never prints (``tests/test_layers.py``): it reports
through callbacks, and the ticker turns them into what a person sees.

>>> import io
>>> lines = io.StringIO()
>>> with ticker(False, "games", 4, stream=lines, every=0) as tick:
...     tick.update(1)
...     tick.update(4)
>>> [line.split(",")[0] for line in lines.getvalue().splitlines()]
['games: 1 of 4 (25%)', 'games: 4 of 4 (100%)']
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, Final

from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from gridarena.cli.output import err, progress_enabled

LINE_SECONDS: Final = 5.0
"""Without a terminal: at most one line this often while work completes (and one at the end)."""

SILENT_SECONDS: Final = 60.0
"""Without a terminal: a line this often while nothing completes (one long game), from a heartbeat."""


def clock_text(seconds: float) -> str:
    """``75`` -> ``1:15``; ``3725`` -> ``1:02:05``.

    >>> clock_text(75), clock_text(3725), clock_text(4)
    ('1:15', '1:02:05', '0:04')
    """
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class Ticker:
    """One piece of long work: ``what`` (``games``, ``plies``) done out of ``total`` (None: unknown)."""

    def __init__(
        self,
        what: str,
        total: int | None,
        *,
        bar: Progress | None = None,
        stream: IO[str] | None = None,
        every: float | None = None,
    ) -> None:
        self.what, self.total, self.bar, self.stream = what, total, bar, stream
        self.every = LINE_SECONDS if every is None else every
        self.started = time.monotonic()
        self.done = 0
        self.detail = ""
        self.said_at: float | None = None
        self.said_done = -1
        self.lock = threading.Lock()  # lines come from the work and from the heartbeat
        self.task = None if bar is None else bar.add_task(what, total=total)

    def update(self, done: int, total: int | None = None, detail: str | None = None) -> None:
        """``done`` of the work is complete (``total`` may change); ``detail`` says more (a score; None: as before)."""
        self.done = done
        self.detail = self.detail if detail is None else detail
        self.total = self.total if total is None else total
        if self.bar is not None and self.task is not None:
            description = f"{self.what} ({self.detail})" if self.detail else self.what
            self.bar.update(self.task, completed=done, total=self.total, description=description)
        elif self.stream is not None:
            self._line(force=self.total is not None and done >= self.total)

    def tick(self) -> None:
        """Nothing completed, time passed: without a terminal, a line once in a long while."""
        if self.stream is not None and self.bar is None:
            self._line(force=False)

    def row(self, text: str, file: IO[str] | None = None) -> None:
        """A result row (a table line) on ``file`` (stdout), kept above the bar when both are on a terminal."""
        out = file if file is not None else sys.stdout
        if self.bar is not None and out.isatty():
            self.bar.console.print(text, markup=False, highlight=False, soft_wrap=True)
        else:
            print(text, file=out, flush=True)

    def line(self) -> str:
        """The progress as one line: ``games: 12 of 70 (17%), 0:41 elapsed, about 3:18 left``."""
        elapsed = time.monotonic() - self.started
        if self.total:
            head = f"{self.what}: {self.done} of {self.total} ({100 * self.done // self.total}%)"
        else:
            head = f"{self.what}: {self.done}"
        text = f"{head}, {clock_text(elapsed)} elapsed"
        if self.total and 0 < self.done < self.total:
            text += f", about {clock_text(elapsed / self.done * (self.total - self.done))} left"
        return text + (f"; {self.detail}" if self.detail else "")

    def _line(self, force: bool) -> None:
        assert self.stream is not None
        with self.lock:
            now = time.monotonic()
            since = now - (self.started if self.said_at is None else self.said_at)
            changed = self.done != self.said_done
            if (force and changed) or (changed and since >= self.every) or since >= SILENT_SECONDS:
                print(self.line(), file=self.stream, flush=True)
                self.said_at, self.said_done = now, self.done


@contextmanager
def _heartbeat(tick: Ticker) -> Iterator[None]:
    """While the work runs, :meth:`Ticker.tick` every second: one long game still gets its minute's line."""
    stop = threading.Event()

    def beat() -> None:
        while not stop.wait(1.0):
            tick.tick()

    thread = threading.Thread(target=beat, name="gridarena-progress", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


@contextmanager
def ticker(
    quiet: bool,
    what: str,
    total: int | None = None,
    *,
    stream: IO[str] | None = None,
    every: float | None = None,
    transient: bool = False,
) -> Iterator[Ticker]:
    """A :class:`Ticker` for the duration of the work: a bar on an interactive stderr, lines otherwise.

    ``stream`` (default stderr) receives the lines; ``quiet`` gives a ticker that shows nothing (its
    rows are still printed); a ``transient`` bar is gone when the work is (what the command prints
    next says it all).
    """
    if quiet:
        yield Ticker(what, total)
        return
    if stream is None and progress_enabled(quiet):
        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
        timing = (TimeElapsedColumn(), TimeRemainingColumn())
        # stdout is not redirected into the bar: rows go through Ticker.row, so a file gets them.
        with Progress(*columns, *timing, console=err, redirect_stdout=False, transient=transient) as bar:
            yield Ticker(what, total, bar=bar)
        return
    tick = Ticker(what, total, stream=stream if stream is not None else sys.stderr, every=every)
    with _heartbeat(tick):
        yield tick
