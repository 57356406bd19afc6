"""A Code of Ice and Fire as a learner sees it: one command a step, ``END`` closes the turn.

Actions: the game's command encoding (:mod:`gridarena.games.iceandfire.encoding`): ``cell * 9 + slot``
(MOVE up/right/down/left, TRAIN 1-3, BUILD MINE/TOWER) and ``END`` = 1,296. The mover stays the same
until ``END``; the commands are then played as one turn on the turn's first position (an empty turn
is ``WAIT``). A command that captures the enemy HQ ends the game at once, as in a whole turn. The
mask holds the commands the referee would carry out next (``valid_commands``) and ``END``.

Planes (12 x 12), "own" meaning the observer's: own active cells, own inactive cells, other active,
other inactive, neutral, void; own units of level 1-3, other units of level 1-3, own units that may
still act; own HQ, mines, towers, other HQ, mines, towers; mine spots; then constant planes: own gold
and other gold (divided by 200, at most 1), and the turn (divided by 100).

>>> from gridarena.core.registry import make
>>> view = IceAndFireView(make("iceandfire"))
>>> pos = view.start(view.game.new_initial_state(seed=1))
>>> view.legal(pos)
[13, 14, 112, 113, 1296]
>>> pos = view.apply(pos, 13)
>>> view.current_player(pos), [c.to_text() for c in pos.steps], view.legal(pos)
(0, ['TRAIN 1 1 0'], [22, 112, 121, 1296])
>>> view.current_player(view.apply(pos, 1296))
1
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from gridarena.adapters.views import IllegalIndexError, Planes, Position, View
from gridarena.core.errors import ActionParseError
from gridarena.core.types import Player
from gridarena.games.iceandfire import IceAndFireState, Msg, Turn, Wait
from gridarena.games.iceandfire.encoding import (
    COMMAND_ACTIONS,
    END,
    command_to_index,
    index_to_command,
    turn_of,
    valid_indices,
)

SIZE: Final = 12
_OWNERS: Final = (0, 1, 2, 3)  # red, blue, neutral, void (the state's owner codes)
GOLD_SCALE: Final = 200.0
TURN_SCALE: Final = 100.0


class IceAndFireView(View):
    """Commands as actions (``END`` closes the turn); planes of territory, units and buildings."""

    num_actions = COMMAND_ACTIONS
    shape = (SIZE, SIZE)
    plane_names = (
        "own active cells",
        "own inactive cells",
        "other active cells",
        "other inactive cells",
        "neutral cells",
        "void cells",
        *(f"own units of level {level}" for level in (1, 2, 3)),
        *(f"other units of level {level}" for level in (1, 2, 3)),
        "own units that may act",
        "own HQ",
        "own mines",
        "own towers",
        "other HQ",
        "other mines",
        "other towers",
        "mine spots",
        "own gold / 200",
        "other gold / 200",
        "turn / 100",
    )

    def legal_indices(self, state: Any) -> list[int]:
        """The valid commands' indices, then ``END``."""
        return [*valid_indices(state), END]

    def apply(self, pos: Position, index: int) -> Position:
        """A command inside the turn, or ``END`` (or a command that ends the game): the turn is played."""
        if index not in self.legal(pos):
            raise IllegalIndexError(self.illegal_reason(pos, index))
        if index == END:
            return self.start(pos.state.child(turn_of(pos.steps)))
        now, steps = self._after(pos, index)
        if now.is_terminal():
            return self.start(pos.state.child(steps))
        return Position(pos.state, now, steps)

    def game_action(self, pos: Position, index: int) -> Turn | None:
        """The turn ``END`` (or a command that ends the game) plays; None for a command inside it."""
        if index == END:
            return turn_of(pos.steps)
        now, steps = self._after(pos, index)
        return steps if now.is_terminal() else None

    def steps_of(self, pos: Position, action: Turn) -> list[int]:
        """The indices of a turn's commands (up to one that ends the game), then ``END``."""
        return self._walk(pos, action)[0]

    def played_action(self, pos: Position, action: Turn) -> Turn:
        """The turn as the steps play it: its commands up to one that ends the game (``WAIT`` if none)."""
        return self._walk(pos, action)[1]

    def _walk(self, pos: Position, action: Turn) -> tuple[list[int], Turn]:
        """The indices of a turn's commands, and the turn they play (MSG and WAIT are not steps)."""
        indices, commands, now = [], [], _state(pos)
        for command in action:
            if isinstance(command, Wait | Msg):
                continue
            indices.append(command_to_index(now, command))
            commands.append(command)
            now = now.after_commands((command,))
            if now.is_terminal():
                return indices, tuple(commands)
        return [*indices, END], turn_of(tuple(commands))

    def max_steps(self) -> int:
        """The game's turns, each of at most ``4 * 144`` commands and ``END``: a unit moves once, a
        cell takes one building, and a TRAIN needs a cell without an own unit (at most every cell,
        and every one a MOVE leaves)."""
        return super().max_steps() * (4 * SIZE * SIZE + 1)

    def index_text(self, pos: Position, index: int) -> str:
        """The command's text, ``END``, or ``#index`` for a MOVE slot without a unit."""
        if index == END:
            return "END"
        try:
            command = index_to_command(_state(pos), index)
        except ActionParseError:
            return f"#{index}"
        assert command is not None
        return command.to_text()

    def decode(self, state: Any, index: int) -> Any:
        return index_to_command(state, index)

    def planes(self, state: IceAndFireState, player: Player) -> Planes:
        """Territory, units, buildings, spots, then gold and the turn."""
        other = 1 - player
        out = np.zeros((len(self.plane_names), SIZE * SIZE), dtype=np.float32)
        owner = np.frombuffer(state.owner, dtype=np.uint8)
        active = np.frombuffer(state.active, dtype=np.uint8).astype(bool)
        for plane, (who, is_active) in enumerate(
            ((player, True), (player, False), (other, True), (other, False))
        ):
            out[plane] = (owner == who) & (active == is_active)
        out[4] = owner == _OWNERS[2]
        out[5] = owner == _OWNERS[3]
        for unit in state.units:
            side = 0 if unit.owner == player else 3
            out[6 + side + unit.level - 1, unit.cell] = 1.0
            if unit.owner == player and unit.can_act:
                out[12, unit.cell] = 1.0
        for building in state.buildings:
            out[13 + (0 if building.owner == player else 3) + building.kind, building.cell] = 1.0
        out[19] = np.frombuffer(state.board.spot, dtype=np.uint8)
        out[20] = min(state.gold[player] / GOLD_SCALE, 1.0)
        out[21] = min(state.gold[other] / GOLD_SCALE, 1.0)
        out[22] = min(state.turn / TURN_SCALE, 1.0)
        return out.reshape(len(self.plane_names), SIZE, SIZE)

    def _after(self, pos: Position, index: int) -> tuple[IceAndFireState, Turn]:
        """The position inside the turn after command ``index``, and the turn's commands so far."""
        key = f"after {index}"
        if key not in pos.memo:
            command = index_to_command(_state(pos), index)
            assert command is not None
            now = _state(pos).after_commands((command,))
            pos.memo[key] = (now, (*pos.steps, command))
        after: tuple[IceAndFireState, Turn] = pos.memo[key]
        return after


def _state(pos: Position) -> IceAndFireState:
    now = pos.now
    assert isinstance(now, IceAndFireState)
    return now
