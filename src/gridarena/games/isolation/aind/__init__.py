"""The 2017 Udacity AIND project in gridarena: its ``isolation.Board``, agents, samples and tournament.

:mod:`.board` is AIND's Board with its quirks (and conversions to the reference state);
:mod:`.loader` runs an unmodified ``game_agent.py`` against it; :mod:`.samples` is AIND's
``sample_players.py`` with the reference report's four custom heuristics; :mod:`.agents` holds
AIND's ``MinimaxPlayer`` and ``AlphaBetaPlayer``; :mod:`.bots` plays any AIND player as a
gridarena bot, so the arena can run them; :mod:`.tournament` names the entrants of AIND's
tournament and formats its table (the arena plays it: ``gridarena isolation aind-tournament``).
"""

from gridarena.games.isolation.aind.board import (
    NO_MOVE,
    SHARED_RNG,
    TIME_LIMIT_MILLIS,
    Board,
    Move,
    TimeLeft,
    board_from_state,
    seed,
    state_from_aind,
)
from gridarena.games.isolation.aind.loader import AgentLoadError, load_agent_module

__all__ = [
    "NO_MOVE",
    "SHARED_RNG",
    "TIME_LIMIT_MILLIS",
    "AgentLoadError",
    "Board",
    "Move",
    "TimeLeft",
    "board_from_state",
    "load_agent_module",
    "seed",
    "state_from_aind",
]
