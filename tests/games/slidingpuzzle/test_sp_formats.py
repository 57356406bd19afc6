"""Text formats: homework cases and answers, one-line boards, PDB configurations."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gridarena.games.slidingpuzzle.board import Board, action_of, goal_board, homework_goal, random_walk
from gridarena.games.slidingpuzzle.formats import (
    PdbConfig,
    PuzzleCase,
    PuzzleFormatError,
    SolutionError,
    check_solution,
    format_homework_case,
    format_line,
    format_pdb_config,
    format_solution,
    parse_case,
    parse_homework_case,
    parse_line,
    parse_pdb_config,
    parse_solution,
)

HW = "slidingpuzzle/ntu_tcg2022_hw1"


def boards(max_side: int = 5) -> st.SearchStrategy[Board]:
    """Random valid boards: walls, blanks and tiles numbered by home cell."""

    @st.composite
    def build(draw: st.DrawFn) -> Board:
        rows, cols = draw(st.integers(1, max_side)), draw(st.integers(2, max_side))
        n = rows * cols
        walls = draw(st.sets(st.integers(0, n - 1), max_size=n // 3))
        movable = [c for c in range(n) if c not in walls]
        blanks = draw(st.integers(1, len(movable)))
        goal = goal_board(rows, cols, blanks=blanks, walls=sorted(walls))
        return random_walk(goal, draw(st.integers(0, 30)), random.Random(draw(st.integers(0, 99))))

    return build()


def test_every_public_case_round_trips_byte_for_byte(shared_data: Path) -> None:
    files = sorted((shared_data / HW).glob("*.in"))
    assert len(files) == 15
    for path in files:
        text = path.read_text()
        case = parse_homework_case(text, str(path))
        assert case.goal == homework_goal()
        assert format_homework_case(case) == text


@given(boards())
def test_homework_format_round_trip(board: Board) -> None:
    case = PuzzleCase(board, goal_board(board.rows, board.cols, blanks=len(board.blanks), walls=board.walls))
    assert parse_homework_case(format_homework_case(case)) == case


@given(boards())
def test_one_line_round_trip(board: Board) -> None:
    assert parse_line(format_line(board)).start == board


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", r"x:1: expected 'n m'"),
        ("2 2\n1 2\n3 x\n", r"x:3: expected an integer, found 'x'"),
        ("2 2\n1 2\n3 0\n\n1 2\n", r"x:5: expected 4 numbers \(start\) or 8"),
        ("2 2\n1 1\n3 0\n", r"x:2: initial board: tile 1 appears twice"),
        ("2 2\n1 2\n3 0\n\n1 2\n3 4\n", r"x:5: goal board: the board has no blank"),
    ],
)
def test_bad_cases_name_file_and_line(text: str, message: str) -> None:
    with pytest.raises(PuzzleFormatError, match=message):
        parse_homework_case(text, "x")


def test_missing_goal_means_the_canonical_one() -> None:
    case = parse_homework_case("4 5\n" + " ".join(map(str, homework_goal().cells)))
    assert case.goal == homework_goal()


def test_one_line_goals_and_sizes() -> None:
    assert parse_line("3 1 2 0").goal.cells == (1, 2, 3, 0)
    assert parse_line("0 1 2 3", blank_first=True).goal.cells == (0, 1, 2, 3)
    assert parse_case("2x3: 1 2 3 4 0 5\n").start.cols == 3
    with pytest.raises(PuzzleFormatError, match="not a square"):
        parse_line("1 2 0")
    with pytest.raises(PuzzleFormatError, match="needs 6 numbers"):
        parse_line("2x3: 1 2 0")


def test_solution_format_matches_the_handout_example() -> None:
    actions = [action_of(c, d) for c, d in ((18, 3), (4, 2), (9, 0), (14, 0), (19, 0))]
    text = format_solution(actions)
    assert text == "5\n18 3\n4 2\n9 0\n14 0\n19 0\n"
    assert parse_solution(text) == actions
    assert format_solution([]) == "0\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("2\n18 3\n", "L = 2 but 1 slide lines follow"),
        ("1\n18 3\n4 2\n", "L = 1 but 2 slide lines follow"),
        ("1\n18 4\n", "direction 4 is not"),
        ("1\n18 3 extra\n", "expected 'cell direction'"),
        ("x\n", "expected the number of slides"),
    ],
)
def test_solution_parser_is_stricter_than_the_verifier(text: str, message: str) -> None:
    with pytest.raises(PuzzleFormatError, match=message):
        parse_solution(text)


def test_check_solution_accepts_empty_answers_and_checks_optimality() -> None:
    goal = homework_goal()
    assert check_solution(PuzzleCase(goal, goal), []) == 0
    start = Board(4, 5, (1, 2, 3, 0, 4, 6, 7, 8, -1, 5, -1, 12, -1, 14, 10, 16, 17, 18, 15, 0))
    answer = parse_solution("5\n18 3\n4 2\n9 0\n14 0\n19 0\n")
    assert check_solution(PuzzleCase(start, goal), answer, optimal=5) == 5
    with pytest.raises(SolutionError, match="optimum is 4"):
        check_solution(PuzzleCase(start, goal), answer, optimal=4)
    with pytest.raises(SolutionError, match="differs from the goal"):
        check_solution(PuzzleCase(start, goal), answer[:4])
    with pytest.raises(SolutionError, match="slide 1"):
        check_solution(PuzzleCase(start, goal), [action_of(8, 0)])


STUDENT_CONFIG = """\
   0   0   0   0   0
   0   0   0  -1   0
  -1   0  -1   0   0
   0   0   0   0   0
pattern_database/1-6.bin
1 6
pattern_database/2-3.bin
2 3
"""


def test_student_pdb_config_reads_as_the_homework_goal() -> None:
    config = parse_pdb_config(STUDENT_CONFIG, "c.in")
    assert config.goal == homework_goal()
    assert config.patterns == (("pattern_database/1-6.bin", (1, 6)), ("pattern_database/2-3.bin", (2, 3)))
    assert format_pdb_config(config) == STUDENT_CONFIG


def test_pdb_config_with_a_full_goal_board() -> None:
    config = PdbConfig(goal_board(2, 2, blank_first=True), (("a.pdb", (1, 2)), ("b.pdb", (3,))))
    assert parse_pdb_config(format_pdb_config(config)) == config


@pytest.mark.parametrize(
    ("tail", "message"),
    [
        ("a.pdb\n1 9\n", r"c.in:6: tile 9 is not on the goal board"),
        ("a.pdb\n1 2\nb.pdb\n2 3\n", r"c.in:8: tile 2 is already in another pattern"),
        ("a.pdb\n1 1\n", r"c.in:6: pattern \[1, 1\] repeats a tile"),
        ("a.pdb\n", r"c.in:5: an output path without its line of tiles"),
    ],
)
def test_bad_pdb_configs_name_the_line(tail: str, message: str) -> None:
    base = STUDENT_CONFIG.split("pattern_database")[0]
    with pytest.raises(PuzzleFormatError, match=message):
        parse_pdb_config(base + tail, "c.in")
