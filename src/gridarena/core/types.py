"""The game API, written once: every game, bot, search and the arena speak it.

Names follow OpenSpiel (``current_player``, ``legal_actions``, ``apply_action``, ``returns``), but
**states are immutable**: ``apply_action`` returns a new state and leaves the old one as it was.
Search then needs no undo, a state can key a transposition table, a position can be shared between
threads or shipped to a worker, and the conformance check "applying never changes the original" holds
by construction. ``clone()`` exists for OpenSpiel users and returns the state itself.

A game is a small factory (name, parameters, players, ``new_initial_state``); the rules live in
its state class. Games subclass :class:`BaseState`, which writes the bookkeeping once: the checked
``apply_action`` (legality, then the game's own ``_apply``), ``random_action``, ``clone``, the
default forfeit and the JSON envelope.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Generic, Protocol, Self, TypeAlias, TypeVar, runtime_checkable

from gridarena.core.errors import IllegalActionError, NotEnumerableError

Player: TypeAlias = int
"""A seat number, 0 moving first, or one of the markers below."""

CHANCE: Final[Player] = -1
"""``current_player()`` of a state where chance (a dealer, a request stream) acts next."""

TERMINAL: Final[Player] = -4
"""``current_player()`` of a finished game (OpenSpiel's value)."""

JSON: TypeAlias = Any
"""A value that ``json.dumps`` accepts: dict, list, str, int, float, bool or None."""

A = TypeVar("A", bound=Hashable)
S = TypeVar("S", bound="GameState[Any]")
S_co = TypeVar("S_co", bound="GameState[Any]", covariant=True)

#: How a game ended; the arena's forfeit kinds are the ones other than ``normal``.
TERMINATIONS: Final = ("normal", "timeout", "illegal", "crash", "protocol", "adjudicated", "aborted")

#: The terminations in which a player forfeits the game; reports count them per entrant and reason.
FORFEITS: Final = ("timeout", "illegal", "crash", "protocol")


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended: one value per player, the kind of ending and a sentence."""

    returns: tuple[float, ...]
    termination: str = "normal"
    reason: str = ""
    forfeit_player: Player | None = None

    def ranks(self) -> tuple[int, ...]:
        """Competition ranks from the returns (1 = best; equal returns share the better rank).

        >>> Outcome((1.0, -1.0)).ranks()
        (1, 2)
        >>> Outcome((3.0, 5.0, 3.0)).ranks()
        (2, 1, 2)
        """
        return tuple(1 + sum(other > mine for other in self.returns) for mine in self.returns)

    def to_json(self) -> dict[str, JSON]:
        """The outcome as a JSON object (the replay's and the arena's result record)."""
        return {
            "returns": list(self.returns),
            "ranks": list(self.ranks()),
            "termination": self.termination,
            "reason": self.reason,
            "forfeit_player": self.forfeit_player,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> Outcome:
        """Inverse of :meth:`to_json`."""
        return cls(
            tuple(float(r) for r in data["returns"]),
            str(data.get("termination", "normal")),
            str(data.get("reason", "")),
            data.get("forfeit_player"),
        )


@runtime_checkable
class GameState(Protocol[A]):
    """A position. Immutable: every method leaves ``self`` unchanged."""

    @property
    def game(self) -> Game[Any]: ...
    def current_player(self) -> Player: ...
    def legal_actions(self) -> Sequence[A]: ...
    def illegal_reason(self, action: A) -> str | None: ...
    def apply_action(self, action: A) -> GameState[A]: ...
    def child(self, action: A) -> GameState[A]: ...
    def chance_outcomes(self) -> Sequence[tuple[A, float]]: ...
    def random_action(self, rng: random.Random) -> A: ...
    def is_terminal(self) -> bool: ...
    def returns(self) -> tuple[float, ...]: ...
    def outcome(self) -> Outcome | None: ...
    def forfeit(self, player: Player, termination: str, reason: str) -> GameState[A]: ...
    def result_info(self) -> dict[str, JSON]: ...
    def action_to_string(self, action: A) -> str: ...
    def string_to_action(self, text: str) -> A: ...
    def to_json(self) -> dict[str, JSON]: ...
    def to_text(self) -> str: ...
    def clone(self) -> GameState[A]: ...


@runtime_checkable
class Game(Protocol[S_co]):
    """A game with fixed parameters: a factory of initial states and a reader of saved ones."""

    @property
    def name(self) -> str: ...
    @property
    def num_players(self) -> int: ...
    @property
    def enumerable_actions(self) -> bool:
        """True when ``legal_actions()`` lists every legal action (False for Pentocity, Ice and Fire)."""
        ...

    @property
    def zero_sum(self) -> bool:
        """True when the players' returns always sum to zero (alpha-beta applies)."""
        ...

    @property
    def params(self) -> Mapping[str, JSON]: ...
    def new_initial_state(self, seed: int | None = None) -> S_co: ...
    def state_from_json(self, data: Mapping[str, JSON]) -> S_co: ...
    def max_plies(self) -> int | None: ...


@runtime_checkable
class OffersLegalTexts(Protocol):
    """Optional: a state whose game cannot list its actions offers a bounded list of legal ones as text.

    External programs get it as the turn's ``legal`` (:func:`legal_texts`): each text is a legal action
    here, as it is, though not every legal action is listed (Pentocity: the placements that need no new
    road, and ``reject``; Ice and Fire: every single command the referee would carry out, and ``WAIT``).
    """

    def legal_texts(self) -> list[str]: ...


def legal_texts(state: GameState[Any]) -> list[str] | None:
    """What a program may play here, as text: every legal action where the game lists them, else the
    state's :class:`OffersLegalTexts` selection, else None.

    >>> from gridarena import make
    >>> legal_texts(make("isolation(width=3,height=3)").new_initial_state())[:4]
    ['a1', 'b1', 'c1', 'a2']
    """
    if isinstance(state, OffersLegalTexts):
        return state.legal_texts()
    if state.game.enumerable_actions:
        return [state.action_to_string(a) for a in state.legal_actions()]
    return None


class BaseState(Generic[A]):
    """Bookkeeping shared by every game's state class; a game writes only its rules.

    A subclass implements ``game``, ``current_player``, ``legal_actions`` (or sets
    ``ENUMERABLE = False`` and implements ``illegal_reason`` and ``random_action``), ``_apply``,
    ``is_terminal``, ``outcome``, ``forfeit``, the action text pair, ``to_json`` and ``to_text``.
    """

    ENUMERABLE: ClassVar[bool] = True
    __slots__ = ()

    @property
    def game(self) -> Game[Any]:
        raise NotImplementedError

    def current_player(self) -> Player:
        raise NotImplementedError

    def legal_actions(self) -> Sequence[A]:
        """Every legal action, sorted; empty iff the state is terminal or a chance node."""
        raise NotEnumerableError(f"{self.game.name}: actions cannot be enumerated; use random_action")

    def illegal_reason(self, action: A) -> str | None:
        """None if ``action`` is legal here, else a sentence saying why it is not."""
        if self.is_terminal():
            return "the game is over"
        if self.current_player() == CHANCE:
            if any(action == outcome for outcome, _ in self.chance_outcomes()):
                return None
            return f"{self.action_to_string(action)} is not a chance outcome here"
        if action in self.legal_actions():
            return None
        return f"{self.action_to_string(action)} is not a legal action here"

    def apply_action(self, action: A) -> Self:
        """The state after ``action``; raises :class:`IllegalActionError` with the reason."""
        reason = self.illegal_reason(action)
        if reason is not None:
            raise IllegalActionError(f"{self.game.name}: {reason}")
        return self._apply(action)

    def child(self, action: A) -> Self:
        """The state after ``action``, unchecked: for search over ``legal_actions()``."""
        return self._apply(action)

    def _apply(self, action: A) -> Self:
        raise NotImplementedError

    def chance_outcomes(self) -> Sequence[tuple[A, float]]:
        """(outcome, probability) pairs at a chance node; empty elsewhere."""
        return ()

    def random_action(self, rng: random.Random) -> A:
        """A legal action (or chance outcome) drawn with ``rng``; the state must not be terminal."""
        if self.current_player() == CHANCE:
            outcomes = self.chance_outcomes()
            weights = [p for _, p in outcomes]
            return rng.choices([o for o, _ in outcomes], weights=weights)[0]
        return rng.choice(list(self.legal_actions()))

    def is_terminal(self) -> bool:
        raise NotImplementedError

    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on."""
        raise NotImplementedError

    def returns(self) -> tuple[float, ...]:
        """One value per player: the final result at the end, zeros before (OpenSpiel's rule)."""
        result = self.outcome()
        return result.returns if result is not None else (0.0,) * self.game.num_players

    def forfeit(self, player: Player, termination: str, reason: str) -> Self:
        """The state after ``player`` forfeits (timeout, illegal action, crash, protocol error)."""
        raise NotImplementedError

    def result_info(self) -> dict[str, JSON]:
        """Figures of a finished game worth keeping beside its returns (the arena stores them).

        Empty by default; Pentocity gives its score and request counts.
        """
        return {}

    def action_to_string(self, action: A) -> str:
        raise NotImplementedError

    def string_to_action(self, text: str) -> A:
        raise NotImplementedError

    def to_json(self) -> dict[str, JSON]:
        raise NotImplementedError

    def to_text(self) -> str:
        raise NotImplementedError

    def clone(self) -> Self:
        """The state itself: states are immutable, so a copy is never needed."""
        return self


def zero_sum_forfeit_returns(num_players: Player, loser: Player) -> tuple[float, ...]:
    """Returns when ``loser`` forfeits a two-player zero-sum game (a loss for it, a win for the other).

    >>> zero_sum_forfeit_returns(2, 0)
    (-1.0, 1.0)
    """
    return tuple(-1.0 if p == loser else 1.0 for p in range(num_players))
