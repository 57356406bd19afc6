"""Ice and Fire as text: the commands of a turn and the referee's line parser.

One action of the game is a whole turn, a :data:`Turn` (a tuple of commands). Its text twin is the
CodinGame output line, the commands joined by ``;``. :func:`parse_line` reads such a line exactly as
the Java referee does:

* the line is split as Java's ``String.split(";")`` does (trailing empty pieces dropped), and each
  piece is trimmed as Java's ``String.trim()`` does (every character <= U+0020 at both ends);
* a piece is ``WAIT``, ``MSG text``, ``MOVE id x y``, ``TRAIN level x y`` or ``BUILD MINE|TOWER x y``
  by the referee's regular expressions, which differ between the rule versions (``[0-9]*`` in the
  contest, ``[0-9]+`` for MOVE/TRAIN in the multiplayer version);
* anything else is **unrecognised**: :class:`~gridarena.core.errors.ActionParseError`, which the game
  loop turns into a ``protocol`` forfeit (the player loses at once, as on CodinGame, and nothing of
  the line is played);
* a recognised piece whose number is empty or overflows a Java ``int`` is *ignored* in the contest
  version (an :class:`Ignored` command that the referee skips with its message) and *loses* in the
  multiplayer version.

The checks that need the position (cell on the map, unit alive and owned, level range) are the
referee's, in ``referee.py``: they skip a command, they never lose. The other text of the game is
here too: the rule versions and leagues, and the CodinGame input a bot reads (the statement's "Game Input":
:func:`spots_text` / :func:`parse_spots` once, :class:`TurnInput` every turn). This module imports
nothing of the package.

>>> parse_line("MOVE 1 2 3; TRAIN 3 3 3; BUILD MINE 0 1; MSG Team Fire")
(Move(id=1, x=2, y=3), Train(level=3, x=3, y=3), Build(kind='MINE', x=0, y=1), Msg(text='Team Fire'))
>>> turn_to_text(parse_line("WAIT;"))
'WAIT'
>>> parse_line(";")
()
>>> parse_line("TRAIN  1 1")
(Ignored(text='TRAIN  1 1', reason='level is empty'),)
>>> parse_line("TRAIN  1 1", "multi")
Traceback (most recent call last):
...
gridarena.core.errors.ActionParseError: iceandfire: unrecognised command 'TRAIN  1 1' (piece 1 of the line)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal, NamedTuple, TypeAlias

from gridarena.core.errors import ActionParseError, SpecError

RULES: Final = ("contest", "multi")
"""The two rule versions: the contest referee (commit 5ffea6d) and the multiplayer game (e97a9d8)."""

Rules: TypeAlias = Literal["contest", "multi"]

LEAGUES: Final = ("wood3", "wood2", "wood1", "bronze")
"""League names, in CodinGame's level order 1-4 (Silver, Gold and Legend play Bronze's rules)."""

JAVA_INT_MAX: Final = 2**31 - 1
"""A number field must parse as a Java ``int``: at most this value."""

MSG_SHOWN: Final = 20
"""The viewer shows at most 20 characters of a message; a longer one is cut to 17 and ``...``."""

#: Characters Java's regex ``.`` does not match (its line terminators, without UNIX_LINES or DOTALL).
JAVA_LINE_TERMINATORS: Final = "\n\r\u0085\u2028\u2029"


class _Command:
    """Equality by type and fields. Plain NamedTuples compare as tuples, so Move(1, 2, 3) would
    equal Train(1, 2, 3) and Wait() would equal (); every command class puts this first in its bases."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and tuple(self) == tuple(other)  # type: ignore[arg-type]

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((type(self).__name__, *self))  # type: ignore[misc]


class _MoveFields(NamedTuple):
    id: int
    x: int
    y: int


class Move(_Command, _MoveFields):
    """``MOVE id x y``: unit ``id`` takes one step towards (x, y)."""

    __slots__ = ()

    def to_text(self) -> str:
        """The command as the bot prints it.

        >>> Move(1, 2, 3).to_text(), Move(1, 2, 3) == Train(1, 2, 3)
        ('MOVE 1 2 3', False)
        """
        return f"MOVE {self.id} {self.x} {self.y}"


class _TrainFields(NamedTuple):
    level: int
    x: int
    y: int


class Train(_Command, _TrainFields):
    """``TRAIN level x y``: a new unit of ``level`` on (x, y)."""

    __slots__ = ()

    def to_text(self) -> str:
        """``TRAIN 1 0 1``."""
        return f"TRAIN {self.level} {self.x} {self.y}"


class _BuildFields(NamedTuple):
    kind: str
    x: int
    y: int


class Build(_Command, _BuildFields):
    """``BUILD MINE x y`` or ``BUILD TOWER x y``; ``kind`` is ``"MINE"`` or ``"TOWER"``."""

    __slots__ = ()

    def to_text(self) -> str:
        """``BUILD TOWER 2 1``."""
        return f"BUILD {self.kind} {self.x} {self.y}"


class _WaitFields(NamedTuple):
    pass


class Wait(_Command, _WaitFields):
    """``WAIT``: nothing."""

    __slots__ = ()

    def to_text(self) -> str:
        """``WAIT``."""
        return "WAIT"


class _MsgFields(NamedTuple):
    text: str


class Msg(_Command, _MsgFields):
    """``MSG text``: the viewer's message for this turn (the last MSG of a line wins)."""

    __slots__ = ()

    def to_text(self) -> str:
        """``MSG Team Fire``."""
        return f"MSG {self.text}"


class _IgnoredFields(NamedTuple):
    text: str
    reason: str


class Ignored(_Command, _IgnoredFields):
    """A recognised piece that the contest referee skips at parse time: a number field is empty or
    overflows a Java ``int`` (``TRAIN  1 1``). It keeps the piece's text (its text twin) and the reason.
    Only :func:`parse_line` makes these; in the multiplayer version such a piece loses instead."""

    __slots__ = ()

    def to_text(self) -> str:
        """The piece as it was read."""
        return self.text


Command: TypeAlias = Move | Train | Build | Wait | Msg | Ignored
"""One piece of a turn."""

Turn: TypeAlias = tuple[Command, ...]
"""One action of the game: a player's whole turn, its commands in the order they are played."""

COMMAND_TYPES: Final = (Move, Train, Build, Wait, Msg, Ignored)

_MOVE_TRAIN: Final = {
    "contest": re.compile(r"(MOVE|TRAIN) ([0-9]*) ([0-9]*) ([0-9]*)"),
    "multi": re.compile(r"(MOVE|TRAIN) ([0-9]+) ([0-9]+) ([0-9]+)"),
}
_BUILD: Final = re.compile(r"BUILD (TOWER|MINE) ([0-9]*) ([0-9]*)")
_MSG: Final = re.compile(f"MSG ([^{JAVA_LINE_TERMINATORS}]*)")
_FIELDS: Final = {"MOVE": ("id", "x", "y"), "TRAIN": ("level", "x", "y"), "BUILD": ("x", "y")}


def check_rules(rules: str) -> Rules:
    """``rules`` if it names a rule version, else :class:`SpecError`."""
    if rules not in RULES:
        raise SpecError(f"iceandfire: rules must be one of {RULES}, got {rules!r}")
    return rules  # type: ignore[return-value]


def check_league(league: str) -> str:
    """``league`` if it is one of :data:`LEAGUES`, else :class:`SpecError`."""
    if league not in LEAGUES:
        raise SpecError(f"iceandfire: league must be one of {LEAGUES}, got {league!r}")
    return league


def java_split(line: str) -> list[str]:
    """``line.split(";")`` as Java does it: trailing empty pieces dropped, a line without ``;`` whole.

    >>> java_split("A;B;;"), java_split(""), java_split(";"), java_split("A;;B"), java_split("A; ;")
    (['A', 'B'], [''], [], ['A', '', 'B'], ['A', ' '])
    """
    if ";" not in line:
        return [line]
    pieces = line.split(";")
    while pieces and pieces[-1] == "":
        pieces.pop()
    return pieces


def java_trim(text: str) -> str:
    """Java's ``String.trim()``: removes every character <= U+0020 at both ends, and nothing else.

    >>> java_trim("\\x01 WAIT\\t\\r"), java_trim("\\u00a0WAIT")
    ('WAIT', '\\xa0WAIT')
    """
    start, end = 0, len(text)
    while start < end and text[start] <= " ":
        start += 1
    while end > start and text[end - 1] <= " ":
        end -= 1
    return text[start:end]


def viewer_message(text: str) -> str:
    """What the viewer shows of a MSG: at most 20 characters, a longer text cut to 17 and ``...``.

    >>> viewer_message("Team Fire"), viewer_message("abcdefghijklmnopqrstuvwxyz")
    ('Team Fire', 'abcdefghijklmnopq...')
    """
    return text if len(text) <= MSG_SHOWN else text[: MSG_SHOWN - 3] + "..."


def _unrecognised(piece: str, index: int, why: str = "") -> ActionParseError:
    detail = f": {why}" if why else ""
    return ActionParseError(f"iceandfire: unrecognised command {piece!r} (piece {index} of the line){detail}")


def _numbers(
    piece: str, index: int, names: tuple[str, ...], texts: tuple[str, ...], rules: str
) -> tuple[int, ...] | Ignored:
    """The fields as ints, or the contest's :class:`Ignored`; the multiplayer version loses instead."""
    values = []
    for name, text in zip(names, texts, strict=True):
        problem = f"{name} is empty" if text == "" else None
        # Digits only (the patterns say so); the length first: int() refuses 4,301 digits with a ValueError.
        significant = text.lstrip("0") or "0"
        if problem is None and (len(significant) > len(str(JAVA_INT_MAX)) or int(significant) > JAVA_INT_MAX):
            problem = f"{name} {text[:20]}{'...' if len(text) > 20 else ''} is not a Java int"
        if problem is not None:
            if rules == "multi":
                raise _unrecognised(piece, index, problem)
            return Ignored(piece, problem)
        values.append(int(significant))
    return tuple(values)


def parse_piece(piece: str, index: int = 1, rules: str = "contest") -> Command:
    """One trimmed piece as a command (``index`` counts pieces from 1, for the message).

    >>> parse_piece("BUILD TOWER 004 5")
    Build(kind='TOWER', x=4, y=5)
    >>> parse_piece("MOVE 1 2 99999999999")
    Ignored(text='MOVE 1 2 99999999999', reason='y 99999999999 is not a Java int')
    """
    if piece == "WAIT":
        return Wait()
    if match := _MSG.fullmatch(piece):
        return Msg(match[1])
    if match := _MOVE_TRAIN[rules].fullmatch(piece):
        word = match[1]
        numbers = _numbers(piece, index, _FIELDS[word], (match[2], match[3], match[4]), rules)
        if isinstance(numbers, Ignored):
            return numbers
        return Move(*numbers) if word == "MOVE" else Train(*numbers)
    if match := _BUILD.fullmatch(piece):
        numbers = _numbers(piece, index, _FIELDS["BUILD"], (match[2], match[3]), rules)
        if isinstance(numbers, Ignored):
            return numbers
        return Build(match[1], *numbers)
    raise _unrecognised(piece, index)


def parse_line(line: str, rules: str = "contest") -> Turn:
    """A player's output line as a turn; :class:`ActionParseError` if it loses.

    >>> parse_line("WAIT;MSG  two  spaces ")
    (Wait(), Msg(text=' two  spaces'))
    >>> parse_line("")
    Traceback (most recent call last):
    ...
    gridarena.core.errors.ActionParseError: iceandfire: unrecognised command '' (piece 1 of the line)
    """
    check_rules(rules)
    return tuple(parse_piece(java_trim(p), i, rules) for i, p in enumerate(java_split(line), 1))


def turn_to_text(turn: Turn) -> str:
    """The output line of a turn: the commands joined by ``;``; the empty turn is ``;`` (a valid nothing).

    >>> turn_to_text((Move(1, 2, 3), Wait())), turn_to_text(())
    ('MOVE 1 2 3;WAIT', ';')
    """
    if not turn:
        return ";"
    return ";".join(command.to_text() for command in turn)


def check_turn(turn: object, rules: str = "contest") -> Turn:
    """``turn`` as a :data:`Turn` if a bot could have printed it, else :class:`ActionParseError`.

    A turn handed over as an object (not text) loses exactly where its text would: a command that is
    not one of ours, a negative number or a bad building kind (no regex matches a sign), a message that
    would be cut by ``;`` or a line end or that is blank (``MSG `` trims to ``MSG``), and, in the multiplayer version, a number beyond a Java int.
    A number beyond a Java int in the contest is the referee's to skip.

    >>> check_turn([Wait()])
    (Wait(),)
    >>> check_turn((Move(-1, 2, 3),))
    Traceback (most recent call last):
    ...
    gridarena.core.errors.ActionParseError: iceandfire: unrecognised command 'MOVE -1 2 3' (piece 1 of the line): a number field is negative
    """
    if not isinstance(turn, tuple | list):
        raise ActionParseError(f"iceandfire: a turn is a tuple of commands, got {type(turn).__name__}")
    for index, command in enumerate(turn, 1):
        if not isinstance(command, COMMAND_TYPES):
            raise ActionParseError(f"iceandfire: {command!r} (piece {index} of the turn) is not a command")
        if isinstance(command, Move | Train | Build):
            numbers = command[1:] if isinstance(command, Build) else command
            if not all(isinstance(n, int) and not isinstance(n, bool) for n in numbers):
                raise ActionParseError(
                    f"iceandfire: {command!r} (piece {index} of the turn) has a non-integer field"
                )
            if any(n < 0 for n in numbers):
                raise _unrecognised(command.to_text(), index, "a number field is negative")
            if rules == "multi" and any(n > JAVA_INT_MAX for n in numbers):
                raise _unrecognised(command.to_text(), index, "a number is not a Java int")
            if isinstance(command, Build) and command.kind not in ("MINE", "TOWER"):
                raise _unrecognised(command.to_text(), index, "a building is MINE or TOWER")
        elif isinstance(command, Msg):
            if not isinstance(command.text, str) or any(
                c in command.text for c in ";" + JAVA_LINE_TERMINATORS
            ):
                raise _unrecognised(f"MSG {command.text}", index, "a message cannot hold ';' or a line end")
            if java_trim(command.text) == "":
                raise _unrecognised(
                    f"MSG {command.text}", index, "'MSG ' trims to 'MSG', which is no command"
                )
        elif isinstance(command, Ignored) and rules == "multi":
            raise _unrecognised(command.text, index, command.reason)
    return tuple(turn)


# -- the CodinGame input (the statement's "Game Input") ------------------------------------------


def spots_text(spots: Sequence[tuple[int, int]]) -> str:
    """The initial input: the number of mine spots, then each as ``x y`` (in input order).

    >>> spots_text([(1, 0), (10, 11)])
    '2\\n1 0\\n10 11\\n'
    """
    return "\n".join([str(len(spots)), *(f"{x} {y}" for x, y in spots)]) + "\n"


def parse_spots(lines: Sequence[str]) -> list[tuple[int, int]]:
    """Inverse of :func:`spots_text`, from its lines: the mine spots as (x, y).

    >>> parse_spots(["2", "1 0", "10 11"])
    [(1, 0), (10, 11)]
    """
    count = int(lines[0])
    return [(int(x), int(y)) for x, y in (line.split() for line in lines[1 : 1 + count])]


#: Lines of a turn's input before the building count: gold, income, the opponent's, 12 map rows.
TURN_LINES_FIXED: Final = 4 + 12


@dataclass(slots=True)
class TurnInput:
    """One turn's input as a bot reads it (owner 0 is the reader): its gold and income, the opponent's,
    the 12 map rows (``O``/``o`` own active/inactive, ``X``/``x`` the opponent's, ``.``, ``#``), the
    buildings (owner, type, x, y) and the units (owner, id, level, x, y), each list sorted."""

    gold: int
    income: int
    opp_gold: int
    opp_income: int
    rows: list[str]
    buildings: list[tuple[int, int, int, int]]
    units: list[tuple[int, int, int, int, int]]

    @classmethod
    def parse(cls, lines: Sequence[str]) -> TurnInput:
        """Read a turn from its lines (the first line is the gold); inverse of :meth:`to_text`."""
        gold, income, opp_gold, opp_income = (int(lines[k]) for k in range(4))
        rows = [lines[4 + y].rstrip("\n") for y in range(12)]
        k = TURN_LINES_FIXED
        nb = int(lines[k])
        buildings = [_ints(lines[k + 1 + j], 4) for j in range(nb)]
        k += 1 + nb
        nu = int(lines[k])
        units = [_ints(lines[k + 1 + j], 5) for j in range(nu)]
        return cls(gold, income, opp_gold, opp_income, rows, buildings, units)  # type: ignore[arg-type]

    def to_text(self) -> str:
        """The input text, one value or row or entity a line."""
        lines = [str(v) for v in (self.gold, self.income, self.opp_gold, self.opp_income)]
        lines += self.rows
        lines.append(str(len(self.buildings)))
        lines += [" ".join(map(str, b)) for b in self.buildings]
        lines.append(str(len(self.units)))
        lines += [" ".join(map(str, u)) for u in self.units]
        return "\n".join(lines) + "\n"

    def my_hq(self) -> tuple[int, int]:
        """(x, y) of the reader's HQ."""
        for owner, kind, x, y in self.buildings:
            if owner == 0 and kind == 0:
                return x, y
        raise ValueError("the input lists no HQ of the player")


def _ints(line: str, count: int) -> tuple[int, ...]:
    values = tuple(int(v) for v in line.split())
    if len(values) != count:
        raise ValueError(f"expected {count} numbers, got {line!r}")
    return values
