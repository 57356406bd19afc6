"""The interval arithmetic every figure shares: the Wilson interval."""

from __future__ import annotations

import math

import pytest

from gridarena.arena.intervals import wilson_interval


def test_wilson_interval_matches_definition() -> None:
    low, high = wilson_interval(0.3, 20)
    z = 1.959964
    centre = (0.3 + z * z / 40) / (1 + z * z / 20)
    half = z * math.sqrt(0.3 * 0.7 / 20 + z * z / 1600) / (1 + z * z / 20)
    assert (low, high) == pytest.approx((centre - half, centre + half), rel=1e-6)
