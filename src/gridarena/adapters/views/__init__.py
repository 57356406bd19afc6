"""A game as a learner sees it: a fixed integer action space, a legal-action mask and observation planes.

A :class:`View` reads everything off the game API (``legal_actions``, ``apply_action``, ``outcome``,
the state's own fields); it adds encodings, never rules. Every adapter (PettingZoo, Gymnasium,
OpenSpiel, the ``policy`` bot) drives a game through its view, so the three libraries see one game.

A :class:`Position` is where a learner stands: the game's state, and, for a game whose turn takes
several steps (Ice and Fire: one command a step), the state inside the turn and the steps so far.
Positions are immutable, like states.

>>> view = make_view(make("isolation(width=5,height=5)"))
>>> pos = view.start(view.game.new_initial_state())
>>> view.num_actions, int(view.mask(pos).sum()), view.observation(pos, 0).shape
(25, 25, (3, 5, 5))
>>> pos = view.apply(pos, 12)
>>> view.current_player(pos), view.game_state(pos).locs
(1, (12, None))
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from gridarena.core.errors import GridArenaError, IllegalActionError
from gridarena.core.registry import available_games, make
from gridarena.core.types import CHANCE, Game, GameState, Player

Planes = NDArray[np.float32]
"""Observation planes ``(channels, rows, cols)``, every value in [0, 1]."""

Mask = NDArray[np.int8]
"""One entry per action index: 1 where the action is legal."""


class IllegalIndexError(IllegalActionError):
    """An action index that is not legal in the position (the adapters make it a documented loss)."""


class NoViewError(GridArenaError):
    """A registered game without a view: every game must have one (a test holds the tables together)."""


@dataclass(frozen=True, slots=True)
class Position:
    """A learner's position: ``state`` the game's state, ``now`` the state the mover sees (inside a
    turn of several steps; else ``state`` itself) and ``steps`` the turn's actions given so far."""

    state: GameState[Any]
    now: GameState[Any]
    steps: tuple[Any, ...] = ()
    memo: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    """The legal indices once computed (a step reads them for the mask and again to check the action)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Position:
        return self  # immutable (the memo only caches answers): OpenSpiel's clone() shares it


class View:
    """A game's fixed action space, mask and observation planes; subclasses write the encodings.

    A subclass sets ``num_actions``, ``plane_names`` and ``shape`` and writes ``encode`` (a game
    action to its index), ``decode`` (an index to the game action), ``planes`` and, where listing the
    legal actions and encoding each is slow, ``legal_indices``. Chance outcomes are numbered by their
    place in ``chance_outcomes()``.
    """

    num_actions: int = 0
    plane_names: tuple[str, ...] = ()
    shape: tuple[int, int] = (0, 0)
    max_chance_outcomes: int = 0
    running_score: bool = False
    """True when ``score`` moves during a game; else it changes only at the end or when a player
    leaves (a forfeit), and the environments skip it on every other step."""

    def __init__(self, game: Game[Any]) -> None:
        self.game = game

    def __deepcopy__(self, memo: dict[int, Any]) -> View:
        return self  # fixed once made: OpenSpiel's clone() shares it

    # -- positions -------------------------------------------------------------------------------

    def start(self, state: GameState[Any]) -> Position:
        """The position at ``state`` (the start of a turn)."""
        return Position(state, state)

    def game_state(self, pos: Position) -> GameState[Any]:
        """The game's state of ``pos``: where the turn in progress began."""
        return pos.state

    def current_player(self, pos: Position) -> Player:
        """The seat to give the next step, ``CHANCE`` or ``TERMINAL``."""
        return pos.now.current_player()

    def is_terminal(self, pos: Position) -> bool:
        """Whether the game is over."""
        return pos.state.is_terminal()

    def legal(self, pos: Position) -> list[int]:
        """The legal indices, ascending (chance outcomes at a chance node; empty at the end)."""
        legal: list[int] | None = pos.memo.get("legal")
        if legal is None:
            if pos.now.is_terminal():
                legal = []
            elif pos.now.current_player() == CHANCE:
                legal = list(range(len(pos.now.chance_outcomes())))
            else:
                legal = self.legal_indices(pos.now)
            pos.memo["legal"] = legal
        return legal

    def mask(self, pos: Position) -> Mask:
        """``legal(pos)`` as a mask over the whole action space."""
        flags = bytearray(self.num_actions)
        if not self.max_chance_outcomes or pos.now.current_player() != CHANCE:
            for index in self.legal(pos):
                flags[index] = 1
        return np.frombuffer(flags, dtype=np.int8)

    def apply(self, pos: Position, index: int) -> Position:
        """The position after the legal ``index``; :class:`IllegalIndexError` when it is not legal."""
        if index not in self.legal(pos):
            raise IllegalIndexError(self.illegal_reason(pos, index))
        state = pos.now
        if self.max_chance_outcomes and state.current_player() == CHANCE:
            return self.start(state.child(state.chance_outcomes()[index][0]))
        return self.start(state.child(self.decode(state, index)))

    def illegal_reason(self, pos: Position, index: int) -> str:
        """Why ``index`` cannot be played in ``pos`` (it is assumed not legal)."""
        if pos.now.is_terminal():
            return f"{self.game.name}: the game is over"
        if not 0 <= index < max(self.num_actions, self.max_chance_outcomes):
            return f"{self.game.name}: action index {index} is outside 0..{self.num_actions - 1}"
        return f"{self.game.name}: action index {index} is not legal here"

    def has_left(self, pos: Position, player: Player) -> bool:
        """Whether ``player`` is out of a game that goes on without it (ReversiXT's disqualified)."""
        return False

    def forfeit(self, pos: Position, reason: str) -> Position:
        """The position after the mover forfeits with an ``illegal`` action (the turn is dropped)."""
        player = self.current_player(pos)
        return self.start(pos.state.forfeit(player, "illegal", reason))

    def steps_of(self, pos: Position, action: Any) -> list[int]:
        """The indices that play the game action ``action`` from ``pos`` (one, except where a turn
        takes several steps)."""
        return [self.encode(pos.now, action)]

    def played_action(self, pos: Position, action: Any) -> Any:
        """The game action that ``steps_of(pos, action)`` plays: ``action`` itself, except where its
        steps stop early (an Ice and Fire turn is cut after a command that ends the game)."""
        return action

    def game_action(self, pos: Position, index: int) -> Any | None:
        """The game action a legal step ``index`` completes, or None while the turn goes on."""
        return self.decode(pos.now, index)

    def index_text(self, pos: Position, index: int) -> str:
        """The text of the action or chance outcome ``index`` in ``pos`` (``#index`` if it has none)."""
        state = pos.now
        try:
            if state.current_player() == CHANCE:
                return state.action_to_string(state.chance_outcomes()[index][0])
            return state.action_to_string(self.decode(state, index))
        except (GridArenaError, IndexError, ValueError):
            return f"#{index}"

    def max_steps(self) -> int:
        """A bound on the steps of a game (chance outcomes included): the game's ``max_plies()``."""
        plies = self.game.max_plies()
        if plies is None:
            raise NoViewError(f"{self.game.name}: no bound on the length of a game")
        return int(plies)

    def utility_range(self) -> tuple[float, float]:
        """The lowest and highest return a player can get: -1 to 1 unless a view says otherwise."""
        return (-1.0, 1.0)

    # -- rewards and observations ----------------------------------------------------------------

    def score(self, pos: Position, player: Player) -> float:
        """``player``'s running score: rewards are its changes, and it ends at the game's return."""
        return pos.state.returns()[player]

    def observation(self, pos: Position, player: Player) -> Planes:
        """The planes of ``pos`` seen by ``player`` (its own pieces first)."""
        return self.planes(pos.now, player)

    # -- the encodings a game's view writes -------------------------------------------------------

    def legal_indices(self, state: Any) -> list[int]:
        """The indices of ``state.legal_actions()``, ascending."""
        return sorted(self.encode(state, action) for action in state.legal_actions())

    def encode(self, state: Any, action: Any) -> int:
        raise NotImplementedError

    def decode(self, state: Any, index: int) -> Any:
        raise NotImplementedError

    def planes(self, state: Any, player: Player) -> Planes:
        raise NotImplementedError


#: One view per registered game (a test keeps this table equal to the game registry).
VIEWS: Final[dict[str, str]] = {
    "iceandfire": "gridarena.adapters.views.iceandfire:IceAndFireView",
    "isolation": "gridarena.adapters.views.isolation:IsolationView",
    "pentocity": "gridarena.adapters.views.pentocity:PentocityView",
    "reversixt": "gridarena.adapters.views.reversixt:ReversiXTView",
    "slidingpuzzle": "gridarena.adapters.views.slidingpuzzle:SlidingPuzzleView",
}


def make_view(game: Game[Any] | str) -> View:
    """The view of a game (or of a game spec such as ``isolation(width=5,height=5)``)."""
    if isinstance(game, str):
        game = make(game)
    if game.name not in VIEWS:
        raise NoViewError(f"{game.name}: no learner's view is registered (gridarena.adapters.views.VIEWS)")
    module, _, attr = VIEWS[game.name].partition(":")
    view: View = getattr(importlib.import_module(module), attr)(game)
    return view


def games_without_view() -> list[str]:
    """Registered games that have no view (empty when the tables agree)."""
    return [name for name in available_games() if name not in VIEWS]


def one_hot(values: NDArray[Any], codes: Sequence[int]) -> Planes:
    """One plane per code: 1.0 where ``values`` equals it.

    >>> one_hot(np.array([[0, 2], [1, 2]]), (2, 1)).tolist()
    [[[0.0, 1.0], [0.0, 1.0]], [[0.0, 0.0], [1.0, 0.0]]]
    """
    return np.stack([values == code for code in codes]).astype(np.float32)
