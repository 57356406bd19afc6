"""A Code of Ice and Fire (CodinGame, May 2019): the referee of the contest and multiplayer
versions, the bit-exact map generator and the CodinGame protocol's text.

>>> from gridarena.games.iceandfire import IceAndFire
>>> IceAndFire().new_initial_state(seed=1).gold
(21, 20)
"""

from gridarena.games.iceandfire.formats import (
    Build,
    Command,
    Ignored,
    Move,
    Msg,
    Train,
    Turn,
    Wait,
    parse_line,
)
from gridarena.games.iceandfire.mapgen import GeneratedMap, format_map, generate
from gridarena.games.iceandfire.referee import Building, Unit
from gridarena.games.iceandfire.rules import IceAndFire, IceAndFireState

__all__ = [
    "Build",
    "Building",
    "Command",
    "GeneratedMap",
    "IceAndFire",
    "IceAndFireState",
    "Ignored",
    "Move",
    "Msg",
    "Train",
    "Turn",
    "Unit",
    "Wait",
    "format_map",
    "generate",
    "parse_line",
]
