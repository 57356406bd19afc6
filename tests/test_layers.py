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
    # games: each game's own view only (adapters/views/<game>.py imports that game)
    "adapters": {"core", "search", "bots", "arena", "adapters", "top"},
}

#: Layers that put nothing on a screen.
QUIET = {"core", "search", "games", "bots", "arena", "web", "adapters"}

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
        if source == "adapters":
            return importer.split(".")[2:3] == ["views"] and importer.split(".")[3:4] == [game_of(imported)]
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
        ("gridarena.adapters.views.isolation", "gridarena.games.isolation.rules", True),
        ("gridarena.adapters.views.isolation", "gridarena.games.pentocity.rules", False),
        ("gridarena.adapters.pettingzoo", "gridarena.games.isolation.rules", False),
    ],
)
def test_the_rules_themselves(importer: str, imported: str, ok: bool) -> None:
    assert allowed(importer, imported) is ok


def test_the_screen_check_can_fail() -> None:
    tree = ast.parse("import sys\nprint('x', file=sys.stderr)\nfrom rich.console import Console\n")
    assert [what for _, what in screen_uses(tree)] == ["print", "sys.stderr", "import rich.console"]


# ---------------------------------------------------------------------------------------------------
# One shape per game package (docs/architecture.md, "One shape per game"): the same files in every game,
# imports that go one way, and no import cycle inside a package.

GAMES = sorted(p.name for p in (PACKAGE / "games").iterdir() if (p / "__init__.py").is_file())
MAX_LINES = 600

#: Known breaks being fixed on a branch: strict xfails, so the fix makes the test fail until the entry goes.
PENDING: dict[str, str] = {}


def pending(key: str, *values: object) -> object:
    """``pytest.param(*values)``, a strict xfail while ``key`` is in :data:`PENDING`."""
    marks = [pytest.mark.xfail(reason=PENDING[key], strict=True)] if key in PENDING else []
    return pytest.param(*values, marks=marks, id=str(values[0]) if len(values) == 1 else key)


#: Modules of a game that its text layer (``formats``) and its state (``rules``) must not import.
ABOVE_RULES = ("render", "bots", "ai", "analysis")


def game_modules(game: str) -> dict[str, Path]:
    """Module name -> path, for every module of one game package."""
    return {module_name(p): p for p in modules() if game_of(module_name(p)) == game}


def internal_imports(game: str) -> dict[str, set[str]]:
    """Each module of ``game`` -> the modules of the same package it imports (``from pkg import mod`` is mod)."""
    known = game_modules(game)
    graph: dict[str, set[str]] = {}
    for module, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        targets: set[str] = set()
        for node in ast.walk(tree):
            found: list[str] = []
            if isinstance(node, ast.ImportFrom):
                base = next(
                    (t for _, t in imports(module, ast.Module([node], []), path.name == "__init__.py")), ""
                )
                found = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
            elif isinstance(node, ast.Import):
                found = [a.name for a in node.names]
            targets.update(t for t in found if t in known and t != module)
        graph[module] = targets
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph`` as a list of modules (first == last), or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_the_cycle_finder_can_fail() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


@pytest.mark.parametrize("game", [pending(f"cycle-{g}", g) for g in GAMES])
def test_no_import_cycle_inside_a_game_package(game: str) -> None:
    cycle = find_cycle(internal_imports(game))
    assert cycle is None, f"games/{game}: import cycle " + " -> ".join(cycle or [])


def _local(module: str, game: str) -> str:
    """``gridarena.games.isolation.ai.best`` -> ``ai.best`` (the module's name inside its package)."""
    return module.removeprefix(f"gridarena.games.{game}").lstrip(".")


#: What ``fast/`` must not import: the layers above its kernels. Rules, formats and value modules are at
#: the bottom, ``fast/`` above them, ``ai/`` and ``pdb/`` above ``fast/``, and the original's machinery
#: (``aind/``, ``net/``), drawing, analysis and the factories on top (docs/architecture.md).
ABOVE_FAST = ("ai", "pdb", "aind", "net", "render", "bots", "analysis")


def part_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """A package's module graph (local names) as a graph of its parts: a subpackage's modules count as it.

    >>> part_graph({"ai.best": {"aind.board", "ai.heuristics"}, "aind.samples": {"ai.heuristics"}})
    {'ai': {'aind'}, 'aind': {'ai'}}
    """
    parts: dict[str, set[str]] = {}
    for module, targets in graph.items():
        head = module.split(".")[0]
        if head:  # the package's own __init__ is no part
            parts.setdefault(head, set()).update(t.split(".")[0] for t in targets if t.split(".")[0] != head)
    return {k: {t for t in v if t} for k, v in parts.items()}


def layer_problems(graph: dict[str, set[str]]) -> list[str]:
    """What breaks "``fast/`` imports only downward" and "no cycle between the parts" in a module graph.

    >>> layer_problems({"fast.incremental": {"ai.heuristics"}, "ai.heuristics": {"fast.indexing"}})
    ['fast/incremental imports ai.heuristics: fast/ sits below ai', 'import cycle between parts: ai -> fast -> ai']
    """
    problems = [
        f"{module.replace('.', '/')} imports {target}: fast/ sits below {target.split('.')[0]}"
        for module, targets in sorted(graph.items())
        if module.split(".")[0] == "fast"
        for target in sorted(targets)
        if target.split(".")[0] in ABOVE_FAST
    ]
    cycle = find_cycle(part_graph(graph))
    return problems + ([f"import cycle between parts: {' -> '.join(cycle)}"] if cycle else [])


def test_the_layer_checks_can_fail() -> None:
    """The two breaks this branch removed, as they were: each is found and named."""
    sliding = {  # fast/ imported ai/, and pdb/ and fast/ imported each other
        "fast.incremental": {"ai.heuristics", "board"},
        "fast.pdbbuild": {"pdb.table", "fast.indexing"},
        "pdb.table": {"fast.indexing"},
        "ai.heuristics": {"pdb.table", "fast.indexing"},
    }
    assert layer_problems(sliding) == [
        "fast/incremental imports ai.heuristics: fast/ sits below ai",
        "fast/pdbbuild imports pdb.table: fast/ sits below pdb",
        "import cycle between parts: ai -> fast -> ai",
    ]
    isolation = {"ai.best": {"aind.board", "fast"}, "aind.samples": {"ai.heuristics"}, "fast": {"rules"}}
    assert layer_problems(isolation) == ["import cycle between parts: ai -> aind -> ai"]
    assert layer_problems({"ai.best": {"fast.engine"}, "fast.engine": {"rules"}, "bots": {"ai.best"}}) == []


@pytest.mark.parametrize("game", GAMES)
def test_fast_imports_only_downward_and_the_parts_form_no_cycle(game: str) -> None:
    """Inside a game, ``fast/`` imports no layer above it, and no two parts import each other (even
    through others): a part is a top-level module or a subpackage (``ai/``, ``fast/``, ``pdb/``, ``net/``)."""
    graph = {_local(m, game): {_local(t, game) for t in ts} for m, ts in internal_imports(game).items()}
    problems = layer_problems(graph)
    assert not problems, f"games/{game}: " + "\n".join(problems)


@pytest.mark.parametrize("game", [pending(f"shape-{g}", g) for g in GAMES])
def test_every_game_package_has_the_same_shape(game: str) -> None:
    """formats a leaf, rules below render/bots/ai, bots.py factories only, numba only under fast/."""
    root = PACKAGE / "games" / game
    problems = [
        f"games/{game}/{f} is missing" for f in ("rules.py", "formats.py", "render.py", "bots.py", "ai")
    ]
    problems = [
        p
        for p, f in zip(problems, ("rules.py", "formats.py", "render.py", "bots.py", "ai"), strict=True)
        if not (root / f).exists()
    ]
    graph = {_local(m, game): {_local(t, game) for t in ts} for m, ts in internal_imports(game).items()}
    for module, banned in (("formats", ("rules", "fast", *ABOVE_RULES)), ("rules", ABOVE_RULES)):
        bad = sorted(t for t in graph.get(module, ()) if t.split(".")[0] in banned)
        problems += [f"games/{game}/{module}.py imports {t}: {module} sits below it" for t in bad]
    bots = ast.parse((root / "bots.py").read_text(encoding="utf-8"))
    problems += [
        f"games/{game}/bots.py:{n.lineno}: class {n.name}: bots.py holds factories only (strategies go in ai/)"
        for n in bots.body
        if isinstance(n, ast.ClassDef)
    ]
    for module, path in game_modules(game).items():
        local = _local(module, game)
        if local.split(".")[0] == "fast":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for line, name in _imported_names(tree):
            if name.split(".")[0] == "numba":
                problems.append(f"games/{game}/{local.replace('.', '/')}.py:{line}: numba outside fast/")
    assert not problems, "\n".join(problems)


def _imported_names(tree: ast.AST) -> Iterator[tuple[int, str]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, a.name) for a in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level:
            yield node.lineno, node.module or ""


@pytest.mark.parametrize("game", GAMES)
def test_a_games_registry_entries_point_at_its_bots_module(game: str) -> None:
    from gridarena.core import registry

    entries = registry.game_entry(game).bots  # the game's own entries: what the registry will import
    factories = {name: e.factory for name, e in entries.items()}
    wrong = {name: e for name, e in factories.items() if not e.startswith(f"gridarena.games.{game}.bots:")}
    assert not wrong, f"{game}: registry entries outside games/{game}/bots.py: {wrong}"


@pytest.mark.xfail("lines" in PENDING, reason=PENDING.get("lines", ""), strict=True)
def test_no_module_is_longer_than_the_bar() -> None:
    long = {
        str(p.relative_to(SRC)): n
        for p in modules()
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not long, f"modules over {MAX_LINES} lines (split them along their concepts): {long}"


@pytest.mark.parametrize(
    "path",
    [pending(f"names-{module_name(p)}", p) for p in modules() if layer(module_name(p)) in ("web", "arena")],
)
def test_the_web_and_the_arena_name_no_game(path: Path) -> None:
    """Games reach the viewer and the arena through the registry: no game's name in their code.

    Docstrings may use a game in their examples (a doctest needs one); identifiers and other strings may not.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {  # module, class, function and attribute docstrings: every bare string statement
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    found = sorted(
        {
            (node.lineno, game)
            for node in ast.walk(tree)
            if id(node) not in docstrings
            for text in _words(node)
            for game in GAMES
            if game in text.lower()
        }
    )
    assert not found, f"{path.relative_to(SRC)} names games: " + ", ".join(f"line {n}: {g}" for n, g in found)


def _words(node: ast.AST) -> Iterator[str]:
    """The identifiers and string constants of a node (docstrings included: they are code's words too)."""
    if isinstance(node, ast.Name):
        yield node.id
    elif isinstance(node, ast.Attribute):
        yield node.attr
    elif isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        yield node.name


SQL = ("SELECT ", "INSERT ", "UPDATE ", "DELETE ", "CREATE ", "ALTER ", "PRAGMA ")


def test_sql_lives_in_the_store_only() -> None:
    """Every SQL statement is ``arena/store.py``'s: the viewer and the CLI read through its methods."""
    found = [
        f"{path.relative_to(SRC)}:{node.lineno}: {node.value.strip()[:40]!r}"
        for path in modules()
        if module_name(path) != "gridarena.arena.store"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value.lstrip().startswith(SQL)
    ]
    assert not found, "SQL outside arena/store.py:\n" + "\n".join(found)


@pytest.mark.parametrize("game", GAMES)
def test_a_games_kernels_are_stamped_by_the_whole_game(game: str) -> None:
    """Numba stamps a cached kernel with its own file only (a changed callee in another file is not
    seen): a game whose ``fast/`` uses numba imports :mod:`gridarena.core.kernelcache` in
    ``fast/__init__.py`` before anything of the game, so every kernel is decorated after it."""
    fast = PACKAGE / "games" / game / "fast"
    uses_numba = fast.is_dir() and any(
        name.split(".")[0] == "numba"
        for path in fast.rglob("*.py")
        for _, name in _imported_names(ast.parse(path.read_text(encoding="utf-8")))
    )
    if not uses_numba:
        return
    tree = ast.parse((fast / "__init__.py").read_text(encoding="utf-8"))
    order = [
        f"{node.module}.{a.name}" if isinstance(node, ast.ImportFrom) else a.name
        for node in tree.body
        if isinstance(node, ast.Import | ast.ImportFrom)
        for a in node.names
    ]
    first_game = next((i for i, name in enumerate(order) if name.startswith("gridarena.games.")), len(order))
    assert "gridarena.core.kernelcache" in order[:first_game], (
        f"games/{game}/fast/__init__.py: import gridarena.core.kernelcache before the game's modules"
    )
