"""A map's description (the course's ``mapinfo`` tool): header, fields, transitions and reachability.

Reachability is read off the board graph: fields are nodes, and each field is joined to the fields
one ``step`` away (eight neighbours and transitions). The graph is undirected (a
transition works both ways, and so do neighbours), so it splits into connected regions. Stones only
ever spread along this graph in phase 1 (a capture run is a walk of steps from the placed field),
so a player can place stones only in regions where he already has a stone, plus (with override
stones) on expansion stones anywhere. A region without any stone can never be coloured except
through such overrides: it is "isolated". Bombs can still reach it, since any field may be bombed.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

from gridarena.core.types import JSON
from gridarena.games.reversixt.formats import (
    BONUS,
    CHOICE,
    EXPANSION,
    HOLE,
    INVERSION,
    ReversiMap,
)
from gridarena.games.reversixt.geometry import arrivals, step_array


@dataclass(frozen=True, slots=True)
class Region:
    """A connected region of fields: its size, the players with stones in it, its expansion stones."""

    size: int
    players: tuple[int, ...]
    expansions: int
    first: tuple[int, int]  # its first field in reading order, to name it


@dataclass(frozen=True, slots=True)
class MapInfo:
    """Everything ``gridarena reversixt mapinfo`` prints."""

    name: str
    players: int
    height: int
    width: int
    fields: int
    holes: int
    overrides: int
    bombs: int
    radius: int
    stones: tuple[int, ...]
    specials: dict[str, int]
    transitions: int
    self_loops: int
    turning: int
    regions: tuple[Region, ...]
    reachable: tuple[int, ...]

    @property
    def isolated(self) -> tuple[Region, ...]:
        """Regions that hold no stone."""
        return tuple(r for r in self.regions if not r.players)

    def to_json(self) -> dict[str, JSON]:
        """The description as JSON."""
        return {
            "name": self.name,
            "players": self.players,
            "height": self.height,
            "width": self.width,
            "fields": self.fields,
            "holes": self.holes,
            "overrides": self.overrides,
            "bombs": self.bombs,
            "radius": self.radius,
            "stones": list(self.stones),
            "specials": dict(self.specials),
            "transitions": self.transitions,
            "self_loops": self.self_loops,
            "turning_transitions": self.turning,
            "regions": [
                {
                    "size": r.size,
                    "players": list(r.players),
                    "expansions": r.expansions,
                    "first": list(r.first),
                }
                for r in self.regions
            ],
            "reachable": list(self.reachable),
            "isolated_regions": len(self.isolated),
        }

    def to_text(self) -> str:
        """The description as a few readable lines."""
        s = self.specials
        lines = [
            f"map {self.name or '<map>'}: {self.players} players, {self.height} rows x {self.width} columns, "
            f"{self.fields} fields, {self.holes} holes",
            f"each player: {self.overrides} override stones, {self.bombs} bombs of radius {self.radius}",
            "stones: " + ", ".join(f"player {k + 1}: {n}" for k, n in enumerate(self.stones)),
            f"special fields: choice {s['choice']}, inversion {s['inversion']}, bonus {s['bonus']}, "
            f"expansion {s['expansion']}",
            f"transitions: {self.transitions} ({self.self_loops} self-loops, {self.turning} change the direction)",
            f"regions: {len(self.regions)} connected (sizes {', '.join(str(r.size) for r in self.regions)})",
            "reachable fields (regions holding the player's stones): "
            + ", ".join(f"player {k + 1}: {n}" for k, n in enumerate(self.reachable)),
        ]
        if self.isolated:
            parts = [
                f"{r.size} fields at {r.first}"
                + (f" with {r.expansions} expansion stones" if r.expansions else "")
                for r in self.isolated
            ]
            lines.append(
                f"isolated regions (no stone; only overrides onto x or bombs reach them): {'; '.join(parts)}"
            )
        else:
            lines.append("isolated regions: none")
        return "\n".join(lines)


def regions_of(m: ReversiMap) -> tuple[list[Region], list[int]]:
    """The connected regions of the board graph in reading order of their first field, and the fields
    each player reaches (the sizes of the regions holding his stones).

    The graph's edges are the step table's (numpy), its components scipy's: a 1000 x 1000 map takes
    a second and a few hundred MB less than a walk in Python."""
    n = len(m.cells)
    table = step_array(m)
    codes = np.frombuffer(m.cells, dtype=np.uint8)
    field = np.flatnonzero(codes != HOLE)
    steps = table != -1
    starts = np.zeros(n + 1, dtype=np.int32)
    np.cumsum(steps.reshape(n, 8).sum(axis=1), out=starts[1:])
    targets = (table[steps] >> 3).astype(np.int32)
    graph = csr_matrix((np.ones(len(targets), dtype=np.int8), targets, starts), shape=(n, n))
    # Steps step back on every loadable map: the strong components are the regions, and scipy finds
    # them without the transposed copy that weak components take (100 MB on a 1000 x 1000 map).
    connection = "weak" if arrivals(m).one_sided else "strong"
    _, labels = connected_components(graph, directed=True, connection=connection)
    # Number the regions by their first field in reading order; holes belong to none.
    first = np.full(n, n, dtype=np.int64)
    np.minimum.at(first, labels[field], field)
    order = np.flatnonzero(first < n)
    order = order[np.argsort(first[order], kind="stable")]
    region = np.full(n, -1, dtype=np.int64)
    region[order] = np.arange(len(order))
    at = region[labels[field]]
    count = len(order)
    sizes = np.bincount(at, minlength=count)
    expansions = np.bincount(at[codes[field] == EXPANSION], minlength=count)
    holders = [np.bincount(at[codes[field] == k], minlength=count) > 0 for k in range(1, m.players + 1)]
    regions = [
        Region(
            int(sizes[r]),
            tuple(k + 1 for k in range(m.players) if holders[k][r]),
            int(expansions[r]),
            m.xy(int(first[order[r]])),
        )
        for r in range(count)
    ]
    reach = [int(sizes[holders[k]].sum()) for k in range(m.players)]
    return regions, reach


def describe(m: ReversiMap) -> MapInfo:
    """The map's description with its regions and reachability."""
    cells = m.cells
    regions, reach = regions_of(m)
    counts = Counter(cells)
    turning = 0
    self_loops = 0
    for x1, y1, d1, x2, y2, d2 in m.transitions:
        self_loops += (x1, y1, d1) == (x2, y2, d2)
        turning += (d2 + 4) % 8 != d1  # leaving in d1, the walk goes on heading (d2 + 4) % 8
    return MapInfo(
        name=m.name,
        players=m.players,
        height=m.height,
        width=m.width,
        fields=len(cells) - counts[HOLE],
        holes=counts[HOLE],
        overrides=m.overrides,
        bombs=m.bombs,
        radius=m.radius,
        stones=tuple(counts[k] for k in range(1, m.players + 1)),
        specials={
            "choice": counts[CHOICE],
            "inversion": counts[INVERSION],
            "bonus": counts[BONUS],
            "expansion": counts[EXPANSION],
        },
        transitions=len(m.transitions),
        self_loops=self_loops,
        turning=turning,
        regions=tuple(regions),
        reachable=tuple(reach),
    )
