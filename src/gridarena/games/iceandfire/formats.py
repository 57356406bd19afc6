"""Ice and Fire as text: the commands of a turn and the referee's line parser (spec section 12).

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
referee's, in ``rules.py``: they skip a command, they never lose. States as JSON are here too
(:func:`state_to_json`, :func:`state_from_json`).

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
from collections.abc import Mapping
from typing import TYPE_CHECKING, Final, Literal, NamedTuple, TypeAlias

from gridarena.core.errors import ActionParseError, SpecError, StateFormatError
from gridarena.core.types import JSON

if TYPE_CHECKING:
    from gridarena.games.iceandfire.rules import IceAndFire, IceAndFireState

RULES: Final = ("contest", "multi")
"""The two rule versions: the contest referee (commit 5ffea6d) and the multiplayer game (e97a9d8)."""

Rules: TypeAlias = Literal["contest", "multi"]

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
    """``MOVE id x y``: unit ``id`` takes one step towards (x, y) (spec section 7)."""

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
    """``TRAIN level x y``: a new unit of ``level`` on (x, y) (spec section 6)."""

    __slots__ = ()

    def to_text(self) -> str:
        """``TRAIN 1 0 1``."""
        return f"TRAIN {self.level} {self.x} {self.y}"


class _BuildFields(NamedTuple):
    kind: str
    x: int
    y: int


class Build(_Command, _BuildFields):
    """``BUILD MINE x y`` or ``BUILD TOWER x y`` (spec section 8); ``kind`` is ``"MINE"`` or ``"TOWER"``."""

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
        if problem is None and int(text) > JAVA_INT_MAX:
            problem = f"{name} {text} is not a Java int"
        if problem is not None:
            if rules == "multi":
                raise _unrecognised(piece, index, problem)
            return Ignored(piece, problem)
        values.append(int(text))
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
    """A player's output line as a turn (spec section 12); :class:`ActionParseError` if it loses.

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


# -- states as JSON ---------------------------------------------------------------------------
# The rules and render modules import this one, so their names are imported inside the functions.


def state_to_json(state: IceAndFireState) -> dict[str, JSON]:
    """The state as a JSON object: ``cells`` rows use ``#`` void, ``.`` neutral, ``R``/``r`` red
    active/inactive, ``B``/``b`` blue."""
    from gridarena.games.iceandfire.render import owner_rows

    result: JSON = None
    if state.result is not None:
        r = state.result
        result = {
            "returns": list(r.returns),
            "termination": r.termination,
            "reason": r.reason,
            "forfeit_player": r.forfeit_player,
            "scores": list(r.scores),
        }
    return {
        "rules": state.rules,
        "league": state.league,
        "seed": state.seed,
        "map": list(state.board.rows),
        "spots": [list(s) for s in state.board.spots],
        "cells": owner_rows(state),
        "units": [[u.id, u.owner, u.level, u.x, u.y, u.can_act] for u in state.units],
        "buildings": [[b.owner, b.kind, b.x, b.y] for b in state.buildings],
        "gold": list(state.gold),
        "income": list(state.income),
        "turn": state.turn,
        "player": state.player,
        "next_id": state.next_id,
        "messages": list(state.messages),
        "last_turn": None if state.last_player is None else turn_to_text(state.last_turn),
        "last_player": state.last_player,
        "log": list(state.log),
        "result": result,
    }


def _field(data: Mapping[str, JSON], name: str, kind: type | tuple[type, ...]) -> JSON:
    if name not in data:
        raise StateFormatError(f"iceandfire state: missing field {name!r}")
    value = data[name]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise StateFormatError(f"iceandfire state: field {name!r} has a bad value {value!r}")
    return value


def _pair(data: Mapping[str, JSON], name: str) -> tuple[int, int]:
    value = _field(data, name, list)
    if len(value) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise StateFormatError(f"iceandfire state: field {name!r} must be two integers, got {value!r}")
    return value[0], value[1]


def state_from_json(game: IceAndFire, data: Mapping[str, JSON]) -> IceAndFireState:
    """Inverse of :func:`state_to_json`; StateFormatError naming the bad field."""
    from gridarena.games.iceandfire.mapgen import SIZE
    from gridarena.games.iceandfire.rules import (
        BLUE,
        CELLS,
        HQ,
        NEUTRAL,
        RED,
        VOID,
        Building,
        IceAndFireState,
        Result,
        Unit,
        make_board,
        xy,
    )

    try:
        rules, league = _field(data, "rules", str), _field(data, "league", str)
        if (rules, league) != (game.rules, game.league):
            raise StateFormatError(
                f"iceandfire state: {rules}/{league} is not this game's {game.rules}/{game.league}"
            )
        seed = data.get("seed")
        if seed is not None and not isinstance(seed, int):
            raise StateFormatError(f"iceandfire state: field 'seed' has a bad value {seed!r}")
        rows = tuple(_field(data, "map", list))
        spots = tuple((int(s[0]), int(s[1])) for s in _field(data, "spots", list))
        board = make_board(rows, spots)
        cells = _field(data, "cells", list)
        if len(cells) != SIZE or any(not isinstance(r, str) or len(r) != SIZE for r in cells):
            raise StateFormatError("iceandfire state: field 'cells' must be 12 rows of 12 characters")
        owner, active = bytearray(CELLS), bytearray(CELLS)
        for c, ch in enumerate("".join(cells)):
            if ch not in "#.RrBb" or (ch == "#") != bool(board.void[c]):
                raise StateFormatError(
                    f"iceandfire state: field 'cells' has {ch!r} at {xy(c)} on a map cell {rows[c // SIZE][c % SIZE]!r}"
                )
            owner[c] = {"#": VOID, ".": NEUTRAL, "R": RED, "r": RED, "B": BLUE, "b": BLUE}[ch]
            active[c] = ch in "RB"
        units = tuple(
            Unit(int(i), int(o), int(lv), int(x), int(y), bool(a))
            for i, o, lv, x, y, a in _field(data, "units", list)
        )
        buildings = tuple(
            Building(int(o), int(k), int(x), int(y)) for o, k, x, y in _field(data, "buildings", list)
        )
        things: tuple[Unit | Building, ...] = (*units, *buildings)
        for thing in things:
            on_board = 0 <= thing.x < SIZE and 0 <= thing.y < SIZE
            captured_hq = (
                isinstance(thing, Building) and thing.kind == HQ
            )  # its cell changes owner at the end
            if not on_board or (owner[thing.cell] != thing.owner and not captured_hq):
                raise StateFormatError(f"iceandfire state: {thing!r} does not stand on a cell of its owner")
        raw_result = data.get("result")
        result = None
        if raw_result is not None:
            result = Result(
                (float(raw_result["returns"][0]), float(raw_result["returns"][1])),
                str(raw_result["termination"]),
                str(raw_result["reason"]),
                raw_result["forfeit_player"],
                (int(raw_result["scores"][0]), int(raw_result["scores"][1])),
            )
        last_text = data.get("last_turn")
        messages = _field(data, "messages", list)
        return IceAndFireState(
            rules=rules,
            league=league,
            board=board,
            seed=seed,
            owner=bytes(owner),
            active=bytes(active),
            units=units,
            buildings=buildings,
            gold=_pair(data, "gold"),
            income=_pair(data, "income"),
            turn=_field(data, "turn", int),
            player=_field(data, "player", int),
            next_id=_field(data, "next_id", int),
            messages=(str(messages[0]), str(messages[1])),
            last_turn=() if last_text is None else parse_line(str(last_text), rules),
            last_player=data.get("last_player"),
            log=tuple(str(line) for line in _field(data, "log", list)),
            result=result,
        )
    except (TypeError, ValueError, KeyError, IndexError) as exc:
        if isinstance(exc, StateFormatError):
            raise
        raise StateFormatError(f"iceandfire state: {exc}") from exc
