"""Defending the HQ: what ``best`` plays when the opponent could take it soon.

* :func:`stop_finisher`: against the opponent's finisher next turn (or within ``turns`` turns of its
  savings), the towers or units that make its chain to our HQ dearest;
* :func:`hq_guard`: against its whole army (units walking, savings training: :func:`hq_reach`), the
  towers, units or killing chains that push that reach furthest;
* :func:`hq_tower`: a tower next to the HQ once enemy land is near.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from gridarena.games.iceandfire.ai.board import ME, OPP, Board
from gridarena.games.iceandfire.ai.tactics import (
    INF,
    chain_search,
    chain_steps,
    hq_chain_cost,
    hq_reach,
    play_chain,
)
from gridarena.games.iceandfire.geometry import CELLS, TOWER, xy


def hq_tower(board: Board, commands: list[str], reach: int = 6) -> Board:
    """A tower next to our HQ (it protects the HQ itself) once enemy territory is within ``reach``."""
    hq = board.hq[ME]
    dist = board.info.dist
    near = min((dist[hq][i] for i in range(CELLS) if board.owner[i] == OPP), default=INF)
    if near > reach:
        return board
    if any(board.building[n] == TOWER and board.owner[n] == ME for n in board.info.neighbours[hq]):
        return board
    for n in board.info.neighbours[hq]:
        if board.build(n, TOWER):
            x, y = xy(n)
            commands.append(f"BUILD TOWER {x} {y}")
            return board
    # No cell next to the HQ can hold a tower yet: claim one (a mine spot cannot).
    for n in board.info.neighbours[hq]:
        if board.owner[n] != ME and n not in board.info.spots and board.train(n, 1):
            x, y = xy(n)
            commands.append(f"TRAIN 1 {x} {y}")
            break
    return board


def stop_finisher(board: Board, commands: list[str], turns: int = 1) -> Board:
    """If the opponent could take our HQ with ``turns`` turns of savings, the towers (or units)
    that make its chain dearest, up to three."""
    budget = board.gold[OPP] + turns * max(0, board.compute_income(OPP))
    if hq_chain_cost(board, OPP, budget) > budget:
        return board
    current = board
    for _ in range(3):
        chains = chain_search(current, OPP, budget, all_units_act=True)
        path = chain_steps(chains, current, current.hq[ME])
        cells = {c for c, _, _ in path}
        candidates = {n for c in cells for n in (c, *current.info.neighbours[c])}
        best = dearest_blocker(current, candidates, _blocking_level, budget + 100)
        if best is None:
            return current
        commands.append(best[2])
        current = best[1]
        if best[0] > budget:
            return current
    return current


def hq_guard(board: Board, commands: list[str], turns: int = 2) -> Board:
    """If the opponent's army could take our HQ within ``turns`` turns whatever our next turn does
    (its units walking, its savings training: :func:`hq_reach`), what pushes that reach furthest,
    up to three times until it is out of reach: a tower or a unit near the HQ, or a chain of
    trains that kills an enemy unit on its way to it."""
    income = max(0, board.compute_income(OPP))
    budget = board.gold[OPP] + turns * income
    if hq_reach(board, OPP, turns) > budget:
        return board
    current = board
    for _ in range(3):
        best: tuple[int, int, Board, list[str]] | None = None
        for option, texts in hq_guard_options(current):
            key = (hq_reach(option, OPP, turns), option.gold[ME])
            if best is None or key > best[:2]:
                best = (*key, option, texts)
        if best is None or best[0] <= hq_reach(current, OPP, turns):
            return current
        commands.extend(best[3])
        current = best[2]
        if best[0] > budget:
            break
    return current


def hq_guard_options(board: Board) -> Iterator[tuple[Board, list[str]]]:
    """Boards after one defensive action near our HQ, with its commands: a tower or a level-1 or
    level-2 unit within three cells of it, or the cheapest chain onto an enemy unit within four."""
    hq, dist = board.hq[ME], board.info.dist
    near = [i for i in range(CELLS) if not board.info.void[i] and dist[hq][i] <= 3]
    for b, text in blockers(board, near, _guard_level):
        yield b, [text]
    chains = chain_search(board, ME, board.gold[ME])
    for unit in board.units(OPP):
        if dist[hq][unit] > 4 or chains.cost[unit] > board.gold[ME]:
            continue
        steps = chain_steps(chains, board, unit)
        b = board.copy()
        played = play_chain(b, steps) if steps else None
        if played:
            yield b, played


def blockers(
    board: Board, cells: Iterable[int], level: Callable[[Board, int], int]
) -> Iterator[tuple[Board, str]]:
    """Boards after one blocking command on each of ``cells``, with its text: a TOWER, then a unit of
    ``level(board, cell)`` (0: none), wherever the rules allow it."""
    for i in cells:
        b = board.copy()
        if b.build(i, TOWER):
            yield b, "BUILD TOWER {} {}".format(*xy(i))
        b = board.copy()
        lv = level(b, i)
        if lv and b.train(i, lv):
            yield b, "TRAIN {} {} {}".format(lv, *xy(i))


def dearest_blocker(
    board: Board, cells: Iterable[int], level: Callable[[Board, int], int], budget: int
) -> tuple[int, Board, str] | None:
    """Of the :func:`blockers` on ``cells``, the one that makes the opponent's chain to our HQ
    dearest (its cost, up to ``budget``; the board; the command), or None if none can be played."""
    best: tuple[int, Board, str] | None = None
    for b, text in blockers(board, cells, level):
        cost = hq_chain_cost(b, OPP, budget)
        if best is None or cost > best[0]:
            best = (cost, b, text)
    return best


def _blocking_level(board: Board, i: int) -> int:
    """Level 1 on a neutral or own cell, the lowest that enters an enemy one."""
    return 1 if board.owner[i] != OPP else board.min_level(i, ME)


def _guard_level(board: Board, i: int) -> int:
    """:func:`_blocking_level`, but no level 3 (its upkeep ruins a defence)."""
    lv = _blocking_level(board, i)
    return lv if lv <= 2 else 0
