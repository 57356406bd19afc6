"""Rules of the sliding puzzle: boards, slides, goals, solvability and the game API."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gridarena.core.checker import check_game
from gridarena.core.errors import ActionParseError, IllegalActionError
from gridarena.games.slidingpuzzle.board import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Board,
    BoardError,
    IllegalSlideError,
    action_of,
    action_to_text,
    apply_slide,
    cell_distances,
    goal_board,
    homework_goal,
    legal_slides,
    parse_action,
    random_walk,
    replay,
    slide,
    walk_distance,
)
from gridarena.games.slidingpuzzle.rules import SlidingPuzzle
from gridarena.games.slidingpuzzle.solvability import check_solvable


def reachable(start: Board) -> set[Board]:
    """Every board reachable from ``start`` (exhaustive; tiny boards only)."""
    seen, frontier = {start}, [start]
    while frontier:
        nxt = []
        for board in frontier:
            for action in legal_slides(board):
                child = slide(board, action)
                if child not in seen:
                    seen.add(child)
                    nxt.append(child)
        frontier = nxt
    return seen


@given(st.integers(0, 10_000), st.integers(0, 3))
def test_action_text_round_trip(cell: int, direction: int) -> None:
    action = action_of(cell, direction)
    assert parse_action(action_to_text(action)) == action


@pytest.mark.parametrize("text", ["1", "1 2 3", "a 1", "3 4", "3 -1", "-2 0", ""])
def test_bad_action_text_is_refused(text: str) -> None:
    with pytest.raises(ActionParseError):
        parse_action(text)


@pytest.mark.parametrize(
    ("cells", "message"),
    [
        ((1, 2, 3), "has 4 cells"),
        ((1, 1, 0, 2), "tile 1 appears twice"),
        ((1, 2, 3, 4), "no blank"),
        ((1, -2, 0, 3), "cell 1 holds -2"),
    ],
)
def test_invalid_boards_say_why(cells: tuple[int, ...], message: str) -> None:
    with pytest.raises(BoardError, match=message):
        Board(2, 2, cells)


def test_homework_goal_matches_the_handout() -> None:
    assert homework_goal().grid() == [
        [1, 2, 3, 4, 5],
        [6, 7, 8, -1, 10],
        [-1, 12, -1, 14, 15],
        [16, 17, 18, 0, 0],
    ]


def test_homework_example_answer_replays_to_the_goal() -> None:
    start = Board(4, 5, (1, 2, 3, 0, 4, 6, 7, 8, -1, 5, -1, 12, -1, 14, 10, 16, 17, 18, 15, 0))
    answer = [(18, RIGHT), (4, LEFT), (9, UP), (14, UP), (19, UP)]
    assert replay(start, [action_of(c, d) for c, d in answer]) == homework_goal()


def test_legal_slides_use_either_blank_and_never_walls() -> None:
    goal = homework_goal()
    assert [action_to_text(a) for a in legal_slides(goal)] == ["13 1", "14 1", "17 3"]


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (action_of(8, DOWN), "holds a wall"),
        (action_of(18, UP), "holds a blank"),
        (action_of(0, UP), "leaves the board"),
        (action_of(0, RIGHT), "not blank"),
        (action_of(25, UP), "not on the 4x5 board"),
    ],
)
def test_illegal_slides_are_refused_with_the_reason(action: int, message: str) -> None:
    with pytest.raises(IllegalSlideError, match=message):
        apply_slide(homework_goal(), action)


def test_replay_names_the_first_bad_slide() -> None:
    with pytest.raises(IllegalSlideError, match="slide 2"):
        replay(homework_goal(), [action_of(17, RIGHT), action_of(17, RIGHT)])


def test_wall_distance_goes_around_walls() -> None:
    # Tile 12 on cell 13 is 2 cells from home by Manhattan distance but 4 slides along the board.
    assert cell_distances(homework_goal())[13][11] == 4
    assert cell_distances(goal_board(3, 3))[0][8] == 4


@given(st.integers(0, 2**32), st.integers(0, 60))
def test_random_walks_are_reproducible_and_keep_the_tiles(seed: int, steps: int) -> None:
    goal = homework_goal()
    board = random_walk(goal, steps, random.Random(seed))
    assert board == random_walk(goal, steps, random.Random(seed))
    assert board.tiles == goal.tiles and board.walls == goal.walls
    assert walk_distance(board, goal) <= steps


def all_arrangements(goal: Board) -> list[Board]:
    movable = [c for c, v in enumerate(goal.cells) if v != -1]
    values = [goal.cells[c] for c in movable]
    boards = set()
    for order in itertools.permutations(values):
        cells = list(goal.cells)
        for c, v in zip(movable, order, strict=True):
            cells[c] = v
        boards.add(Board(goal.rows, goal.cols, tuple(cells)))
    return sorted(boards, key=lambda b: b.cells)


@pytest.mark.parametrize(
    "goal",
    [
        goal_board(2, 3),
        goal_board(2, 3, blank_first=True),
        goal_board(3, 3, walls=(4,)),  # a cycle of 8 cells
        goal_board(2, 4, walls=(7,)),  # cell 3 hangs off cell 2
        goal_board(3, 3, walls=(0,)),
        goal_board(3, 3, walls=(1, 2)),  # a cut cell
        goal_board(2, 3, blanks=2),
        goal_board(3, 3, blanks=2, walls=(0, 4)),
    ],
    ids=repr,
)
def test_solvability_verdicts_agree_with_exhaustive_search(goal: Board) -> None:
    """Every decided verdict is right; 'unknown' is allowed only where no rule applies."""
    can_reach = reachable(goal)  # slides are reversible: reaching the goal = reachable from it
    verdicts: dict[str, int] = {}
    for board in all_arrangements(goal):
        verdict = check_solvable(board, goal).verdict
        verdicts[verdict] = verdicts.get(verdict, 0) + 1
        if verdict != "unknown":
            assert (verdict == "solvable") == (board in can_reach), board
    if len(goal.blanks) == 1 and goal.walls in ((), (4,), (0,)):
        assert "unknown" not in verdicts


def test_two_blanks_on_open_boards_reach_everything() -> None:
    goal = goal_board(2, 3, blanks=2)
    assert len(reachable(goal)) == len(all_arrangements(goal)) == 360


def test_solvability_rejects_different_walls_and_tiles() -> None:
    goal = goal_board(2, 2)
    assert "walls differ" in check_solvable(Board(2, 2, (1, -1, 3, 0)), goal).reason
    assert check_solvable(Board(2, 2, (1, 2, 4, 0)), goal).verdict == "unsolvable"


def test_count_reachable_eight_puzzle_half_of_all() -> None:
    assert len(reachable(goal_board(2, 4))) == 20_160  # 8!/2


def test_game_api_conforms() -> None:
    for game in (
        SlidingPuzzle(rows=2, cols=3, scramble=30, max_moves=40),
        SlidingPuzzle(variant="homework", scramble=50, max_moves=30),
    ):
        assert check_game(game, games=5, seed=3) > 0


def test_game_returns_minus_slides_and_caps_unsolved_games() -> None:
    game = SlidingPuzzle(rows=1, cols=3, start=(0, 1, 2), max_moves=3)
    state = game.new_initial_state()
    assert state.returns() == (0.0,) and not state.is_terminal()
    solved = state.apply_action(action_of(1, LEFT)).apply_action(action_of(2, LEFT))
    assert solved.is_terminal() and solved.returns() == (-2.0,)
    wander = state
    for action in (action_of(1, LEFT), action_of(0, RIGHT), action_of(1, LEFT)):
        wander = wander.apply_action(action)
    assert wander.moves == 3 and wander.board != game.goal
    assert wander.is_terminal() and wander.returns() == (-4.0,)
    with pytest.raises(IllegalActionError):
        wander.apply_action(action_of(2, LEFT))


def test_state_json_round_trip_and_repr() -> None:
    game = SlidingPuzzle(rows=2, cols=2, scramble=5)
    state = game.new_initial_state(seed=4)
    assert game.state_from_json(state.to_json()) == state
    assert repr(state).startswith("PuzzleState(board=Board(rows=2, cols=2, cells=")


def test_unknown_variant_is_refused() -> None:
    with pytest.raises(BoardError, match="variant"):
        SlidingPuzzle(variant="broken")
