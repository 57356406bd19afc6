"""Positions drawn by hand: a state from rows of owners, units and buildings (tests, puzzles, and
the CodinGame input a bot reads, :mod:`gridarena.games.iceandfire.protocol`).

>>> state = state_from_rows(["R" * 12, *["." * 12] * 10, "B" * 12], units=[(1, 0, 1, 3, 0)])
>>> state.units[0].x, state.active[3], state.income
(3, 1, (11, 12))
"""

from __future__ import annotations

from collections.abc import Sequence

from gridarena.core.errors import StateFormatError
from gridarena.core.types import Player
from gridarena.games.iceandfire.geometry import BLUE, CELLS, HQ, NEUTRAL, RED, SIZE, VOID, make_board
from gridarena.games.iceandfire.referee import Building, Referee, Unit
from gridarena.games.iceandfire.rules import IceAndFire, IceAndFireState, frozen


def state_from_rows(
    cells: Sequence[str],
    *,
    game: IceAndFire | None = None,
    units: Sequence[tuple[int, int, int, int, int]] = (),
    buildings: Sequence[tuple[int, int, int, int]] = (),
    gold: tuple[int, int] = (100, 100),
    spots: Sequence[tuple[int, int]] = (),
    player: Player = RED,
    turn: int = 10,
) -> IceAndFireState:
    """A position drawn by hand, for tests and puzzles: ``cells`` rows as in the JSON (``#`` void,
    ``.`` neutral, ``R``/``B`` owned; activity is recomputed), units as (id, owner, level, x, y) (all
    may act), extra buildings as (owner, kind, x, y) (the HQs are added), incomes computed.

    The state is the one the player to move sees at the start of its turn, without the turn start
    (no income credited, no unit removed).
    """
    game = game or IceAndFire()
    rows = tuple("".join("#" if ch == "#" else "." for ch in row) for row in cells)
    board = make_board(rows, tuple(spots))
    owner = bytes(
        {"#": VOID, ".": NEUTRAL, "R": RED, "r": RED, "B": BLUE, "b": BLUE}[ch] for row in cells for ch in row
    )
    state = IceAndFireState(
        rules=game.rules,
        league=game.league,
        board=board,
        seed=None,
        owner=owner,
        active=bytes(CELLS),
        units=tuple(Unit(i, o, lv, x, y, True) for i, o, lv, x, y in sorted(units)),
        buildings=(
            Building(RED, HQ, 0, 0),
            Building(BLUE, HQ, SIZE - 1, SIZE - 1),
            *(Building(*b) for b in buildings),
        ),
        gold=gold,
        income=(0, 0),
        turn=turn,
        player=player,
        next_id=max((u[0] for u in units), default=0) + 1,
    )
    placed: tuple[Unit | Building, ...] = (*state.units, *state.buildings[2:])
    for thing in placed:
        if state.owner[thing.cell] != thing.owner:
            raise StateFormatError(f"iceandfire: {thing!r} does not stand on a cell of its owner")
    referee = Referee(state)
    referee.compute_active(RED)
    referee.compute_active(BLUE)
    referee.update_incomes()
    return frozen(state, referee, (), None)
