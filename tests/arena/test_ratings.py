"""Plackett–Luce ratings and their bootstrap against fixed vectors."""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gridarena.arena.counts import Trinomial
from gridarena.arena.elo import elo, trinomial
from gridarena.arena.rated import RatedGame, RatingError
from gridarena.arena.ratings import (
    ELO_PER_NAT,
    _Problem,
    bootstrap_ratings,
    fit_ratings,
    game_stages,
    game_stages_by_orders,
    merge_stages,
)

ABC = ("A", "B", "C")


def _game(*ranks: int, entrants: tuple[str, ...] = ABC, block: int = 0) -> RatedGame:
    return RatedGame(entrants, ranks, block=block)


def _two(wins: int, losses: int, draws: int = 0) -> list[RatedGame]:
    return (
        [_game(1, 2, entrants=("A", "B"))] * wins
        + [_game(2, 1, entrants=("A", "B"))] * losses
        + [_game(1, 1, entrants=("A", "B"))] * draws
    )


SIX_GAMES = [_game(1, 2, 3)] * 3 + [_game(2, 1, 3), _game(2, 3, 1), _game(1, 1, 3)]


# ----------------------------------------------------------------------------------------------------------
# Section 7.2 vectors


def test_three_wins_one_loss() -> None:
    fit = fit_ratings(_two(3, 1), prior_games=0, anchor="B")
    assert round(fit.rating("A"), 2) == 190.85
    assert fit.rating("A") == pytest.approx(400 * math.log10(3), abs=1e-9)


def test_with_a_draw_equals_elo_of_the_score() -> None:
    fit = fit_ratings(_two(3, 1, 1), prior_games=0, anchor="B")
    assert round(fit.rating("A"), 2) == 147.19
    assert fit.rating("A") == pytest.approx(elo(3.5 / 5), abs=1e-9)


def test_three_seat_vector_without_prior() -> None:
    fit = fit_ratings(SIX_GAMES, prior_games=0, anchor="C")
    assert (round(fit.rating("A"), 2), round(fit.halfwidths[0], 2)) == (430.57, 401.27)
    assert (round(fit.rating("B"), 2), round(fit.halfwidths[1], 2)) == (289.97, 375.29)
    assert fit.rating("C") == 0.0 and fit.halfwidths[2] == pytest.approx(0.0, abs=1e-6)


def test_three_seat_vector_with_prior() -> None:
    fit = fit_ratings(SIX_GAMES, prior_games=1, anchor="C")
    assert (round(fit.rating("A"), 2), round(fit.rating("B"), 2)) == (374.59, 247.02)


@pytest.mark.parametrize(
    ("games", "prior", "anchor"),
    [
        (_two(3, 1), 0, "B"),
        (_two(3, 1, 1), 0, "B"),
        (SIX_GAMES, 0, "C"),
        (SIX_GAMES, 1, "C"),
        (SIX_GAMES, 1, None),
    ],
)
def test_shuffled_games_give_identical_ratings(
    games: list[RatedGame], prior: int, anchor: str | None
) -> None:
    reference = fit_ratings(games, prior_games=prior, anchor=anchor)
    rng = random.Random(11)
    for _ in range(5):
        shuffled = games[:]
        rng.shuffle(shuffled)
        fit = fit_ratings(shuffled, prior_games=prior, anchor=anchor, entrants=reference.entrants)
        assert fit.ratings == pytest.approx(reference.ratings, abs=1e-9)
        assert fit.halfwidths == pytest.approx(reference.halfwidths, abs=1e-9)


def test_seat_order_within_a_game_does_not_matter() -> None:
    turned = [RatedGame(("C", "A", "B"), (g.ranks[2], g.ranks[0], g.ranks[1])) for g in SIX_GAMES]
    a = fit_ratings(SIX_GAMES, prior_games=0, anchor="C")
    b = fit_ratings(turned, prior_games=0, anchor="C", entrants=ABC)
    assert b.ratings == pytest.approx(a.ratings, abs=1e-9)


# ----------------------------------------------------------------------------------------------------------
# Anchors, intervals, prior


def test_mean_anchor_centres_the_ratings() -> None:
    fit = fit_ratings(SIX_GAMES, prior_games=0)
    assert sum(fit.ratings) == pytest.approx(0.0, abs=1e-9)
    anchored = fit_ratings(SIX_GAMES, prior_games=0, anchor="C")
    for name in ABC:
        assert fit.rating(name) - fit.rating("C") == pytest.approx(anchored.rating(name), abs=1e-9)


def test_difference_interval_matches_anchored_interval() -> None:
    fit = fit_ratings(SIX_GAMES, prior_games=0)
    diff, half = fit.difference("A", "C")
    anchored = fit_ratings(SIX_GAMES, prior_games=0, anchor="C")
    assert diff == pytest.approx(anchored.rating("A"), abs=1e-9)
    assert half == pytest.approx(anchored.halfwidths[0], abs=1e-6)


def test_two_entrant_interval_matches_bradley_terry_information() -> None:
    # One Bradley-Terry parameter: information = n p (1 - p) at the fitted p = s.
    fit = fit_ratings(_two(30, 10, 10), prior_games=0, anchor="B")
    s = 35 / 50
    expected = 1.959964 * ELO_PER_NAT / math.sqrt(50 * s * (1 - s))
    assert fit.halfwidths[0] == pytest.approx(expected, rel=1e-5)


def test_prior_keeps_an_undefeated_entrant_finite() -> None:
    games = _two(5, 0)
    with pytest.raises(RatingError, match=r"nobody in \['B'\] ever beat or drew with anyone in \['A'\]"):
        fit_ratings(games, prior_games=0)
    fit = fit_ratings(games, prior_games=1, anchor="B")
    # Five wins plus half a win and half a loss each against the phantom: finite and positive.
    assert 0 < fit.rating("A") < 800 and math.isfinite(fit.halfwidths[0])


def test_prior_zero_needs_every_entrant_to_have_met_someone() -> None:
    games = [*_two(2, 1), _game(1, 2, entrants=("C", "D")), _game(2, 1, entrants=("C", "D"))]
    with pytest.raises(RatingError, match="unbounded"):
        fit_ratings(games, prior_games=0)
    fit = fit_ratings(games, prior_games=1)
    assert len(fit.ratings) == 4


def test_bad_options_are_refused() -> None:
    with pytest.raises(RatingError, match="anchor"):
        fit_ratings(SIX_GAMES, anchor="Z")
    with pytest.raises(RatingError, match="prior_games"):
        fit_ratings(SIX_GAMES, prior_games=-1)
    with pytest.raises(RatingError, match="missing"):
        fit_ratings(SIX_GAMES, entrants=("A", "B"))


@given(st.integers(1, 60), st.integers(1, 60), st.integers(0, 60))
@settings(max_examples=40, deadline=None)
def test_two_entrants_without_prior_equal_elo_of_score(wins: int, losses: int, draws: int) -> None:
    fit = fit_ratings(_two(wins, losses, draws), prior_games=0, anchor="B")
    figures = trinomial(Trinomial(wins, losses, draws))
    assert figures.elo is not None
    assert fit.rating("A") == pytest.approx(figures.elo, abs=1e-7)


# ----------------------------------------------------------------------------------------------------------
# The likelihood against readable twins


def _merged(stages: object) -> dict[tuple[frozenset[int], int], float]:
    return {(s.choice_set, s.chosen): s.weight for s in merge_stages(stages)}  # type: ignore[arg-type]


@given(st.lists(st.integers(1, 4), min_size=2, max_size=6))
@settings(max_examples=80, deadline=None)
def test_collapsed_ties_equal_all_orders(ranks: list[int]) -> None:
    record = RatedGame(tuple(f"p{i}" for i in range(len(ranks))), tuple(ranks))
    index = {name: i for i, name in enumerate(record.entrants)}
    groups = [[index[n] for n in g] for g in record.groups()]
    fast, slow = _merged(game_stages(groups)), _merged(game_stages_by_orders(groups))
    assert fast.keys() == slow.keys()
    for key, weight in fast.items():
        assert weight == pytest.approx(slow[key], abs=1e-12)


def _log_likelihood_by_orders(records: list[RatedGame], theta: dict[str, float]) -> float:
    """Σ over games of the average over tied orders of log Π γ(chosen) / Σ γ(remaining)."""
    total = 0.0
    for record in records:
        orders = list(itertools.product(*(itertools.permutations(g) for g in record.groups())))
        for parts in orders:
            order = [name for part in parts for name in part]
            for k in range(len(order) - 1):
                rest = order[k:]
                total += (theta[order[k]] - math.log(sum(math.exp(theta[n]) for n in rest))) / len(orders)
    return total


@given(st.lists(st.floats(-3, 3), min_size=3, max_size=3), st.integers(0, 10_000))
@settings(max_examples=30, deadline=None)
def test_likelihood_gradient_and_information_match_twins(values: list[float], seed: int) -> None:
    rng = random.Random(seed)
    records = [RatedGame(ABC, tuple(rng.randint(1, 3) for _ in ABC)) for _ in range(6)]
    index = {name: i for i, name in enumerate(ABC)}
    stages = merge_stages(
        s for r in records for s in game_stages([[index[n] for n in g] for g in r.groups()])
    )
    problem = _Problem.build(3, stages)
    theta = np.array(values)
    expected = _log_likelihood_by_orders(records, dict(zip(ABC, values, strict=True)))
    assert problem.log_likelihood(theta) == pytest.approx(expected, abs=1e-9)
    grad, info = problem.gradient_and_information(theta)
    h = 1e-6
    for i in range(3):
        step = np.zeros(3)
        step[i] = h
        numeric = (problem.log_likelihood(theta + step) - problem.log_likelihood(theta - step)) / (2 * h)
        assert grad[i] == pytest.approx(numeric, abs=1e-5)
        g_plus, _ = problem.gradient_and_information(theta + step)
        g_minus, _ = problem.gradient_and_information(theta - step)
        assert -(g_plus - g_minus) / (2 * h) == pytest.approx(info[:, i], abs=1e-5)


@given(st.lists(st.lists(st.integers(1, 4), min_size=4, max_size=4), min_size=1, max_size=12))
@settings(max_examples=40, deadline=None)
def test_fit_is_a_stationary_point_and_ratings_are_finite(rank_rows: list[list[int]]) -> None:
    names = ("w", "x", "y", "z")
    records = [RatedGame(names, tuple(r)) for r in rank_rows]
    fit = fit_ratings(records, prior_games=1)
    assert all(math.isfinite(x) for x in (*fit.ratings, *fit.halfwidths))
    assert sum(fit.ratings) == pytest.approx(0.0, abs=1e-7)


# ----------------------------------------------------------------------------------------------------------
# Bootstrap


def test_bootstrap_is_seeded_and_brackets_the_fit() -> None:
    games = [
        _game(*ranks, block=b)
        for b, ranks in enumerate([(1, 2, 3), (1, 3, 2), (2, 1, 3), (1, 2, 3), (3, 1, 2), (1, 1, 3)] * 4)
    ]
    a = bootstrap_ratings(games, 60, np.random.default_rng(5))
    b = bootstrap_ratings(games, 60, np.random.default_rng(5))
    assert a == b
    assert a.failed == 0
    for i in range(3):
        assert a.low[i] < a.fit.ratings[i] < a.high[i]
    data = a.to_json()
    assert data["bootstrap"] == {"resamples": 60, "failed": 0}


def test_bootstrap_without_prior_counts_unfittable_resamples() -> None:
    games = [_game(1, 2, entrants=("A", "B"), block=0), _game(2, 1, entrants=("A", "B"), block=1)]
    boot = bootstrap_ratings(games, 40, np.random.default_rng(1), prior_games=0)
    assert 0 < boot.failed < 40  # a resample of one block twice has no finite fit
