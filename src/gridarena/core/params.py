"""Game parameters with a declared kind and range, checked before a game allocates anything.

Every registered game declares ``PARAMETERS``: parameter name -> :class:`Param`. ``make`` refuses a
name the table does not list, and the game's constructor checks each value against its entry, so
``slidingpuzzle(rows=100000,cols=100000)`` is one line naming the parameter and its range instead of a
10 GB allocation. A parameter that names a file on disk says so (``reads_file``), and a request
from the network may give it only one of the files packaged with gridarena
(:meth:`Param.request_problem`). The parameter tables of ``docs/<game>.md`` are written from
:meth:`Param.describe`, and a test keeps them equal.

>>> check_params("isolation", {"width": Int(1, 26)}, {"width": 30})
Traceback (most recent call last):
...
gridarena.core.params.ParamError: isolation: width must be an integer from 1 to 26, got 30
>>> check_names("isolation", {"width": Int(1, 26)}, ["depth"])
Traceback (most recent call last):
...
gridarena.core.params.ParamError: isolation: unknown parameter 'depth'; isolation takes width
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from gridarena.core.errors import SpecError, StateFormatError

#: A value's repr in an error is cut to this many characters (a huge list must not make a huge line).
SHOWN: Final = 60


class ParamError(SpecError, StateFormatError):
    """A game parameter that is unknown or out of its range; the message names both.

    A bad spec when the parameter comes from a spec, a bad state when it comes from a state's text or
    JSON (an Isolation board of 30 x 30), so the readers of either keep catching it.
    """


def shown(value: object) -> str:
    """``repr(value)``, cut to :data:`SHOWN` characters.

    >>> shown("x" * 100)[-5:]
    'xx...'
    """
    text = repr(value)
    return text if len(text) <= SHOWN else text[: SHOWN - 3] + "..."


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Param:
    """One parameter's kind and range. Subclasses say what they accept (:meth:`describe`) and check it."""

    #: True when the value may name a file on disk (read when the game is made).
    reads_file: bool = False

    def describe(self) -> str:
        """What the parameter accepts, as the docs and the errors say it ("an integer from 1 to 26")."""
        raise NotImplementedError

    def accepts(self, value: object) -> bool:
        """Whether ``value`` is of the kind and within the range."""
        raise NotImplementedError

    def request_problem(self, value: object) -> str | None:
        """None if a request from the network may give ``value``, else why not."""
        return None


@dataclass(frozen=True)
class Int(Param):
    """A whole number from ``lo`` to ``hi`` (True and False are not numbers here)."""

    lo: int
    hi: int

    def describe(self) -> str:
        """ "an integer from 1 to 26"."""
        return f"an integer from {self.lo} to {self.hi}"

    def accepts(self, value: object) -> bool:
        """A whole number in range."""
        return _is_int(value) and self.lo <= value <= self.hi  # type: ignore[operator]


@dataclass(frozen=True)
class Number(Param):
    """A finite number above ``lo`` and at most ``hi``; ``optional``: None too."""

    lo: float
    hi: float
    optional: bool = False

    def describe(self) -> str:
        """ "a number above 0 and at most 86400, or None"."""
        return f"a number above {self.lo:g} and at most {self.hi:g}" + (", or None" if self.optional else "")

    def accepts(self, value: object) -> bool:
        """A finite int or float in range (or None when optional)."""
        if value is None:
            return self.optional
        if not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(value):
            return False
        return self.lo < value <= self.hi


@dataclass(frozen=True)
class Choice(Param):
    """One of a fixed set of words."""

    options: tuple[str, ...]

    def describe(self) -> str:
        """ "one of ('contest', 'multi')"."""
        return f"one of {self.options}"

    def accepts(self, value: object) -> bool:
        """One of the options."""
        return isinstance(value, str) and value in self.options


@dataclass(frozen=True)
class Flag(Param):
    """True or False."""

    def describe(self) -> str:
        """ "True or False"."""
        return "True or False"

    def accepts(self, value: object) -> bool:
        """A bool."""
        return isinstance(value, bool)


@dataclass(frozen=True)
class Ints(Param):
    """A list (or tuple) of at most ``most`` whole numbers from ``lo`` to ``hi``; ``optional``: None too."""

    most: int
    lo: int
    hi: int
    optional: bool = True

    def describe(self) -> str:
        """ "a list of at most 256 integers from -1 to 256, or None"."""
        text = f"a list of at most {self.most} integers from {self.lo} to {self.hi}"
        return text + (", or None" if self.optional else "")

    def accepts(self, value: object) -> bool:
        """A short enough list of whole numbers in range (or None when optional)."""
        if value is None:
            return self.optional
        if not isinstance(value, list | tuple) or len(value) > self.most:
            return False
        return all(_is_int(v) and self.lo <= v <= self.hi for v in value)


@dataclass(frozen=True)
class Text(Param):
    """Text of at most ``most`` characters."""

    most: int

    def describe(self) -> str:
        """ "text of at most 4096 characters"."""
        return f"text of at most {self.most} characters"

    def accepts(self, value: object) -> bool:
        """A short enough string."""
        return isinstance(value, str) and len(value) <= self.most


@dataclass(frozen=True)
class FileOrName(Param):
    """The name of a file packaged with gridarena (listed by ``names``), or a path to a file (``what``).

    ``""`` means the game's default. A request from the network may give a packaged name only, so
    it can never make the server read a file of its choice.
    """

    what: str
    names: Callable[[], Collection[str]]
    most: int = 4096
    reads_file: bool = True

    def describe(self) -> str:
        """ "the name of a packaged map (mini, othello8, sampler) or a map file's path"."""
        return f"the name of a packaged {self.what} ({', '.join(sorted(self.names()))}) or a {self.what} file's path"

    def accepts(self, value: object) -> bool:
        """A string short enough to be a path."""
        return isinstance(value, str) and len(value) <= self.most

    def request_problem(self, value: object) -> str | None:
        """Only the packaged names (and the default) from a request."""
        if value == "" or value in self.names():
            return None
        return (
            f"names a file on the server's disk; a request may give only a packaged {self.what} "
            f"({', '.join(sorted(self.names()))})"
        )


def check_names(game: str, table: Mapping[str, Param], names: Iterable[str]) -> None:
    """Refuse the first name that ``table`` does not list, naming the ones it does."""
    for name in names:
        if name not in table:
            takes = f"{game} takes {', '.join(table)}" if table else f"{game} takes no parameters"
            raise ParamError(f"{game}: unknown parameter {name!r}; {takes}")


def check_values(game: str, table: Mapping[str, Param], values: Mapping[str, object]) -> None:
    """Refuse the first value outside its parameter's range: ``game: name must be <range>, got <value>``."""
    for name, value in values.items():
        param = table[name]
        if not param.accepts(value):
            raise ParamError(f"{game}: {name} must be {param.describe()}, got {shown(value)}")


def check_params(game: str, table: Mapping[str, Param], values: Mapping[str, object]) -> None:
    """Both checks: every name known, every value in range."""
    check_names(game, table, values)
    check_values(game, table, values)


def request_problems(game: str, table: Mapping[str, Param], values: Mapping[str, object]) -> list[str]:
    """Why a request from the network may not give these values (empty: it may)."""
    found = []
    for name, value in values.items():
        problem = table[name].request_problem(value) if name in table else None
        if problem is not None:
            found.append(f"{game}: {name}={shown(value)} {problem}")
    return found


def table_rows(table: Mapping[str, Param]) -> Sequence[str]:
    """The rows of a docs table of the parameters: ``| `name` | what it accepts |``."""
    return [f"| `{name}` | {param.describe()} |" for name, param in table.items()]
