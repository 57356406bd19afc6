"""Fixtures of the ReversiXT network tests: the C protocol peers, compiled once per session."""

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
