"""The sliding puzzle's entry in the catalogue: the game, its solver with its declared parameters, its pages."""

from __future__ import annotations

from typing import Final

from gridarena.core.catalogue import BotEntry, GameEntry, PlayEntry
from gridarena.core.params import Choice, Flag, Path, Pattern, Reach

_SET: Final = r"\d{1,2}(?:-\d{1,2})*[ab]?r?"

BOTS: Final[dict[str, BotEntry]] = {
    "solver": BotEntry(
        "gridarena.games.slidingpuzzle.bots:make_solver_bot",
        "plays an optimal solution (IDA* by default), planned on its first move",
        {
            "algorithm": Choice(("idastar", "astar", "bfs"), default="idastar", help="the search"),
            "partition": Pattern(
                f"{_SET}(?:/{_SET})*",
                "sizes of disjoint tile sets, e.g. 6-6-3 or 5-5-5ar/6-6-3r",
                default=None,
                reaches=frozenset({Reach.FILE}),
                help="pattern databases, read from (or built in) the cache folder",
            ),
            "pdb_dir": Path("a folder of pattern databases", default=None),
            "anytime": Flag(default=False, help="weighted answers first, under a clock (IDA* only)"),
        },
    ),
}

ENTRY: Final = GameEntry(
    name="slidingpuzzle",
    title="Sliding puzzle (N-puzzle and the NTU homework)",
    factory="gridarena.games.slidingpuzzle.rules:SlidingPuzzle",
    bots=BOTS,
    renderer="gridarena.games.slidingpuzzle.render:render_svg",
    words="gridarena.games.slidingpuzzle.render:WORDS",
    analyser="gridarena.games.slidingpuzzle.analysis:make_analyser",
    play=PlayEntry(
        "slidingpuzzle(rows=3,cols=3,scramble=30)",
        None,
        "solver",
        'click a tile next to a blank; "hint" asks the optimal solver for the next slide',
    ),
)
