"""Shared fixtures: the one way tests reach ../shared/data."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import settings

# Property tests check properties, not speed (speed is the benchmarks'): hypothesis's default deadline
# of 200 ms an example failed the registry's round trip on a machine loaded by two benchmarks.
settings.register_profile("gridarena", deadline=None)
settings.load_profile("gridarena")

SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The reference data beside the project (``../shared/data``), or a skip with the reason."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"reference data not found at {SHARED_DATA} (it lives beside the project, not in it)")
    return SHARED_DATA


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden", action="store_true", help="rewrite golden files instead of diffing them"
    )


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    """True when the run was asked to rewrite golden files (``pytest --update-golden``)."""
    return bool(request.config.getoption("--update-golden"))
