"""The 2016 course tournament: its seeds and, per sequencer, the best player's mean and the players' mean.

The figures to beat (``pentos/RESULTS/results.csv`` of ``zhangxi1994/Pentocity``); ``gridarena pentocity
tournament`` prints ours beside them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

#: The seeds of the 2016 tournament (``pentos/SCRIPTS/run_tournament.py``).
SEEDS_2016: Final = (869, 84, 400, 260, 800, 431, 911, 182, 264, 146)


@dataclass(frozen=True, slots=True)
class Reference:
    """One row of the 2016 table: the best player's mean, its group and the mean over the nine players."""

    best: float
    group: str
    players_mean: float


#: The results sheet's means over the valid runs, in the order of the results file.
REFERENCE_2016: Final[dict[str, Reference]] = {
    "g1": Reference(1866, "g5", 1775),
    "g2": Reference(2140, "g1", 1998),
    "g3": Reference(2109, "g1", 1980),
    "g4": Reference(1944, "g1", 1859),
    "g5": Reference(2120, "g5", 1949),
    "g6": Reference(2900, "g6", 1988),
    "g8": Reference(2141, "g8", 2040),
    "g9": Reference(2532, "g6", 1983),
    "g10": Reference(2047, "g1", 1932),
    "random": Reference(2070, "g6", 2023),
    "tailheavy": Reference(2120, "g3", 2058),
    "starsandblocks": Reference(1807, "g5", 1655),
    "industrialization": Reference(2093, "g6", 2032),
    "misfits": Reference(1900, "g4", 1822),
}
