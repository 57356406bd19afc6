"""The garbage collector kept off the harness's objects while a bot thinks (core/collector.py)."""

from __future__ import annotations

import gc
import io
import json
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from gridarena.bots.base import RandomBot
from gridarena.bots.jsonl import serve as serve_jsonl
from gridarena.core.bot import Decision
from gridarena.core.clock import TimeControl
from gridarena.core.collector import freeze_startup, game_heap
from gridarena.core.play import play_game
from gridarena.core.registry import make
from gridarena.core.types import GameState
from gridarena.games.iceandfire.protocol import CodinGameBot
from gridarena.games.iceandfire.protocol import serve as serve_codingame


@pytest.fixture(autouse=True)
def _unfrozen() -> Iterator[None]:
    gc.unfreeze()  # a doctest that served a bot in this process may have frozen it
    yield
    gc.unfreeze()


def test_game_heap_freezes_for_the_block_then_collects_what_died() -> None:
    alive = [[n] for n in range(500)]
    with game_heap():
        assert gc.get_freeze_count() >= len(alive)
        cycle: list[Any] = []
        cycle.append(cycle)
        del cycle  # the game's own garbage in a cycle: collected by the passes it still has
    assert gc.get_freeze_count() == 0


def test_freeze_startup_keeps_what_is_alive_out_of_every_later_pass() -> None:
    alive = [[n] for n in range(500)]
    freeze_startup()
    assert gc.get_freeze_count() >= len(alive)


class Noting(RandomBot):
    """A random bot that notes how many objects the garbage collector keeps out of its passes on
    each move."""

    def __init__(self) -> None:
        super().__init__(1)
        self.frozen: list[int] = []

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        self.frozen.append(gc.get_freeze_count())
        return super().act(state, clock)


GAME = make("isolation(width=5,height=5)")


def test_a_timed_game_keeps_what_lived_before_it_out_of_the_collectors_passes() -> None:
    # A full pass over the package's imports costs 20-45 ms; charged to a 50 ms move it forfeited
    # Ice and Fire games. During a timed game the old objects are frozen.
    keep = [[n] for n in range(1000)]  # alive before the game: frozen during it, not after
    bots = [Noting(), Noting()]
    play_game(GAME, bots, seed=2, time_per_move=5.0)
    assert all(count >= len(keep) for bot in bots for count in bot.frozen) and bots[0].frozen
    assert gc.get_freeze_count() == 0  # everything back in sight, and collected once
    untimed = [Noting(), Noting()]
    play_game(GAME, untimed, seed=2)  # no clock: nothing to protect
    assert {count for bot in untimed for count in bot.frozen} == {0}


def test_a_timed_game_ended_by_an_exception_still_unfreezes() -> None:
    class Broken:
        def turn(self, turn: Any, state: Any) -> None:
            raise OSError("disk full")

        def result(self, record: Any) -> None:
            pass

    with pytest.raises(OSError, match="disk full"):
        play_game(GAME, [Noting(), Noting()], seed=1, time_per_move=5.0, recorders=[Broken()])
    assert gc.get_freeze_count() == 0


def test_a_jsonl_program_moves_with_its_imports_frozen() -> None:
    game = make("isolation(width=3,height=3)")
    state = game.new_initial_state(1)
    messages = [
        {"type": "start", "game": "isolation", "options": {"width": 3, "height": 3}, "seat": 0, "seed": 1},
        {"type": "turn", "state": state.to_json(), "legal": None},
        {"type": "end", "result": {"returns": [1.0, -1.0]}},
    ]
    bot = Noting()
    assert serve_jsonl(bot, [json.dumps(m) for m in messages], io.StringIO()) == 1
    assert bot.frozen and bot.frozen[0] > 1000


class Waiter(CodinGameBot):
    """Answers WAIT and notes the frozen count on each turn."""

    def new_game(self) -> None:
        self.frozen: list[int] = []

    def turn(self, lines: Sequence[str]) -> str:
        self.frozen.append(gc.get_freeze_count())
        return "WAIT"


def test_a_codingame_program_moves_with_its_imports_frozen() -> None:
    state = make("iceandfire").new_initial_state(seed=1)
    text = state.codingame_init(0) + state.codingame_turn(0)
    lines = iter(text.splitlines(keepends=True))
    bot = Waiter()
    assert serve_codingame(bot, lambda: next(lines, ""), io.StringIO().write) == 1
    assert bot.frozen and bot.frozen[0] > 1000
