"""Seed derivation: fixed check values, independence from process and order."""

from __future__ import annotations

import hashlib
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gridarena.arena.seeds import (
    SeedError,
    block_seed,
    bot_seed,
    derive_seed,
    parse_seed_list,
    run_seed,
    to_java_long,
)


def test_spec_check_values() -> None:
    assert block_seed(7, 0) == 15188375588101485782
    assert block_seed(7, 1) == 168596098996137525


def test_labels_follow_the_spec() -> None:
    def sha(label: str) -> int:
        return int.from_bytes(hashlib.sha256(label.encode()).digest()[:8], "big")

    assert bot_seed(7, 3, "alphabeta(depth=5)") == sha("gridarena-bot:7:3:alphabeta(depth=5)")
    assert run_seed(42, 9) == sha("gridarena-run:42:9")
    assert block_seed(-1, 2) == sha("gridarena-block:-1:2")


def test_seeds_are_the_same_in_a_fresh_process() -> None:
    # hash() is salted per process; the derivation must not depend on anything like it.
    code = "from gridarena.arena.seeds import bot_seed; print(bot_seed(7, 0, 'random'))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert int(out) == bot_seed(7, 0, "random")


def test_bot_seed_depends_on_name_and_round_not_on_order_of_calls() -> None:
    first = [bot_seed(7, r, name) for r in range(3) for name in ("a", "b")]
    second = [bot_seed(7, r, name) for name in ("b", "a") for r in reversed(range(3))]
    assert sorted(first) == sorted(second)
    assert len(set(first)) == 6


def test_java_long() -> None:
    assert to_java_long(block_seed(7, 0)) == -3258368485608065834
    assert to_java_long(2**63 - 1) == 2**63 - 1
    assert to_java_long(2**63) == -(2**63)
    with pytest.raises(SeedError):
        to_java_long(2**64)
    with pytest.raises(SeedError):
        to_java_long(-1)


@given(st.integers(0, 2**64 - 1))
def test_java_long_keeps_the_bits(seed: int) -> None:
    value = to_java_long(seed)
    assert -(2**63) <= value < 2**63
    assert value % 2**64 == seed


@given(st.integers(-(2**40), 2**40), st.integers(0, 10**6))
def test_derived_seeds_are_unsigned_64_bit(master: int, index: int) -> None:
    for seed in (block_seed(master, index), run_seed(master, index), derive_seed(f"x{master}:{index}")):
        assert 0 <= seed < 2**64


def test_parse_seed_list() -> None:
    assert parse_seed_list("869,84,400") == (869, 84, 400)
    with pytest.raises(SeedError, match="item 2"):
        parse_seed_list("869,x,400")


@given(st.lists(st.integers(-(2**63), 2**64), min_size=1, max_size=20))
def test_seed_list_round_trip(seeds: list[int]) -> None:
    assert parse_seed_list(",".join(str(s) for s in seeds)) == tuple(seeds)
