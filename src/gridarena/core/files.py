"""The one reading path for files the user names: every failure becomes one line naming the file.

A case, map, replay, pattern database, database or config that cannot be read (missing, a
directory, no permission, not text, not UTF-8, corrupt gzip) raises :class:`FileReadError` with
the path and the problem, which the CLI prints as one line and exit 1. Parsers take the text from
here, so their own errors only ever concern the content.

>>> import tempfile, os
>>> folder = tempfile.mkdtemp()
>>> read_text(folder, "case")
Traceback (most recent call last):
...
gridarena.core.files.FileReadError: ...: cannot read the case: it is a directory
>>> path = os.path.join(folder, "binary")
>>> _ = open(path, "wb").write(b"\\xff\\xfe\\x00")
>>> read_text(path, "case")
Traceback (most recent call last):
...
gridarena.core.files.FileReadError: ...binary: the case is not UTF-8 text (invalid start byte at byte 0)
"""

from __future__ import annotations

import errno
import gzip
import os
import zlib
from pathlib import Path

from gridarena.core.errors import GridArenaError

GZIP_MAGIC = b"\x1f\x8b"


class FileReadError(GridArenaError, OSError):
    """A file that cannot be read as what it should be; the message starts with its path."""

    def __init__(self, path: str | os.PathLike[str], message: str) -> None:
        super().__init__(f"{os.fspath(path)}: {message}")

    def __str__(self) -> str:  # OSError would format its args as a tuple
        return str(self.args[0])


def _why(exc: OSError) -> str:
    if isinstance(exc, IsADirectoryError) or exc.errno == errno.EISDIR:
        return "it is a directory"
    if isinstance(exc, FileNotFoundError):
        return "no such file"
    if isinstance(exc, PermissionError):
        return "permission denied"
    return exc.strerror or str(exc)


def read_bytes(path: str | os.PathLike[str], what: str = "file", *, gunzip: bool = False) -> bytes:
    """The file's bytes (gunzipped when ``gunzip`` and they start with the gzip magic)."""
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise FileReadError(path, f"cannot read the {what}: {_why(exc)}") from None
    if gunzip and raw[:2] == GZIP_MAGIC:
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError, zlib.error) as exc:
            raise FileReadError(path, f"the {what} is corrupt gzip data ({exc})") from None
    return raw


def decode_text(raw: bytes, path: str | os.PathLike[str], what: str = "file") -> str:
    """``raw`` as UTF-8 text, or a :class:`FileReadError` naming the first bad byte."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FileReadError(
            path, f"the {what} is not UTF-8 text ({exc.reason} at byte {exc.start})"
        ) from None


def read_text(path: str | os.PathLike[str], what: str = "file", *, gunzip: bool = False) -> str:
    """The file as UTF-8 text (``"-"`` is not special here: the CLI reads stdin itself)."""
    return decode_text(read_bytes(path, what, gunzip=gunzip), path, what)
