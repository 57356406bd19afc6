"""What the commands that run batches of jobs share: the backend options and a SIGTERM that stops cleanly.

``gridarena isolation solve`` and ``gridarena analyze --db`` run their work as jobs on the arena's
backends (``arena/jobs.py``); both take ``--backend``, ``--concurrency`` and ``--ray-address``, and
both stop on SIGTERM (``timeout``, a scheduler) as on Ctrl-C: the workers are killed, what is
stored stays, and the next run goes on from there.
"""

from __future__ import annotations

import argparse
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from gridarena.arena.backends import ALIASES, BACKENDS, Backend, make_backend
from gridarena.arena.load import cores
from gridarena.cli.options import CONCURRENCY
from gridarena.cli.output import err, progress_enabled

Report = Callable[[int, str], None]
"""``report(done, line)``: a job is back; ``done`` of the batch are stored, ``line`` says what it was."""


def add_job_options(parser: argparse.ArgumentParser, what: str) -> None:
    """``--backend``, ``--concurrency`` and ``--ray-address`` for a batch of ``what`` (``openings``, ``games``)."""
    parser.add_argument("--concurrency", type=CONCURRENCY, help=f"{what} at once (default: every core)")
    parser.add_argument(
        "--backend",
        choices=[*BACKENDS, *ALIASES],
        default="process",
        help=f"where {what} run: process (a local pool), inline (this process) or ray",
    )
    parser.add_argument("--ray-address", help="Ray cluster to join (default: $RAY_ADDRESS, else a local one)")


def job_backend(args: argparse.Namespace) -> Backend:
    """The backend the options ask for."""
    return make_backend(args.backend, args.concurrency or cores(), args.ray_address)


class StopOnTerminate:
    """While active, SIGTERM raises KeyboardInterrupt: the backend kills its workers, the CLI exits 130."""

    def __enter__(self) -> None:
        self.previous: Any = signal.signal(signal.SIGTERM, self._raise)

    @staticmethod
    def _raise(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    def __exit__(self, *exc: object) -> None:
        signal.signal(signal.SIGTERM, self.previous)


@contextmanager
def job_progress(quiet: bool, what: str, total: int | None) -> Iterator[Report]:
    """A progress bar on an interactive stderr (``--quiet`` turns it off); a line per job otherwise."""
    if progress_enabled(quiet):
        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
        with Progress(*columns, console=err) as bar:
            task = bar.add_task(what, total=total)
            yield lambda done, line: bar.update(task, completed=done, description=f"{what} ({line})")
        return

    def lines(done: int, line: str) -> None:
        if not quiet:
            print(line, file=sys.stderr, flush=True)

    yield lines
