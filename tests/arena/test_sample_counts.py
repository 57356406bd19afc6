"""Game and pair counts of two entrants: validation and the two ways of counting (game by game, pair by pair)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gridarena.arena.counts import Pentanomial, StatsInputError, Trinomial
from gridarena.arena.elo import pentanomial


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


@given(st.lists(st.tuples(st.sampled_from([0.0, 0.5, 1.0]), st.sampled_from([0.0, 0.5, 1.0])), min_size=1))
def test_pairs_and_games_count_the_same_results(pairs: list[tuple[float, float]]) -> None:
    penta = Pentanomial.from_pairs(pairs)
    assert penta.pairs == len(pairs)
    assert penta.trinomial() == Trinomial.from_scores([x for pair in pairs for x in pair])
    assert pentanomial(penta).score == pytest.approx(sum(a + b for a, b in pairs) / (2 * len(pairs)))


def test_game_points_must_be_a_result() -> None:
    with pytest.raises(StatsInputError, match=r"0\.7"):
        Trinomial.from_scores([1.0, 0.7])
