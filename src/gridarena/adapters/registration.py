"""The Gymnasium ids ``gridarena/<game>-v0``, registered by ``import gridarena`` without importing Gymnasium.

``import gridarena`` calls :func:`register_when_imported`. When Gymnasium is already imported, the ids
are registered at once; otherwise a finder at the front of ``sys.meta_path`` waits for the first
``import gymnasium`` and registers them as soon as that module has run, then steps aside. So
``import gridarena, gymnasium; gymnasium.make("gridarena/isolation-v0")`` works in either order, a
machine without Gymnasium never tries to import it, and ``gridarena --version`` pays nothing for it
(importing Gymnasium takes about 0.25 s; ``benchmarks/cli.py`` measures the command's start).

The entry point is a string, so registering imports nothing of ours either: the environment's module
(:mod:`gridarena.adapters.gymnasium`, with numpy and the views) is imported by the first ``make``.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import sys
import threading
import warnings
from collections.abc import Sequence
from types import ModuleType
from typing import Any, Final

from gridarena.core.registry import available_games

ENTRY_POINT: Final = "gridarena.adapters.gymnasium:make_env"
"""What each id builds: :class:`~gridarena.adapters.gymnasium.GridArenaEnv`, with the render modes checked."""


def env_id(game: str) -> str:
    """The Gymnasium id of a registered game.

    >>> env_id("isolation")
    'gridarena/isolation-v0'
    """
    return f"gridarena/{game}-v0"


def register_ids(gymnasium: Any) -> list[str]:
    """Register ``gridarena/<game>-v0`` for every registered game that is not registered yet; the ids."""
    ids = []
    for name in available_games():
        ids.append(env_id(name))
        if ids[-1] not in gymnasium.registry:
            gymnasium.register(ids[-1], entry_point=ENTRY_POINT, kwargs={"game": name})
    return ids


def _register_quietly(gymnasium: ModuleType) -> None:
    """Register, but never break the user's ``import gymnasium`` (a Gymnasium whose API moved: a warning)."""
    try:
        register_ids(gymnasium)
    except Exception as exc:
        warnings.warn(f"gridarena could not register its Gymnasium ids: {exc}", stacklevel=2)


class _AfterImport(importlib.abc.MetaPathFinder):
    """Finds ``gymnasium`` as the other finders do, and has its loader register our ids after it ran."""

    def __init__(self) -> None:
        self.lock = threading.Lock()

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != "gymnasium":
            return None
        with self.lock:
            if self in sys.meta_path:
                sys.meta_path.remove(self)  # once: the search below and every later import go past us
        spec = importlib.util.find_spec(fullname)
        loader = None if spec is None else spec.loader
        if loader is None or not hasattr(loader, "exec_module"):
            return spec
        run = loader.exec_module

        def exec_module(module: ModuleType) -> None:
            run(module)
            _register_quietly(module)

        loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


_FINDER: Final = _AfterImport()


def register_when_imported() -> None:
    """Register the ids now if Gymnasium is imported, else as soon as it is (see the module docstring)."""
    gymnasium = sys.modules.get("gymnasium")
    if gymnasium is not None:
        _register_quietly(gymnasium)
    elif _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)
