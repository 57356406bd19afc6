"""The catalogue (issue 31): every game and bot is declared, and nothing is built around its declaration.

* every catalogued factory takes exactly its declared parameters (names and defaults), never ``**kwargs``;
* every bot factory in a bots module is catalogued, and ``make_bot`` reaches a factory only through a
  declaration (an undeclared ``"module:function"`` is refused);
* each game package holds its own entry, and ``core`` names no game, no page text and no adapter.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path
from typing import Any

import pytest

from gridarena import catalogue
from gridarena.core import registry
from gridarena.core.catalogue import BotEntry, describe_bot
from gridarena.core.errors import SpecError
from gridarena.core.params import REQUIRED
from test_registry import random_policy

SRC = Path(__file__).resolve().parents[1] / "src" / "gridarena"


def entries() -> list[tuple[str, str, BotEntry]]:
    return [(g, n, e) for g in registry.available_games() for n, e in registry.bot_table(g).items()]


def _load(reference: str) -> Any:
    module, _, attr = reference.partition(":")
    return getattr(importlib.import_module(module), attr)


@pytest.mark.parametrize("game,name,entry", entries(), ids=lambda v: v if isinstance(v, str) else "")
def test_every_factory_takes_exactly_its_declared_parameters(game: str, name: str, entry: BotEntry) -> None:
    factory = _load(entry.factory)
    params = list(inspect.signature(factory).parameters.values())
    assert not any(p.kind in (p.VAR_KEYWORD, p.VAR_POSITIONAL) for p in params), f"{game}:{name} takes **/*"
    assert [p.name for p in params[:2]] == ["game", "seed"], f"{game}:{name}: factory(game, seed, ...)"
    declared = {p.name: p for p in params[2:]}
    assert set(declared) == set(entry.params), (
        f"{game}:{name}: signature {set(declared)} != {set(entry.params)}"
    )
    for key, param in entry.params.items():
        default = declared[key].default
        if param.default is REQUIRED:
            assert default is inspect.Parameter.empty, f"{game}:{name}: {key} is required, so no default"
        else:
            assert default == param.default, (
                f"{game}:{name}: {key} defaults to {default!r}, declared {param.default!r}"
            )


def test_every_factory_in_a_bots_module_is_catalogued() -> None:
    """A bot factory reachable without its declaration fails here: each ``make_*`` is some entry's factory."""
    catalogued = {e.factory for _, _, e in entries()}
    modules = [p for p in (SRC / "games").glob("*/bots.py")] + list((SRC / "bots").glob("*.py"))
    modules.append(SRC / "adapters" / "bots.py")
    orphans = []
    for path in modules:
        module = ".".join(path.relative_to(SRC.parent).with_suffix("").parts)
        for attr, value in vars(importlib.import_module(module)).items():
            own = attr.startswith("make_") and callable(value) and getattr(value, "__module__", "") == module
            if own and f"{module}:{attr}" not in catalogued:
                orphans.append(f"{module}:{attr}")
    assert not orphans, f"factories without a declaration: {orphans}"


def test_an_undeclared_factory_cannot_be_reached() -> None:
    game = registry.make("isolation")
    with pytest.raises(SpecError, match="not a declared BotEntry"):
        registry.make_bot(game, "mine", extra={"mine": "gridarena.bots.base:make_random_bot"})
    declared = {"mine": "gridarena.bots.catalogue:_COMMON"}  # text that names something else than an entry
    with pytest.raises(SpecError, match="not a declared BotEntry"):
        registry.make_bot(game, "mine", extra=declared)


def test_no_bot_factory_takes_arbitrary_keywords() -> None:
    """The same rule as the project's before-stop hook, over every module of games/*/bots.py and bots/."""
    for path in [
        *(SRC / "games").glob("*/bots.py"),
        *(SRC / "bots").glob("*.py"),
        SRC / "adapters" / "bots.py",
    ]:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef) and node.args.kwarg is not None:
                raise AssertionError(f"{path.name}:{node.lineno}: {node.name} takes **{node.args.kwarg.arg}")


def test_the_game_ids_and_the_table_agree_and_each_game_holds_its_entry() -> None:
    assert set(registry.game_ids()) == set(catalogue.GAMES)
    for name, reference in catalogue.GAMES.items():
        assert reference == f"gridarena.games.{name}.catalogue:ENTRY"
        entry = registry.game_entry(name)
        assert entry.name == name and entry.title
        for ref in (entry.factory, entry.renderer, entry.analyser, entry.evaluators):
            assert ref is None or ref.startswith(f"gridarena.games.{name}."), (name, ref)


def _code_strings(path: Path) -> list[str]:
    """The string constants of a module that are not docstrings (doctests may name a game)."""
    tree = ast.parse(path.read_text())
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docstrings
    ]


def test_core_names_no_game_no_page_and_no_adapter() -> None:
    strings = [text for p in (SRC / "core").glob("*.py") for text in _code_strings(p)]
    for text in strings:
        assert "gridarena.adapters" not in text and "gridarena.games" not in text, text
        assert not any(text.startswith(game) for game in catalogue.GAMES), text
    assert not any("click" in text for text in strings)


def test_the_declared_heuristics_are_the_games_evaluators() -> None:
    for game in registry.available_games():
        entry = registry.game_entry(game)
        assert set(entry.heuristics) == set(registry.evaluators(game)), game


@pytest.mark.parametrize("game", registry.available_games())
def test_every_catalogued_bot_builds_with_its_defaults(game: str, tmp_path: Path) -> None:
    bot_file = tmp_path / "mine.py"
    bot_file.write_text(
        "from gridarena.core.bot import BaseBot, Decision\n"
        "class Mine(BaseBot):\n"
        "    name = 'mine'\n"
        "    def act(self, state, clock):\n"
        "        return Decision(state.random_action(self.rng))\n"
    )
    required = {
        "external": "external(cmd='python3 bot.py')",
        "policy": f"policy(file='{random_policy(game, tmp_path)}')",
        "python": f"python(file='{bot_file}')",
    }
    made = registry.make(game)
    for name in registry.available_bots(game):
        assert registry.make_bot(made, required.get(name, name)) is not None, name


def test_every_bot_describes_itself() -> None:
    for game, name, entry in entries():
        lines = describe_bot(name, entry)
        assert lines[0].startswith(f"{name}: ") and entry.summary, (game, name)
        assert len(lines) == 1 + bool(entry.reaches) + len(entry.params)
        assert not any("default None" in line for line in lines), (game, name)


@pytest.mark.parametrize("game", registry.available_games())
def test_the_docs_name_every_bot_of_the_game(game: str) -> None:
    text = (SRC.parents[1] / "docs" / f"{game}.md").read_text()
    missing = [b for b in registry.game_entry(game).bots if f"`{b}`" not in text and f"`{b}(" not in text]
    assert not missing, f"docs/{game}.md does not name {missing}"
