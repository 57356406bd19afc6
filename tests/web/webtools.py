"""Helpers of the web tests: start `gridarena serve`, read the board a page shows, compare it with the
engine, measure a screenshot. Debian's chromium is launched by its executable path (Playwright's own
browser download cannot work without network; `make test` installs the package)."""

from __future__ import annotations

import base64
import http.client
import json
import os
import resource
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import webbots

from gridarena.arena.replay import read_replay, replay_game, replay_start
from gridarena.arena.tournament import TournamentConfig
from gridarena.core.specs import format_spec
from gridarena.core.types import GameState
from gridarena.games.reversixt.formats import read_map, resolve_map_path, write_map

CHROMIUM = Path(os.environ.get("GRIDARENA_CHROMIUM", "/usr/bin/chromium"))
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
DOCS_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"

#: A ReversiXT map given as text (as the server and the course's clients give it): its page must not show it.
SAMPLER_TEXT = write_map(read_map(resolve_map_path("sampler")))

#: The tournaments of the test database, in the order they are stored (ids 1 to 6): one of each game,
#: and an Isolation tournament whose games start after a two-ply opening.
TOURNAMENTS = (
    TournamentConfig("isolation", ("greedy", "random", "crasher"), games=2, seed=7, extra_bots=webbots.BOTS),
    TournamentConfig("slidingpuzzle(rows=3,cols=3,scramble=24)", ("solver",), games=1, seed=3),
    TournamentConfig("pentocity", ("example",), games=1, seed=1),
    TournamentConfig(
        format_spec("reversixt", {"map": "sampler", "text": SAMPLER_TEXT}), ("random",) * 3, seed=2
    ),
    TournamentConfig("iceandfire", ("wood1", "wood2"), games=1, seed=4),
    TournamentConfig(
        "isolation(width=5,height=5)", ("greedy", "random"), games=1, seed=5, opening="random(plies=2)"
    ),
)


def free_port() -> int:
    """A port nobody listens on right now (the kernel's choice)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Served:
    """A running `gridarena serve`: its base URL, database and replays folder."""

    url: str
    db: Path
    replays: Path
    process: subprocess.Popen[str]

    def get(self, path: str) -> tuple[int, str, str]:
        """(status, content type, body) of a GET."""
        try:
            with urllib.request.urlopen(self.url + path, timeout=30) as response:
                return response.status, response.headers["content-type"], response.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.headers["content-type"], exc.read().decode()

    def json(self, path: str) -> Any:
        status, _, body = self.get(path)
        assert status == 200, body
        return json.loads(body)


def _limits(memory: int | None, files: int | None) -> Callable[[], None] | None:
    """A ``preexec_fn`` that caps the child's address space at ``memory`` bytes and its open files at
    ``files`` (None: no cap)."""
    if memory is None and files is None:
        return None

    def cap() -> None:
        if memory is not None:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        if files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

    return cap


def serve(
    db: Path, replays: Path, *extra: str, memory_cap: int | None = None, open_files: int | None = None
) -> Served:
    """Start `gridarena serve` on a free port and wait until it answers.

    ``memory_cap`` caps the server's address space (bytes), so a test of a memory bomb fails with a
    MemoryError on code that has the bug instead of taking the machine's memory; ``open_files`` caps its
    file descriptors (1024 is the usual default, which this machine raises).
    """
    port = free_port()
    command = [sys.executable, "-m", "gridarena", "serve", "--db", str(db), "--replays", str(replays)]
    process = subprocess.Popen(
        [*command, "--port", str(port), "--poll", "0.2", *extra],
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_limits(memory_cap, open_files),
    )
    served = Served(f"http://127.0.0.1:{port}", db, replays, process)
    deadline = time.monotonic() + 60  # the worker pool starts first (its fork server loads the kernels)
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"gridarena serve exited {process.returncode}: {process.stderr.read()}")  # type: ignore[union-attr]
        try:
            served.get("/")
            return served
        except OSError:
            time.sleep(0.1)
    process.kill()
    pytest.fail("gridarena serve did not answer within 60 s")


def stop(served: Served) -> None:
    served.process.terminate()
    try:
        served.process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        served.process.kill()
        served.process.wait()


def children(pid: int) -> dict[int, int]:
    """Parent pid of every process on the machine (read from /proc: no ps, no psutil)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # ended while we looked
            continue
        parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    return parents


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (children, their children, ...), from /proc."""
    parents = children(pid)
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def programs(pid: int) -> dict[int, str]:
    """The processes below ``pid`` that are not its worker pool (the fork server, its resource tracker
    and the workers forked from it), with their command lines: a program a request started."""
    found = {}
    for child in descendants(pid):
        try:
            command = (Path("/proc") / str(child) / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:  # ended while we looked
            continue
        if "from multiprocessing.forkserver import main" not in command and "resource_tracker" not in command:
            found[child] = command
    return found


def token(body: str) -> dict[str, str]:
    """The header that proves a request comes from whoever started the game (from the start's answer)."""
    return {"x-gridarena-token": json.loads(body)["token"]}


def tree(pid: int) -> set[int]:
    """``pid`` and every process below it."""
    return {pid} | descendants(pid)


def pss_mib(pids: set[int]) -> float:
    """The memory of ``pids`` together, in MiB: the sum of their proportional set sizes (a page shared
    by n processes counts 1/n in each: the fork server's pages, shared by its workers, count once)."""
    total = 0
    for pid in pids:
        try:
            text = Path(f"/proc/{pid}/smaps_rollup").read_text()
        except OSError:  # ended while we looked
            continue
        total += sum(int(line.split()[1]) for line in text.splitlines() if line.startswith("Pss:"))
    return total / 1024


def cpu_seconds(pids: set[int]) -> dict[int, float]:
    """CPU seconds (user and system, every thread) each of ``pids`` has used so far, from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    used = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        used[pid] = (int(fields[11]) + int(fields[12])) / tick
    return used


def cpu_used(pid: int, seconds: float) -> float:
    """CPU seconds that ``pid`` and every process below it use over the next ``seconds`` (a process that
    appears meanwhile counts whole)."""
    before = cpu_seconds(tree(pid))
    time.sleep(seconds)
    after = cpu_seconds(tree(pid))
    return sum(t - before.get(p, 0.0) for p, t in after.items())


def memory_kib(pid: int) -> dict[str, int]:
    """The process's resident set now (``VmRSS``) and at its peak (``VmHWM``), in KiB, from /proc."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = int(value.split()[0])
    return fields


def raw(
    served: Served,
    method: str,
    path: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
    *,
    timeout: float = 90,
) -> tuple[int, str, str]:
    """A request sent exactly as written (no client-side normalisation of ``..``)."""
    host, port = urllib.parse.urlsplit(served.url).netloc.split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=timeout)
    sent = {"content-type": "application/json"} if body is not None else {}
    connection.request(method, path, body=body, headers={**sent, **(headers or {})})
    response = connection.getresponse()
    result = (
        response.status,
        response.getheader("content-type") or "",
        response.read().decode("utf-8", "replace"),
    )
    connection.close()
    return result


def assert_clean(status: int, body: str, allowed: tuple[int, ...]) -> None:
    assert status in allowed, f"status {status}: {body[:300]}"
    assert "root:x:0:0" not in body and "Traceback" not in body and 'File "' not in body


def engine_states(path: Path) -> list[GameState[Any]]:
    """The engine's position after every ply of a replay (index 0: the start)."""
    replay = read_replay(path)
    game = replay_game(replay.header)
    states = [replay_start(game, replay.header)]
    for turn in replay.turns:
        states.append(states[-1].apply_action(states[-1].string_to_action(turn["action"])))
    return states


def expected_position(state: GameState[Any]) -> dict[str, str]:
    """The data attributes a game's picture must carry for ``state`` (read from the engine)."""
    name = state.game.name
    if name == "isolation":
        return {"board": str(state.to_json()["board"])}
    if name == "slidingpuzzle":
        return {"cells": ",".join(map(str, state.board.cells)), "moves": str(state.moves)}  # type: ignore[attr-defined]
    if name == "pentocity":
        land = "".join(map(str, state.land.ravel().tolist()))  # type: ignore[attr-defined]
        return {"land": land, "score": str(state.score)}  # type: ignore[attr-defined]
    raise AssertionError(f"no expectation for {name}")


SHOWN_JS = """() => {
  const svg = document.querySelector('#board svg');
  if (!svg) return null;
  const cells = [...svg.querySelectorAll('[data-cell]')].map((c) => [c.dataset.cell, c.dataset.v]);
  return { data: { ...svg.dataset }, cells };
}"""


def shown(page: Any) -> dict[str, Any]:
    """The data attributes of the board the page shows, and its drawn cells (name, content)."""
    value: dict[str, Any] = page.evaluate(SHOWN_JS)
    assert value is not None, "no board on the page"
    return value


STATS_JS = """async (b64) => {
  const img = new Image();
  img.src = 'data:image/png;base64,' + b64;
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = img.width; canvas.height = img.height;
  const g = canvas.getContext('2d');
  g.drawImage(img, 0, 0);
  const d = g.getImageData(0, 0, canvas.width, canvas.height).data;
  let sum = 0, sq = 0; const colours = new Set();
  for (let i = 0; i < d.length; i += 4) {
    const grey = (d[i] + d[i + 1] + d[i + 2]) / 3;
    sum += grey; sq += grey * grey; colours.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
  }
  const n = d.length / 4, mean = sum / n;
  return { std: Math.sqrt(sq / n - mean * mean), colours: colours.size, width: img.width, height: img.height };
}"""


def picture_stats(page: Any, png: bytes) -> dict[str, float]:
    """Grey-level standard deviation and distinct colours of a PNG screenshot (decoded by the browser)."""
    stats: dict[str, float] = page.evaluate(STATS_JS, base64.b64encode(png).decode())
    return stats
