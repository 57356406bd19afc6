"""The fast kernels against the clear rules: same moves, same boards, same stocks and phases, move by move.

Random playouts on every map of the shared data (through the ``shared_data`` fixture) and on the
project's own maps; bomb phases are reached on the small maps with bombs. Make/unmake is held to
the clear rules by perft on small trees (every node of the tree is made and unmade).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gridarena.games.reversixt.fast import FastBoard, perft
from gridarena.games.reversixt.formats import HOLE, MapFormatError, parse_map, read_map
from gridarena.games.reversixt.rules import PHASE_OVER, ReversiState, ReversiXT

PROJECT_MAPS = sorted((Path(__file__).parents[3] / "src/gridarena/games/reversixt/maps").glob("*.map"))
FULL_GAME_CELLS = 400
"""Maps up to this many fields are played to the end (bomb phase included); larger ones for :data:`PLIES`."""
PLIES = 40


def data_maps(root: Path) -> list[Path]:
    """Every map file of the shared data that the strict parser accepts."""
    found = []
    for path in sorted((root / "reversixt").rglob("*.map")):
        try:
            read_map(path)
        except MapFormatError:
            continue  # evilMap01 and scope: the parser's negative cases
        found.append(path)
    return found


def clear_moves(state: ReversiState) -> list[tuple[int, int, int]]:
    return [tuple(m) for m in state.legal_actions()]  # type: ignore[misc]


def assert_same(board: FastBoard, state: ReversiState, where: str) -> None:
    mover, moves = board.legal_moves()
    snap = board.snapshot()
    assert snap["cells"] == state.cells, f"{where}: boards differ"
    assert snap["overrides"] == state.overrides, f"{where}: override stocks differ"
    assert snap["bombs"] == state.bombs, f"{where}: bomb stocks differ"
    assert snap["phase"] == state.phase, f"{where}: phase {snap['phase']} vs {state.phase}"
    if state.phase != PHASE_OVER:
        assert mover == state.mover, f"{where}: mover {mover} vs {state.mover}"
        assert moves == clear_moves(state), f"{where}: moves differ"


def playout(game: ReversiXT, seed: int, plies: int | None) -> int:
    """Play a random game on both engines, comparing after every move; the plies played."""
    state = game.new_initial_state()
    board = FastBoard(game.board)
    rng = random.Random(seed)
    played = 0
    assert_same(board, state, f"{game.board.name} start")
    while not state.is_terminal() and (plies is None or played < plies):
        move = rng.choice(state.legal_actions())
        state = state.apply_action(move)
        board.play(tuple(move))  # type: ignore[arg-type]
        played += 1
        assert_same(board, state, f"{game.board.name} seed {seed} ply {played} after {move}")
    return played


def test_playouts_on_every_data_map(shared_data: Path) -> None:
    maps = data_maps(shared_data)
    assert len(maps) >= 40
    bombs_seen = 0
    for path in maps:
        game = ReversiXT(str(path))
        small = len(game.board.cells) - game.board.cells.count(HOLE) <= FULL_GAME_CELLS
        playout(game, seed=len(path.name), plies=None if small else PLIES)
        bombs_seen += small and game.board.bombs > 0
    assert bombs_seen >= 5  # the bomb phase was played on several maps


@pytest.mark.parametrize("path", PROJECT_MAPS, ids=[p.stem for p in PROJECT_MAPS])
def test_playouts_on_project_maps(path: Path) -> None:
    for seed in range(3):
        playout(ReversiXT(str(path)), seed, None)


def clear_perft(state: ReversiState, depth: int) -> int:
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    return sum(clear_perft(state.child(a), depth - 1) for a in state.legal_actions())


@pytest.mark.parametrize(
    "name, depth",
    [
        ("maps/example.map", 2),
        ("maps/boeseMaps/boeseMap11.map", 3),
        ("maps/initialMaps/crown.map", 2),
        ("maps/ue08-bomben/bomben01.map", 2),
        ("maps/fightclub/map.map", 2),
        ("maps/initialMaps/infinity.map", 3),
    ],
)
def test_perft_matches_clear_rules(shared_data: Path, name: str, depth: int) -> None:
    game = ReversiXT(str(shared_data / "reversixt/semmelsamu-reversixt-bot" / name))
    state = game.new_initial_state()
    assert perft(game.board, depth) == clear_perft(state, depth)


def test_perft_in_the_bomb_phase_matches_clear_rules(shared_data: Path) -> None:
    """Bombs through transitions, radius 2: make/unmake patches and restores the step table."""
    game = ReversiXT(str(shared_data / "reversixt/semmelsamu-reversixt-bot/maps/initialMaps/infinity.map"))
    state, rng = game.new_initial_state(), random.Random(4)
    while state.phase == 1:
        state = state.child(rng.choice(state.legal_actions()))
    assert state.phase == 2
    assert perft(state, 3) == clear_perft(state, 3)


def othello_text(rows: list[str]) -> str:
    return "2 1 1 1 4 4\n" + "\n".join(" ".join(r) for r in rows) + "\n0 0 0 <-> 3 3 4\n"


@settings(deadline=None, max_examples=40)
@given(st.lists(st.sampled_from("00012xcib-"), min_size=16, max_size=16), st.integers(0, 3))
def test_random_small_boards_match_clear_rules(cells: list[str], depth: int) -> None:
    """Random 4x4 boards with every cell kind and a transition: perft agrees with the clear rules."""
    rows = ["".join(cells[i * 4 : i * 4 + 4]) for i in range(4)]
    if rows[0][0] == "-" or rows[3][3] == "-":
        rows[0] = "0" + rows[0][1:]
        rows[3] = rows[3][:3] + "0"
    try:
        m = parse_map(othello_text(rows))
    except MapFormatError:
        return
    state: Any = ReversiXT.from_map(m).new_initial_state()
    assert perft(state, depth) == clear_perft(state, depth)


def test_othello_start_counts() -> None:
    m = read_map(Path(__file__).parents[3] / "src/gridarena/games/reversixt/maps/othello8.map")
    assert [perft(m, d) for d in range(1, 7)] == [4, 12, 56, 244, 1396, 8200]
