"""Elo figures of two entrants, game by game (trinomial) and pair by pair (pentanomial).

The trinomial figures, game by game, as cutechess prints them, and the pentanomial figures, pair by pair,
as fastchess prints them: score, Elo and normalized Elo with 95 % intervals, LOS, draw and pairs ratios.
Every figure that would be infinite or undefined is ``None`` (``null`` in JSON, a one-sided bound or ``—``
in text): fastchess once printed ``Elo: inf +/- nan`` for a 6-0 result (its PR #556), and we never do.

>>> f = trinomial(Trinomial(wins=3225, losses=3068, draws=3707))
>>> round(f.elo, 2), round(f.elo_low, 2), round(f.elo_high, 2)
(5.46, 0.05, 10.86)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final, Literal

from scipy.stats import norm

from gridarena.arena.counts import PAIR_SCORES, Pentanomial, Sample, Trinomial
from gridarena.arena.intervals import halfwidth, normal_halfwidth, symmetric, wilson_interval
from gridarena.core.types import JSON

NELO_SCALE: Final = 800.0 / math.log(10.0)
"""Normalized Elo per unit of t-value (s − ½)/σ."""


def elo(score: float) -> float | None:
    """Elo difference of an expected score; ``None`` at 0 and 1, where it is infinite.

    >>> round(elo(0.75), 2), elo(0.5), elo(1.0)
    (190.85, 0.0, None)
    """
    if not 0.0 < score < 1.0:
        return None
    # The same as −400 · log10(1/p − 1), written so that p = ½ gives 0.0 rather than −0.0.
    return 400.0 * math.log10(score / (1.0 - score))


def elo_to_score(elo_diff: float) -> float:
    """Expected score of an Elo difference (the logistic model).

    >>> round(elo_to_score(190.85), 4)
    0.75
    """
    return 1.0 / (1.0 + math.pow(10.0, -elo_diff / 400.0))


@dataclass(frozen=True, slots=True)
class EloFigures:
    """Every figure of the two-entrant report for one candidate; ``None`` marks an undefined value."""

    model: Literal["trinomial", "pentanomial"]
    games: int
    score: float
    variance: float
    elo: float | None
    elo_low: float | None
    elo_high: float | None
    nelo: float | None
    nelo_low: float | None
    nelo_high: float | None
    los: float
    draw_ratio: float | None
    counts: Trinomial | None
    penta: Pentanomial | None = None
    pairs_ratio: float | None = None

    @property
    def elo_halfwidth(self) -> float | None:
        """Half the width of the Elo interval, the ± that cutechess prints; ``None`` if open."""
        return halfwidth(self.elo_low, self.elo_high)

    @property
    def nelo_halfwidth(self) -> float | None:
        """Half the width of the nElo interval; ``None`` when the variance is 0."""
        return halfwidth(self.nelo_low, self.nelo_high)

    def to_json(self) -> dict[str, JSON]:
        """Every figure as a JSON object, ``null`` where undefined."""
        return {
            "model": self.model,
            "games": self.games,
            "score": self.score,
            "variance": self.variance,
            "elo": self.elo,
            "elo_ci95": [self.elo_low, self.elo_high],
            "nelo": self.nelo,
            "nelo_ci95": [self.nelo_low, self.nelo_high],
            "los": self.los,
            "draw_ratio": self.draw_ratio,
            "counts": None if self.counts is None else self.counts.to_json(),
            "penta": None if self.penta is None else self.penta.to_json(),
            "pairs_ratio": self.pairs_ratio,
        }


def _ratio(numerator: float, denominator: float) -> float | None:
    return None if denominator == 0 else numerator / denominator


def trinomial_los(wins: int, losses: int) -> float:
    """Likelihood of superiority from wins and losses, draws ignored (cutechess); ½ without decisive games.

    >>> round(trinomial_los(6, 0), 4)
    0.9928
    """
    if wins + losses == 0:
        return 0.5
    return 0.5 + 0.5 * math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses)))


def trinomial(counts: Trinomial) -> EloFigures:
    """The figures for game-by-game (trinomial) counts.

    >>> f = trinomial(Trinomial(136, 96, 111))
    >>> round(f.elo, 2), round(f.elo_halfwidth, 2), round(f.nelo, 2), round(f.nelo_halfwidth, 2)
    (40.7, 30.43, 49.77, 36.77)
    """
    n = counts.games
    score = (counts.wins + counts.draws / 2.0) / n
    variance = (
        counts.wins * (1.0 - score) ** 2 + counts.losses * score**2 + counts.draws * (0.5 - score) ** 2
    ) / n
    return _elo_figures(
        "trinomial",
        score,
        variance,
        units=n,
        games=n,
        per_game_sd=math.sqrt(variance),
        los=trinomial_los(counts.wins, counts.losses),
        draw_ratio=counts.draws / n,
        counts=counts,
    )


def _penta_los(penta: Pentanomial, score: float, variance: float) -> float:
    if variance > 0.0:
        return float(norm.cdf((score - 0.5) / math.sqrt(variance / penta.pairs)))
    # Every pair scored the same. Off ½ the middle class is empty, so W + L is known; at ½, W − L = 0
    # and the cutechess formula gives ½ whatever the split.
    decisive = 2 * (penta.ll + penta.ww) + penta.ld + penta.wd + 2 * (penta.wl or 0)
    wins_minus_losses = penta.win_minus_loss()
    return trinomial_los((decisive + wins_minus_losses) // 2, (decisive - wins_minus_losses) // 2)


def pentanomial(penta: Pentanomial) -> EloFigures:
    """The figures for pair (pentanomial) counts (fastchess ``elo_pentanomial.cpp``).

    >>> f = pentanomial(Pentanomial(13, 37, 50, 25, 3))
    >>> round(f.score, 4), round(f.variance, 6), round(f.elo, 2), round(f.los * 100, 2)
    (0.4375, 0.057617, -43.66, 0.16)
    """
    pairs = penta.pairs
    score = sum(n * x for n, x in zip(penta.counts, PAIR_SCORES, strict=True)) / pairs
    variance = sum(n / pairs * (x - score) ** 2 for n, x in zip(penta.counts, PAIR_SCORES, strict=True))
    games = penta.trinomial()
    return _elo_figures(
        "pentanomial",
        score,
        variance,
        units=pairs,
        games=penta.games,
        per_game_sd=math.sqrt(2.0 * variance),
        los=_penta_los(penta, score, variance),
        draw_ratio=None if games is None else games.draws / games.games,
        counts=games,
        penta=penta,
        pairs_ratio=_ratio(penta.ww + penta.wd, penta.ld + penta.ll),
    )


def figures(sample: Sample) -> EloFigures:
    """The pentanomial figures of pair counts, the trinomial figures of game counts.

    >>> figures(Trinomial(6, 0, 0)).model, figures(Pentanomial(0, 0, 0, 0, 3)).model
    ('trinomial', 'pentanomial')
    """
    return pentanomial(sample) if isinstance(sample, Pentanomial) else trinomial(sample)


def _elo_figures(
    model: Literal["trinomial", "pentanomial"],
    score: float,
    variance: float,
    *,
    units: int,
    games: int,
    per_game_sd: float,
    los: float,
    draw_ratio: float | None,
    counts: Trinomial | None,
    penta: Pentanomial | None = None,
    pairs_ratio: float | None = None,
) -> EloFigures:
    """Elo and nElo with 95 % intervals of a score whose ``variance`` is per unit (game or pair).

    The interval on the score is normal over the units, or Wilson over the games when the sample is
    degenerate; mapped to Elo, an endpoint at or beyond 0 or 1 is open (``None``).
    """
    half = normal_halfwidth(variance, units)
    degenerate = variance <= 0.0 or score in (0.0, 1.0)
    low, high = wilson_interval(score, games) if degenerate else symmetric(score, half)
    nelo: tuple[float | None, float | None, float | None] = (None, None, None)
    if variance > 0.0:
        scale = NELO_SCALE / per_game_sd
        nelo = ((score - 0.5) * scale, (score - half - 0.5) * scale, (score + half - 0.5) * scale)
    return EloFigures(
        model=model,
        games=games,
        score=score,
        variance=variance,
        elo=elo(score),
        elo_low=elo(low),
        elo_high=elo(high),
        nelo=nelo[0],
        nelo_low=nelo[1],
        nelo_high=nelo[2],
        los=los,
        draw_ratio=draw_ratio,
        counts=counts,
        penta=penta,
        pairs_ratio=pairs_ratio,
    )
