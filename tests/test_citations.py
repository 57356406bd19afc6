"""The docs and the sources cite the original rules by name, never the project's private spec files.

A clone of the repository has no ``../shared/specs``: "spec §4.2", "(spec 13)", "specs/reversixt.md" or
"spec section 6" tell its reader nothing. The originals are cited instead (CodinGame's statement of
A Code of Ice and Fire and its referee's ``Referee.java``, AIND's ``isolation.py``, the reference server
``server_nogl``, ...), or the rule is stated where it is used. This test keeps such citations from
coming back in docs/*.md, README.md and every text file under src/, examples/ and benchmarks/.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
TEXT = {".py", ".md", ".js", ".html", ".css", ".txt", ".toml", ".json", ".cfg"}

CITATION = re.compile(
    r"""
      §\s*\d                                            # "§4.2", "spec §11"
    | \bspecs?(?:'s)?\s+(?:sections?\s+)?\d             # "spec 13", "spec 9.5", "spec section 6", "Spec 5:"
    | \bspecs?(?:'s)?\s+(?:sections?\s+)?(?-i:[AB])(?:\.\d|\b)  # "spec B.3", "spec A.9", "spec B"
    | \bspec,\s+section                                 # "(spec, section 7)"
    | \bspec's\s+(?:section|worked\s+example|test\s+vectors?|design\s+anchors|pseudocode|step)
    | \bas\s+(?:the\s+)?spec\s+(?:says|describes)       # "as the spec says"
    | \bspecs/                                          # "specs/reversixt.md"
    | shared/specs                                      # "../shared/specs/isolation.md"
    | \bdata\s+README\s+(?:section\s+)?\d               # "data README 3.1"
    | \(\s*O\d{1,2}\s*\)|\bopen\s+points?\s+O\d         # the spec's open points: "(O15)", "open points O5"
    | (?-i:\bV[1-5]\b)                                  # the spec's validity rules: "V1-V5", "(V4)"
    | \bsections?\s+\d{1,2}(?:\.\d+)?\b                 # "(section 12)", "sections 15-17"
    | (?-i:\bRule\s+\d\.\d)|\brule\s+\d\.\d             # "rule 1.4 of the spec"
    """,
    re.X | re.I,
)


def cited_files() -> list[Path]:
    files = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    for folder in ("src", "examples", "benchmarks"):
        files += [
            path
            for path in sorted((ROOT / folder).rglob("*"))
            if path.suffix in TEXT and path.is_file() and not any(p.endswith(".egg-info") for p in path.parts)
        ]
    return files


def citations(text: str) -> list[tuple[int, str]]:
    """``(line number, what matched)`` for every citation of the private specs in ``text``."""
    return [(n, m.group(0)) for n, line in enumerate(text.splitlines(), 1) if (m := CITATION.search(line))]


@pytest.mark.parametrize(
    "text",
    [
        "the single step of spec 3.2 as a table",
        "(spec 13)",
        "Spec 5: an owned cell holding a TOWER",
        "depths from the spec's §11 note",
        "spec §4.2",
        "the specification is `specs/reversixt.md` of the shared folder",
        "The spec is `../shared/specs/iceandfire.md`; section numbers below",
        "## Bad input: ignored or lost (section 12)",
        "Spec section 12's parser",
        "the results sheet (spec, section 7)",
        "on 2002-2004 hardware (spec B.3)",
        "explored states (spec A.9)",
        "the spec's worked example",
        "level 1 kills level 1, as the spec says",
        "(data README 3.1)",
        "counts moves from 1 (O15)",
        "the open points O5 and O13",
        "V1-V5 with the reference server's wording",
        "The checks (rule 1.4 of the spec)",
    ],
)
def test_a_private_citation_is_found(text: str) -> None:
    assert citations(text), text


@pytest.mark.parametrize(
    "text",
    [
        "a bot spec, e.g. best",
        "name= when the spec gives one, else the spec when it is short",
        'the statement\'s "Game Input" (Referee.java)',
        "a spec a request may give",
        "[RxC:] v0 v1 ... vN-1",
        "v1 = 2 * self.next_double() - 1",
        "issue 16's section below",
    ],
)
def test_ordinary_words_are_not_citations(text: str) -> None:
    assert not citations(text), text


def test_the_files_cite_no_private_spec() -> None:
    files = cited_files()
    assert len(files) > 100, "the scan found too few files to mean anything"
    found = [
        f"{path.relative_to(ROOT)}:{line}: {match!r}"
        for path in files
        for line, match in citations(path.read_text(encoding="utf-8", errors="replace"))
    ]
    listing = "\n".join(found)
    assert not found, f"citations of the private specs (cite the original document instead):\n{listing}"
