"""What the commands that run batches of jobs share: the backend options and a SIGTERM that stops cleanly.

``gridarena isolation solve`` and ``gridarena analyze --db`` run their work as jobs on the arena's
backends (``arena/jobs.py``); both take ``--backend``, ``--concurrency`` and ``--ray-address``, and
both stop on SIGTERM (``timeout``, a scheduler) as on Ctrl-C: the workers are killed, what is
stored stays, and the next run goes on from there.
"""

from __future__ import annotations

import argparse
import signal
from types import FrameType
from typing import Any

from gridarena.arena.backends import ALIASES, BACKENDS, Backend, make_backend
from gridarena.arena.tournament import cores


def add_job_options(parser: argparse.ArgumentParser, what: str) -> None:
    """``--backend``, ``--concurrency`` and ``--ray-address`` for a batch of ``what`` (``openings``, ``games``)."""
    parser.add_argument("--concurrency", type=int, help=f"{what} at once (default: every core)")
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
