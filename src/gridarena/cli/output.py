"""Output helpers shared by the subcommands: JSON on stdout, tables, messages and warnings on stderr."""

from __future__ import annotations

import json
import sys
from typing import Any

from rich.console import Console

err = Console(stderr=True, highlight=False, soft_wrap=True)


def print_json(value: Any) -> None:
    """One JSON document on stdout."""
    print(json.dumps(value, indent=2))


def warn(message: str) -> None:
    """A warning from the arena as one ``warning: ...`` line on stderr."""
    print(f"warning: {message}", file=sys.stderr)


def progress_enabled(quiet: bool) -> bool:
    """Progress bars only on an interactive stderr and without ``--quiet``."""
    return not quiet and sys.stderr.isatty()
