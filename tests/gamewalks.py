"""Walks over any registered game's public API, shared by the golden playthroughs and the count runner.

Only the public state API is used (``legal_actions``, ``chance_outcomes``, ``child``, ``is_terminal``,
``to_json``), so the walks hold for every enumerable game without knowing its rules.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from gridarena.core.types import CHANCE, GameState

#: JSON fields that count plies rather than describe the position. The sliding puzzle's state counts
#: its slides, so without this a breadth-first search would take one board at two depths for two states.
PLY_COUNTERS: dict[str, tuple[str, ...]] = {"slidingpuzzle": ("moves",)}


def position_key(state: GameState[Any]) -> object:
    """What makes two states the same position: the state itself, or its JSON without ply counters."""
    counters = PLY_COUNTERS.get(state.game.name)
    if counters is None:
        return state
    return repr(sorted((k, v) for k, v in state.to_json().items() if k not in counters))


def moves_from(state: GameState[Any]) -> list[Any]:
    """The actions to try from ``state``: the chance outcomes at a chance node, else the legal actions."""
    if state.current_player() == CHANCE:
        return [outcome for outcome, _ in state.chance_outcomes()]
    return list(state.legal_actions())


@dataclass(frozen=True, slots=True)
class Node:
    """A position reached by breadth-first search: its state, depth and how it was first reached."""

    state: GameState[Any]
    depth: int
    parent: Node | None = None
    action: Any = None

    def path(self) -> list[Any]:
        """The actions from the start to this node."""
        actions, node = [], self
        while node.parent is not None:
            actions.append(node.action)
            node = node.parent
        return actions[::-1]


def breadth_first(start: GameState[Any]) -> Iterator[Node]:
    """Every position reachable from ``start``, once each, shallowest first; terminal ones are not expanded."""
    seen = {position_key(start)}
    layer = [Node(start, 0)]
    while layer:
        yield from layer
        following = []
        for node in layer:
            if node.state.is_terminal():
                continue
            for action in moves_from(node.state):
                child = node.state.child(action)
                key = position_key(child)
                if key not in seen:
                    seen.add(key)
                    following.append(Node(child, node.depth + 1, node, action))
        layer = following


def shortest_path_to_end(start: GameState[Any]) -> list[Any]:
    """The fewest actions that end the game from ``start`` (the first terminal position found)."""
    for node in breadth_first(start):
        if node.state.is_terminal():
            return node.path()
    raise AssertionError(f"{start.game.name}: no terminal position is reachable")
