"""An external bot's program as a process tree that ends with its game, and a bounded tail of its stderr.

:class:`Program` starts the command under a keeper (:mod:`gridarena.bots.keeper`, a child subreaper
on Linux): every process the program starts, even one that forks twice or leaves its process group
with ``setsid``, is killed and reaped when the program exits or is closed, or when the thread that
started it dies. :class:`StderrTail` reads the program's stderr in a thread and keeps its last
:data:`STDERR_TAIL` bytes, so a program that logs gigabytes neither blocks nor grows the arena.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import selectors
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Final

from gridarena.core.bot import BotForfeit

STDERR_TAIL: Final = 2048
"""Bytes of a program's stderr the arena keeps (its last ones): a forfeit's detail, a turn's ``info``."""

STOP_GRACE: Final = 2.0
"""Seconds the keeper has to kill and reap a closed program's processes before it is killed itself."""

KEEPER: Final = Path(__file__).with_name("keeper.py")
_CHUNK: Final = 65536
_CLOCK_TICKS: Final = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_seconds(pid: int) -> float | None:
    """User plus system time of ``pid`` and its reaped children, from ``/proc`` (None elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    # Fields 14-17 of stat (utime, stime, cutime, cstime) are items 11-14 after the ")".
    return sum(int(x) for x in fields[11:15]) / _CLOCK_TICKS


def _pipe_size(fd: int) -> int:
    """The pipe's capacity (a program may enlarge its pipe; 1 MiB, Linux's default cap, elsewhere)."""
    query = getattr(fcntl, "F_GETPIPE_SZ", None)
    try:
        return max(_CHUNK, fcntl.fcntl(fd, query)) if query is not None else 1 << 20
    except OSError:
        return 1 << 20


class StderrTail:
    """The last ``size`` bytes that came through a pipe, which a thread empties as it fills.

    The writer never blocks on a full pipe, and memory stays at ``size`` plus one read. The caller
    reads with :meth:`tail` or :meth:`since`, which first take what is still in the pipe, so a
    program's log line written before its answer is there when the answer has been read.
    """

    def __init__(self, pipe: IO[bytes], size: int = STDERR_TAIL) -> None:
        self._pipe, self.fd, self.size = pipe, pipe.fileno(), size
        os.set_blocking(self.fd, False)
        self.total = 0  # bytes read so far
        self._tail = bytearray()
        self._lock = threading.Lock()
        self._eof = False
        self._wake_r, self._wake_w = os.pipe()
        self._capacity = _pipe_size(self.fd)  # whatever the pipe held when asked is at most this much
        self._thread = threading.Thread(target=self._run, name="stderr-tail", daemon=True)
        self._thread.start()

    def _read(self, limit: int) -> None:
        """Read up to ``limit`` bytes that are waiting (the caller holds the lock)."""
        while limit > 0 and not self._eof:
            try:
                chunk = os.read(self.fd, _CHUNK)
            except BlockingIOError:
                return
            self._eof = not chunk
            limit -= len(chunk)
            self.total += len(chunk)
            self._tail += chunk
            del self._tail[: max(0, len(self._tail) - self.size)]

    def _run(self) -> None:
        with selectors.DefaultSelector() as selector:
            selector.register(self.fd, selectors.EVENT_READ)
            selector.register(self._wake_r, selectors.EVENT_READ)
            while not self._eof:
                ready = {key.fd for key, _ in selector.select()}
                if self._wake_r in ready:
                    return
                with self._lock:
                    self._read(_CHUNK)

    def since(self, mark: int) -> tuple[bytes, int]:
        """What came after byte ``mark`` (at most its last ``size`` bytes), and the new mark."""
        with self._lock:
            self._read(self._capacity)
            new = min(self.total - mark, len(self._tail))
            return bytes(self._tail[len(self._tail) - new :]), self.total

    def tail(self) -> bytes:
        """The last ``size`` bytes."""
        return self.since(0)[0]

    def close(self) -> None:
        """Take what is left in the pipe, stop the thread and close the pipe; the tail stays readable."""
        with self._lock:
            self._read(self._capacity)
            self._eof = True
        os.write(self._wake_w, b"x")
        self._thread.join()
        for fd in (self._wake_r, self._wake_w):
            os.close(fd)
        self._pipe.close()


class Program:
    """One external program under its keeper: the pipes of its stdin and stdout, and its stderr's tail.

    Raises :class:`BotForfeit` (``crash``) when the command cannot start. ``pid`` is the program's
    own process (its CPU time is the bot's); ``process`` is its keeper, whose exit code is the
    program's.
    """

    def __init__(
        self,
        argv: Sequence[str],
        *,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        startup_timeout: float = 10.0,
    ) -> None:
        self.argv = list(argv)
        self.pid: int | None = None
        report, report_w = os.pipe()
        keeper = [sys.executable, "-I", "-S", str(KEEPER), str(report_w), str(os.getpid()), "--", *argv]
        try:
            self.process = subprocess.Popen(
                keeper,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=cwd,
                env=None if env is None else {**os.environ, **env},
                process_group=0,  # a Ctrl-C at the terminal reaches the arena, which closes its bots
                pass_fds=(report_w,),
            )
        except OSError as exc:
            os.close(report)
            raise self._cannot_start(str(exc)) from None
        finally:
            os.close(report_w)
        assert self.process.stdin is not None and self.process.stdout is not None
        assert self.process.stderr is not None
        self.stdin, self.stdout = self.process.stdin.fileno(), self.process.stdout.fileno()
        os.set_blocking(self.stdin, False)  # writes wait in the caller's selector, with a deadline
        self.stderr = StderrTail(self.process.stderr)
        try:
            line = _read_report(report, time.perf_counter() + startup_timeout)
        finally:
            os.close(report)
        if not line.isdigit():
            self.kill()
            raise self._cannot_start(line.removeprefix("error ") or "the keeper did not start it")
        self.pid = int(line)

    def _cannot_start(self, reason: str) -> BotForfeit:
        return BotForfeit("crash", f"cannot start {shlex.join(self.argv)}: {reason}")

    def exit_code(self, timeout: float) -> int | None:
        """The program's exit code (negative: the signal that killed it), or None if it runs after ``timeout`` s."""
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def cpu_seconds(self) -> float | None:
        """CPU seconds the program has used so far (None where ``/proc`` does not tell)."""
        return None if self.pid is None else cpu_seconds(self.pid)

    def kill(self) -> None:
        """Kill every process of the program and reap it; close the pipes (idempotent)."""
        process = self.process
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)  # the keeper sweeps the tree, then exits
            if self.exit_code(STOP_GRACE) is None:  # a keeper that cannot sweep: what we can still reach
                if self.pid is not None:
                    with contextlib.suppress(OSError):
                        os.killpg(self.pid, signal.SIGKILL)
                process.kill()
                process.wait()
        for pipe in (process.stdin, process.stdout):
            if pipe is not None and not pipe.closed:
                with contextlib.suppress(OSError):
                    pipe.close()
        if process.stderr is not None and not process.stderr.closed:
            self.stderr.close()  # after the sweep: every writer is gone


def _read_report(fd: int, deadline: float) -> str:
    """The keeper's one line (the program's pid, or ``error ...``); empty if none came by ``deadline``."""
    data = b""
    with selectors.DefaultSelector() as selector:
        selector.register(fd, selectors.EVENT_READ)
        while not data.endswith(b"\n"):
            left = deadline - time.perf_counter()
            if left <= 0 or not selector.select(left):
                if time.perf_counter() < deadline:
                    continue
                return ""
            chunk = os.read(fd, 4096)
            if not chunk:
                break
            data += chunk
    return data.decode("utf-8", "replace").strip()
