"""Tournament schedules: encounters, blocks, seatings and block seeds.

A block is the unit of scheduling, storage and statistics: a **pair** (two seats, played twice with
the seats swapped on the same seed), a **rotation set** (k seats, k games, entrant i in seat
(i + j) mod k in game j) or a **run** (one single-player game on one seed). A schedule is a pure
function of the configuration and the master seed, so a resumed tournament plays exactly the blocks
that are missing. Rounds are interleaved across encounters (round 0 of every encounter, then round
1, ...), so a tournament stopped early still has a balanced sample.

>>> blocks = schedule(3, seats=2, games=2, master=7)
>>> [(b.number, b.encounter, b.round, b.seatings) for b in blocks]
[(0, (0, 1), 0, ((0, 1), (1, 0))), (1, (0, 2), 0, ((0, 2), (2, 0))), (2, (1, 2), 0, ((1, 2), (2, 1)))]
>>> blocks[0].seed
15188375588101485782
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal, TypeAlias

from gridarena.arena.seeds import block_seed, run_seed
from gridarena.core.errors import GridArenaError
from gridarena.core.seeding import derive_seed

Format: TypeAlias = Literal["round-robin", "gauntlet"]
FORMATS: Final = ("round-robin", "gauntlet")
Encounter: TypeAlias = tuple[int, ...]
"""Entrant indices that meet, in the order of ``--players``."""
Seating: TypeAlias = tuple[int, ...]
"""The entrant index in each seat of one game."""


class ScheduleError(GridArenaError, ValueError):
    """A tournament configuration that gives no schedule; the message names the bad value."""


@dataclass(frozen=True, slots=True)
class Block:
    """A pair, rotation set or run: its games share ``seed``; ``seatings[g]`` seats game g."""

    number: int
    encounter: Encounter
    round: int
    seed: int
    seatings: tuple[Seating, ...]

    def key(self, names: Sequence[str]) -> str:
        """The encounter as text, ``A vs B`` (unique per tournament together with the round)."""
        return " vs ".join(names[i] for i in self.encounter)


def block_seatings(
    encounter: Encounter, *, swap: bool = True, all_orders: bool = False
) -> tuple[Seating, ...]:
    """The seatings of one block: a swapped pair, a cyclic rotation set, all orders, or a single run.

    >>> block_seatings((4, 7))
    ((4, 7), (7, 4))
    >>> block_seatings((0, 1, 2))
    ((0, 1, 2), (2, 0, 1), (1, 2, 0))
    """
    k = len(encounter)
    if k == 1 or not swap:
        return (encounter,)
    if all_orders:
        return tuple(itertools.permutations(encounter))
    # In game j entrant i sits in seat (i + j) mod k, so seat s holds entrant (s - j) mod k.
    return tuple(tuple(encounter[(s - j) % k] for s in range(k)) for j in range(k))


def _gauntlet(n: int, seats: int, candidates: int) -> list[Encounter]:
    if not 1 <= candidates < n:
        raise ScheduleError(f"--candidates must be between 1 and {n - 1} for {n} players, got {candidates}")
    panel = range(candidates, n)
    return [(c, *others) for c in range(candidates) for others in itertools.combinations(panel, seats - 1)]


def encounters(n: int, seats: int, fmt: Format = "round-robin", candidates: int = 1) -> list[Encounter]:
    """Every encounter of a round-robin (each k-subset) or a gauntlet (candidates against the panel).

    >>> encounters(4, 2, "gauntlet", candidates=1)
    [(0, 1), (0, 2), (0, 3)]
    """
    if fmt not in FORMATS:
        raise ScheduleError(f"--format {fmt!r}: expected one of {', '.join(FORMATS)}")
    if seats == 1:
        return [(i,) for i in range(n)]
    if n < seats:
        raise ScheduleError(f"a {seats}-seat game needs at least {seats} players, got {n}")
    if fmt == "gauntlet":
        return _gauntlet(n, seats, candidates)
    return list(itertools.combinations(range(n), seats))


def shuffled_groups(n: int, seats: int, master: int, round_: int, appearances: list[int]) -> list[Encounter]:
    """One round of seeded random groups of ``seats``; those who sat out least recently play first.

    ``appearances`` (games played so far per entrant) is updated, so counts differ by at most one.

    >>> counts = [0] * 5
    >>> for r in range(4):
    ...     _ = shuffled_groups(5, 2, 7, r, counts)
    >>> max(counts) - min(counts) <= 1, sum(counts)
    (True, 16)
    """
    order = list(range(n))
    random.Random(derive_seed("groups", master, round_)).shuffle(order)
    order.sort(key=lambda i: appearances[i])  # stable: the shuffle breaks ties
    playing = order[: (n // seats) * seats]
    for i in playing:
        appearances[i] += 1
    return [tuple(sorted(playing[g : g + seats])) for g in range(0, len(playing), seats)]


def schedule(
    n: int,
    *,
    seats: int,
    games: int,
    master: int,
    fmt: Format = "round-robin",
    candidates: int = 1,
    swap: bool = True,
    all_orders: bool = False,
    max_groups: int = 200,
    run_seeds: Sequence[int] | None = None,
) -> list[Block]:
    """All blocks of a tournament, numbered in play order (rounds interleaved across encounters).

    ``games`` per encounter is rounded up to whole blocks. ``run_seeds``, when given, are the rounds'
    seeds themselves and ``games`` is not read: one run each for a single player, one block (a pair,
    a rotation set) of every encounter each for more seats, so a game plays exactly the seeds asked
    for (CodinGame's seeds of Ice and Fire). Otherwise the seeds come from the master seed.
    """
    if n < 1 or seats < 1:
        raise ScheduleError(f"need at least one player and one seat, got {n} players, {seats} seats")
    if games < 1 and run_seeds is None:
        raise ScheduleError(f"--games must be at least 1, got {games}")
    if run_seeds is not None and not run_seeds:
        raise ScheduleError("--seeds names no seed")
    fixed = encounters(n, seats, fmt, candidates)
    if run_seeds is not None:
        seeds = list(run_seeds)
    elif seats == 1:
        seeds = [run_seed(master, r) for r in range(games)]
    else:
        per_block = len(block_seatings(tuple(range(seats)), swap=swap, all_orders=all_orders))
        seeds = [block_seed(master, r) for r in range(math.ceil(games / per_block))]
    rounds = len(seeds)
    shuffle = seats > 2 and fmt == "round-robin" and len(fixed) > max_groups
    appearances = [0] * n
    blocks: list[Block] = []
    for r in range(rounds):
        groups = shuffled_groups(n, seats, master, r, appearances) if shuffle else fixed
        for encounter in groups:
            seatings = block_seatings(encounter, swap=swap, all_orders=all_orders)
            blocks.append(Block(len(blocks), encounter, r, seeds[r], seatings))
    return blocks
