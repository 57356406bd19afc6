"""Chains, cuts, finishers and tower defence: the tactics the contest's post-mortems are made of.

* :func:`chain_search`: the chain-train Dijkstra of the post-mortems: from a player's active
  territory, entering a cell costs the cheapest level that may take it (10, 20 or 30), own active
  cells cost nothing, and a unit that can still act may make the first step by a free MOVE.
* :func:`chain_steps` / :func:`play_chain`: the cheapest chain to a cell, and playing it on a board.
* :func:`score_plan`: what a plan is worth over a short horizon, in gold: income won, the
  opponent's territory (and mines) cut off, units killed, gold spent.
* :func:`best_cut`: every reachable cell of the opponent as a chain target, scored by playing it.
* :func:`raid`: a turn in the style of the contest bot ``morozec`` (a chain Dijkstra misses it): every
  unit steps where it darkens most, then every chain of trains, each next to the one before, is tried
  and the one that darkens most of the opponent's land is kept.
"""

from __future__ import annotations

import contextlib
import heapq
from dataclasses import dataclass, field

from gridarena.games.iceandfire.ai.board import Board
from gridarena.games.iceandfire.geometry import CELLS, MINE, UNIT_COST, UPKEEP, flood, mask_indices, xy
from gridarena.search.errors import SearchAborted

INF = 10**9
WIN = 10**6


@dataclass(slots=True)
class Chains:
    """The Dijkstra's result: cost to reach each cell, and how (parent, level, moving unit)."""

    player: int
    cost: list[int]
    parent: list[int]
    level: list[int]
    mover: list[int]
    upkeep: list[int]


@dataclass(slots=True)
class Plan:
    """Commands to play and the board after them, with their value."""

    commands: list[str]
    board: Board
    score: float
    what: str = ""
    target: int = -1
    cells: list[int] = field(default_factory=list)
    #: A raid's steps (:func:`raid`): ("MOVE", from, to) or ("TRAIN", level, cell), in order.
    steps: list[tuple[str, int, int]] = field(default_factory=list)


def check_time(board: Board) -> None:
    """Raise :class:`SearchAborted` once the board's ``stop`` (the turn's hard limit) has expired."""
    if board.stop is not None and board.stop.expired():
        raise SearchAborted("iceandfire: the turn's hard time limit has passed")


def chain_search(
    board: Board, player: int, budget: int, all_units_act: bool = False, joins: bool = False
) -> Chains:
    """Cheapest chains from ``player``'s territory to every cell, up to ``budget`` gold.

    ``all_units_act``: every unit of the player may make the free first MOVE (the opponent's next
    turn); otherwise only those that have not moved yet this turn. ``joins``: a cell taken next to
    the player's inactive land joins that land at no cost (the referee activates every own cell a
    taken cell reconnects), so a chain may run on from any of it; its steps there have level 0.
    """
    check_time(board)
    key = ("chains", player, budget, all_units_act, joins)
    known = board.cached(key)
    if known is not None:
        return known  # type: ignore[return-value]
    chains = _chain_search(board, player, budget, all_units_act, joins)
    board.remember(key, chains)
    return chains


def _chain_search(board: Board, player: int, budget: int, all_units_act: bool, joins: bool) -> Chains:
    owner, active, neighbours = board.owner, board.active, board.info.neighbours
    cost = [INF] * CELLS
    parent = [-1] * CELLS
    level = [0] * CELLS
    mover = [-1] * CELLS
    upkeep = [0] * CELLS
    for i in range(CELLS):
        if owner[i] == player and active[i]:
            cost[i] = 0
    unit_level, unit_owner, moved = board.unit_level, board.unit_owner, board.moved
    for i in range(CELLS):
        lv = unit_level[i]
        if lv and unit_owner[i] == player and active[i] and (all_units_act or not moved[i]):
            for n in neighbours[i]:
                if cost[n] > 0 and board.capturable(n, player, lv):
                    cost[n], parent[n], level[n], mover[n] = 0, i, lv, i
    min_level = board.min_levels(player)
    dead = board.owned[player] & ~board.act[player] if joins else 0
    # A bucket queue in place of a heap: steps cost 10, 20 or 30, so a bucket grows while it is read
    # only by joined cells (at its own cost), and reading each bucket in cell order pops exactly what
    # a heap of (cost, cell) would.
    buckets: dict[int, list[int]] = {0: [i for i in range(CELLS) if cost[i] == 0]}
    while buckets:
        c = min(buckets)
        cells = buckets.pop(c)
        cells.sort()
        k = 0
        while k < len(cells):
            i = cells[k]
            k += 1
            if c > cost[i]:
                continue
            up = upkeep[i]
            for n in neighbours[i]:
                if dead >> n & 1:
                    if cost[n] > c:  # taking i reconnects n's inactive land: all of it, for nothing
                        for j in mask_indices(flood(1 << n, dead)):
                            if cost[j] > c:
                                cost[j], parent[j], level[j], mover[j], upkeep[j] = c, i, 0, -1, up
                                cells.append(j)
                    continue
                lv = min_level[n]
                if not lv:
                    continue
                nc = c + UNIT_COST[lv]
                if nc > budget or nc >= cost[n]:
                    continue
                cost[n], parent[n], level[n], mover[n] = nc, i, lv, -1
                upkeep[n] = up + UPKEEP[lv]
                if nc in buckets:
                    buckets[nc].append(n)
                else:
                    buckets[nc] = [n]
    return Chains(player, cost, parent, level, mover, upkeep)


def chain_search_reference(board: Board, player: int, budget: int, all_units_act: bool = False) -> Chains:
    """:func:`chain_search` as it was written first: a heap of (cost, cell) and :meth:`Board.min_level`
    cell by cell, no cache. The oracle the fast version is tested against (and the benchmark's baseline)."""
    owner, active, neighbours = board.owner, board.active, board.info.neighbours
    cost, parent, level, mover, upkeep = [INF] * CELLS, [-1] * CELLS, [0] * CELLS, [-1] * CELLS, [0] * CELLS
    for i in range(CELLS):
        if owner[i] == player and active[i]:
            cost[i] = 0
    for i in range(CELLS):
        lv = board.unit_level[i]
        if lv and board.unit_owner[i] == player and active[i] and (all_units_act or not board.moved[i]):
            for n in neighbours[i]:
                if cost[n] > 0 and board.capturable(n, player, lv):
                    cost[n], parent[n], level[n], mover[n] = 0, i, lv, i
    heap = [(0, i) for i in range(CELLS) if cost[i] == 0]
    heapq.heapify(heap)
    min_level = [
        0 if board.info.void[i] or (owner[i] == player and active[i]) else board.min_level(i, player)
        for i in range(CELLS)
    ]
    while heap:
        c, i = heapq.heappop(heap)
        if c > cost[i]:
            continue
        for n in neighbours[i]:
            lv = min_level[n]
            nc = c + UNIT_COST[lv]
            if not lv or nc > budget or nc >= cost[n]:
                continue
            cost[n], parent[n], level[n], mover[n] = nc, i, lv, -1
            upkeep[n] = upkeep[i] + UPKEEP[lv]
            heapq.heappush(heap, (nc, n))
    return Chains(player, cost, parent, level, mover, upkeep)


def chain_steps(chains: Chains, board: Board, target: int) -> list[tuple[int, int, int]]:
    """The chain to ``target`` as (cell, level, moving unit's cell or -1), territory side first."""
    steps = []
    i = target
    player = chains.player
    while not (board.owner[i] == player and board.active[i]):
        steps.append((i, chains.level[i], chains.mover[i]))
        if chains.mover[i] >= 0:
            break
        i = chains.parent[i]
        if i < 0:
            return []
    steps.reverse()
    return steps


def play_chain(board: Board, steps: list[tuple[int, int, int]], player: int = 0) -> list[str] | None:
    """Play a chain on ``board`` (changed); its commands, or None if a step fails."""
    commands = []
    for c, lv, src in steps:
        if not lv:  # joined by the step before it (chain_search with joins): no command
            board.settle()
            if not (board.owner[c] == player and board.active[c]):
                return None
            continue
        x, y = xy(c)
        if src >= 0:
            uid = board.unit_id[src]
            if board.move(src, c, defer=True) != c:
                board.settle()
                return None
            commands.append(f"MOVE {uid} {x} {y}")
        else:
            lv = board.min_level(c, player)
            if not lv or not board.train(c, lv, player, defer=True):
                board.settle()
                return None
            commands.append(f"TRAIN {lv} {x} {y}")
        if board.won == player:
            break
    board.settle()
    return commands


def territory(board: Board, player: int) -> int:
    """Active cells plus 4 per active mine: the income before upkeep."""
    total = 0
    owner, active, building = board.owner, board.active, board.building
    for i in range(CELLS):
        if owner[i] == player and active[i]:
            total += 5 if building[i] == MINE else 1
    return total


def units_value(board: Board, player: int, active_only: bool = True) -> int:
    """The cost of ``player``'s units (on active cells only, by default: the others die)."""
    return sum(
        UNIT_COST[board.unit_level[i]]
        for i in range(CELLS)
        if board.unit_level[i] and board.unit_owner[i] == player and (board.active[i] or not active_only)
    )


def upkeep_of(board: Board, player: int) -> int:
    """Upkeep of ``player``'s units on active cells."""
    return sum(
        UPKEEP[board.unit_level[i]]
        for i in range(CELLS)
        if board.unit_level[i] and board.unit_owner[i] == player and board.active[i]
    )


def summary(board: Board, player: int) -> tuple[int, int, int, int, int, int]:
    """In one pass over the cells: ``player``'s territory, upkeep and units on active cells, then the
    opponent's territory, its units on active cells and all its units (what :func:`score_plan` compares)."""
    e = 1 - player
    terr = upkeep = units = e_terr = e_units = e_all = 0
    for o, a, b, lv, uo in zip(
        board.owner, board.active, board.building, board.unit_level, board.unit_owner, strict=True
    ):
        if o == player:
            if a:
                terr += 5 if b == MINE else 1
                if lv and uo == player:
                    upkeep += UPKEEP[lv]
                    units += UNIT_COST[lv]
        elif o == e:
            if a:
                e_terr += 5 if b == MINE else 1
            if lv and uo == e:
                e_all += UNIT_COST[lv]
                if a:
                    e_units += UNIT_COST[lv]
    return terr, upkeep, units, e_terr, e_units, e_all


def _cells_summary(board: Board, player: int, cells: set[int]) -> tuple[int, int, int, int, int, int]:
    """:func:`summary`'s sums over ``cells`` only."""
    e = 1 - player
    terr = upkeep = units = e_terr = e_units = e_all = 0
    owner, active, building = board.owner, board.active, board.building
    level, unit_owner = board.unit_level, board.unit_owner
    for i in cells:
        o = owner[i]
        if o == player:
            if active[i]:
                terr += 5 if building[i] == MINE else 1
                lv = level[i]
                if lv and unit_owner[i] == player:
                    upkeep += UPKEEP[lv]
                    units += UNIT_COST[lv]
        elif o == e:
            lv = level[i]
            if active[i]:
                e_terr += 5 if building[i] == MINE else 1
            if lv and unit_owner[i] == e:
                e_all += UNIT_COST[lv]
                if active[i]:
                    e_units += UNIT_COST[lv]
    return terr, upkeep, units, e_terr, e_units, e_all


def summary_after(
    base: Board,
    base_summary: tuple[int, int, int, int, int, int],
    after: Board,
    player: int,
    cells: set[int],
) -> tuple[int, int, int, int, int, int]:
    """:func:`summary` of ``after``, a copy of ``base`` changed on ``cells`` only, unless a flood ran.

    The same numbers as ``summary(after, player)`` (the tests hold them equal); it reads the few cells
    a chain touched instead of all 144 when no cut or reconnection changed the activity elsewhere.
    """
    if after.floods != base.floods:
        return summary(after, player)
    old = _cells_summary(base, player, cells)
    new = _cells_summary(after, player, cells)
    return tuple(s - o + n for s, o, n in zip(base_summary, old, new, strict=True))  # type: ignore[return-value]


def score_plan(
    before: Board,
    after: Board,
    player: int,
    horizon: float,
    before_summary: tuple[int, int, int, int, int, int] | None = None,
    after_summary: tuple[int, int, int, int, int, int] | None = None,
) -> float:
    """The plan's worth in gold over ``horizon`` turns (a won game is worth :data:`WIN`).

    Income won (own territory less upkeep), the opponent's territory taken or cut off, its units
    killed (on the chain, or left on cut-off cells: they die at its turn start), minus the gold
    spent; gold turned into units still counts a little (military score, blocking).
    """
    if after.won == player:
        return WIN
    b_terr, b_upkeep, b_units, b_eterr, _, b_eall = before_summary or summary(before, player)
    a_terr, a_upkeep, a_units, a_eterr, a_eunits, _ = after_summary or summary(after, player)
    mine = (a_terr - a_upkeep) - (b_terr - b_upkeep)
    theirs = b_eterr - a_eterr
    killed = b_eall - a_eunits
    spent = before.gold[player] - after.gold[player]
    return horizon * (mine + theirs) + killed - spent + 0.3 * (a_units - b_units)


def best_cut(
    board: Board,
    player: int,
    budget: int,
    horizon: float,
    limit: int = 40,
    all_units_act: bool = False,
    chains: Chains | None = None,
    stop_above: float | None = None,
    joins: bool = False,
) -> Plan | None:
    """The best chain into the opponent's territory by :func:`score_plan` (None: none is worth it).

    The board's gold for ``player`` is set to ``budget`` on the copy (the opponent's next turn).
    ``chains``: this board's :func:`chain_search` with the same budget, ``all_units_act`` and
    ``joins``, if known. ``stop_above``: return as soon as a chain scores at least this (a caller that
    only asks whether the best stays below it: the answer is the same, found sooner).
    """
    plans = best_cuts(board, player, budget, horizon, 1, limit, all_units_act, chains, stop_above, joins)
    return plans[0] if plans else None


def best_cuts(
    board: Board,
    player: int,
    budget: int,
    horizon: float,
    count: int,
    limit: int = 40,
    all_units_act: bool = False,
    chains: Chains | None = None,
    stop_above: float | None = None,
    joins: bool = False,
) -> list[Plan]:
    """The ``count`` best chains into the opponent's territory, best first, each to another target
    (see :func:`best_cut`, which is the first of them)."""
    e = 1 - player
    if chains is None:
        chains = chain_search(board, player, budget, all_units_act, joins)
    targets = [
        i
        for i in range(CELLS)
        if chains.cost[i] < INF and board.owner[i] == e and (board.active[i] or board.unit_owner[i] == e)
    ]
    targets.sort(key=lambda i: chains.cost[i])
    base = board
    if board.gold[player] != budget or all_units_act:
        base = board.copy()
        base.gold[player] = budget
        if all_units_act:
            base.moved = [False] * CELLS
        base.changed()
    top: list[Plan] = []
    before = summary(base, player)
    for target in targets[:limit]:
        check_time(base)
        steps = chain_steps(chains, base, target)
        if not steps:
            continue
        after = base.copy()
        commands = play_chain(after, steps, player)
        if commands is None:
            continue
        touched = {c for step in steps for c in (step[0], step[2]) if c >= 0}
        score = score_plan(
            base, after, player, horizon, before, summary_after(base, before, after, player, touched)
        )
        if len(top) < count or score > top[-1].score:
            # After the plans that score as much: of equal plans the cheaper (earlier) one stays first.
            at = next((k for k, plan in enumerate(top) if score > plan.score), len(top))
            top.insert(at, Plan(commands, after, score, "cut", target, [s[0] for s in steps]))
            del top[count:]
            if score >= WIN or (stop_above is not None and top[0].score >= stop_above):
                break
    return top


def finisher(
    board: Board, player: int, budget: int, all_units_act: bool = False, chains: Chains | None = None
) -> Plan | None:
    """A chain that takes the opponent's HQ this turn with ``budget`` gold, if there is one
    (``chains``: as for :func:`best_cut`)."""
    if chains is None:
        chains = chain_search(board, player, budget, all_units_act)
    hq = board.hq[1 - player]
    if chains.cost[hq] > budget:
        return None
    base = board.copy()
    base.gold[player] = budget
    if all_units_act:
        base.moved = [False] * CELLS
    base.changed()
    steps = chain_steps(chains, base, hq)
    if not steps:
        return None
    commands = play_chain(base, steps, player)
    if commands is None or base.won != player:
        return None
    return Plan(commands, base, WIN, "finish", hq, [s[0] for s in steps])


def hq_chain_cost(board: Board, player: int, budget: int) -> int:
    """What ``player`` needs to take the opponent's HQ in one turn (INF if more than ``budget``)."""
    return chain_search(board, player, budget, all_units_act=True).cost[board.hq[1 - player]]


def walk_region(board: Board, player: int, steps: int) -> list[bool]:
    """The cells ``player``'s units can stand on after ``steps`` free MOVEs each (one a turn), walking
    through cells each may enter now; a unit's own start cell included. The opponent's replies in
    between are ignored: an upper bound of what the units reach, for threat detection."""
    region = [False] * CELLS
    neighbours = board.info.neighbours
    for src in board.units(player):
        if not board.active[src]:
            continue
        level = board.unit_level[src]
        frontier = [src]
        region[src] = True
        seen = {src}
        for _ in range(steps):
            grown = []
            for c in frontier:
                for n in neighbours[c]:
                    if n not in seen and board.capturable(n, player, level):
                        seen.add(n)
                        region[n] = True
                        grown.append(n)
            frontier = grown
    return region


def hq_reach(board: Board, player: int, turns: int) -> int:
    """The gold ``player`` needs to take the opponent's HQ within ``turns`` turns if its units first
    walk up to ``turns`` cells each for free (see :func:`walk_region`) and trains then chain from its
    territory or from any cell they reached (:data:`INF` if no chain exists).

    The opponent-independent measure of how near a player's whole army is to the HQ: with
    ``turns=1`` it is :func:`hq_chain_cost` without a budget; more turns let every unit advance.
    """
    check_time(board)
    key = ("reach", player, turns)
    known = board.cached(key)
    if known is not None:
        return known  # type: ignore[return-value]
    free = walk_region(board, player, turns)
    owner, active, neighbours = board.owner, board.active, board.info.neighbours
    cost = [INF] * CELLS
    for i in range(CELLS):
        if free[i] or (owner[i] == player and active[i]):
            cost[i] = 0
    min_level = board.min_levels(player)
    target = board.hq[1 - player]
    heap = [(0, i) for i in range(CELLS) if cost[i] == 0]
    heapq.heapify(heap)
    while heap:
        c, i = heapq.heappop(heap)
        if i == target:
            break
        if c > cost[i]:
            continue
        for n in neighbours[i]:
            lv = min_level[n]
            if not lv:
                continue
            nc = c + UNIT_COST[lv]
            if nc < cost[n]:
                cost[n] = nc
                heapq.heappush(heap, (nc, n))
    board.remember(key, cost[target])
    return cost[target]


def darkness(board: Board, player: int) -> int:
    """The opponent's active cells (a raid counts how many of them it takes or cuts off)."""
    e = 1 - player
    return (board.act[e] & board.owned[e]).bit_count()


#: The most steps (trains or moves) one search of :func:`raid` plays.
RAID_NODES = 800
#: The longest chain of trains a raid tries.
RAID_DEPTH = 6


class _Raid:
    """One search of :func:`raid`: the best chain from a board, and how many steps it played."""

    def __init__(self, board: Board, player: int, start: int, steps: list[tuple[str, int, int]]) -> None:
        self.player, self.start, self.nodes = player, start, 0
        self.budget = board.gold[player]
        # The best chain so far: (cells darkened, minus the gold spent), the board after it, its steps.
        self.key = (start - darkness(board, player), 0)
        self.board = board
        self.steps = steps

    def offer(self, t: Board, steps: list[tuple[str, int, int]]) -> None:
        """Keep ``steps`` (played: ``t``) if they darken more, or as much for less gold."""
        key = (self.start - darkness(t, self.player), t.gold[self.player] - self.budget)
        if t.won == self.player or key > self.key:
            self.key, self.board, self.steps = key, t, steps
            if t.won == self.player:
                raise _Won

    def extend(
        self, b: Board, fresh: int, depth: int, steps: list[tuple[str, int, int]], moves: bool
    ) -> None:
        """Every chain from ``b``: trains next to the ``fresh`` cells (those the last step made active;
        all active land at the root), and at the root each unit's step first (``moves``)."""
        if self.nodes & 31 == 0:
            check_time(b)
        player = self.player
        neighbours = b.info.neighbours
        land = b.act[player] & b.owned[player]
        cands = sorted({n for i in mask_indices(fresh) for n in neighbours[i] if not land >> n & 1})
        for c in cands:
            if self.nodes >= RAID_NODES:
                return
            lv = b.min_level(c, player)
            if not lv or UNIT_COST[lv] > b.gold[player]:
                continue
            t = b.copy()
            if not t.train(c, lv, player):
                continue
            self.nodes += 1
            taken = [*steps, ("TRAIN", lv, c)]
            self.offer(t, taken)
            if depth + 1 < RAID_DEPTH:
                self.extend(t, (t.act[player] & t.owned[player]) & ~land, depth + 1, taken, False)
        if not moves:
            return
        for src in list(b.units(player)):
            if b.moved[src] or not b.active[src]:
                continue
            level = b.unit_level[src]
            for n in neighbours[src]:
                if self.nodes >= RAID_NODES:
                    return
                if land >> n & 1 or not b.capturable(n, player, level):
                    continue
                t = b.copy()
                if t.move(src, n) != n:
                    continue
                self.nodes += 1
                taken = [*steps, ("MOVE", src, n)]
                self.offer(t, taken)
                self.extend(t, (t.act[player] & t.owned[player]) & ~land, depth, taken, False)


def raid(board: Board, player: int, budget: int, horizon: float, all_units_act: bool = False) -> Plan | None:
    """``player``'s turn as the contest bot ``morozec`` plays its attack (None: it darkens nothing).

    Two searches, the one that darkens more of the opponent's active land kept (the cheaper of
    equal ones): each of them plays every chain of up to :data:`RAID_DEPTH` trains, each train next
    to the cells the step before it made active (the first next to the active land; a step that
    reconnects own cut-off land continues from all of it), and keeps the chain that darkens most.
    In the first search each unit that may act (all of them with ``all_units_act``: the opponent's
    next turn), by id, has first stepped to the neighbour whose taking darkens most (a taken cell
    counts one, a neutral one half); in the second no unit has, and a chain may start with one
    unit's step. At most :data:`RAID_NODES` steps each. Scored by :func:`score_plan` from ``board``.

    Measured on the boards of ``best``'s games against ``morozec`` (seeds 101-160, both seats): of
    its 195 turns 6-16 that took 5 or more of our active cells, our chain Dijkstra's best cut
    (:func:`best_cut`, all targets) fell 3 or more cells short of what it took in 84, the raid in
    none; a raid found 0.45 ms median, 4.5 ms p99 (docs/iceandfire.md).
    """
    e = 1 - player
    base = board.copy()
    base.gold[player] = budget
    if all_units_act:
        base.moved = [False] * CELLS
    base.changed()
    start = darkness(base, player)
    # The first search's moves: each unit, by id, where it darkens most.
    after = base
    moved: list[tuple[str, int, int]] = []
    for src in list(after.units(player)):
        if after.moved[src] or not after.active[src]:
            continue
        level = after.unit_level[src]
        dark = darkness(after, player)
        best_gain, best_board, best_cell = 0.0, None, -1
        for n in after.info.neighbours[src]:
            o = after.owner[n]
            if (o == player and after.active[n]) or not after.capturable(n, player, level):
                continue
            b = after.copy()
            if b.move(src, n) != n:
                continue
            gain = WIN if b.won == player else dark - darkness(b, player) + (0.5 if o != e else 0.0)
            if gain > best_gain:
                best_gain, best_board, best_cell = gain, b, n
        if best_board is not None:
            moved.append(("MOVE", src, best_cell))
            after = best_board
            if after.won == player:
                break
    searches = []
    for root, prefix, moves in ((after, moved, False), (base, [], True)):
        search = _Raid(root, player, start, list(prefix))
        if root.won != player:
            with contextlib.suppress(_Won):  # a chain took the HQ: the search is over
                search.extend(root, root.act[player] & root.owned[player], 0, list(prefix), moves)
        searches.append(search)
        if search.board.won == player:
            break
    found = max(searches, key=lambda r: (r.board.won == player, r.key))
    final = found.board
    if final.won != player and darkness(final, player) >= start:
        return None
    # The commands, replayed on a copy of the start (a unit's id is the one it had there).
    commands = []
    ids = {i: base.unit_id[i] for i in range(CELLS) if base.unit_level[i]}
    for kind, a, c in found.steps:
        x, y = xy(c)
        if kind == "MOVE":
            commands.append(f"MOVE {ids[a]} {x} {y}")
            ids[c] = ids.pop(a)
        else:
            commands.append(f"TRAIN {a} {x} {y}")
    score = score_plan(base, final, player, horizon)
    return Plan(commands, final, score, "raid", -1, [c for _, _, c in found.steps], found.steps)


class _Won(Exception):
    """A raid's chain took the HQ: no other chain can do better."""


def replay_raid(board: Board, player: int, budget: int, steps: list[tuple[str, int, int]]) -> int:
    """How many of the opponent's active cells ``steps`` (a raid found on another board) still
    darken on ``board``: each step played if it still may be (a train at the level the cell now
    needs, while the gold lasts); :data:`CELLS` if it takes the HQ."""
    b = board.copy()
    b.gold[player] = budget
    b.moved = [False] * CELLS
    b.changed()
    start = darkness(b, player)
    for kind, a, c in steps:
        if kind == "MOVE":
            if (
                b.unit_owner[a] != player
                or not b.unit_level[a]
                or not b.capturable(c, player, b.unit_level[a])
            ):
                continue
            b.move(a, c)
        else:
            lv = b.min_level(c, player)
            if not lv or not b.train(c, lv, player):
                break
        if b.won == player:
            return CELLS
    return start - darkness(b, player)
