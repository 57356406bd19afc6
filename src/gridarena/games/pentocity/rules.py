"""Pentocity rules: the Java course simulator (``mode="faithful"``) or the problem statement's rules.

One game is a stream of requests from a sequencer, answered one by one on a 50×50 land. The state
alternates a chance node (the sequencer's next request; its generator lives in the state, so the
single outcome has probability 1) and the player's turn (a :class:`Move`). The game ends at the third
rejection. An invalid move ends the game with the simulator's message (``on_invalid="abort"``, as Java),
or counts as a rejection with the land unchanged (``on_invalid="reject"``, not Java).

>>> game = Pentocity(sequencer="g6")
>>> state = game.new_initial_state(seed=1)
>>> state = state.apply_action(state.chance_outcomes()[0][0])
>>> state.illegal_reason(Move.build((20, 20)))
'Invalid building placement (Building not next to road.)'
>>> state = state.apply_action(Move.build((0, 0)))
>>> state.score
5
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Final, TypeAlias

import numpy as np

from gridarena.core.errors import ActionParseError, IllegalActionError, StateFormatError
from gridarena.core.params import Choice, Flag, Number, Param, check_params
from gridarena.core.types import CHANCE, JSON, TERMINAL, BaseState, Outcome, Player
from gridarena.games.pentocity.buildings import Building
from gridarena.games.pentocity.formats import (
    land_to_text,
    move_to_text,
    parse_land,
    parse_move,
    parse_request,
    request_to_text,
)
from gridarena.games.pentocity.land import (
    SIDE,
    Land,
    Mask,
    Mode,
    Move,
    empty_land,
    placement_mask,
)
from gridarena.games.pentocity.placement import InvalidMoveError, Placement, Violation, resolve_move
from gridarena.games.pentocity.sequencers import SEQUENCERS, Sequencer, sequencer_class, sequencer_from_json

Action: TypeAlias = Move | Building
"""A player's :class:`Move`, or a chance outcome: the next request."""

MAX_REJECTS: Final = 3
ON_INVALID: Final = ("abort", "reject")
MAX_CPU_TIME: Final = 86_400.0
"""The largest per-game CPU budget (a day; None turns the budget off)."""


class Pentocity:
    """The game: a sequencer by name, the rule mode and the invalid-move policy.

    ``cpu_time`` is the per-game CPU budget in seconds (Java: 300 s) that the runner enforces; None
    disables it. ``check_requests`` ends the game (termination ``aborted``) when the sequencer emits a
    request that the problem statement would not allow.

    >>> Pentocity().params["mode"]
    'faithful'
    """

    name: ClassVar[str] = "pentocity"
    num_players: ClassVar[int] = 1
    enumerable_actions: ClassVar[bool] = False
    zero_sum: ClassVar[bool] = False
    #: The parameters and their ranges (docs/pentocity.md lists them).
    PARAMETERS: ClassVar[Mapping[str, Param]] = {
        "sequencer": Choice(tuple(SEQUENCERS)),
        "mode": Choice(tuple(m.value for m in Mode)),
        "on_invalid": Choice(ON_INVALID),
        "check_requests": Flag(),
        "cpu_time": Number(0, MAX_CPU_TIME, optional=True),
    }

    def __init__(
        self,
        sequencer: str = "random",
        mode: str = "faithful",
        on_invalid: str = "abort",
        check_requests: bool = False,
        cpu_time: float | None = 300.0,
    ) -> None:
        if isinstance(sequencer, str):
            sequencer_class(sequencer)  # an unknown name: UnknownNameError with the close ones
        given = {"sequencer": sequencer, "mode": mode, "on_invalid": on_invalid, "cpu_time": cpu_time}
        check_params(self.name, self.PARAMETERS, {**given, "check_requests": check_requests})
        self.sequencer = sequencer
        self.mode = Mode(mode)
        self.on_invalid = on_invalid
        self.check_requests = check_requests
        self.cpu_time = None if cpu_time is None else float(cpu_time)

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"Pentocity({args})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Pentocity) and self.params == other.params

    def __hash__(self) -> int:
        return hash(tuple(self.params.items()))

    @property
    def params(self) -> Mapping[str, JSON]:
        """The constructor arguments, as JSON values."""
        return {
            "sequencer": self.sequencer,
            "mode": self.mode.value,
            "on_invalid": self.on_invalid,
            "check_requests": self.check_requests,
            "cpu_time": self.cpu_time,
        }

    def new_initial_state(self, seed: int | None = None) -> PentocityState:
        """An empty land before the first request; the sequencer is seeded as Java's ``init(seed)``."""
        return PentocityState(self, empty_land(), sequencer_class(self.sequencer).create(seed))

    def max_plies(self) -> int:
        """Every accepted move fills a cell: at most 2500 of them plus 3 rejections, two plies each."""
        return 2 * (SIDE * SIDE + MAX_REJECTS)

    def state_from_json(self, data: Mapping[str, JSON]) -> PentocityState:
        """Inverse of :meth:`PentocityState.to_json`; StateFormatError naming the bad field."""
        return _state_from_json(self, data)


@dataclass(frozen=True, slots=True, eq=False)
class PentocityState(BaseState[Action]):
    """A position: the land, the sequencer (with its generator), the pending request and the tallies."""

    ENUMERABLE: ClassVar[bool] = False

    pentocity: Pentocity
    land: Land
    sequencer: Sequencer
    request: Building | None = None
    score: int = 0
    rejects: int = 0
    requests: int = 0
    accepted: int = 0
    invalid: int = 0
    termination: str | None = None
    reason: str = ""

    def _key(self) -> tuple[Any, ...]:
        return (
            self.pentocity,
            self.land.tobytes(),
            self.sequencer,
            self.request,
            self.score,
            self.rejects,
            self.requests,
            self.accepted,
            self.invalid,
            self.termination,
            self.reason,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PentocityState) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (
            f"PentocityState(score={self.score}, rejects={self.rejects}, requests={self.requests}, "
            f"request={self.request!r}, termination={self.termination!r})"
        )

    @property
    def game(self) -> Pentocity:
        """The game whose rules this state follows."""
        return self.pentocity

    def current_player(self) -> Player:
        """TERMINAL at the end, CHANCE while a request is due, else 0 (the only player)."""
        if self.termination is not None:
            return TERMINAL
        return CHANCE if self.request is None else 0

    def is_terminal(self) -> bool:
        """True after the third rejection or a forfeit."""
        return self.termination is not None

    def chance_outcomes(self) -> Sequence[tuple[Action, float]]:
        """The single next request of the sequencer, with probability 1 (empty off chance nodes)."""
        if self.current_player() != CHANCE:
            return ()
        return ((self.sequencer.next()[0], 1.0),)

    def check(self, move: Move) -> Violation | None:
        """The first rule ``move`` breaks (with Java's message), or None when it is valid or a rejection."""
        if self.request is None:
            raise IllegalActionError("pentocity: no request is pending")
        if not move.accept:
            return None
        result = resolve_move(self.land, self.request, move, self.pentocity.mode)
        return result if isinstance(result, Violation) else None

    def illegal_reason(self, action: Action) -> str | None:
        """None if ``action`` may be applied; else the reason (for moves, the Java simulator's message and the
        offending detail: ``Invalid building placement (Building not next to road.)``).

        Under ``on_invalid="reject"`` an invalid move is applied as a rejection, so it is not illegal.
        """
        if self.is_terminal():
            return "the game is over"
        if self.current_player() == CHANCE:
            return BaseState.illegal_reason(self, action)
        if isinstance(action, Building):
            return f"expected a move, got the request {request_to_text(action)}"
        if not isinstance(action, Move):
            raise ActionParseError(f"expected a Move, got {action!r}")
        violation = self.check(action)
        if violation is None or self.pentocity.on_invalid == "reject":
            return None
        return str(violation)

    def apply_action(self, action: Action) -> PentocityState:
        """The next state; InvalidMoveError (an IllegalActionError) naming the failed check when invalid."""
        if self.current_player() == 0 and isinstance(action, Move) and action.accept:
            result = resolve_move(self.land, self._pending(), action, self.pentocity.mode)
            if isinstance(result, Violation):
                if self.pentocity.on_invalid == "reject":
                    return self._rejected(invalid=True)
                raise InvalidMoveError(result)
            return self._placed(result)
        reason = self.illegal_reason(action)
        if reason is not None:
            raise IllegalActionError(f"pentocity: {reason}")
        return self._apply(action)

    def _pending(self) -> Building:
        if self.request is None:
            raise IllegalActionError("pentocity: no request is pending")
        return self.request

    def _apply(self, action: Action) -> PentocityState:
        if isinstance(action, Building):
            return self._dealt()
        if not action.accept:
            return self._rejected(invalid=False)
        result = resolve_move(self.land, self._pending(), action, self.pentocity.mode)
        return self._rejected(invalid=True) if isinstance(result, Violation) else self._placed(result)

    def _dealt(self) -> PentocityState:
        request, sequencer = self.sequencer.next()
        state = replace(self, request=request, sequencer=sequencer, requests=self.requests + 1)
        problem = request.statement_problem() if self.pentocity.check_requests else None
        if problem is not None:
            return replace(state, request=None, termination="aborted", reason=f"invalid request: {problem}")
        return state

    def _rejected(self, invalid: bool) -> PentocityState:
        rejects = self.rejects + 1
        state = replace(self, request=None, rejects=rejects, invalid=self.invalid + int(invalid))
        if rejects >= MAX_REJECTS:
            return replace(state, termination="normal", reason=f"rejection {rejects} of {MAX_REJECTS}")
        return state

    def _placed(self, placement: Placement) -> PentocityState:
        return replace(
            self,
            land=placement.land,
            request=None,
            score=self.score + placement.delta,
            accepted=self.accepted + 1,
        )

    def random_action(self, rng: random.Random) -> Action:
        """At a chance node the next request; else a uniformly random placement that needs no new road
        (over every rotation and location), or a rejection when there is none."""
        if self.current_player() == CHANCE:
            return self.chance_outcomes()[0][0]
        masks = self._placement_masks()
        counts = [int(m.sum()) for m in masks]
        if sum(counts) == 0:
            return Move.reject()
        k = rng.randrange(sum(counts))
        for rotation, (mask, count) in enumerate(zip(masks, counts, strict=True)):
            if k < count:
                i, j = divmod(int(np.flatnonzero(mask)[k]), mask.shape[1])
                return Move.build((i, j), rotation)
            k -= count
        raise AssertionError("unreachable: k is below the total count")

    def _placement_masks(self) -> list[Mask]:
        """Per rotation of the pending request, the corners where it is valid with no new road."""
        request = self._pending()
        mode = self.pentocity.mode
        return [placement_mask(self.land, r, request.kind, mode) for r in request.rotations()]

    def placements(self) -> list[Move]:
        """Every placement of the pending request that is valid with no new road, as a bare move (no road,
        water or park), by rotation, then row, then column; empty off the player's turn.

        Each may be played as it is, or with cells added (a pond or a field beside it); a placement that
        needs a road is not listed (its road is the player's choice).

        >>> state = Pentocity(sequencer="g6").new_initial_state(seed=1)
        >>> state = state.apply_action(state.chance_outcomes()[0][0])
        >>> moves = state.placements()
        >>> len(moves), state.action_to_string(moves[0]), state.action_to_string(moves[-1])
        (736, '0,0 r0', '45,49 r1')
        """
        if self.current_player() != 0:
            return []
        return [
            Move.build((int(i), int(j)), rotation)
            for rotation, mask in enumerate(self._placement_masks())
            for i, j in np.argwhere(mask)
        ]

    def legal_texts(self) -> list[str]:
        """What an external program is offered as ``legal``: :meth:`placements` as text (``"3,0 r1"``),
        then ``reject``; at most 10,001 (:class:`~gridarena.core.types.OffersLegalTexts`)."""
        if self.current_player() != 0:
            return []
        return [
            f"{i},{j} r{rotation}"
            for rotation, mask in enumerate(self._placement_masks())
            for i, j in np.argwhere(mask)
        ] + ["reject"]

    def outcome(self) -> Outcome | None:
        """The result once the game is over. The return is the score, except after an invalid move, a crash
        or a protocol error, where Java reports no score (0 here; ``score`` keeps the points so far)."""
        if self.termination is None:
            return None
        keeps_score = self.termination in ("normal", "timeout", "adjudicated")
        value = float(self.score) if keeps_score else 0.0
        forfeit = None if self.termination == "normal" else 0
        return Outcome((value,), self.termination, self.reason, forfeit)

    def forfeit(self, player: Player, termination: str, reason: str) -> PentocityState:
        """The game ended by the arena (timeout, illegal move, crash, ...) with ``reason`` recorded."""
        return replace(self, request=None, termination=termination, reason=reason)

    def result_info(self) -> dict[str, JSON]:
        """The simulator's tallies: points scored (also after a forfeit), requests, placements, rejections."""
        return {
            "score": self.score,
            "requests": self.requests,
            "accepted": self.accepted,
            "rejects": self.rejects,
        }

    def action_to_string(self, action: Action) -> str:
        """Move text (see :mod:`formats`), or a request's text for a chance outcome."""
        if isinstance(action, Building):
            return request_to_text(action)
        return move_to_text(action)

    def string_to_action(self, text: str) -> Action:
        """Inverse of :meth:`action_to_string`."""
        if text.split(" ", 1)[0] in ("residence", "factory"):
            return parse_request(text)
        return parse_move(text)

    def to_json(self) -> dict[str, JSON]:
        """Everything needed to continue the game, as JSON."""
        return {
            "game": self.pentocity.name,
            "params": dict(self.pentocity.params),
            "land": land_to_text(self.land).split("\n"),
            "sequencer": self.sequencer.to_json(),
            "request": None if self.request is None else request_to_text(self.request),
            "score": self.score,
            "rejects": self.rejects,
            "requests": self.requests,
            "accepted": self.accepted,
            "invalid": self.invalid,
            "termination": self.termination,
            "reason": self.reason,
        }

    def to_text(self) -> str:
        """A header line, the pending request and the land as ASCII (``.rfwp#``)."""
        game = self.pentocity
        header = (
            f"pentocity {game.sequencer} {game.mode.value}: score {self.score}, "
            f"rejects {self.rejects}/{MAX_REJECTS}, requests {self.requests}"
        )
        if self.termination is not None:
            status = f"over ({self.termination}): {self.reason}"
        elif self.request is None:
            status = "next: a request from the sequencer"
        else:
            status = f"request: {request_to_text(self.request)}"
        return f"{header}\n{status}\n{land_to_text(self.land)}"


_COUNTERS: Final = ("score", "rejects", "requests", "accepted", "invalid")


def _state_from_json(game: Pentocity, data: Mapping[str, JSON]) -> PentocityState:
    """Read a state written by :meth:`PentocityState.to_json` for ``game``."""
    if not isinstance(data, Mapping):
        raise StateFormatError("pentocity state: expected a JSON object")
    for key in ("land", "sequencer", *_COUNTERS):
        if key not in data:
            raise StateFormatError(f"pentocity state: missing field {key!r}")
    params = data.get("params")
    if params is not None and (not isinstance(params, Mapping) or dict(params) != dict(game.params)):
        raise StateFormatError(
            f"pentocity state: params {data['params']} differ from the game's {game.params}"
        )
    land_rows = data["land"]
    if not isinstance(land_rows, list) or len(land_rows) != SIDE:
        raise StateFormatError(f"pentocity state: field 'land' must be a list of {SIDE} strings")
    land = parse_land("\n".join(str(r) for r in land_rows))
    sequencer = sequencer_from_json(data["sequencer"])
    if game.sequencer != sequencer.NAME:
        raise StateFormatError(f"pentocity state: sequencer {sequencer.NAME!r}, game has {game.sequencer!r}")
    counters: dict[str, int] = {}
    for key in _COUNTERS:
        value = data[key]
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise StateFormatError(f"pentocity state: field {key!r} must be a non-negative integer")
        counters[key] = value
    try:
        request = None if data.get("request") is None else parse_request(str(data["request"]))
    except ActionParseError as err:
        raise StateFormatError(f"pentocity state: field 'request': {err}") from None
    termination = data.get("termination")
    if termination is not None and not isinstance(termination, str):
        raise StateFormatError("pentocity state: field 'termination' must be a string or null")
    return PentocityState(
        game,
        land,
        sequencer,
        request,
        termination=termination,
        reason=str(data.get("reason", "")),
        **counters,
    )
