"""Single-player series: mean, spread and Student's t interval over seeded runs.

A bot plays a single-player game (Pentocity, a sliding puzzle) on many seeds. Failed runs are counted by
reason and left out of the mean (or scored at a fixed value, as a faithful tournament scored them); the
half-width of the 95 % interval is what tells whether more runs are needed; two bots run on the same
seeds are compared run by run.

>>> s = summarize_runs([2041.0, 2030.5, 2050.0, None], [None, None, None, "timeout"])
>>> s.n, round(s.mean, 1), dict(s.failures)
(3, 2040.5, {'timeout': 1})
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from gridarena.arena.counts import StatsInputError
from gridarena.arena.intervals import Z95, halfwidth, symmetric, t_halfwidth
from gridarena.core.types import JSON


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
        """The player's entry of the JSON report."""
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


def summarize_runs(
    scores: Sequence[float | None],
    reasons: Sequence[str | None] = (),
    *,
    failure_score: float | None = None,
) -> RunSummary:
    """Mean, sd (n − 1), standard error, t interval, median, min and max of a series.

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
    low, high = (None, None) if mean is None or half is None else symmetric(mean, half)
    return RunSummary(
        scores=tuple(None if x is None else float(x) for x in scores),
        n=n,
        mean=mean,
        sd=sd,
        se=se,
        ci_low=low,
        ci_high=high,
        median=statistics.median(values) if n else None,
        minimum=min(values) if n else None,
        maximum=max(values) if n else None,
        failures=dict(sorted(failures.items())),
    )


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
