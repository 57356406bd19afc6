"""The raid: the opponent's turn as the contest bot ``morozec`` plays its attack, which a chain
Dijkstra (:mod:`~gridarena.games.iceandfire.ai.tactics`) misses.

* :func:`raid`: its units step into our land, then every chain of trains from the land they leave
  active (through its own cut-off land that a step reconnects) is played, and the chain that darkens
  most of our active land is kept;
* :func:`replay_raid`: a raid found on one board played on another (what a block leaves of it);
* :func:`darkness`: the opponent's active cells, by which what a raid takes is counted
  (:func:`raid_loss`: what a raid found darkens).

``best`` blocks the opponent's raid at the end of every variant (``BestBot.block_raids``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from gridarena.games.iceandfire.ai.board import Board
from gridarena.games.iceandfire.ai.tactics import WIN, Plan, check_time, score_plan
from gridarena.games.iceandfire.geometry import CELLS, UNIT_COST, mask_indices, xy


def darkness(board: Board, player: int, units: int = 0, weight: int = 0) -> int:
    """The opponent's active cells (a raid counts how many of them it takes or cuts off), and
    ``weight`` more for each of those in the mask ``units`` (:func:`unit_mask`: its units)."""
    e = 1 - player
    land = board.act[e] & board.owned[e]
    return land.bit_count() + weight * (land & units).bit_count()


def raid_loss(board: Board, plan: Plan, player: int, units: int = 0, weight: int = 0) -> int:
    """What ``plan``, ``player``'s raid found on ``board``, darkens there (:func:`darkness`, with
    ``units`` and ``weight``); :data:`CELLS` if it takes the HQ."""
    if plan.board.won == player:
        return CELLS
    return darkness(board, player, units, weight) - darkness(plan.board, player, units, weight)


def unit_mask(board: Board, player: int) -> int:
    """The cells of ``player``'s units, as a bit mask."""
    return sum(1 << i for i in range(CELLS) if board.unit_level[i] and board.unit_owner[i] == player)


#: The most steps (trains or moves) one search of :func:`raid` plays.
RAID_NODES = 800
#: The longest chain of trains a raid tries.
RAID_DEPTH = 6


class _Raid:
    """One search of :func:`raid`: the best chain from a board, and how many steps it played."""

    def __init__(
        self,
        board: Board,
        player: int,
        start: int,
        steps: list[tuple[str, int, int]],
        units: int,
        weight: int,
    ) -> None:
        self.player, self.start, self.nodes, self.checked = player, start, 0, -32
        self.units, self.weight = units, weight
        self.budget = board.gold[player]
        # The best chain so far: (cells darkened, minus the gold spent), the board after it, its steps.
        self.key = (start - darkness(board, player, units, weight), 0)
        self.board = board
        self.steps = steps

    def offer(self, t: Board, steps: list[tuple[str, int, int]]) -> None:
        """Keep ``steps`` (played: ``t``) if they darken more, or as much for less gold."""
        key = (
            self.start - darkness(t, self.player, self.units, self.weight),
            t.gold[self.player] - self.budget,
        )
        if t.won == self.player or key > self.key:
            self.key, self.board, self.steps = key, t, steps
            if t.won == self.player:
                raise _Won

    def extend(
        self, b: Board, fresh: int, depth: int, steps: list[tuple[str, int, int]], moves: bool
    ) -> None:
        """Every chain from ``b``: trains next to the ``fresh`` cells (those the last step made active;
        all active land at the root), and at the root each unit's step first (``moves``)."""
        if self.nodes >= self.checked + 32:  # the clock is read every 32 steps or so
            self.checked = self.nodes
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
            for n, t in _unit_steps(b, src, player):
                if self.nodes >= RAID_NODES:
                    return
                self.nodes += 1
                taken = [*steps, ("MOVE", src, n)]
                self.offer(t, taken)
                self.extend(t, (t.act[player] & t.owned[player]) & ~land, depth, taken, False)


def _unit_steps(board: Board, src: int, player: int) -> Iterator[tuple[int, Board]]:
    """Each step the unit on ``src`` may take into a cell not yet its player's active land, if it may
    still act: the cell, and a copy of the board after it."""
    if board.moved[src] or not board.active[src]:
        return
    level = board.unit_level[src]
    for n in board.info.neighbours[src]:
        if (board.owner[n] == player and board.active[n]) or not board.capturable(n, player, level):
            continue
        after = board.copy()
        if after.move(src, n) == n:
            yield n, after


def raid(
    board: Board, player: int, budget: int, horizon: float, all_units_act: bool = False, weight: int = 0
) -> Plan | None:
    """``player``'s turn as the contest bot ``morozec`` plays its attack (None: it darkens nothing).

    Two searches, the one that darkens more of the opponent's active land kept (the cheaper of
    equal ones): each of them plays every chain of up to :data:`RAID_DEPTH` trains, each train next
    to the cells the step before it made active (the first next to the active land; a step that
    reconnects own cut-off land continues from all of it), and keeps the chain that darkens most.
    In the first search each unit that may act (all of them with ``all_units_act``: the opponent's
    next turn), by id, has first stepped to the neighbour whose taking darkens most (a taken cell
    counts one, a neutral one half); in the second no unit has, and a chain may start with one
    unit's step. At most :data:`RAID_NODES` steps each. Scored by :func:`score_plan` from ``board``.
    With ``weight``, each of the opponent's units on the land a chain darkens counts that much more
    than a cell (:func:`darkness`), as ``morozec`` counts the units it kills.

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
    units = unit_mask(base, e) if weight else 0
    start = darkness(base, player, units, weight)
    # The first search's moves: each unit, by id, where it darkens most.
    after = base
    moved: list[tuple[str, int, int]] = []
    for src in list(after.units(player)):
        dark = darkness(after, player, units, weight)
        best_gain, best_board, best_cell = 0.0, None, -1
        for n, b in _unit_steps(after, src, player):
            taken = 0.5 if after.owner[n] != e else 0.0
            gain = WIN if b.won == player else dark - darkness(b, player, units, weight) + taken
            if gain > best_gain:
                best_gain, best_board, best_cell = gain, b, n
        if best_board is not None:
            moved.append(("MOVE", src, best_cell))
            after = best_board
            if after.won == player:
                break
    searches = []
    for root, prefix, moves in ((after, moved, False), (base, [], True)):
        search = _Raid(root, player, start, list(prefix), units, weight)
        if root.won != player:
            with contextlib.suppress(_Won):  # a chain took the HQ: the search is over
                search.extend(root, root.act[player] & root.owned[player], 0, list(prefix), moves)
        searches.append(search)
        if search.board.won == player:
            break
    found = max(searches, key=lambda r: (r.board.won == player, r.key))
    final = found.board
    if final.won != player and darkness(final, player, units, weight) >= start:
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


def replay_raid(
    board: Board, player: int, budget: int, steps: list[tuple[str, int, int]], weight: int = 0
) -> int:
    """How many of the opponent's active cells ``steps`` (a raid found on another board) still
    darken on ``board``: each step played if it still may be (a train at the level the cell now
    needs, while the gold lasts); :data:`CELLS` if it takes the HQ. ``weight`` as in :func:`raid`."""
    b = board.copy()
    b.gold[player] = budget
    b.moved = [False] * CELLS
    b.changed()
    units = unit_mask(b, 1 - player) if weight else 0
    start = darkness(b, player, units, weight)
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
    return start - darkness(b, player, units, weight)
