"""Monte Carlo tree search over the fast kernels: a sparring partner of another style than alpha-beta.

UCT (Kocsis and Szepesvári 2006) with max^n backups: every node keeps the summed reward of each
player, and the player to move picks the child best for himself, so it plays any number of players.
The tree lives in Python; each iteration copies the root position back into the board (a few
arrays), plays the tree's moves with ``make`` and finishes the game with :func:`playout`, a numba
loop of random moves (override moves only without another move, a choice field swapped with the
leader, a bomb on the strongest opponent's stones). The reward is the final ranking's return,
scaled to [0, 1]; the answer is the root's most visited move.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any, Final

import numpy as np

from gridarena.games.reversixt.fast import kernels as K
from gridarena.games.reversixt.fast.board import FastBoard
from gridarena.games.reversixt.fast.kernels import kernel
from gridarena.games.reversixt.fast.layout import COUNT, CTOP, DISQ, PHASE, P
from gridarena.games.reversixt.formats import ReversiMap

EXPLORATION: Final = 0.7
"""UCT's exploration constant on rewards in [0, 1]."""


@kernel
def _xorshift(seed: np.ndarray) -> int:
    """The next value of a 64-bit xorshift generator kept in ``seed[0]`` (non-negative)."""
    x = seed[0]
    x ^= (x << 13) & np.int64(0x7FFFFFFFFFFFFFFF)
    x ^= (x >> 7) & np.int64(0x01FFFFFFFFFFFFFF)
    x ^= (x << 17) & np.int64(0x7FFFFFFFFFFFFFFF)
    x &= np.int64(0x7FFFFFFFFFFFFFFF)
    if x == 0:
        x = np.int64(88172645463325252)
    seed[0] = x
    return int(x)


@kernel
def pick(k: int, n: int, cells: np.ndarray, st: np.ndarray, moves: np.ndarray, seed: np.ndarray) -> int:
    """The playout's move for ``k`` among ``moves[0, :n]``: random, override moves only without another,
    a choice swapped with the leader (or kept), a bomb on the strongest opponent's stones."""
    p = st[P]
    if st[PHASE] == 2:
        leader, most = 0, -1
        for j in range(1, p + 1):
            if j != k and st[DISQ + j] == 0 and st[COUNT + j] > most:
                leader, most = j, st[COUNT + j]
        start = _xorshift(seed) % n
        for i in range(n):
            m = moves[0, (start + i) % n]
            if cells[m >> 5] == leader:
                return int(m)
        return int(moves[0, start])
    plain = 0
    for i in range(n):
        v = cells[moves[0, i] >> 5]
        if not (1 <= v <= 8 or v == K.EXPANSION):
            plain += 1
    r = _xorshift(seed) % (plain if plain > 0 else n)
    for i in range(n):
        m = moves[0, i]
        v = cells[m >> 5]
        if plain > 0 and (1 <= v <= 8 or v == K.EXPANSION):
            continue
        if r == 0:
            if v == K.CHOICE:  # the swap partner: the player with most stones (ourselves if we lead)
                best = k
                for j in range(1, p + 1):
                    if st[DISQ + j] == 0 and st[COUNT + j] > st[COUNT + best]:
                        best = j
                return int((m & ~31) | best)
            return int(m)
        r -= 1
    return int(moves[0, 0])


@kernel
def playout(
    cells: np.ndarray, geo: np.ndarray, st: np.ndarray, clog: np.ndarray, saves: np.ndarray, wt: np.ndarray,
    buf: np.ndarray, marks: np.ndarray, moves: np.ndarray, count: np.ndarray, seed: np.ndarray, limit: int,
) -> int:  # fmt: skip
    """Play random moves (:func:`pick`) to the end of the game or ``limit`` moves; how many were played."""
    played = 0
    while played < limit:
        k = K.advance(cells, geo, st, moves, 0, count)
        if k == 0:
            break
        m = pick(k, count[0], cells, st, moves, seed)
        K.make(m, k, 0, cells, geo, st, clog, saves, wt, buf, marks)
        st[CTOP] = 0  # nothing is undone: the next iteration copies the root back
        played += 1
    return played


@dataclass(slots=True)
class Node:
    """A tree node: the move that led to it, its player to move (0 at the end), his moves, the
    children tried so far, visits and the summed reward of each player."""

    move: int
    mover: int
    moves: list[int]
    children: list[Node] = field(default_factory=list)
    visits: int = 0
    reward: np.ndarray = field(default_factory=lambda: np.zeros(9))

    def uct(self, child: Node) -> float:
        """UCT's value of ``child`` for this node's player to move."""
        return float(child.reward[self.mover] / child.visits) + EXPLORATION * math.sqrt(
            math.log(self.visits) / child.visits
        )


class MctsEngine:
    """One map's board and the root copy; :meth:`search` runs UCT from a clear-rules state."""

    def __init__(self, m: ReversiMap) -> None:
        self.map = m
        self.board = FastBoard(m, max_ply=2)
        self.seed = np.ones(1, dtype=np.int64)
        self.playout_limit = 4 * m.width * m.height + 64

    def reseed(self, seed: int) -> None:
        """Start the playouts' random numbers from ``seed`` (games repeat)."""
        self.seed[0] = (seed * 2654435761 + 1) & 0x7FFFFFFFFFFFFFFF or 1

    def _play(self, m: int, k: int) -> None:
        b = self.board
        K.make(m, k, 0, b.cells, b.geo, b.st, b.clog, b.saves, b.wt, b.buf, b.marks)
        b.st[CTOP] = 0  # nothing is undone: the next iteration copies the root back

    def _node(self, move: int) -> Node:
        b = self.board
        k = int(K.advance(b.cells, b.geo, b.st, b.moves, 0, b.count))
        return Node(move, k, b.moves[0, : b.count[0]].tolist() if k else [])

    def _reward(self) -> np.ndarray:
        """Each player's return from the final ranking, in [0, 1] (disqualified players rank last)."""
        st, p = self.board.st, self.map.players
        scores = [-1 if st[DISQ + k] else int(st[COUNT + k]) for k in range(1, p + 1)]
        out = np.zeros(9)
        for k in range(1, p + 1):
            rank = 1 + sum(s > scores[k - 1] for s in scores)
            out[k] = (p - rank) / (p - 1)
        return out

    def search(
        self, state: Any, deadline: float | None, iterations: int | None, cpu: bool = False
    ) -> tuple[tuple[int, int, int] | None, int]:
        """The most visited root move as ``(x, y, special)`` and the iterations run (until the
        deadline, a value of ``time.perf_counter`` or with ``cpu`` of ``time.thread_time``, or
        ``iterations``; one iteration without either)."""
        clock = time.thread_time if cpu else time.perf_counter
        b = self.board
        b.load(state)
        root = self._node(-1)
        if root.mover == 0:
            return None, 0
        saved = b.cells.copy(), b.geo[K.STEP].copy(), b.geo[K.ADJ].copy(), b.st.copy()
        done = 0
        while True:
            b.cells[:], b.geo[K.STEP], b.geo[K.ADJ], b.st[:] = saved
            node, path = root, [root]
            while node.mover and len(node.children) == len(node.moves):  # select
                parent, node = node, max(node.children, key=node.uct)
                self._play(node.move, parent.mover)
                path.append(node)
            if node.mover:  # expand the next untried move
                m = node.moves[len(node.children)]
                self._play(m, node.mover)
                node.children.append(self._node(m))
                path.append(node.children[-1])
            playout(
                b.cells, b.geo, b.st, b.clog, b.saves, b.wt, b.buf, b.marks, b.moves, b.count,
                self.seed, self.playout_limit,
            )  # fmt: skip
            reward = self._reward()
            for n in path:
                n.visits += 1
                n.reward += reward
            done += 1
            if (iterations is not None and done >= iterations) or (
                deadline is not None and clock() >= deadline
            ):
                break
            if iterations is None and deadline is None:
                break
        best = max(root.children, key=lambda c: c.visits).move
        cell, special = best >> 5, best & 31
        return (cell % self.map.width, cell // self.map.width, special), done
