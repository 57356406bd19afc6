"""Where the ReversiXT reference data lives (below the ``shared_data`` fixture) and what the README says of it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

REJECTED = {"evilMap01.map", "scope.map", "B2.map", "delim.map", "dup.map", "p1.map", "p9.map"}
"""Maps of the data folder that the reference server refuses (README 1.1 and 2)."""


def folder(shared_data: Path) -> Path:
    return shared_data / "reversixt"


def all_maps(shared_data: Path) -> list[Path]:
    """Every ``.map`` file of the data folder, sorted."""
    return sorted(folder(shared_data).rglob("*.map"))


def loadable_maps(shared_data: Path) -> list[Path]:
    """The maps the reference server loads."""
    return [p for p in all_maps(shared_data) if p.name not in REJECTED]


def map_for_trace(shared_data: Path, trace: Path) -> Path:
    """The map of a golden trace: the file of the same name (README section 3)."""
    name = trace.name.split(".")[0] + ".map"
    found = sorted(folder(shared_data).rglob(name))
    assert found, f"no map {name} for {trace.name}"
    return found[0]


def golden_traces(shared_data: Path) -> list[Path]:
    return sorted((folder(shared_data) / "golden").glob("*.server.log.gz"))


@dataclass(frozen=True)
class CatalogueRow:
    """One row of README section 1.1."""

    path: str
    players: int
    rows: int
    cols: int
    overrides: int
    bombs: int
    radius: int | None
    transitions: int
    specials: dict[str, int]
    rejected: bool


def catalogue(shared_data: Path) -> list[CatalogueRow]:
    """The map catalogue table of the data README, parsed."""
    text = (folder(shared_data) / "README.md").read_text()
    section = text.split("### 1.1 Map catalogue", 1)[1].split("Remarks:", 1)[0]
    rows = []
    for line in section.splitlines():
        cols = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cols) != 7 or not cols[0].startswith("`"):
            continue
        path = cols[0].strip("`")
        r, c = (int(v) for v in cols[2].split("×"))
        bm = re.fullmatch(r"(\d+)(?: \(r=(\d+)\))?", cols[4])
        assert bm, line
        specials = {"c": 0, "i": 0, "b": 0, "x": 0}
        rejected = "rejected" in cols[6]
        if not rejected:
            for item in cols[6].split():
                specials[item[0]] = int(item[1:])
        rows.append(
            CatalogueRow(
                path,
                int(cols[1]),
                r,
                c,
                int(cols[3]),
                int(bm.group(1)),
                None if bm.group(2) is None else int(bm.group(2)),
                int(cols[5].split()[0]),
                specials,
                rejected,
            )
        )
    return rows
