"""The ``examples:`` block every command's ``--help`` ends with (tests/test_cli_help.py checks it)."""

from __future__ import annotations

import argparse
from typing import Any


def examples(*lines: str) -> dict[str, Any]:
    """Keyword arguments for ``add_parser``: an epilog of example command lines, kept as written.

    >>> examples("gridarena games")["epilog"]
    'examples:\\n  gridarena games'
    """
    return {
        "epilog": "examples:\n" + "\n".join(f"  {line}" for line in lines),
        "formatter_class": argparse.RawDescriptionHelpFormatter,
    }
