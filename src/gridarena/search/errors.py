"""Errors of the search package (each a :class:`GridArenaError`, so the CLI prints one line)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gridarena.core.errors import GridArenaError

if TYPE_CHECKING:
    from gridarena.search.problem import Solution


class SearchAborted(GridArenaError):
    """Raised inside a search once its :class:`TimeControl` says stop; the caller keeps what it has.

    Single-agent solvers put their figures so far in ``partial`` (a ``Solution`` whose status is
    ``limit``); game-tree searches leave it None (their callers keep the last completed depth).
    """

    def __init__(self, message: str, partial: Solution[Any] | None = None) -> None:
        super().__init__(message)
        self.partial = partial


class InvalidProblemError(GridArenaError, ValueError):
    """A problem that breaks the solver's assumptions (a negative step cost, for example)."""


class UnsupportedGameError(GridArenaError, ValueError):
    """A game or position the algorithm does not handle (chance nodes in BRS, 3 players in alpha-beta)."""


class InvalidBoundsError(GridArenaError, ValueError):
    """Max^n pruning was promised value bounds that a leaf broke; the message names the leaf's values."""
