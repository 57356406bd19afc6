"""Numba's on-disk cache of compiled kernels, made stale by any source file of the kernel's package.

Numba stamps a cached kernel with its own file only: a kernel that calls a kernel of another file,
or reads a constant of another module, is loaded from the cache as it was compiled after that file
changed (a known limit of numba's cache, numba/numba#8396, not merged). On 6 December 2026 a change
to ReversiXT's evaluation (``fast/evaluate.py``) was not seen by the search kernels of
``fast/search.py``, which had been cached before it, and a benchmark measured the old bot.

Here a kernel of a game (a file under ``gridarena/games/NAME/``) is stamped with every ``.py`` file
of that game's package (names and contents), and one under a folder named by :func:`watch` with that
folder's, so changing any of them compiles its kernels again. Importing this module registers the
locator; it must come before any kernel is defined (numba finds a kernel's locator when the kernel
is decorated), so the games' ``fast/__init__.py`` import it first. Numba has no public hook for
this; the locators (in-tree, and user-wide where the package's folder cannot be written, as in an
installed copy) are two more entries at the head of its list of locator classes (numba is pinned).
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path
from typing import Any

from numba.core import caching, config

GAMES = Path(__file__).resolve().parents[1] / "games"
_ROOTS: set[Path] = set()


def watch(folder: str | Path) -> None:
    """Stamp the cached kernels of every file under ``folder`` with all of its ``.py`` files."""
    _ROOTS.add(Path(folder).resolve())


def package_of(py_file: str | Path) -> Path | None:
    """The folder whose files stamp a kernel of ``py_file``: its game's package, or a watched folder."""
    path = Path(py_file).resolve()
    if path.is_relative_to(GAMES) and len(path.relative_to(GAMES).parts) > 1:
        return GAMES / path.relative_to(GAMES).parts[0]
    return next((r for r in _ROOTS if path.is_relative_to(r)), None)


def digest(root: Path) -> bytes:
    """A digest of every ``.py`` file under ``root``: their paths and contents."""
    h = hashlib.sha256()
    for p in sorted(root.rglob("*.py")):
        h.update(str(p.relative_to(root)).encode() + b"\0" + p.read_bytes() + b"\0")
    return h.digest()


@functools.cache
def package_stamp(root: Path) -> bytes:
    """:func:`digest` of ``root``, once a process (numba asks for every kernel it loads; the process
    runs the code it imported, so the files as they were then are the stamp)."""
    return digest(root)


class _PackageStamp:
    """A locator of numba's, stamped by the watched package (:func:`package_of`) instead of the file."""

    _root: Path

    def get_source_stamp(self) -> Any:
        return package_stamp(self._root)

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> Any:
        root = package_of(py_file)
        if root is None:
            return None
        found = super().from_function(py_func, py_file)  # type: ignore[misc]
        if found is not None:
            found._root = root
        return found


class PackageLocator(_PackageStamp, caching.InTreeCacheLocator):
    """Numba's in-tree locator (``__pycache__`` beside the file, or a user's ``NUMBA_CACHE_DIR`` as
    numba's own locators do), stamped by the watched package."""

    def __init__(self, py_func: Any, py_file: str) -> None:
        super().__init__(py_func, py_file)  # type: ignore[no-untyped-call]
        user_dir = getattr(config, "CACHE_DIR", "")
        if user_dir:
            sub = self.get_suitable_cache_subpath(py_file)  # type: ignore[no-untyped-call]
            self._cache_path = str(Path(user_dir) / sub)


class PackageUserWideLocator(_PackageStamp, caching.UserWideCacheLocator):
    """Numba's user-wide locator (its cache folder in the user's home), for a package whose folder
    cannot be written (an installed copy), stamped by the package: an upgrade that changes a callee's
    file and not its caller's compiles the caller again."""


for _locator in (PackageUserWideLocator, PackageLocator):  # tried first, in-tree before user-wide
    if _locator not in caching.CacheImpl._locator_classes:
        caching.CacheImpl._locator_classes.insert(0, _locator)
