"""Seed derivation for tournaments: block, bot and run seeds from one master seed.

Every seed is the first 8 bytes of a SHA-256 digest of a labelled string, read big-endian. Python's
``hash()`` is salted per process and a shared ``random.Random`` stream depends on the order of draws, so
neither could give the same seed to the same round in two runs, on two machines, or after a resume.
"""

from __future__ import annotations

import secrets
from typing import Final, TypeAlias

from gridarena.core.errors import GridArenaError
from gridarena.core.seeding import seed_from_label as derive_seed

Seed: TypeAlias = int
"""An unsigned 64-bit seed, 0 <= seed < 2**64."""

SEED_BITS: Final = 64


class SeedError(GridArenaError, ValueError):
    """A seed or seed list that cannot be used; the message names the bad value."""


def block_seed(master: int, round_: int) -> Seed:
    """The seed of round ``round_`` of every encounter: all opponents meet the same maps and openings.

    >>> block_seed(7, 0), block_seed(7, 1)
    (15188375588101485782, 168596098996137525)
    """
    return derive_seed(f"gridarena-block:{master}:{round_}")


def bot_seed(master: int, round_: int, entrant: str) -> Seed:
    """The seed of one entrant's generator in round ``round_``; it depends on the name, never the seat.

    A stochastic bot therefore plays as the same bot in both games of a pair.

    >>> bot_seed(7, 0, "random") == bot_seed(7, 0, "random") != bot_seed(7, 0, "greedy")
    True
    """
    return derive_seed(f"gridarena-bot:{master}:{round_}:{entrant}")


def run_seed(master: int, index: int) -> Seed:
    """The seed of single-player run ``index`` of a series.

    >>> run_seed(7, 0) == derive_seed("gridarena-run:7:0")
    True
    """
    return derive_seed(f"gridarena-run:{master}:{index}")


def to_java_long(seed: Seed) -> int:
    """The signed 64-bit value with the same bits, for originals seeded with a Java ``long``.

    >>> to_java_long(15188375588101485782)
    -3258368485608065834
    >>> to_java_long(5)
    5
    """
    if not 0 <= seed < 1 << SEED_BITS:
        raise SeedError(f"seed {seed} is not an unsigned 64-bit value")
    return seed - (1 << SEED_BITS) if seed >= 1 << (SEED_BITS - 1) else seed


def parse_seed_list(text: str) -> tuple[int, ...]:
    """The seeds of an explicit ``--seeds`` list such as ``869,84,400``.

    >>> parse_seed_list("869, 84,400")
    (869, 84, 400)
    """
    seeds: list[int] = []
    for position, item in enumerate(text.split(","), start=1):
        try:
            seeds.append(int(item.strip()))
        except ValueError:
            raise SeedError(f"--seeds item {position}: {item.strip()!r} is not an integer") from None
    return tuple(seeds)


def new_master_seed() -> int:
    """A fresh master seed for a tournament started without ``--seed`` (printed and stored by the caller).

    This is the one place that asks the operating system for entropy: the seed is recorded, so the
    tournament can still be repeated. Tests never call it.
    """
    return secrets.randbelow(1 << 32)
