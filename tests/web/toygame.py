"""A toy game that is not part of gridarena, with its own renderer: the frame must take it as it is.

Counting down: a counter starts at ``start``; each player in turn takes 1 or 2; whoever takes the
last one wins. Registered by the test only (``catalogue.GAMES["toy"] = "toygame:ENTRY"``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from gridarena.core.catalogue import GameEntry
from gridarena.core.params import Int, Param, check_params
from gridarena.core.types import JSON, TERMINAL, BaseState, Outcome, Player


@dataclass(frozen=True, slots=True)
class Toy:
    start: int = 7
    name: str = field(default="toy", init=False)
    num_players: int = field(default=2, init=False)
    enumerable_actions: bool = field(default=True, init=False)
    zero_sum: bool = field(default=True, init=False)
    PARAMETERS: ClassVar[Mapping[str, Param]] = {"start": Int(1, 100)}

    def __post_init__(self) -> None:
        check_params(self.name, self.PARAMETERS, self.params)

    @property
    def params(self) -> Mapping[str, JSON]:
        return {"start": self.start}

    def new_initial_state(self, seed: int | None = None) -> ToyState:
        return ToyState(self.start, self.start, 0)

    def state_from_json(self, data: Mapping[str, JSON]) -> ToyState:
        return ToyState(self.start, int(data["left"]), int(data["ply"]))  # type: ignore[arg-type]

    def max_plies(self) -> int:
        return self.start


@dataclass(frozen=True, slots=True)
class ToyState(BaseState[int]):
    start: int
    left: int
    ply: int
    forfeited: Outcome | None = None

    @property
    def game(self) -> Toy:
        return Toy(self.start)

    def current_player(self) -> Player:
        return TERMINAL if self.is_terminal() else self.ply % 2

    def legal_actions(self) -> list[int]:
        return [] if self.is_terminal() else [t for t in (1, 2) if t <= self.left]

    def _apply(self, action: int) -> ToyState:
        return ToyState(self.start, self.left - action, self.ply + 1)

    def is_terminal(self) -> bool:
        return self.left == 0 or self.forfeited is not None

    def outcome(self) -> Outcome | None:
        if self.forfeited is not None:
            return self.forfeited
        if self.left:
            return None
        winner = (self.ply - 1) % 2
        return Outcome((1.0, -1.0) if winner == 0 else (-1.0, 1.0))

    def forfeit(self, player: Player, termination: str, reason: str) -> ToyState:
        returns = (-1.0, 1.0) if player == 0 else (1.0, -1.0)
        return ToyState(self.start, self.left, self.ply, Outcome(returns, termination, reason, player))

    def action_to_string(self, action: int) -> str:
        return str(action)

    def string_to_action(self, text: str) -> int:
        return int(text)

    def to_json(self) -> dict[str, JSON]:
        return {"left": self.left, "ply": self.ply}

    def to_text(self) -> str:
        return f"{self.left} left"


def render_svg(state: ToyState, *, last_action: int | None = None) -> str:
    """One circle per counter left; the toy's own marker class says the frame used this renderer."""
    circles = "".join(
        f'<circle class="toy-counter" cx="{20 + 30 * i}" cy="20" r="10"/>' for i in range(state.left)
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="240" height="40" data-game="toy" '
        f'data-ply="{state.ply}" data-left="{state.left}" data-last="{last_action or ""}">{circles}</svg>'
    )


#: The toy's catalogue entries: with its renderer, and without one (the viewer then shows its text).
ENTRY = GameEntry("toy", "a toy countdown", "toygame:Toy", renderer="toygame:render_svg")
ENTRY_TEXT = GameEntry("toy", "a toy countdown", "toygame:Toy")
