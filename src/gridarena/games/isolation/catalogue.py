"""Isolation's entry in the catalogue: the game, its bots with their declared parameters, its pages."""

from __future__ import annotations

from typing import Final

from gridarena.core.catalogue import BotEntry, GameEntry, PlayEntry
from gridarena.core.params import Int, Number, Path, Reach, Text

_BOTS: Final = "gridarena.games.isolation.bots"

#: AIND's time threshold: a player stops searching this many ms before the move's deadline.
_TIMEOUT: Final = Number(
    1, 1000, closed=True, default=10.0, help="ms kept before the deadline (AIND's TIMER_THRESHOLD)"
)
_DEPTH: Final = Int(1, 12, default=3, help="the fixed depth searched")


def _aind_preset(name: str, title: str, minimax: bool, score: str) -> BotEntry:
    kind = "fixed-depth minimax" if minimax else "iterative-deepening alpha-beta"
    params = {"search_depth": _DEPTH, "timeout": _TIMEOUT} if minimax else {"timeout": _TIMEOUT}
    return BotEntry(f"{_BOTS}:make_{name}", f"AIND's {title}: {kind} with {score}", params, title=title)


_PRESETS: Final = {
    "mm_open": ("MM_Open", True, "open_move_score"),
    "mm_center": ("MM_Center", True, "center_score"),
    "mm_improved": ("MM_Improved", True, "improved_score"),
    "ab_open": ("AB_Open", False, "open_move_score"),
    "ab_center": ("AB_Center", False, "center_score"),
    "ab_improved": ("AB_Improved", False, "improved_score"),
    "ab_custom": ("AB_Custom", False, "custom_score"),
    "ab_custom_2": ("AB_Custom_2", False, "custom_score_2"),
    "ab_custom_3": ("AB_Custom_3", False, "custom_score_3"),
    "ab_custom_4": ("AB_Custom_4", False, "custom_score_4"),
}

BOTS: Final[dict[str, BotEntry]] = {
    "greedy": BotEntry(f"{_BOTS}:make_greedy_bot", "the move that leaves the opponent fewest replies"),
    **{name: _aind_preset(name, *preset) for name, preset in _PRESETS.items()},
    "best": BotEntry(
        f"{_BOTS}:make_best",
        "our strongest: fast alpha-beta with a table, ordering, an exact endgame and the 7x7 book",
        {
            "margin": Number(1, 1000, closed=True, default=25.0, help="ms kept before the move's deadline"),
            "nodes": Int(
                1, 10**10, optional=True, default=None, help="a node budget a move (the clock still stops it)"
            ),
        },
    ),
    "best_nodes": BotEntry(
        f"{_BOTS}:make_best_nodes", "best with a fixed node budget a move: no machine load changes its play"
    ),
    "ab_improved_cpu": BotEntry(
        f"{_BOTS}:make_ab_improved_cpu",
        "AB_Improved on its own CPU clock: no machine load changes its play",
        {"limit": Number(1, 10_000, closed=True, default=150.0, help="CPU ms a move")},
        title="AB_Improved_CPU",
    ),
    "ab_improved_depth": BotEntry(
        f"{_BOTS}:make_ab_improved_depth", "AB_Improved's load-independent proxy: fixed depths by ply"
    ),
    "aind_random": BotEntry(
        f"{_BOTS}:make_random", "AIND's RandomPlayer: uniform over the legal moves", title="Random"
    ),
    "aind": BotEntry(
        f"{_BOTS}:make_aind",
        "any AIND player class with any score function, from your game_agent.py or AIND's samples",
        {
            "file": Path("an AIND agent file (game_agent.py)", default=None),
            "player": Text(100, default="AlphaBetaPlayer", help="the player class"),
            "score": Text(100, optional=True, default=None, help="the score function; default: the class's"),
            "search_depth": Int(1, 64, optional=True, default=None, help="the player's search_depth"),
            "timeout": Number(
                1, 1000, closed=True, optional=True, default=None, help="the player's TIMER_THRESHOLD"
            ),
        },
        # ``player`` and ``score`` are looked up in the file or AIND's modules: HumanPlayer reads the terminal.
        reaches=frozenset({Reach.FILE, Reach.TERMINAL}),
        shown_by=("score", "file"),
    ),
}

ENTRY: Final = GameEntry(
    name="isolation",
    title="Knight Isolation (Udacity AIND)",
    factory="gridarena.games.isolation.rules:Isolation",
    bots=BOTS,
    renderer="gridarena.games.isolation.render:render_svg",
    words="gridarena.games.isolation.render:WORDS",
    analyser="gridarena.games.isolation.analysis:make_analyser",
    evaluators=f"{_BOTS}:EVALUATORS",
    heuristics=(
        "default",
        "null",
        "open_move",
        "improved",
        "center",
        "linear",
        "taxicab",
        "intersection",
        "correlation",
    ),
    play=PlayEntry("isolation", "greedy", "alphabeta(depth=3)", "click a cell to enter it"),
)
