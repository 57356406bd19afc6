"""ReversiXT's entry in the catalogue: the game, its bots with their declared parameters, its pages."""

from __future__ import annotations

from typing import Final

from gridarena.core.catalogue import BotEntry, GameEntry
from gridarena.core.params import Choice, Int, Number, Param, Pattern

_BOTS: Final = "gridarena.games.reversixt.bots"

# A margin is a range, never negative: no setting can make a move run past its deadline.
_MARGIN: Final = Number(
    0.005, 5.0, closed=True, default=0.03, help="seconds kept back from the move's deadline"
)
_TERM: Final = r"[a-z_]{1,20}=-?\d{1,6}(?:/-?\d{1,6})?"

_SEARCH: Final[dict[str, Param]] = {
    "margin": _MARGIN,
    "override_plies": Int(
        0, 64, optional=True, default=None, help="below this ply, override moves only without another"
    ),
    "swap": Int(
        0, 1000, optional=True, default=None, help="the swap term's weight in quarters (two players)"
    ),
    "lmr": Int(0, 256, optional=True, default=None, help="late move reductions by one ply from this move on"),
    "lmr2": Int(0, 256, optional=True, default=None, help="by two plies from this move on"),
    "pacing": Int(
        0, 1, optional=True, default=None, help="1: time management on an account; 0: each deadline whole"
    ),
    "weights": Pattern(
        f"{_TERM}(?:,{_TERM})*",
        "term=early/late,... (stable, frontier, potential, corner_next, bonus, mobility, override)",
        default=None,
        help="the map-reading evaluation's weights to change",
    ),
    "swap_whole": Int(0, 1000, optional=True, default=None, help="the swap term over the whole game"),
    "ref": Choice(
        ("neighbours", "leader", "field"),
        default=None,
        help="whom the value is measured against: the rank neighbours (default; best with 4+ players:"
        " the leader), the leader, the others' mean",
    ),
    "static": Int(
        0, 1, optional=True, default=None, help="1: paranoid and max^n leaves without the mover's mobility"
    ),
    "apart": Int(
        0,
        64,
        optional=True,
        default=None,
        help="phase 1: players with no stone within this many steps of the searcher's group are passed over (0: never)",
    ),
    "survive": Int(
        0,
        1,
        optional=True,
        default=None,
        help="1: with 3+ players, a line that leaves the searcher no stone is valued as a game he ends last",
    ),
    "evaluation": Choice(
        ("map", "strong"),
        default=None,
        help="the map-reading evaluation (best's) or the full one (paranoid's, brs', best_v1's)",
    ),
}
# ``best`` and ``best_v1`` choose their search by the map; ``search`` overrides the choice.
_CHOSEN: Final[dict[str, Param]] = {
    **_SEARCH,
    "search": Choice(
        ("paranoid", "brs", "maxn"),
        default=None,
        help="the search instead of the map's choice (paranoid with 2 players, brs with more)",
    ),
}

BOTS: Final[dict[str, BotEntry]] = {
    "trivial": BotEntry(
        f"{_BOTS}:make_trivial_bot",
        "the course's ai_trivial: own stones minus the strongest opponent's, alpha-beta",
        {"margin": _MARGIN},
    ),
    "paranoid": BotEntry(
        f"{_BOTS}:make_paranoid_bot", "paranoid alpha-beta over the full evaluation", _SEARCH
    ),
    "brs": BotEntry(f"{_BOTS}:make_brs_bot", "best-reply search over the full evaluation", _SEARCH),
    "best": BotEntry(
        f"{_BOTS}:make_best_bot",
        "our strongest: paranoid or best-reply by the map, the map-reading evaluation, time management",
        _CHOSEN,
    ),
    "best_v1": BotEntry(f"{_BOTS}:make_best_v1_bot", "the previous best, kept to measure against", _CHOSEN),
    "mcts": BotEntry(
        f"{_BOTS}:make_mcts_bot", "UCT with random playouts on the fast kernels", {"margin": _MARGIN}
    ),
}

ENTRY: Final = GameEntry(
    name="reversixt",
    title="ReversiXT (RWTH/OTH, 2-8 players)",
    factory="gridarena.games.reversixt.rules:ReversiXT",
    bots=BOTS,
    renderer="gridarena.games.reversixt.render:render_svg",
    words="gridarena.games.reversixt.render:WORDS",
    analyser="gridarena.games.reversixt.analysis:make_analyser",
)
