"""AIND's ``tournament.py``, game side: who plays (as bot specs) and the table it prints.

The test agents (AB_Improved and one AB agent per custom score) meet each of the seven CPU agents
in ``2 * NUM_MATCHES`` games. The arena plays them (``gridarena isolation aind-tournament``); this
module names the entrants and formats AIND's table from plain counts, so it knows no harness.

>>> cpu_agents()[-1], candidates(extra=["best"])[-1]
(Entrant(spec="ab_improved(name='AB_Improved_opp')", label='AB_Improved'), Entrant(spec='best', label='best'))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Final, NamedTuple

from gridarena.core.specs import format_spec, parse_spec
from gridarena.games.isolation.aind.loader import AgentLoadError, agent_file

NUM_MATCHES: Final = 5

#: The CPU agents in AIND's order: registry bot, AIND's name, name in the arena (AB_Improved also plays
#: on the other side, and entrant names are unique), and with an agent file, its class and score.
_CPU: Final = (
    ("random", "Random", "Random", "RandomPlayer", None),
    ("mm_open", "MM_Open", "MM_Open", "MinimaxPlayer", "open_move_score"),
    ("mm_center", "MM_Center", "MM_Center", "MinimaxPlayer", "center_score"),
    ("mm_improved", "MM_Improved", "MM_Improved", "MinimaxPlayer", "improved_score"),
    ("ab_open", "AB_Open", "AB_Open", "AlphaBetaPlayer", "open_move_score"),
    ("ab_center", "AB_Center", "AB_Center", "AlphaBetaPlayer", "center_score"),
    ("ab_improved", "AB_Improved", "AB_Improved_opp", "AlphaBetaPlayer", "improved_score"),
)
_CUSTOM_BOTS: Final = ("ab_custom", "ab_custom_2", "ab_custom_3", "ab_custom_4")


class Entrant(NamedTuple):
    """A tournament entrant: its bot spec (with its arena name as ``name=``, if not the spec) and AIND's label."""

    spec: str
    label: str


def _custom_label(index: int) -> str:
    return "AB_Custom" if index == 0 else f"AB_Custom_{index + 1}"


def _file_spec(file: str, player: str, score: str | None, name: str) -> str:
    params = {"file": file, "player": player, "name": name}
    return format_spec("aind", params if score is None else {**params, "score": score})


#: The classes tournament.py takes from the agent file; gridarena's (:mod:`..agents`) stand in for missing ones.
PLAYERS: Final = ("MinimaxPlayer", "AlphaBetaPlayer")


def _checked(file: str | Path) -> str:
    path = str(Path(file).resolve())
    if not hasattr(agent_file(path).module, "custom_score"):
        raise AgentLoadError(f"{file}: no custom_score (an AIND game_agent.py defines it)")
    return path


def borrowed_players(file: str | Path) -> list[str]:
    """The players of :data:`PLAYERS` that the agent file lacks: gridarena's play in their place, with the
    file's scores (a student's file with only ``custom_score`` is enough).

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "game_agent.py")
    >>> _ = open(path, "w").write("def custom_score(game, player):\\n    return 0.0\\n")
    >>> borrowed_players(path)
    ['MinimaxPlayer', 'AlphaBetaPlayer']
    """
    module = agent_file(_checked(file)).module
    return [name for name in PLAYERS if not hasattr(module, name)]


def cpu_agents(file: str | Path | None = None) -> list[Entrant]:
    """The seven CPU agents in AIND's order: gridarena's, or an agent file's classes with its samples' scores."""
    if file is None:
        return [Entrant(format_spec(bot, {"name": name}), label) for bot, label, name, _, _ in _CPU]
    path = _checked(file)
    return [Entrant(_file_spec(path, cls, score, name), label) for _, label, name, cls, score in _CPU]


def candidates(file: str | Path | None = None, extra: Sequence[str] = ()) -> list[Entrant]:
    """AB_Improved, one AB agent per custom score (the report's four, or the file's), then ``extra`` bot specs."""
    if file is None:
        agents = [Entrant(format_spec("ab_improved", {"name": "AB_Improved"}), "AB_Improved")]
        agents += [
            Entrant(format_spec(b, {"name": _custom_label(i)}), _custom_label(i))
            for i, b in enumerate(_CUSTOM_BOTS)
        ]
    else:
        path = _checked(file)
        scores = ["improved_score", *agent_file(path).custom_scores()]
        labels = ["AB_Improved"] + [_custom_label(i) for i in range(len(scores) - 1)]
        agents = [
            Entrant(_file_spec(path, "AlphaBetaPlayer", s, label), label)
            for s, label in zip(scores, labels, strict=True)
        ]
    return agents + [Entrant(spec, str(parse_spec(spec)[1].get("name", spec))) for spec in extra]


def table_header(tests: Sequence[str]) -> list[str]:
    """AIND's two header lines (generalised from four test agents to any number)."""
    first = "\n{:^9}{:^13}".format("Match #", "Opponent") + "".join(f"{name:^13}" for name in tests)
    second = "{:^9}{:^13}".format("", "") + " {:^5}| {:^5}".format("Won", "Lost") * len(tests)
    return [first, second]


def table_row(index: int, opponent: str, tests: Sequence[str], won: Mapping[str, int], games: int) -> str:
    """One opponent's line: ``Won | Lost`` per test agent out of ``games``."""
    cells = "".join(f" {won[name]:^5}| {games - won[name]:^5}" for name in tests)
    return f"{index!s:^9}{opponent:^13}" + cells


def table_footer(
    rates: Sequence[float],
    intervals: Sequence[tuple[float, float]],
    timeouts: int,
    forfeits: int,
    timeout_losses: Mapping[str, int],
) -> list[str]:
    """The rule, the win rates, their 95% intervals (added) and AIND's timeout and forfeit notes."""
    width = 9 + 13 * (len(rates) + 1)
    lines = [
        "-" * width,
        "{:^9}{:^13}".format("", "Win Rate:") + "".join(f"{f'{100 * r:.1f}%':^13}" for r in rates),
        "{:^9}{:^13}".format("", "95% CI:")
        + "".join(f"{f'{100 * lo:.0f}-{100 * hi:.0f}%':^13}" for lo, hi in intervals)
        + "\n",
    ]
    if timeouts:
        lines.append(
            f"\nThere were {timeouts} timeouts during the tournament -- make sure your agent handles "
            "search timeout correctly, and consider increasing the timeout margin for your agent.\n"
        )
        per_agent = ", ".join(f"{name} {n}" for name, n in sorted(timeout_losses.items()))
        lines.append(f"Timeout losses per agent: {per_agent}\n")
    if forfeits:
        lines.append(
            f"\nYour ID search forfeited {forfeits} games while there were still legal moves available to play.\n"
        )
    return lines
