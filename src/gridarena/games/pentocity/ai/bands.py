"""A land laid out in advance in horizontal strips, for streams of I pentominoes and 1 × 1 factories.

The layout follows from the simulator's road access and scoring (``Land.build``). A vertical I in a **band** of five rows,
packed side by side, touches the land only at its two ends: one row above the band and one below. Make one
of those rows a road and the other a pond or field row, and every I scores 7 on 6 cells of land (5 of its
own, one of the shared separator row). Next to the top and bottom edges the access quirk (a building with a
cell in rows 0, 1, 48, 49 needs no road) frees both ends for water and park: those bands score 9 per I.
A 1 × 1 factory sits in a **factory row** between a road row and a pond or field row and scores 3 on 2
cells (faithful mode: factories earn bonuses too); in row 48, between water and park, it scores 5.

I bands grow from the top and factory rows from the bottom, so the two kinds meet wherever the stream's
mix puts them; a strip is opened only when no opened strip of the other kind claims one of its rows.
Within a strip the buildings go from column 0 rightwards, and each one lays the missing prefix of its road
and resort rows: a road from column 0 is connected through the edge, and a resort prefix of 4 cells is a
pond or field at once. On an all-I stream the eight bands hold 400 I's: 2 × 50 × 9 + 6 × 50 × 7 = 3000
(less 4, since the first request, not yet known to start such a stream, goes to its place without them).

>>> from gridarena.games.pentocity.buildings import I_H
>>> from gridarena.games.pentocity.land import empty_land
>>> move = layout_move(empty_land(), I_H, Mode.FAITHFUL)
>>> move.location, sorted(move.water), len(move.park)
((1, 0), [(0, 0), (0, 1), (0, 2), (0, 3)], 4)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

from gridarena.core.bot import Decision
from gridarena.core.clock import TimeControl
from gridarena.core.types import Game, GameState, Player
from gridarena.games.pentocity.ai.greedy import pentocity_state
from gridarena.games.pentocity.ai.reserve import ReservePacker
from gridarena.games.pentocity.buildings import Building, Cell, Kind, Shape
from gridarena.games.pentocity.land import CellType, Land, Mode, Move
from gridarena.games.pentocity.placement import Violation, resolve_move

_W: Final = CellType.WATER
_P: Final = CellType.PARK
_R: Final = CellType.ROAD
#: A pond or field counts from 4 cells, so the first building of a strip lays 4 cells of its resort rows.
GROUP_SIZE: Final = 4


@dataclass(frozen=True, slots=True)
class Strip:
    """Rows ``top`` .. ``top + height - 1`` of buildings of one ``kind``, one per column, with the rows
    around them (``separators``: row and the cell type it gets) that give access and bonuses."""

    kind: Kind
    top: int
    height: int
    separators: tuple[tuple[int, CellType], ...]

    @property
    def building_type(self) -> CellType:
        """RESIDENCE or FACTORY."""
        return CellType.RESIDENCE if self.kind is Kind.RESIDENCE else CellType.FACTORY

    @property
    def claimed(self) -> range:
        """Every row the strip uses, its separators included.

        >>> I_BANDS[0].claimed
        range(0, 7)
        """
        rows = [self.top, self.top + self.height - 1, *(row for row, _ in self.separators)]
        return range(min(rows), max(rows) + 1)

    def cells(self, column: int) -> Shape:
        """The building cells of the strip in ``column``."""
        return tuple((self.top + k, column) for k in range(self.height))


def _band(top: int, above: CellType, below: CellType) -> Strip:
    return Strip(Kind.RESIDENCE, top, 5, ((top - 1, above), (top + 5, below)))


#: The I bands from the top, filled in this order. The first has edge access (row 1), so water above and
#: park below both score; the next six alternate road and resort rows, sharing each row between them.
I_BANDS: Final = (
    _band(1, _W, _P),
    _band(7, _P, _R),
    _band(13, _R, _W),
    _band(19, _W, _R),
    _band(25, _R, _P),
    _band(31, _P, _R),
    _band(37, _R, _W),
    # Rows 44-48 have edge access too; this band takes the bottom only while no factory row has.
    _band(44, _P, _W),
)


def _factory_rows() -> tuple[Strip, ...]:
    """Factory rows from the bottom: row 48 between water and park, then pairs around a road row."""
    rows = [Strip(Kind.FACTORY, 48, 1, ((47, _P), (49, _W)))]
    for pair in range(11):
        road = 45 - 4 * pair
        below, above = (_P, _W) if pair % 2 == 0 else (_W, _P)
        rows.append(Strip(Kind.FACTORY, road + 1, 1, ((road, _R), (road + 2, below))))
        rows.append(Strip(Kind.FACTORY, road - 1, 1, ((road - 2, above), (road, _R))))
    return tuple(rows)


#: The factory rows, filled in this order (rows 48, 46, 44, 42, ... up to row 4).
FACTORY_ROWS: Final = _factory_rows()


def is_i_pentomino(request: Building) -> bool:
    """True for the I pentomino (five cells in a line).

    >>> from gridarena.games.pentocity.buildings import I_H, X
    >>> is_i_pentomino(I_H), is_i_pentomino(X)
    (True, False)
    """
    return request.kind is Kind.RESIDENCE and request.size == 5 and request.is_rectangle()


def fits_layout(request: Building) -> bool:
    """True for the requests the layout has places for: I pentominoes and 1 × 1 factories.

    >>> from gridarena.games.pentocity.buildings import I_H, rect
    >>> fits_layout(I_H), fits_layout(rect(1, 1)), fits_layout(rect(1, 2))
    (True, True, False)
    """
    return is_i_pentomino(request) or (request.kind is Kind.FACTORY and request.size == 1)


def _opened(land: Land, strip: Strip) -> bool:
    """True when one of the strip's building rows holds a building of its kind."""
    rows = land[strip.top : strip.top + strip.height]
    return bool((rows == strip.building_type).any())


def _separators_clean(land: Land, strip: Strip) -> bool:
    """True when every separator cell is EMPTY or already of its planned type."""
    return all(((land[row] == CellType.EMPTY) | (land[row] == kind)).all() for row, kind in strip.separators)


def open_strips(land: Land, kind: Kind) -> Iterator[Strip]:
    """The strips of ``kind`` that may take a building now, in filling order: opened ones, and unopened
    ones whose rows are clean and claimed by no opened strip of the other kind."""
    own, other = (I_BANDS, FACTORY_ROWS) if kind is Kind.RESIDENCE else (FACTORY_ROWS, I_BANDS)
    taken = {row for strip in other if _opened(land, strip) for row in strip.claimed}
    for strip in own:
        if _opened(land, strip) or (not taken.intersection(strip.claimed) and _separators_clean(land, strip)):
            yield strip


def _prefix(land: Land, row: int, kind: CellType, last: int) -> frozenset[Cell] | None:
    """EMPTY cells of ``row`` in columns 0..``last`` (to become ``kind``), or None if one is taken by
    something else."""
    cells = []
    for col in range(last + 1):
        value = land[row, col]
        if value == CellType.EMPTY:
            cells.append((row, col))
        elif value != kind:
            return None
    return frozenset(cells)


def strip_move(land: Land, strip: Strip, column: int, rotation: int, resorts: bool = True) -> Move | None:
    """The move that puts the strip's building in ``column`` with the missing prefixes of its road and
    resort rows (unchecked: the caller asks the rules), or None when a prefix cell is taken; without
    ``resorts`` only the road's."""
    laid: dict[CellType, frozenset[Cell]] = {_R: frozenset(), _W: frozenset(), _P: frozenset()}
    for row, kind in strip.separators:
        if kind != _R and not resorts:
            continue
        last = column if kind == _R else max(column, GROUP_SIZE - 1)
        cells = _prefix(land, row, kind, last)
        if cells is None:
            return None
        laid[kind] = laid[kind] | cells
    return Move.build((strip.top, column), rotation, laid[_R], laid[_W], laid[_P])


def _rotation(request: Building, height: int) -> int | None:
    """Index of the request's rotation that is ``height`` rows tall and one column wide."""
    for index, shape in enumerate(request.rotations()):
        if max(i for i, _ in shape) == height - 1 and max(j for _, j in shape) == 0:
            return index
    return None


def layout_move(land: Land, request: Building, mode: Mode, resorts: bool = True) -> Move | None:
    """The layout's place for ``request``: the leftmost free column of the first strip that can take it,
    checked by the rules; None when the request does not fit the layout or no strip has room.

    >>> from gridarena.games.pentocity.buildings import rect
    >>> from gridarena.games.pentocity.land import empty_land
    >>> layout_move(empty_land(), rect(1, 1), Mode.FAITHFUL).location
    (48, 0)
    """
    if not fits_layout(request):
        return None
    kind = request.kind
    height = 5 if kind is Kind.RESIDENCE else 1
    rotation = _rotation(request, height)
    if rotation is None:
        return None
    for strip in open_strips(land, kind):
        column = _first_free(land, strip)
        if column is None:
            continue
        move = strip_move(land, strip, column, rotation, resorts)
        if move is not None and not isinstance(resolve_move(land, request, move, mode), Violation):
            return move
    return None


def _first_free(land: Land, strip: Strip) -> int | None:
    """The leftmost column whose building cells are all EMPTY (only it keeps the prefixes whole)."""
    free = (land[strip.top : strip.top + strip.height] == CellType.EMPTY).all(axis=0)
    columns = free.nonzero()[0]
    return int(columns[0]) if columns.size else None


class BandPlayer(ReservePacker):
    """The strip layout for as long as every request of the game has fit it (I pentominoes and 1 × 1
    factories, faithful rules), else the reserving packer: it gets the first other request and all later
    ones, and any request the layout has no room for. The first ``confirm - 1`` requests are placed
    without their resort rows, since one request does not tell an I/1 × 1 stream yet.

    >>> from gridarena.games.pentocity.rules import Pentocity
    >>> from gridarena.games.pentocity.simulator import play
    >>> play(Pentocity(sequencer="g6", cpu_time=None), BandPlayer(), seed=1).final_state.score  # the first I bare
    2996
    """

    name = "bands"
    #: The layout lays resort rows from this request on. The ones before go to their places bare (edge
    #: access, no road): a stream whose first request is an I but that then hands over (g8's) leaves the
    #: packer an I against the edge instead of 13 cells of layout, +21 points on average on g8.
    confirm = 2
    #: 1 × 1 factories go to the best hole anywhere, not towards the factory corner (see the packer).
    filler_diagonal = 0.0
    #: Every plan pays 0.3 per EMPTY cell that no place of the largest factory can cover any more.
    cover_weight = 0.3

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.layout = True

    def reset(self, game: Game[Any], seat: Player, seed: int) -> None:
        super().reset(game, seat, seed)
        self.layout = True

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        st = pentocity_state(state)
        request = st.request
        assert request is not None
        if st.requests <= 1:  # a new game, even without reset()
            self.layout, self.big = True, None
        self.layout = self.layout and st.pentocity.mode is Mode.FAITHFUL and fits_layout(request)
        if self.layout:
            move = layout_move(st.land, request, st.pentocity.mode, st.requests >= self.confirm)
            if move is not None:
                return Decision(move, {"layout": True, "road_cells": len(move.road)})
        return super().act(state, clock)
