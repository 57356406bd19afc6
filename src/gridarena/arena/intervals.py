"""95 % intervals, the one place their arithmetic lives: normal, Wilson and Student's t half-widths.

The Elo figures of two entrants, the Plackett–Luce ratings of many and the single-player summaries
all print a value with the half-width of its interval; each computes it here.

>>> low, high = symmetric(0.5, normal_halfwidth(0.25, 100))
>>> round(low, 4), round(high, 4)
(0.402, 0.598)
"""

from __future__ import annotations

import math
from typing import Final

from scipy.stats import norm
from scipy.stats import t as student_t

Z95: Final = float(norm.ppf(0.975))
"""Φ⁻¹(0.975) = 1.959964: the two-sided 95 % quantile of the normal distribution."""


def halfwidth(low: float | None, high: float | None) -> float | None:
    """Half the width of an interval, the ± of a report; ``None`` if an end is open.

    >>> halfwidth(-3.0, 5.0), halfwidth(None, 5.0)
    (4.0, None)
    """
    return None if low is None or high is None else (high - low) / 2.0


def symmetric(centre: float, half: float) -> tuple[float, float]:
    """The interval ``centre`` ± ``half``.

    >>> symmetric(10.0, 2.5)
    (7.5, 12.5)
    """
    return centre - half, centre + half


def normal_halfwidth(variance: float, n: int, z: float = Z95) -> float:
    """z · √(variance / n): the half-width of a normal interval on a mean of ``n`` units.

    >>> round(normal_halfwidth(1.0, 4), 4)
    0.98
    """
    return z * math.sqrt(variance / n)


def wilson_interval(score: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion ``score`` observed in ``n`` trials.

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


def t_halfwidth(sd: float, n: int, confidence: float = 0.95) -> float:
    """Student's t half-width t₀.₉₇₅,ₙ₋₁ · sd / √n of an interval on a mean of ``n`` ≥ 2 values.

    >>> round(t_halfwidth(1.0, 10), 4)
    0.7154
    """
    return float(student_t.ppf(0.5 + confidence / 2.0, n - 1)) * sd / math.sqrt(n)
