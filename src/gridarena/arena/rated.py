"""A played game as the ratings, crosstables and standings see it.

:class:`RatedGame` keeps what those need of a stored game: who sat where and the competition ranks they
finished in (1 = best, ties share a rank), plus the points, block and termination. It is built from a
stored row or from an :class:`~gridarena.core.types.Outcome`; the game itself, turn by turn, is the game
loop's :class:`gridarena.core.play.GameRecord`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gridarena.core.errors import GridArenaError
from gridarena.core.types import JSON, Outcome


class RatingError(GridArenaError, ValueError):
    """Games or fit options from which no rating can be computed; the message says why."""


@dataclass(frozen=True, slots=True)
class RatedGame:
    """Entrants and competition ranks by seat (1 = best) of one finished game, as the ratings see it.

    >>> RatedGame.from_outcome(("x", "y", "z"), Outcome((5.0, 9.0, 5.0)), block=3)
    RatedGame(entrants=('x', 'y', 'z'), ranks=(2, 1, 2), points=(5.0, 9.0, 5.0), block=3, termination='normal', forfeit_seat=None)
    """

    entrants: tuple[str, ...]
    ranks: tuple[int, ...]
    points: tuple[float, ...] = ()
    block: int = 0
    termination: str = "normal"
    forfeit_seat: int | None = None

    def __post_init__(self) -> None:
        where = f"game of block {self.block}"
        if len(self.entrants) < 2:
            raise RatingError(f"{where}: a rated game needs at least two entrants, got {self.entrants}")
        if len(set(self.entrants)) != len(self.entrants):
            raise RatingError(f"{where}: an entrant appears twice in {self.entrants}")
        if len(self.ranks) != len(self.entrants) or any(r < 1 for r in self.ranks):
            raise RatingError(f"{where}: ranks {self.ranks} do not fit entrants {self.entrants}")
        if self.points and len(self.points) != len(self.entrants):
            raise RatingError(f"{where}: points {self.points} do not fit entrants {self.entrants}")
        if self.forfeit_seat is not None and not 0 <= self.forfeit_seat < len(self.entrants):
            raise RatingError(f"{where}: forfeit seat {self.forfeit_seat} is not a seat")

    @classmethod
    def from_outcome(cls, entrants: Sequence[str], outcome: Outcome, block: int = 0) -> RatedGame:
        """The record of a game the arena played, with ranks from the outcome's returns."""
        return cls(
            tuple(entrants),
            outcome.ranks(),
            tuple(outcome.returns),
            block,
            outcome.termination,
            outcome.forfeit_player,
        )

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> RatedGame:
        """The record of a stored game (a row of :meth:`gridarena.arena.store.Store.games`)."""
        return cls(
            tuple(row["seats"]),
            tuple(row["ranks"]),
            tuple(row["returns"]),
            row["block"],
            row["termination"],
            row["forfeit_seat"],
        )

    def groups(self) -> list[tuple[str, ...]]:
        """The finishing order as groups of tied entrants, best first.

        >>> RatedGame(("a", "b", "c"), (2, 1, 2)).groups()
        [('b',), ('a', 'c')]
        """
        by_rank: dict[int, list[str]] = defaultdict(list)
        for name, rank in zip(self.entrants, self.ranks, strict=True):
            by_rank[rank].append(name)
        return [tuple(by_rank[r]) for r in sorted(by_rank)]

    def to_json(self) -> dict[str, JSON]:
        """The record as a JSON object."""
        return {
            "entrants": list(self.entrants),
            "ranks": list(self.ranks),
            "points": list(self.points),
            "block": self.block,
            "termination": self.termination,
            "forfeit_seat": self.forfeit_seat,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> RatedGame:
        """Inverse of :meth:`to_json`."""
        return cls(
            tuple(str(e) for e in data["entrants"]),
            tuple(int(r) for r in data["ranks"]),
            tuple(float(p) for p in data.get("points", ())),
            int(data.get("block", 0)),
            str(data.get("termination", "normal")),
            data.get("forfeit_seat"),
        )


def entrant_order(games: Sequence[RatedGame]) -> tuple[str, ...]:
    """Every entrant once, in order of first appearance.

    >>> entrant_order([RatedGame(("b", "a"), (1, 2)), RatedGame(("c", "a"), (1, 1))])
    ('b', 'a', 'c')
    """
    seen: dict[str, None] = {}
    for game in games:
        seen.update(dict.fromkeys(game.entrants))
    return tuple(seen)
