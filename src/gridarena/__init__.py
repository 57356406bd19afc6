"""gridarena: game-playing AI on grid games.

>>> import gridarena
>>> game = gridarena.make("isolation")
>>> game.new_initial_state().legal_actions()[:3]
[0, 1, 2]
"""

__version__ = "0.1.0"

from gridarena.adapters.registration import register_when_imported
from gridarena.bots.base import RandomBot
from gridarena.core.bot import BaseBot, Bot, Decision
from gridarena.core.errors import GridArenaError, IllegalActionError, UnknownNameError
from gridarena.core.play import play_game
from gridarena.core.registry import available_bots, available_games, make, make_bot
from gridarena.core.types import CHANCE, TERMINAL, Game, GameState, Outcome

register_when_imported()  # gymnasium.make("gridarena/<game>-v0") after `import gridarena`, Gymnasium imported lazily

__all__ = [
    "CHANCE",
    "TERMINAL",
    "BaseBot",
    "Bot",
    "Decision",
    "Game",
    "GameState",
    "GridArenaError",
    "IllegalActionError",
    "Outcome",
    "RandomBot",
    "UnknownNameError",
    "available_bots",
    "available_games",
    "make",
    "make_bot",
    "play_game",
]
