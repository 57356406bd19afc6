"""Statistics for two entrants and for single-player series (spec sections 6 and 8).

Two entrants: the trinomial figures (game by game, as cutechess prints them), the pentanomial figures
(pair by pair, as fastchess prints them) and the generalized SPRT of fishtest and fastchess. Every figure
that would be infinite or undefined is ``None`` (``null`` in JSON, a one-sided bound or ``—`` in text):
fastchess once printed ``Elo: inf +/- nan`` for a 6-0 result (its PR #556), and we never do.

Single player: mean, sample standard deviation and Student's t interval over the successful runs.

>>> figures = trinomial(Trinomial(wins=3225, losses=3068, draws=3707))
>>> round(figures.elo, 2), round(figures.elo_low, 2), round(figures.elo_high, 2)
(5.46, 0.05, 10.86)
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, Literal, TypeAlias

from scipy.optimize import brentq
from scipy.stats import norm
from scipy.stats import t as student_t

from gridarena.core.errors import GridArenaError
from gridarena.core.types import JSON

Z95: Final = float(norm.ppf(0.975))
"""Φ⁻¹(0.975) = 1.959964: the two-sided 95 % quantile of the normal distribution."""

NELO_SCALE: Final = 800.0 / math.log(10.0)
"""Normalized Elo per unit of t-value (s − ½)/σ."""

PAIR_SCORES: Final = (0.0, 0.25, 0.5, 0.75, 1.0)
"""A pair's points per game for the pentanomial classes LL, LD, DD+WL, WD, WW."""

GAME_SCORES: Final = (0.0, 0.5, 1.0)
"""A game's points for a loss, a draw and a win."""

MAX_NORMALIZED_ELO: Final = 200.0
"""Largest |elo0|, |elo1| the normalized SPRT accepts (see :class:`SprtConfig`)."""

SprtModel: TypeAlias = Literal["normalized", "logistic"]
Decision: TypeAlias = Literal["H0", "H1"]


class StatsInputError(GridArenaError, ValueError):
    """Counts or SPRT parameters that cannot be used; the message names the bad value."""


# ---------------------------------------------------------------------------------------------------------
# Counts


def halfwidth(low: float | None, high: float | None) -> float | None:
    """Half the width of an interval, the ± of a report; ``None`` if an end is open.

    >>> halfwidth(-3.0, 5.0), halfwidth(None, 5.0)
    (4.0, None)
    """
    return None if low is None or high is None else (high - low) / 2.0


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


# ---------------------------------------------------------------------------------------------------------
# Scales


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


def wilson_interval(score: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion ``score`` observed in ``n`` trials (spec section 6.4).

    >>> low, high = wilson_interval(1.0, 6)
    >>> round(low, 5), high
    (0.60967, 1.0)
    """
    z2n = z * z / n
    centre = (score + z2n / 2.0) / (1.0 + z2n)
    half = z * math.sqrt(score * (1.0 - score) / n + z2n / (4.0 * n)) / (1.0 + z2n)
    # The exact endpoints at s = 0 and s = 1 are 0 and 1; rounding must not turn them into 1 - 1e-16.
    low = 0.0 if score == 0.0 else centre - half
    high = 1.0 if score == 1.0 else centre + half
    return low, high


# ---------------------------------------------------------------------------------------------------------
# Figures of sections 6.1 and 6.2


@dataclass(frozen=True, slots=True)
class EloFigures:
    """Everything sections 6.1, 6.2 and 6.4 print for one candidate; ``None`` marks an undefined value."""

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


def _score_interval(score: float, variance: float, units: int, games: int) -> tuple[float, float]:
    """95 % interval on the score: normal over ``units`` (games or pairs), Wilson over games if degenerate."""
    if variance <= 0.0 or score in (0.0, 1.0):
        return wilson_interval(score, games)
    half = Z95 * math.sqrt(variance / units)
    return score - half, score + half


def _nelo_triplet(
    score: float, variance: float, units: int, per_game_sd: float
) -> tuple[float | None, float | None, float | None]:
    if variance <= 0.0:
        return None, None, None
    half = Z95 * math.sqrt(variance / units)
    scale = NELO_SCALE / per_game_sd
    return (score - 0.5) * scale, (score - half - 0.5) * scale, (score + half - 0.5) * scale


def trinomial_los(wins: int, losses: int) -> float:
    """Likelihood of superiority from wins and losses, draws ignored (cutechess); ½ without decisive games.

    >>> round(trinomial_los(6, 0), 4)
    0.9928
    """
    if wins + losses == 0:
        return 0.5
    return 0.5 + 0.5 * math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses)))


def trinomial(counts: Trinomial) -> EloFigures:
    """The figures of section 6.1 for game-by-game counts.

    >>> f = trinomial(Trinomial(136, 96, 111))
    >>> round(f.elo, 2), round(f.elo_halfwidth, 2), round(f.nelo, 2), round(f.nelo_halfwidth, 2)
    (40.7, 30.43, 49.77, 36.77)
    """
    n = counts.games
    score = (counts.wins + counts.draws / 2.0) / n
    variance = (
        counts.wins * (1.0 - score) ** 2 + counts.losses * score**2 + counts.draws * (0.5 - score) ** 2
    ) / n
    low, high = _score_interval(score, variance, n, n)
    nelo, nelo_low, nelo_high = _nelo_triplet(score, variance, n, math.sqrt(variance))
    return EloFigures(
        model="trinomial",
        games=n,
        score=score,
        variance=variance,
        elo=elo(score),
        elo_low=elo(low),  # an endpoint at or beyond 0 or 1 is open: None
        elo_high=elo(high),
        nelo=nelo,
        nelo_low=nelo_low,
        nelo_high=nelo_high,
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
    """The figures of section 6.2 for pair counts (fastchess ``elo_pentanomial.cpp``).

    >>> f = pentanomial(Pentanomial(13, 37, 50, 25, 3))
    >>> round(f.score, 4), round(f.variance, 6), round(f.elo, 2), round(f.los * 100, 2)
    (0.4375, 0.057617, -43.66, 0.16)
    """
    pairs = penta.pairs
    score = sum(n * x for n, x in zip(penta.counts, PAIR_SCORES, strict=True)) / pairs
    variance = sum(n / pairs * (x - score) ** 2 for n, x in zip(penta.counts, PAIR_SCORES, strict=True))
    low, high = _score_interval(score, variance, pairs, penta.games)
    nelo, nelo_low, nelo_high = _nelo_triplet(score, variance, pairs, math.sqrt(2.0 * variance))
    games = penta.trinomial()
    return EloFigures(
        model="pentanomial",
        games=penta.games,
        score=score,
        variance=variance,
        elo=elo(score),
        elo_low=elo(low),  # an endpoint at or beyond 0 or 1 is open: None
        elo_high=elo(high),
        nelo=nelo,
        nelo_low=nelo_low,
        nelo_high=nelo_high,
        los=_penta_los(penta, score, variance),
        draw_ratio=None if games is None else games.draws / games.games,
        counts=games,
        penta=penta,
        pairs_ratio=_ratio(penta.ww + penta.wd, penta.ld + penta.ll),
    )


# ---------------------------------------------------------------------------------------------------------
# SPRT (section 6.3)


@dataclass(frozen=True, slots=True)
class SprtConfig:
    """The hypotheses H0: elo = elo0 and H1: elo = elo1 with error rates α and β."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    model: SprtModel = "normalized"

    def __post_init__(self) -> None:
        if not all(math.isfinite(v) for v in (self.elo0, self.elo1, self.alpha, self.beta)):
            raise StatsInputError(f"SPRT values must be finite numbers, got {self.spec()}")
        if self.elo0 >= self.elo1:
            raise StatsInputError(f"SPRT elo0 must be less than elo1, got elo0={self.elo0}, elo1={self.elo1}")
        for name, value in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0.0 < value < 1.0:
                raise StatsInputError(f"SPRT {name} must be between 0 and 1, got {value}")
        if self.alpha + self.beta >= 1.0:
            raise StatsInputError(f"SPRT alpha + beta must be below 1, got {self.alpha} + {self.beta}")
        if self.model not in ("normalized", "logistic"):
            raise StatsInputError(f"SPRT model must be 'normalized' or 'logistic', got {self.model!r}")
        # Van den Bergh's fixed-point iteration (fishtest, fastchess) has no solution from its uniform
        # start beyond about 250 normalized Elo; a test of a small change never needs such hypotheses.
        if self.model == "normalized" and max(abs(self.elo0), abs(self.elo1)) > MAX_NORMALIZED_ELO:
            raise StatsInputError(
                f"normalized SPRT hypotheses must lie within ±{MAX_NORMALIZED_ELO:g} nElo, "
                f"got elo0={self.elo0:g}, elo1={self.elo1:g}"
            )

    @classmethod
    def parse(cls, text: str, model: SprtModel = "normalized") -> SprtConfig:
        """Read ``elo0,elo1,alpha,beta`` as given to ``--sprt``.

        >>> SprtConfig.parse("0,5,0.05,0.05")
        SprtConfig(elo0=0.0, elo1=5.0, alpha=0.05, beta=0.05, model='normalized')
        """
        items = [item.strip() for item in text.split(",")]
        if len(items) != 4:
            raise StatsInputError(f"--sprt wants elo0,elo1,alpha,beta (4 values), got {text!r}")
        values: list[float] = []
        for name, item in zip(("elo0", "elo1", "alpha", "beta"), items, strict=True):
            try:
                values.append(float(item))
            except ValueError:
                raise StatsInputError(f"--sprt {name}: {item!r} is not a number") from None
        return cls(values[0], values[1], values[2], values[3], model)

    @property
    def bounds(self) -> tuple[float, float]:
        """(A, B) = (ln(β / (1 − α)), ln((1 − β) / α)): ±2.944 for α = β = 0.05."""
        return math.log(self.beta / (1.0 - self.alpha)), math.log((1.0 - self.beta) / self.alpha)

    def spec(self) -> str:
        """The configuration in ``--sprt`` syntax."""
        return f"{self.elo0:g},{self.elo1:g},{self.alpha:g},{self.beta:g}"


@dataclass(frozen=True, slots=True)
class SprtResult:
    """The LLR of a sample, its bounds, and the decision it supports (``None``: keep playing)."""

    config: SprtConfig
    llr: float
    decision: Decision | None

    @property
    def bounds(self) -> tuple[float, float]:
        """(lower, upper) bounds of the LLR."""
        return self.config.bounds

    def to_json(self) -> dict[str, JSON]:
        """The ``sprt`` object of the JSON report."""
        return {
            "llr": self.llr,
            "bounds": list(self.bounds),
            "elo0": self.config.elo0,
            "elo1": self.config.elo1,
            "alpha": self.config.alpha,
            "beta": self.config.beta,
            "model": self.config.model,
            "decision": self.decision,
        }


def _regularized(counts: Sequence[int]) -> list[float]:
    # fishtest and fastchess replace empty classes by 0.001 so that every log below is finite.
    return [float(c) if c > 0 else 1e-3 for c in counts]


def _mean_var(scores: Sequence[float], probs: Sequence[float]) -> tuple[float, float]:
    mu = sum(p * a for a, p in zip(scores, probs, strict=True))
    return mu, sum(p * (a - mu) ** 2 for a, p in zip(scores, probs, strict=True))


def _tilt(probs: Sequence[float], phi: Sequence[float]) -> list[float]:
    """The maximum-likelihood p with Σ p φ = 0: pᵢ = p̂ᵢ / (1 + θ φᵢ), θ the root of Σ p̂ φ / (1 + θ φ)."""
    if not min(phi) < 0.0 < max(phi):
        raise StatsInputError("SPRT hypothesis has no maximum-likelihood distribution for this sample")
    low, high = -1.0 / max(phi), -1.0 / min(phi)
    span = high - low

    def equation(theta: float) -> float:
        return sum(p * f / (1.0 + theta * f) for p, f in zip(probs, phi, strict=True))

    # The equation decreases from +inf to -inf on (low, high); step just inside the poles.
    theta = brentq(equation, low + 1e-15 * span, high - 1e-15 * span, xtol=1e-15, rtol=1e-15)
    return [p / (1.0 + theta * f) for p, f in zip(probs, phi, strict=True)]


def mle_with_score(scores: Sequence[float], probs: Sequence[float], target: float) -> list[float]:
    """The distribution on ``scores`` closest to ``probs`` (max likelihood) whose mean is ``target``.

    Van den Bergh, "Comments on Normalized Elo", proposition 1.1.

    >>> [round(p, 4) for p in mle_with_score((0.0, 0.5, 1.0), (0.25, 0.5, 0.25), 0.5)]
    [0.25, 0.5, 0.25]
    """
    return _tilt(probs, [a - target for a in scores])


def mle_with_tvalue(
    scores: Sequence[float], probs: Sequence[float], t_star: float, ref: float = 0.5
) -> list[float]:
    """The max-likelihood distribution on ``scores`` with (μ − ref)/σ = ``t_star`` (Van den Bergh, 4.1).

    >>> p = mle_with_tvalue((0.0, 0.5, 1.0), (0.3, 0.4, 0.3), 0.1)
    >>> mu, var = _mean_var((0.0, 0.5, 1.0), p)
    >>> round((mu - 0.5) / math.sqrt(var), 9)
    0.1
    """
    p = [1.0 / len(scores)] * len(scores)
    for _ in range(200):
        mu, var = _mean_var(scores, p)
        sigma = math.sqrt(var)
        phi = [a - ref - 0.5 * t_star * sigma * (1.0 + ((a - mu) / sigma) ** 2) for a in scores]
        new = _tilt(probs, phi)
        change = max(abs(x - y) for x, y in zip(new, p, strict=True))
        p = new
        if change < 1e-13:
            break
    return p


def sprt_llr(config: SprtConfig, sample: Trinomial | Pentanomial) -> float:
    """The generalized SPRT log-likelihood ratio of fishtest and fastchess (``sprt.cpp``).

    Pentanomial samples scale normalized hypotheses by √2, since a pair's σ is per pair.

    >>> round(sprt_llr(SprtConfig(0, 2), Trinomial(36433, 36027, 68692)), 2)
    0.92
    """
    if isinstance(sample, Pentanomial):
        raw: Sequence[int] = sample.counts
        scores: Sequence[float] = PAIR_SCORES
        t_scale = math.sqrt(2.0)
    else:
        raw, scores, t_scale = (sample.losses, sample.draws, sample.wins), GAME_SCORES, 1.0
    counts = _regularized(raw)
    total = sum(counts)
    probs = [c / total for c in counts]
    if config.model == "normalized":
        p0 = mle_with_tvalue(scores, probs, t_scale * config.elo0 / NELO_SCALE)
        p1 = mle_with_tvalue(scores, probs, t_scale * config.elo1 / NELO_SCALE)
    else:
        p0 = mle_with_score(scores, probs, elo_to_score(config.elo0))
        p1 = mle_with_score(scores, probs, elo_to_score(config.elo1))
    return total * sum(p * (math.log(a) - math.log(b)) for p, a, b in zip(probs, p1, p0, strict=True))


def sprt_llr_approx(config: SprtConfig, sample: Trinomial | Pentanomial) -> float | None:
    """The solver-free cross-check N (s₁ − s₀)(2ŝ − s₀ − s₁) / (2σ̂²); ``None`` when σ̂ is 0.

    >>> round(sprt_llr_approx(SprtConfig(0, 2), Trinomial(36433, 36027, 68692)), 2)
    0.92
    """
    figures = pentanomial(sample) if isinstance(sample, Pentanomial) else trinomial(sample)
    units = sample.pairs if isinstance(sample, Pentanomial) else sample.games
    if figures.variance <= 0.0:
        return None
    if config.model == "normalized":
        sigma = math.sqrt(figures.variance)
        t_scale = math.sqrt(2.0) if isinstance(sample, Pentanomial) else 1.0
        s0 = 0.5 + t_scale * config.elo0 / NELO_SCALE * sigma
        s1 = 0.5 + t_scale * config.elo1 / NELO_SCALE * sigma
    else:
        s0, s1 = elo_to_score(config.elo0), elo_to_score(config.elo1)
    return units * (s1 - s0) * (2.0 * figures.score - s0 - s1) / (2.0 * figures.variance)


def sprt_decision(config: SprtConfig, llr: float, variance: float) -> Decision | None:
    """H1 at LLR ≥ B, H0 at LLR ≤ A, otherwise ``None``; never a decision while the variance is 0.

    >>> sprt_decision(SprtConfig(0, 5), 3.0, 0.1), sprt_decision(SprtConfig(0, 5), 3.0, 0.0)
    ('H1', None)
    """
    if variance <= 0.0:
        return None
    lower, upper = config.bounds
    if llr >= upper:
        return "H1"
    if llr <= lower:
        return "H0"
    return None


def sprt(config: SprtConfig, sample: Trinomial | Pentanomial) -> SprtResult:
    """LLR and decision for a sample; the runner calls it after each block and stops at a decision."""
    figures = pentanomial(sample) if isinstance(sample, Pentanomial) else trinomial(sample)
    llr = sprt_llr(config, sample)
    return SprtResult(config, llr, sprt_decision(config, llr, figures.variance))


# ---------------------------------------------------------------------------------------------------------
# The match report (section 6.6)


@dataclass(frozen=True, slots=True)
class MatchStats:
    """A two-entrant match's figures (pentanomial when paired) with its optional SPRT."""

    figures: EloFigures
    sprt: SprtResult | None = None
    names: tuple[str, str] = ("A", "B")

    def standings(self) -> list[dict[str, JSON]]:
        """The ``standings`` list of the JSON report: the candidate first, then the opponent."""
        f = self.figures
        games = f.counts
        rows: list[dict[str, JSON]] = []
        for side, name in enumerate(self.names):
            sign = 1.0 if side == 0 else -1.0
            counts = None if games is None else (games if side == 0 else games.swapped())
            low, high = (f.elo_low, f.elo_high) if side == 0 else (_neg(f.elo_high), _neg(f.elo_low))
            rows.append(
                {
                    "player": name,
                    "games": f.games,
                    "wins": None if counts is None else counts.wins,
                    "losses": None if counts is None else counts.losses,
                    "draws": None if counts is None else counts.draws,
                    "score": f.score if side == 0 else 1.0 - f.score,
                    "elo": None if f.elo is None else sign * f.elo + 0.0,
                    "elo_ci95": [low, high],
                }
            )
        return rows

    def to_json(self) -> dict[str, JSON]:
        """The report as one JSON object: ``standings`` and ``match`` (section 6.6)."""
        f = self.figures
        match: dict[str, JSON] = {
            "model": f.model,
            "score": f.score,
            "elo": f.elo,
            "elo_ci95": [f.elo_low, f.elo_high],
            "nelo": f.nelo,
            "nelo_ci95": [f.nelo_low, f.nelo_high],
            "los": f.los,
            "draw_ratio": f.draw_ratio,
            "penta": None if f.penta is None else f.penta.to_json(),
            "pairs_ratio": f.pairs_ratio,
            "sprt": None if self.sprt is None else self.sprt.to_json(),
        }
        return {"standings": self.standings(), "match": match}


def _neg(value: float | None) -> float | None:
    return None if value is None else -value + 0.0


def match_stats(
    sample: Trinomial | Pentanomial,
    sprt_config: SprtConfig | None = None,
    names: tuple[str, str] = ("A", "B"),
) -> MatchStats:
    """Figures (and SPRT, if configured) for a trinomial or pentanomial sample."""
    figures = pentanomial(sample) if isinstance(sample, Pentanomial) else trinomial(sample)
    return MatchStats(figures, None if sprt_config is None else sprt(sprt_config, sample), names)


DASH: Final = "—"


def _fixed(value: float, digits: int = 2) -> str:
    """Fixed-point text without a minus sign on a value that rounds to zero."""
    text = f"{value:.{digits}f}"
    return text[1:] if text.startswith("-") and float(text) == 0.0 else text


def _signed(value: float, digits: int = 2) -> str:
    text = _fixed(value, digits)
    return text if text.startswith("-") else f"+{text}"


def format_elo(f: EloFigures) -> str:
    """The Elo part of the report: ``Elo: -43.66 +/- 29.43``, or a one-sided bound (section 6.4).

    >>> format_elo(trinomial(Trinomial(6, 0, 0)))
    'Elo: > +77.5 (95 %)'
    """
    if f.elo is None:
        if f.elo_low is not None:
            return f"Elo: > {_signed(f.elo_low, 1)} (95 %)"
        if f.elo_high is not None:
            return f"Elo: < {_signed(f.elo_high, 1)} (95 %)"
        return f"Elo: {DASH}"
    half = f.elo_halfwidth
    if half is not None:
        return f"Elo: {_fixed(f.elo)} +/- {half:.2f}"
    if f.elo_low is not None:
        return f"Elo: {_fixed(f.elo)} (95 %: > {_signed(f.elo_low, 1)})"
    if f.elo_high is not None:
        return f"Elo: {_fixed(f.elo)} (95 %: < {_signed(f.elo_high, 1)})"
    return f"Elo: {_fixed(f.elo)} (95 %: unbounded)"


def _percent(value: float | None, digits: int) -> str:
    return DASH if value is None else f"{100.0 * value:.{digits}f} %"


def _number(value: float | None, digits: int = 2) -> str:
    return DASH if value is None else f"{value:.{digits}f}"


def format_sprt(result: SprtResult) -> str:
    """The LLR line: ``LLR: -0.69 (-2.94, 2.94) [0.00, 5.00]``, plus the decision once taken."""
    lower, upper = result.bounds
    line = (
        f"LLR: {_fixed(result.llr)} ({lower:.2f}, {upper:.2f}) "
        f"[{_fixed(result.config.elo0)}, {_fixed(result.config.elo1)}]"
    )
    if result.config.model != "normalized":
        line += f" {result.config.model}"
    return line if result.decision is None else f"{line} - {result.decision} accepted"


def format_report(stats: MatchStats) -> list[str]:
    """The body of the report of section 6.6 as text lines (the header and forfeits are the runner's)."""
    f = stats.figures
    nelo = DASH if f.nelo is None else f"{_fixed(f.nelo)} +/- {_number(f.nelo_halfwidth)}"
    line2 = f"LOS: {_percent(f.los, 2)}, DrawRatio: {_percent(f.draw_ratio, 1)}"
    if f.penta is not None:
        line2 += f", PairsRatio: {_number(f.pairs_ratio)}"
    points = f.score * f.games
    if f.counts is None:
        tally = f"Games: {f.games}, Wins: {DASH}, Losses: {DASH}, Draws: {DASH}"
    else:
        c = f.counts
        tally = f"Games: {f.games}, Wins: {c.wins}, Losses: {c.losses}, Draws: {c.draws}"
    lines = [
        f"{format_elo(f)}, nElo: {nelo}",
        line2,
        f"{tally}, Points: {points:.1f} ({100.0 * f.score:.2f} %)",
    ]
    if f.penta is not None:
        lines.append(f"Ptnml(0-2): [{', '.join(str(n) for n in f.penta.counts)}]")
    if stats.sprt is not None:
        lines.append(format_sprt(stats.sprt))
    return lines


# ---------------------------------------------------------------------------------------------------------
# Single-player series (section 8)


@dataclass(frozen=True, slots=True)
class RunSummary:
    """Summary of a series of single-player runs; means and spreads are over the successful runs only."""

    scores: tuple[float | None, ...]
    n: int
    mean: float | None
    sd: float | None
    se: float | None
    ci_low: float | None
    ci_high: float | None
    median: float | None
    minimum: float | None
    maximum: float | None
    failures: Mapping[str, int] = field(default_factory=dict)

    @property
    def halfwidth(self) -> float | None:
        """Half-width h of the 95 % interval on the mean."""
        return halfwidth(self.ci_low, self.ci_high)

    def to_json(self) -> dict[str, JSON]:
        """The player's entry of the JSON report (section 8)."""
        return {
            "scores": list(self.scores),
            "n": self.n,
            "mean": self.mean,
            "sd": self.sd,
            "se": self.se,
            "ci95": [self.ci_low, self.ci_high],
            "median": self.median,
            "min": self.minimum,
            "max": self.maximum,
            "failures": dict(self.failures),
        }


def t_halfwidth(sd: float, n: int, confidence: float = 0.95) -> float:
    """Student's t half-width t₀.₉₇₅,ₙ₋₁ · sd / √n of an interval on a mean of ``n`` ≥ 2 values.

    >>> round(t_halfwidth(1.0, 10), 4)
    0.7154
    """
    return float(student_t.ppf(0.5 + confidence / 2.0, n - 1)) * sd / math.sqrt(n)


def summarize_runs(
    scores: Sequence[float | None],
    reasons: Sequence[str | None] = (),
    *,
    failure_score: float | None = None,
) -> RunSummary:
    """Mean, sd (n − 1), standard error, t interval, median, min and max of a series (section 8).

    ``None`` is a failed run; ``reasons[i]`` names why run i failed (default ``"failed"``). With
    ``failure_score`` failures count at that score, as the faithful tournament scored them.

    >>> s = summarize_runs([10.0, 12.0, None, 14.0], [None, None, "timeout", None])
    >>> s.n, s.mean, s.sd, dict(s.failures), round(s.halfwidth, 3)
    (3, 12.0, 2.0, {'timeout': 1}, 4.968)
    """
    if reasons and len(reasons) != len(scores):
        raise StatsInputError(f"{len(reasons)} failure reasons for {len(scores)} runs")
    failures: Counter[str] = Counter(
        (reasons[i] or "failed") if reasons else "failed" for i, x in enumerate(scores) if x is None
    )
    used = [x if x is not None else failure_score for x in scores]
    values = [float(x) for x in used if x is not None]
    if any(not math.isfinite(x) for x in values):
        raise StatsInputError("run scores must be finite numbers")
    n = len(values)
    mean = statistics.fmean(values) if n else None
    sd = statistics.stdev(values) if n >= 2 else None
    se = None if sd is None else sd / math.sqrt(n)
    half = None if sd is None else t_halfwidth(sd, n)
    return RunSummary(
        scores=tuple(None if x is None else float(x) for x in scores),
        n=n,
        mean=mean,
        sd=sd,
        se=se,
        ci_low=None if mean is None or half is None else mean - half,
        ci_high=None if mean is None or half is None else mean + half,
        median=statistics.median(values) if n else None,
        minimum=min(values) if n else None,
        maximum=max(values) if n else None,
        failures=dict(sorted(failures.items())),
    )


def format_mean(summary: RunSummary, digits: int = 1) -> str:
    """The mean with its half-width, ``2041.3 ± 8.2 (95 %, n = 50)``.

    >>> format_mean(summarize_runs([10.0, 12.0, 14.0]))
    '12.0 ± 5.0 (95 %, n = 3)'
    """
    if summary.mean is None:
        return f"{DASH} (n = 0)"
    half = DASH if summary.halfwidth is None else f"{summary.halfwidth:.{digits}f}"
    return f"{summary.mean:.{digits}f} ± {half} (95 %, n = {summary.n})"


def runs_needed(summary: RunSummary, halfwidth: float) -> int | None:
    """Runs n ≈ (t · s / H)² that bring the interval's half-width to ``halfwidth``; ``None`` without an sd.

    >>> runs_needed(summarize_runs([10.0, 12.0, 14.0]), 1.0)
    18
    """
    if halfwidth <= 0.0 or not math.isfinite(halfwidth):
        raise StatsInputError(f"target half-width must be a positive number, got {halfwidth}")
    if summary.sd is None:
        return None
    # t depends on n itself. The normal quantile is below every t quantile, so (z s / H)² is a lower
    # bound, and the half-width falls with n: count up from there to the first n that is small enough.
    n = max(2, math.ceil((Z95 * summary.sd / halfwidth) ** 2))
    while t_halfwidth(summary.sd, n) > halfwidth:
        n += 1
    return n


@dataclass(frozen=True, slots=True)
class PairedComparison:
    """Two bots on the same seeds: mean difference A − B with its t interval and A's share of wins."""

    n: int
    mean_diff: float | None
    ci_low: float | None
    ci_high: float | None
    share_a_higher: float | None

    def to_json(self) -> dict[str, JSON]:
        """The comparison as a JSON object."""
        return {
            "n": self.n,
            "mean_diff": self.mean_diff,
            "ci95": [self.ci_low, self.ci_high],
            "share_a_higher": self.share_a_higher,
        }


def compare_paired(a: Sequence[float | None], b: Sequence[float | None]) -> PairedComparison:
    """Compare two series run on the same seeds, over the seeds where both succeeded (ties count half).

    >>> c = compare_paired([3.0, 5.0, 4.0], [1.0, 5.0, 2.0])
    >>> c.n, round(c.mean_diff, 4), round(c.share_a_higher, 4)
    (3, 1.3333, 0.8333)
    """
    if len(a) != len(b):
        raise StatsInputError(f"paired series differ in length: {len(a)} and {len(b)} runs")
    both = [(x, y) for x, y in zip(a, b, strict=True) if x is not None and y is not None]
    diffs = summarize_runs([x - y for x, y in both])
    share = None if not both else sum(1.0 if x > y else 0.5 if x == y else 0.0 for x, y in both) / len(both)
    return PairedComparison(diffs.n, diffs.mean, diffs.ci_low, diffs.ci_high, share)
