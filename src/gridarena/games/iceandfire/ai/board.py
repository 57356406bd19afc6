"""The bots' own board: a mutable, seat-relative model of one turn, built from the CodinGame input.

Bots plan inside one turn: they try a chain of trains, undo it, try a tower, and so on. The referee's
states are immutable and keep the full history (messages, ids, both clocks); the bots need a flat,
cheap copy of what the input shows, with the few rules a plan touches (spec sections 4-9): who may
enter which cell, the path step of a MOVE, activity by flood fill, income. Everything here is
relative to the bot: player 0 is the bot (``ME``), player 1 its opponent (``OPP``), exactly as in
the CodinGame input, so the same code runs inside the arena and behind a CodinGame submission.

Cells are integers ``i = y * 12 + x``. The board is checked against the referee in the tests: every
command a bot emits through :meth:`Board.train` / :meth:`Board.move` / :meth:`Board.build` must be
one the referee executes.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Final

SIZE: Final = 12
CELLS: Final = SIZE * SIZE
ME: Final = 0
OPP: Final = 1
NEUTRAL: Final = -1

HQ: Final = 0
MINE: Final = 1
TOWER: Final = 2
NONE: Final = -1

UNIT_COST: Final = (0, 10, 20, 30)
UPKEEP: Final = (0, 1, 4, 20)
TOWER_COST: Final = 15
CAPTURE_LEVEL: Final = 3

UP, RIGHT, DOWN, LEFT = 0, 1, 2, 3
_STEP: Final = ((0, -1), (1, 0), (0, 1), (-1, 0))
#: The referee's neighbour order for the path step: red UP, RIGHT, DOWN, LEFT; blue a half-turn of it.
RED_ORDER: Final = (UP, RIGHT, DOWN, LEFT)
BLUE_ORDER: Final = (DOWN, LEFT, UP, RIGHT)


def cell(x: int, y: int) -> int:
    """The cell index of (x, y)."""
    return y * SIZE + x


def xy(i: int) -> tuple[int, int]:
    """(x, y) of cell ``i``."""
    return i % SIZE, i // SIZE


class OutOfTime(Exception):
    """A search on a board whose ``abort`` said the turn's time is up (the caller drops that work)."""


def _neighbours_by_direction() -> tuple[tuple[int, ...], ...]:
    table = []
    for i in range(CELLS):
        x, y = xy(i)
        row = []
        for dx, dy in _STEP:
            nx, ny = x + dx, y + dy
            row.append(cell(nx, ny) if 0 <= nx < SIZE and 0 <= ny < SIZE else -1)
        table.append(tuple(row))
    return tuple(table)


#: ``DIR_NEIGHBOURS[i][d]``: the cell in direction d of i, or -1 off the grid (void is checked later).
DIR_NEIGHBOURS: Final = _neighbours_by_direction()


def _rings() -> tuple[tuple[int, ...], ...]:
    table = []
    for i in range(CELLS):
        x, y = xy(i)
        row = []
        for dx, dy in ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)):
            nx, ny = x + dx, y + dy
            row.append(cell(nx, ny) if 0 <= nx < SIZE and 0 <= ny < SIZE else -1)
        table.append(tuple(row))
    return tuple(table)


#: ``RING[i]``: the 8 cells around i in cyclic order N, NE, E, SE, S, SW, W, NW (-1 off the grid);
#: consecutive entries are 4-neighbours, and the even entries are i's own 4-neighbours.
RING: Final = _rings()


@dataclass(frozen=True, slots=True)
class MapInfo:
    """What never changes in a game: void cells, their neighbours, mine spots and path distances."""

    void: tuple[bool, ...]
    spots: frozenset[int]
    neighbours: tuple[tuple[int, ...], ...]  # non-void 4-neighbours of each cell
    dist: tuple[tuple[int, ...], ...]  # shortest path over non-void cells (spec section 7)
    near: tuple[tuple[int, ...], ...]  # non-void cells within path distance 2 of each cell

    @classmethod
    def build(cls, void: Sequence[bool], spots: Sequence[int]) -> MapInfo:
        """Neighbours and the all-pairs distances (one BFS per cell: 144 small searches)."""
        neighbours = tuple(
            tuple(n for n in DIR_NEIGHBOURS[i] if n >= 0 and not void[n]) if not void[i] else ()
            for i in range(CELLS)
        )
        far = CELLS * 4
        dist = []
        for s in range(CELLS):
            row = [far] * CELLS
            if not void[s]:
                row[s] = 0
                queue = deque([s])
                while queue:
                    c = queue.popleft()
                    for n in neighbours[c]:
                        if row[n] == far:
                            row[n] = row[c] + 1
                            queue.append(n)
            dist.append(tuple(row))
        near = tuple(tuple(c for c in range(CELLS) if dist[s][c] <= 2) for s in range(CELLS))
        return cls(tuple(bool(v) for v in void), frozenset(spots), neighbours, tuple(dist), near)


class Board:
    """One turn's position from the bot's side, with the rules a plan needs; mutable, cheap to copy.

    ``owner[i]``: ME, OPP or NEUTRAL. ``active[i]``: the cell is joined to its owner's HQ.
    ``unit_level[i]`` (0: none), ``unit_owner[i]``, ``unit_id[i]``; ``moved[i]``: the unit on i can no
    longer act this turn. ``building[i]`` (HQ, MINE, TOWER or NONE) and ``building_owner[i]``.
    """

    __slots__ = (
        "abort",
        "active",
        "building",
        "building_owner",
        "cache",
        "floods",
        "gold",
        "hq",
        "income",
        "info",
        "moved",
        "owner",
        "pending",
        "red",
        "rules",
        "unit_id",
        "unit_level",
        "unit_owner",
        "won",
    )

    def __init__(self, info: MapInfo, red: bool, rules: str = "contest") -> None:
        self.info = info
        self.owner = [NEUTRAL] * CELLS
        self.active = [False] * CELLS
        self.unit_level = [0] * CELLS
        self.unit_owner = [NEUTRAL] * CELLS
        self.unit_id = [0] * CELLS
        self.moved = [False] * CELLS
        self.building = [NONE] * CELLS
        self.building_owner = [NEUTRAL] * CELLS
        self.gold = [0, 0]
        self.income = [0, 0]
        self.hq = [cell(0, 0), cell(11, 11)] if red else [cell(11, 11), cell(0, 0)]
        self.red = red
        self.rules = rules
        self.won: int | None = None  # the player whose unit took the other HQ during the plan
        #: Deferred takes (cell, owner before, active before) that :meth:`settle` has not resolved.
        self.pending: list[tuple[int, int, bool]] = []
        #: Counts the floods that may have changed cells other than those taken (see tactics.summary).
        self.floods = 0
        #: Asked by the searches (:func:`~gridarena.games.iceandfire.ai.tactics.check_time`): True
        #: means the turn's hard time limit has passed and they raise :class:`OutOfTime`. Copies share it.
        self.abort: Callable[[], bool] | None = None
        #: Searches of this exact position (see :meth:`cached`), shared with copies until either changes.
        self.cache: dict[tuple[object, ...], object] | None = None

    def copy(self) -> Board:
        """A copy to try a plan on (lists copied; the map shared)."""
        b = Board.__new__(Board)
        b.info, b.red, b.rules, b.won = self.info, self.red, self.rules, self.won
        b.owner = self.owner[:]
        b.active = self.active[:]
        b.unit_level = self.unit_level[:]
        b.unit_owner = self.unit_owner[:]
        b.unit_id = self.unit_id[:]
        b.moved = self.moved[:]
        b.building = self.building[:]
        b.building_owner = self.building_owner[:]
        b.gold = self.gold[:]
        b.income = self.income[:]
        b.hq = self.hq[:]
        b.pending = self.pending[:] if self.pending else []
        b.floods = self.floods
        b.abort = self.abort
        b.cache = self.cache
        return b

    def changed(self) -> None:
        """Forget the cached searches: every change of the position calls this (the mutators below,
        and code that writes the lists of a fresh copy directly)."""
        self.cache = None

    def cached(self, key: tuple[object, ...]) -> object | None:
        """A search of this position stored under ``key`` by :meth:`remember`, or None."""
        return None if self.cache is None else self.cache.get(key)

    def remember(self, key: tuple[object, ...], value: object) -> None:
        """Store a search of this position (copies made before a change see it too)."""
        if self.cache is None:
            self.cache = {}
        self.cache[key] = value

    # -- reading ------------------------------------------------------------------------------

    def order(self, player: int) -> tuple[int, ...]:
        """The referee's neighbour order for ``player``'s path steps."""
        red = self.red if player == ME else not self.red
        return RED_ORDER if red else BLUE_ORDER

    def free(self, i: int) -> bool:
        """No unit and no building on i."""
        return self.unit_level[i] == 0 and self.building[i] == NONE

    def units(self, player: int) -> Iterator[int]:
        """Cells holding a unit of ``player``, by unit id (the input order)."""
        cells = [i for i in range(CELLS) if self.unit_level[i] and self.unit_owner[i] == player]
        return iter(sorted(cells, key=lambda i: self.unit_id[i]))

    def protected(self, i: int) -> bool:
        """Spec 5: an owned cell with a tower on it, or next to an active tower of the same owner."""
        o = self.owner[i]
        if o == NEUTRAL:
            return False
        if self.building[i] == TOWER:
            return True
        for n in self.info.neighbours[i]:
            if self.building[n] == TOWER and self.owner[n] == o and self.active[n]:
                return True
        return False

    def capturable(self, i: int, player: int, level: int) -> bool:
        """Spec 5, step by step: may a ``level`` unit of ``player`` be trained on or move onto i."""
        mine = self.owner[i] == player
        if level < CAPTURE_LEVEL and not mine:
            if self.active[i] and self.protected(i):
                return False
            if self.building[i] == TOWER:
                return False
        if self.unit_level[i] == 0 and self.building[i] == NONE:
            return True
        if mine:
            return False
        u = self.unit_level[i]
        return not (u and level != CAPTURE_LEVEL and level <= u)

    def min_level(self, i: int, player: int) -> int:
        """The cheapest level that may enter i (0 if none may: own buildings and units)."""
        for level in (1, 2, 3):
            if self.capturable(i, player, level):
                return level
        return 0

    def min_levels(self, player: int) -> list[int]:
        """:meth:`min_level` of every cell at once, 0 on void cells and ``player``'s active ones.

        The same answers in one pass (the chain search asks for all 144): an own cell takes a level-1
        unit if it is free; another cell needs level 3 behind a tower's protection, else one level
        above the unit on it (level 3 takes anything).
        """
        owner, active, building = self.owner, self.active, self.building
        unit_level, neighbours, void = self.unit_level, self.info.neighbours, self.info.void
        shielded = [False] * CELLS  # protected(i) for cells of an active tower's owner
        for t in range(CELLS):
            if building[t] == TOWER:
                o = owner[t]
                if o == NEUTRAL:
                    continue
                shielded[t] = True
                if active[t]:
                    for n in neighbours[t]:
                        if owner[n] == o:
                            shielded[n] = True
        out = [0] * CELLS
        for i in range(CELLS):
            if void[i]:
                continue
            o = owner[i]
            if o == player:
                if not active[i] and unit_level[i] == 0 and building[i] == NONE:
                    out[i] = 1
                continue
            if building[i] == TOWER or (active[i] and shielded[i]):
                out[i] = 3
                continue
            u = unit_level[i]
            out[i] = 1 if u == 0 else (2 if u == 1 else 3)
        return out

    def playable(self, i: int, player: int) -> bool:
        """Own and active, or next to an own active cell (spec 6, check 1)."""
        if self.owner[i] == player and self.active[i]:
            return True
        return any(self.owner[n] == player and self.active[n] for n in self.info.neighbours[i])

    def mine_cost(self, player: int) -> int:
        """The contest price (20 + 4 per mine owned, inactive ones included) or the flat multi price."""
        if self.rules == "multi":
            return 15
        owned = sum(1 for i in range(CELLS) if self.building[i] == MINE and self.building_owner[i] == player)
        return 20 + 4 * owned

    def compute_income(self, player: int) -> int:
        """Spec 9: active cells, +4 per active mine, minus the upkeep of units on active cells."""
        total = 0
        for i in range(CELLS):
            if self.owner[i] == player and self.active[i]:
                total += 1
                if self.building[i] == MINE:
                    total += 4
                if self.unit_level[i] and self.unit_owner[i] == player:
                    total -= UPKEEP[self.unit_level[i]]
        return total

    def cells_of(self, player: int, active: bool = True) -> list[int]:
        """Cells owned by ``player`` (only the active ones unless ``active`` is False)."""
        return [i for i in range(CELLS) if self.owner[i] == player and (self.active[i] or not active)]

    # -- changing -----------------------------------------------------------------------------

    def recompute_activity(self) -> None:
        """Flood fill from both HQs (spec 4): the oracle the incremental updates below must equal."""
        self.active = [False] * CELLS
        for player in (ME, OPP):
            self._flood_from_hq(player)
        self.pending = []
        self.floods += 1
        self.cache = None

    def _reflood(self, player: int) -> None:
        """``player``'s activity from scratch (after it lost an active cell: a cut is possible)."""
        self.floods += 1
        owner, active = self.owner, self.active
        for i in range(CELLS):
            if owner[i] == player:
                active[i] = False
        self._flood_from_hq(player)

    def _flood_from_hq(self, player: int) -> None:
        """Mark active every cell of ``player`` connected to its HQ (its cells start inactive)."""
        start = self.hq[player]
        if self.owner[start] == player:
            self._spread(start, player)

    def _spread(self, start: int, player: int) -> int:
        """Mark active ``start`` and every inactive cell of ``player`` joined to it; the count added
        beyond ``start``."""
        owner, active, neighbours = self.owner, self.active, self.info.neighbours
        active[start] = True
        stack = [start]
        added = 0
        while stack:
            c = stack.pop()
            for n in neighbours[c]:
                if not active[n] and owner[n] == player:
                    active[n] = True
                    stack.append(n)
                    added += 1
        return added

    def _join(self, i: int, player: int) -> None:
        """``player`` now owns i: if i touches its active territory (or is its HQ), i and the own
        inactive cells reached through it become active (a gain of cells never cuts anything)."""
        owner, active, neighbours = self.owner, self.active, self.info.neighbours
        if i != self.hq[player] and not any(owner[n] == player and active[n] for n in neighbours[i]):
            active[i] = False
            return
        self.floods += self._spread(i, player)

    def _still_joined(self, i: int, prev: int, gone: dict[int, bool]) -> bool:
        """Whether taking ``prev``'s active cell i certainly leaves the rest of its territory joined.

        The simple-point test: i's remaining active neighbours of ``prev`` all lie on one arc of
        ``prev``'s cells around i (diagonals included), so any path through i can go round it.
        ``gone``: cells of the chain already taken (True) or still to be taken (False) from ``prev``
        while active; they count as ``prev``'s until taken. False means "maybe cut": flood again.
        """
        if i == self.hq[prev]:
            return False
        owner, active = self.owner, self.active
        inside = []
        for n in RING[i]:
            if n < 0:
                inside.append(False)
            elif n in gone:
                inside.append(not gone[n])
            else:
                inside.append(owner[n] == prev and active[n])
        if all(inside):
            return True
        # Arcs of consecutive inside cells around the cycle; the 4-neighbours must share one arc.
        start = inside.index(False)
        arcs_with_neighbour = 0
        in_arc = has_neighbour = False
        for k in range(1, 9):
            j = (start + k) % 8
            if inside[j]:
                if not in_arc:
                    in_arc, has_neighbour = True, False
                if j % 2 == 0:
                    has_neighbour = True
            elif in_arc:
                in_arc = False
                if has_neighbour:
                    arcs_with_neighbour += 1
        return arcs_with_neighbour <= 1

    def settle(self) -> None:
        """Resolve the deferred takes of a chain: what :meth:`recompute_activity` would give, faster.

        The board was consistent before the chain and a chain only adds cells to its player, so the
        player's side grows from the chain's cells, and the opponent is flooded again only when the
        chain took one of its active cells.
        """
        pending = self.pending
        if not pending:
            return
        self.pending = []
        self.cache = None
        owner = self.owner
        # Cells taken from a player while active, not yet taken (False) or taken (True) in chain order.
        gone = {i: False for i, prev, was_active in pending if was_active and prev != owner[i]}
        refloods = set()
        for i, prev, was_active in pending:
            player = owner[i]
            if prev == player and was_active:
                continue
            self._join(i, player)
            if prev == 1 - player and was_active:
                if prev not in refloods and not self._still_joined(i, prev, gone):
                    refloods.add(prev)
                gone[i] = True
        for p in refloods:
            self._reflood(p)

    def _clear(self, i: int, player: int) -> None:
        if self.unit_level[i] and self.unit_owner[i] != player:
            self.unit_level[i], self.unit_owner[i], self.unit_id[i] = 0, NEUTRAL, 0
        if self.building[i] in (MINE, TOWER) and self.building_owner[i] != player:
            self.building[i], self.building_owner[i] = NONE, NEUTRAL

    def _take(self, i: int, player: int, defer: bool = False) -> None:
        self.cache = None
        prev, was_active = self.owner[i], self.active[i]
        self.owner[i] = player
        if i == self.hq[1 - player]:
            self.won = player
        if defer:
            # A chain cell joins an active own neighbour: it is active at once; the opponent's side
            # (cells this one cut off) waits for the caller's settle().
            self.active[i] = True
            self.pending.append((i, prev, was_active))
            return
        if self.pending:
            self.pending.append((i, prev, was_active))
            self.settle()
            return
        if prev == player and was_active:
            return
        self._join(i, player)
        if prev == 1 - player and was_active and not self._still_joined(i, prev, {}):
            self._reflood(prev)

    def can_train(self, i: int, level: int, player: int = ME) -> bool:
        """Spec 6's execution checks."""
        return (
            not self.info.void[i]
            and self.playable(i, player)
            and self.gold[player] >= UNIT_COST[level]
            and self.capturable(i, player, level)
        )

    def train(self, i: int, level: int, player: int = ME, defer: bool = False) -> bool:
        """TRAIN if the referee would accept it; returns whether it did.

        ``defer`` leaves the opponent's activity stale until :meth:`settle` (chains).
        """
        if not self.can_train(i, level, player):
            return False
        self.cache = None
        self._clear(i, player)
        self.unit_level[i], self.unit_owner[i], self.unit_id[i] = level, player, 10_000 + i
        self.moved[i] = True
        self.gold[player] -= UNIT_COST[level]
        self._take(i, player, defer)
        return True

    def step(self, src: int, target: int) -> int:
        """The cell the unit on ``src`` would step to for MOVE to ``target`` (spec 7), or -1."""
        player, level = self.unit_owner[src], self.unit_level[src]
        dist = self.info.dist
        if dist[src][target] == 1 and not self.capturable(target, player, level):
            return -1
        best, best_d = src, dist[src][target]
        row = DIR_NEIGHBOURS[src]
        void = self.info.void
        for d in self.order(player):
            n = row[d]
            if n < 0 or void[n]:
                continue
            dn = dist[n][target]
            if dn < best_d and self.capturable(n, player, level):
                best, best_d = n, dn
        return -1 if best == src else best

    def move(self, src: int, target: int, defer: bool = False) -> int:
        """MOVE the unit on ``src`` towards ``target``; the cell it reached, or -1 (nothing happened)."""
        if not self.unit_level[src] or self.moved[src]:
            return -1
        dst = self.step(src, target)
        if dst < 0:
            return -1
        player = self.unit_owner[src]
        self.cache = None
        self._clear(dst, player)
        self.unit_level[dst], self.unit_owner[dst], self.unit_id[dst] = (
            self.unit_level[src],
            player,
            self.unit_id[src],
        )
        self.unit_level[src], self.unit_owner[src], self.unit_id[src] = 0, NEUTRAL, 0
        self.moved[src], self.moved[dst] = False, True
        self._take(dst, player, defer and self.active[src])
        return dst

    def can_build(self, i: int, kind: int, player: int = ME) -> bool:
        """Spec 8's execution checks (the Bronze league: both kinds allowed)."""
        if self.info.void[i] or not self.playable(i, player) or not self.free(i) or self.owner[i] != player:
            return False
        if kind == MINE:
            return i in self.info.spots and self.gold[player] >= self.mine_cost(player)
        return i not in self.info.spots and self.gold[player] >= TOWER_COST

    def build(self, i: int, kind: int, player: int = ME) -> bool:
        """BUILD if the referee would accept it."""
        if not self.can_build(i, kind, player):
            return False
        self.cache = None
        self.gold[player] -= self.mine_cost(player) if kind == MINE else TOWER_COST
        self.building[i], self.building_owner[i] = kind, player
        return True

    def start_turn(self, player: int) -> None:
        """What the referee does at the start of ``player``'s turn (spec 3), for looking one turn ahead.

        Units on inactive cells die, the income is credited, a bankrupt player loses every unit, and
        the player's units may act again.
        """
        self.cache = None
        for i in range(CELLS):
            if self.unit_level[i] and self.unit_owner[i] == player and not self.active[i]:
                self.unit_level[i], self.unit_owner[i], self.unit_id[i] = 0, NEUTRAL, 0
        income = self.compute_income(player)
        self.income[player] = income
        self.gold[player] += income
        if self.gold[player] < 0:
            self.gold[player] = 0
            for i in range(CELLS):
                if self.unit_level[i] and self.unit_owner[i] == player:
                    self.unit_level[i], self.unit_owner[i], self.unit_id[i] = 0, NEUTRAL, 0
        for i in range(CELLS):
            if self.unit_owner[i] == player:
                self.moved[i] = False

    def military(self, player: int) -> int:
        """Spec 10's score: gold plus the cost of every unit alive."""
        return self.gold[player] + sum(
            UNIT_COST[self.unit_level[i]] for i in range(CELLS) if self.unit_owner[i] == player
        )


# -- the CodinGame input ----------------------------------------------------------------------


def parse_init(lines: Sequence[str]) -> list[int]:
    """The initial input (spec 13): the mine spots as cells."""
    count = int(lines[0])
    spots = []
    for line in lines[1 : 1 + count]:
        x, y = (int(v) for v in line.split())
        spots.append(cell(x, y))
    return spots


TURN_LINES_FIXED: Final = 4 + SIZE


@dataclass(slots=True)
class TurnInput:
    """One turn's input, as read: numbers, the 12 rows, buildings and units (owner 0 = me)."""

    gold: int
    income: int
    opp_gold: int
    opp_income: int
    rows: list[str]
    buildings: list[tuple[int, int, int, int]]  # owner, type, x, y
    units: list[tuple[int, int, int, int, int]]  # owner, id, level, x, y

    @classmethod
    def parse(cls, lines: Sequence[str]) -> TurnInput:
        """Read a turn from its lines (the first line is the gold)."""
        gold, income, opp_gold, opp_income = (int(lines[k]) for k in range(4))
        rows = [lines[4 + y].rstrip("\n") for y in range(SIZE)]
        k = TURN_LINES_FIXED
        nb = int(lines[k])
        buildings = [tuple(int(v) for v in lines[k + 1 + j].split()) for j in range(nb)]
        k += 1 + nb
        nu = int(lines[k])
        units = [tuple(int(v) for v in lines[k + 1 + j].split()) for j in range(nu)]
        return cls(gold, income, opp_gold, opp_income, rows, buildings, units)  # type: ignore[arg-type]

    @staticmethod
    def line_count(lines: Sequence[str], start: int = 0) -> int:
        """How many lines the turn starting at ``start`` has (to read it from a stream)."""
        k = start + TURN_LINES_FIXED
        nb = int(lines[k])
        k += 1 + nb
        nu = int(lines[k])
        return k + 1 + nu - start

    def my_hq(self) -> tuple[int, int]:
        """(x, y) of the bot's HQ."""
        for owner, kind, x, y in self.buildings:
            if owner == 0 and kind == HQ:
                return x, y
        raise ValueError("the input lists no HQ of the player")


def board_from_input(
    turn: TurnInput, spots: Sequence[int], info: MapInfo | None = None, rules: str = "contest"
) -> Board:
    """The :class:`Board` of a turn's input (``info`` reused from an earlier turn when given)."""
    if info is None:
        void = [turn.rows[i // SIZE][i % SIZE] == "#" for i in range(CELLS)]
        info = MapInfo.build(void, spots)
    red = turn.my_hq() == (0, 0)
    b = Board(info, red, rules)
    for y, row in enumerate(turn.rows):
        for x, ch in enumerate(row):
            i = y * SIZE + x
            if ch in "Oo":
                b.owner[i], b.active[i] = ME, ch == "O"
            elif ch in "Xx":
                b.owner[i], b.active[i] = OPP, ch == "X"
    for owner, kind, x, y in turn.buildings:
        i = cell(x, y)
        b.building[i], b.building_owner[i] = kind, owner
        if kind == HQ:
            b.hq[owner] = i
    for owner, uid, level, x, y in turn.units:
        i = cell(x, y)
        b.unit_level[i], b.unit_owner[i], b.unit_id[i] = level, owner, uid
    b.gold = [turn.gold, turn.opp_gold]
    b.income = [turn.income, turn.opp_income]
    return b
