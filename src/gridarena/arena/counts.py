"""Game and pair counts of two entrants: what the two-entrant statistics are computed from.

A :class:`Trinomial` counts one candidate's wins, losses and draws against one opponent, game by game; a
:class:`Pentanomial` counts the pairs of games played on one seed with the seats swapped, by the points
the candidate took from the pair (LL, LD, DD+WL, WD, WW), as fastchess does. Counts that cannot be used
raise :class:`StatsInputError` naming the bad value.

>>> Pentanomial.from_pairs([(1, 0), (1, 0.5), (1, 1)]).trinomial()
Trinomial(wins=4, losses=1, draws=1)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final, TypeAlias

from gridarena.core.errors import GridArenaError
from gridarena.core.types import JSON

PAIR_SCORES: Final = (0.0, 0.25, 0.5, 0.75, 1.0)
"""A pair's points per game for the pentanomial classes LL, LD, DD+WL, WD, WW."""

GAME_SCORES: Final = (0.0, 0.5, 1.0)
"""A game's points for a loss, a draw and a win."""


class StatsInputError(GridArenaError, ValueError):
    """Counts, series or SPRT parameters that cannot be used; the message names the bad value."""


@dataclass(frozen=True, slots=True)
class Trinomial:
    """A candidate's wins, losses and draws against one opponent."""

    wins: int
    losses: int
    draws: int

    def __post_init__(self) -> None:
        _check_counts(("wins", "losses", "draws"), (self.wins, self.losses, self.draws))

    @classmethod
    def from_scores(cls, scores: Iterable[float]) -> Trinomial:
        """Counts from the candidate's points per game (1 win, ½ draw, 0 loss).

        >>> Trinomial.from_scores([1, 0.5, 1, 0])
        Trinomial(wins=2, losses=1, draws=1)
        """
        tally = Counter(_game_class(x) for x in scores)
        return cls(tally[1.0], tally[0.0], tally[0.5])

    @property
    def games(self) -> int:
        """Number of games."""
        return self.wins + self.losses + self.draws

    def swapped(self) -> Trinomial:
        """The same games seen from the opponent.

        >>> Trinomial(5, 2, 1).swapped()
        Trinomial(wins=2, losses=5, draws=1)
        """
        return Trinomial(self.losses, self.wins, self.draws)

    def to_json(self) -> dict[str, JSON]:
        """The counts as a JSON object."""
        return {"wins": self.wins, "losses": self.losses, "draws": self.draws}


@dataclass(frozen=True, slots=True)
class Pentanomial:
    """Pair results [LL, LD, DD+WL, WD, WW]; ``wl`` says how many of the middle pairs were WL, if known.

    >>> Pentanomial(13, 37, 50, 25, 3, wl=20).trinomial()
    Trinomial(wins=51, losses=83, draws=122)
    """

    ll: int
    ld: int
    dd: int
    wd: int
    ww: int
    wl: int | None = None

    def __post_init__(self) -> None:
        names = ("LL", "LD", "DD+WL", "WD", "WW")
        _check_counts(names, self.counts)
        if self.wl is not None and not 0 <= self.wl <= self.dd:
            raise StatsInputError(f"WL pairs must be between 0 and DD+WL = {self.dd}, got {self.wl}")

    @classmethod
    def from_pairs(cls, pairs: Iterable[tuple[float, float]]) -> Pentanomial:
        """Counts, with the WL split, from the candidate's points in the two games of each pair.

        >>> Pentanomial.from_pairs([(1, 0), (0.5, 0.5), (1, 0.5), (1, 1)])
        Pentanomial(ll=0, ld=0, dd=2, wd=1, ww=1, wl=1)
        """
        tally: Counter[float] = Counter()
        wl = 0
        for first, second in pairs:
            a, b = _game_class(first), _game_class(second)
            tally[a + b] += 1
            if a + b == 1.0 and a != b:
                wl += 1
        return cls(tally[0.0], tally[0.5], tally[1.0], tally[1.5], tally[2.0], wl=wl)

    @property
    def counts(self) -> tuple[int, int, int, int, int]:
        """The five counts in the order of :data:`PAIR_SCORES`."""
        return (self.ll, self.ld, self.dd, self.wd, self.ww)

    @property
    def pairs(self) -> int:
        """Number of pairs."""
        return sum(self.counts)

    @property
    def games(self) -> int:
        """Number of games (two per pair)."""
        return 2 * self.pairs

    def win_minus_loss(self) -> int:
        """Wins minus losses over all games, which the five counts fix even without the WL split."""
        return 2 * (self.ww - self.ll) + self.wd - self.ld

    def trinomial(self) -> Trinomial | None:
        """The game counts, or ``None`` while the WL pairs are not told apart from the DD pairs."""
        if self.wl is None:
            return None
        dd_only = self.dd - self.wl
        wins = self.wl + self.wd + 2 * self.ww
        losses = 2 * self.ll + self.ld + self.wl
        return Trinomial(wins, losses, self.ld + 2 * dd_only + self.wd)

    def swapped(self) -> Pentanomial:
        """The same pairs seen from the opponent.

        >>> Pentanomial(1, 2, 3, 4, 5).swapped()
        Pentanomial(ll=5, ld=4, dd=3, wd=2, ww=1, wl=None)
        """
        return Pentanomial(self.ww, self.wd, self.dd, self.ld, self.ll, self.wl)

    def to_json(self) -> list[int]:
        """The five counts as a JSON list (``penta`` in the report)."""
        return list(self.counts)


def _game_class(points: float) -> float:
    if points not in GAME_SCORES:
        raise StatsInputError(f"a game's points must be 0, 0.5 or 1 for the candidate, got {points!r}")
    return float(points)


def _check_counts(names: Sequence[str], values: Sequence[int]) -> None:
    for name, value in zip(names, values, strict=True):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise StatsInputError(f"{name} must be a non-negative integer, got {value!r}")
    if sum(values) == 0:
        raise StatsInputError(f"no results: {', '.join(names)} are all 0")


Sample: TypeAlias = Trinomial | Pentanomial
"""Two entrants' results, game by game or pair by pair: what the figures and the SPRT take."""
