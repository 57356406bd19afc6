"""Numba's cache of compiled kernels goes stale when a file a kernel calls into changes, unless the
kernel's package stamps it (:mod:`gridarena.core.kernelcache`)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gridarena.core.kernelcache import GAMES, digest, package_of, watch

CALLER = """
from numba import njit

from callee import g


@njit(cache=True)
def f():
    return g() + 100
"""
CALLEE = """
from numba import njit


@njit(cache=True)
def g():
    return {value}
"""
RUN = """
import sys
sys.path.insert(0, {folder!r})
if {watched}:
    from gridarena.core import kernelcache
    kernelcache.watch({folder!r})
import caller
print(caller.f())
"""


def run(folder: Path, watched: bool, home: Path) -> int:
    """``f()`` in a fresh interpreter (numba's cache is what carries over between them); numba's
    user-wide cache folder under ``home``."""
    code = RUN.format(folder=str(folder), watched=watched)
    env = {**os.environ, "XDG_CACHE_HOME": str(home)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    return int(done.stdout.split()[-1])


@pytest.mark.parametrize("in_tree", [True, False], ids=["in-tree", "user-wide"])
@pytest.mark.parametrize("watched", [False, True])
def test_a_change_to_a_called_file_reaches_the_cached_caller_only_when_watched(
    tmp_path: Path, watched: bool, in_tree: bool
) -> None:
    folder, home = tmp_path / "package", tmp_path / "home"
    folder.mkdir()
    if not in_tree:  # no __pycache__ folder can be made there (as in a read-only installed copy)
        (folder / "__pycache__").write_text("a file, not a folder")
    (folder / "caller.py").write_text(CALLER)
    callee = folder / "callee.py"
    callee.write_text(CALLEE.format(value=1))
    assert run(folder, watched, home) == 101  # compiled and cached
    assert any(home.rglob("*.nbi")) != in_tree  # where the cache went
    callee.write_text(CALLEE.format(value=2) + "\n# changed\n")  # another size: numba sees the change
    # Numba's own locator stamps ``caller`` with caller.py alone: its cached copy of g is the old one.
    assert run(folder, watched, home) == (102 if watched else 101)


def test_a_games_kernels_are_stamped_by_every_file_of_the_game(tmp_path: Path) -> None:
    engine = GAMES / "reversixt" / "fast" / "search.py"
    assert package_of(engine) == GAMES / "reversixt"
    assert package_of(GAMES / "isolation" / "fast" / "movegen.py") == GAMES / "isolation"
    assert package_of(tmp_path / "x.py") is None  # not a game's, not watched: numba's own locators
    watch(tmp_path)
    (tmp_path / "a.py").write_text("x = 1\n")
    before = digest(tmp_path)
    assert package_of(tmp_path / "a.py") == tmp_path.resolve()
    (tmp_path / "a.py").write_text("x = 2\n")
    assert digest(tmp_path) != before
    (tmp_path / "a.py").write_text("x = 1\n")
    assert digest(tmp_path) == before
