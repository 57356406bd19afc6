"""The map-reading evaluation's features (stability, frontier, potential mobility, stones next to an
empty corner, bonus fields within reach) from the numba kernel against a plain-Python twin on the clear rules, on random
positions of the competition maps and the project's maps; and the evaluation's options."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from gridarena.core.clock import TimeControl
from gridarena.core.errors import GridArenaError
from gridarena.core.registry import make_bot
from gridarena.games.reversixt.ai.search import parse_weights
from gridarena.games.reversixt.capture import captures
from gridarena.games.reversixt.fast import evaluate, layout
from gridarena.games.reversixt.fast.engine import Engine
from gridarena.games.reversixt.formats import BONUS, EXPANSION, HOLE, is_stone, parse_map
from gridarena.games.reversixt.geometry import step, step_table
from gridarena.games.reversixt.rules import ReversiState, ReversiXT

COMPETITION = (
    "olekuhlmann-Advanced-Reversi-AI/2023_comp_5_2p.map",
    "semmelsamu-reversixt-bot/maps/fightclub/2013_comp_5_2p.map",
    "semmelsamu-reversixt-bot/maps/fightclub/comp2020_02_4p.map",
    "semmelsamu-reversixt-bot/maps/initialMaps/window.map",
    "semmelsamu-reversixt-bot/maps/fightclub/map.map",
)


def twin_features(state: ReversiState) -> dict[str, list[int]]:
    """Per player 1..p (index 1..p of each list): the four features, written from their definitions."""
    game, cells, p = state.game, state.cells, state.players
    table = step_table(game.board)
    initial = game.board.cells
    n = len(cells)

    def steps(c: int, board: bytes = cells) -> list[int | None]:
        return [None if (s := step(table, board, c, d)) is None else s[0] for d in range(8)]

    def open_axes(c: int) -> int:
        around = steps(c, initial)
        return sum(around[a] is not None and around[a + 4] is not None for a in range(4))

    out = {name: [0] * 9 for name in ("stable", "frontier", "potential", "corner_next", "bonus")}
    stable: set[int] = set()
    changed = True
    while changed:  # the fixpoint, over every stone each round
        changed = False
        for c in range(n):
            k = cells[c]
            if not is_stone(k) or c in stable:
                continue
            around = steps(c)
            if all(
                any(x is None or (x in stable and cells[x] == k) for x in (around[a], around[a + 4]))
                for a in range(4)
            ):
                stable.add(c)
                changed = True
    for c in stable:
        out["stable"][cells[c]] += 1
    for c in range(n):
        k = cells[c]
        around = [x for x in steps(c) if x is not None]
        if is_stone(k):
            out["frontier"][k] += any(not is_stone(cells[x]) and cells[x] != EXPANSION for x in around)
        elif k not in (HOLE, EXPANSION):
            owners = {cells[x] for x in around if is_stone(cells[x])}
            for j in range(1, p + 1):
                out["potential"][j] += bool(owners - {j})
    for c in range(n):
        if cells[c] == BONUS:
            for j in range(1, p + 1):
                out["bonus"][j] += state.disqualified[j - 1] is None and bool(captures(table, cells, c, j))
    corners = [c for c in range(n) if initial[c] != HOLE and open_axes(c) == 0]
    for c in corners:
        if is_stone(cells[c]) or cells[c] in (EXPANSION, HOLE):
            continue
        for x in {x for x in steps(c, initial) if x is not None and open_axes(x) > 0}:
            if is_stone(cells[x]):
                out["corner_next"][cells[x]] += 1
    return out


def kernel_features(engine: Engine, state: ReversiState) -> dict[str, list[int]]:
    b = engine.board
    b.load(state)
    base = evaluate.features(b.cells, b.geo, b.st, engine.ev, b.buf, b.marks)
    rows = engine.ev[base : base + 9 * layout.FEATURES].reshape(layout.FEATURES, 9)
    return {name: [int(v) for v in rows[i]] for i, name in enumerate(layout.TERMS[: layout.FEATURES])}


def random_positions(game: ReversiXT, seed: int, every: int = 3) -> list[ReversiState]:
    """Phase-1 positions of one random game, every ``every`` plies."""
    rng, state, found, ply = random.Random(seed), game.new_initial_state(), [], 0
    while not state.is_terminal() and state.phase == 1:
        if ply % every == 0:
            found.append(state)
        state = state.apply_action(rng.choice(state.legal_actions()))
        ply += 1
    return found


def check_map(game: ReversiXT, seeds: range) -> int:
    engine = Engine(game.board, evaluation="map")
    checked = 0
    for seed in seeds:
        for state in random_positions(game, seed):
            assert kernel_features(engine, state) == twin_features(state), f"seed {seed}, ply {state.ply}"
            checked += 1
    return checked


@pytest.mark.parametrize("name", ["sampler", "othello8", "mini"])
def test_features_match_the_twin_on_project_maps(name: str) -> None:
    assert check_map(ReversiXT(name), range(3)) > 3


@pytest.mark.parametrize("rel", COMPETITION, ids=[Path(r).stem for r in COMPETITION])
def test_features_match_the_twin_on_competition_maps(shared_data: Path, rel: str) -> None:
    assert check_map(ReversiXT(str(shared_data / "reversixt" / rel)), range(2)) > 3


def test_a_corner_stone_is_stable_and_its_run_along_a_wall() -> None:
    # Row 0 of a 4x4 board: 1 1 2 0. The corner (0,0) and (1,0) beside it on the wall are stable for
    # player 1; player 2's (2,0) is not (its row continues to an empty field).
    game = ReversiXT.from_map(parse_map("2 0 0 0 4 4  1 1 2 0  1 2 0 0  0 0 0 0  0 0 0 0"))
    features = kernel_features(Engine(game.board, evaluation="map"), game.new_initial_state())
    assert features["stable"][1] == 3 and features["stable"][2] == 0  # (0,0), (1,0) and (0,1)


def test_weights_parse_and_reach_the_engine() -> None:
    assert parse_weights("stable=10/5, frontier=0") == {"stable": (10, 5), "frontier": (0, 0)}
    with pytest.raises(GridArenaError, match="unknown term 'stabel'"):
        parse_weights("stabel=1")
    with pytest.raises(GridArenaError, match="is not term=early/late"):
        parse_weights("stable=a")
    game = ReversiXT("othello8")
    bot = make_bot(game, "best(weights='stable=7/3')")
    bot.reset(game, 0, 1)
    engine = bot.engine(game.board)  # type: ignore[attr-defined]
    assert list(engine.ctl[layout.W2 : layout.W2 + 2]) == [7, 3]
    assert bot.act(game.new_initial_state(), TimeControl(depth=3)).info["depth"] == 3
    assert np.all(engine.weights >= 0)  # no static penalty: the corner-adjacent term is dynamic
