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

import enum
import math
import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
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
    try:
        text = repr(value)
    except ValueError:  # an int (or a list holding one) past Python's 4,300 digits for str()
        return f"a {type(value).__name__} too large to show"
    return text if len(text) <= SHOWN else text[: SHOWN - 3] + "..."


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Reach(enum.Enum):
    """What a bot or a parameter reaches beyond its game; a request from the network may choose none of it."""

    PROGRAM = "starts a program on the server"
    FILE = "reads or writes files on the server"
    TERMINAL = "reads the server's terminal"
    NETWORK = "connects to the network"
    CLOCKLESS = "searches a fixed budget, whatever the move's clock says"


class _Required:
    """The default of a parameter that must be given."""

    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Final = _Required()


@dataclass(frozen=True, kw_only=True)
class Param:
    """One parameter's kind and range. Subclasses say what they accept (:meth:`describe`) and check it.

    ``default`` is what the factory uses when the parameter is not given (:data:`REQUIRED`: it must
    be given), ``help`` one line for the docs and the forms, ``reaches`` what the parameter makes its
    bot or game reach beyond the game (a file, a program).
    """

    default: object = None
    help: str = ""
    reaches: frozenset[Reach] = frozenset()

    def describe(self) -> str:
        """What the parameter accepts, as the docs and the errors say it ("an integer from 1 to 26")."""
        raise NotImplementedError

    def accepts(self, value: object) -> bool:
        """Whether ``value`` is of the kind and within the range."""
        raise NotImplementedError

    def convert(self, value: object) -> object:
        """An accepted ``value`` in the form the factory takes (``1`` -> ``True`` for a flag)."""
        return value

    def request_problem(self, value: object) -> str | None:
        """None if a request from the network may give ``value``, else why not."""
        if self.reaches:
            return " and ".join(sorted(r.value for r in self.reaches)) + ": not from a request"
        return None

    @property
    def reads_file(self) -> bool:
        """True when the value may name a file on disk."""
        return Reach.FILE in self.reaches


@dataclass(frozen=True)
class Int(Param):
    """A whole number from ``lo`` to ``hi`` (True and False are not numbers here); ``optional``: None too."""

    lo: int
    hi: int
    optional: bool = False

    def describe(self) -> str:
        """ "an integer from 1 to 26"."""
        return f"an integer from {self.lo} to {self.hi}" + (", or None" if self.optional else "")

    def accepts(self, value: object) -> bool:
        """A whole number in range (or None when optional)."""
        if value is None:
            return self.optional
        return _is_int(value) and self.lo <= value <= self.hi  # type: ignore[operator]


@dataclass(frozen=True)
class Number(Param):
    """A finite number above ``lo`` (from ``lo`` when ``closed``) and at most ``hi``; ``optional``: None too."""

    lo: float
    hi: float
    optional: bool = False
    closed: bool = False

    def describe(self) -> str:
        """ "a number above 0 and at most 86400, or None"."""
        low = f"from {self.lo:g} to" if self.closed else f"above {self.lo:g} and at most"
        return f"a number {low} {self.hi:g}" + (", or None" if self.optional else "")

    def accepts(self, value: object) -> bool:
        """A finite int or float in range (or None when optional)."""
        if value is None:
            return self.optional
        if not isinstance(value, int | float) or isinstance(value, bool):
            return False
        if isinstance(value, int) and value.bit_length() > 1024:  # float() of it would overflow
            return False
        if not math.isfinite(value):
            return False
        return (self.lo <= value if self.closed else self.lo < value) and value <= self.hi

    def convert(self, value: object) -> object:
        """Ints as floats (``margin=5`` is 5.0)."""
        return None if value is None else float(value)  # type: ignore[arg-type]


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
    """True or False (1 and 0 too, as specs often write them)."""

    def describe(self) -> str:
        """ "True or False"."""
        return "True or False"

    def accepts(self, value: object) -> bool:
        """A bool, or 0 or 1."""
        return isinstance(value, bool) or (_is_int(value) and value in (0, 1))

    def convert(self, value: object) -> object:
        """0 and 1 as False and True."""
        return bool(value)


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
class Numbers(Param):
    """Exactly ``count`` finite numbers from ``lo`` to ``hi``, as a list or tuple; ``optional``: None too."""

    count: int
    lo: float
    hi: float
    optional: bool = True

    def describe(self) -> str:
        """ "2 numbers from -1e+09 to 1e+09, or None"."""
        return f"{self.count} numbers from {self.lo:g} to {self.hi:g}" + (
            ", or None" if self.optional else ""
        )

    def accepts(self, value: object) -> bool:
        """The right count of numbers in range (or None when optional)."""
        if value is None:
            return self.optional
        if not isinstance(value, list | tuple) or len(value) != self.count:
            return False
        number = Number(self.lo, self.hi, closed=True)
        return all(number.accepts(v) for v in value)

    def convert(self, value: object) -> object:
        """A tuple of floats."""
        return None if value is None else tuple(float(v) for v in value)  # type: ignore[attr-defined]


@dataclass(frozen=True)
class Text(Param):
    """Text of at most ``most`` characters; ``optional``: None too."""

    most: int
    optional: bool = False

    def describe(self) -> str:
        """ "text of at most 4096 characters"."""
        return f"text of at most {self.most} characters" + (", or None" if self.optional else "")

    def accepts(self, value: object) -> bool:
        """A short enough string (or None when optional)."""
        if value is None:
            return self.optional
        return isinstance(value, str) and len(value) <= self.most


@dataclass(frozen=True)
class Pattern(Param):
    """Text of at most ``most`` characters that matches the regular expression ``regex`` whole; ``form``
    says the form in words (``term=early/late,...``); ``optional``: None too."""

    regex: str
    form: str
    most: int = 400
    optional: bool = True

    def describe(self) -> str:
        """ "text of the form term=early/late,..."."""
        return f"text of the form {self.form}" + (", or None" if self.optional else "")

    def accepts(self, value: object) -> bool:
        """A short enough string of the form."""
        if value is None:
            return self.optional
        return (
            isinstance(value, str) and len(value) <= self.most and re.fullmatch(self.regex, value) is not None
        )


@dataclass(frozen=True)
class Path(Param):
    """A path to a file or a folder on the machine (``what`` says which); reaches that file."""

    what: str
    optional: bool = True
    most: int = 4096
    reaches: frozenset[Reach] = field(default=frozenset({Reach.FILE}), kw_only=True)

    def describe(self) -> str:
        """ "the path of an agent file"."""
        return f"the path of {self.what}" + (", or None" if self.optional else "")

    def accepts(self, value: object) -> bool:
        """A string short enough to be a path, with no NUL (or None when optional)."""
        if value is None:
            return self.optional
        return isinstance(value, str) and 0 < len(value) <= self.most and "\x00" not in value


@dataclass(frozen=True)
class Command(Param):
    """A program's command line (text split like a shell's, or a list of words); starts that program."""

    most: int = 4096
    reaches: frozenset[Reach] = field(default=frozenset({Reach.PROGRAM}), kw_only=True)

    def describe(self) -> str:
        """ "a command line (text or a list of words)"."""
        return "a command line (text or a list of words)"

    def accepts(self, value: object) -> bool:
        """Non-empty text, or a non-empty list of words, short enough."""
        if isinstance(value, str):
            return 0 < len(value) <= self.most
        if isinstance(value, list | tuple):
            words = [w for w in value if isinstance(w, str)]
            return 0 < len(words) == len(value) and sum(map(len, words)) <= self.most
        return False


@dataclass(frozen=True)
class TextMap(Param):
    """A mapping of at most ``most`` names to text values (an environment); ``optional``: None too."""

    most: int
    optional: bool = True

    def describe(self) -> str:
        """ "a dict of at most 64 names to text, or None"."""
        return f"a dict of at most {self.most} names to text" + (", or None" if self.optional else "")

    def accepts(self, value: object) -> bool:
        """A small dict of short strings."""
        if value is None:
            return self.optional
        if not isinstance(value, dict) or len(value) > self.most:
            return False
        return all(
            isinstance(k, str) and isinstance(v, str) and len(k) + len(v) <= 4096 for k, v in value.items()
        )


@dataclass(frozen=True)
class FileOrName(Param):
    """The name of a file packaged with gridarena (listed by ``names``), or a path to a file (``what``).

    ``""`` means the game's default. A request from the network may give a packaged name only, so
    it can never make the server read a file of its choice.
    """

    what: str
    names: Callable[[], Collection[str]]
    most: int = 4096
    #: A parameter that, when given, holds the file's content: the name is then a label, never read.
    unless: str | None = None
    reaches: frozenset[Reach] = field(default=frozenset({Reach.FILE}), kw_only=True)

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


def check_values(game: str, table: Mapping[str, Param], values: Mapping[str, object]) -> dict[str, object]:
    """Refuse the first value outside its parameter's range: ``game: name must be <range>, got <value>``;
    the values converted for the factory (:meth:`Param.convert`)."""
    for name, value in values.items():
        param = table[name]
        if not param.accepts(value):
            raise ParamError(f"{game}: {name} must be {param.describe()}, got {shown(value)}")
    return {name: table[name].convert(value) for name, value in values.items()}


def check_params(game: str, table: Mapping[str, Param], values: Mapping[str, object]) -> dict[str, object]:
    """Both checks: every name known, every value in range; the values converted for the factory."""
    check_names(game, table, values)
    return check_values(game, table, values)


def request_problems(game: str, table: Mapping[str, Param], values: Mapping[str, object]) -> list[str]:
    """Why a request from the network may not give these values (empty: it may)."""
    found = []
    for name, value in values.items():
        param = table.get(name)
        if isinstance(param, FileOrName) and param.unless and values.get(param.unless):
            continue  # the content is given: the name is a label, nothing is read
        problem = param.request_problem(value) if param is not None else None
        if problem is not None:
            found.append(f"{game}: {name}={shown(value)} {problem}")
    return found


def table_rows(table: Mapping[str, Param]) -> Sequence[str]:
    """The rows of a docs table of the parameters: ``| `name` | what it accepts |``."""
    return [f"| `{name}` | {param.describe()} |" for name, param in table.items()]
