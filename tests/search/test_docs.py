"""docs/search.md shows every algorithm (tests/test_docs.py runs its examples)."""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "search.md"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.M | re.S)


def python_blocks(text: str) -> list[str]:
    """The bodies of the fenced ``python`` blocks of a Markdown text.

    >>> python_blocks("x\\n```python\\na = 1\\n```\\n```text\\nno\\n```\\n")
    ['a = 1\\n']
    """
    return BLOCK.findall(text)


def test_the_page_has_an_example_per_algorithm() -> None:
    code = "".join(python_blocks(DOC.read_text()))
    for name in ("bfs(", "astar(", "idastar(", "minimax(", "alphabeta(", "alphabeta_deepening(", "paranoid(",
                 "maxn(", "brs(", "MCTS(", "TranspositionTable(", "make_alphabeta_bot("):  # fmt: skip
        assert name in code, f"docs/search.md has no example calling {name}"
