"""The catalogue: one line per game package and per family of generic bots; nothing is imported here.

A game joins gridarena with its own package (a ``catalogue.py`` declaring its
:class:`~gridarena.core.catalogue.GameEntry`) and one line in :data:`GAMES` (and its name in
``GameId``). :mod:`gridarena.core.registry` reads these tables and imports an entry only when it is
asked for, so ``gridarena games`` stays fast and a broken game cannot break the others.
"""

from __future__ import annotations

from typing import Final, Literal, TypeAlias

GameId: TypeAlias = Literal["iceandfire", "isolation", "pentocity", "reversixt", "slidingpuzzle"]

#: Each game's entry, ``"module:ENTRY"``.
GAMES: Final[dict[GameId, str]] = {
    "iceandfire": "gridarena.games.iceandfire.catalogue:ENTRY",
    "isolation": "gridarena.games.isolation.catalogue:ENTRY",
    "pentocity": "gridarena.games.pentocity.catalogue:ENTRY",
    "reversixt": "gridarena.games.reversixt.catalogue:ENTRY",
    "slidingpuzzle": "gridarena.games.slidingpuzzle.catalogue:ENTRY",
}

#: Families of generic bots: ``"module:function"``, each ``function(entry) -> {name: BotEntry}`` giving
#: the family's bots for a game (empty where they cannot play it). A game's own bots come after these
#: and may take a name of theirs.
BOT_FAMILIES: Final[tuple[str, ...]] = (
    "gridarena.bots.catalogue:common_bots",
    "gridarena.bots.catalogue:search_bots",
    "gridarena.adapters.catalogue:adapter_bots",
)
