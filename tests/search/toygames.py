"""Tiny games and puzzles for the search tests: N-player Nim, seeded random trees, a sliding puzzle."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from gridarena.core.types import CHANCE, JSON, TERMINAL, BaseState, Outcome, Player


@dataclass(frozen=True, slots=True)
class Nim:
    """One heap; a player takes 1..max_take stones; whoever takes the last stone wins.

    Returns: 1 for the winner and -1/(n-1) for each other player (zero-sum for any n).
    """

    num_players: int = 2
    heap: int = 7
    max_take: int = 3
    name: str = "nim"
    enumerable_actions: bool = True

    @property
    def zero_sum(self) -> bool:
        return True

    @property
    def params(self) -> Mapping[str, JSON]:
        return {"num_players": self.num_players, "heap": self.heap, "max_take": self.max_take}

    def new_initial_state(self, seed: int | None = None) -> NimState:
        return NimState(self, self.heap, 0)

    def state_from_json(self, data: Mapping[str, JSON]) -> NimState:
        return NimState(self, int(data["heap"]), int(data["mover"]))

    def max_plies(self) -> int:
        return self.heap


@dataclass(frozen=True, slots=True)
class NimState(BaseState[int]):
    nim: Nim
    heap: int
    mover: int
    winner: int | None = None

    @property
    def game(self) -> Nim:
        return self.nim

    def current_player(self) -> Player:
        return TERMINAL if self.winner is not None else self.mover

    def legal_actions(self) -> list[int]:
        return [] if self.winner is not None else list(range(1, min(self.heap, self.nim.max_take) + 1))

    def _apply(self, action: int) -> NimState:
        heap = self.heap - action
        winner = self.mover if heap == 0 else None
        return NimState(self.nim, heap, (self.mover + 1) % self.nim.num_players, winner)

    def is_terminal(self) -> bool:
        return self.winner is not None

    def outcome(self) -> Outcome | None:
        if self.winner is None:
            return None
        n = self.nim.num_players
        return Outcome(tuple(1.0 if p == self.winner else -1.0 / (n - 1) for p in range(n)))

    def action_to_string(self, action: int) -> str:
        return str(action)

    def to_text(self) -> str:
        return f"heap {self.heap}, player {self.mover} to move"


@dataclass(frozen=True, slots=True)
class TreeGame:
    """A seeded random game tree of fixed depth; leaves pay a random split of 1 among the players.

    Node sizes vary from 1 to ``branching``; with ``chance_every=k`` every k-th level is a chance
    node with ``branching`` outcomes of random probabilities. Players move in turn order.
    """

    seed: int = 0
    num_players: int = 3
    branching: int = 3
    depth: int = 5
    chance_every: int | None = None
    name: str = "tree"
    enumerable_actions: bool = True
    zero_sum: bool = False

    @property
    def params(self) -> Mapping[str, JSON]:
        return {"seed": self.seed, "num_players": self.num_players, "depth": self.depth}

    def new_initial_state(self, seed: int | None = None) -> TreeState:
        return TreeState(self, ())

    def state_from_json(self, data: Mapping[str, JSON]) -> TreeState:
        return TreeState(self, tuple(data["path"]))

    def max_plies(self) -> int:
        return self.depth

    def rng(self, path: tuple[int, ...], salt: str = "") -> random.Random:
        """A generator seeded by the game, the node and a purpose: the tree is a pure function."""
        return random.Random(f"{self.seed}:{path}:{salt}")

    def split(self, path: tuple[int, ...], salt: str) -> tuple[float, ...]:
        """Random non-negative values summing to 1 (in eighths, so sums are exact)."""
        rng = self.rng(path, salt)
        cuts = sorted(rng.randint(0, 8) for _ in range(self.num_players - 1))
        edges = [0, *cuts, 8]
        return tuple((edges[i + 1] - edges[i]) / 8 for i in range(self.num_players))


@dataclass(frozen=True, slots=True)
class TreeState(BaseState[int]):
    tree: TreeGame
    path: tuple[int, ...]
    mover_index: int = 0  # how many player turns came before (chance levels do not count)

    @property
    def game(self) -> TreeGame:
        return self.tree

    def _is_chance(self) -> bool:
        every = self.tree.chance_every
        return every is not None and len(self.path) % every == every - 1

    def current_player(self) -> Player:
        if len(self.path) >= self.tree.depth:
            return TERMINAL
        return CHANCE if self._is_chance() else self.mover_index % self.tree.num_players

    def legal_actions(self) -> list[int]:
        if self.current_player() < 0:
            return []
        return list(range(self.tree.rng(self.path, "size").randint(1, self.tree.branching)))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.current_player() != CHANCE:
            return []
        weights = [self.tree.rng(self.path, "p").randint(1, 4) for _ in range(self.tree.branching)]
        return [(i, w / sum(weights)) for i, w in enumerate(weights)]

    def _apply(self, action: int) -> TreeState:
        turns = self.mover_index + (0 if self._is_chance() else 1)
        return TreeState(self.tree, (*self.path, action), turns)

    def is_terminal(self) -> bool:
        return len(self.path) >= self.tree.depth

    def outcome(self) -> Outcome | None:
        return Outcome(self.tree.split(self.path, "leaf")) if self.is_terminal() else None

    def action_to_string(self, action: int) -> str:
        return str(action)

    def to_text(self) -> str:
        return f"path {self.path}"


def tree_heuristic(state: Any, player: Player) -> float:
    """A heuristic for :class:`TreeGame`: a random split of WIN (so leaf vectors sum to WIN)."""
    return float(state.tree.split(state.path, "h")[player] * 1e9)


Board = tuple[int, ...]
MOVES = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}  # the direction the blank moves


@dataclass(frozen=True)
class SlidingPuzzle:
    """The rows x cols sliding puzzle; 0 is the blank; the goal is 1, 2, ..., 0."""

    rows: int
    cols: int
    initial: Board
    goal: Board = field(init=False)

    def __post_init__(self) -> None:
        n = self.rows * self.cols
        object.__setattr__(self, "goal", (*range(1, n), 0))

    def start(self) -> Board:
        return self.initial

    def is_goal(self, state: Board) -> bool:
        return state == self.goal

    def successors(self, state: Board) -> Iterator[tuple[str, Board]]:
        blank = state.index(0)
        row, col = divmod(blank, self.cols)
        for name, (dr, dc) in MOVES.items():
            r, c = row + dr, col + dc
            if 0 <= r < self.rows and 0 <= c < self.cols:
                cells = list(state)
                other = r * self.cols + c
                cells[blank], cells[other] = cells[other], 0
                yield name, tuple(cells)

    def manhattan(self, state: Board) -> float:
        total = 0
        for index, tile in enumerate(state):
            if tile:
                goal_row, goal_col = divmod(tile - 1, self.cols)
                row, col = divmod(index, self.cols)
                total += abs(goal_row - row) + abs(goal_col - col)
        return float(total)

    def misplaced(self, state: Board) -> float:
        return float(sum(1 for a, b in zip(state, self.goal, strict=True) if a and a != b))


def scrambled(rows: int, cols: int, moves: int, seed: int) -> SlidingPuzzle:
    """A solvable puzzle: ``moves`` random blank moves from the goal."""
    rng = random.Random(seed)
    puzzle = SlidingPuzzle(rows, cols, ())
    state = puzzle.goal
    for _ in range(moves):
        state = rng.choice([s for _, s in puzzle.successors(state)])
    return SlidingPuzzle(rows, cols, state)


@dataclass(frozen=True)
class WeightedGrid:
    """Walk from the top-left to the bottom-right cell; entering a cell costs its weight (1..9)."""

    width: int
    height: int
    weights: tuple[int, ...]

    def start(self) -> int:
        return 0

    def is_goal(self, cell: int) -> bool:
        return cell == self.width * self.height - 1

    def successors(self, cell: int) -> Iterator[tuple[str, int, float]]:
        row, col = divmod(cell, self.width)
        for name, (dr, dc) in MOVES.items():
            r, c = row + dr, col + dc
            if 0 <= r < self.height and 0 <= c < self.width:
                target = r * self.width + c
                yield name, target, float(self.weights[target])

    def manhattan(self, cell: int) -> float:
        row, col = divmod(cell, self.width)
        return float(self.height - 1 - row + self.width - 1 - col) * min(self.weights)


def random_grid(width: int, height: int, seed: int) -> WeightedGrid:
    rng = random.Random(seed)
    return WeightedGrid(width, height, tuple(rng.randint(1, 9) for _ in range(width * height)))
