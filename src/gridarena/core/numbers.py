"""Numbers and JSON from outside (files, programs, sockets): bounded before they are converted.

Python refuses ``int()`` of more than 4,300 digits with a plain ``ValueError`` (and ``json.loads``
passes it on), which a parser that expects only its own errors would let through as a crash. Every
integer gridarena reads from text goes through :func:`checked_int`, which refuses a long one with
:class:`NumberTooLongError` before converting it. :func:`load_json` turns the same refusal of
``json``'s reader (which checks the length before converting) into that error, refuses
``NaN`` and the infinities (which are not JSON) unless asked to keep them as text, and refuses
values nested deeper than a limit (walked without recursion), so what it returns can be printed,
compared and written again without a ``RecursionError``.

>>> load_json('{"seed": 7, "score": 0.5}')
{'seed': 7, 'score': 0.5}
>>> load_json("9" * 5000)
Traceback (most recent call last):
...
gridarena.core.numbers.NumberTooLongError: a number of more than 4300 digits
>>> load_json('[NaN]')
Traceback (most recent call last):
...
gridarena.core.numbers.JsonLimitError: NaN is not a JSON number
>>> load_json('{"score": -Infinity}', constants=True)
{'score': '-Infinity'}
>>> load_json("[" * 40 + "]" * 40)
Traceback (most recent call last):
...
gridarena.core.numbers.JsonLimitError: nested 33 levels deep (at most 32)
"""

from __future__ import annotations

import json
from typing import Any, Final

from gridarena.core.errors import GridArenaError

MAX_DIGITS: Final = 4300
"""Digits of the longest integer read from text: Python's own default limit for ``int()``."""

MAX_DEPTH: Final = 32
"""Levels of nesting :func:`load_json` accepts by default (a replay's records nest four)."""


class JsonLimitError(GridArenaError, ValueError):
    """JSON beyond what gridarena reads: a number too long, NaN or an infinity, nesting too deep."""


class NumberTooLongError(JsonLimitError):
    """An integer longer than :data:`MAX_DIGITS` digits."""


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
    raise JsonLimitError(f"{name} is not a JSON number")


def depth_problem(value: object, max_depth: int = MAX_DEPTH) -> str | None:
    """Whether ``value`` nests deeper than ``max_depth`` levels (a scalar is level 0)."""
    stack: list[tuple[dict[Any, Any] | list[Any], int]] = []
    if isinstance(value, dict | list):
        stack.append((value, 0))
    while stack:
        item, depth = stack.pop()
        if depth >= max_depth:
            return f"nested {depth + 1} levels deep (at most {max_depth})"
        for child in item.values() if isinstance(item, dict) else item:
            if isinstance(child, dict | list):
                stack.append((child, depth + 1))
    return None


def load_json(text: str | bytes, *, max_depth: int = MAX_DEPTH, constants: bool = False) -> Any:
    """``json.loads`` with integers of more than :data:`MAX_DIGITS` digits, ``NaN`` and the infinities
    (kept as their text with ``constants``) and nesting deeper than ``max_depth`` refused.

    Raises :class:`JsonLimitError`, ``json.JSONDecodeError`` (both ``ValueError``) or
    ``RecursionError`` for JSON nested past Python's own reader.
    """
    try:
        value = json.loads(text, parse_constant=str if constants else _refuse_constant)
    except json.JSONDecodeError:
        raise
    except JsonLimitError:
        raise
    except ValueError:  # json's reader checks an integer's length before int() and refuses it so
        raise NumberTooLongError(f"a number of more than {MAX_DIGITS} digits") from None
    problem = depth_problem(value, max_depth)
    if problem is not None:
        raise JsonLimitError(problem)
    return value
