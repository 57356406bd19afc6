"""Generic search: one algorithm per module, over the game API or a small ``Problem`` protocol.

Single agent: :func:`bfs`, :func:`astar`, :func:`idastar` (``problem.py`` says what they count).
Two players: :func:`minimax`, :func:`alphabeta` and :func:`alphabeta_deepening` (anytime).
N players: :func:`paranoid`, :func:`maxn`, :func:`brs` (each with a ``*_deepening`` twin) and
:class:`MCTS`. No module here imports a game; evaluation always comes in as an argument.
"""

from gridarena.search.adversarial import WIN, Evaluate, Progress, SearchResult, terminal_value
from gridarena.search.alphabeta import AlphaBeta, alphabeta, alphabeta_deepening
from gridarena.search.astar import astar, zero_heuristic
from gridarena.search.bfs import bfs
from gridarena.search.brs import brs, brs_deepening
from gridarena.search.errors import (
    InvalidBoundsError,
    InvalidProblemError,
    SearchAborted,
    UnsupportedGameError,
)
from gridarena.search.idastar import idastar
from gridarena.search.iterative import aspirated, deepen, last
from gridarena.search.maxn import maxn, maxn_deepening
from gridarena.search.mcts import MCTS, HeuristicValue, MCTSResult, RandomRollout
from gridarena.search.minimax import minimax
from gridarena.search.paranoid import paranoid, paranoid_deepening
from gridarena.search.problem import Problem, Solution
from gridarena.search.tt import TranspositionTable

__all__ = [
    "MCTS",
    "WIN",
    "AlphaBeta",
    "Evaluate",
    "HeuristicValue",
    "InvalidBoundsError",
    "InvalidProblemError",
    "MCTSResult",
    "Problem",
    "Progress",
    "RandomRollout",
    "SearchAborted",
    "SearchResult",
    "Solution",
    "TranspositionTable",
    "UnsupportedGameError",
    "alphabeta",
    "alphabeta_deepening",
    "aspirated",
    "astar",
    "bfs",
    "brs",
    "brs_deepening",
    "deepen",
    "idastar",
    "last",
    "maxn",
    "maxn_deepening",
    "minimax",
    "paranoid",
    "paranoid_deepening",
    "terminal_value",
    "zero_heuristic",
]
