"""The SPRT against fastchess's vectors (``sprt_test.cpp``) and our report's, its decisions and its configuration."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from statsamples import pentanomials, trinomials

from gridarena.arena.counts import Pentanomial, StatsInputError, Trinomial
from gridarena.arena.sprt import SprtConfig, sprt, sprt_llr, sprt_llr_approx

SPRT_VECTORS = [
    (SprtConfig(0, 2), Trinomial(36433, 36027, 68692), 0.92, 0.01),
    (SprtConfig(0, 2), Pentanomial(365, 16618, 36029 + 200, 16974, 390, wl=36029), 2.25, 0.01),
    (SprtConfig(0.5, 2.5, model="logistic"), Trinomial(21404, 21184, 40708), -1.57, 0.01),
    # The match report's example: only 128 pairs, so the quadratic cross-check is looser there.
    (SprtConfig(0, 5), Pentanomial(13, 37, 50, 25, 3), -0.69, 0.02),
]


@pytest.mark.parametrize(("config", "sample", "expected", "tolerance"), SPRT_VECTORS)
def test_sprt_vectors(
    config: SprtConfig, sample: Trinomial | Pentanomial, expected: float, tolerance: float
) -> None:
    llr = sprt_llr(config, sample)
    assert round(llr, 2) == expected
    approx = sprt_llr_approx(config, sample)
    assert approx is not None and abs(approx - llr) < tolerance


def test_zero_variance_gives_no_sprt_decision() -> None:
    result = sprt(SprtConfig(-200, -150), Trinomial(200, 0, 0))
    assert result.llr > result.bounds[1]
    assert result.decision is None


def test_sprt_decides_h1_and_h0() -> None:
    assert sprt(SprtConfig(0, 5), Trinomial(3400, 3000, 3600)).decision == "H1"
    assert sprt(SprtConfig(0, 5), Trinomial(3000, 3400, 3600)).decision == "H0"
    assert sprt(SprtConfig(0, 5), Trinomial(10, 9, 11)).decision is None


def test_sprt_bounds() -> None:
    lower, upper = SprtConfig(0, 5).bounds
    assert (round(lower, 3), round(upper, 3)) == (-2.944, 2.944)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("5,0,0.05,0.05", "elo0 must be less than elo1"),
        ("0,5,0,0.05", "alpha"),
        ("0,5,0.05,1.5", "beta"),
        ("0,5,0.6,0.5", r"alpha \+ beta"),
        ("0,300,0.05,0.05", "within"),
        ("0,5,0.05", "4 values"),
        ("0,x,0.05,0.05", "elo1"),
        ("0,nan,0.05,0.05", "finite"),
    ],
)
def test_bad_sprt_configs_name_the_value(text: str, fragment: str) -> None:
    with pytest.raises(StatsInputError, match=fragment):
        SprtConfig.parse(text)


# ----------------------------------------------------------------------------------------------------------
# Properties


@given(
    trinomials() | pentanomials(),
    st.floats(-200, 199),
    st.floats(0.1, 50),
    st.sampled_from(["normalized", "logistic"]),
)
@settings(max_examples=100, deadline=None)
def test_sprt_llr_is_finite(sample: Trinomial | Pentanomial, elo0: float, width: float, model: str) -> None:
    config = SprtConfig(elo0, min(elo0 + width, 200.0), model=model)  # type: ignore[arg-type]
    assert math.isfinite(sprt_llr(config, sample))


@given(trinomials())
@settings(max_examples=60, deadline=None)
def test_sprt_llr_is_close_to_its_approximation(sample: Trinomial) -> None:
    config = SprtConfig(0, 5)
    llr = sprt_llr(config, sample)
    # The quadratic cross-check is a local expansion: close once every outcome class is well populated
    # and the sample's score is near the hypotheses.
    if min(sample.wins, sample.losses, sample.draws) >= 100 and 5 * abs(sample.wins - sample.losses) <= (
        sample.wins + sample.losses
    ):
        approx = sprt_llr_approx(config, sample)
        assert approx is not None and abs(approx - llr) < 0.05 * max(1.0, abs(llr))
