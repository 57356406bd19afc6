"""Elo figures of two entrants against published vectors (cutechess's output, fastchess's ``elo_test.cpp``) and our own."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from statsamples import pentanomials, trinomials

from gridarena.arena.counts import Pentanomial, Trinomial
from gridarena.arena.elo import elo, elo_to_score, pentanomial, trinomial
from gridarena.arena.match import match_stats
from gridarena.arena.sprt import SprtConfig
from gridarena.arena.text import format_elo, format_report

# ----------------------------------------------------------------------------------------------------------
# Section 6.5 vectors


def r(value: float | None, digits: int = 2) -> float:
    """``value`` rounded, failing the test if it is undefined."""
    assert value is not None
    return round(value, digits)


def test_vector_cutechess_trinomial() -> None:
    f = trinomial(Trinomial(3225, 3068, 3707))
    assert f.score == pytest.approx(0.50785, abs=5e-6)
    assert (r(f.elo, 2), r(f.elo_low, 2), r(f.elo_high, 2)) == (5.46, 0.05, 10.86)
    assert (r(f.elo, 1), r(f.elo_halfwidth, 1)) == (5.5, 5.4)
    assert (r(f.nelo, 2), r(f.nelo_halfwidth, 2)) == (6.88, 6.81)
    assert round(100 * f.los, 1) == 97.6
    assert f.draw_ratio is not None and round(100 * f.draw_ratio, 1) == 37.1


def test_vector_pentanomial_128_pairs() -> None:
    f = pentanomial(Pentanomial(13, 37, 50, 25, 3))
    assert f.score == 0.4375
    assert r(f.variance, 6) == 0.057617
    assert (r(f.elo, 2), r(f.elo_low, 2), r(f.elo_high, 2)) == (-43.66, -73.40, -14.54)
    assert (r(f.nelo, 2), r(f.nelo_halfwidth, 2)) == (-63.97, 42.56)
    assert round(100 * f.los, 2) == 0.16
    assert f.pairs_ratio == pytest.approx(0.56)


def test_vector_fastchess_trinomial() -> None:
    f = trinomial(Trinomial(136, 96, 111))
    assert (r(f.elo, 2), r(f.elo_halfwidth, 2)) == (40.70, 30.43)
    assert (r(f.nelo, 2), r(f.nelo_halfwidth, 2)) == (49.77, 36.77)
    assert round(100 * f.los, 2) == 99.57  # cutechess's LOS; fastchess's own formula gives 99.60


def test_vector_fastchess_pentanomial() -> None:
    f = pentanomial(Pentanomial(ll=34, ld=54, dd=31 + 32, wd=64, ww=75, wl=31))
    assert (r(f.elo, 2), r(f.elo_halfwidth, 2)) == (55.58, 27.65)
    assert (r(f.nelo, 2), r(f.nelo_halfwidth, 2)) == (57.94, 28.28)


def test_vector_six_nil() -> None:
    f = trinomial(Trinomial(6, 0, 0))
    assert f.elo is None and f.elo_high is None and f.nelo is None
    assert r(f.elo_low, 1) == 77.5
    assert round(100 * f.los, 1) == 99.3
    assert format_elo(f) == "Elo: > +77.5 (95 %)"


# ----------------------------------------------------------------------------------------------------------
# Section 6.4: degenerate samples


DEGENERATE = [
    Trinomial(6, 0, 0),
    Trinomial(0, 6, 0),
    Trinomial(0, 0, 6),
    Trinomial(1, 0, 0),
    Trinomial(0, 1, 0),
    Trinomial(0, 0, 1),
    Trinomial(1, 1, 0),
    Pentanomial(0, 0, 0, 0, 3),
    Pentanomial(3, 0, 0, 0, 0),
    Pentanomial(0, 0, 4, 0, 0, wl=4),
    Pentanomial(0, 0, 0, 5, 0),
    Pentanomial(0, 0, 0, 0, 1),
]


def _numbers(value: object) -> Iterator[float]:
    if isinstance(value, float):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _numbers(item)
    elif isinstance(value, list):
        for item in value:
            yield from _numbers(item)


@pytest.mark.parametrize("sample", DEGENERATE, ids=repr)
def test_degenerate_samples_print_no_inf_or_nan(sample: Trinomial | Pentanomial) -> None:
    stats = match_stats(sample, SprtConfig(0, 5))
    text = "\n".join(format_report(stats)).lower()
    assert "inf" not in text and "nan" not in text
    document = json.dumps(stats.to_json(), allow_nan=False)  # raises on inf or nan
    assert all(math.isfinite(x) for x in _numbers(json.loads(document)))


def test_zero_loss_sample_has_open_upper_bound_and_null_ratio() -> None:
    stats = match_stats(Pentanomial(0, 0, 0, 2, 3))
    data = stats.to_json()
    assert round(data["match"]["elo"], 2) == 381.70  # s = 0.9, but s + 1.96 σ/√P is beyond 1
    assert data["match"]["elo_ci95"][1] is None
    assert format_elo(stats.figures) == "Elo: 381.70 (95 %: > +232.9)"
    assert data["match"]["pairs_ratio"] is None
    assert "PairsRatio: —" in format_report(stats)[1]


# ----------------------------------------------------------------------------------------------------------
# Properties


@given(trinomials() | pentanomials())
@settings(max_examples=150, deadline=None)
def test_figures_are_finite_and_consistent(sample: Trinomial | Pentanomial) -> None:
    f = match_stats(sample).figures
    assert 0.0 <= f.score <= 1.0
    assert 0.0 <= f.los <= 1.0
    assert all(x is None or math.isfinite(x) for x in _numbers(f.to_json()))
    if f.elo is not None:
        assert f.elo_low is None or f.elo_low <= f.elo + 1e-9
        assert f.elo_high is None or f.elo <= f.elo_high + 1e-9
    if f.nelo is not None:
        assert f.nelo_low is not None and f.nelo_high is not None
        assert f.nelo_low <= f.nelo <= f.nelo_high
    text = "\n".join(format_report(match_stats(sample, SprtConfig(0, 5))))
    assert "nan" not in text.lower() and "inf" not in text.lower()


@given(trinomials() | pentanomials())
@settings(max_examples=100, deadline=None)
def test_swapping_sides_flips_the_signs(sample: Trinomial | Pentanomial) -> None:
    f = match_stats(sample).figures
    g = match_stats(sample.swapped()).figures
    assert g.score == pytest.approx(1.0 - f.score, abs=1e-12)
    assert (f.elo is None) == (g.elo is None)
    if f.elo is not None and g.elo is not None:
        assert g.elo == pytest.approx(-f.elo, abs=1e-9)
    assert (f.elo_low is None) == (g.elo_high is None)
    if f.elo_low is not None and g.elo_high is not None:
        assert g.elo_high == pytest.approx(-f.elo_low, abs=1e-9)
    assert g.los == pytest.approx(1.0 - f.los, abs=1e-9)


@given(st.floats(-1500, 1500))
def test_elo_and_score_are_inverse(x: float) -> None:
    e = elo(elo_to_score(x))
    assert e is not None and e == pytest.approx(x, abs=1e-6)
