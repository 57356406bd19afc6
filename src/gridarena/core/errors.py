"""The errors gridarena raises on purpose; the CLI prints them as one line and exits 1."""

from __future__ import annotations

from collections.abc import Sequence


class GridArenaError(Exception):
    """Base class of every error gridarena raises on purpose."""


class SpecError(GridArenaError, ValueError):
    """A bot or game spec string such as ``alphabeta(depth=5)`` that cannot be parsed."""


class UnknownNameError(SpecError, KeyError):
    """A game, bot or algorithm name that is not registered (a spec error too: the name is a spec's)."""

    def __init__(self, kind: str, name: str, close: Sequence[str] = ()) -> None:
        hint = f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else ""
        super().__init__(f"unknown {kind} {name!r}{hint}")
        self.kind, self.name = kind, name

    def __str__(self) -> str:  # KeyError would quote the whole message
        return str(self.args[0])


class IllegalActionError(GridArenaError, ValueError):
    """An action that the rules do not allow in this state; the message says why."""


class ActionParseError(GridArenaError, ValueError):
    """Text that is not an action of this game."""


class NotEnumerableError(GridArenaError):
    """The game's actions cannot be listed (Pentocity, Ice and Fire): use ``random_action``."""


class StateFormatError(GridArenaError, ValueError):
    """A serialised state (JSON or text) that does not describe a valid state."""


class ConformanceError(GridArenaError, AssertionError):
    """A game broke an invariant of the game API; the message names game, seed and ply."""


class ReplayFormatError(GridArenaError, ValueError):
    """A replay file that cannot be read; the message names the file and line."""

    def __init__(self, path: str, line: int, message: str) -> None:
        super().__init__(f"{path}:{line}: {message}")
