"""The generic bots' catalogue families: bots every game can use, and the search bots of games that
offer evaluation functions (:mod:`gridarena.catalogue` lists these families)."""

from __future__ import annotations

import math
from typing import Final

from gridarena.bots.external import PROTOCOLS, STARTUP_TIMEOUT, UNTIMED_TIMEOUT
from gridarena.core.catalogue import BotEntry, GameEntry
from gridarena.core.params import (
    REQUIRED,
    Choice,
    Command,
    Flag,
    Int,
    Number,
    Numbers,
    Path,
    Reach,
    Text,
    TextMap,
)

#: The deepest a search bot may be asked to go (a depth limit, not a clock: the move's clock still stops it).
MAX_DEPTH: Final = 64

_COMMON: Final[dict[str, BotEntry]] = {
    "random": BotEntry("gridarena.bots.base:make_random_bot", "a uniformly random legal move"),
    "human": BotEntry(
        "gridarena.bots.human:make_human_bot",
        "a person at the terminal (the board on stderr, moves read from stdin)",
        reaches=frozenset({Reach.TERMINAL}),
    ),
    "external": BotEntry(
        "gridarena.bots.external:make_external_bot",
        "a program of yours, in any language, over JSON lines or a CodinGame game's own protocol",
        {
            "cmd": Command(default=REQUIRED, help="the program to start, e.g. 'python3 bot.py'"),
            "protocol": Choice(PROTOCOLS, default="jsonl", help="what the program speaks"),
            "cwd": Path("the folder the program starts in", default=None),
            "env": TextMap(64, default=None, help="variables added to the program's environment"),
            "startup_timeout": Number(0, 600, default=STARTUP_TIMEOUT, help="seconds to start and warm up"),
            "timeout": Number(
                0, 86400, default=UNTIMED_TIMEOUT, help="seconds a move may take when the game is untimed"
            ),
        },
        reaches=frozenset({Reach.PROGRAM}),
        shown_by=("cmd",),
    ),
    "python": BotEntry(
        "gridarena.bots.python_file:make_python_bot",
        "a bot class of yours (a BaseBot subclass) from a Python file, played in this process",
        {
            "file": Path("a Python file", default=REQUIRED, optional=False),
            "cls": Text(
                200, optional=True, default=None, help="the class; default: the file's one bot class"
            ),
        },
        reaches=frozenset({Reach.FILE}),
        shown_by=("cls", "file"),
    ),
}


def common_bots(entry: GameEntry) -> dict[str, BotEntry]:
    """Bots every game can use: ``random``, ``human``, ``external`` and ``python``."""
    return dict(_COMMON)


def search_bots(entry: GameEntry) -> dict[str, BotEntry]:
    """The generic searches (:mod:`gridarena.bots.search_bots`) for a game with evaluation functions."""
    names = entry.heuristics
    if not names:
        return {}
    heuristic = Choice(names, default=None, help="the evaluation function; default: the game's default")
    depth = Int(
        1, MAX_DEPTH, optional=True, default=None, help="a depth limit; default: until the clock stops"
    )
    tt = Flag(default=True, help="keep a transposition table (of a bounded size) for the game")
    aspiration = Number(0, 1e9, optional=True, default=None, help="the aspiration window's half width")
    module = "gridarena.bots.search_bots"
    return {
        "minimax": BotEntry(
            f"{module}:make_minimax_bot",
            "plain minimax to a fixed depth (AIND's MinimaxPlayer), two players",
            {"heuristic": heuristic, "depth": Int(1, 12, default=3, help="the depth searched")},
        ),
        "alphabeta": BotEntry(
            f"{module}:make_alphabeta_bot",
            "iterative-deepening alpha-beta with a transposition table, two players",
            {
                "heuristic": heuristic,
                "depth": depth,
                "tt": tt,
                "aspiration": aspiration,
                "history": Flag(default=False, help="order moves by the history heuristic"),
            },
        ),
        "paranoid": BotEntry(
            f"{module}:make_paranoid_bot",
            "iterative-deepening paranoid alpha-beta, any number of players",
            {"heuristic": heuristic, "depth": depth, "tt": tt, "aspiration": aspiration},
        ),
        "maxn": BotEntry(
            f"{module}:make_maxn_bot",
            "iterative-deepening max^n, any number of players",
            {
                "heuristic": heuristic,
                "depth": depth,
                "bounds": Numbers(2, -1e12, 1e12, default=None, help="(lower, total): shallow pruning"),
            },
        ),
        "brs": BotEntry(
            f"{module}:make_brs_bot",
            "iterative-deepening best-reply search, any number of players",
            {"heuristic": heuristic, "depth": depth},
        ),
        "mcts": BotEntry(
            f"{module}:make_mcts_bot",
            "UCT Monte Carlo tree search with random playouts or a heuristic",
            {
                "iterations": Int(
                    1, 10_000_000, optional=True, default=1000, help="None: until the clock stops"
                ),
                "rollout": Choice(
                    ("random", *names), default="random", help="random playouts, or a heuristic"
                ),
                "c": Number(0, 100, closed=True, default=math.sqrt(2), help="the exploration constant"),
                "scale": Number(
                    0, 1e9, default=1.0, help="a heuristic's value is squashed by tanh(value / scale)"
                ),
            },
        ),
    }
