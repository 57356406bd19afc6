"""Holding the front: our units on the border cells the opponent's level-1 units would walk or train into.

A level-1 unit may enter any free enemy cell that no tower protects, and none may enter a cell that
holds a unit of its own level or above (CodinGame's statement of the game): a unit on a border cell
is a wall the opponent's cheapest units cannot pass, and a border left empty is where a level-1
train cuts a salient off.
:func:`wall` trains level-1 units on the border cells whose loss would part most of our land from
the HQ; ``best`` also has a way of moving that keeps its border units where they stand unless they
attack (``BestBot.stays``).
"""

from __future__ import annotations

from gridarena.games.iceandfire.ai.board import ME, OPP, Board
from gridarena.games.iceandfire.ai.threats import reachable
from gridarena.games.iceandfire.geometry import NO_BUILDING, flood, xy


def front_cells(board: Board, player: int = ME) -> list[int]:
    """``player``'s free active cells next to an active enemy cell or an enemy unit (ascending)."""
    e = 1 - player
    owner, active, neighbours = board.owner, board.active, board.info.neighbours
    unit_level, unit_owner, building = board.unit_level, board.unit_owner, board.building
    cells = []
    for i in board.cells_of(player):
        if unit_level[i] or building[i] != NO_BUILDING:
            continue
        if any(
            (owner[n] == e and active[n]) or (unit_level[n] and unit_owner[n] == e) for n in neighbours[i]
        ):
            cells.append(i)
    return cells


def on_front(board: Board, i: int, player: int = ME) -> bool:
    """Whether cell ``i`` touches an active enemy cell or an enemy unit."""
    e = 1 - player
    owner, active = board.owner, board.active
    return any(
        (owner[n] == e and active[n]) or (board.unit_level[n] and board.unit_owner[n] == e)
        for n in board.info.neighbours[i]
    )


def cut_size(board: Board, i: int, player: int = ME) -> int:
    """How many of ``player``'s active cells the loss of cell ``i`` parts from its HQ, ``i`` included."""
    land = board.act[player] & board.owned[player]
    rest = land & ~(1 << i)
    return (land & ~flood(1 << board.hq[player], rest)).bit_count()


def wall(board: Board, commands: list[str], limit: int = 3, keep: int = 0) -> Board:
    """Level-1 units where the opponent's next turn would cut most: on our free cells that its chains
    reach next turn (``threats.reachable``) or that touch its land or units (:func:`front_cells`),
    those whose loss would part most of our land from the HQ first (:func:`cut_size`; a cell whose
    loss parts nothing else only if an enemy unit stands next to it), up to ``limit`` units while
    ``keep`` gold stays."""
    candidates = set(front_cells(board)) | set(reachable(board, OPP))
    ranked = []
    for i in candidates:
        if board.unit_level[i] or board.building[i] != NO_BUILDING or i == board.hq[ME]:
            continue
        size = cut_size(board, i)
        if size > 1 or any(
            board.unit_level[n] and board.unit_owner[n] == OPP for n in board.info.neighbours[i]
        ):
            ranked.append((-size, i))
    ranked.sort()
    for _, i in ranked[:limit]:
        if board.gold[ME] < 10 + keep:
            break
        if board.train(i, 1):
            commands.append("TRAIN 1 {} {}".format(*xy(i)))
    return board
