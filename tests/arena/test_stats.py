"""Two-entrant statistics and single-player summaries against the spec's vectors (sections 6 and 8)."""

from __future__ import annotations

import argparse
import json
import math
import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gridarena.arena.stats import (
    Pentanomial,
    SprtConfig,
    StatsInputError,
    Trinomial,
    compare_paired,
    elo,
    elo_to_score,
    format_elo,
    format_mean,
    format_report,
    match_stats,
    pentanomial,
    runs_needed,
    sprt,
    sprt_llr,
    sprt_llr_approx,
    summarize_runs,
    t_halfwidth,
    trinomial,
    wilson_interval,
)
from gridarena.cli import stats as stats_cli
from gridarena.core.errors import GridArenaError

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


SPRT_VECTORS = [
    (SprtConfig(0, 2), Trinomial(36433, 36027, 68692), 0.92, 0.01),
    (SprtConfig(0, 2), Pentanomial(365, 16618, 36029 + 200, 16974, 390, wl=36029), 2.25, 0.01),
    (SprtConfig(0.5, 2.5, model="logistic"), Trinomial(21404, 21184, 40708), -1.57, 0.01),
    # The report of section 6.6: only 128 pairs, so the quadratic cross-check is looser there.
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


@pytest.mark.parametrize(
    ("make", "fragment"),
    [
        (lambda: Trinomial(0, 0, 0), "no results"),
        (lambda: Trinomial(-1, 2, 3), "wins"),
        (lambda: Pentanomial(1, 1, 2, 1, 1, wl=3), "WL pairs"),
    ],
)
def test_bad_counts_are_refused(make: object, fragment: str) -> None:
    with pytest.raises(StatsInputError, match=fragment):
        make()  # type: ignore[operator]


def test_wilson_interval_matches_definition() -> None:
    low, high = wilson_interval(0.3, 20)
    z = 1.959964
    centre = (0.3 + z * z / 40) / (1 + z * z / 20)
    half = z * math.sqrt(0.3 * 0.7 / 20 + z * z / 1600) / (1 + z * z / 20)
    assert (low, high) == pytest.approx((centre - half, centre + half), rel=1e-6)


def test_pentanomial_split_gives_the_reported_game_counts() -> None:
    stats = match_stats(Pentanomial(13, 37, 50, 25, 3, wl=20), SprtConfig(0, 5))
    assert format_report(stats) == [
        "Elo: -43.66 +/- 29.43, nElo: -63.97 +/- 42.56",
        "LOS: 0.16 %, DrawRatio: 47.7 %, PairsRatio: 0.56",
        "Games: 256, Wins: 51, Losses: 83, Draws: 122, Points: 112.0 (43.75 %)",
        "Ptnml(0-2): [13, 37, 50, 25, 3]",
        "LLR: -0.69 (-2.94, 2.94) [0.00, 5.00]",
    ]


# ----------------------------------------------------------------------------------------------------------
# Properties


counts = st.integers(0, 400)


@st.composite
def trinomials(draw: st.DrawFn) -> Trinomial:
    w, lo, d = draw(counts), draw(counts), draw(counts)
    if w + lo + d == 0:
        d = 1
    return Trinomial(w, lo, d)


@st.composite
def pentanomials(draw: st.DrawFn) -> Pentanomial:
    values = [draw(st.integers(0, 200)) for _ in range(5)]
    if sum(values) == 0:
        values[2] = 1
    wl = draw(st.none() | st.integers(0, values[2]))
    ll, ld, dd, wd, ww = values
    return Pentanomial(ll, ld, dd, wd, ww, wl=wl)


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


@given(st.lists(st.tuples(st.sampled_from([0.0, 0.5, 1.0]), st.sampled_from([0.0, 0.5, 1.0])), min_size=1))
def test_pairs_and_games_count_the_same_results(pairs: list[tuple[float, float]]) -> None:
    penta = Pentanomial.from_pairs(pairs)
    assert penta.pairs == len(pairs)
    assert penta.trinomial() == Trinomial.from_scores([x for pair in pairs for x in pair])
    assert pentanomial(penta).score == pytest.approx(sum(a + b for a, b in pairs) / (2 * len(pairs)))


def test_game_points_must_be_a_result() -> None:
    with pytest.raises(StatsInputError, match=r"0\.7"):
        Trinomial.from_scores([1.0, 0.7])


@given(st.floats(-1500, 1500))
def test_elo_and_score_are_inverse(x: float) -> None:
    e = elo(elo_to_score(x))
    assert e is not None and e == pytest.approx(x, abs=1e-6)


# ----------------------------------------------------------------------------------------------------------
# Command line (each row of section 6.5)


def _cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    parser = argparse.ArgumentParser()
    stats_cli.configure(parser)
    assert stats_cli.run(parser.parse_args(argv)) == 0
    return capsys.readouterr().out


def _cli_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    data: dict[str, object] = json.loads(_cli([*argv, "--json"], capsys))
    return data


def test_cli_cutechess_row(capsys: pytest.CaptureFixture[str]) -> None:
    out = _cli(["--wld", "3225", "3068", "3707"], capsys)
    assert out.splitlines()[:2] == [
        "Elo: 5.46 +/- 5.40, nElo: 6.88 +/- 6.81",
        "LOS: 97.61 %, DrawRatio: 37.1 %",
    ]
    match = _cli_json(["--wld", "3225", "3068", "3707"], capsys)["match"]
    assert isinstance(match, dict)
    assert [round(x, 2) for x in match["elo_ci95"]] == [0.05, 10.86]


def test_cli_pentanomial_rows(capsys: pytest.CaptureFixture[str]) -> None:
    out = _cli(["--penta", "13", "37", "50", "25", "3", "--wl", "20", "--sprt", "0,5,0.05,0.05"], capsys)
    assert "Elo: -43.66 +/- 29.43, nElo: -63.97 +/- 42.56" in out
    assert "LLR: -0.69 (-2.94, 2.94) [0.00, 5.00]" in out
    out = _cli(["--penta", "34", "54", "63", "64", "75", "--wl", "31"], capsys)
    assert out.startswith("Elo: 55.58 +/- 27.65, nElo: 57.94 +/- 28.28")
    data = _cli_json(["--penta", "13", "37", "50", "25", "3"], capsys)
    match = data["match"]
    assert isinstance(match, dict)
    assert match["penta"] == [13, 37, 50, 25, 3] and match["draw_ratio"] is None
    assert round(match["los"] * 100, 2) == 0.16


def test_cli_fastchess_trinomial_row(capsys: pytest.CaptureFixture[str]) -> None:
    assert _cli(["--wld", "136", "96", "111"], capsys).startswith(
        "Elo: 40.70 +/- 30.43, nElo: 49.77 +/- 36.77"
    )


@pytest.mark.parametrize(
    ("argv", "llr"),
    [
        (["--wld", "36433", "36027", "68692", "--sprt", "0,2,0.05,0.05"], 0.92),
        (
            ["--penta", "365", "16618", "36229", "16974", "390", "--wl", "36029", "--sprt", "0,2,0.05,0.05"],
            2.25,
        ),
        (
            ["--wld", "21404", "21184", "40708", "--sprt", "0.5,2.5,0.05,0.05", "--sprt-model", "logistic"],
            -1.57,
        ),
    ],
)
def test_cli_sprt_rows(argv: list[str], llr: float, capsys: pytest.CaptureFixture[str]) -> None:
    match = _cli_json(argv, capsys)["match"]
    assert isinstance(match, dict)
    assert round(match["sprt"]["llr"], 2) == llr
    assert match["sprt"]["decision"] is None


def test_cli_six_nil(capsys: pytest.CaptureFixture[str]) -> None:
    out = _cli(["--wld", "6", "0", "0", "--sprt", "0,5,0.05,0.05"], capsys)
    assert out.startswith("Elo: > +77.5 (95 %), nElo: —")
    assert "LOS: 99.28 %" in out
    raw = _cli(["--wld", "6", "0", "0", "--json"], capsys)
    assert "Infinity" not in raw and "NaN" not in raw
    data = json.loads(raw)
    assert data["standings"][0]["elo"] is None
    assert round(data["standings"][0]["elo_ci95"][0], 1) == 77.5
    assert data["standings"][1]["elo_ci95"][0] is None
    assert round(data["standings"][1]["elo_ci95"][1], 1) == -77.5


def test_cli_table_and_names(capsys: pytest.CaptureFixture[str]) -> None:
    out = _cli(["--penta", "13", "37", "50", "25", "3", "--table", "--names", "new,old"], capsys)
    assert "new vs old" in out and "-43.66" in out
    data = _cli_json(["--wld", "5", "3", "2", "--names", "new,old"], capsys)
    standings = data["standings"]
    assert isinstance(standings, list)
    assert [row["player"] for row in standings] == ["new", "old"]
    assert standings[1]["wins"] == 3 and standings[1]["losses"] == 5


@pytest.mark.parametrize(
    "argv",
    [
        ["--wld", "0", "0", "0"],
        ["--wld", "1", "2", "3", "--wl", "1"],
        ["--wld", "1", "2", "3", "--sprt", "5,0,0.05,0.05"],
        ["--wld", "1", "2", "3", "--names", "solo"],
    ],
)
def test_cli_bad_input_raises_gridarena_error(argv: list[str]) -> None:
    parser = argparse.ArgumentParser()
    stats_cli.configure(parser)
    with pytest.raises(GridArenaError):
        stats_cli.run(parser.parse_args(argv))


# ----------------------------------------------------------------------------------------------------------
# Section 8: single-player series


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
