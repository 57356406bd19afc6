"""Monte Carlo tree search with UCT (Kocsis and Szepesvári, 2006) for any number of players.

Each iteration descends the tree by UCB1 from the point of view of the player to move at each node,
adds one new node, asks the **evaluator** for a value per player at it (a random playout by
default, or a heuristic), and adds that vector to every node on the way back. The search is not
tied to an evaluator: anything with ``__call__(state) -> tuple[float, ...]`` serves, in the scale
of the game's ``returns()`` (the exploration constant ``c`` is meant for returns in [-1, 1]).
At chance nodes an outcome is drawn with its probability. The answer is the most visited action
at the root (ties: the better mean value, then the game's order).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any, Protocol

from gridarena.core.clock import TimeControl
from gridarena.core.types import CHANCE, TERMINAL, GameState, Player
from gridarena.search.adversarial import Action, Evaluate, root_player

Values = tuple[float, ...]
DEFAULT_ITERATIONS = 1000


class Evaluator(Protocol):
    """Values of a non-terminal state for every player, in the scale of ``returns()``."""

    def __call__(self, state: GameState[Any]) -> Values: ...


@dataclass(slots=True)
class RandomRollout:
    """Plays uniformly random actions (chance by its probabilities) to the end; the game's returns.

    ``max_plies`` cuts very long games: the playout is then valued 0 for everybody.
    """

    rng: random.Random
    max_plies: int | None = None

    def __call__(self, state: GameState[Any]) -> Values:
        plies = 0
        while state.current_player() != TERMINAL:
            if self.max_plies is not None and plies >= self.max_plies:
                return (0.0,) * state.game.num_players
            state = state.child(state.random_action(self.rng))
            plies += 1
        return tuple(state.returns())


@dataclass(frozen=True, slots=True)
class HeuristicValue:
    """A heuristic ``evaluate(state, player)`` squashed into (-1, 1) by ``tanh(value / scale)``.

    >>> from gridarena.games.isolation.rules import Isolation
    >>> HeuristicValue(lambda s, p: 2.0 * p - 1.0, scale=2.0)(Isolation(4, 4).new_initial_state())
    (-0.46211715726000974, 0.46211715726000974)
    """

    evaluate: Evaluate
    scale: float = 1.0

    def __call__(self, state: GameState[Any]) -> Values:
        players = state.game.num_players
        return tuple(math.tanh(self.evaluate(state, p) / self.scale) for p in range(players))


@dataclass(slots=True, eq=False)
class Node:
    """A tree node: the state, who moves there, children by action, visits and summed values."""

    state: GameState[Any]
    mover: Player
    untried: list[Action]
    children: dict[Action, Node] = field(default_factory=dict)
    visits: int = 0
    totals: list[float] = field(default_factory=list)

    def mean(self, player: Player) -> float:
        """The mean value for ``player`` over the visits (0 before the first)."""
        return self.totals[player] / self.visits if self.visits else 0.0


@dataclass(frozen=True, slots=True)
class MCTSResult:
    """The search's answer and its statistics."""

    best: Action | None
    iterations: int
    visits: dict[Action, int]
    value: float  # the mean value of ``best`` for the player to move at the root
    nodes: int  # nodes in the tree


@dataclass(slots=True)
class MCTS:
    """UCT search: ``search(state, iterations, clock)`` runs until either limit is reached.

    >>> from gridarena.games.isolation.rules import state_from_board
    >>> state = state_from_board(["1...", "....", "....", "...2"])
    >>> mcts = MCTS(RandomRollout(random.Random(1)), rng=random.Random(1))
    >>> result = mcts.search(state, iterations=200)
    >>> result.iterations, sum(result.visits.values()), result.best in state.legal_actions()
    (200, 200, True)
    """

    evaluator: Evaluator
    c: float = math.sqrt(2)
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    _players: int = field(default=0, init=False, repr=False)

    def search(
        self, state: GameState[Any], iterations: int | None = None, clock: TimeControl | None = None
    ) -> MCTSResult:
        """Grow a tree from ``state`` for ``iterations`` (or until ``clock`` stops) and pick an action.

        The clock counts one node per iteration. Without an iteration count and a clock that can stop (deadline or node budget),
        :data:`DEFAULT_ITERATIONS` iterations are run.
        """
        if iterations is None and (clock is None or (clock.deadline is None and clock.nodes is None)):
            iterations = DEFAULT_ITERATIONS
        player = root_player(state, None)
        self._players = state.game.num_players  # read once: a state's ``game`` may be rebuilt on each call
        root = self._node(state)
        done = 0
        while (iterations is None or done < iterations) and not (clock is not None and clock.tick()):
            self._iterate(root)
            done += 1
        return self._result(root, player, done)

    def _node(self, state: GameState[Any]) -> Node:
        mover = state.current_player()
        untried = list(state.legal_actions()) if mover >= 0 else []
        self.rng.shuffle(untried)
        return Node(state, mover, untried, totals=[0.0] * self._players)

    def _iterate(self, root: Node) -> None:
        """One selection, expansion, evaluation and backup."""
        path = [root]
        node = root
        while node.mover != TERMINAL:
            if node.mover == CHANCE:
                outcome = node.state.random_action(self.rng)
                child = node.children.get(outcome)
                if child is None:
                    child = node.children[outcome] = self._node(node.state.child(outcome))
                    path.append(child)
                    break
            elif node.untried:
                action = node.untried.pop()
                child = node.children[action] = self._node(node.state.child(action))
                path.append(child)
                break
            else:
                child = self._select(node)
            path.append(child)
            node = child
        leaf = path[-1]
        values = tuple(leaf.state.returns()) if leaf.mover == TERMINAL else self.evaluator(leaf.state)
        for visited in path:
            visited.visits += 1
            for i, v in enumerate(values):
                visited.totals[i] += v

    def _select(self, node: Node) -> Node:
        """The child with the largest UCB1 score for the player to move at ``node``."""
        log_n = math.log(node.visits)
        mover = node.mover
        return max(
            node.children.values(),
            key=lambda ch: ch.totals[mover] / ch.visits + self.c * math.sqrt(log_n / ch.visits),
        )

    def _result(self, root: Node, player: Player, iterations: int) -> MCTSResult:
        visits = {a: ch.visits for a, ch in root.children.items()}
        order = {a: i for i, a in enumerate(root.state.legal_actions())} if root.mover >= 0 else {}
        best = None
        if root.children:
            best = max(
                root.children, key=lambda a: (visits[a], root.children[a].mean(player), -order.get(a, 0))
            )
        value = root.children[best].mean(player) if best is not None else 0.0
        return MCTSResult(best, iterations, visits, value, _size(root))


def _size(node: Node) -> int:
    """Nodes in the tree below and including ``node``."""
    return 1 + sum(_size(child) for child in node.children.values())
