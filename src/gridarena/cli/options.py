"""The command line's value types: one checked argparse type per kind of number, used by every option.

Every numeric option of every command takes one of these types, so the check is one piece of code:
NaN, the infinities, numbers too long to convert and values outside the option's range are refused
while the command line is parsed, as one line naming the option and its range, exit code 1
(:class:`Parser` raises :class:`OptionRangeError`, which ``main`` prints):

    gridarena play: error: argument --grace: must be a number of seconds from 0 to 3600, not 'nan'

A type carries its range as text, which :class:`Parser` appends to the option's ``--help``. A
missing or unknown option stays argparse's usage error (exit code 2).

>>> SEED("-7"), seconds(above=0)("0.5"), count(high=10)("10")
(-7, 0.5, 10)
>>> seconds()("nan")
Traceback (most recent call last):
...
gridarena.cli.options.OptionValueError: must be a number of seconds from 0 to 10^6, not 'nan'
>>> count()("0")
Traceback (most recent call last):
...
gridarena.cli.options.OptionValueError: must be an integer from 1 to 10^9, not '0'
>>> size(low=1 << 20)("4G"), size()("512m")
(4294967296, 536870912)
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from dataclasses import dataclass
from typing import Any, Final, NoReturn

from gridarena.core.errors import GridArenaError
from gridarena.core.files import size_text

MAX_SECONDS: Final = 10**6
"""The longest time any option takes (11.6 days): far larger values overflow clocks and timers."""

MAX_COUNT: Final = 10**9
"""The default upper bound of a count (games, plies, repeats)."""

MAX_DIGITS: Final = 40
"""Characters of a number on the command line (a 64-bit integer has at most 20 digits)."""


class OptionValueError(argparse.ArgumentTypeError):
    """What a checked type raises for a value outside its range (argparse adds the option's name)."""


class OptionRangeError(GridArenaError):
    """A command line with a value outside its option's range; the message is the whole line to print."""


def _refuse(range_text: str, text: str) -> NoReturn:
    raise OptionValueError(f"must be {range_text}, not {text[:MAX_DIGITS]!r}")


def _number_text(value: float) -> str:
    """A bound as people read it: ``1``, ``0.05``, ``10^9``, ``2^62``.

    >>> _number_text(1.0), _number_text(0.05), _number_text(10**9), _number_text(2**62), _number_text(3600)
    ('1', '0.05', '10^9', '2^62', '3600')
    """
    if value != int(value):
        return f"{value:.15g}"
    whole = int(value)
    if whole >= 10**6 and str(whole).rstrip("0") == "1":
        return f"10^{len(str(whole)) - 1}"
    if whole >= 2**20 and whole & (whole - 1) == 0:
        return f"2^{whole.bit_length() - 1}"
    return str(whole)


@dataclass(frozen=True)
class Number:
    """An argparse type: a finite number of ``kind`` from ``low`` to ``high`` (above ``low`` when
    ``above``). ``unit`` names what it counts in messages and help."""

    kind: type[int] | type[float]
    low: float
    high: float
    above: bool = False
    unit: str = ""
    name: str = ""  # the range in words, instead of its bounds ("a signed 64-bit integer")

    @property
    def __name__(self) -> str:  # argparse names a type by it in some messages
        return self.kind.__name__

    @property
    def range_text(self) -> str:
        """The range as it reads in a message: ``a number of seconds from 0 to 3600``."""
        if self.name:
            return self.name
        noun = "an integer" if self.kind is int else "a number"
        noun += f" of {self.unit}" if self.unit else ""
        low, high = _number_text(self.low), _number_text(self.high)
        if self.above:
            return f"{noun} above {low}, at most {high}"
        return f"{noun} from {low} to {high}"

    def __call__(self, text: str) -> Any:
        if len(text.strip()) > MAX_DIGITS or not text.isascii():  # int() also reads other scripts' digits
            _refuse(self.range_text, text)
        try:
            value = self.kind(text)
        except ValueError:
            _refuse(self.range_text, text)
        if not math.isfinite(value) or value > self.high or value < self.low:
            _refuse(self.range_text, text)
        if self.above and value <= self.low:
            _refuse(self.range_text, text)
        return value


def seconds(low: float = 0.0, high: float = MAX_SECONDS, *, above: float | None = None) -> Number:
    """Seconds from ``low`` (or strictly above ``above``) to ``high``, as a float."""
    if above is not None:
        return Number(float, above, high, above=True, unit="seconds")
    return Number(float, low, high, unit="seconds")


def count(low: int = 1, high: int = MAX_COUNT, unit: str = "") -> Number:
    """An integer from ``low`` (default 1: zero means nothing) to ``high``."""
    return Number(int, low, high, unit=unit)


def milliseconds(
    low: float = 0.0, high: float = MAX_SECONDS * 1000.0, *, above: float | None = None
) -> Number:
    """Milliseconds from ``low`` (or strictly above ``above``) to ``high``, as a float."""
    if above is not None:
        return Number(float, above, high, above=True, unit="milliseconds")
    return Number(float, low, high, unit="milliseconds")


GRACE: Final = seconds(high=3600)
"""How late an answer may still count: 0 to an hour."""

CONCURRENCY: Final = count(1, 1024)
"""Games or jobs at once, worker processes."""

NODES: Final = count(1, 2**62)
"""A node budget of a search."""

GAMES: Final = count(0, 10**12)
"""A number of games, wins, losses or draws (0 allowed)."""

SEED: Final = Number(int, -(2**63), 2**63 - 1, name="a signed 64-bit integer")
"""A seed: any signed 64-bit integer (what SQLite stores and a Java long holds)."""

PORT: Final = Number(int, 0, 65535)
"""A TCP port, 0 to 65535."""

ROW_ID: Final = Number(int, 0, 10**30, name="an id (an integer from 0)")
"""An id of a database row: too large an id is the database's one-line "no such" answer."""


_UNITS: Final = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


@dataclass(frozen=True)
class Size:
    """An argparse type: a memory size such as ``4G``, ``512M``, ``100K`` or bytes, from ``low`` to ``high``."""

    low: int = 1
    high: int = 1 << 50
    high_text: str = ""  # the upper bound in words ("the machine's memory")

    __name__ = "size"

    @property
    def range_text(self) -> str:
        """The range as it reads in a message."""
        high = self.high_text or size_text(self.high)
        return f"a size such as 4G, 512M or 1000000, from {size_text(self.low)} to {high}"

    def __call__(self, text: str) -> int:
        raw = text.strip().upper().removesuffix("B")
        number, unit = (raw[:-1], raw[-1]) if raw and raw[-1] in _UNITS else (raw, "")
        if len(number) > MAX_DIGITS or not number.isascii():
            _refuse(self.range_text, text)
        try:
            value = float(number)
        except ValueError:
            _refuse(self.range_text, text)
        if not math.isfinite(value) or not self.low <= value * _UNITS[unit] <= self.high:
            _refuse(self.range_text, text)
        return int(value * _UNITS[unit])


def size(low: int = 1, high: int = 1 << 50, high_text: str = "") -> Size:
    """A memory size of at least ``low`` bytes."""
    return Size(low, high, high_text)


def physical_memory() -> int:
    """The machine's memory in bytes (1 TiB where the system does not say): no budget can exceed it."""
    try:
        return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))
    except (ValueError, OSError, AttributeError):
        return 1 << 40


class Parser(argparse.ArgumentParser):
    """The parser of every command: an option's range is in its help, and a value out of range is one
    line and exit code 1 (argparse's own usage errors keep exit code 2)."""

    def format_help(self) -> str:
        """The help, each checked option's range appended to its line (options in groups too)."""
        for action in self._actions:
            text = getattr(action.type, "range_text", None)
            if text is not None and action.help and text not in action.help:
                action.help = f"{action.help} [{text}]"
        return super().format_help()

    def error(self, message: str) -> NoReturn:
        """A value a checked type refused: :class:`OptionRangeError` (one line, exit 1 in ``main``);
        anything else: argparse's usage and exit code 2."""
        failure = sys.exc_info()[1]  # argparse calls error() while it handles the ArgumentError
        if failure is not None and isinstance(failure.__context__, OptionValueError):
            raise OptionRangeError(f"{self.prog}: error: {message}")
        super().error(message)
