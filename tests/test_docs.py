"""Every example in docs/*.md runs: ```python blocks (one namespace per page, in order) and the
``$ gridarena ...`` lines of ```console blocks (through the CLI's ``main``, in a temporary folder)."""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

import pytest

from gridarena.cli.main import main

DOCS = Path(__file__).parents[1] / "docs"
BLOCK = re.compile(r"^```(\w+)\n(.*?)^```", re.M | re.S)
PAGES = sorted(DOCS.glob("*.md"))


def blocks(page: Path, language: str) -> list[str]:
    return [body for lang, body in BLOCK.findall(page.read_text()) if lang == language]


def test_the_required_pages_exist() -> None:
    assert {"architecture.md", "isolation.md"} <= {page.name for page in PAGES}


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_python_examples_run(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {"__name__": f"docs_{page.stem}"}
    for number, code in enumerate(blocks(page, "python"), 1):
        try:
            exec(compile(code, f"{page.name}[python block {number}]", "exec"), namespace)
        except Exception as exc:
            pytest.fail(f"{page.name}, python block {number}: {type(exc).__name__}: {exc}")


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_console_examples_run(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for block in blocks(page, "console"):
        for line in block.splitlines():
            if not line.startswith("$ gridarena "):
                continue
            argv = shlex.split(line.removeprefix("$ gridarena ").split(" #")[0])
            assert main(argv) == 0, f"{page.name}: {line}"
    assert os.getcwd() == str(tmp_path)
