"""The layers of docs/architecture.md, checked on the source: an AST walk over every module of ``src/``.

Each layer may import only the layers below it, and the lower layers put nothing on a screen:

* ``core`` knows no game and no harness (it imports only ``core``);
* ``search`` knows no game (``core``, ``search``);
* a game (``games/<name>``) knows no harness and no other game (``core``, ``search``, itself);
* ``bots`` are generic (``core``, ``search``, ``bots``);
* the ``arena`` knows no game by name and no screen (``core``, ``search``, ``bots``, ``arena``);
* ``web`` knows no game by name (games and their renderers come from the registry) and no CLI;
* ``cli`` may import anything.

"Knows no screen" means no ``print``, no ``input``, no ``sys.stdout``/``sys.stderr`` and no ``rich``
in core, search, games, bots and the arena: they return values and strings, the CLI shows them.
Imports inside functions count like the others.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "gridarena"

#: Layer -> the layers it may import (a game may also import itself: see ``allowed``).
ALLOWED: dict[str, set[str]] = {
    "core": {"core"},
    "search": {"core", "search"},
    "games": {"core", "search"},
    "bots": {"core", "search", "bots"},
    "arena": {"core", "search", "bots", "arena", "top"},  # top: ``__version__`` for the records
    "web": {"core", "search", "bots", "arena", "web", "top"},
}

#: Layers that put nothing on a screen.
QUIET = {"core", "search", "games", "bots", "arena", "web"}

#: Modules of a quiet layer whose purpose is the terminal, with the reason.
SCREEN_ALLOWED = {
    "gridarena.bots.human": "a person at the terminal: showing the board and reading a move is the bot",
    "gridarena.games.isolation.aind.samples": "AIND's sample HumanPlayer asks at the terminal (sample_players.py)",
}


def module_name(path: Path) -> str:
    """``src/gridarena/games/isolation/rules.py`` -> ``gridarena.games.isolation.rules``."""
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer(module: str) -> str:
    """The layer of a module: ``core``, ``search``, ``games``, ``bots``, ``arena``, ``cli``, ``top``..."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "top"


def game_of(module: str) -> str | None:
    """The game package of a module under ``games/`` (``isolation``), else None."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[1] == "games" else None


def imports(module: str, tree: ast.AST, is_package: bool) -> Iterator[tuple[int, str]]:
    """(line, imported gridarena module) for every import of the module, relative ones resolved."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "gridarena":
                    yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")
                base = base if is_package else base[:-1]
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            if target.split(".")[0] == "gridarena":
                yield node.lineno, target


def allowed(importer: str, imported: str) -> bool:
    """Whether the layer rules let ``importer`` import ``imported``."""
    source, target = layer(importer), layer(imported)
    if source not in ALLOWED:
        return True
    if target == "games":
        return source == "games" and game_of(importer) == game_of(imported) and game_of(imported) is not None
    return target in ALLOWED[source]


def screen_uses(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, what) for every print, input, sys.stdout/stderr and rich import in a module, by line."""
    return sorted(_screen_uses(tree))


def _screen_uses(tree: ast.AST) -> Iterator[tuple[int, str]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in ("print", "input"):  # a call, or handed on as a default
            yield node.lineno, node.id
        elif (
            isinstance(node, ast.Attribute)
            and node.attr in ("stdout", "stderr", "stdin")
            and isinstance(node.value, ast.Name)
            and node.value.id == "sys"
        ):
            yield node.lineno, f"sys.{node.attr}"
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            for name in names:
                if name.split(".")[0] == "rich":
                    yield node.lineno, f"import {name}"


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_the_source_is_found() -> None:
    assert len(modules()) > 50 and (PACKAGE / "core" / "play.py").is_file()


@pytest.mark.parametrize("path", modules(), ids=lambda p: module_name(p))
def test_imports_follow_the_layers(path: Path) -> None:
    module = module_name(path)
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    broken = [
        f"{path.relative_to(SRC)}:{line}: {layer(module)} must not import {target} ({layer(target)})"
        for line, target in imports(module, tree, path.name == "__init__.py")
        if not allowed(module, target)
    ]
    assert not broken, "\n".join(broken)


@pytest.mark.parametrize(
    "path", [p for p in modules() if layer(module_name(p)) in QUIET], ids=lambda p: module_name(p)
)
def test_lower_layers_put_nothing_on_a_screen(path: Path) -> None:
    module = module_name(path)
    if module in SCREEN_ALLOWED:
        return
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = [f"{path.relative_to(SRC)}:{line}: {what}" for line, what in screen_uses(tree)]
    assert not found, f"{layer(module)} knows no screen; return the text instead:\n" + "\n".join(found)


@pytest.mark.parametrize(
    ("importer", "imported", "ok"),
    [
        ("gridarena.core.play", "gridarena.bots.base", False),
        ("gridarena.core.play", "gridarena.core.bot", True),
        ("gridarena.search.bfs", "gridarena.games.isolation.rules", False),
        ("gridarena.games.isolation.agents", "gridarena.games.isolation.rules", True),
        ("gridarena.games.isolation.agents", "gridarena.games.pentocity.rules", False),
        ("gridarena.games.isolation.tournament", "gridarena.arena.stats", False),
        ("gridarena.arena.runner", "gridarena.games.isolation", False),
        ("gridarena.arena.runner", "gridarena.bots.external", True),
        ("gridarena.cli.isolation", "gridarena.arena.tournament", True),
    ],
)
def test_the_rules_themselves(importer: str, imported: str, ok: bool) -> None:
    assert allowed(importer, imported) is ok


def test_the_screen_check_can_fail() -> None:
    tree = ast.parse("import sys\nprint('x', file=sys.stderr)\nfrom rich.console import Console\n")
    assert [what for _, what in screen_uses(tree)] == ["print", "sys.stderr", "import rich.console"]
