"""Numbers from outside (files, programs, sockets): their length is checked before they are converted.

Python refuses ``int()`` of more than 4,300 digits with a plain ``ValueError`` (and ``json.loads``
passes it on), which a parser that expects only its own errors would let through as a crash. Every
integer gridarena reads from text goes through :func:`checked_int`, which refuses a long one with
:class:`NumberTooLongError` before converting it; :func:`load_json` reads JSON that way and also
refuses ``NaN`` and the infinities, which are not JSON.

>>> load_json('{"seed": 7, "score": 0.5}')
{'seed': 7, 'score': 0.5}
>>> load_json("9" * 5000)
Traceback (most recent call last):
...
gridarena.core.numbers.NumberTooLongError: a number of 5000 digits (at most 4300)
>>> load_json('[NaN]')
Traceback (most recent call last):
...
gridarena.core.numbers.NumberTooLongError: NaN is not a JSON number
"""

from __future__ import annotations

import json
from typing import Any, Final

from gridarena.core.errors import GridArenaError

MAX_DIGITS: Final = 4300
"""Digits of the longest integer read from text: Python's own default limit for ``int()``."""


class NumberTooLongError(GridArenaError, ValueError):
    """An integer longer than :data:`MAX_DIGITS` digits, or a JSON constant that is not a number."""


def checked_int(text: str) -> int:
    """``int(text)`` once its length is known to be at most :data:`MAX_DIGITS` digits.

    >>> checked_int("-12"), checked_int("007")
    (-12, 7)
    """
    digits = len(text.strip().lstrip("+-"))
    if digits > MAX_DIGITS:
        raise NumberTooLongError(f"a number of {digits} digits (at most {MAX_DIGITS})")
    return int(text)


def _refuse_constant(name: str) -> float:
    raise NumberTooLongError(f"{name} is not a JSON number")


def load_json(text: str | bytes) -> Any:
    """``json.loads`` with every integer's length checked first and ``NaN``/``Infinity`` refused.

    Raises :class:`NumberTooLongError`, ``json.JSONDecodeError`` (both ``ValueError``) or
    ``RecursionError`` for JSON nested past the reader.
    """
    return json.loads(text, parse_int=checked_int, parse_constant=_refuse_constant)
