"""Chains, cuts, finishers and tower defence: the tactics the contest's post-mortems are made of.

* :func:`chain_search`: the chain-train Dijkstra of the post-mortems: from a player's active
  territory, entering a cell costs the cheapest level that may take it (10, 20 or 30), own active
  cells cost nothing, and a unit that can still act may make the first step by a free MOVE.
* :func:`chain_steps` / :func:`play_chain`: the cheapest chain to a cell, and playing it on a board.
* :func:`score_plan`: what a plan is worth over a short horizon, in gold: income won, the
  opponent's territory (and mines) cut off, units killed, gold spent.
* :func:`best_cut`: every reachable cell of the opponent as a chain target, scored by playing it.
"""

from __future__ import annotations

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
    #: A raid's steps (:func:`~gridarena.games.iceandfire.ai.raid.raid`): ("MOVE", from, to) or ("TRAIN", level, cell), in order.
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
