"""The conformance checker over every registered game, and the checker's own ability to fail."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from gridarena.core.checker import check_game
from gridarena.core.errors import ConformanceError
from gridarena.core.registry import available_games, make
from gridarena.games.isolation.rules import Isolation, State


@pytest.mark.parametrize("name", available_games())
def test_every_registered_game_conforms(name: str) -> None:
    assert check_game(make(name), games=20, seed=0) > 0


@pytest.mark.parametrize(
    "spec", ["isolation(width=3,height=3)", "isolation(width=4,height=5)", "isolation(width=1,height=2)"]
)
def test_isolation_on_odd_boards_conforms(spec: str) -> None:
    check_game(make(spec), games=30, seed=11)


@dataclass(frozen=True, slots=True)
class ScoresEarly(State):
    """A broken Isolation whose returns are non-zero before the end."""

    def returns(self) -> tuple[float, ...]:
        return (1.0, -1.0)


@dataclass(frozen=True, slots=True)
class LeakyGame(Isolation):
    def new_initial_state(self, seed: int | None = None) -> State:
        return ScoresEarly(self.width, self.height)


def test_the_checker_catches_returns_before_the_end() -> None:
    with pytest.raises(ConformanceError, match=r"returns: isolation, seed 0, ply 0"):
        check_game(LeakyGame(4, 4), games=1)


@dataclass(frozen=True, slots=True)
class UnsortedMoves(State):
    def legal_actions(self) -> list[int]:
        return sorted(State.legal_actions(self), reverse=True)


@dataclass(frozen=True, slots=True)
class UnsortedGame(Isolation):
    def new_initial_state(self, seed: int | None = None) -> State:
        return UnsortedMoves(self.width, self.height)


def test_the_checker_catches_unsorted_actions() -> None:
    with pytest.raises(ConformanceError, match="legal actions are not sorted"):
        check_game(UnsortedGame(4, 4), games=1)
