"""Series of Pentocity games for one player (the arena's single-player mode) and the 2016 reference table.

A :class:`GameTask` names everything a game needs as plain values (player spec, sequencer, seeds), so
tasks travel to worker processes; :func:`play_tasks` runs them in order, or on a process pool.

>>> task = GameTask("diagonal", "g6", 869, 869)
>>> run_task(task).score > 1000
True
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, Final

from gridarena.core.registry import make_bot
from gridarena.core.types import Game
from gridarena.games.pentocity.rules import Pentocity
from gridarena.games.pentocity.simulator import GameRecord, play_game

#: The seeds of the 2016 tournament (``pentos/SCRIPTS/run_tournament.py``).
SEEDS_2016: Final = (869, 84, 400, 260, 800, 431, 911, 182, 264, 146)


@dataclass(frozen=True, slots=True)
class Reference:
    """One row of the 2016 table: the best player's mean, its group and the mean over the nine players."""

    best: float
    group: str
    players_mean: float


#: Spec section 7: means over the valid runs, in the order of the results file.
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


def make_pentocity_bot(game: Game[Any], spec: str, seed: int | None = None) -> Any:
    """A Pentocity player from a spec such as ``packer(shortlist=4)``; UnknownNameError for a bad name."""
    return make_bot(game, spec, seed=seed)


@dataclass(frozen=True, slots=True)
class GameTask:
    """One game: the player spec, the sequencer, its seed, the player's seed and the CPU budget."""

    player: str
    sequencer: str
    seed: int
    bot_seed: int
    cpu_time: float | None = 300.0


@dataclass(frozen=True, slots=True)
class TaskResult:
    """A finished task: its record and the wall-clock seconds it took."""

    task: GameTask
    record: GameRecord
    seconds: float

    @property
    def score(self) -> int:
        """The game's score."""
        return self.record.score

    @property
    def failed(self) -> str | None:
        """Why the game does not count (its termination), or None for a normal game."""
        return None if self.record.termination == "normal" else self.record.termination


def run_task(task: GameTask) -> TaskResult:
    """Play one task's game (in this process)."""
    game = Pentocity(sequencer=task.sequencer, cpu_time=task.cpu_time)
    bot = make_pentocity_bot(game, task.player, task.bot_seed)
    start = time.perf_counter()
    record = play_game(game, bot, seed=task.seed, bot_seed=task.bot_seed)
    return TaskResult(task, record, time.perf_counter() - start)


def play_tasks(tasks: Sequence[GameTask], workers: int = 1) -> Iterator[TaskResult]:
    """Results of ``tasks`` in their order; ``workers`` > 1 plays them on a pool of that many processes
    (one game per core keeps each game's time what it would be alone)."""
    if workers <= 1 or len(tasks) <= 1:
        yield from (run_task(t) for t in tasks)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(run_task, tasks)
