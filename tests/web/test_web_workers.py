"""The worker pool of the play page (issue 31, item 3): a worker that runs past its deadline is killed
and replaced, the kernel stops a move that outruns its CPU budget, an allocation past the worker's
address space fails inside the worker, a busy pool lends nothing, and nothing from a job is followed
outside the catalogue. The pool runs in this process (its fork server is a child of pytest)."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gridarena import make
from gridarena.web.workers import WorkerError, WorkerPool

GAME = "isolation"
BIG = "isolation(width=26,height=26)"


def job(bot: str, seconds: float, *, game: str = GAME, cpu: float | None = None) -> dict[str, Any]:
    """A move of ``bot`` at the start of ``game``, with ``seconds`` on its clock."""
    state = make(game).new_initial_state(1)
    move: dict[str, Any] = {"op": "move", "game": game, "bot": bot, "state": state.to_json(), "seat": 0}
    return {**move, "seed": 1, "seconds": seconds, "cpu": seconds if cpu is None else cpu}


def gone(pid: int, seconds: float = 2.0) -> bool:
    """Whether process ``pid`` has ended (or is a zombie) within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            return True
        if state in ("Z", "X"):
            return True
        time.sleep(0.05)
    return False


@pytest.fixture(scope="module")
def pool() -> Iterator[WorkerPool]:
    workers = WorkerPool(2)
    workers.start()
    yield workers
    workers.close()


def test_a_move_is_answered_as_text_with_the_bots_info(pool: WorkerPool) -> None:
    lease = pool.reserve()
    assert lease is not None
    try:
        answer = lease.ask(job("alphabeta(depth=2)", 5.0), 10.0)
    finally:
        lease.release()
    assert isinstance(answer["action"], str) and answer["info"]["depth"] == 2  # type: ignore[index]
    assert make(GAME).new_initial_state(1).string_to_action(str(answer["action"])) is not None


@pytest.mark.parametrize(
    "bot,words",
    [
        ("external(cmd='touch /tmp/gridarena-worker-pwned')", "starts a program"),
        ("aind(file='/etc/passwd')", "aind reads or writes files on the server"),
        ("human", "terminal"),
        ("nosuchbot", "unknown bot"),
    ],
)
def test_a_worker_builds_only_what_a_request_may_name(pool: WorkerPool, bot: str, words: str) -> None:
    lease = pool.reserve()
    assert lease is not None
    try:
        answer = lease.ask({"op": "check", "game": GAME, "bot": bot, "cpu": 5}, 10.0)
    finally:
        lease.release()
    assert words in str(answer["error"]) and not os.path.exists("/tmp/gridarena-worker-pwned")


def test_a_worker_past_its_deadline_is_killed_and_replaced(pool: WorkerPool) -> None:
    lease = pool.reserve()
    assert lease is not None
    pid = lease.worker.pid
    began = time.monotonic()
    with pytest.raises(WorkerError, match="no answer within") as failed:
        lease.ask(job("alphabeta", 60.0), 0.5)  # the bot would think a minute; its deadline is 0.5 s
    lease.release()
    assert failed.value.termination == "timeout" and time.monotonic() - began < 2
    assert gone(pid)
    deadline = time.monotonic() + 30
    while len(pool.pids()) < 2:  # replaced in the background
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert pid not in pool.pids()


def test_the_kernel_stops_a_move_past_its_cpu_budget(pool: WorkerPool) -> None:
    """RLIMIT_CPU is set per move to the budget plus the slack: a bot that ignores its clock is stopped."""
    lease = pool.reserve(timeout=30)
    assert lease is not None
    began = time.monotonic()
    with pytest.raises(WorkerError, match="CPU limit"):
        lease.ask(job("alphabeta", 600.0, cpu=0.0), 120.0)  # a clock of 600 s, a CPU budget of 0 s
    lease.release()
    assert time.monotonic() - began < 60


def test_an_allocation_past_the_workers_memory_fails_in_the_worker() -> None:
    small = WorkerPool(1, memory=24 * 1024**2)  # 24 MiB beyond the fork server's pages: a search fills it
    small.start()
    try:
        lease = small.reserve()
        assert lease is not None
        try:
            answer = lease.ask(job("alphabeta", 60.0, game=BIG), 90.0)
        except WorkerError as exc:  # the allocation that failed was the interpreter's own
            answer = {"error": str(exc)}
        finally:
            lease.release()
        assert "memory" in str(answer.get("error")) or "ended" in str(answer.get("error")), answer
    finally:
        small.close()


def test_a_busy_pool_lends_nothing_and_a_cancelled_wait_stops_its_worker(pool: WorkerPool) -> None:
    first, second = pool.reserve(timeout=30), pool.reserve(timeout=30)
    assert first is not None and second is not None
    assert pool.reserve() is None
    pid = first.worker.pid

    async def ask_then_cancel() -> None:
        task = asyncio.create_task(first.ask_async(job("alphabeta", 60.0), 60.0))
        await asyncio.sleep(0.3)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(ask_then_cancel())
    first.release()
    second.release()
    assert gone(pid)
