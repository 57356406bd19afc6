"""The one reading path for files the user names: bounded, regular files only, every failure one line.

Every file gridarena reads (maps, traces, replays, cases, answers, configurations, players files,
state files, policies, agent files, pattern databases, databases) comes through here. A path is
opened only if it is a regular file: a FIFO, a device, a socket or a directory is refused before
anything is read (it is opened with ``O_NONBLOCK`` and checked with ``fstat``, so a FIFO cannot hang
the open). Each kind of file has a size limit (:data:`LIMITS`); a larger file, or gzip data that
decompresses past it, is refused as it is read, so memory stays within the limit. Any failure
raises :class:`FileReadError` with the path and the problem, which the CLI prints as one line and
exit 1. Parsers take the text from here, so their own errors only ever concern the content.

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
>>> read_text("/dev/zero", "map")
Traceback (most recent call last):
...
gridarena.core.files.FileReadError: /dev/zero: cannot read the map: it is a character device, not a regular file
"""

from __future__ import annotations

import errno
import os
import stat
import zlib
from collections.abc import Mapping
from typing import IO, Final, Literal, TypeAlias

from gridarena.core.errors import GridArenaError

GZIP_MAGIC: Final = b"\x1f\x8b"

MiB: Final = 1 << 20

FileKind: TypeAlias = Literal[
    "map",
    "trace",
    "replay",
    "case",
    "answer",
    "PDB configuration",
    "players file",
    "state file",
    "policy",
    "agent file",
    "pattern database",
    "database",
]

LIMITS: Final[Mapping[FileKind, int]] = {
    "map": 64 * MiB,  # a 1000 x 1000 ReversiXT map with every transition; the client's limit too
    "trace": 256 * MiB,  # a reference server's console log (the golden ones are below 1 MiB)
    "replay": 256 * MiB,  # decompressed; a 3,000-ply 16x16 puzzle's is 3 MB
    "case": 1 * MiB,  # a sliding puzzle case: two boards of at most 16 x 16 cells
    "answer": 64 * MiB,  # a solution: at most 1,000,000 slides of a few bytes each
    "PDB configuration": 1 * MiB,
    "players file": 1 * MiB,
    "state file": 64 * MiB,  # one state as JSON: a 1000 x 1000 map's is a few MB
    "policy": 64 * MiB,  # on disk, and its arrays once decompressed (adapters/policy.py)
    "agent file": 16 * MiB,  # a Python file (AIND's game_agent.py is 20 KB)
    "pattern database": 4096 * MiB,  # memory-mapped, never read whole; see pdb/fileformat.py
    "database": 0,  # SQLite reads it itself: only checked to be a regular file
}
"""The most bytes gridarena reads of each kind of file (after decompression for gzipped ones)."""


class FileReadError(GridArenaError, OSError):
    """A file that cannot be read as what it should be; the message starts with its path."""

    def __init__(self, path: str | os.PathLike[str], message: str) -> None:
        super().__init__(f"{os.fspath(path)}: {message}")

    def __str__(self) -> str:  # OSError would format its args as a tuple
        return str(self.args[0])


class FileWriteError(GridArenaError, OSError):
    """A file that cannot be written where it was asked for; the message starts with its path."""

    def __init__(self, path: str | os.PathLike[str], message: str) -> None:
        super().__init__(f"{os.fspath(path)}: {message}")

    def __str__(self) -> str:
        return str(self.args[0])


def check_replaceable(path: str | os.PathLike[str], what: FileKind) -> None:
    """Refuse to write a new ``what`` at ``path`` if something other than a regular file (or a symbolic
    link, which a rename replaces itself) is there: writing to a temporary file and renaming it over
    ``path`` would replace a device (``/dev/zero``), a FIFO or a socket with the new file."""
    try:
        status = os.lstat(path)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise FileWriteError(path, f"cannot write the {what}: {_why(exc)}") from None
    if not (stat.S_ISREG(status.st_mode) or stat.S_ISLNK(status.st_mode)):
        why = _not_regular(status.st_mode)
        raise FileWriteError(path, f"cannot write the {what} there: {why}")


def write_failure(path: str | os.PathLike[str], what: str, exc: OSError) -> FileWriteError:
    """The one line for an output that could not be written (a full disk, a folder, no such place)."""
    return FileWriteError(path, f"cannot write the {what}: {_why(exc)}")


def write_text(path: str | os.PathLike[str], text: str, what: str) -> None:
    """Write an output file the user named; any failure is one :class:`FileWriteError` line."""
    try:
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)
    except OSError as exc:
        raise write_failure(path, what, exc) from None


def size_text(size: int) -> str:
    """A byte count as people read it.

    >>> size_text(64 * MiB), size_text(1536), size_text(100), size_text(19 << 40)
    ('64 MiB', '1.5 KiB', '100 bytes', '19 TiB')
    """
    for unit, scale in (("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", MiB), ("KiB", 1 << 10)):
        if size >= scale:
            return f"{size / scale:.4g} {unit}"
    return f"{size} bytes"


def _why(exc: OSError) -> str:
    if isinstance(exc, IsADirectoryError) or exc.errno == errno.EISDIR:
        return "it is a directory"
    if isinstance(exc, FileNotFoundError):
        return "no such file"
    if isinstance(exc, PermissionError):
        return "permission denied"
    if exc.errno == errno.ELOOP:
        return "a loop of symbolic links"
    return exc.strerror or str(exc)


_KINDS: Final = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def _not_regular(mode: int) -> str | None:
    """Why a file of ``mode`` cannot be read (None: it is a regular file)."""
    if stat.S_ISREG(mode):
        return None
    for test, name in _KINDS:
        if test(mode):
            return "it is a directory" if name == "a directory" else f"it is {name}, not a regular file"
    return "it is not a regular file"


def _fail(path: str | os.PathLike[str], what: str, why: str) -> FileReadError:
    return FileReadError(path, f"cannot read the {what}: {why}")


def check_regular(path: str | os.PathLike[str], what: FileKind) -> os.stat_result | None:
    """The status of ``path`` if it is a regular file, None if it does not exist; else FileReadError.

    For files another library opens itself (SQLite): nothing is opened here.
    """
    try:
        status = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise _fail(path, what, _why(exc)) from None
    why = _not_regular(status.st_mode)
    if why is not None:
        raise _fail(path, what, why)
    return status


def open_regular(path: str | os.PathLike[str], what: FileKind) -> IO[bytes]:
    """``path`` opened for reading in binary, checked to be a regular file within the kind's limit.

    The file is looked at before it is opened (a device is never opened) and again after (``fstat``
    of what was opened, so a file swapped in between is caught). The open itself does not block:
    ``O_NONBLOCK`` makes opening a FIFO return at once. The descriptor keeps ``O_NONBLOCK``, which a
    regular file ignores and which turns a read that would wait (``/proc/kmsg``) into an error.
    """
    status = check_regular(path, what)
    if status is None:
        raise _fail(path, what, "no such file")
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise _fail(path, what, _why(exc)) from None
    try:
        status = os.fstat(fd)
        why = _not_regular(status.st_mode)
        if why is not None:
            raise _fail(path, what, why)
        limit = LIMITS[what]
        if limit and status.st_size > limit:
            raise _too_large(path, what, f"is {size_text(status.st_size)}", limit)
        return os.fdopen(fd, "rb", buffering=0)
    except BaseException:
        os.close(fd)
        raise


def _too_large(path: str | os.PathLike[str], what: FileKind, size: str, limit: int) -> FileReadError:
    article = "an" if what[0] in "aeiou" else "a"
    return FileReadError(path, f"the {what} {size}: {article} {what} may have at most {size_text(limit)}")


def read_limited(source: IO[bytes], limit: int, path: str | os.PathLike[str], what: FileKind) -> bytes:
    """At most ``limit`` bytes of ``source`` to its end; a longer one raises :class:`FileReadError`.

    A file whose size the system reports as 0 (``/proc``) or that grows while it is read is still
    bounded: reading stops one byte past the limit.
    """
    data = bytearray()
    try:
        while len(data) <= limit:
            chunk = source.read(min(MiB, limit + 1 - len(data)))
            if chunk is None:  # a non-blocking descriptor with nothing to read yet
                raise BlockingIOError
            if not chunk:
                return bytes(data)
            data += chunk
    except BlockingIOError:
        raise _fail(path, what, "reading it would wait (not a regular file)") from None
    except OSError as exc:
        raise _fail(path, what, _why(exc)) from None
    raise _too_large(path, what, "is larger", limit)


def gunzip_limited(raw: bytes, limit: int, path: str | os.PathLike[str], what: FileKind) -> bytes:
    """Every gzip member of ``raw`` decompressed, refused as soon as the output passes ``limit`` bytes.

    Trailing zero bytes (tape padding) are allowed, as ``gzip`` allows them; other trailing bytes
    are corrupt data. A gzip bomb costs at most ``limit`` bytes of memory and the time to make them.
    """
    out = bytearray()
    rest = raw
    while rest:
        inflate = zlib.decompressobj(wbits=31)  # 31: a gzip header and trailer around deflate data
        try:
            while True:
                # A mebibyte at a time: one call for the whole limit would hold it twice.
                chunk = inflate.decompress(rest, min(MiB, limit + 1 - len(out)))
                out += chunk
                if len(out) > limit:
                    raise _too_large(path, what, "is larger once decompressed", limit)
                if inflate.eof:
                    break
                rest = inflate.unconsumed_tail  # empty while zlib still holds output of consumed input
                if not rest and not chunk:
                    raise FileReadError(path, f"the {what} is corrupt gzip data (it ends mid-stream)")
        except zlib.error as exc:
            raise FileReadError(path, f"the {what} is corrupt gzip data ({exc})") from None
        rest = inflate.unused_data
        if rest and not rest.startswith(GZIP_MAGIC):
            if rest.strip(b"\x00"):
                raise FileReadError(path, f"the {what} is corrupt gzip data (bytes after its end)")
            break
    return bytes(out)


def read_bytes(path: str | os.PathLike[str], what: FileKind, *, gunzip: bool = False) -> bytes:
    """The file's bytes, at most the kind's limit (gunzipped, within the limit, when ``gunzip`` and they
    start with the gzip magic)."""
    limit = LIMITS[what]
    with open_regular(path, what) as source:
        raw = read_limited(source, limit, path, what)
    if gunzip and raw[:2] == GZIP_MAGIC:
        return gunzip_limited(raw, limit, path, what)
    return raw


def decode_text(raw: bytes, path: str | os.PathLike[str], what: str = "file") -> str:
    """``raw`` as UTF-8 text, or a :class:`FileReadError` naming the first bad byte."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FileReadError(
            path, f"the {what} is not UTF-8 text ({exc.reason} at byte {exc.start})"
        ) from None


def read_text(path: str | os.PathLike[str], what: FileKind, *, gunzip: bool = False) -> str:
    """The file as UTF-8 text (``"-"`` is not special here: see :func:`read_stream_text` for stdin)."""
    return decode_text(read_bytes(path, what, gunzip=gunzip), path, what)


def read_stream_text(source: IO[bytes], name: str, what: FileKind) -> str:
    """A stream (stdin) as UTF-8 text, at most the kind's limit; ``name`` stands for it in messages."""
    return decode_text(read_limited(source, LIMITS[what], name, what), name, what)
