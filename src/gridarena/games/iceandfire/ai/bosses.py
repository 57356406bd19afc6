"""The Wood league bosses of the contest, call for call: ``config/levelN/Boss.py3`` of the referee repository.

Each reads the CodinGame input, builds ``actions = ["WAIT"]`` and prints ``";".join(actions)``. The
originals call ``random.seed(0)`` once at start-up; these copies use one ``random.Random(0)`` per game
and make the same calls in the same order, which gives identical output for identical input. They
keep the originals' slips (Wood 1 trains on its spawn cell after building a mine there, and assumes a
mine costs 20).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from gridarena.games.iceandfire.formats import TurnInput, parse_spots
from gridarena.games.iceandfire.geometry import HQ, SIZE
from gridarena.games.iceandfire.protocol import CodinGameBot


def _clamp(v: int) -> int:
    return min(SIZE - 1, max(0, v))


class WoodBoss(CodinGameBot):
    """Shared by the three bosses: ``random.Random(0)`` per game, the input as the boss reads it."""

    def new_game(self) -> None:
        """The boss's ``random.seed(0)``: one generator per game."""
        self.boss_rng = random.Random(0)
        self.spots: list[tuple[int, int]] = []

    def start(self, lines: Sequence[str]) -> None:
        """Mine spots in input order."""
        self.spots = parse_spots(lines)

    @staticmethod
    def hqs(turn: TurnInput) -> tuple[tuple[int, int], tuple[int, int]]:
        """(own HQ, enemy HQ) from the buildings list."""
        mine = enemy = (0, 0)
        for owner, kind, x, y in turn.buildings:
            if kind == HQ:
                if owner == 0:
                    mine = (x, y)
                else:
                    enemy = (x, y)
        return mine, enemy

    @staticmethod
    def spawn_cell(my_hq: tuple[int, int]) -> tuple[int, int]:
        """Where a boss trains level 1: (1,0) for red, left of its HQ, (10,11), for blue."""
        return (1, 0) if my_hq[0] == 0 else (my_hq[0] - 1, my_hq[1])

    def diagonal(self, uid: int, x: int, y: int) -> str:
        """The random diagonal MOVE of the Wood 3 boss: x's choice drawn first, then y's."""
        tx = _clamp(x + self.boss_rng.choice([1, -1]))
        ty = _clamp(y + self.boss_rng.choice([1, -1]))
        return f"MOVE {uid} {tx} {ty}"


class Wood3Boss(WoodBoss):
    """``config/level1/Boss.py3``: random diagonal moves, and one level-1 unit at a time."""

    name = "wood3"

    def turn(self, lines: Sequence[str]) -> str:
        """Wood 3's boss, ``config/level1/Boss.py3``."""
        t = TurnInput.parse(lines)
        my_hq, _ = self.hqs(t)
        actions = ["WAIT"]
        count = 0
        for owner, uid, _level, x, y in t.units:
            if owner == 0:
                count += 1
                actions.append(self.diagonal(uid, x, y))
        if count == 0 and t.gold >= 10:
            sx, sy = self.spawn_cell(my_hq)
            actions.append(f"TRAIN 1 {sx} {sy}")
        return ";".join(actions)


class Wood2Boss(WoodBoss):
    """``config/level2/Boss.py3``: the first unit marches on the enemy HQ; level 2 when it can pay."""

    name = "wood2"

    def turn(self, lines: Sequence[str]) -> str:
        """Wood 2's boss, ``config/level2/Boss.py3``."""
        t = TurnInput.parse(lines)
        my_hq, enemy_hq = self.hqs(t)
        actions = ["WAIT"]
        first = True
        for owner, uid, _level, x, y in t.units:
            if owner != 0:
                continue
            if first:
                actions.append(f"MOVE {uid} {enemy_hq[0]} {enemy_hq[1]}")
                first = False
            else:
                actions.append(self.diagonal(uid, x, y))
        if t.gold >= 20 and t.income >= 4:
            sx, sy = (0, 1) if my_hq[1] == 0 else (my_hq[0], my_hq[1] - 1)
            actions.append(f"TRAIN 2 {sx} {sy}")
        elif t.gold >= 10:
            sx, sy = self.spawn_cell(my_hq)
            actions.append(f"TRAIN 1 {sx} {sy}")
        return ";".join(actions)


class Wood1Boss(WoodBoss):
    """``config/level3/Boss.py3``: random steps, one mine at a time, trains along a row scan."""

    name = "wood1"

    def turn(self, lines: Sequence[str]) -> str:
        """Wood 1's boss, ``config/level3/Boss.py3``."""
        t = TurnInput.parse(lines)
        rows = t.rows
        my_hq, _ = self.hqs(t)
        gold = t.gold
        occupied: list[tuple[int, int]] = [(x, y) for owner, _k, x, y in t.buildings if owner == 0]
        mine_units = []
        for owner, uid, _level, x, y in t.units:
            occupied.append((x, y))
            if owner == 0:
                mine_units.append((uid, x, y))
        actions = ["WAIT"]
        rng = self.boss_rng
        for uid, x, y in mine_units:
            if rng.randint(0, 1) == 1:
                tx, ty = x, _clamp(y + rng.choice([1, -1]))
            else:
                tx, ty = _clamp(x + rng.choice([1, -1])), y
            if rows[ty][tx] != "#" and (tx, ty) not in occupied:
                actions.append(f"MOVE {uid} {tx} {ty}")
                occupied.remove((x, y))
                occupied.append((tx, ty))
        if gold >= 20:
            for x, y in self.spots:
                if rows[y][x] == "O" and (x, y) not in occupied:
                    actions.append(f"BUILD MINE {x} {y}")
                    gold -= 20
                    self.spots.remove((x, y))
                    break
        if gold >= 10:
            spawn, reverse = self.spawn_cell(my_hq), my_hq[0] == 0
            if spawn not in occupied:
                actions.append(f"TRAIN 1 {spawn[0]} {spawn[1]}")
                occupied.append(spawn)
            ys = range(SIZE - 1, -1, -1) if reverse else range(SIZE)
            for y in ys:
                xs = range(SIZE - 1, -1, -1) if reverse else range(SIZE)
                for x in xs:
                    c = rows[y][x]
                    if c == "O" and (x, y) != my_hq and (x, y) not in occupied and gold >= 20:
                        actions.append(f"TRAIN 1 {x} {y}")
                        gold -= 10
                        occupied.append((x, y))
                    if c == "X" and _border(rows, x, y):
                        if (x, y) not in occupied:
                            actions.append(f"TRAIN 1 {x} {y}")
                            gold -= 10
                            occupied.append((x, y))
                        elif gold >= 20:
                            actions.append(f"TRAIN 2 {x} {y}")
                            gold -= 20
                            occupied.append((x, y))
                if gold < 10:
                    break
        return ";".join(actions)


def _border(rows: Sequence[str], x: int, y: int) -> bool:
    """The boss's ``is_my_border``: a 4-neighbour of (x, y) is an own active cell."""
    for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
        if 0 <= nx < SIZE and 0 <= ny < SIZE and rows[ny][nx] == "O":
            return True
    return False
