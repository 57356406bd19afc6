"""Pentocity ("Pentos", Columbia COMS 4444, Fall 2016): build a city of pentomino residences and
rectangular factories on a 50×50 land, one request at a time.

>>> from gridarena.games.pentocity import Pentocity
>>> Pentocity(sequencer="misfits").num_players
1
"""

from gridarena.games.pentocity.buildings import Building, Kind
from gridarena.games.pentocity.land import CellType, Mode, Move
from gridarena.games.pentocity.placement import InvalidMoveError, Violation
from gridarena.games.pentocity.rules import Pentocity, PentocityState
from gridarena.games.pentocity.sequencers import SEQUENCERS, make_sequencer

__all__ = [
    "SEQUENCERS",
    "Building",
    "CellType",
    "InvalidMoveError",
    "Kind",
    "Mode",
    "Move",
    "Pentocity",
    "PentocityState",
    "Violation",
    "make_sequencer",
]
