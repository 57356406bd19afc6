"""The viewer's bots think in worker processes: a small pool, each worker under resource limits.

A bot's move and a hint are jobs: the game's spec, the bot's spec, the position as JSON and a time
budget go to an idle worker through a pipe, and the worker builds the game and the bot there with the
request-safe constructors (:func:`~gridarena.core.registry.make_for_request`,
:func:`~gridarena.core.registry.make_bot_for_request`), plays one move and answers the action as text,
the bot's info and the CPU seconds it took, all as JSON. The bot lives for that move only, so its
tables are freed with it. The server never waits on a worker in a thread of its own: a game's loop
waits in the game's thread (:meth:`Lease.ask`), a hint on the event loop (:meth:`Lease.ask_async`).

Each worker is forked from a fork server (never from the threaded server itself) that imported
:mod:`gridarena.web.preload` once, so every worker starts with the bots' kernels loaded and shares
them copy-on-write. A worker runs under limits it cannot outgrow:

* ``RLIMIT_AS``: the address space it inherited plus :data:`WORKER_MEMORY`; an allocation past it
  fails (a ``MemoryError``: the move is lost and the worker is replaced);
* ``RLIMIT_CPU``, set before every move to the CPU seconds used so far plus the move's budget plus
  :data:`CPU_SLACK`: the kernel stops a worker whose move runs on;
* the wall clock: the pool kills a worker :data:`KILL_GRACE` after its move's deadline, and whoever
  ends a game kills the worker still thinking for it. A killed worker is replaced in the background.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import multiprocessing
import os
import resource
import signal
import threading
import time
from collections.abc import Mapping
from multiprocessing.connection import Connection
from typing import Any, Final

from gridarena.core.bot import BotForfeit, warm_up
from gridarena.core.clock import TimeControl
from gridarena.core.errors import GridArenaError
from gridarena.core.registry import make_bot_for_request, make_for_request, offered_bots, playable
from gridarena.core.types import JSON

WORKER_MEMORY: Final = 512 * 1024**2
"""Bytes of address space a worker may map beyond what it inherits from the fork server."""
CPU_SLACK: Final = 2
"""CPU seconds a move may use beyond its budget before the kernel stops its worker (``RLIMIT_CPU``)."""
KILL_GRACE: Final = 0.25
"""Wall seconds after a move's deadline before its worker is killed."""
MAX_ANSWER: Final = 1024**2
"""The longest answer read from a worker (bytes); a longer one is a lost worker."""
START_TIMEOUT: Final = 300.0
"""Seconds a new worker may take to answer that it is ready (the first one waits for the fork server,
which compiles the kernels when numba's cache is cold)."""
MAX_WORKERS: Final = 64
PRELOAD: Final = "gridarena.web.preload"
WARM: Final = "GRIDARENA_WORKER_PRELOAD"
"""The environment variable that tells :mod:`gridarena.web.preload` it runs in the pool's fork server."""
_SIGNALS: Final[dict[int, str]] = {
    signal.SIGKILL: "it was stopped",
    signal.SIGXCPU: "it used up its CPU limit",
}


class WorkerError(GridArenaError):
    """A job that got no answer: the worker ran past its deadline or ended; the text says which."""

    def __init__(self, message: str, termination: str = "crash") -> None:
        super().__init__(message)
        self.termination = termination


def default_workers() -> int:
    """The pool's default size: the cores this process may run on."""
    affinity = getattr(os, "sched_getaffinity", None)
    return max(1, len(affinity(0)) if affinity is not None else os.cpu_count() or 1)


def check_workers(count: int) -> int:
    """``count`` if it is a pool size (1 to :data:`MAX_WORKERS`), else a one-line error.

    >>> check_workers(2)
    2
    """
    if not 1 <= count <= MAX_WORKERS:
        raise GridArenaError(f"--workers {count}: a pool has 1 to {MAX_WORKERS} worker processes")
    return count


# -- inside a worker ------------------------------------------------------------------------------


def _jsonable(value: object) -> JSON:
    """Numbers of numpy and other objects a bot's info may hold, as JSON (``json.dumps``'s ``default``)."""
    item = getattr(value, "item", None)
    if callable(item):
        result: JSON = item()
        return result
    if isinstance(value, tuple | set | frozenset):
        return list(value)
    return str(value)


def _limit_cpu(budget: float) -> None:
    """Let this process use ``budget`` more CPU seconds (plus the slack) before the kernel stops it."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    used = usage.ru_utime + usage.ru_stime
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    soft = math.ceil(used + budget) + CPU_SLACK
    resource.setrlimit(
        resource.RLIMIT_CPU, (soft if hard == resource.RLIM_INFINITY else min(soft, hard), hard)
    )


def run_job(job: Mapping[str, Any]) -> dict[str, JSON]:
    """One job in this process: build the game and the bot from their specs (``op: check`` stops
    there), play one move within ``seconds``, and answer the action as text, the info and the CPU.
    The clock starts as the job arrives: building the bot is on it too."""
    began, cpu = time.perf_counter(), time.process_time()
    _limit_cpu(float(job.get("cpu", job.get("seconds", 1.0))))
    game = make_for_request(str(job["game"]))
    bot = make_bot_for_request(game, str(job["bot"]))
    if job.get("op") == "check":
        return {"ok": True, "name": str(getattr(bot, "name", job["bot"]))}
    state = game.state_from_json(job["state"])
    bot.reset(game, int(job["seat"]), int(job["seed"]))
    decision = bot.act(state, TimeControl(deadline=began + float(job["seconds"]), depth=job.get("depth")))
    action = decision.action if isinstance(decision.action, str) else state.action_to_string(decision.action)
    return {"action": action, "info": dict(decision.info), "cpu": time.process_time() - cpu}


def _answer(job: Mapping[str, Any], headroom: int) -> tuple[dict[str, JSON], bool]:
    """(the answer to ``job``, whether this worker must end after sending it)."""
    try:
        return run_job(job), False
    except BotForfeit as exc:
        return {"error": str(exc), "termination": exc.termination}, False
    except MemoryError:  # the address-space limit: what is left of this process is not worth keeping
        limit = headroom // 1024**2
        return {
            "error": f"the bot ran out of memory (a worker may add {limit} MiB)",
            "termination": "crash",
        }, True
    except GridArenaError as exc:
        return {"error": str(exc), "termination": "crash", "refused": True}, False
    except Exception as exc:  # a bot's bug is its forfeit, never the server's
        return {"error": f"{type(exc).__name__}: {exc}", "termination": "crash", "refused": True}, False


def _limit_memory(headroom: int) -> None:
    """Cap this process's address space at what it maps now plus ``headroom`` bytes; no core files."""
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    with open("/proc/self/statm") as statm:
        mapped = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = mapped + headroom if hard == resource.RLIM_INFINITY else min(hard, mapped + headroom)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def worker_main(conn: Connection, headroom: int) -> None:
    """A worker's life: set its limits, say it is ready, then answer jobs until the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C on the server's terminal is the server's to handle
    if not _warm:  # the fork server was started cold (by another pool of this process): warm before the limit
        warm_all()
    _limit_memory(headroom)
    conn.send_bytes(b'{"ready":true}')
    while True:
        try:
            job = json.loads(conn.recv_bytes())
        except (EOFError, OSError):
            return
        answer, finished = _answer(job, headroom)
        try:
            conn.send_bytes(json.dumps(answer, default=_jsonable).encode())
        except (BrokenPipeError, OSError):
            return
        if finished:
            return


_warm = False
"""Whether this process (or the fork server it was forked from) has run :func:`warm_all`. A process has one
fork server, started by the first pool that asks for it: when the arena's pool started it, the viewer's
workers warm themselves, so that the kernels are loaded before the memory limit, not counted against it."""


def warm_all() -> None:
    """Load the kernels of every bot the play page offers and of its hint bots (run by the fork server)."""
    global _warm  # one flag per process, inherited by the workers the fork server forks
    _warm = True
    for game_name, entry in playable().items():
        try:
            game = make_for_request(entry.spec)
        except Exception:  # refused later, where a request sees it
            continue
        specs = [*(offered_bots(game_name) if entry.opponent else []), *([entry.hint] if entry.hint else [])]
        for spec in specs:
            try:
                warm_up(make_bot_for_request(game, spec), game)
            except Exception:  # a bot that cannot warm up pays on its first move
                continue


# -- in the server --------------------------------------------------------------------------------


def _context() -> Any:
    os.environ[WARM] = "1"  # read by the fork server, which starts with this process's environment
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([PRELOAD])
    return context


class Worker:
    """One worker process and the server's end of its pipe."""

    def __init__(self, context: Any, headroom: int, number: int) -> None:
        self.conn, child = context.Pipe(duplex=True)
        self.process = context.Process(
            target=worker_main, args=(child, headroom), name=f"gridarena-worker-{number}", daemon=True
        )
        self.process.start()
        child.close()
        self.killed = False
        try:
            ready = self.conn.poll(START_TIMEOUT) and self.conn.recv_bytes(64)
        except (EOFError, OSError):  # it ended before it was ready
            ready = False
        if not ready:
            self.kill()
            raise WorkerError(f"a worker did not start within {START_TIMEOUT:.0f} s ({self.why()})")

    @property
    def pid(self) -> int:
        """The worker's process id."""
        pid: int = self.process.pid
        return pid

    def alive(self) -> bool:
        """Whether the process still runs and was not told to stop."""
        return not self.killed and self.process.is_alive()

    def kill(self) -> None:
        """Stop the process at once (safe from any thread, and more than once)."""
        self.killed = True
        with contextlib.suppress(OSError, ValueError):  # already gone, or already reaped
            self.process.kill()

    def reap(self) -> None:
        """Wait for the stopped process and close the pipe."""
        self.process.join(timeout=5)
        self.conn.close()

    def why(self) -> str:
        """Why the process ended, for the forfeit's detail."""
        self.process.join(timeout=1)
        code = self.process.exitcode
        if code is not None and code < 0:
            return _SIGNALS.get(-code, f"it ended on signal {-code}")
        return "it ended" if code is None else f"it exited with code {code}"

    def send(self, job: Mapping[str, JSON]) -> None:
        """Hand the worker a job."""
        try:
            self.conn.send_bytes(json.dumps(job).encode())
        except OSError:
            raise WorkerError(f"the worker process is gone ({self.why()})") from None

    def receive(self) -> dict[str, JSON]:
        """The answer the worker has written (call once the pipe is readable)."""
        try:
            answer: dict[str, JSON] = json.loads(self.conn.recv_bytes(MAX_ANSWER))
        except (EOFError, OSError, ValueError):  # ended, too long, or not JSON: the worker is not kept
            self.kill()
            raise WorkerError(f"the worker process ended before it answered ({self.why()})") from None
        return answer


class Lease:
    """One worker reserved for one caller, until :meth:`release`; :meth:`kill` may come from any thread."""

    def __init__(self, pool: WorkerPool, worker: Worker) -> None:
        self.pool, self.worker = pool, worker
        self.released = False

    def ask(self, job: Mapping[str, JSON], timeout: float) -> dict[str, JSON]:
        """Run ``job``, waiting in this thread up to ``timeout`` seconds; the worker is killed after that."""
        self.worker.send(job)
        if not self.worker.conn.poll(max(0.0, timeout)):
            self.worker.kill()
            raise WorkerError(f"no answer within {timeout:.2f} s: the worker was stopped", "timeout")
        return self.worker.receive()

    async def ask_async(self, job: Mapping[str, JSON], timeout: float) -> dict[str, JSON]:
        """Run ``job``, awaiting the answer on the event loop (no thread waits); killed after ``timeout``."""
        self.worker.send(job)
        loop = asyncio.get_running_loop()
        readable: asyncio.Future[None] = loop.create_future()
        fd = self.worker.conn.fileno()

        def wake() -> None:
            if not readable.done():
                readable.set_result(None)

        loop.add_reader(fd, wake)
        try:
            await asyncio.wait_for(readable, max(0.0, timeout))
        except TimeoutError:
            self.worker.kill()
            raise WorkerError(
                f"no answer within {timeout:.2f} s: the worker was stopped", "timeout"
            ) from None
        except BaseException:  # cancelled: nobody will read this answer, so nobody may compute it
            self.worker.kill()
            raise
        finally:
            loop.remove_reader(fd)
        return self.worker.receive()

    def kill(self) -> None:
        """Stop the worker now (the game it thinks for has ended)."""
        self.worker.kill()

    def release(self) -> None:
        """Give the worker back to the pool (a stopped one is replaced)."""
        if not self.released:
            self.released = True
            self.pool._give_back(self.worker)


class WorkerPool:
    """``size`` worker processes; :meth:`reserve` lends one, or answers None when every one is busy."""

    def __init__(self, size: int | None = None, *, memory: int = WORKER_MEMORY) -> None:
        self.size = check_workers(default_workers() if size is None else size)
        self.memory = memory
        self.idle: list[Worker] = []
        self.busy: set[Worker] = set()
        self.starting = 0
        self.closed = False
        self._numbers = iter(range(1, 1 << 62))
        self._changed = threading.Condition()

    def start(self) -> None:
        """Start every worker and wait until each is ready (the first also starts the fork server)."""
        context = _context()
        workers = [Worker(context, self.memory, next(self._numbers)) for _ in range(self.size)]
        with self._changed:
            self.idle.extend(workers)
            self._changed.notify_all()

    def pids(self) -> list[int]:
        """Process ids of the workers running now."""
        with self._changed:
            return [w.pid for w in [*self.idle, *self.busy]]

    def reserve(self, timeout: float = 0.0) -> Lease | None:
        """An idle worker, waiting up to ``timeout`` seconds for one; None if none came."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while not self.closed:
                while self.idle:
                    worker = self.idle.pop()
                    if worker.alive():
                        self.busy.add(worker)
                        return Lease(self, worker)
                    self._replace(worker)
                if len(self.busy) + self.starting < self.size:  # a start that failed earlier: try again
                    self.starting += 1
                    threading.Thread(target=self._start_one, args=(None,), daemon=True).start()
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._changed.wait(left)
        return None

    def _give_back(self, worker: Worker) -> None:
        with self._changed:
            self.busy.discard(worker)
            if worker.alive() and not self.closed:
                self.idle.append(worker)
                self._changed.notify()
            else:
                self._replace(worker)

    def _replace(self, worker: Worker) -> None:
        """Reap ``worker`` and start another in the background (call with the lock held)."""
        worker.kill()
        if self.closed:
            threading.Thread(target=worker.reap, daemon=True).start()
            return
        self.starting += 1
        threading.Thread(
            target=self._start_one, args=(worker,), name="gridarena-worker-start", daemon=True
        ).start()

    def _start_one(self, old: Worker | None) -> None:
        if old is not None:
            old.reap()
        try:
            worker: Worker | None = Worker(_context(), self.memory, next(self._numbers))
        except Exception:  # the pool runs one short until a reservation starts another
            worker = None
        with self._changed:
            self.starting -= 1
            if worker is not None and self.closed:
                worker.kill()
            elif worker is not None:
                self.idle.append(worker)
                self._changed.notify()

    def close(self) -> None:
        """Stop every worker (server shutdown)."""
        with self._changed:
            self.closed = True
            workers = [*self.idle, *self.busy]
            self.idle.clear()
            self._changed.notify_all()
        for worker in workers:
            worker.kill()
        for worker in workers:
            worker.reap()
