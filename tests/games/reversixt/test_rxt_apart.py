"""Players apart from the searcher (the engine's ``apart``): found on islands, ignored by the search,
and nothing changed where every player is linked."""

from __future__ import annotations

import pytest

from gridarena.core.registry import make_bot
from gridarena.games.reversixt.fast.engine import Engine
from gridarena.games.reversixt.formats import parse_map
from gridarena.games.reversixt.rules import ReversiState, ReversiXT

# Two islands of a 14x6 board, two columns of holes between them: players 1 and 2 on the left,
# 3 and 4 on the right (as comp2024_04_8p puts players 1-4 and 5-8 on separate halves).
ROWS = [
    "0 0 0 0 0 0 - - 0 0 0 0 0 0",
    "0 0 0 0 0 0 - - 0 0 0 0 0 0",
    "0 0 1 2 0 0 - - 0 0 3 4 0 0",
    "0 0 2 1 0 0 - - 0 0 4 3 0 0",
    "0 0 0 0 0 0 - - 0 0 0 0 0 0",
    "0 0 0 0 0 0 - - 0 0 0 0 0 X",
]


def islands(far: str = "0") -> ReversiXT:
    """The island map; ``far`` is the field in the right island's corner (``3``: one more stone of 3)."""
    rows = "\n".join(ROWS).replace("X", far)
    return ReversiXT.from_map(parse_map(f"4\n0\n0 0\n6 14\n{rows}\n"))


def apart(engine: Engine, state: ReversiState, root: int) -> list[int]:
    engine.board.load(state)
    mask = engine.apart_from(root)
    return [k for k in range(1, 5) if mask[k]]


def test_players_on_another_island_are_apart_and_the_option_off_finds_none() -> None:
    game = islands()
    state = game.new_initial_state()
    assert apart(Engine(game.board, mode="brs", apart=8), state, 1) == [3, 4]
    assert apart(Engine(game.board, mode="brs", apart=8), state, 4) == [1, 2]
    assert apart(Engine(game.board, mode="brs", apart=0), state, 1) == []
    assert apart(Engine(game.board, mode="maxn", apart=8), state, 1) == []  # max^n values everyone


def test_a_player_within_reach_is_linked_and_through_him_the_others() -> None:
    # Without the holes the islands are 6 steps apart: 8 links them, 5 does not.
    game = ReversiXT.from_map(
        parse_map("4\n0\n0 0\n6 14\n" + "\n".join(ROWS).replace("-", "0").replace("X", "0"))
    )
    state = game.new_initial_state()
    assert apart(Engine(game.board, apart=8), state, 1) == []
    assert apart(Engine(game.board, apart=5), state, 1) == [3, 4]


@pytest.mark.parametrize("mode", ["paranoid", "brs"])
def test_the_search_of_a_player_ignores_the_players_apart(mode: str) -> None:
    # One more stone on the other island, of player 3 or of player 4 (the same number of stones, so
    # the same fill of the board): player 1's search cannot tell them apart with ``apart`` only.
    results = {}
    for reach in (0, 8):
        for far in ("3", "4"):
            game = islands(far)
            engine = Engine(game.board, mode=mode, evaluation="map", apart=reach)
            found = engine.search(game.new_initial_state(), max_depth=4)
            results[reach, far] = (found.move, found.score, found.nodes)
    assert results[8, "3"] == results[8, "4"]
    assert results[0, "3"] != results[0, "4"]  # without it, the other island's players move and count


def test_where_every_player_is_linked_the_search_is_unchanged() -> None:
    game = ReversiXT("sampler")
    state = game.new_initial_state()
    for _ in range(6):  # a position six moves in (apply_action returns the next state)
        state = state.apply_action(state.legal_actions()[0])
    found = [
        Engine(game.board, mode=mode, evaluation="map", apart=reach).search(state, max_depth=5)
        for mode in ("paranoid", "brs")
        for reach in (0, 8)
    ]
    for off, on in (found[0:2], found[2:4]):
        assert (off.move, off.score, off.depth, off.nodes) == (on.move, on.score, on.depth, on.nodes)


def test_the_bot_takes_apart_as_a_parameter() -> None:
    game = islands()
    bot = make_bot(game, "best(apart=8)")
    assert bot.engine(game.board).apart == 8  # type: ignore[attr-defined]
