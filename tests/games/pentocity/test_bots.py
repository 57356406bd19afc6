"""Players: the vectorised placement scoring against the rules, and whole games without an invalid move."""

from __future__ import annotations

import numpy as np
import pytest

from gridarena.games.pentocity import Move, Pentocity, PentocityState
from gridarena.games.pentocity.ai.simple import UNREACHABLE, ExampleBot, RowByRowBot, road_cost, shortest_road
from gridarena.games.pentocity.bots import make_example_bot, make_rowbyrow_bot
from gridarena.games.pentocity.buildings import PENTO, Building, rect
from gridarena.games.pentocity.land import placement_mask
from gridarena.games.pentocity.simulator import play

from .positions import played


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("request_", [PENTO[1], rect(2, 3), PENTO[13]])
def test_road_cost_agrees_with_the_rules(seed: int, request_: Building) -> None:
    base = played(seed, 60)
    state = PentocityState(base.game, base.land, base.sequencer, request_)
    for rotation, shape in enumerate(request_.rotations()):
        cost = road_cost(state.land, shape, request_.kind, state.pentocity)
        assert np.array_equal(
            cost == 0, placement_mask(state.land, shape, request_.kind, state.pentocity.mode)
        )
        for i, j in np.argwhere(cost < UNREACHABLE)[::37]:
            location = (int(i), int(j))
            cells = tuple((a + location[0], b + location[1]) for a, b in shape)
            road = frozenset() if cost[i, j] == 0 else shortest_road(state.land, cells)
            if road is None:
                continue  # the only paths ran through the building's own cells
            assert len(road) >= cost[i, j]
            assert state.check(Move.build(location, rotation, road)) is None
        for i, j in np.argwhere(cost == UNREACHABLE)[::11]:
            violation = state.check(Move.build((int(i), int(j)), rotation))
            assert violation is not None and violation.check == "buildable"


def test_shortest_road_from_the_nearest_edge_or_road() -> None:
    state = played(4, 0)
    assert shortest_road(state.land, ((0, 5),)) == frozenset()
    assert shortest_road(state.land, ((10, 2),)) == frozenset({(10, 0), (10, 1)})


@pytest.mark.parametrize("sequencer", ["random", "misfits", "g1", "starsandblocks"])
def test_bots_play_whole_games_without_invalid_moves(sequencer: str) -> None:
    game = Pentocity(sequencer=sequencer, cpu_time=None)
    example = play(game, make_example_bot(game, 1), seed=869).final_state
    rowbyrow = play(game, make_rowbyrow_bot(game, 1), seed=869).final_state
    assert example.termination == rowbyrow.termination == "normal"
    assert rowbyrow.score > example.score > 0


def test_example_bot_builds_ponds_and_fields_for_residences() -> None:
    game = Pentocity(sequencer="g6", cpu_time=None)
    record = play(game, ExampleBot(), seed=1, bot_seed=5)
    assert any(" water " in t.action and " park " in t.action for t in record.turns)
    assert record.final_state.score > 5 * record.final_state.accepted  # bonuses were earned
    assert RowByRowBot().name == "rowbyrow"
