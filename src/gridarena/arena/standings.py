"""Crosstables and standings of many entrants and k-seat games.

A crosstable gives each entrant's points against each other entrant (in a k-seat game every two entrants
meet once: 1 for finishing ahead, ½ for a tie); standings give each entrant's games, mean rank,
first-place share, mean points and forfeits, overall and seat by seat, so a first-mover advantage shows.

>>> table = crosstable([RatedGame(("a", "b", "c"), (1, 2, 2)), RatedGame(("c", "a", "b"), (1, 3, 2))])
>>> table.score("a", "c"), table.score("b", "c")
(0.5, 0.25)
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from gridarena.arena.rated import RatedGame, entrant_order
from gridarena.core.types import JSON


@dataclass(frozen=True, slots=True)
class Crosstable:
    """Each row entrant's points against each column entrant (1 for finishing ahead, ½ for a tie)."""

    entrants: tuple[str, ...]
    points: tuple[tuple[float, ...], ...]
    games: tuple[tuple[int, ...], ...]

    def score(self, row: str, col: str) -> float | None:
        """Fraction of points ``row`` took from ``col``; ``None`` if they never met."""
        i, j = self.entrants.index(row), self.entrants.index(col)
        return None if self.games[i][j] == 0 else self.points[i][j] / self.games[i][j]

    def to_json(self) -> dict[str, JSON]:
        """One row per entrant with, per opponent met, the points, games and score."""
        rows: list[JSON] = []
        for i, name in enumerate(self.entrants):
            cells = {
                other: {
                    "points": self.points[i][j],
                    "games": self.games[i][j],
                    "score": self.score(name, other),
                }
                for j, other in enumerate(self.entrants)
                if self.games[i][j]
            }
            rows.append({"player": name, "vs": cells})
        return {"entrants": list(self.entrants), "rows": rows}

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> Crosstable:
        """Inverse of :meth:`to_json` (a pair that never met has 0 points in 0 games)."""
        entrants = tuple(str(e) for e in data["entrants"])
        cells = [row["vs"] for row in data["rows"]]
        return cls(
            entrants,
            tuple(tuple(float(vs.get(o, {}).get("points", 0.0)) for o in entrants) for vs in cells),
            tuple(tuple(int(vs.get(o, {}).get("games", 0)) for o in entrants) for vs in cells),
        )

    def to_text(self) -> str:
        """A plain-text table: ``points/games`` per cell, ``·`` on the diagonal, ``-`` where none met.

        >>> print(crosstable([RatedGame(("a", "b"), (1, 2)), RatedGame(("a", "b"), (1, 1))]).to_text())
               a      b
        a      ·  1.5/2
        b  0.5/2      ·
        """
        n = len(self.entrants)
        cells = [
            [
                "·"
                if i == j
                else "-"
                if not self.games[i][j]
                else f"{self.points[i][j]:g}/{self.games[i][j]}"
                for j in range(n)
            ]
            for i in range(n)
        ]
        name_width = max(len(e) for e in self.entrants)
        width = max(len(c) for c in (*self.entrants, *(c for row in cells for c in row)))
        lines = [" " * name_width + "".join(f"  {e:>{width}}" for e in self.entrants)]
        for name, row in zip(self.entrants, cells, strict=True):
            lines.append(f"{name:<{name_width}}" + "".join(f"  {c:>{width}}" for c in row))
        return "\n".join(lines)


def crosstable(records: Sequence[RatedGame], entrants: Sequence[str] | None = None) -> Crosstable:
    """Pairwise points of every game: in a k-seat game every two entrants meet once."""
    names = tuple(entrants) if entrants is not None else entrant_order(records)
    index = {name: i for i, name in enumerate(names)}
    points = np.zeros((len(names), len(names)))
    games = np.zeros((len(names), len(names)), dtype=np.int64)
    for record in records:
        for (a, ra), (b, rb) in itertools.permutations(zip(record.entrants, record.ranks, strict=True), 2):
            i, j = index[a], index[b]
            games[i, j] += 1
            points[i, j] += 1.0 if ra < rb else 0.5 if ra == rb else 0.0
    return Crosstable(
        names,
        tuple(tuple(float(x) for x in row) for row in points),
        tuple(tuple(int(x) for x in row) for row in games),
    )


@dataclass(frozen=True, slots=True)
class SeatFigures:
    """One entrant's games from one seat."""

    games: int
    mean_rank: float
    first_share: float
    mean_points: float | None

    def to_json(self) -> dict[str, JSON]:
        """The figures as a JSON object."""
        return {
            "games": self.games,
            "mean_rank": self.mean_rank,
            "first_share": self.first_share,
            "mean_points": self.mean_points,
        }


@dataclass(frozen=True, slots=True)
class Standing:
    """Per-entrant figures: games, mean rank, first-place share, points, forfeits, seats."""

    player: str
    overall: SeatFigures
    seats: Mapping[int, SeatFigures]
    forfeits: Mapping[str, int]

    def to_json(self) -> dict[str, JSON]:
        """The standing as a JSON object (``seats`` keyed by seat number as text)."""
        return {
            "player": self.player,
            **self.overall.to_json(),
            "forfeits": dict(self.forfeits),
            "seats": {str(seat): figures.to_json() for seat, figures in sorted(self.seats.items())},
        }


def _figures(rows: Sequence[tuple[int, float, float | None]]) -> SeatFigures:
    points = [p for _, _, p in rows if p is not None]
    return SeatFigures(
        games=len(rows),
        mean_rank=sum(r for r, _, _ in rows) / len(rows),
        first_share=sum(f for _, f, _ in rows) / len(rows),
        mean_points=sum(points) / len(points) if len(points) == len(rows) else None,
    )


def standings(records: Sequence[RatedGame]) -> list[Standing]:
    """Per-entrant standings in order of first appearance; entrants tied for first share the place.

    >>> rows = standings([RatedGame(("a", "b", "c"), (1, 1, 3)), RatedGame(("c", "a", "b"), (1, 2, 3))])
    >>> [(s.player, s.overall.mean_rank, s.overall.first_share) for s in rows]
    [('a', 1.5, 0.25), ('b', 2.0, 0.25), ('c', 2.0, 0.5)]
    """
    rows: dict[str, list[tuple[int, int, float, float | None]]] = defaultdict(list)
    forfeits: dict[str, Counter[str]] = defaultdict(Counter)
    for record in records:
        firsts = sum(1 for r in record.ranks if r == 1)
        for seat, (name, rank) in enumerate(zip(record.entrants, record.ranks, strict=True)):
            share = 1.0 / firsts if rank == 1 else 0.0
            rows[name].append((seat, rank, share, record.points[seat] if record.points else None))
            if record.forfeit_seat == seat and record.termination != "normal":
                forfeits[name][record.termination] += 1
    result: list[Standing] = []
    for name in entrant_order(records):
        by_seat: dict[int, list[tuple[int, float, float | None]]] = defaultdict(list)
        for seat, rank, share, pts in rows[name]:
            by_seat[seat].append((rank, share, pts))
        overall = _figures([(rank, share, pts) for _, rank, share, pts in rows[name]])
        seats = {seat: _figures(items) for seat, items in sorted(by_seat.items())}
        result.append(Standing(name, overall, seats, dict(sorted(forfeits[name].items()))))
    return result
