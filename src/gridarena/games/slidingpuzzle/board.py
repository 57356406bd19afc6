"""The sliding puzzle's boards and slides (values): any M x N board with walls and k >= 1 blanks.

A slide moves one tile one cell up, down, left or right into an adjacent blank; every slide costs 1.
Cell values: ``-1`` a wall (never moves), ``0`` a blank, ``1..`` a numbered tile. Cells are numbered
row-major from 0, and a slide is named by the cell the tile stands on *before* it moves and the
direction it moves (``0`` up, ``1`` down, ``2`` left, ``3`` right), as in the NTU homework's output.

Everything here is pure: boards are frozen tuples, functions return new boards. The game and its
state (:mod:`.rules`) are built on these.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, TypeAlias

from gridarena.core.errors import ActionParseError, StateFormatError

Cell: TypeAlias = int
"""A board cell, row-major: ``row * cols + col``."""

Direction: TypeAlias = int
"""Where the tile moves: 0 up, 1 down, 2 left, 3 right (the order of ``board.h``'s ``Action`` enum)."""

Action: TypeAlias = int
"""A slide packed as ``cell * 4 + direction``; its text form is ``"cell direction"``."""

WALL: Final = -1
BLANK: Final = 0
UP, DOWN, LEFT, RIGHT = 0, 1, 2, 3
DELTAS: Final = ((-1, 0), (1, 0), (0, -1), (0, 1))
DIRECTION_NAMES: Final = ("up", "down", "left", "right")
MAX_SIDE: Final = 16
"""The most rows and the most columns of a board (256 cells; the largest studied puzzles are 5x5)."""
MAX_CELLS: Final = MAX_SIDE * MAX_SIDE


class BoardError(StateFormatError):
    """A board that breaks the rules of the puzzle (wrong size, repeated tile, no blank, ...)."""


@dataclass(frozen=True, slots=True)
class Board:
    """A puzzle position: ``cells[c]`` is -1 (wall), 0 (blank) or a tile number.

    >>> Board(2, 2, (1, 2, 3, 0)).blanks
    (3,)
    """

    rows: int
    cols: int
    cells: tuple[int, ...]

    def __post_init__(self) -> None:
        problem = board_problem(self.rows, self.cols, self.cells)
        if problem is not None:
            raise BoardError(problem)

    @property
    def blanks(self) -> tuple[Cell, ...]:
        """The blank cells, ascending."""
        return tuple(c for c, v in enumerate(self.cells) if v == BLANK)

    @property
    def walls(self) -> tuple[Cell, ...]:
        """The wall cells, ascending."""
        return tuple(c for c, v in enumerate(self.cells) if v == WALL)

    @property
    def tiles(self) -> tuple[int, ...]:
        """The tile numbers on the board, ascending."""
        return tuple(sorted(v for v in self.cells if v > 0))

    def positions(self) -> dict[int, Cell]:
        """Tile number -> the cell it stands on."""
        return {v: c for c, v in enumerate(self.cells) if v > 0}

    def grid(self) -> list[list[int]]:
        """The cells as a list of rows."""
        return [list(self.cells[r * self.cols : (r + 1) * self.cols]) for r in range(self.rows)]


def size_problem(rows: int, cols: int) -> str | None:
    """None if a board may have ``rows`` x ``cols`` cells, else a sentence saying the range.

    >>> size_problem(100000, 100000)
    'a board has 1 to 16 rows and 1 to 16 columns, not 100000x100000'
    """
    if 1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE:
        return None
    return f"a board has 1 to {MAX_SIDE} rows and 1 to {MAX_SIDE} columns, not {rows}x{cols}"


def board_problem(rows: int, cols: int, cells: Sequence[int]) -> str | None:
    """None if the cells make a valid board, else a sentence saying what is wrong.

    >>> board_problem(2, 2, (1, 1, 0, 2))
    'tile 1 appears twice (cells 0 and 1)'
    """
    size = size_problem(rows, cols)
    if size is not None:
        return size
    if len(cells) != rows * cols:
        return f"a {rows}x{cols} board has {rows * cols} cells, found {len(cells)}"
    seen: dict[int, int] = {}
    for c, v in enumerate(cells):
        if not WALL <= v <= rows * cols:
            return f"cell {c} holds {v}; values are -1 (wall), 0 (blank) or a tile number up to {rows * cols}"
        if v > 0 and v in seen:
            return f"tile {v} appears twice (cells {seen[v]} and {c})"
        seen[v] = c
    if BLANK not in seen:
        return "the board has no blank (0) cell"
    return None


def neighbour(cell: Cell, direction: Direction, rows: int, cols: int) -> Cell | None:
    """The cell next to ``cell`` in ``direction``, or None off the board.

    >>> neighbour(0, RIGHT, 4, 5), neighbour(0, UP, 4, 5)
    (1, None)
    """
    r, c = divmod(cell, cols)
    dr, dc = DELTAS[direction]
    r, c = r + dr, c + dc
    return r * cols + c if 0 <= r < rows and 0 <= c < cols else None


def action_of(cell: Cell, direction: Direction) -> Action:
    """The packed action of a slide.

    >>> action_of(18, RIGHT)
    75
    """
    return cell * 4 + direction


def action_cell(action: Action) -> Cell:
    """The cell the sliding tile stands on before the slide."""
    return action >> 2


def action_direction(action: Action) -> Direction:
    """The direction the tile moves."""
    return action & 3


def action_to_text(action: Action) -> str:
    """The homework's text for a slide: ``"cell direction"``.

    >>> action_to_text(75)
    '18 3'
    """
    return f"{action_cell(action)} {action_direction(action)}"


def parse_action(text: str) -> Action:
    """Inverse of :func:`action_to_text`; raises ActionParseError on anything else.

    >>> parse_action("18 3")
    75
    """
    parts = text.split()
    # ASCII digits, and few: int() refuses 4,301 digits (and other scripts' digits) with a ValueError.
    if len(parts) != 2 or not all(len(p) <= 12 and p.lstrip("-").isdigit() and p.isascii() for p in parts):
        raise ActionParseError(f"expected 'cell direction' (two integers), found {text[:60]!r}")
    cell, direction = int(parts[0]), int(parts[1])
    if cell < 0:
        raise ActionParseError(f"cell {cell} is negative in {text!r}")
    if direction not in (UP, DOWN, LEFT, RIGHT):
        raise ActionParseError(f"direction {direction} is not 0 (up), 1 (down), 2 (left) or 3 (right)")
    return action_of(cell, direction)


class IllegalSlideError(ActionParseError):
    """A slide the rules do not allow (a wall or blank moved, off the board, target not blank)."""


def slide_problem(board: Board, action: Action) -> str | None:
    """None if the slide is legal on ``board``, else why not (the verifier's checks, named).

    >>> slide_problem(Board(1, 2, (1, 0)), action_of(0, LEFT))
    'cell 0 moved left leaves the board'
    """
    cell, direction = action_cell(action), action_direction(action)
    if cell >= len(board.cells):
        return f"cell {cell} is not on the {board.rows}x{board.cols} board"
    what = board.cells[cell]
    if what <= 0:
        return f"cell {cell} holds {'a wall' if what == WALL else 'a blank'}, not a tile"
    target = neighbour(cell, direction, board.rows, board.cols)
    if target is None:
        return f"cell {cell} moved {DIRECTION_NAMES[direction]} leaves the board"
    if board.cells[target] != BLANK:
        return f"cell {cell} moved {DIRECTION_NAMES[direction]} lands on cell {target}, which is not blank"
    return None


def legal_slides(board: Board) -> list[Action]:
    """Every legal slide, ascending.

    >>> [action_to_text(a) for a in legal_slides(Board(2, 2, (1, 2, 3, 0)))]
    ['1 1', '2 3']
    """
    found = []
    for blank in board.blanks:
        for direction in range(4):
            # The tile that enters `blank` moving in `direction` stands on the opposite side of it.
            source = neighbour(blank, direction ^ 1, board.rows, board.cols)
            if source is not None and board.cells[source] > 0:
                found.append(action_of(source, direction))
    return sorted(found)


def slide(board: Board, action: Action) -> Board:
    """The board after a legal slide (unchecked: use :func:`apply_slide` for untrusted input)."""
    cell = action_cell(action)
    target = cell + (-board.cols, board.cols, -1, 1)[action_direction(action)]
    cells = list(board.cells)
    cells[target], cells[cell] = cells[cell], BLANK
    return Board(board.rows, board.cols, tuple(cells))


def apply_slide(board: Board, action: Action) -> Board:
    """The board after ``action``; raises IllegalSlideError with the reason if it is not legal."""
    problem = slide_problem(board, action)
    if problem is not None:
        raise IllegalSlideError(problem)
    return slide(board, action)


def replay(board: Board, actions: Sequence[Action]) -> Board:
    """The board after every slide of ``actions``; the error names the first illegal one (1-based).

    >>> replay(Board(1, 3, (0, 1, 2)), [action_of(1, LEFT), action_of(2, LEFT)]).cells
    (1, 2, 0)
    """
    for number, action in enumerate(actions, 1):
        problem = slide_problem(board, action)
        if problem is not None:
            raise IllegalSlideError(f"slide {number} ({action_to_text(action)}): {problem}")
        board = slide(board, action)
    return board


def goal_board(
    rows: int, cols: int, *, blanks: int = 1, walls: Sequence[Cell] = (), blank_first: bool = False
) -> Board:
    """The canonical goal: tiles in row-major order, named by home cell (cell ``i`` holds ``i + 1``).

    The blanks take the last movable cells (``blank_first``: the first ones, where tiles keep the
    numbers 1.. in order, Korf's convention). Walls keep their cells, so their numbers are skipped.

    >>> goal_board(4, 5, blanks=2, walls=(8, 10, 12)).grid()[2:]
    [[-1, 12, -1, 14, 15], [16, 17, 18, 0, 0]]
    >>> goal_board(2, 2, blank_first=True).cells
    (0, 1, 2, 3)
    """
    size = size_problem(rows, cols)
    if size is not None:
        raise BoardError(size)
    wall_set = set(walls)
    off = sorted(c for c in wall_set if not 0 <= c < rows * cols)
    if off:
        raise BoardError(f"wall cell {off[0]} is off the {rows}x{cols} board (cells 0 to {rows * cols - 1})")
    movable = [c for c in range(rows * cols) if c not in wall_set]
    if not 1 <= blanks < len(movable) + 1:
        raise BoardError(f"{blanks} blanks do not fit the {len(movable)} movable cells of the board")
    cells = [WALL if c in wall_set else c + 1 for c in range(rows * cols)]
    blank_cells = movable[:blanks] if blank_first else movable[len(movable) - blanks :]
    for c in blank_cells:
        cells[c] = BLANK
    if blank_first:
        # Korf writes cell i as tile i (blank at 0), so the numbers shift down by one.
        cells = [v - 1 if v > 0 else v for v in cells]
    return Board(rows, cols, tuple(cells))


#: The NTU TCG 2022 homework goal: walls at cells 8, 10 and 12, blanks at 18 and 19.
HOMEWORK_WALLS: Final = (8, 10, 12)


def homework_goal() -> Board:
    """The fixed goal board of the NTU homework (4x5, three walls, two blanks).

    >>> homework_goal().tiles[-3:]
    (16, 17, 18)
    """
    return goal_board(4, 5, blanks=2, walls=HOMEWORK_WALLS)


def movable_neighbours(board: Board) -> list[list[Cell]]:
    """For each cell, its orthogonal neighbours that are not walls (empty lists for walls)."""
    out: list[list[Cell]] = []
    for c, v in enumerate(board.cells):
        near = [neighbour(c, d, board.rows, board.cols) for d in range(4)] if v != WALL else []
        out.append([n for n in near if n is not None and board.cells[n] != WALL])
    return out


def cell_distances(board: Board) -> list[list[int]]:
    """Shortest slide distance between movable cells around the walls (-1 if unreachable).

    >>> cell_distances(homework_goal())[13][11]
    4
    """
    adjacent = movable_neighbours(board)
    n = len(board.cells)
    table = [[-1] * n for _ in range(n)]
    for source in range(n):
        if board.cells[source] == WALL:
            continue
        row, frontier = table[source], [source]
        row[source] = 0
        while frontier:
            nxt = []
            for c in frontier:
                for m in adjacent[c]:
                    if row[m] < 0:
                        row[m] = row[c] + 1
                        nxt.append(m)
            frontier = nxt
    return table


def walk_distance(board: Board, goal: Board) -> int:
    """Sum over tiles of the wall-respecting distance to their home cell (Manhattan without walls).

    >>> walk_distance(Board(1, 3, (0, 1, 2)), Board(1, 3, (1, 2, 0)))
    2
    """
    dist = cell_distances(goal)
    home = goal.positions()
    return sum(dist[c][home[v]] for c, v in enumerate(board.cells) if v > 0)


def random_walk(board: Board, slides: int, rng: random.Random) -> Board:
    """The board after ``slides`` random legal slides, never undoing the slide just made.

    Forbidding the immediate undo keeps a walk from wasting half its steps; a board whose only
    legal slide is the undo still takes it, and a board without any slide stays as it is.
    """
    undo: Action | None = None
    for _ in range(slides):
        options = legal_slides(board)
        if not options:
            break
        fresh = [a for a in options if a != undo] or options
        action = rng.choice(fresh)
        cell, direction = action_cell(action), action_direction(action)
        target = neighbour(cell, direction, board.rows, board.cols)
        assert target is not None
        undo = action_of(target, direction ^ 1)
        board = slide(board, action)
    return board


# ---------------------------------------------------------------------------------------------
# The game API
