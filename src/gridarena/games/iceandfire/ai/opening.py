"""The opening: territory filled for the turns until contact, units and trains placed by what they will claim.

Until the two territories touch, a turn is a race for the neutral cells. :func:`claim_race` says which
cells each player reaches first: both sides' units walk one cell a turn and their territory's border
follows one turn behind (a train, then a step), the opponent moving first (it plays next). The
opening turn (:func:`expand`) moves every unit, then trains level-1 units, each choice the one that
most raises the cells we reach first plus the cells we own: units fan out towards the contested
middle, new units start where they open ground nobody else of ours covers, and the gold goes into
units while each one still claims more than it costs (a level-1 unit costs 10 and 1 a turn, and
walks onto a new cell, worth 1 a turn, every turn until contact).
"""

from __future__ import annotations

from gridarena.games.iceandfire.ai.board import ME, OPP, Board
from gridarena.games.iceandfire.geometry import CELLS, NEUTRAL, cells_mask, edges, spread, xy

#: How many turns ahead the race is run (the map is 12 x 12: about the distance between the HQs).
RACE_TURNS = 12


def _start(board: Board, player: int) -> tuple[int, int]:
    """The cells ``player``'s units stand on (they walk now) and its active cells (one turn later)."""
    units = 0
    for i in range(CELLS):
        if board.unit_level[i] and board.unit_owner[i] == player and board.active[i]:
            units |= 1 << i
    return units, board.act[player] & board.owned[player]


def non_void(board: Board) -> int:
    """The bit mask of the map's non-void cells (cached on the map's tables)."""
    key = ("nonvoid",)
    known = board.cached(key)
    if known is None:
        known = ~cells_mask(bytes(board.info.void), 1) & ((1 << CELLS) - 1)
        board.remember(key, known)
    return known  # type: ignore[return-value]


def claim_race(board: Board) -> tuple[int, int, int]:
    """The cells we reach first, those the opponent reaches first and those both reach in the same
    turn (bit masks), racing over every non-void cell for :data:`RACE_TURNS` turns (see the module)."""
    inside = non_void(board)
    my_units, my_land = _start(board, ME)
    their_units, their_land = _start(board, OPP)
    mine, theirs = my_units | my_land, their_units | their_land
    tied = 0
    free = inside & ~(mine | theirs)
    # The first turn only the units walk; from then on the whole region grows (trains on the border).
    my_front, their_front = my_units, their_units
    for _ in range(RACE_TURNS):
        if not free:
            break
        theirs_new = spread(their_front) & free
        mine_new = spread(my_front) & free
        both = theirs_new & mine_new
        tied |= both
        mine |= mine_new & ~both
        theirs |= theirs_new & ~both
        free &= ~(mine_new | theirs_new)
        my_front, their_front = mine, theirs
    return mine, theirs, tied


def race_value(board: Board, owned_weight: float = 1.0, border_weight: float = 0.0) -> float:
    """What the race gives us: the cells we reach first less those the opponent reaches first, plus
    ``owned_weight`` per active cell we own now (income from this turn on), less ``border_weight``
    per side of our land that touches a cell not ours (a thin land has a long border)."""
    mine, theirs, _ = claim_race(board)
    land = board.act[ME] & board.owned[ME]
    value = mine.bit_count() - theirs.bit_count() + owned_weight * land.bit_count()
    if border_weight:
        value -= border_weight * edges(land, non_void(board) & ~land)
    return value


def contact(board: Board) -> int:
    """How many cells apart the two sides are (territories and units): 1 when they touch."""
    inside = non_void(board)
    mine = board.owned[ME]
    theirs = board.owned[OPP]
    for i in range(CELLS):
        if board.unit_level[i]:
            if board.unit_owner[i] == ME:
                mine |= 1 << i
            else:
                theirs |= 1 << i
    reach = mine
    for steps in range(1, 2 * RACE_TURNS):
        reach = spread(reach) & inside
        if reach & theirs:
            return steps
    return 2 * RACE_TURNS


def expand(
    board: Board, commands: list[str], reserve: int = 0, min_gain: float = 1.5, border_weight: float = 0.0
) -> Board:
    """The opening turn: every unit steps where the race gains most, then level-1 units are trained
    where they gain most, while one gains at least ``min_gain`` and ``reserve`` gold stays (the race
    less ``border_weight`` per side of our border: :func:`race_value`)."""
    base = race_value(board, border_weight=border_weight)
    units = [i for i in board.units(ME) if not board.moved[i]]
    # The units nearest the opponent choose first: they open the front the others fill behind.
    enemy_hq = board.hq[OPP]
    dist = board.info.dist
    units.sort(key=lambda i: dist[i][enemy_hq])
    for src in units:
        if board.moved[src] or not board.unit_level[src]:
            continue
        best: tuple[float, int, Board] | None = None
        for n in board.info.neighbours[src]:
            if board.owner[n] == OPP or board.step(src, n) != n:
                continue
            b = board.copy()
            if b.move(src, n) != n:
                continue
            value = race_value(b, border_weight=border_weight) - 0.01 * dist[n][enemy_hq]
            if best is None or value > best[0]:
                best = (value, n, b)
        if best is None or best[0] <= base - 0.01 * dist[src][enemy_hq]:
            continue
        uid = board.unit_id[src]
        board = best[2]
        base = race_value(board, border_weight=border_weight)
        x, y = xy(best[1])
        commands.append(f"MOVE {uid} {x} {y}")
    while board.gold[ME] >= 10 + reserve and board.compute_income(ME) > 0:
        best = None
        for i in _train_cells(board):
            b = board.copy()
            if not b.train(i, 1):
                continue
            value = race_value(b, border_weight=border_weight) - 0.01 * dist[i][enemy_hq]
            if best is None or value > best[0]:
                best = (value, i, b)
        if best is None or best[0] - base < min_gain:
            break
        board = best[2]
        base = race_value(board, border_weight=border_weight)
        x, y = xy(best[1])
        commands.append(f"TRAIN 1 {x} {y}")
    return board


def _train_cells(board: Board) -> list[int]:
    """Neutral cells next to our active territory: where a level-1 unit claims a new cell."""
    owner, active, neighbours = board.owner, board.active, board.info.neighbours
    return [
        i
        for i in range(CELLS)
        if owner[i] == NEUTRAL and board.free(i) and any(owner[n] == ME and active[n] for n in neighbours[i])
    ]
