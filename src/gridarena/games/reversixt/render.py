"""ReversiXT pictures: the board as text with a legend (placeholder until the SVG lands)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gridarena.games.reversixt.formats import SYMBOLS

if TYPE_CHECKING:
    from gridarena.games.reversixt.rules import ReversiState


def state_text(state: ReversiState) -> str:
    """The board rows and who is to move."""
    m = state.game.board
    w = m.width
    rows = [" ".join(SYMBOLS[c] for c in state.cells[y * w : (y + 1) * w]) for y in range(m.height)]
    return "\n".join(rows) + f"\nphase {state.phase}, player {state.mover} to move\n"
