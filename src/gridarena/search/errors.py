"""Errors of the search package (each a :class:`GridArenaError`, so the CLI prints one line)."""

from __future__ import annotations

from gridarena.core.errors import GridArenaError


class SearchAborted(GridArenaError):
    """Raised inside a search once its :class:`TimeControl` says stop; the caller keeps what it has."""


class InvalidProblemError(GridArenaError, ValueError):
    """A problem that breaks the solver's assumptions (a negative step cost, for example)."""


class UnsupportedGameError(GridArenaError, ValueError):
    """A game or position the algorithm does not handle (chance nodes in BRS, 3 players in alpha-beta)."""


class InvalidBoundsError(GridArenaError, ValueError):
    """Max^n pruning was promised value bounds that a leaf broke; the message names the leaf's values."""
