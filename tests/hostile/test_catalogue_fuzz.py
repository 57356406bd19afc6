"""A fuzzer over the catalogue (issue 31): random specs of every kind through the web's constructors and
the command line's.

Specs are built as text from the catalogue's own names (games, bots, declared keywords) mixed with junk:
unknown names and keywords, values of every type, numbers of any length, signs, nesting, unicode, paths
to a Python file whose import would leave a marker. Through the web's constructors
(``make_for_request``, ``make_bot_for_request``) only the one-line spec error may come out, no file is
imported and no program starts; through the command line's (``make``, ``make_bot``), a game, a bot or a
one-line error, never another exception. 2,000 specs in ``make test``, 50,000 under ``-m slow``.
"""

from __future__ import annotations

import os
import random
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gridarena.core import registry
from gridarena.core.errors import GridArenaError, SpecError

GAMES = registry.available_games()
BOTS = sorted({name for game in GAMES for name in registry.available_bots(game)})
KEYWORDS = sorted(
    {key for game in GAMES for entry in registry.bot_table(game).values() for key in entry.params}
    | {key for game in GAMES for key in registry.parameters(game)}
    | {"name", "seed", "file", "cmd", "player", "score", "module", "path", "map", "bogus", "__class__"}
)
WORDS = ["improved", "HumanPlayer", "AlphaBetaPlayer", "random", "jsonl", "codingame", "mcts", "idastar", "x"]
UNICODE = ["é", "日本", "\u202e", "\x00", "\U0001f600", "ß", "\ufeff", "Ω"]


def number(rng: random.Random) -> str:
    kind = rng.randrange(9)
    if kind == 0:
        return str(rng.randint(-10, 10))
    if kind == 1:
        return "9" * rng.choice([20, 63, 64, 65, 300, 4300, 4301, 6000])
    if kind == 2:
        return "0x" + "f" * rng.choice([8, 62, 63, 2000])
    if kind == 3:
        return rng.choice(
            ["1e308", "1e309", "-1e309", "1e-400", "0.0", "-0.0", "1_000", "0b101", "0o17", "1j"]
        )
    if kind == 4:
        return rng.choice(["nan", "inf", "-inf", "float('nan')", "True", "False", "None"])
    if kind == 5:
        return "-" * rng.choice([1, 2, 8, 9, 50, 3000]) + "1"
    if kind == 6:
        return str(rng.uniform(-1e6, 1e6))
    if kind == 7:
        return str(rng.randint(-(2**70), 2**70))
    return repr(rng.random())


def text(rng: random.Random, marker_file: Path) -> str:
    kind = rng.randrange(7)
    if kind == 0:
        return repr(str(marker_file))
    if kind == 1:
        return str(marker_file)  # a bare path
    if kind == 2:
        return rng.choice(WORDS)
    if kind == 3:
        return repr("".join(rng.choice(UNICODE) for _ in range(rng.randint(1, 5))))
    if kind == 4:
        return repr("x" * rng.choice([1, 100, 5000, 9000]))
    if kind == 5:
        return rng.choice(["'/etc/passwd'", "'/dev/zero'", "'../../x'", "'sh'", "['sh','-c','id']", "'id'"])
    return rng.choice(UNICODE)


def value(rng: random.Random, marker_file: Path, depth: int = 0) -> str:
    kind = rng.randrange(10 if depth < 3 else 6)
    if kind < 3:
        return number(rng)
    if kind < 6:
        return text(rng, marker_file)
    if kind == 6:
        return "[" + ",".join(value(rng, marker_file, depth + 1) for _ in range(rng.randint(0, 3))) + "]"
    if kind == 7:
        return "(" + ",".join(value(rng, marker_file, depth + 1) for _ in range(rng.randint(0, 3))) + ",)"
    if kind == 8:
        return (
            "{"
            + ",".join(f"'k{i}':" + value(rng, marker_file, depth + 1) for i in range(rng.randint(0, 3)))
            + "}"
        )
    return "[" * rng.choice([2, 8, 9, 40]) + "1" + "]" * rng.choice([2, 8, 9, 40])


def spec(rng: random.Random, names: list[str], marker_file: Path) -> str:
    roll = rng.random()
    if roll < 0.03:  # raw junk
        return "".join(rng.choice("()=,'\"[]{}\\ -_.:ab1é\x00\n") for _ in range(rng.randint(0, 40)))
    name = rng.choice(names) if roll < 0.9 else rng.choice([*BOTS, "Bogus", "a.b", "é", "x" * 300])
    if rng.random() < 0.15:
        return name
    pairs = []
    for _ in range(rng.randint(1, 4)):
        key = rng.choice(KEYWORDS) if rng.random() < 0.9 else rng.choice(["é", "x" * 80, "_", "A1"])
        pairs.append(f"{key}={value(rng, marker_file)}")
    return f"{name}({','.join(pairs)})"


@pytest.fixture
def marker(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """A Python file whose import writes a marker file (it must never be imported from a request)."""
    flag = tmp_path / "imported.flag"
    evil = tmp_path / "evil.py"
    evil.write_text(
        f"open({str(flag)!r}, 'w').write('imported')\n"
        "class AlphaBetaPlayer:\n    pass\n"
        "class Bot:\n    name = 'evil'\n    def reset(self, *a): pass\n    def act(self, *a): pass\n"
    )
    yield evil, flag


@pytest.fixture
def no_programs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every attempt to start a program, recorded and refused."""
    started: list[str] = []

    def refuse(*args: Any, **kwargs: Any) -> Any:
        started.append(repr(args)[:200])
        raise AssertionError("a program was started")

    monkeypatch.setattr(subprocess, "Popen", refuse)
    monkeypatch.setattr(os, "fork", refuse)
    monkeypatch.setattr(os, "posix_spawn", refuse)
    monkeypatch.setattr(os, "execv", refuse)
    return started


def web_round(count: int, seed: int, marker: tuple[Path, Path], started: list[str]) -> None:
    evil, flag = marker
    rng = random.Random(seed)
    games = {name: registry.make(name) for name in GAMES}
    outcomes = {"built": 0, "refused": 0}
    for _ in range(count):
        game_name = rng.choice(GAMES)
        if rng.random() < 0.2:
            text_spec = spec(rng, GAMES, evil)
            build: Any = lambda s=text_spec: registry.make_for_request(s)  # noqa: E731
        else:
            text_spec = spec(rng, registry.available_bots(game_name), evil)
            build = lambda s=text_spec, g=games[game_name]: registry.make_bot_for_request(g, s)  # noqa: E731
        try:
            build()
            outcomes["built"] += 1
        except SpecError as exc:
            message = str(exc)
            assert "\n" not in message and len(message) < 2000, (text_spec[:200], message[:300])
            outcomes["refused"] += 1
        except Exception as exc:  # anything else is a defect: say which spec
            raise AssertionError(f"{text_spec[:300]!r} raised {type(exc).__name__}: {exc}") from exc
        assert not flag.exists(), f"{text_spec[:300]!r} imported a file"
        assert not started, f"{text_spec[:300]!r} started a program"
    assert outcomes["built"] > count // 50 and outcomes["refused"] > count // 2, outcomes


def cli_round(count: int, seed: int, marker: tuple[Path, Path]) -> None:
    evil, _ = marker
    rng = random.Random(seed)
    games = {name: registry.make(name) for name in GAMES}
    for _ in range(count):
        game_name = rng.choice(GAMES)
        text_spec = spec(rng, registry.available_bots(game_name), evil)
        if "partition" in text_spec:  # a real partition builds tables for minutes: the web round covers it
            continue
        try:
            bot = registry.make_bot(games[game_name], text_spec)
            assert bot is not None
        except GridArenaError as exc:
            message = str(exc)
            assert "\n" not in message.strip(), (text_spec[:200], message[:300])
        except Exception as exc:
            raise AssertionError(f"{text_spec[:300]!r} raised {type(exc).__name__}: {exc}") from exc


def test_the_web_constructors_give_a_game_a_bot_or_one_line(
    marker: tuple[Path, Path], no_programs: list[str]
) -> None:
    web_round(2000, 31, marker, no_programs)


def test_the_command_line_constructors_give_a_bot_or_one_line(
    marker: tuple[Path, Path], no_programs: list[str]
) -> None:
    cli_round(600, 32, marker)


@pytest.mark.slow
def test_the_web_constructors_at_length(marker: tuple[Path, Path], no_programs: list[str]) -> None:
    web_round(50_000, 3131, marker, no_programs)


@pytest.mark.slow
def test_the_command_line_constructors_at_length(marker: tuple[Path, Path], no_programs: list[str]) -> None:
    cli_round(10_000, 3232, marker)
