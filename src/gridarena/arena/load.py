"""The machine's load against its cores: what a timed result depends on.

Tournaments warn with :func:`overload` while they run (and flag the blocks played meanwhile); a single
timed game (``gridarena play``, ``gridarena iceandfire match``) when it ends. A module of its own, so
a command that plays one game does not import the statistics behind the tournaments.
"""

from __future__ import annotations

import os


def cores() -> int:
    """Usable cores of this process (its CPU affinity)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def overload() -> str | None:
    """Why timed results may suffer now: the 1-minute load above the usable cores (None: it is not)."""
    load = os.getloadavg()[0]
    if load <= cores():
        return None
    return f"1-minute load {load:.1f} exceeds {cores()} cores; timed results may suffer"
