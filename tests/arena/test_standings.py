"""Crosstables and standings of many entrants."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gridarena.arena.rated import RatedGame
from gridarena.arena.standings import Crosstable, crosstable, standings
from gridarena.core.types import Outcome

ABC = ("A", "B", "C")
SIX_GAMES = [RatedGame(ABC, r) for r in [(1, 2, 3)] * 3 + [(2, 1, 3), (2, 3, 1), (1, 1, 3)]]


def test_crosstable_of_the_vector() -> None:
    table = crosstable(SIX_GAMES)
    assert table.points[0] == (0.0, 4.5, 5.0)
    assert table.games[0] == (0, 6, 6)
    assert table.score("C", "A") == pytest.approx(1 / 6)
    data = table.to_json()
    assert data["rows"][0]["vs"]["B"] == {"points": 4.5, "games": 6, "score": 0.75}


@given(st.lists(st.lists(st.integers(1, 3), min_size=3, max_size=3), min_size=1, max_size=10))
def test_crosstable_points_add_up(rank_rows: list[list[int]]) -> None:
    table = crosstable([RatedGame(ABC, tuple(r)) for r in rank_rows])
    for i, j in itertools.permutations(range(3), 2):
        assert table.points[i][j] + table.points[j][i] == table.games[i][j] == len(rank_rows)


def test_standings_with_seats_points_and_forfeits() -> None:
    records = [
        RatedGame.from_outcome(("A", "B"), Outcome((1.0, -1.0))),
        RatedGame.from_outcome(("B", "A"), Outcome((1.0, -1.0), "timeout", "slow", 1)),
        RatedGame.from_outcome(("A", "B"), Outcome((0.0, 0.0))),
    ]
    rows = {s.player: s for s in standings(records)}
    a = rows["A"]
    assert a.overall.games == 3
    assert a.overall.first_share == pytest.approx((1 + 0 + 0.5) / 3)
    assert a.overall.mean_points == pytest.approx(0.0)
    assert a.forfeits == {"timeout": 1} and rows["B"].forfeits == {}
    assert a.seats[0].games == 2 and a.seats[1].games == 1
    assert a.seats[1].mean_rank == 2.0
    assert a.to_json()["seats"]["0"]["games"] == 2


def test_a_crosstable_reads_back_from_its_json() -> None:
    table = crosstable([*SIX_GAMES, RatedGame(("A", "D"), (1, 2))])
    assert Crosstable.from_json(table.to_json()) == table
