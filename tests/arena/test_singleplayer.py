"""Single-player series: summaries, t intervals, runs needed, paired comparisons."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gridarena.arena.counts import StatsInputError
from gridarena.arena.intervals import t_halfwidth
from gridarena.arena.singleplayer import compare_paired, runs_needed, summarize_runs
from gridarena.arena.text import format_mean


def test_run_summary_against_scipy_free_computation() -> None:
    scores = [2041.0, 2030.5, 2050.0, None, 2044.5, 2038.0]
    s = summarize_runs(scores, [None, None, None, "timeout", None, None])
    values = [2041.0, 2030.5, 2050.0, 2044.5, 2038.0]
    mean = sum(values) / 5
    sd = math.sqrt(sum((x - mean) ** 2 for x in values) / 4)
    assert s.n == 5 and s.mean == pytest.approx(mean) and s.sd == pytest.approx(sd)
    assert s.se == pytest.approx(sd / math.sqrt(5))
    assert s.halfwidth == pytest.approx(2.776445 * sd / math.sqrt(5), rel=1e-6)  # t(0.975, 4)
    assert (s.median, s.minimum, s.maximum) == (2041.0, 2030.5, 2050.0)
    assert s.failures == {"timeout": 1}
    assert s.to_json()["scores"] == [2041.0, 2030.5, 2050.0, None, 2044.5, 2038.0]


def test_run_summary_scores_failures_like_the_tournament() -> None:
    s = summarize_runs([10.0, None, 14.0], failure_score=-1.0)
    assert s.n == 3 and s.mean == pytest.approx(23.0 / 3) and s.failures == {"failed": 1}


def test_run_summary_small_samples_have_nulls() -> None:
    assert summarize_runs([None]).to_json()["mean"] is None
    one = summarize_runs([5.0])
    assert (one.mean, one.sd, one.halfwidth) == (5.0, None, None)
    assert format_mean(one) == "5.0 ± — (95 %, n = 1)"
    assert runs_needed(one, 1.0) is None


def test_runs_needed_reaches_the_target() -> None:
    rng = random.Random(3)
    s = summarize_runs([rng.gauss(100.0, 10.0) for _ in range(12)])
    assert s.sd is not None
    n = runs_needed(s, 2.0)
    assert n is not None
    assert t_halfwidth(s.sd, n) <= 2.0 < t_halfwidth(s.sd, n - 1)


def test_paired_comparison() -> None:
    c = compare_paired([5.0, 7.0, None, 6.0, 6.0], [4.0, 7.5, 3.0, 5.0, 6.0])
    assert c.n == 4
    assert c.mean_diff == pytest.approx((1.0 - 0.5 + 1.0 + 0.0) / 4)
    assert c.share_a_higher == pytest.approx((1 + 0 + 1 + 0.5) / 4)
    assert c.ci_low is not None and c.ci_high is not None and c.mean_diff is not None
    assert c.ci_low < c.mean_diff < c.ci_high
    with pytest.raises(StatsInputError):
        compare_paired([1.0], [1.0, 2.0])


@given(st.lists(st.floats(-1e6, 1e6) | st.none(), max_size=30))
def test_run_summary_interval_contains_the_mean(scores: list[float | None]) -> None:
    s = summarize_runs(scores)
    assert s.n == sum(x is not None for x in scores)
    assert sum(s.failures.values()) == len(scores) - s.n
    if s.mean is not None and s.ci_low is not None and s.ci_high is not None:
        assert s.ci_low <= s.mean + 1e-6 and s.mean - 1e-6 <= s.ci_high
        assert s.minimum is not None and s.maximum is not None
        assert s.minimum - 1e-6 <= s.mean <= s.maximum + 1e-6
