"""Pentocity's analyser: best's playouts as a function of the position, so best's own placement has no regret."""

from __future__ import annotations

from typing import Any

from gridarena import make
from gridarena.games.pentocity.analysis import PentocityAnalyser


def test_pentocity_regret_is_zero_along_bests_own_playout() -> None:
    game = make("pentocity")
    analyser = PentocityAnalyser(game, 60.0)
    state: Any = game.new_initial_state(5)
    state = state.child(state.chance_outcomes()[0][0])
    value = analyser.evaluate(state, 0)
    assert value is not None and value.exact and value.best is not None
    after = state.apply_action(state.string_to_action(value.best))
    after = after.child(after.chance_outcomes()[0][0])
    again = analyser.evaluate(after, 0)
    assert again is not None and again.value == value.value  # best's own placement has no regret
