"""Text formats: the homework's case and answer files, a one-line board, and the PDB configuration.

* Homework case (NTU TCG 2022 HW1): ``n m``, the initial board (n lines of m numbers), an empty
  line, the goal board; numbers right-aligned in fields of width 4.
* Homework answer: ``L``, then ``L`` lines ``cell direction`` (0 up, 1 down, 2 left, 3 right).
* One-line board: ``[RxC:] v0 v1 ... vN-1`` in row-major order, ``0`` blank, ``-1`` wall (Korf's
  instance files are this without the size prefix, on square boards).
* PDB configuration (the reference student solution's generator input): a base board (``-1`` walls,
  ``0`` elsewhere, or a full goal board), then pairs of lines: an output path, the pattern's tiles.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from gridarena.core.errors import GridArenaError
from gridarena.core.numbers import NumberTooLongError, checked_int
from gridarena.games.slidingpuzzle.board import (
    BLANK,
    WALL,
    Action,
    Board,
    BoardError,
    IllegalSlideError,
    action_cell,
    action_direction,
    action_of,
    action_to_text,
    goal_board,
    replay,
)


def format_grid(board: Board, width: int = 4) -> str:
    """The cells as rows of numbers right-aligned in ``width`` columns (the homework's layout).

    >>> print(format_grid(Board(1, 3, (1, -1, 0))))
       1  -1   0
    """
    return "\n".join("".join(f"{v:>{width}}" for v in row) for row in board.grid())


def render_board(board: Board) -> str:
    """A picture for people: ``#`` for a wall, ``.`` for a blank, numbers right-aligned.

    >>> print(render_board(Board(2, 2, (1, -1, 0, 3))))
     1  #
     .  3
    """
    width = max(2, len(str(max(board.cells))))

    def show(v: int) -> str:
        return "#" if v == WALL else "." if v == BLANK else str(v)

    return "\n".join(" ".join(f"{show(v):>{width}}" for v in row) for row in board.grid())


class PuzzleFormatError(GridArenaError, ValueError):
    """A puzzle file that cannot be read; the message names the file and the line."""

    def __init__(self, path: str, line: int, message: str) -> None:
        super().__init__(f"{path}:{line}: {message}")


class SolutionError(GridArenaError, ValueError):
    """An answer that does not solve the case (illegal slide, wrong end board, not optimal)."""


def _number(text: str, path: str, line: int) -> int:
    """An integer of the file, its length checked before it is converted."""
    try:
        return checked_int(text)
    except NumberTooLongError as exc:
        raise PuzzleFormatError(path, line, str(exc)) from None


def _int_tokens(text: str, path: str) -> list[tuple[int, int]]:
    """Every whitespace-separated token as (value, 1-based line number); non-integers are errors."""
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        for token in line.split():
            if not re.fullmatch(r"-?\d+", token):
                raise PuzzleFormatError(path, number, f"expected an integer, found {token!r}")
            out.append((_number(token, path, number), number))
    return out


@dataclass(frozen=True, slots=True)
class PuzzleCase:
    """A case to solve: start and goal boards of the same size."""

    start: Board
    goal: Board


def _board_from_tokens(
    tokens: Sequence[tuple[int, int]], rows: int, cols: int, path: str, what: str
) -> Board:
    try:
        return Board(rows, cols, tuple(v for v, _ in tokens))
    except BoardError as error:
        raise PuzzleFormatError(path, tokens[0][1], f"{what}: {error}") from error


def default_goal(start: Board, *, blank_first: bool = False) -> Board:
    """The canonical goal with the walls and the number of blanks of ``start`` (cell i holds i + 1).

    >>> default_goal(Board(1, 3, (2, 0, 1))).cells
    (1, 2, 0)
    """
    return goal_board(
        start.rows, start.cols, blanks=len(start.blanks), walls=start.walls, blank_first=blank_first
    )


def parse_homework_case(text: str, path: str = "<input>") -> PuzzleCase:
    """Read a homework case; a missing goal board means the canonical one (the verifier's goal test).

    >>> case = parse_homework_case("1 3\\n 2 0 1\\n\\n 1 2 0\\n")
    >>> case.start.cells, case.goal.cells
    ((2, 0, 1), (1, 2, 0))
    """
    tokens = _int_tokens(text, path)
    if len(tokens) < 2:
        raise PuzzleFormatError(path, 1, "expected 'n m' (rows, columns) on the first line")
    (rows, line), (cols, _) = tokens[0], tokens[1]
    if rows < 1 or cols < 1:
        raise PuzzleFormatError(path, line, f"board size {rows}x{cols} is not positive")
    size, body = rows * cols, tokens[2:]
    if len(body) not in (size, 2 * size):
        last = body[-1][1] if body else line
        raise PuzzleFormatError(
            path, last, f"expected {size} numbers (start) or {2 * size} (start and goal), found {len(body)}"
        )
    start = _board_from_tokens(body[:size], rows, cols, path, "initial board")
    if len(body) == size:
        return PuzzleCase(start, default_goal(start))
    return PuzzleCase(start, _board_from_tokens(body[size:], rows, cols, path, "goal board"))


def format_homework_case(case: PuzzleCase) -> str:
    """Write a case exactly as the course's files are written (fields of width 4).

    >>> print(format_homework_case(PuzzleCase(Board(1, 2, (0, 1)), Board(1, 2, (1, 0)))), end="")
       1   2
       0   1
    <BLANKLINE>
       1   0
    """
    start, goal = case.start, case.goal
    return f"{start.rows:>4}{start.cols:>4}\n{format_grid(start)}\n\n{format_grid(goal)}\n"


def format_solution(actions: Sequence[Action]) -> str:
    """The homework's answer: ``L``, then one ``cell direction`` line per slide.

    >>> format_solution([action_of(18, 3), action_of(4, 2)])
    '2\\n18 3\\n4 2\\n'
    """
    return "".join(f"{line}\n" for line in [str(len(actions)), *map(action_to_text, actions)])


def moves_to_json(actions: Sequence[Action]) -> list[list[int]]:
    """The slides as JSON-ready ``[cell, direction]`` pairs (the CLI's ``--json`` answer).

    >>> moves_to_json([action_of(18, 3), action_of(4, 2)])
    [[18, 3], [4, 2]]
    """
    return [[action_cell(a), action_direction(a)] for a in actions]


def parse_solution(text: str, path: str = "<answer>") -> list[Action]:
    """Read an answer strictly: the count must match, directions must be 0..3, nothing may follow.

    >>> parse_solution("1\\n18 3\\n")
    [75]
    """
    lines = text.splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines or not re.fullmatch(r"\s*\d+\s*", lines[0]):
        raise PuzzleFormatError(path, 1, "expected the number of slides L on the first line")
    count = _number(lines[0], path, 1)
    if len(lines) - 1 != count:
        raise PuzzleFormatError(path, len(lines), f"L = {count} but {len(lines) - 1} slide lines follow")
    actions = []
    for number, line in enumerate(lines[1:], 2):
        match = re.fullmatch(r"\s*(\d+)\s+(\d+)\s*", line)
        if match is None:
            raise PuzzleFormatError(path, number, f"expected 'cell direction', found {line!r}")
        cell, direction = _number(match[1], path, number), _number(match[2], path, number)
        if direction > 3:
            raise PuzzleFormatError(
                path, number, f"direction {direction} is not 0 (up), 1 (down), 2 (left) or 3 (right)"
            )
        actions.append(action_of(cell, direction))
    return actions


def check_solution(case: PuzzleCase, actions: Sequence[Action], optimal: int | None = None) -> int:
    """Replay ``actions``; raise SolutionError unless they reach the goal (in ``optimal`` slides if given).

    Stricter than the course verifier: an empty answer is accepted for a solved board, and the
    length is compared with the optimum when that is known. Returns the number of slides.

    >>> check_solution(PuzzleCase(Board(1, 2, (0, 1)), Board(1, 2, (1, 0))), [action_of(1, 2)])
    1
    """
    try:
        end = replay(case.start, actions)
    except IllegalSlideError as error:
        raise SolutionError(str(error)) from error
    if end != case.goal:
        wrong = [c for c, (a, b) in enumerate(zip(end.cells, case.goal.cells, strict=True)) if a != b]
        raise SolutionError(f"after {len(actions)} slides the board differs from the goal at cells {wrong}")
    if optimal is not None and len(actions) != optimal:
        raise SolutionError(f"{len(actions)} slides, but the optimum is {optimal}")
    return len(actions)


_SIZE = re.compile(r"\s*(\d+)\s*[xX]\s*(\d+)\s*:")


def parse_line(text: str, *, blank_first: bool = False, path: str = "<line>", line: int = 1) -> PuzzleCase:
    """Read a one-line board ``[RxC:] v0 v1 ...``; the goal is the canonical one for its walls and blanks.

    Without a size prefix the board must be square. ``blank_first`` selects Korf's goal (blank in
    the first cell, cell ``i`` holds ``i``); the default puts the blanks last.

    >>> parse_line("2x3: 1 2 3 4 0 5").goal.cells
    (1, 2, 3, 4, 5, 0)
    >>> parse_line("0 1 2 3", blank_first=True).goal.cells
    (0, 1, 2, 3)
    """
    match = _SIZE.match(text)
    body = text[match.end() :] if match else text
    values = [v for v, _ in _int_tokens(body, path)]
    if match:
        rows, cols = _number(match[1], path, line), _number(match[2], path, line)
    else:
        side = math.isqrt(len(values))
        if side * side != len(values) or not values:
            raise PuzzleFormatError(
                path, line, f"{len(values)} numbers are not a square board; prefix 'RxC:'"
            )
        rows = cols = side
    if len(values) != rows * cols:
        raise PuzzleFormatError(
            path, line, f"a {rows}x{cols} board needs {rows * cols} numbers, found {len(values)}"
        )
    try:
        start = Board(rows, cols, tuple(values))
    except BoardError as error:
        raise PuzzleFormatError(path, line, str(error)) from error
    return PuzzleCase(start, default_goal(start, blank_first=blank_first))


def format_line(board: Board) -> str:
    """A board as one line with its size prefix.

    >>> format_line(Board(2, 3, (1, 2, 3, 4, 0, 5)))
    '2x3: 1 2 3 4 0 5'
    """
    return f"{board.rows}x{board.cols}: " + " ".join(map(str, board.cells))


def parse_case(text: str, path: str = "<input>", *, blank_first: bool = False) -> PuzzleCase:
    """A homework case, or a one-line board when the text has a single non-empty line."""
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) == 1:
        return parse_line(lines[0], blank_first=blank_first, path=path)
    return parse_homework_case(text, path)


# ---------------------------------------------------------------------------------------------
# PDB configuration (the reference student solution's generator input)


class PdbError(GridArenaError, ValueError):
    """A pattern database that cannot be built or used as asked."""


@dataclass(frozen=True, slots=True)
class PdbConfig:
    """A PDB set to build: the goal board and, per database, an output path and its tiles."""

    goal: Board
    patterns: tuple[tuple[str, tuple[int, ...]], ...]


def parse_pdb_config(text: str, path: str = "<config>", *, blanks: int = 2) -> PdbConfig:
    """Read a PDB configuration.

    The base board is the leading block of integer lines. If it holds only ``-1`` and ``0`` (the
    student's form), the goal is the canonical one for those walls with ``blanks`` blanks (2, as in
    the homework); a base board with tile numbers is taken as the goal itself. Patterns must be
    non-empty, disjoint and made of the goal's tiles.

    >>> config = parse_pdb_config("0 0 0\\n0 0 0\\na.pdb\\n1 2\\nb.pdb\\n3\\n", blanks=2)
    >>> config.goal.cells, config.patterns
    ((1, 2, 3, 4, 0, 0), (('a.pdb', (1, 2)), ('b.pdb', (3,))))
    """
    lines = [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    grid: list[list[int]] = []
    while lines and re.fullmatch(r"-?\d+(\s+-?\d+)*", lines[0][1]):
        number, line = lines.pop(0)
        row = [_number(v, path, number) for v in line.split()]
        if grid and len(row) != len(grid[0]):
            raise PuzzleFormatError(
                path, number, f"base board row has {len(row)} numbers, the first has {len(grid[0])}"
            )
        grid.append(row)
    if not grid:
        raise PuzzleFormatError(path, 1, "expected the base board (rows of integers) first")
    goal = _config_goal(grid, blanks, path)
    if len(lines) % 2:
        raise PuzzleFormatError(path, lines[-1][0], "an output path without its line of tiles")
    patterns, used = [], set[int]()
    for (_, out), (number, tiles_line) in zip(lines[::2], lines[1::2], strict=True):
        tiles = tuple(v for v, _ in _int_tokens(tiles_line, path))
        problem = pattern_problem(goal, tiles, used)
        if problem:
            raise PuzzleFormatError(path, number, problem)
        used.update(tiles)
        patterns.append((out, tiles))
    return PdbConfig(goal, tuple(patterns))


def _config_goal(grid: list[list[int]], blanks: int, path: str) -> Board:
    rows, cols = len(grid), len(grid[0])
    cells = [v for row in grid for v in row]
    try:
        if all(v in (WALL, BLANK) for v in cells):
            return goal_board(rows, cols, blanks=blanks, walls=[c for c, v in enumerate(cells) if v == WALL])
        return Board(rows, cols, tuple(cells))
    except BoardError as error:
        raise PuzzleFormatError(path, 1, f"base board: {error}") from error


def pattern_problem(
    goal: Board, tiles: Sequence[int], used: set[int] | frozenset[int] = frozenset()
) -> str | None:
    """None if ``tiles`` is a valid pattern of ``goal`` disjoint from ``used``, else what is wrong.

    >>> pattern_problem(goal_board(2, 2), [1, 4])
    'tile 4 is not on the goal board'
    """
    if not tiles:
        return "a pattern needs at least one tile"
    if len(set(tiles)) != len(tiles):
        return f"pattern {list(tiles)} repeats a tile"
    for t in tiles:
        if t not in goal.tiles:
            return f"tile {t} is not on the goal board"
        if t in used:
            return f"tile {t} is already in another pattern (patterns must be disjoint)"
    return None


def format_pdb_config(config: PdbConfig) -> str:
    """Write a configuration in the student's form when the goal is canonical, else with the full goal.

    >>> print(format_pdb_config(PdbConfig(goal_board(1, 3), (("a.pdb", (1, 2)),))), end="")
       0   0   0
    a.pdb
    1 2
    """
    goal = config.goal
    canonical = goal == goal_board(goal.rows, goal.cols, blanks=len(goal.blanks), walls=goal.walls)
    base = (
        Board(goal.rows, goal.cols, tuple(WALL if v == WALL else BLANK for v in goal.cells))
        if canonical
        else goal
    )
    pairs = "".join(f"{out}\n{' '.join(map(str, tiles))}\n" for out, tiles in config.patterns)
    return f"{format_grid(base)}\n{pairs}"
