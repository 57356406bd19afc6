"""What must hold however the play page is used (issue 31, items 3 and 4): bots think in worker processes
that the server awaits, so many long games leave the viewer answering; the server and its workers stay
within their memory bound; and a second after any game ends, nothing of it uses the CPU.

Each test runs its own `gridarena serve --workers 2` (the machine's two cores) and reads /proc: the
CPU time of every thread of the server and of every process below it, and their proportional set sizes.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from webtools import Served, cpu_used, pss_mib, raw, serve, stop, token, tree

#: The bound on the memory of the server and its workers together (sum of PSS), in docs/security.md.
MEMORY_BOUND_MIB = 600
#: CPU seconds the server and its workers may use in a quiet second (uvicorn's tick, nothing else).
QUIET_CPU = 0.05
LONG = {"game": "isolation", "opponent": "alphabeta", "seat": "1", "seconds": "60", "wait": "0"}
#: Bots that ran past their clock on the landed main, at 0.1 s a move (issue 31, item 3).
OVERRUNNING = ["best(margin=-1e9)", "ab_open(timeout=-1e18)", "mm_open(search_depth=60,timeout=-1e18)"]


@pytest.fixture
def pooled(results: Path, tmp_path: Path) -> Iterator[Served]:
    """A server of its own with two workers, its address space capped (a bomb fails there, not here)."""
    served = serve(results, tmp_path / "replays", "--workers", "2", memory_cap=3 * 1024**3)
    yield served
    stop(served)


def start(served: Served, body: dict[str, str], timeout: float = 30) -> tuple[int, dict[str, Any]]:
    status, _, text = raw(served, "POST", "/api/play", json.dumps(body).encode(), timeout=timeout)
    return status, json.loads(text)


def resign(served: Served, game: dict[str, Any]) -> dict[str, Any]:
    status, _, text = raw(served, "POST", f"/api/play/{game['id']}/resign", b"{}", token(json.dumps(game)))
    assert status == 200, text
    result: dict[str, Any] = json.loads(text)
    return result


def wait_over(served: Served, game: dict[str, Any], seconds: float) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        status: dict[str, Any] = served.json(f"/api/play/{game['id']}?wait=1")
        if status["over"]:
            return status
    raise AssertionError(f"game {game['id']} did not end within {seconds} s")


def assert_quiet(served: Served) -> None:
    """One second after a game ended, the server and its workers use no CPU for a second."""
    time.sleep(1.0)
    used = cpu_used(served.process.pid, 1.0)
    assert used < QUIET_CPU, f"{used:.2f} CPU seconds used in the second after the game ended"


def test_forty_long_games_leave_the_viewer_answering_within_its_memory(pooled: Served) -> None:
    answers: list[tuple[int, dict[str, Any]]] = []
    peak = [0.0]
    done = threading.Event()

    def ask() -> None:
        try:
            answers.append(start(pooled, LONG, timeout=10))
        except OSError as exc:  # the landed main: the request holds a thread for minutes
            answers.append((0, {"error": str(exc)}))

    def watch_memory() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], pss_mib(tree(pooled.process.pid)))
            time.sleep(0.1)

    watcher = threading.Thread(target=watch_memory)
    watcher.start()
    askers = [threading.Thread(target=ask) for _ in range(40)]
    for thread in askers:
        thread.start()
    latencies = []
    try:
        for _ in range(100):
            began = time.perf_counter()
            try:
                status, _, _ = raw(pooled, "GET", "/api/tournaments", timeout=5)
            except OSError:
                status = 0
            latencies.append(time.perf_counter() - began if status == 200 else float("inf"))
    finally:
        for thread in askers:
            thread.join(timeout=30)
    started = [game for status, game in answers if status == 200]
    for game in started:
        resign(pooled, game)
    done.set()
    watcher.join()
    p99 = sorted(latencies)[98]
    print(f"{len(started)} of 40 games started, p99 {p99 * 1000:.0f} ms, peak {peak[0]:.0f} MiB")
    assert p99 < 1.0, f"/api/tournaments took {p99:.2f} s at the 99th percentile"
    refused = [game for status, game in answers if status == 503]
    assert started and len(started) + len(refused) == 40, answers
    assert peak[0] < MEMORY_BOUND_MIB, f"the server and its workers held {peak[0]:.0f} MiB"
    assert_quiet(pooled)


def test_nothing_runs_a_second_after_a_game_is_resigned(pooled: Served) -> None:
    status, game = start(pooled, LONG)
    assert status == 200, game
    assert cpu_used(pooled.process.pid, 1.0) > 2 * QUIET_CPU  # the bot thinks (up to 60 s) in a worker
    assert resign(pooled, game)["over"]
    assert_quiet(pooled)


def test_nothing_runs_a_second_after_a_game_is_evicted(pooled: Served) -> None:
    status, thinking = start(pooled, LONG)
    assert status == 200, thinking
    for _ in range(32):  # the person moves first in these: each needs a worker only to check its bot
        status, game = start(pooled, {"game": "isolation", "opponent": "random"})
        assert status == 200, game
    assert raw(pooled, "GET", f"/api/play/{thinking['id']}")[0] == 404  # the oldest game was dropped
    assert_quiet(pooled)


def test_nothing_runs_a_second_after_a_game_times_out(pooled: Served) -> None:
    accepted = []
    for spec in OVERRUNNING:
        status, game = start(pooled, {**LONG, "opponent": spec, "seconds": "0.1"})
        if status == 200:
            accepted.append((spec, game))
    if not accepted:
        pytest.skip("the catalogue refuses every bot that could run past its clock")
    for spec, game in accepted:
        over = wait_over(pooled, game, 5.0)
        assert over["result"]["termination"] == "timeout", (spec, over["result"])
    assert_quiet(pooled)


def test_nothing_runs_a_second_after_a_game_is_finished(pooled: Served) -> None:
    body = {"game": "isolation", "spec": "isolation(width=4,height=4)", "opponent": "greedy"}
    status, game = start(pooled, body)
    assert status == 200, game
    mine = token(json.dumps(game))
    while not game["over"]:
        cell = re.findall(r'data-action="([^"]+)"', game["svg"])[0]  # a cell the page offers
        move = json.dumps({"action": cell}).encode()
        status, _, text = raw(pooled, "POST", f"/api/play/{game['id']}/move", move, mine)
        assert status == 200, text
        game = json.loads(text)
    assert_quiet(pooled)
