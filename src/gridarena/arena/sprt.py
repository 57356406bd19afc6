"""The sequential probability ratio test of two entrants, as fishtest and fastchess run it.

H0: elo = elo0 against H1: elo = elo1, in normalized Elo (the default) or plain ("logistic") Elo. The LLR
is the generalized SPRT's: the maximum-likelihood outcome distribution under each hypothesis (Van den
Bergh, "Comments on Normalized Elo"), on pentanomial counts when games are paired. The tournament checks it
after each completed block and stops scheduling at a decision.

>>> from gridarena.arena.counts import Trinomial
>>> result = sprt(SprtConfig(0, 5), Trinomial(3400, 3000, 3600))
>>> round(result.llr, 2), result.bounds[1] < result.llr, result.decision
(6.16, True, 'H1')
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal, TypeAlias

from scipy.optimize import brentq

from gridarena.arena.counts import GAME_SCORES, PAIR_SCORES, Pentanomial, Sample, StatsInputError
from gridarena.arena.elo import NELO_SCALE, elo_to_score, figures
from gridarena.core.types import JSON

MAX_NORMALIZED_ELO: Final = 200.0
"""Largest |elo0|, |elo1| the normalized SPRT accepts (see :class:`SprtConfig`)."""

SprtModel: TypeAlias = Literal["normalized", "logistic"]
Decision: TypeAlias = Literal["H0", "H1"]


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


def sprt_llr(config: SprtConfig, sample: Sample) -> float:
    """The generalized SPRT log-likelihood ratio of fishtest and fastchess (``sprt.cpp``).

    Pentanomial samples scale normalized hypotheses by √2, since a pair's σ is per pair.

    >>> from gridarena.arena.counts import Trinomial
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


def sprt_llr_approx(config: SprtConfig, sample: Sample) -> float | None:
    """The solver-free cross-check N (s₁ − s₀)(2ŝ − s₀ − s₁) / (2σ̂²); ``None`` when σ̂ is 0.

    >>> from gridarena.arena.counts import Trinomial
    >>> round(sprt_llr_approx(SprtConfig(0, 2), Trinomial(36433, 36027, 68692)), 2)
    0.92
    """
    f = figures(sample)
    units = sample.pairs if isinstance(sample, Pentanomial) else sample.games
    if f.variance <= 0.0:
        return None
    if config.model == "normalized":
        sigma = math.sqrt(f.variance)
        t_scale = math.sqrt(2.0) if isinstance(sample, Pentanomial) else 1.0
        s0 = 0.5 + t_scale * config.elo0 / NELO_SCALE * sigma
        s1 = 0.5 + t_scale * config.elo1 / NELO_SCALE * sigma
    else:
        s0, s1 = elo_to_score(config.elo0), elo_to_score(config.elo1)
    return units * (s1 - s0) * (2.0 * f.score - s0 - s1) / (2.0 * f.variance)


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


def sprt(config: SprtConfig, sample: Sample) -> SprtResult:
    """LLR and decision for a sample; the runner calls it after each block and stops at a decision."""
    llr = sprt_llr(config, sample)
    return SprtResult(config, llr, sprt_decision(config, llr, figures(sample).variance))
