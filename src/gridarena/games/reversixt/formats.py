"""ReversiXT maps as text: the shared data model, the tolerant parser and the canonical writer.

The reference server (server_nogl, SS2009-svn) reads a map as a stream of whitespace-separated
tokens: six header integers, then ``height * width`` cell tokens, then groups of seven
tokens ``x1 y1 d1 <-> x2 y2 d2`` until the end. Line breaks mean nothing, so this parser does the
same and remembers each token's line and column only to say where a bad one is. It rejects exactly
what the reference server rejects (player count, size, delimiter, transition ends, duplicate
transitions), with its wording, plus gridarena's safety choices for what the reference server was
never shown (bad tokens, huge values, an endpoint used twice), every rejection as
``source:line:col: reason``.

Every module of the ReversiXT package (rules, fast kernels, protocol, server, client) shares the
:class:`ReversiMap` below and the cell codes, so a map is parsed once and passed around as bytes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, NamedTuple

from gridarena.core.errors import ActionParseError, GridArenaError
from gridarena.core.files import read_bytes

# Cell codes, one byte per cell. 1..8 is a stone of that player.
EMPTY: Final = 0
CHOICE: Final = 9
INVERSION: Final = 10
BONUS: Final = 11
EXPANSION: Final = 12
HOLE: Final = 13

SYMBOLS: Final = "012345678cibx-"
"""Map symbol of each code: ``SYMBOLS[code]``."""

CODES: Final = {s: i for i, s in enumerate(SYMBOLS)}
"""Code of each map symbol (inverse of :data:`SYMBOLS`)."""

_TO_SYMBOLS: Final = bytes.maketrans(bytes(range(len(SYMBOLS))), SYMBOLS.encode())
_TO_CODES: Final = bytes.maketrans(SYMBOLS.encode(), bytes(range(len(SYMBOLS))))
_SYMBOL_BYTES: Final = SYMBOLS.encode()


def cells_to_symbols(cells: bytes) -> str:
    """The symbols of a run of cell codes, one character each (C-speed: replays and JSON use it).

    >>> cells_to_symbols(bytes([0, 1, 9, 13]))
    '01c-'
    """
    return cells.translate(_TO_SYMBOLS).decode("ascii")


def symbols_to_cells(text: str) -> bytes:
    """Inverse of :func:`cells_to_symbols`; a ValueError names a character that is no symbol.

    >>> symbols_to_cells("01c-")
    b'\\x00\\x01\\t\\r'
    """
    unknown = set(text) - set(SYMBOLS)
    if unknown:
        raise ValueError(f"{''.join(sorted(unknown))!r} is not a cell symbol ({SYMBOLS})")
    return text.encode("ascii").translate(_TO_CODES)


# Directions 0..7 clockwise from up: 0 up, 1 up-right, 2 right, ..., 7 up-left.
DX: Final = (0, 1, 1, 1, 0, -1, -1, -1)
DY: Final = (-1, -1, 0, 1, 1, 1, 0, -1)
DIRECTION_NAMES: Final = ("up", "up-right", "right", "down-right", "down", "down-left", "left", "up-left")

MAX_PLAYERS: Final = 8
MAX_SIDE: Final = 1000
"""Height and width limit of the reference server, also the protocol's 16-bit coordinates."""
MAX_VALUE: Final = 2**31 - 1
"""The largest number gridarena reads (gridarena's choice: a value of 2^31 or more is rejected)."""

Transition = tuple[int, int, int, int, int, int]
"""``(x1, y1, d1, x2, y2, d2)``: leaving (x1, y1) in d1 arrives on (x2, y2) heading (d2 + 4) % 8."""


def opposite(d: int) -> int:
    """The direction opposite to ``d``.

    >>> opposite(0), opposite(6)
    (4, 2)
    """
    return (d + 4) % 8


def is_stone(code: int) -> bool:
    """Whether a cell code is a player's stone (1..8)."""
    return 1 <= code <= MAX_PLAYERS


class MapFormatError(GridArenaError, ValueError):
    """A map the parser refuses; the message is ``source:line:col: reason`` (1-based).

    ``line`` and ``col`` are 0 when the problem has no position (a file that cannot be read).
    """

    def __init__(self, source: str, line: int, col: int, reason: str) -> None:
        where = f"{source}:{line}:{col}" if line else source
        super().__init__(f"{where}: {reason}")
        self.source, self.line, self.col, self.reason = source, line, col, reason


@dataclass(frozen=True, slots=True)
class ReversiMap:
    """A ReversiXT map: header values, the initial board and the transitions.

    ``cells`` holds one code per field, row-major (index ``y * width + x``), holes included.
    ``name`` is for display only and does not take part in equality or hashing, so a map written
    by :func:`write_map` and parsed back equals the original.
    """

    players: int
    overrides: int
    bombs: int
    radius: int
    height: int
    width: int
    cells: bytes
    transitions: tuple[Transition, ...]
    name: str = field(default="", compare=False)

    def index(self, x: int, y: int) -> int:
        """The cell index of field (x, y)."""
        return y * self.width + x

    def xy(self, index: int) -> tuple[int, int]:
        """The field (x, y) of a cell index."""
        y, x = divmod(index, self.width)
        return x, y

    def on_board(self, x: int, y: int) -> bool:
        """Whether (x, y) is inside the rectangle and not a hole."""
        return 0 <= x < self.width and 0 <= y < self.height and self.cells[y * self.width + x] != HOLE

    def count(self, code: int) -> int:
        """How many cells of the initial board hold ``code``."""
        return self.cells.count(code)


_TOKEN = re.compile(r"[^ \t\n\r\v\f]+")
_NUMBER = re.compile(r"[0-9]+")


@dataclass(frozen=True, slots=True)
class _Token:
    text: str
    line: int
    col: int


def _tokens(text: str) -> Iterator[_Token]:
    """Whitespace-separated tokens with their 1-based line and column (any ASCII whitespace)."""
    for number, line in enumerate(text.split("\n"), start=1):
        for m in _TOKEN.finditer(line):
            yield _Token(m.group(), number, m.start() + 1)


class _Reader:
    """The token stream with the error helpers the parser needs.

    Tokens are split at C speed (``bytes.split`` splits at exactly the ASCII whitespace of
    :data:`_TOKEN`); a token's line and column are found only for an error, by scanning the text
    again. A 1000 x 1000 map (a million cell tokens) reads in a fraction of a second this way.
    """

    def __init__(self, text: str, source: str) -> None:
        self.text = text
        try:
            self.tokens, self.codec = text.encode("latin-1").split(), "latin-1"
        except UnicodeEncodeError:  # not from a file or the wire (those decode as Latin-1): never valid
            self.tokens, self.codec = [t.text.encode() for t in _tokens(text)], "utf-8"
        self.pos = 0
        self.source = source
        self.group: tuple[int, int, int] | None = (
            None  # the transition being read: first token, number, start
        )

    def token(self, index: int) -> _Token:
        """The token at ``index`` with its line and column."""
        for i, token in enumerate(_tokens(self.text)):
            if i == index:
                return token
        raise IndexError(index)

    def word(self, index: int) -> str:
        return self.tokens[index].decode(self.codec)

    def error(self, index: int | None, reason: str) -> MapFormatError:
        if index is None:
            lines = self.text.split("\n")
            return MapFormatError(self.source, len(lines), len(lines[-1]) + 1, reason)
        token = self.token(index)
        return MapFormatError(self.source, token.line, token.col, reason)

    def left(self) -> int:
        return len(self.tokens) - self.pos

    def next(self, what: str) -> int:
        if self.pos >= len(self.tokens):
            if self.group is not None:
                first, n, start = self.group
                got = self.pos - start
                raise self.error(
                    first, f"incomplete transition {n} at the end of the file ({got} of 7 tokens)"
                )
            raise self.error(None, f"unexpected end of file: expected {what}")
        self.pos += 1
        return self.pos - 1

    def number(self, what: str) -> tuple[int, int]:
        index = self.next(what)
        text = self.word(index)
        if not _NUMBER.fullmatch(text):
            raise self.error(index, f"{what}: {text[:40]!r} is not a non-negative integer")
        if len(text.lstrip("0")) > len(str(MAX_VALUE)):  # checked before int(): 5,000 digits would raise
            raise self.error(
                index, f"{what}: a number of {len(text)} digits is too large (at most {MAX_VALUE})"
            )
        value = int(text.lstrip("0") or "0")
        if value > MAX_VALUE:
            raise self.error(index, f"{what}: {text} is too large (at most {MAX_VALUE})")
        return value, index

    def cells(self, size: int, players: int) -> bytes | None:
        """The next ``size`` tokens as cell codes when every one is a valid symbol (the common case,
        at C speed); None otherwise, and the caller reads them one by one to name the bad one."""
        chunk = self.tokens[self.pos : self.pos + size]
        joined = b"".join(chunk)
        if len(chunk) != size or len(joined) != size or joined.translate(None, _SYMBOL_BYTES):
            return None
        if any(str(k).encode() in joined for k in range(players + 1, MAX_PLAYERS + 1)):
            return None
        self.pos += size
        return joined.translate(_TO_CODES)


def parse_map(text: str, source: str = "<map>", *, strict: bool = True, name: str = "") -> ReversiMap:
    """Read a map from its text, as the reference server does.

    ``strict=False`` skips the transition validity rules (ends next to the board's edge or a hole, no
    duplicate, no endpoint used twice), for boards that are not
    loadable maps but use the map format, such as the bomb vectors' ``after`` files, which still list
    transitions whose ends a bomb turned into holes. Syntax errors are errors either way.

    >>> m = parse_map("2 0 0 0 1 4  1 2 0 0")
    >>> (m.players, m.height, m.width, m.cells)
    (2, 1, 4, b'\\x01\\x02\\x00\\x00')
    >>> parse_map("9 0 0 0 1 2 1 2", "p9.map")
    Traceback (most recent call last):
    ...
    gridarena.games.reversixt.formats.MapFormatError: p9.map:1:1: invalid number of players (9; 2..8 allowed)
    """
    r = _Reader(text, source)
    players, token = r.number("number of players")
    if not 2 <= players <= MAX_PLAYERS:
        raise r.error(token, f"invalid number of players ({players}; 2..{MAX_PLAYERS} allowed)")
    overrides, _ = r.number("number of override stones")
    bombs, _ = r.number("number of bombs")
    radius, _ = r.number("bomb radius")
    height, h_token = r.number("board height")
    width, w_token = r.number("board width")
    for value, tok, what in ((height, h_token, "height"), (width, w_token, "width")):
        if value == 0:
            raise r.error(tok, f"board {what} is 0")
    if height > MAX_SIDE or width > MAX_SIDE:
        tok = h_token if height > MAX_SIDE else w_token
        raise r.error(tok, f"dimensions too large (max {MAX_SIDE}x{MAX_SIDE}; the map says {height}x{width})")
    size = height * width
    board = r.cells(size, players)
    if board is None:
        board = _slow_cells(r, size, height, width, players)
    transitions: list[Transition] = []
    owner: dict[tuple[int, int, int], int] = {}
    while r.left():
        n = len(transitions)
        first = r.pos
        r.group = (first, n, r.pos)
        x1, tx1 = r.number(f"transition {n}: x1")
        y1, ty1 = r.number(f"transition {n}: y1")
        d1, td1 = r.number(f"transition {n}: d1")
        delim = r.next("<->")
        if r.word(delim) != "<->":
            raise r.error(delim, f"invalid delimiter (transition {n}: {r.word(delim)!r} instead of '<->')")
        x2, tx2 = r.number(f"transition {n}: x2")
        y2, ty2 = r.number(f"transition {n}: y2")
        d2, td2 = r.number(f"transition {n}: d2")
        ends = ((x1, y1, d1, tx1, ty1, td1), (x2, y2, d2, tx2, ty2, td2))
        for x, y, d, tx, ty, td in ends:
            if d > 7:
                raise r.error(td, f"transition {n}: direction {d} is not 0..7")
            if x >= width or y >= height:
                raise r.error(
                    tx if x >= width else ty,
                    f"transition {n} is invalid (leading to/coming from invalid field): "
                    f"({x},{y}) is outside the {height}x{width} board",
                )
        if strict:
            for x, y, d, tx, _, _ in ends:
                reason = _endpoint_problem(board, height, width, x, y, d)
                if reason:
                    raise r.error(
                        tx, f"transition {n} is invalid (leading to/coming from invalid field): {reason}"
                    )
            a, b = (x1, y1, d1), (x2, y2, d2)
            for end in (a, b) if a != b else (a,):
                if end in owner:
                    m = owner[end]
                    old = transitions[m]
                    if {old[:3], old[3:]} == {a, b}:
                        raise r.error(first, f"transition {n} duplicates transition {m}")
                    raise r.error(first, f"transition {n}: endpoint {end} is already used by transition {m}")
                owner[end] = n
        transitions.append((x1, y1, d1, x2, y2, d2))
    return ReversiMap(players, overrides, bombs, radius, height, width, board, tuple(transitions), name)


def _slow_cells(r: _Reader, size: int, height: int, width: int, players: int) -> bytes:
    """The cells token by token, raising the error of the first bad one (see :meth:`_Reader.cells`)."""
    cells = bytearray(size)
    for i in range(size):
        if not r.left():
            raise r.error(None, f"unexpected end of file: {i} of the {height}x{width} = {size} cells")
        index = r.next("a cell")
        text = r.word(index)
        code = CODES.get(text, -1) if len(text) == 1 else -1
        if code < 0:
            y, x = divmod(i, width)
            raise r.error(
                index, f"cell ({x},{y}): {text!r} is not one of the symbols 0-8 c i b x - (one per token)"
            )
        if is_stone(code) and code > players:
            y, x = divmod(i, width)
            raise r.error(index, f"cell ({x},{y}): a stone of player {code} on a {players}-player map")
        cells[i] = code
    return bytes(cells)


def _endpoint_problem(cells: bytes, height: int, width: int, x: int, y: int, d: int) -> str:
    """Why (x, y, d) cannot be a transition endpoint, or "" when it can.

    An endpoint must be a field whose neighbour in ``d`` is off the board or a hole.
    """
    if cells[y * width + x] == HOLE:
        return f"({x},{y}) is a hole"
    nx, ny = x + DX[d], y + DY[d]
    if 0 <= nx < width and 0 <= ny < height and cells[ny * width + nx] != HOLE:
        return f"the neighbour ({nx},{ny}) of ({x},{y}) {DIRECTION_NAMES[d]} is a field"
    return ""


def read_map(path: str | Path, *, strict: bool = True) -> ReversiMap:
    """Read a map file (``.gz`` allowed); its name is the file name without ``.map``/``.gz``.

    A file that cannot be read raises :class:`~gridarena.core.files.FileReadError` (missing, a folder,
    corrupt gzip); bytes that are not ASCII end up in a token the parser rejects with its position.
    """
    p = Path(path)
    data = read_bytes(p, "map", gunzip=True)  # the project's one reading path: one line naming the file
    return parse_map(decode_map(data, str(path)), str(path), strict=strict, name=map_name(p))


def decode_map(data: bytes, source: str = "<map>") -> str:
    """The text of a map's bytes (files and the protocol's map message); never fails.

    Non-ASCII bytes are mapped one to one (Latin-1) so that they end up inside a token, which the
    parser then rejects with its line and column, instead of failing on decoding without a position.
    """
    return data.decode("latin-1")


def map_name(path: str | Path) -> str:
    """The display name of a map file: ``maps/example.map.gz`` -> ``example``."""
    name = Path(path).name
    for suffix in (".gz", ".map", ".txt"):
        name = name.removesuffix(suffix)
    return name


def write_map(m: ReversiMap) -> str:
    """The canonical text of a map: single blanks, no trailing blanks, LF, final newline.

    >>> m = parse_map("2\\n0\\n0 0\\n1 4\\n1 2 0 0  \\n")
    >>> write_map(m)
    '2\\n0\\n0 0\\n1 4\\n1 2 0 0\\n'
    >>> parse_map(write_map(m)) == m
    True
    """
    lines = [str(m.players), str(m.overrides), f"{m.bombs} {m.radius}", f"{m.height} {m.width}"]
    w = m.width
    for y in range(m.height):
        lines.append(" ".join(cells_to_symbols(m.cells[y * w : (y + 1) * w])))
    for x1, y1, d1, x2, y2, d2 in m.transitions:
        lines.append(f"{x1} {y1} {d1} <-> {x2} {y2} {d2}")
    return "\n".join(lines) + "\n"


def board_lines(board: ReversiMap, cells: bytes, marks: set[int]) -> list[str]:
    """The board in the reference log's layout: a cell's symbol, then ``'`` on a cell of ``marks`` (valid moves)."""
    w = board.width
    lines = ["    " + "".join(f"{x:>2}" for x in range(w)), "    /" + "--" * w]
    for y in range(board.height):
        row = "".join(SYMBOLS[cells[i]] + ("'" if i in marks else " ") for i in range(y * w, (y + 1) * w))
        lines.append(f"{y:>3} | {row.rstrip()}")
    return lines


LEGEND: Final = "0 empty, 1-8 stones, c choice, i inversion, b bonus, x expansion stone, - hole, ' valid move"
"""The symbols of :func:`board_lines`, as the state's text explains them."""


MAPS_DIR: Final = Path(__file__).parent / "maps"
"""The project's own maps, shipped in the package."""
DEFAULT_MAP: Final = "sampler"
"""The map of ``make("reversixt")``: small, 3 players, every special field, transitions, bombs."""
MAX_MAP_TEXT: Final = 16 * 1024 * 1024
"""The longest map text a spec may give (a 1000 x 1000 map, the largest legal one, takes about 2 MB)."""

BONUS_BOMB: Final = 20
"""Special byte of a bonus move that takes a bomb."""
BONUS_OVERRIDE: Final = 21
"""Special byte of a bonus move that takes an override stone."""


class Move(NamedTuple):
    """One move answer: field (x, y) and the special byte.

    The special byte is 1..p on a choice field (the player to swap with), 20 or 21 on a bonus field
    (bomb or override stone), else 0. Bombs (phase 2) carry 0 here: the reference server ignores
    the byte of a bomb, and :func:`wire_move` clears it.
    """

    x: int
    y: int
    special: int = 0

    def to_text(self) -> str:
        """``"3,4,0"``: x, y and the special byte, as in the reference server's log ``(x,y,c)``."""
        return f"{self.x},{self.y},{self.special}"


_MOVE_TEXT = re.compile(r"\(?\s*(\d{1,9})\s*[, ]\s*(\d{1,9})\s*(?:[, ]\s*(\d{1,9})\s*)?\)?")


def parse_move(text: str) -> Move:
    """Inverse of :meth:`Move.to_text`; also ``"3,4"`` (special 0) and ``"(3,4,20)"``.

    >>> parse_move("3,4,20"), parse_move("(7, 1)")
    (Move(x=3, y=4, special=20), Move(x=7, y=1, special=0))
    """
    m = _MOVE_TEXT.fullmatch(text.strip())
    if m is None:
        raise ActionParseError(f"reversixt: {text!r} is not a move such as '3,4' or '3,4,20' (x,y,special)")
    return Move(int(m.group(1)), int(m.group(2)), int(m.group(3) or 0))


def packaged_maps() -> list[str]:
    """The names of the maps shipped in the package, sorted.

    >>> packaged_maps()
    ['mini', 'othello8', 'sampler']
    """
    return sorted(p.stem for p in MAPS_DIR.glob("*.map"))


def resolve_map_path(spec: str) -> Path:
    """A map parameter as a file: the name of one of the project's maps (``othello8``), or a path."""
    if spec in packaged_maps():  # the packaged map, whatever the working folder holds
        return MAPS_DIR / f"{spec}.map"
    path = Path(spec)
    if path.exists() or path.suffix in (".map", ".gz", ".txt") or "/" in spec:
        return path
    return MAPS_DIR / f"{spec}.map"
