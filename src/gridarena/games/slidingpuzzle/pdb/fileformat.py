"""The checked on-disk format of a pattern database, and memory-mapped loading.

A file is the 8-byte magic, a little-endian 32-bit header length, a JSON header, padding to a
64-byte boundary, then the table. Loading refuses, with the file name and the reason, a file with the
wrong magic, a truncated or overlong header or table, a CRC-32 mismatch, or a goal or pattern other
than the one asked for. Files are written to a temporary name and renamed, so an interrupted write
never leaves a half file under the real name.
"""

from __future__ import annotations

import contextlib
import json
import os
import zlib
from collections.abc import Sequence
from math import comb, perm
from pathlib import Path
from typing import Any, Final

import numpy as np

from gridarena.core.errors import GridArenaError
from gridarena.core.files import FileReadError, check_replaceable, open_regular, write_failure
from gridarena.games.slidingpuzzle.board import Board
from gridarena.games.slidingpuzzle.formats import PdbError
from gridarena.games.slidingpuzzle.pdb.table import PatternDatabase

MAGIC: Final = b"GAPDB\r\n\x1a"  # the PNG trick: text-mode copies and truncations show at once
FORMAT_VERSION: Final = 1
ALIGN: Final = 64


class PdbFileError(PdbError):
    """A PDB file that is not ours, truncated, corrupted, or built for another board or pattern."""

    def __init__(self, path: str | os.PathLike[str], message: str) -> None:
        super().__init__(f"{path}: {message}")


def save_pdb(pdb: PatternDatabase, path: str | os.PathLike[str]) -> Path:
    """Write ``pdb`` atomically (a temporary file, then a rename) with its header and checksum."""
    path = Path(path)
    check_replaceable(path, "pattern database")  # a configuration may name /dev/zero as its output
    path.parent.mkdir(parents=True, exist_ok=True)
    data = np.ascontiguousarray(pdb.table)
    header = {
        "format_version": FORMAT_VERSION,
        "rows": pdb.goal.rows,
        "cols": pdb.goal.cols,
        "goal": list(pdb.goal.cells),
        "pattern": list(pdb.pattern),
        "storage": pdb.storage,
        "entries": pdb.entries,
        "data_bytes": int(data.nbytes),
        "crc32": zlib.crc32(data.data),
        **{
            k: v
            for k, v in pdb.header.items()
            if k in ("max_value", "states", "unreachable", "build_seconds")
        },
    }
    text = json.dumps(header, sort_keys=True).encode()
    prefix = len(MAGIC) + 4 + len(text)
    pad = -prefix % ALIGN
    temporary = path.with_name(path.name + f".tmp{os.getpid()}")
    try:
        with open(temporary, "wb") as out:
            out.write(MAGIC + len(text).to_bytes(4, "little") + text + b"\n" * pad)
            out.write(data.data)
        os.replace(temporary, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise write_failure(path, "pattern database", exc) from None
    return path


MAX_HEADER: Final = 64 * 1024
"""Bytes of a file's JSON header (ours are a few hundred)."""


def read_header(path: str | os.PathLike[str]) -> tuple[dict[str, Any], int]:
    """The JSON header of a PDB file and the offset of its data; refuses files that are not ours.

    The file must be a regular one (not a FIFO or a device) within the size of a pattern database
    (:data:`gridarena.core.files.LIMITS`): the one reading path checks it before anything is read.
    """
    try:
        source = open_regular(path, "pattern database")
    except FileReadError as error:  # the callers expect this module's error (a PDB that cannot be used)
        raise PdbFileError(path, str(error).removeprefix(f"{os.fspath(path)}: ")) from None
    with source as f:
        try:
            head = f.read(len(MAGIC) + 4) or b""
            if len(head) < len(MAGIC) + 4 or head[: len(MAGIC)] != MAGIC:
                raise PdbFileError(path, "not a gridarena PDB file (bad magic number)")
            size = int.from_bytes(head[len(MAGIC) :], "little")
            if size > MAX_HEADER:
                raise PdbFileError(path, f"a header of {size} bytes, more than {MAX_HEADER}: not ours")
            text = f.read(size) or b""
        except OSError as error:
            raise PdbFileError(path, f"cannot read: {error.strerror or error}") from error
    if len(text) != size:
        raise PdbFileError(path, "truncated inside the header")
    try:
        header = json.loads(text)
    except (UnicodeDecodeError, ValueError, RecursionError) as error:  # ValueError: a number too long
        raise PdbFileError(path, f"corrupted header: {error}") from error
    if not isinstance(header, dict):
        raise PdbFileError(path, "corrupted header: not a JSON object")
    prefix = len(MAGIC) + 4 + size
    return header, prefix + (-prefix % ALIGN)


_REQUIRED: Final = (
    "format_version",
    "rows",
    "cols",
    "goal",
    "pattern",
    "storage",
    "entries",
    "data_bytes",
    "crc32",
)


def load_pdb(
    path: str | os.PathLike[str],
    *,
    goal: Board | None = None,
    pattern: Sequence[int] | None = None,
    verify: bool = True,
) -> PatternDatabase:
    """Memory-map a PDB file; refuse it if truncated, corrupted (``verify``: the CRC-32) or mismatched.

    ``goal`` and ``pattern``, when given, must equal the file's; the message names the field.
    """
    header, offset = read_header(path)
    missing = [k for k in _REQUIRED if k not in header]
    if missing:
        raise PdbFileError(path, f"header lacks the fields {missing}")
    _check_types(path, header)
    if header["format_version"] != FORMAT_VERSION:
        raise PdbFileError(
            path, f"format version {header['format_version']}, this gridarena reads {FORMAT_VERSION}"
        )
    try:
        file_goal = Board(int(header["rows"]), int(header["cols"]), tuple(int(v) for v in header["goal"]))
    except (GridArenaError, TypeError, ValueError) as error:
        raise PdbFileError(path, f"header field 'goal': {error}") from error
    _expect(path, "goal", list(file_goal.cells), None if goal is None else list(goal.cells))
    _expect(
        path,
        "rows x cols",
        (file_goal.rows, file_goal.cols),
        None if goal is None else (goal.rows, goal.cols),
    )
    _expect(path, "pattern", list(header["pattern"]), None if pattern is None else list(pattern))
    storage, data_bytes = header["storage"], int(header["data_bytes"])
    size, k = len(file_goal.cells) - len(file_goal.walls), len(header["pattern"])
    if k + len(file_goal.blanks) > size:
        raise PdbFileError(path, f"header field 'pattern': {k} tiles do not fit {size} cells and the blanks")
    entries = perm(size, k)
    states = entries * comb(size - k, len(file_goal.blanks))
    expected = {"u8": entries, "u4": (entries + 1) // 2, "r4": entries + (states + 1) // 2}.get(str(storage))
    if expected is None or header["entries"] != entries or data_bytes != expected:
        raise PdbFileError(
            path, f"header fields 'storage'/'entries'/'data_bytes' disagree ({storage}, {entries})"
        )
    available = os.path.getsize(path) - offset
    if available != data_bytes:
        kind = "truncated" if available < data_bytes else "has trailing bytes"
        raise PdbFileError(
            path, f"{kind}: expected {data_bytes} data bytes after the header, found {available}"
        )
    table = np.memmap(path, dtype=np.uint8, mode="r", offset=offset, shape=(data_bytes,))
    if verify and zlib.crc32(table.data) != header["crc32"]:
        raise PdbFileError(path, "checksum mismatch: the data is corrupted; rebuild the database")
    return PatternDatabase(file_goal, tuple(header["pattern"]), str(storage), table, Path(path), header)


_INTEGERS: Final = ("format_version", "rows", "cols", "entries", "data_bytes", "crc32")
_CELL_LISTS: Final = ("goal", "pattern")
_MAX_CELLS: Final = 1024


def _is_int(value: object, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _check_types(path: str | os.PathLike[str], header: dict[str, Any]) -> None:
    """Each required header field has its type and a sane range, so the checks after it cannot fail."""
    for key in _INTEGERS:
        if not _is_int(header[key], 0, 2**64 - 1):
            raise PdbFileError(path, f"header field {key!r}: not an integer from 0 to 2^64 - 1")
    for key in _CELL_LISTS:
        value = header[key]
        if not (
            isinstance(value, list)
            and len(value) <= _MAX_CELLS
            and all(_is_int(v, -1, _MAX_CELLS) for v in value)
        ):
            raise PdbFileError(path, f"header field {key!r}: not a list of at most {_MAX_CELLS} cell values")
    if not isinstance(header["storage"], str):
        raise PdbFileError(path, "header field 'storage': not text")


def _expect(path: str | os.PathLike[str], name: str, found: object, wanted: object) -> None:
    if wanted is not None and found != wanted:
        raise PdbFileError(path, f"built for {name} {found}, but {wanted} was asked for")
