"""Pentocity ("Pentos", Columbia COMS 4444, Fall 2016): build a city of pentomino residences and
rectangular factories on a 50×50 land, one request at a time.

What a bot author needs is importable from here: the game and its state, :class:`Move` (``Move.build``,
``Move.reject``), the cell types, the land's side and the 2016 tournament's seeds; the bot's base class is
``gridarena.BaseBot`` (docs/pentocity.md, "Write your own bot").

>>> from gridarena.games.pentocity import SEEDS_2016, Pentocity
>>> Pentocity(sequencer="misfits").num_players, SEEDS_2016[0]
(1, 869)
"""

from gridarena.games.pentocity.buildings import Building, Kind
from gridarena.games.pentocity.land import SIDE, CellType, Mode, Move
from gridarena.games.pentocity.placement import InvalidMoveError, Violation
from gridarena.games.pentocity.reference import REFERENCE_2016, SEEDS_2016
from gridarena.games.pentocity.rules import Pentocity, PentocityState
from gridarena.games.pentocity.sequencers import SEQUENCERS, make_sequencer

__all__ = [
    "REFERENCE_2016",
    "SEEDS_2016",
    "SEQUENCERS",
    "SIDE",
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
