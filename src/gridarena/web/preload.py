"""Imported once, by the fork server of the viewer's worker pool (:mod:`gridarena.web.workers`): it loads
the kernels of every bot the play page offers, so each worker forked afterwards starts warm and shares
that memory copy-on-write. It warms only where the pool asked for it (:data:`~gridarena.web.workers.WARM`
in the environment), so that importing it elsewhere, as pytest's doctest collection does, costs nothing."""

from __future__ import annotations

import os

from gridarena.web.workers import WARM, warm_all

if os.environ.get(WARM) == "1":
    warm_all()
