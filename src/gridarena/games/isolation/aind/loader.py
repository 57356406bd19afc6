"""Loading an unmodified AIND agent file (``game_agent.py``) against gridarena's AIND Board.

The file imports ``isolation`` (AIND's board module) and usually ``sample_players``: the loader
installs an ``isolation`` module whose ``Board`` is :class:`~gridarena.games.isolation.aind.board.Board`,
and lets ``sample_players`` be the file beside the agent, else gridarena's
(:mod:`gridarena.games.isolation.aind.samples`).
"""

from __future__ import annotations

import functools
import importlib.util
import sys
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gridarena.core.errors import GridArenaError
from gridarena.core.files import read_bytes
from gridarena.games.isolation.aind.board import TIME_LIMIT_MILLIS, Board


class AgentLoadError(GridArenaError, ImportError):
    """An AIND agent file that cannot be loaded; the message names the file."""


def isolation_shim() -> types.ModuleType:
    """A module ``isolation`` (with submodule ``isolation.isolation``) exporting gridarena's AIND :class:`Board`."""
    package = types.ModuleType("isolation")
    package.__path__ = []
    inner = types.ModuleType("isolation.isolation")
    for module in (package, inner):
        module.Board = Board  # type: ignore[attr-defined]
        module.TIME_LIMIT_MILLIS = TIME_LIMIT_MILLIS  # type: ignore[attr-defined]
    package.isolation = inner  # type: ignore[attr-defined]
    return package


def install_shim() -> None:
    """Make ``import isolation`` / ``from isolation import Board`` give gridarena's AIND Board."""
    package = isolation_shim()
    sys.modules["isolation"] = package
    sys.modules["isolation.isolation"] = package.isolation


def _provide_samples(sibling: Path) -> None:
    """Make ``import sample_players`` find the file beside the agent, else gridarena's stand-in."""
    current = sys.modules.get("sample_players")
    if sibling.is_file():
        if current is not None and getattr(current, "__file__", None) != str(sibling):
            del sys.modules["sample_players"]  # an earlier agent's samples, or the stand-in
        return
    from gridarena.games.isolation.aind import samples

    sys.modules["sample_players"] = samples


def load_agent_module(path: str | Path, module_name: str | None = None) -> types.ModuleType:
    """Import an unmodified AIND file (``game_agent.py``, ``sample_players.py``) against this Board.

    The file's own folder is searched first for its imports (so ``from sample_players import ...``
    finds the ``sample_players.py`` beside it); without one, gridarena's samples stand in.
    """
    path = Path(path)
    if not path.exists():
        raise AgentLoadError(f"{path}: no such agent file")
    source = read_bytes(path, "agent file")  # a regular file of at most 16 MiB, else one line
    install_shim()
    _provide_samples(path.parent / "sample_players.py")
    name = module_name or f"_aind_agent_{path.stem}_{abs(hash(str(path.resolve())))}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise AgentLoadError(f"{path}: not a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(path.parent))
    try:
        # The source read above is what runs (the loader would open the path again, unbounded).
        exec(compile(source, str(path), "exec"), module.__dict__)
    except Exception as error:
        raise AgentLoadError(f"{path}: {type(error).__name__}: {error}") from error
    finally:
        sys.path.remove(str(path.parent))
    return module


@dataclass(frozen=True)
class AgentFile:
    """A loaded agent file and the ``sample_players`` it was loaded with: where players and scores are found."""

    module: types.ModuleType
    samples: types.ModuleType

    def find(self, name: str) -> Any:
        """An attribute of the agent file, else of its samples (``RandomPlayer``, ``improved_score``), else
        of gridarena's AIND agents (a file with only ``custom_score`` plays with our ``AlphaBetaPlayer``)."""
        from gridarena.games.isolation.aind import agents

        for source in (self.module, self.samples, agents):
            if hasattr(source, name):
                return getattr(source, name)
        raise AgentLoadError(f"{self.module.__file__}: no {name!r} in the agent file or its sample_players")

    def custom_scores(self) -> list[str]:
        """The agent file's own ``custom_score``, ``custom_score_2``, ... (AB_Custom, AB_Custom_2, ...)."""
        names = ["custom_score"] + [f"custom_score_{i}" for i in range(2, 10)]
        return [name for name in names if hasattr(self.module, name)]


@functools.cache
def agent_file(path: str | None = None) -> AgentFile:
    """The agent file at ``path`` (loaded once per process), or gridarena's AIND agents and samples (None).

    >>> agent_file().find("MinimaxPlayer").__module__, agent_file().find("center_score").__module__
    ('gridarena.games.isolation.aind.agents', 'gridarena.games.isolation.aind.samples')
    """
    from gridarena.games.isolation.aind import agents, samples

    if path is None:
        return AgentFile(agents, samples)
    module = load_agent_module(path)
    return AgentFile(module, sys.modules.get("sample_players", samples))
