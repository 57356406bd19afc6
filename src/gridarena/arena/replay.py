"""Replays: one JSON format for every game, written line by line while the game runs.

A replay is JSON Lines: a header object, one object per ply, a result object. Every line is
flushed when written, so a crash leaves a readable prefix (a torn last line is dropped with a
warning). :func:`compact` turns a finished file into one document ``{"header", "turns",
"result"}``, gzipped when the name ends in ``.gz``, written under a temporary name and renamed.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import math
import os
import time
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Final

from gridarena import __version__
from gridarena.core.errors import GridArenaError, ReplayFormatError
from gridarena.core.files import read_text, write_failure
from gridarena.core.numbers import JsonLimitError, load_json
from gridarena.core.types import JSON, Game, GameState, Outcome

if TYPE_CHECKING:
    from gridarena.core.play import GameRecord, Turn

FORMAT, VERSION = "gridarena-replay", 1
#: One encoder for every line: ``json.dumps`` with non-default separators builds a new one per call.
#: ``NaN`` and the infinities are not JSON, and the reader refuses them: a record that holds one (a
#: bot's ``info``) is written with the number as its text instead (:func:`_finite`).
_COMPACT = json.JSONEncoder(separators=(",", ":"), allow_nan=False)


def _finite(value: Any) -> Any:
    """``value`` with every float that is not finite replaced by its JSON name as text (``"NaN"``)."""
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if value != value else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(item) for item in value]
    return value


@dataclass(slots=True)
class Replay:
    """A replay in memory: header, per-ply records and the result (None for a cut-off game)."""

    header: dict[str, JSON]
    turns: list[dict[str, JSON]] = field(default_factory=list)
    result: dict[str, JSON] | None = None

    def to_json(self) -> dict[str, JSON]:
        """The compact one-document form."""
        return {"header": self.header, "turns": self.turns, "result": self.result}


def make_header(
    game: str,
    options: Mapping[str, JSON],
    seed: int | None,
    players: Sequence[str],
    initial_state: str,
    **extra: JSON,
) -> dict[str, JSON]:
    """The header record: game, options, seed, players, versions, start time and the initial state."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": game,
        "options": dict(options),
        "seed": seed,
        "players": [{"seat": seat, "name": name} for seat, name in enumerate(players)],
        "gridarena": __version__,
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "initial_state": initial_state,
        **extra,
    }


def _write_all(fd: int, data: bytes) -> None:
    """``write(2)`` until every byte is out (a regular file takes all at once; this is for the rare rest)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


class ReplayWriter:
    """Appends replay records to a JSON Lines file, flushing each one; with no path, to memory only.

    A replay kept in memory (a Ray worker's, which travels back inside the result) is read with
    :meth:`document`; there is no file for a killed game to leave behind.
    """

    def __init__(self, path: str | os.PathLike[str] | None, header: dict[str, JSON]) -> None:
        self.path = None if path is None else Path(path)
        self._fd: int | None = None
        if self.path is not None:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                # A raw descriptor: each line is one write(2) straight to the file (no buffer to flush),
                # which is all a killed game's prefix needs; a game's lines cost microseconds each.
                self._fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            except OSError as exc:  # a folder, no such place, no permission: one line
                raise write_failure(self.path, "replay", exc) from None
        self._open = True
        self._lines: list[str] = []  # what was written, so compaction need not read the file back
        self._write(header)

    def _write(self, record: Mapping[str, JSON]) -> None:
        if not self._open:
            raise ValueError(f"{self.path or 'replay'}: the replay is closed")
        try:
            line = _COMPACT.encode(record)
        except ValueError:  # a float that is not finite somewhere in the record
            line = _COMPACT.encode(_finite(record))
        self._lines.append(line)
        if self._fd is not None:
            try:
                _write_all(self._fd, (line + "\n").encode())
            except OSError as exc:  # a full disk (or /dev/full): one line naming the replay
                raise write_failure(self.path or "replay", "replay", exc) from None

    def document(self) -> bytes:
        """The compact one-document form of what was written, as :func:`compact` would make it.

        Built from the lines already encoded: ``json.dumps`` of a dict is the concatenation of its
        members' encodings, so this is byte-identical to encoding :meth:`Replay.to_json` again.
        """
        header, *turns = self._lines
        result = "null"
        if turns and turns[-1].startswith('{"result":'):
            result = turns.pop()[len('{"result":') : -1]
        return f'{{"header":{header},"turns":[{",".join(turns)}],"result":{result}}}'.encode()

    def turn(self, record: Mapping[str, JSON]) -> None:
        """Record one ply."""
        self._write(record)

    def result(self, outcome: Outcome, plies: int, seconds: float, **extra: JSON) -> None:
        """Record the end of the game."""
        self._write(
            {"result": {**outcome.to_json(), "plies": plies, "duration_s": round(seconds, 3), **extra}}
        )

    def close(self) -> None:
        """Close the file (what was written stays readable)."""
        self._open = False
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> ReplayWriter:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


TOO_DEEP: Final = "JSON nested too deeply (a replay nests a few levels)"
_NUMBER: Final = (int, float)
_OPTIONAL_TEXT: Final = (str, type(None))
#: Each record's fields that readers use: the JSON types each may have, and whether it must be there.
_HEADER_FIELDS: Final[dict[str, tuple[tuple[type, ...], bool]]] = {
    "seed": ((int, type(None)), False),
    "players": ((list,), False),
    "initial_state": (_OPTIONAL_TEXT, False),
    "initial_json": ((dict, type(None)), False),
    "time_control": (_OPTIONAL_TEXT, False),
}
_TURN_FIELDS: Final[dict[str, tuple[tuple[type, ...], bool]]] = {
    "ply": ((int,), True),
    "player": ((int,), True),
    "action": ((str, int), True),
    "wall_ms": ((*_NUMBER, type(None)), False),
    "cpu_ms": ((*_NUMBER, type(None)), False),
    "left_ms": ((*_NUMBER, type(None)), False),
    "info": ((dict, type(None)), False),
    "forfeits": ((list, type(None)), False),
    "state": (_OPTIONAL_TEXT, False),
}
_RESULT_FIELDS: Final[dict[str, tuple[tuple[type, ...], bool]]] = {
    "returns": ((list,), True),
    "ranks": ((list, type(None)), False),
    "termination": (_OPTIONAL_TEXT, False),
    "reason": (_OPTIONAL_TEXT, False),
    "forfeit_player": ((int, type(None)), False),
    "plies": ((int, type(None)), False),
    "duration_s": ((*_NUMBER, type(None)), False),
}
_TYPE_NAMES: Final = {
    int: "an integer",
    float: "a number",
    str: "text",
    list: "a list",
    dict: "an object",
    type(None): "null",
}


def _short(value: object) -> str:
    """``repr(value)``, cut to 40 characters."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _json_type(value: object) -> str:
    if isinstance(value, bool):
        return "true or false"
    return _TYPE_NAMES.get(type(value), type(value).__name__)


def _fields_problem(
    record: Mapping[str, Any], fields: Mapping[str, tuple[tuple[type, ...], bool]]
) -> str | None:
    """Why ``record`` does not fit ``fields`` (the first field that is missing or of a wrong type)."""
    for name, (kinds, required) in fields.items():
        if name not in record:
            if required:
                return f"no {name!r}"
            continue
        value = record[name]
        if isinstance(value, bool) or not isinstance(value, kinds):
            wanted = " or ".join(
                dict.fromkeys(_TYPE_NAMES[k] for k in kinds if k is not float or int not in kinds)
            )
            wanted = wanted.replace("an integer or a number", "a number") if float in kinds else wanted
            return f"{name!r} must be {wanted}, not {_json_type(value)}"
    return None


def _header_problem(header: Mapping[str, Any]) -> str | None:
    problem = _fields_problem(header, _HEADER_FIELDS)
    if problem is not None:
        return f"the header: {problem}"
    for index, player in enumerate(header.get("players") or []):
        if not isinstance(player, dict):
            return f"the header: player {index} must be an object with 'seat' and 'name'"
        why = _fields_problem(player, {"seat": ((int,), True), "name": ((str,), True)})
        if why is not None:
            return f"the header: player {index}: {why}"
    return None


def _turn_problem(turn: Any, index: int) -> str | None:
    if not isinstance(turn, dict):
        return f"turn {index} must be an object with 'ply' and 'action'"
    problem = _fields_problem(turn, _TURN_FIELDS)
    return None if problem is None else f"turn {index} (ply {_short(turn.get('ply'))}): {problem}"


def _result_problem(result: Any) -> str | None:
    if result is None:
        return None
    if not isinstance(result, dict):
        return "the result must be an object"
    problem = _fields_problem(result, _RESULT_FIELDS)
    if problem is None and not all(
        isinstance(x, _NUMBER) and not isinstance(x, bool) for x in result["returns"]
    ):
        problem = "'returns' must be a list of numbers"
    return None if problem is None else f"the result: {problem}"


def _check_header(path: Path, header: Any, line: int = 1) -> dict[str, JSON]:
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ReplayFormatError(str(path), line, f'not a gridarena replay (no "format": "{FORMAT}" header)')
    if header.get("version") != VERSION:
        raise ReplayFormatError(
            str(path), line, f"replay format version {_short(header.get('version'))}, expected {VERSION}"
        )
    problem = _header_problem(header)
    if problem is not None:
        raise ReplayFormatError(str(path), line, problem)
    return header


class _InvalidJsonError(ReplayFormatError):
    """Text that is not JSON (on the last line of JSON Lines: a torn write)."""


def _parse(path: Path, text: str, line: int) -> Any:
    """One JSON value of the replay; every failure is a :class:`ReplayFormatError` naming the line."""
    try:
        value = load_json(text)
    except json.JSONDecodeError as exc:
        raise _InvalidJsonError(str(path), line + exc.lineno - 1, f"invalid JSON ({exc.msg})") from None
    except JsonLimitError as exc:  # a number too long, NaN, JSON nested deeper than a replay's records
        raise ReplayFormatError(str(path), line, str(exc)) from None
    except RecursionError:
        raise ReplayFormatError(str(path), line, TOO_DEEP) from None
    return value


def _lines(path: Path, text: str, warn: Callable[[str], None]) -> Iterator[tuple[int, dict[str, JSON]]]:
    lines = text.splitlines()
    read = 0
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = _parse(path, line, number)
        except _InvalidJsonError:
            if number == len(lines) and read:  # a game killed mid-write leaves a torn last line
                warn(f"{path}:{number}: dropped an incomplete last line")
                return
            raise  # a first line that is not JSON: not a replay at all
        read += 1
        if not isinstance(record, dict):
            raise ReplayFormatError(str(path), number, "each line must be a JSON object")
        yield number, record


def read_replay(path: str | os.PathLike[str], *, warn: Callable[[str], None] = warnings.warn) -> Replay:
    """Read a replay in either form (JSON Lines, possibly cut off, or the compact document).

    A torn last line (a game killed mid-write) is dropped and reported to ``warn``, by default as a
    Python warning. Every field that readers use is checked for its type (the header's players, each
    turn's ply, player and action, the result's returns), so any other content is one
    :class:`ReplayFormatError` naming the file, the line and the field.
    """
    path = Path(path)
    text = read_text(path, "replay", gunzip=True)
    stripped = text.lstrip()
    if stripped.startswith("{") and '"header"' in stripped[:200]:
        document = _parse(path, text, 1)
        if not isinstance(document, dict) or not isinstance(document.get("turns"), list):
            raise ReplayFormatError(str(path), 1, 'a replay document needs "header" and a list "turns"')
        header = _check_header(path, document.get("header"))
        for index, turn in enumerate(document["turns"]):
            problem = _turn_problem(turn, index)
            if problem is not None:
                raise ReplayFormatError(str(path), 1, problem)
        problem = _result_problem(document.get("result"))
        if problem is not None:
            raise ReplayFormatError(str(path), 1, problem)
        return _checked(path, Replay(header, document["turns"], document.get("result")))
    records = _lines(path, text, warn)
    first = next(records, None)
    if first is None:
        raise ReplayFormatError(str(path), 1, "empty file")
    replay = Replay(_check_header(path, first[1], first[0]))
    for number, record in records:
        if replay.result is not None:
            raise ReplayFormatError(str(path), number, "a record after the result")
        if "result" in record:
            problem = _result_problem(record["result"])
            if problem is not None:
                raise ReplayFormatError(str(path), number, problem)
            replay.result = record["result"]
        elif "ply" in record and "action" in record:
            problem = _turn_problem(record, len(replay.turns))
            if problem is not None:
                raise ReplayFormatError(str(path), number, problem)
            replay.turns.append(record)
        else:
            raise ReplayFormatError(
                str(path), number, "expected a turn (with 'ply' and 'action') or a result"
            )
    return _checked(path, replay)


def _checked(path: Path, replay: Replay) -> Replay:
    """``replay`` once its header names the game (checked after the lines, so a broken line is named first)."""
    if not isinstance(replay.header.get("game"), str) or not isinstance(
        replay.header.get("options", {}), dict
    ):
        raise ReplayFormatError(str(path), 1, 'the header needs "game" (a spec) and "options" (an object)')
    return replay


def compact(path: str | os.PathLike[str], target: str | os.PathLike[str]) -> str:
    """Write ``path`` as one JSON document at ``target`` (gzipped for ``.gz``); return its SHA-256."""
    return write_document(json.dumps(read_replay(path).to_json(), separators=(",", ":")).encode(), target)


def gzip_document(data: bytes) -> bytes:
    """A compact replay gzipped at level 6 (zlib's default: within a few per cent of level 9's size on
    replays, at a third of the time), with no timestamp, so equal games give equal bytes."""
    return gzip.compress(data, compresslevel=6, mtime=0)


def write_document(
    data: bytes, target: str | os.PathLike[str], *, durable: bool = True, packed: bool = False
) -> str:
    """Write a compact replay at ``target`` under a temporary name, then rename it; return its SHA-256.

    ``.gz`` targets are gzipped (:func:`gzip_document`) unless ``packed`` says ``data`` already is. Only
    a ``durable`` write syncs the file to disk before the rename; otherwise the rename alone keeps the
    file whole (old or new, never torn).
    """
    target = Path(target)
    if target.suffix == ".gz" and not packed:
        data = gzip_document(data)
    temporary = target.with_name(target.name + ".tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        _write_all(fd, data)
        if durable:
            os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(temporary, target)
    return hashlib.sha256(data).hexdigest()


def replay_game(header: Mapping[str, JSON]) -> Game[Any]:
    """The game a replay was played in, built from the registry with its options."""
    from gridarena.core.registry import make

    options = header.get("options") or {}
    return make(str(header["game"]), **(dict(options) if isinstance(options, Mapping) else {}))


def replay_start(game: Game[Any], header: Mapping[str, JSON]) -> GameState[Any]:
    """The replay's first position: its ``initial_json`` (an opening's position) or the seed's initial state."""
    initial = header.get("initial_json")
    seed = header.get("seed")
    state: GameState[Any] = (
        game.state_from_json(initial)
        if isinstance(initial, Mapping)
        else game.new_initial_state(seed if isinstance(seed, int) else None)
    )
    return state


def replay_turn(state: GameState[Any], turn: Mapping[str, JSON]) -> tuple[GameState[Any], Any]:
    """The position after one stored ply, and its action: the ply's forfeits first (seats that left a game
    that went on, :attr:`gridarena.core.play.Turn.forfeits`), then its action, checked.

    Raises a :class:`~gridarena.core.errors.GridArenaError` saying what is wrong with the record.
    """
    forfeits = turn.get("forfeits") or []
    seats = len(state.returns())
    if not isinstance(forfeits, list):
        raise GridArenaError(f"'forfeits' must be a list of [seat, termination, reason], not {forfeits!r}")
    for entry in forfeits:
        if not (
            isinstance(entry, list)
            and len(entry) == 3
            and isinstance(entry[0], int)
            and 0 <= entry[0] < seats
            and all(isinstance(text, str) for text in entry[1:])
        ):
            raise GridArenaError(
                f"'forfeits' entry {entry!r}: expected [seat 0..{seats - 1}, termination, reason]"
            )
        state = state.forfeit(entry[0], entry[1], entry[2])
    action = state.string_to_action(str(turn["action"]))
    return state.apply_action(action), action


@dataclass(slots=True)
class Positions:
    """A replay's positions rebuilt with the engine: ``states[n]`` is the position after ``n`` plies, for
    every ply the engine could follow (all of them unless :attr:`problem` says why not), and
    ``actions[n]`` the action of ply ``n``. ``game`` is None when the engine cannot even start it."""

    game: Game[Any] | None
    states: list[GameState[Any]]
    actions: list[Any]
    problem: str | None


def replay_positions(replay: Replay, game: Game[Any] | None = None) -> Positions:
    """Replay the stored actions with the engine, as far as it agrees with the stored positions.

    ``game`` is the replay's game when the caller built it (the web viewer, through the registry's
    request-safe constructor); by default it is built from the header with :func:`replay_game`.
    """
    try:
        game = replay_game(replay.header) if game is None else game
        state = replay_start(game, replay.header)
    except GridArenaError as exc:
        return Positions(None, [], [], f"the engine cannot rebuild this game ({exc})")
    states: list[GameState[Any]] = [state]
    actions: list[Any] = []
    stored = replay.header.get("initial_state")
    if stored is not None and stored != state.to_text():
        return Positions(game, [], [], "the initial state differs from the engine's; showing stored text")
    for turn in replay.turns:
        try:
            state, action = replay_turn(state, turn)
        except GridArenaError as exc:
            problem = f"ply {turn.get('ply')}: the engine refuses {turn.get('action')!r} ({exc})"
            return Positions(game, states, actions, problem + "; later plies show stored text")
        if turn.get("state") is not None and turn["state"] != state.to_text():
            problem = f"ply {turn.get('ply')}: the stored state differs from the engine's; later plies show stored text"
            return Positions(game, states, actions, problem)
        states.append(state)
        actions.append(action)
    return Positions(game, states, actions, None)


def format_replay(replay: Replay) -> str:
    """The game move by move as text: header, each ply with its board, then the result."""
    header = replay.header
    players = ", ".join(f"{p['seat']}: {p['name']}" for p in header.get("players", []))
    lines = [
        f"{header['game']} {json.dumps(header.get('options', {}))} seed={header.get('seed')}",
        f"players: {players}",
        "",
        str(header.get("initial_state", "")),
    ]
    for turn in replay.turns:
        timing = f" ({turn['wall_ms']:.1f} ms)" if isinstance(turn.get("wall_ms"), int | float) else ""
        info = turn.get("info") or {}
        extra = " " + " ".join(f"{k}={v}" for k, v in info.items()) if info else ""
        lines += ["", f"ply {turn['ply']}: player {turn['player']} plays {turn['action']}{timing}{extra}"]
        if turn.get("state") is not None:
            lines.append(str(turn["state"]))
    result = replay.result
    if result is None:
        lines += ["", "(no result: the game was cut off)"]
    else:
        reason = f" ({result.get('reason')})" if result.get("reason") else ""
        lines += ["", f"result: returns {result['returns']}, {result.get('termination', 'normal')}{reason}"]
    return "\n".join(lines)


class ReplayRecorder:
    """A :class:`gridarena.core.play.Recorder` that writes the replay while the game runs (``path`` None: in memory)."""

    def __init__(
        self,
        path: str | os.PathLike[str] | None,
        game: Game[Any],
        names: Sequence[str],
        seed: int,
        initial_state: GameState[Any],
        **extra: JSON,
    ) -> None:
        # The initial state as JSON too: a game that starts from an opening (not the seed's initial state)
        # can then be rebuilt ply by ply by a viewer that draws it.
        extra = {"initial_json": initial_state.to_json(), **extra}
        header = make_header(game.name, game.params, seed, names, initial_state.to_text(), **extra)
        self.writer = ReplayWriter(path, header)

    def turn(self, turn: Turn, state: GameState[Any]) -> None:
        """Write one ply with the state after it."""
        self.writer.turn(turn.to_json(state.to_text()))

    def result(self, record: GameRecord) -> None:
        """Write the result, with the final state's own figures (``info``: scores, turns), and close the file."""
        info = record.final_state.result_info()
        self.writer.result(record.outcome, record.plies, record.seconds, **({"info": info} if info else {}))
        self.writer.close()
