"""One command as one integer: the action space of learners that give a turn command by command.

A turn of A Code of Ice and Fire is a list of commands, too many to enumerate as whole turns. A learner
gives it one command per step instead, from a fixed space of ``COMMAND_ACTIONS`` = 1,297 integers:

* ``cell * 9 + slot`` for the 144 cells (``cell = y * 12 + x``), where slot 0-3 is a MOVE of the unit on
  the cell one step UP, RIGHT, DOWN or LEFT, slot 4-6 a TRAIN of level 1-3 on the cell and slot 7-8 a
  BUILD of a MINE or a TOWER on it;
* ``END`` (1,296): the turn is over (an empty turn is played as ``WAIT``).

The commands the referee would carry out next are :meth:`IceAndFireState.valid_commands` (their indices:
:func:`valid_indices`); :meth:`IceAndFireState.after_commands` is the position inside the turn. A MOVE
towards a farther cell steps onto a neighbour, so the one-cell MOVEs reach every effect a turn can have.

>>> from gridarena.games.iceandfire import IceAndFire
>>> state = IceAndFire().new_initial_state(seed=1)
>>> [index_to_command(state, i).to_text() for i in valid_indices(state)]
['TRAIN 1 1 0', 'TRAIN 2 1 0', 'TRAIN 1 0 1', 'TRAIN 2 0 1']
>>> command_to_index(state, Train(1, 0, 1))
112
"""

from __future__ import annotations

from typing import Final

from gridarena.core.errors import ActionParseError
from gridarena.games.iceandfire.formats import Build, Command, Move, Train, Turn, Wait
from gridarena.games.iceandfire.geometry import CELLS, DIRECTION_ORDER, SIZE, cell_of, xy
from gridarena.games.iceandfire.rules import IceAndFireState

SLOTS: Final = 9
"""Commands per cell: 4 MOVE directions, 3 TRAIN levels, 2 BUILD kinds."""
END: Final = CELLS * SLOTS
"""The index that ends the turn."""
COMMAND_ACTIONS: Final = END + 1
"""The size of the action space."""

_MOVE_DIRECTIONS: Final = DIRECTION_ORDER[0]  # UP, RIGHT, DOWN, LEFT as (dx, dy)
_BUILD_KINDS: Final = ("MINE", "TOWER")


def command_to_index(state: IceAndFireState, command: Command) -> int:
    """The index of a one-cell MOVE, a TRAIN or a BUILD on ``state`` (a MOVE names its unit's cell).

    Raises ActionParseError for a command outside the space (a WAIT, a MSG, a MOVE that is not one
    step of a unit on the board, a TRAIN level above 3).
    """
    if isinstance(command, Train) and 1 <= command.level <= 3 and _on_board(command.x, command.y):
        return cell_of(command.x, command.y) * SLOTS + 3 + command.level
    if isinstance(command, Build) and command.kind in _BUILD_KINDS and _on_board(command.x, command.y):
        return cell_of(command.x, command.y) * SLOTS + 7 + _BUILD_KINDS.index(command.kind)
    if isinstance(command, Move):
        unit = next((u for u in state.units if u.id == command.id), None)
        if unit is not None and (command.x - unit.x, command.y - unit.y) in _MOVE_DIRECTIONS:
            return unit.cell * SLOTS + _MOVE_DIRECTIONS.index((command.x - unit.x, command.y - unit.y))
    raise ActionParseError(f"iceandfire: {command.to_text()} is not a one-cell command of this position")


def index_to_command(state: IceAndFireState, index: int) -> Command | None:
    """The command of ``index`` on ``state``, or None for ``END``.

    Raises ActionParseError for an index outside the space and for a MOVE from a cell without a unit
    or off the grid (no command has that index here).
    """
    if not 0 <= index < COMMAND_ACTIONS:
        raise ActionParseError(f"iceandfire: command index {index} is outside 0..{END}")
    if index == END:
        return None
    cell, slot = divmod(index, SLOTS)
    x, y = xy(cell)
    if slot >= 7:
        return Build(_BUILD_KINDS[slot - 7], x, y)
    if slot >= 4:
        return Train(slot - 3, x, y)
    dx, dy = _MOVE_DIRECTIONS[slot]
    unit = state.unit_at(cell)
    if unit is None or not _on_board(x + dx, y + dy):
        raise ActionParseError(f"iceandfire: index {index} moves no unit: none on ({x},{y}) steps that way")
    return Move(unit.id, x + dx, y + dy)


def valid_indices(state: IceAndFireState) -> list[int]:
    """The indices of :meth:`IceAndFireState.valid_commands`, ascending (``END`` not included)."""
    return sorted(command_to_index(state, command) for command in state.valid_commands())


def turn_of(commands: Turn) -> Turn:
    """The turn that ``END`` plays after ``commands``: the commands, or ``WAIT`` when there are none."""
    return tuple(commands) if commands else (Wait(),)


def _on_board(x: int, y: int) -> bool:
    return 0 <= x < SIZE and 0 <= y < SIZE
