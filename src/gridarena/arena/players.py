"""Entrants as typed: registry specs, programs given as commands, and ``--players-file bots.toml``.

Each ``[[player]]`` table is either a registry bot (``spec = "alphabeta(depth=5)"``, optional ``name``)
or a program (``cmd`` as a list or a string, ``protocol = "jsonl"``, optional ``name``, ``cwd``,
``env``, ``timeout``). Every table becomes a spec string, so the schedule, the database and the
workers see entrants exactly as if they had been typed on the command line.

>>> player_spec({"name": "mine", "cmd": ["./mybot", "--level", "3"], "env": {"DEBUG": "1"}}, "bots.toml", 1)
"external(cmd=['./mybot', '--level', '3'],env={'DEBUG': '1'},name='mine',protocol='jsonl')"
"""

from __future__ import annotations

import re
import shlex
import tomllib
from collections.abc import Mapping
from pathlib import Path, PurePath
from typing import Any, Final

from gridarena.core.errors import SpecError
from gridarena.core.files import read_text
from gridarena.core.numbers import MAX_DIGITS
from gridarena.core.specs import format_spec, parse_spec
from gridarena.core.types import Game

PROGRAM_KEYS: Final = frozenset({"name", "cmd", "protocol", "cwd", "env", "timeout", "startup_timeout"})


def player_spec(table: Mapping[str, Any], path: str, index: int) -> str:
    """The spec string of one ``[[player]]`` table; errors name the file and the table."""
    where = f"{path}: player {index}"
    if "spec" in table:
        if set(table) - {"spec", "name"}:
            raise SpecError(f"{where}: a spec player takes only 'spec' and 'name', got {sorted(table)}")
        name, params = parse_spec(str(table["spec"]))
        if "name" in table:
            params["name"] = str(table["name"])
        return format_spec(name, params)
    if "cmd" not in table:
        raise SpecError(f"{where}: needs 'spec' (a registry bot) or 'cmd' (a program)")
    unknown = set(table) - PROGRAM_KEYS
    if unknown:
        raise SpecError(f"{where}: unknown keys {sorted(unknown)}; allowed: {sorted(PROGRAM_KEYS)}")
    cmd = table["cmd"]
    if not (isinstance(cmd, str) or (isinstance(cmd, list) and cmd and all(isinstance(c, str) for c in cmd))):
        raise SpecError(f"{where}: 'cmd' must be a string or a non-empty list of strings")
    return format_spec("external", {"protocol": "jsonl", **table})


def players_from_file(path: str | Path) -> list[str]:
    """Every player of a TOML players file, as spec strings in file order."""
    text = read_text(path, "players file")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(f"{path}: not valid TOML ({exc})") from None
    except ValueError:  # tomllib converts integers with int(), which refuses more than 4,300 digits
        raise SpecError(f"{path}: not a players file (an integer of more than {MAX_DIGITS} digits)") from None
    except RecursionError:
        raise SpecError(f"{path}: not a players file (arrays or tables nested too deeply)") from None
    tables = data.get("player")
    if not isinstance(tables, list) or not tables:
        raise SpecError(f"{path}: expected one or more [[player]] tables")
    return [player_spec(table, str(path), i) for i, table in enumerate(tables, 1)]


def looks_like_command(text: str) -> bool:
    """A player typed as a command (``./mybot``, ``python3 bot.py``), not a spec: a path or a space outside (...).

    >>> looks_like_command("python3 bot.py"), looks_like_command("./mybot"), looks_like_command("alphabeta(depth=3)")
    (True, True, False)
    >>> looks_like_command("external(cmd='python3 bot.py')")
    False
    """
    head = text.strip().split("(", 1)[0]
    return any(c.isspace() for c in head) or "/" in head or head.startswith(".")


def program_spec(game: Game[Any], command: str) -> str:
    """The ``external`` spec of a program typed as a command, speaking the game's own protocol.

    A game whose states offer CodinGame's text (``codingame_turn``) gets ``protocol=codingame``, so a
    contest bot runs unchanged; every other game gets the JSON-lines protocol (docs/arena.md).
    """
    state = game.new_initial_state(0)
    protocol = "codingame" if hasattr(state, "codingame_turn") else "jsonl"
    return format_spec(
        "external", {"cmd": command.strip(), "name": program_name(command), "protocol": protocol}
    )


#: Programs that run another one named after them (``python3 bot.py``): the name is the file's.
_RUNNERS: Final = re.compile(
    r"(env|python|pypy|node|nodejs|java|ruby|perl|php|lua|luajit|bash|sh|dash|zsh|rscript|julia|deno|bun"
    r"|dotnet|mono|racket|guile|scala|kotlin|escript|elixir|tclsh|swift)[\d.]*(\.exe)?",
    re.IGNORECASE,
)


def _is_code(word: str) -> bool:
    """A word that is code given to an interpreter (``-c 'import time; ...'``), not a name."""
    return any(c.isspace() or c in ";&|" for c in word)


def program_name(command: str) -> str:
    """The name a program typed as a command is shown by, as a file name without folder or suffix (at
    most 64 characters): the program itself, or for an interpreter (``python3``, ``java``, ``node``...)
    its first argument that names a file (or the module of ``-m``), else its last word that is neither
    an option nor code, else the interpreter.

    >>> program_name("python3 bots/random_bot.py"), program_name("./mybot"), program_name("java -Xss64m Player")
    ('random_bot', 'mybot', 'Player')
    >>> program_name("./mybot --level 3"), program_name("python3 -u /home/me/my_bot.py --depth 4")
    ('mybot', 'my_bot')
    >>> program_name("python3 -m gridarena.cli.iceandfire bot wood1")
    'iceandfire'
    >>> program_name("python3 -c 'import time; time.sleep(5)'")
    'python3'

    """
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    words = words or ["program"]
    runners = 0
    while runners < len(words) - 1 and _RUNNERS.fullmatch(PurePath(words[runners]).name):
        runners += 1
    if runners and "-m" in words[runners:-1]:  # python -m package.module: the module's name
        name = words[words.index("-m", runners) + 1].rsplit(".", 1)[-1]
    elif runners:
        plain = [w for w in words[runners:] if not w.startswith("-") and not _is_code(w)]
        files = [w for w in plain if "/" in w or "\\" in w or "." in w.strip(".")]
        name = PurePath(files[0] if files else plain[-1] if plain else words[runners - 1]).name
    else:
        name = PurePath(words[0]).name
    stem = name.rsplit(".", 1)[0] if "." in name[1:] else name
    return (stem or name or "program")[:64]


def entrant_spec(game: Game[Any], text: str) -> str:
    """A typed player as a spec: itself, or :func:`program_spec` when it looks like a command."""
    return program_spec(game, text) if looks_like_command(text) else text.strip()
