"""What the opponent can do to our land next turn, found by our own chain search.

* :func:`strongest_replies`: the opponent's strongest answers to our turn, each played on the board
  (its finisher; its best cuts, to different targets; the chain that brings it nearest our HQ);
* :func:`rush`: that last chain, the HQ rush;
* :func:`exposure`: our land, each cell weighted by how cheaply the opponent can cut it off: a thin
  salient towards the enemy, cut by a level-1 train, weighs its whole length.

``best``'s judge values a turn by the worst of these replies next to its modelled ones
(``ai/judge.py``), so that a turn is not chosen for what one model of the opponent would not do.
"""

from __future__ import annotations

from dataclasses import dataclass

from gridarena.games.iceandfire.ai.board import Board
from gridarena.games.iceandfire.ai.tactics import (
    INF,
    Chains,
    Plan,
    best_cuts,
    chain_search,
    chain_steps,
    finisher,
    play_chain,
)
from gridarena.games.iceandfire.geometry import MINE, UNIT_COST, flood, mask_indices


def turn_start(board: Board, player: int) -> Board:
    """A copy of ``board`` at the start of ``player``'s next turn: its units on cut-off cells gone,
    its income credited (what the referee does first: CodinGame's ``Referee.java``)."""
    view = board.copy()
    view.start_turn(player)
    return view


def rush(board: Board, player: int, budget: int, chains: Chains | None = None) -> Plan | None:
    """The chain of ``player`` (all its units free to act, ``budget`` gold) to the cell nearest the
    opponent's HQ that it can pay, the cheaper of equally near ones (None: no chain leaves its land)."""
    if chains is None:
        chains = chain_search(board, player, budget, all_units_act=True, joins=True)
    hq = board.hq[1 - player]
    row = board.info.dist[hq]
    owner, active = board.owner, board.active
    best, best_key = -1, (INF, INF)
    for i, cost in enumerate(chains.cost):
        if cost <= budget and not (owner[i] == player and active[i]):
            key = (row[i], cost)
            if key < best_key:
                best, best_key = i, key
    if best < 0:
        return None
    after = board.copy()
    after.gold[player] = budget
    after.moved = [False] * len(after.moved)
    after.changed()
    steps = chain_steps(chains, after, best)
    commands = play_chain(after, steps, player) if steps else None
    if not commands:
        return None
    return Plan(commands, after, 0.0, "rush", best, [s[0] for s in steps])


def strongest_replies(board: Board, player: int, horizon: float, cuts: int, rushes: bool) -> list[Plan]:
    """``player``'s strongest chains in its next turn (``board`` is at its start: :func:`turn_start`),
    all its units free to act and its cut-off land joined by any cell next to it: its finisher alone
    if it has one, else its ``cuts`` best cuts (different targets) and, with ``rushes``, its HQ rush
    (:func:`rush`). Each plan's board is the position after it."""
    budget = board.gold[player]
    chains = chain_search(board, player, budget, all_units_act=True, joins=True)
    finish = finisher(board, player, budget, all_units_act=True, chains=chains)
    if finish is not None:
        return [finish]
    plans = best_cuts(board, player, budget, horizon, cuts, all_units_act=True, chains=chains) if cuts else []
    if rushes:
        plan = rush(board, player, budget, chains)
        if plan is not None and all(plan.cells != p.cells for p in plans):
            plans.append(plan)
    return plans


@dataclass(frozen=True, slots=True)
class Exposure:
    """How much of a player's land the opponent's chains can cut off (part from the HQ, beyond the
    cells they take): next turn (``soon``) and with one more turn's income (``later``), each cell
    counted once, at the cheaper of the two; a cell is worth 1, a mine 5, and a unit on it adds a
    tenth of its price (it dies with the cell)."""

    soon: float
    later: float


def exposure(board: Board, player: int, targets: int = 30) -> Exposure:
    """The land of ``player`` the opponent's chains could cut off next turn and the turn after (see
    :class:`Exposure`), over the ``targets`` cheapest of its cells the opponent reaches.

    Each chain is the opponent's cheapest to one of our cells at the start of its turn (all its units
    free to act, its cut-off land joined: :func:`strongest_replies`): what its cells of ours part from
    our HQ is cut off (a flood from the HQ without them). The cells a chain takes are not counted: a
    border eroded cell by cell costs a train a cell; a thin salient is lost whole to one train.
    """
    e = 1 - player
    view = turn_start(board, e)
    soon_budget = view.gold[e]
    later_budget = soon_budget + max(0, view.income[e])
    chains = chain_search(view, e, later_budget, all_units_act=True, joins=True)
    land = view.act[player] & view.owned[player]
    hq = 1 << view.hq[player]
    reached = [i for i in mask_indices(land) if chains.cost[i] <= later_budget]
    reached.sort(key=lambda i: chains.cost[i])
    owner = view.owner
    covered = 0
    soon = later = 0.0
    for target in reached[:targets]:
        if covered >> target & 1:
            continue  # a cheaper chain cuts it off already
        path = 0
        for cell, _, _ in chain_steps(chains, view, target):
            if owner[cell] == player:
                path |= 1 << cell
        lost = land & ~path if path & hq else land & ~path & ~flood(hq, land & ~path)
        fresh = lost & ~covered
        if not fresh:
            continue
        covered |= lost
        if chains.cost[target] <= soon_budget:
            soon += _worth(view, fresh)
        else:
            later += _worth(view, fresh)
    return Exposure(soon, later)


def reachable(board: Board, player: int) -> list[int]:
    """The cells of ``player``'s opponent that ``player``'s chains reach next turn, at the start of
    its turn (its income in, all its units free to act, its cut-off land joined)."""
    view = turn_start(board, player)
    chains = chain_search(view, player, view.gold[player], all_units_act=True, joins=True)
    e = 1 - player
    return [i for i in view.cells_of(e) if chains.cost[i] <= view.gold[player]]


def _worth(board: Board, cells: int) -> float:
    """The cells of the mask: 1 each, 5 for a mine, plus a tenth of the price of a unit on one."""
    total = 0.0
    for i in mask_indices(cells):
        total += 5.0 if board.building[i] == MINE else 1.0
        if board.unit_level[i]:
            total += UNIT_COST[board.unit_level[i]] / 10
    return total
