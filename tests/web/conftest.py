"""Fixtures of the web tests: a results database with a tournament of each game, `gridarena serve`
running on it (one server per module), and Debian's chromium driven by Playwright with a fresh profile."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from webtools import CHROMIUM, DOCS_IMG, FLAGS, TOURNAMENTS, Served, serve, stop

from gridarena.arena.backends import InlineBackend
from gridarena.arena.store import Store
from gridarena.arena.tournament import run_tournament


@pytest.fixture(scope="session")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database holding one tournament of each game (a forfeit among the Isolation games)."""
    folder = tmp_path_factory.mktemp("web")
    db = folder / "results.sqlite"
    with Store(db) as store:
        for config in TOURNAMENTS:
            run_tournament(config, store, InlineBackend(), warn=lambda _: None)
    return db


@pytest.fixture(scope="module")
def server(results: Path) -> Iterator[Served]:
    """`gridarena serve` on the test database, one per test module."""
    served = serve(results, results.with_name("results.replays"))
    yield served
    stop(served)


@pytest.fixture(scope="module")
def browser_context(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Debian's chromium with a fresh profile, headless, nothing in the background."""
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} is missing: `make chromium` installs Debian's chromium package"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")),
            executable_path=str(CHROMIUM),
            headless=True,
            args=FLAGS,
            viewport={"width": 1200, "height": 820},
        )
        context.set_default_timeout(20_000)
        yield context
        context.close()


@pytest.fixture
def page(browser_context: Any) -> Iterator[Any]:
    """A fresh tab; a script error on the page fails the test."""
    tab = browser_context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    yield tab
    tab.close()
    assert not errors, f"script errors on the page: {errors}"


@pytest.fixture
def screenshots(update_golden: bool, tmp_path: Path) -> Path:
    """Where screenshots go: docs/img/ with ``pytest --update-golden``, else a temporary folder."""
    if update_golden:
        DOCS_IMG.mkdir(parents=True, exist_ok=True)
        return DOCS_IMG
    return tmp_path
