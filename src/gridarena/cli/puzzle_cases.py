"""Which files ``gridarena puzzle solve`` reads: each name given, a folder standing for its case files."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Final

from gridarena.core.errors import GridArenaError
from gridarena.core.files import read_text
from gridarena.games.slidingpuzzle.formats import parse_case

#: A folder's file larger than this is not read as a case (a homework case takes about 250 bytes).
MAX_CASE_BYTES: Final = 1 << 20


class PuzzleUsageError(GridArenaError, ValueError):
    """A command-line value that does not fit the puzzle."""


def case_paths(names: Sequence[str], *, blank_first: bool = False) -> tuple[list[str], list[str]]:
    """The cases to solve, and a line for each entry of a folder that was skipped.

    Each name is a case, except a folder, which stands for its case files in name order: its ``*.in``
    files (the homework's cases; one that does not read is a failed case), and any other file that
    reads as a case. Other files (a README, answers) and subfolders are skipped and named; hidden
    entries are ignored.
    """
    paths: list[str] = []
    skipped: list[str] = []
    for name in names:
        folder = Path(name)
        if name in ("-", "") or not folder.is_dir():  # Path("") is the current folder: not asked for
            paths.append(name)
            continue
        found, passed = [], []
        for entry in sorted(folder.iterdir()):
            if entry.name.startswith("."):
                continue
            why = "a folder" if entry.is_dir() else not_a_case(entry, blank_first)
            if why:
                skipped.append(f"{entry}: skipped, {why}")
                passed.append(entry.name)
            else:
                found.append(str(entry))
        if not found:
            named = ", ".join(passed[:5]) + (", ..." if len(passed) > 5 else "")
            raise PuzzleUsageError(
                f"{name}: a folder without case files" + (f" (skipped {named})" * bool(passed))
            )
        paths.extend(found)
    return paths, skipped


def not_a_case(entry: Path, blank_first: bool) -> str:
    """Why a file of a folder is not a case ("" if it is one, or if it is named ``*.in``)."""
    if not entry.is_file():  # a pipe or a device would block or never end
        return "not a regular file"
    if entry.suffix == ".in":
        return ""
    try:
        size = entry.stat().st_size
    except OSError as exc:
        return f"cannot be read ({exc.strerror})"
    if size > MAX_CASE_BYTES:
        return f"not a case ({size:,} bytes, more than any case)"
    try:
        parse_case(read_text(entry, "case"), entry.name, blank_first=blank_first)
    except GridArenaError as exc:
        return f"not a case ({exc})"
    return ""
