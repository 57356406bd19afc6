"""An independent ReversiXT oracle for the count files: the rules (steps, captures, moves, turn order, bombs) rewritten on
plain dicts and tuples, sharing no code with ``gridarena.games.reversixt.rules``.

It reads only the position's JSON (board rows, stocks, phase, last mover) and the map's header and
transitions, then counts perft leaves or reachable positions by brute force.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

DIRS = [(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)]  # clockwise from up

Pos = tuple[tuple[str, ...], tuple[int, ...], tuple[int, ...], int, int]
"""(cells row-major as symbols, override stocks, bomb stocks, phase 1/2/3, last mover L)."""


class Oracle:
    """The rules of one map."""

    def __init__(self, players: int, width: int, height: int, radius: int, transitions: Any) -> None:
        self.p, self.w, self.h, self.r = players, width, height, radius
        self.glue: dict[tuple[int, int, int], tuple[int, int, int]] = {}
        for x1, y1, d1, x2, y2, d2 in transitions:
            self.glue[(x1, y1, d1)] = (x2, y2, (d2 + 4) % 8)
            self.glue[(x2, y2, d2)] = (x1, y1, (d1 + 4) % 8)

    def at(self, cells: tuple[str, ...], x: int, y: int) -> str:
        return cells[y * self.w + x]

    def step(self, cells: tuple[str, ...], x: int, y: int, d: int) -> tuple[int, int, int] | None:
        nx, ny = x + DIRS[d][0], y + DIRS[d][1]
        if 0 <= nx < self.w and 0 <= ny < self.h and self.at(cells, nx, ny) != "-":
            return nx, ny, d
        if (x, y, d) in self.glue:
            tx, ty, td = self.glue[(x, y, d)]
            if self.at(cells, tx, ty) != "-":
                return tx, ty, td
        return None

    def flips(self, cells: tuple[str, ...], x0: int, y0: int, k: int) -> set[tuple[int, int]]:
        me = str(k)
        out: set[tuple[int, int]] = set()
        for d in range(8):
            line: list[tuple[int, int]] = []
            pos = self.step(cells, x0, y0, d)
            while pos is not None and (pos[0], pos[1]) != (x0, y0):
                c = self.at(cells, pos[0], pos[1])
                if c == me:
                    out.update(line)
                    break
                if c not in "12345678x":
                    break
                line.append((pos[0], pos[1]))
                pos = self.step(cells, *pos)
        return out

    def placements(self, pos: Pos, k: int) -> list[tuple[int, int]]:
        cells, ov = pos[0], pos[1][k - 1]
        out = []
        for y in range(self.h):
            for x in range(self.w):
                c = self.at(cells, x, y)
                if c == "-":
                    continue
                if c == "x":
                    ok = ov > 0
                elif c in "12345678":
                    ok = ov > 0 and bool(self.flips(cells, x, y, k))
                else:
                    ok = bool(self.flips(cells, x, y, k))
                if ok:
                    out.append((x, y))
        return out

    def mover(self, pos: Pos) -> int:
        """The player to move (0 when the game is over); the position must be settled."""
        _, _, bombs, phase, last = pos
        for n in range(1, self.p + 1):
            k = (last - 1 + n) % self.p + 1
            if phase == 1 and self.placements(pos, k):
                return k
            if phase == 2 and bombs[k - 1] > 0:
                return k
        return 0

    def settle(self, pos: Pos) -> Pos:
        """Phase changes after a move: phase 1 ends when nobody can place, phase 2 when no bomb is left."""
        cells, ov, bombs, phase, last = pos
        if phase == 1 and not self.mover(pos):
            phase = 2
        if phase == 2 and (not any(bombs) or all(c == "-" for c in cells)):
            phase = 3
        return cells, ov, bombs, phase, last

    def moves(self, pos: Pos) -> Iterator[tuple[int, int, int]]:
        if pos[3] == 3:
            return
        k = self.mover(pos)
        if pos[3] == 2:
            for i, c in enumerate(pos[0]):
                if c != "-":
                    yield i % self.w, i // self.w, 0
            return
        for x, y in self.placements(pos, k):
            c = self.at(pos[0], x, y)
            specials = range(1, self.p + 1) if c == "c" else (20, 21) if c == "b" else (0,)
            for s in specials:
                yield x, y, s

    def play(self, pos: Pos, move: tuple[int, int, int]) -> Pos:
        cells, ov, bombs, phase, _ = pos
        k = self.mover(pos)
        x, y, s = move
        board = list(cells)
        o, b = list(ov), list(bombs)
        if phase == 2:
            dist = {(x, y): 0}
            todo = [(x, y)]
            while todo:
                f = todo.pop(0)
                if dist[f] < self.r:
                    for d in range(8):
                        n = self.step(cells, f[0], f[1], d)
                        if n is not None and (n[0], n[1]) not in dist:
                            dist[(n[0], n[1])] = dist[f] + 1
                            todo.append((n[0], n[1]))
            for fx, fy in dist:
                board[fy * self.w + fx] = "-"
            b[k - 1] -= 1
        else:
            before = self.at(cells, x, y)
            if before in "12345678x":
                o[k - 1] -= 1
            for fx, fy in self.flips(cells, x, y, k) | {(x, y)}:
                board[fy * self.w + fx] = str(k)
            me = str(k)
            if before == "c":
                other = str(s)
                board = [other if c == me else me if c == other else c for c in board]
            elif before == "i":
                board = [str(int(c) % self.p + 1) if c in "12345678" else c for c in board]
            elif before == "b":
                if s == 20:
                    b[k - 1] += 1
                else:
                    o[k - 1] += 1
        return self.settle((tuple(board), tuple(o), tuple(b), phase, k))

    def perft(self, pos: Pos, depth: int) -> int:
        if depth == 0:
            return 1
        return sum(self.perft(self.play(pos, m), depth - 1) for m in self.moves(pos))

    def reachable(self, pos: Pos) -> int:
        seen = {pos}
        layer = [pos]
        while layer:
            nxt = []
            for q in layer:
                for m in self.moves(q):
                    child = self.play(q, m)
                    if child not in seen:
                        seen.add(child)
                        nxt.append(child)
            layer = nxt
        return len(seen)


def reversixt_count(state: Any, kind: str, depth: int | None) -> int | None:
    """Perft or reachable from a ReversiXT state, by the oracle (None: a count it cannot check)."""
    data = state.to_json()
    if any(r is not None for r in data["disqualified"]):
        return None  # the oracle knows no disqualification; count files start from plain positions
    m = state.game.board
    oracle = Oracle(m.players, m.width, m.height, m.radius, m.transitions)
    pos: Pos = (
        tuple("".join(data["board"])),
        tuple(data["overrides"]),
        tuple(data["bombs"]),
        int(data["phase"]),
        int(data["last"]),
    )
    if kind == "perft":
        return oracle.perft(pos, depth or 0)
    if kind == "reachable":
        return oracle.reachable(pos)
    return None
