"""Fixtures of the ReversiXT network tests: the C protocol peers and the search kernels, each made
ready once per session."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

PEERS = Path(__file__).parent / "peers"


@pytest.fixture(scope="session")
def peers(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The C peers (``peers/client.c``, ``peers/server.c``), compiled with gcc; without gcc, a skip."""
    gcc = shutil.which("gcc")
    if gcc is None:
        pytest.skip("gcc not found: the C protocol peers cannot be built")
    out = tmp_path_factory.mktemp("peers")
    built = {}
    for name in ("client", "server"):
        exe = out / name
        flags = ["-std=c11", "-D_POSIX_C_SOURCE=200809L", "-D_DEFAULT_SOURCE", "-Wall", "-Werror", "-O1"]
        subprocess.run([gcc, *flags, "-o", str(exe), str(PEERS / f"{name}.c")], check=True, timeout=120)
        built[name] = exe
    return built


@pytest.fixture(scope="session")
def search_kernels() -> None:
    """The fast engine's kernels compiled or loaded in this process (15-40 s with an empty numba cache).

    A client warms its bot up before it connects; a test harness that waits a fixed time for each
    client to connect must not pay the compilation inside that wait."""
    from gridarena.games.reversixt.fast.engine import Engine
    from gridarena.games.reversixt.rules import ReversiXT

    game = ReversiXT("sampler")
    Engine(game.board, evaluation="map").search(game.new_initial_state(), max_depth=2)
