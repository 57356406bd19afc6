"""Every game sends ``legal`` to programs: a program that plays only from it finishes a game of each."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any, Final

import pytest

from gridarena.bots.external import ExternalBot
from gridarena.core.play import play_game
from gridarena.core.registry import available_games, make
from gridarena.core.types import GameState, OffersLegalTexts, legal_texts

#: A random choice from ``legal``, nothing else (the docs' example program).
FROM_LEGAL: Final = Path(__file__).resolve().parents[2] / "examples" / "random_bot.py"

#: A small game of each registered game (a new game plays its default).
SMALL: Final = {
    "isolation": "isolation(width=5,height=5)",
    "reversixt": "reversixt(map=mini)",
    "iceandfire": "iceandfire",
    "pentocity": "pentocity(sequencer=misfits)",
    "slidingpuzzle": "slidingpuzzle(rows=2,cols=3,scramble=20,max_moves=60)",
}


@pytest.mark.parametrize("name", available_games())
def test_a_program_playing_only_from_legal_finishes_a_game(name: str) -> None:
    game = make(SMALL.get(name, name))
    bots = [ExternalBot(f"{sys.executable} {FROM_LEGAL}", name=f"legal{p}") for p in range(game.num_players)]
    try:
        record = play_game(game, bots, seed=3, time_per_move=10.0)
    finally:
        for bot in bots:
            bot.close()
    assert record.outcome.termination == "normal", record.outcome.reason
    assert record.plies > 2


def walk(game_spec: str, seed: int, plies: int) -> list[GameState[Any]]:
    """States of a seeded random game (the players' turns only)."""
    state, rng, seen = make(game_spec).new_initial_state(seed=seed), random.Random(seed), []
    while not state.is_terminal() and len(seen) < plies:
        if state.current_player() >= 0:
            seen.append(state)
        state = state.apply_action(state.random_action(rng))
    return seen


@pytest.mark.parametrize("name", available_games())
def test_every_text_of_legal_is_a_legal_action(name: str) -> None:
    for state in walk(SMALL.get(name, name), seed=7, plies=12):
        texts = legal_texts(state)
        assert texts, f"{name}: no legal texts at {state!r}"
        assert len(texts) == len(set(texts))
        sample = texts if len(texts) <= 60 else random.Random(1).sample(texts, 60)
        for text in sample:
            assert state.illegal_reason(state.string_to_action(text)) is None, (name, text)


@pytest.mark.parametrize("name", ["pentocity", "iceandfire"])
def test_games_that_cannot_list_actions_offer_texts(name: str) -> None:
    state = walk(SMALL[name], seed=2, plies=3)[-1]
    assert not state.game.enumerable_actions and isinstance(state, OffersLegalTexts)


def test_pentocity_texts_are_its_placements_and_reject() -> None:
    state = walk("pentocity(sequencer=random)", seed=4, plies=6)[-1]
    assert state.legal_texts() == [state.action_to_string(m) for m in state.placements()] + ["reject"]
    assert len(state.placements()) > 100


def test_ice_and_fire_texts_are_single_commands_that_the_referee_carries_out() -> None:
    for state in walk("iceandfire", seed=5, plies=30)[::6]:
        texts = state.legal_texts()
        assert texts[0] == "WAIT" and all(";" not in t for t in texts)
        for text in texts[1:]:
            after = state.after_commands(state.string_to_action(text))
            assert after.log == state.log, text  # nothing skipped: the referee played it
