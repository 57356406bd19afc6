"""ReversiXT as a learner sees it: a compact action space of the map's own moves, planes per player.

Actions: one index per move the map can ever have. Each field of the map (a cell that is not a hole
at the start: fields only ever turn into holes) gets an index for ``x,y,0`` (a plain or override
placement, and the bomb of phase 2); a choice field gets one more per player (``x,y,1`` ... ``x,y,p``)
and a bonus field two (``x,y,20`` bomb, ``x,y,21`` override stone). Fields in reading order, each with
its specials together: ``fields + p * choices + 2 * bonuses`` indices (27,500 would be the flat
``W * H * (p + 3)`` on a 50x50 map of 8 players; this is about 3,800 there).

Planes (``height`` x ``width``): the stones of each player, the observer's first, then the players
after it in turn order; empty fields, holes, expansion stones, choice, inversion and bonus fields;
then three constant planes: phase 2 (bombs), the observer holds override stones, the observer holds
bombs. Transitions are fixed by the map and are not drawn.

>>> from gridarena.core.registry import make
>>> view = ReversiXTView(make("reversixt(map=othello8)"))
>>> view.num_actions, len(view.plane_names)
(64, 11)
>>> pos = view.start(view.game.new_initial_state())
>>> [view.decode(pos.now, i).to_text() for i in view.legal(pos)]
['3,2,0', '2,3,0', '5,4,0', '4,5,0']
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from gridarena.adapters.views import Planes, Position, View
from gridarena.core.types import Game, Player
from gridarena.games.reversixt.capture import returns_from_ranks
from gridarena.games.reversixt.formats import (
    BONUS,
    BONUS_BOMB,
    BONUS_OVERRIDE,
    CHOICE,
    EMPTY,
    EXPANSION,
    HOLE,
    INVERSION,
    Move,
)
from gridarena.games.reversixt.rules import PHASE_BOMBS, ReversiState

_BOARD_CODES: Final = ((EMPTY, "empty field"), (HOLE, "hole"), (EXPANSION, "expansion stone"))
_SPECIAL_CODES: Final = ((CHOICE, "choice field"), (INVERSION, "inversion field"), (BONUS, "bonus field"))


class ReversiXTView(View):
    """The map's moves as actions; planes per player (the observer's first), board and stocks."""

    def __init__(self, game: Game[Any]) -> None:
        super().__init__(game)
        board = game.board  # type: ignore[attr-defined]
        p = board.players
        self.players = p
        self.shape = (board.height, board.width)
        self.moves: list[Move] = []
        for i, code in enumerate(board.cells):
            if code == HOLE:
                continue
            x, y = board.xy(i)
            self.moves.append(Move(x, y, 0))
            if code == CHOICE:
                self.moves.extend(Move(x, y, s) for s in range(1, p + 1))
            elif code == BONUS:
                self.moves.extend((Move(x, y, BONUS_BOMB), Move(x, y, BONUS_OVERRIDE)))
        self.index_of = {move: i for i, move in enumerate(self.moves)}
        self.num_actions = len(self.moves)
        self.plane_names = (
            *(f"stones of the player {k} after the observer" if k else "own stones" for k in range(p)),
            *(name for _, name in _BOARD_CODES + _SPECIAL_CODES),
            "phase 2 (bombs)",
            "own override stones",
            "own bombs",
        )
        self._codes = np.array([code for code, _ in _BOARD_CODES + _SPECIAL_CODES], dtype=np.uint8)

    def has_left(self, pos: Position, player: Player) -> bool:
        """A disqualified player is out; the others play on."""
        state = pos.state
        assert isinstance(state, ReversiState)
        return state.disqualified[player] is not None

    def score(self, pos: Position, player: Player) -> float:
        """The game's return at the end; a disqualified player's return for its place when it left."""
        state = pos.state
        assert isinstance(state, ReversiState)
        if state.is_terminal() or state.disqualified[player] is None:
            return state.returns()[player]
        return returns_from_ranks(state.ranks())[player]

    def encode(self, state: Any, action: Move) -> int:
        return self.index_of[Move(*action)]

    def decode(self, state: Any, index: int) -> Move:
        return self.moves[index]

    def planes(self, state: ReversiState, player: Player) -> Planes:
        """Stones per player (observer first), board codes, then phase and the observer's stocks."""
        p = self.players
        cells = np.frombuffer(state.cells, dtype=np.uint8).reshape(self.shape)
        order = np.array([(player + k) % p + 1 for k in range(p)], dtype=np.uint8)
        codes = np.concatenate([order, self._codes])
        out = np.empty((len(codes) + 3, *self.shape), dtype=np.float32)
        out[: len(codes)] = cells[None, :, :] == codes[:, None, None]
        out[-3] = state.phase == PHASE_BOMBS
        out[-2] = state.overrides[player] > 0
        out[-1] = state.bombs[player] > 0
        return out
