"""The record of a played game as the ratings see it: validation, and its sources."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gridarena.arena.rated import RatedGame, RatingError


def test_bad_records_are_refused() -> None:
    with pytest.raises(RatingError, match="twice"):
        RatedGame(("A", "A"), (1, 2))
    with pytest.raises(RatingError, match="ranks"):
        RatedGame(("A", "B"), (1,))


def test_a_stored_row_becomes_a_record() -> None:
    row = {"seats": ["b", "a"], "ranks": [2, 1], "returns": [-1.0, 1.0], "block": 4}
    row |= {"termination": "timeout", "forfeit_seat": 0}
    assert RatedGame.from_row(row) == RatedGame(("b", "a"), (2, 1), (-1.0, 1.0), 4, "timeout", 0)


@given(
    st.lists(st.integers(1, 5), min_size=2, max_size=5),
    st.integers(0, 99),
    st.sampled_from(["normal", "timeout", "crash"]),
)
def test_rated_game_json_round_trip(ranks: list[int], block: int, termination: str) -> None:
    names = tuple(f"bot{i}" for i in range(len(ranks)))
    record = RatedGame(names, tuple(ranks), tuple(float(r) for r in ranks), block, termination, 0)
    assert RatedGame.from_json(record.to_json()) == record
