"""Where games run: in this process, in local worker processes, or on Ray.

Every backend takes :class:`~gridarena.arena.runner.GameTask` objects (plain data; or plain jobs, `jobs.py`) from an iterator and
hands each JSON result to a ``sink`` as soon as it is back; the sink returns False to stop scheduling
(SPRT decision, Ctrl-C), after which the games in flight still finish and are handed over.

The local backend manages its own workers instead of a ``ProcessPoolExecutor``, which breaks as a whole
when one worker dies. Each worker publishes, in shared memory, which seat is thinking and until when;
a move that outlives the hard limit (limit + grace + max(1 s, limit)) is killed with its worker, the
game becomes a timeout forfeit with detail ``killed``, a fresh worker takes the slot, and the other
games in flight are not disturbed. Workers are started with ``forkserver``: forking a process that
already runs threads is unsafe.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import signal
import time
import traceback
from collections.abc import Callable, Iterator
from typing import Any, Final, Protocol

from gridarena.arena.jobs import Job, is_job, run_job
from gridarena.arena.runner import GameTask, forfeit_result, run_game_task, write_inline_replay
from gridarena.core.clock import TurnClock
from gridarena.core.errors import GridArenaError
from gridarena.core.types import JSON, Player

Result = dict[str, JSON]
Task = GameTask | Job
Sink = Callable[[Result], bool]
BACKENDS: Final = ("process", "inline", "ray")
ALIASES: Final = {"local": "process", "serial": "inline"}
RETRIES: Final = 2
START_FAILURES: Final = 3


class BackendError(GridArenaError):
    """A backend that cannot run here (Ray not installed) or a game the arena itself failed to run."""


class MissingExtraError(BackendError):
    """A backend whose optional dependency is not installed (the command exits 2 and names the extra)."""


class Backend(Protocol):
    """Runs tasks and streams their results to a sink."""

    inline_replays: bool

    def run(self, tasks: Iterator[Task], sink: Sink) -> None: ...
    def close(self) -> None: ...


def decode_task(message: dict[str, JSON]) -> Task:
    """A task sent to a worker: a game, or a plain job (``arena/jobs.py``)."""
    return Job.from_json(message) if is_job(message) else GameTask.from_json(message)


def run_task(task: Task, watcher: Any = None) -> Result:
    """Play a game task or run a job, here."""
    return run_job(task) if isinstance(task, Job) else run_game_task(task, watcher)


def aborted_result(task: Task, detail: str) -> Result:
    """What a sink receives for a game the arena could not finish: not scored, its block is replayed."""
    return {
        "aborted": True,
        "tournament": task.tournament,
        "block": task.block,
        "game": task.game,
        "detail": detail,
    }


class InlineBackend:
    """One game at a time in this process: for tests, debuggers and the overhead benchmark."""

    inline_replays = False

    def run(self, tasks: Iterator[Task], sink: Sink) -> None:
        """Play each task in turn until the tasks run out or the sink says stop."""
        for task in tasks:
            if not sink(run_task(task)):
                return

    def close(self) -> None:
        """Nothing to release."""


# -- local worker processes ------------------------------------------------------------------------

_SEAT, _PLY, _DEADLINE = 0, 1, 2


class _Heartbeat:
    """A worker's :class:`~gridarena.core.play.MoveWatcher`: seat, ply and hard deadline in shared memory."""

    def __init__(self, shared: Any, hard_limit: float | None) -> None:
        self.shared, self.hard_limit = shared, hard_limit

    def started(self, seat: Player, ply: int, clock: TurnClock) -> None:
        """Publish who thinks and when the coordinator may kill it (``time.monotonic`` is system-wide)."""
        limit = self.hard_limit if self.hard_limit is not None else 0.0
        self.shared[_SEAT], self.shared[_PLY] = seat, ply
        self.shared[_DEADLINE] = time.monotonic() + limit if limit else -1.0

    def finished(self, seat: Player, ply: int) -> None:
        """The bot answered: nobody is thinking."""
        self.shared[_DEADLINE] = 0.0


def _worker_main(conn: multiprocessing.connection.Connection, shared: Any) -> None:
    """A worker: receive task objects as JSON, play them, send the results back; ``None`` ends it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the coordinator decides what a Ctrl-C stops
    while True:
        message = conn.recv()
        if message is None:
            return
        task = decode_task(message)
        try:
            result = run_task(task, _Heartbeat(shared, task.hard_limit()))
        except Exception as exc:  # the arena failed, not a bot: the coordinator aborts the game
            result = {"error": "".join(traceback.format_exception(exc)).strip()}
        shared[_DEADLINE] = 0.0
        conn.send(result)


class _Worker:
    def __init__(self, context: Any) -> None:
        self.conn, child = context.Pipe()
        self.shared = context.Array("d", 3, lock=False)
        self.process = context.Process(target=_worker_main, args=(child, self.shared), daemon=True)
        self.process.start()
        child.close()
        self.task: Task | None = None
        self.served = 0

    def stop(self, kill: bool = False) -> None:
        if kill and self.process.is_alive():
            self.process.kill()
        elif self.process.is_alive():
            try:
                self.conn.send(None)
            except OSError:
                self.process.kill()
        self.process.join(timeout=5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.conn.close()


class ProcessBackend:
    """``concurrency`` local worker processes, each replaced when it dies or is killed."""

    inline_replays = False

    def __init__(self, concurrency: int, *, start_method: str = "forkserver", poll: float = 0.05) -> None:
        if concurrency < 1:
            raise BackendError(f"--concurrency must be at least 1, got {concurrency}")
        self.context = multiprocessing.get_context(start_method)
        if start_method == "forkserver":
            # The fork server imports the runner once, so every worker forked from it starts warm.
            self.context.set_forkserver_preload(["gridarena.arena.runner"])
        self.concurrency, self.poll = concurrency, poll
        self.failed_starts = 0
        self.workers: list[_Worker] = []
        self.retries: dict[tuple[int, int], int] = {}

    def _spawn(self) -> _Worker:
        worker = _Worker(self.context)
        self.workers.append(worker)
        return worker

    def _replace(self, worker: _Worker) -> None:
        self.workers.remove(worker)
        worker.stop(kill=True)

    def _lost(self, worker: _Worker, task: Task, pending: list[Task]) -> Result | None:
        """A worker died: the thinking seat forfeits (crash); otherwise the game is retried or aborted."""
        code = worker.process.exitcode
        thinking = worker.shared[_DEADLINE] != 0.0
        self._replace(worker)
        self.failed_starts = 0 if worker.served or thinking else self.failed_starts + 1
        if self.failed_starts >= START_FAILURES:
            raise BackendError(
                f"{self.failed_starts} worker processes in a row died before playing (last exit code {code}); "
                "see their error above; a script that starts a tournament needs an "
                "`if __name__ == '__main__':` guard, since workers import it again"
            )
        if thinking and isinstance(task, GameTask):
            seat = int(worker.shared[_SEAT])
            return forfeit_result(
                task, seat, "crash", f"the worker died while it was thinking (exit code {code})"
            )
        tries = self.retries.get(task.key, 0) + 1
        self.retries[task.key] = tries
        if tries > RETRIES:
            return aborted_result(task, f"worker lost {tries} times (last exit code {code})")
        pending.append(task)
        return None

    def _overdue(self, worker: _Worker, task: GameTask) -> Result:
        """A move outlived the hard limit: kill the worker, the mover forfeits on time."""
        seat, ply = int(worker.shared[_SEAT]), int(worker.shared[_PLY])
        self._replace(worker)
        limit = task.hard_limit() or 0.0
        return forfeit_result(task, seat, "timeout", f"killed: no answer at ply {ply} after {limit:.2f} s")

    def _collect(self, busy: list[_Worker], pending: list[Task]) -> list[Result]:
        ready = multiprocessing.connection.wait([w.conn for w in busy], timeout=self.poll)
        results: list[Result] = []
        for worker in list(busy):
            task = worker.task
            assert task is not None
            result: Result | None
            if worker.conn in ready:
                try:
                    result = worker.conn.recv()
                except (EOFError, OSError):
                    worker.process.join(timeout=1)
                    result = self._lost(worker, task, pending)
                else:
                    worker.task = None
                    worker.served += 1
                    if result is not None and "error" in result:
                        result = aborted_result(task, str(result["error"]))
            elif not worker.process.is_alive():
                result = self._lost(worker, task, pending)
            elif 0.0 < worker.shared[_DEADLINE] < time.monotonic() and isinstance(task, GameTask):
                result = self._overdue(worker, task)
            else:
                continue
            busy.remove(worker)
            if result is not None:
                results.append(result)
        return results

    def run(self, tasks: Iterator[Task], sink: Sink) -> None:
        """Keep every worker busy; stream results to ``sink`` until done or told to stop."""
        busy: list[_Worker] = []
        pending: list[Task] = []  # games to retry after their worker was lost
        stopped = exhausted = False
        try:
            while True:
                while not stopped and len(busy) < self.concurrency:
                    task = pending.pop() if pending else None if exhausted else next(tasks, None)
                    if task is None:
                        exhausted = True
                        break
                    idle = [w for w in self.workers if w.task is None and w not in busy]
                    worker = idle[0] if idle else self._spawn()
                    worker.task = task
                    worker.conn.send(task.to_json())
                    busy.append(worker)
                if not busy:
                    return
                for result in self._collect(busy, pending):
                    if not sink(result):
                        stopped = True
        except BaseException:
            for worker in list(self.workers):
                worker.stop(kill=True)
            self.workers.clear()
            raise

    def close(self) -> None:
        """Stop every worker."""
        for worker in self.workers:
            worker.stop()
        self.workers.clear()


# -- Ray ---------------------------------------------------------------------------------------------


def _ray_play(task: dict[str, JSON]) -> Result:
    """The body of a Ray task: the same runner, with the replay returned inline."""
    return run_task(decode_task(task))


class RayBackend:
    """One ``@ray.remote(num_cpus=1)`` task per game, streamed back with ``ray.wait``.

    ``address`` (or ``RAY_ADDRESS``) joins an existing cluster; without one a local Ray instance is
    started with ``concurrency`` CPUs and shut down by :meth:`close`.
    """

    inline_replays = True

    def __init__(self, concurrency: int, address: str | None = None) -> None:
        try:
            import ray
        except ImportError:
            raise MissingExtraError("--backend ray needs Ray: pip install 'gridarena[ray]'") from None
        self.ray = ray
        self.concurrency = concurrency
        self.owned = not ray.is_initialized()
        if self.owned:
            address = address or os.environ.get("RAY_ADDRESS")
            options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
            if address:
                ray.init(address=address, **options)
            else:
                ray.init(num_cpus=concurrency, **options)
        self.remote = ray.remote(num_cpus=1, max_retries=RETRIES)(_ray_play)

    def run(self, tasks: Iterator[Task], sink: Sink) -> None:
        """Submit up to ``concurrency`` games at a time; hand results over as they complete."""
        ray = self.ray
        flying: dict[Any, Task] = {}
        scheduling = True
        while True:
            while scheduling and len(flying) < self.concurrency:
                task = next(tasks, None)
                if task is None:
                    scheduling = False
                    break
                flying[self.remote.remote(task.to_json())] = task
            if not flying:
                return
            done, _ = ray.wait(list(flying), num_returns=1)
            for ref in done:
                task = flying.pop(ref)
                try:
                    result: Result = ray.get(ref)
                except Exception as exc:  # lost with its node after Ray's retries, or the arena failed
                    result = aborted_result(task, f"{type(exc).__name__}: {exc}")
                write_inline_replay(result)
                if not sink(result):
                    scheduling = False

    def close(self) -> None:
        """Shut Ray down if this backend started it."""
        if self.owned and self.ray.is_initialized():
            self.ray.shutdown()


def make_backend(name: str, concurrency: int, address: str | None = None) -> Backend:
    """A backend by name: ``process`` (``local``), ``inline`` (``serial``) or ``ray``."""
    name = ALIASES.get(name, name)
    if name == "inline":
        return InlineBackend()
    if name == "process":
        return ProcessBackend(concurrency)
    if name == "ray":
        return RayBackend(concurrency, address)
    raise BackendError(f"--backend {name!r}: expected one of {', '.join(BACKENDS)} (or local, serial)")
