"""A position cell by cell, with the rules that read it: who may enter a cell, where TRAIN and BUILD
may act, the MOVE step, activity and income.

The referee (:class:`~gridarena.games.iceandfire.referee.Referee`) and the bots' board
(:class:`~gridarena.games.iceandfire.ai.board.Board`) both keep a position this way and inherit these
rules, so the bots plan with the referee's own code. Players are indices 0 and 1: red and blue for
the referee, the bot and its opponent for the bots' board (``hq`` and ``orders`` say which is which).

Per cell: ``owner`` (0, 1, ``NEUTRAL``, ``VOID``), ``active`` (1 for a cell joined to its owner's
HQ), ``building`` (``HQ``, ``MINE``, ``TOWER`` or ``NO_BUILDING``) and ``unit_level`` (0: no unit; a
unit or a building always stands on a cell of its owner). Activity is kept as bit masks, ``owned``
and ``act`` per player, and ``active`` is their picture.
"""

from __future__ import annotations

from typing import Final

from gridarena.games.iceandfire.geometry import (
    CAPTURE_LEVEL,
    CELLS,
    MINE,
    MINE_INCOME,
    NEIGHBOUR_BITS,
    NO_BUILDING,
    TOWER,
    UPKEEP,
    Board,
    flood,
    mask_cells,
    mask_indices,
    mine_cost,
    simple_point,
)

#: Per player, the mask of no cell (the start of ``owned`` and ``act``).
NO_CELLS: Final = (0, 0)


class Cells:
    """The cells of a position and the rules on them (see the module docstring); subclasses fill the
    slots and add what they need (unit ids and the building list for the referee, the seat for bots)."""

    __slots__ = (
        "act",
        "active",
        "building",
        "hq",
        "layout",
        "max_level",
        "orders",
        "owned",
        "owner",
        "rules",
        "unit_level",
    )

    layout: Board
    rules: str
    max_level: int
    owner: bytearray
    active: bytearray
    building: list[int]
    unit_level: bytearray
    hq: list[int]
    orders: tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]
    owned: list[int]
    act: list[int]

    # -- who may do what where -------------------------------------------------------------

    def protected(self, i: int) -> bool:
        """Protected: an owned cell holding a TOWER, or next to an active cell of its owner holding one."""
        owner = self.owner
        o = owner[i]
        if o > 1:
            return False
        building = self.building
        if building[i] == TOWER:
            return True
        active = self.active
        for n in self.layout.neighbours[i]:  # noqa: SIM110 (a loop: about twice as fast as any() here)
            if building[n] == TOWER and owner[n] == o and active[n]:
                return True
        return False

    def capturable(self, i: int, player: int, level: int) -> bool:
        """The referee's capture rule: may a level-``level`` unit of ``player`` enter cell ``i``?

        In the referee's order: a foreign cell with a tower on it, or active and protected, needs level 3;
        a free cell may be entered; an own occupied cell may not; a unit falls only to a higher level or
        to the top level (``MAX_LEVEL``: 3, but 1 in Wood 3, where level 1 kills level 1); anything else
        (an unprotected enemy mine or HQ) may be taken.
        """
        o = self.owner[i]
        if (
            o != player
            and level < CAPTURE_LEVEL
            and (self.building[i] == TOWER or (self.active[i] and self.protected(i)))
        ):
            return False
        unit = self.unit_level[i]
        if not unit and self.building[i] == NO_BUILDING:
            return True
        if o == player:
            return False
        return not (unit and level != self.max_level and level <= unit)

    def playable(self, i: int, player: int) -> bool:
        """Own and active, or a 4-neighbour is own and active: where TRAIN and BUILD may act."""
        owner, active = self.owner, self.active
        if owner[i] == player and active[i]:
            return True
        for n in self.layout.neighbours[i]:  # noqa: SIM110 (a loop: about twice as fast as any() here)
            if owner[n] == player and active[n]:
                return True
        return False

    def path_step(self, src: int, target: int, player: int, level: int) -> int:
        """The path-finding step for a MOVE from ``src`` to ``target``: among the neighbours strictly closer to
        the target that the unit may enter, the closest (ties: the first in the player's order); -1
        when there is none. (The caller checks a target next to the unit first.)"""
        dist = self.layout.dist
        row = target * CELLS  # the table is symmetric: dist[n * 144 + target] == dist[row + n]
        best, best_d = -1, dist[row + src]
        for n in self.orders[player][src]:
            d = dist[row + n]
            if d < best_d and self.capturable(n, player, level):
                best, best_d = n, d
        return best

    def mine_cost(self, player: int) -> int:
        """What ``player``'s next MINE costs (contest: 20 + 4 per MINE it owns, inactive ones too)."""
        owner = self.owner
        return mine_cost(
            self.rules, sum(1 for i, k in enumerate(self.building) if k == MINE and owner[i] == player)
        )

    def compute_income(self, player: int) -> int:
        """Income: active cells + 4 per MINE on an active cell - upkeep of units on active cells."""
        total = 0
        building, unit_level = self.building, self.unit_level
        for i in mask_indices(self.act[player] & self.owned[player]):
            total += 1 - UPKEEP[unit_level[i]]
            if building[i] == MINE:
                total += MINE_INCOME
        return total

    # -- activity (territory joined to the HQ) -----------------------------------------------

    def activate(self, player: int) -> None:
        """``player``'s active cells from scratch: its cells joined to its HQ cell by its own cells."""
        self.act[player] = flood(1 << self.hq[player], self.owned[player])

    def show_activity(self) -> None:
        """``active`` from the masks, after a change of them."""
        self.active = bytearray(mask_cells(self.act[0] | self.act[1]))

    def claim(self, i: int, player: int) -> int:
        """Cell ``i`` becomes ``player``'s (activity is the caller's: see :meth:`join`); its owner before."""
        prev = self.owner[i]
        bit = 1 << i
        if prev < 2:
            self.owned[prev] &= ~bit
        self.owned[player] |= bit
        self.owner[i] = player
        return prev

    def join(self, i: int, player: int) -> int:
        """``player`` has just taken ``i``: if a neighbour is ``player``'s and active (or ``i`` is its HQ),
        ``i`` and the inactive own cells it reaches become active (a gain of cells never cuts anything
        off). The cells it joined, ``i`` included, as a mask; 0 if it joined nothing."""
        bit = 1 << i
        act = self.act[player]
        around = NEIGHBOUR_BITS[i]
        if not around & act and i != self.hq[player]:
            return 0
        within = self.owned[player] & ~act
        joined = flood(bit, within | bit) if around & within else bit  # often nothing to reconnect
        self.act[player] = act | joined
        return joined

    def may_cut(self, i: int, player: int, inside: int) -> bool:
        """Whether ``player``'s losing active cell ``i`` may cut its territory (``inside``: its active
        cells around ``i`` without it). False is certain (:func:`simple_point`); True asks for a flood."""
        return i == self.hq[player] or not simple_point(i, inside)

    def lose(self, i: int, player: int) -> bool:
        """``player`` has just lost cell ``i``: its activity without it, flooded again only when the loss
        may cut something off; whether a flood ran."""
        bit = 1 << i
        was_active = self.act[player] & bit
        self.act[player] &= ~bit
        if was_active and self.may_cut(i, player, self.act[player]):
            self.activate(player)
            return True
        return False
