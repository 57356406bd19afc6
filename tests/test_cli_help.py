"""The command line's first impression: it starts at once, every option is explained, bugs are one line."""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from gridarena.cli import main as cli_main
from gridarena.cli.main import COMMANDS, build_parser, chosen_command, main
from gridarena.cli.options import Number, Size


def _parsers(
    parser: argparse.ArgumentParser, path: tuple[str, ...]
) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _parsers(sub, (*path, name))


ALL = list(_parsers(build_parser(), ()))


def test_importing_the_cli_imports_no_heavy_library() -> None:
    code = "import sys, gridarena.cli.main; print(sorted(m for m in ('numba', 'scipy', 'numpy') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_help_and_version_import_no_command_module() -> None:
    code = (
        "import sys\nfrom gridarena.cli.main import build_parser, chosen_command\n"
        "build_parser([])\nprint(sorted(m for m in sys.modules if m.startswith('gridarena.cli.')"
        " and m not in ('gridarena.cli.main', 'gridarena.cli.options')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_only_the_chosen_command_is_configured() -> None:
    assert chosen_command(["--debug", "games"]) == "games"
    assert chosen_command(["--version"]) is None
    assert chosen_command(["nonsense", "games"]) is None
    parser = build_parser(["games"])
    assert parser.parse_args(["games"]).run is not None


@pytest.mark.parametrize("path,parser", ALL, ids=[" ".join(p) or "gridarena" for p, _ in ALL])
def test_every_option_has_help(path: tuple[str, ...], parser: argparse.ArgumentParser) -> None:
    missing = [
        "/".join(a.option_strings) or a.dest
        for a in parser._actions
        if not isinstance(a, argparse._HelpAction | argparse._SubParsersAction)
        and not (a.help and a.help.strip())
    ]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            missing += [c.dest for c in action._choices_actions if not (c.help and c.help.strip())]
    assert not missing, f"gridarena {' '.join(path)}: options without help: {missing}"


@pytest.mark.parametrize("path,parser", ALL, ids=[" ".join(p) or "gridarena" for p, _ in ALL])
def test_every_command_shows_an_example(path: tuple[str, ...], parser: argparse.ArgumentParser) -> None:
    text = parser.format_help()
    body = text.split("\n", 1)[1]  # after the usage line
    assert f"gridarena {' '.join(path)}".rstrip() + " " in body, (
        f"gridarena {' '.join(path)} --help shows no example"
    )


def test_every_command_is_in_the_table_with_a_help_line() -> None:
    assert all(command.help for command in COMMANDS.values())
    top = build_parser([]).format_help()
    assert all(name in top for name in COMMANDS)


def _crash(args: argparse.Namespace) -> int:
    raise ZeroDivisionError("boom")


def test_an_unexpected_error_is_one_line_and_debug_shows_the_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real = cli_main.build_parser

    def crashing(configure: object = None) -> argparse.ArgumentParser:
        parser = real(configure)  # type: ignore[arg-type]
        parser.set_defaults(run=_crash)
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                action.choices["games"].set_defaults(run=_crash)
        return parser

    monkeypatch.setattr(cli_main, "build_parser", crashing)
    assert main(["games"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "gridarena games: internal error: ZeroDivisionError: boom" in err and "please report this" in err
    with pytest.raises(ZeroDivisionError):
        main(["--debug", "games"])


@pytest.mark.parametrize("path,parser", ALL, ids=[" ".join(p) or "gridarena" for p, _ in ALL])
def test_every_number_option_is_checked_and_its_range_is_in_its_help(
    path: tuple[str, ...], parser: argparse.ArgumentParser
) -> None:
    """Issue 31: one set of checked types (cli/options.py), not ``type=int`` or ``type=float`` anywhere."""
    unchecked = ["/".join(a.option_strings) or a.dest for a in parser._actions if a.type in (int, float)]
    assert not unchecked, f"gridarena {' '.join(path)}: options with an unchecked type: {unchecked}"
    text = " ".join(parser.format_help().split())
    for action in parser._actions:
        if isinstance(action.type, Number | Size):
            assert " ".join(action.type.range_text.split()) in text, (path, action.option_strings)


#: The page that documents each command: its "Option ranges" table lists every checked option.
PAGES = {
    "play": "arena.md",
    "check": "arena.md",
    "replay": "arena.md",
    "stats": "arena.md",
    "tournament": "arena.md",
    "results": "arena.md",
    "search": "search.md",
    "pentocity": "pentocity.md",
    "puzzle": "slidingpuzzle.md",
    "serve": "web.md",
    "isolation": "isolation.md",
    "analyze": "analysis.md",
    "reversixt": "reversixt.md",
    "iceandfire": "iceandfire.md",
}
DOCS = Path(__file__).parents[1] / "docs"


@pytest.mark.parametrize("path,parser", ALL, ids=[" ".join(p) or "gridarena" for p, _ in ALL])
def test_every_option_range_is_in_its_commands_page(
    path: tuple[str, ...], parser: argparse.ArgumentParser
) -> None:
    rows = [
        f"| `gridarena {' '.join(path)}` | `{'/'.join(a.option_strings) or a.dest.upper()}` | {a.type.range_text} |"
        for a in parser._actions
        if isinstance(a.type, Number | Size)
    ]
    if not rows:
        return
    page = DOCS / PAGES[path[0]]
    missing = [row for row in rows if row not in page.read_text()]
    assert not missing, f"{page.name} lacks these rows of its 'Option ranges' table: {missing}"
