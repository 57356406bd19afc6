"""Plain jobs on the arena's backends, each result stored as it comes: resumable batches of work.

A :class:`Job` names a function of gridarena (``"gridarena.module:function"``, called with the job's
JSON payload and returning JSON) and runs wherever games run: in this process, in the local worker
pool or on Ray (``backends.py`` hands a worker either a game or a job). :func:`run_jobs` stores
every result in the database's ``jobs`` table under a batch name the moment it is back, so a batch
that is killed goes on where it stopped: what is stored is not asked again. A proof search over
openings (``gridarena isolation solve``) and a tournament's analysis are batches.

>>> from gridarena.arena.backends import InlineBackend
>>> from gridarena.arena.store import Store
>>> store = Store(":memory:")
>>> jobs = [Job("gridarena.arena.jobs:echo", str(i), {"x": i}) for i in range(3)]
>>> run_jobs(InlineBackend(), store, "demo", iter(jobs))
3
>>> store.job_results("demo")["2"]
{'x': 2}
"""

from __future__ import annotations

import importlib
import socket
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gridarena.core.errors import GridArenaError
from gridarena.core.types import JSON

if TYPE_CHECKING:
    from gridarena.arena.backends import Backend
    from gridarena.arena.store import Store

JobFunction = Callable[[Mapping[str, JSON]], JSON]
PACKAGE = "gridarena."


class JobError(GridArenaError):
    """A job that names no function of gridarena, or one that failed in its worker."""


@dataclass(frozen=True, slots=True)
class Job:
    """One piece of work as plain data: the function to call, a unique name and the payload.

    ``index`` tells a backend's retries apart (it plays the part of a game's block).
    """

    function: str
    name: str
    payload: dict[str, JSON]
    index: int = 0

    # What a backend reads of a task besides running it (a game task has the same fields).
    tournament = 0
    game = 0

    @property
    def block(self) -> int:
        """The index, where a backend expects a game's block."""
        return self.index

    @property
    def key(self) -> tuple[int, int]:
        """Unique among the jobs in flight."""
        return self.index, 0

    def hard_limit(self) -> float | None:
        """Jobs have no move clock: a worker is never killed for taking long."""
        return None

    def to_json(self) -> dict[str, JSON]:
        """The job as a worker receives it."""
        return {
            "job": {
                "function": self.function,
                "name": self.name,
                "payload": self.payload,
                "index": self.index,
            }
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Job:
        """Inverse of :meth:`to_json`."""
        job = data["job"]
        return cls(str(job["function"]), str(job["name"]), dict(job["payload"]), int(job["index"]))


def load_function(entry: str) -> JobFunction:
    """The function an entry ``"gridarena.module:function"`` names; nothing outside gridarena is loaded."""
    module, _, attr = entry.partition(":")
    if not module.startswith(PACKAGE) or not attr:
        raise JobError(f"job function {entry!r}: expected 'gridarena.module:function'")
    function: JobFunction = getattr(importlib.import_module(module), attr)
    return function


def run_job(job: Job) -> dict[str, JSON]:
    """Run one job here: its name, index and the function's result (what a backend hands the sink)."""
    return {
        "job": job.name,
        "block": job.index,
        "host": socket.gethostname(),
        "result": load_function(job.function)(job.payload),
    }


def is_job(message: Mapping[str, Any]) -> bool:
    """Whether a task message sent to a worker is a job (else it is a game)."""
    return "job" in message


def echo(payload: Mapping[str, JSON]) -> JSON:
    """A job function for tests and examples: the payload back."""
    return dict(payload)


def run_jobs(
    backend: Backend,
    store: Store,
    batch: str,
    jobs: Iterator[Job],
    on_result: Callable[[Job, JSON], None] | None = None,
) -> int:
    """Run ``jobs`` on ``backend``, storing each result in ``batch`` as it comes; the number stored.

    ``jobs`` is read lazily, one job whenever a worker is free, so it may choose each job from the
    results so far. A job whose worker failed (after the backend's retries) raises :class:`JobError`
    once the jobs in flight are stored.
    """
    sent: dict[int, Job] = {}
    failures: list[str] = []
    stored = 0

    def numbered() -> Iterator[Job]:
        for job in jobs:
            sent[job.index] = job
            yield job

    def sink(result: dict[str, JSON]) -> bool:
        nonlocal stored
        job = sent.pop(int(str(result["block"])))
        if result.get("aborted"):
            failures.append(f"job {job.name}: {result.get('detail')}")
            return False
        store.record_job(batch, job.name, job.payload, result["result"], str(result.get("host")))
        stored += 1
        if on_result is not None:
            on_result(job, result["result"])
        return True

    backend.run(numbered(), sink)
    if failures:
        raise JobError("; ".join(failures))
    return stored
