"""Every file the CLI reads: any bytes give either the parsed object or one GridArenaError, never another
exception (issue 17). Quick runs here; ``pytest -m slow`` runs 2,000 examples per reader."""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import sqlite3
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gridarena.arena.players import players_from_file
from gridarena.arena.replay import read_replay
from gridarena.arena.store import Store
from gridarena.cli.main import main
from gridarena.cli.search import position
from gridarena.core.errors import GridArenaError
from gridarena.core.files import LIMITS, FileReadError, gunzip_limited, read_text, size_text
from gridarena.core.registry import available_games, make
from gridarena.games.reversixt.formats import read_map, resolve_map_path
from gridarena.games.reversixt.net.trace import read_trace_text, verify
from gridarena.games.slidingpuzzle.formats import parse_case, parse_pdb_config, parse_solution
from gridarena.games.slidingpuzzle.pdb.fileformat import MAGIC, load_pdb


def _store(path: str) -> object:
    with Store(path) as store:
        return store.tournaments()


READERS: dict[str, Callable[[str], object]] = {
    "puzzle case": lambda p: parse_case(read_text(p, "case"), p),
    "puzzle answer": lambda p: parse_solution(read_text(p, "answer"), p),
    "PDB configuration": lambda p: parse_pdb_config(read_text(p, "PDB configuration"), p),
    "PDB file": load_pdb,
    "replay": lambda p: read_replay(p, warn=lambda _message: None),
    "players file": players_from_file,
    "database": _store,
    "ReversiXT map": read_map,
    "ReversiXT trace": lambda p: verify(read_map(SAMPLER), read_trace_text(p), p),
}
GAMES = sorted(available_games())
SAMPLER = resolve_map_path("sampler")
TEXTY = st.text(alphabet=st.characters(codec="utf-8"), max_size=300)
PREFIXES = {  # bytes that get a reader past its first check, so the fuzzing reaches the deeper parsing
    "PDB file": MAGIC,
    "replay": b'{"format": "gridarena-replay", "version": 1}\n',
    "database": b"SQLite format 3\x00",
    "players file": b"[[player]]\n",
}


def _check(reader: Callable[[str], object], data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "input")
        Path(path).write_bytes(data)
        with contextlib.suppress(GridArenaError):
            reader(path)


def _fuzz(examples: int) -> Callable[[Callable[..., None]], Callable[..., None]]:
    return settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck))


def _data() -> st.SearchStrategy[tuple[bool, bytes]]:
    return st.tuples(st.booleans(), st.one_of(st.binary(max_size=400), TEXTY.map(str.encode)))


EXAMPLES = [pytest.param(40, id="quick"), pytest.param(2000, id="2000", marks=pytest.mark.slow)]


@pytest.mark.parametrize("examples", EXAMPLES)
@pytest.mark.parametrize("name", READERS)
def test_a_reader_fails_only_with_a_clear_error(name: str, examples: int) -> None:
    @_fuzz(examples)
    @given(data=_data())
    def check(data: tuple[bool, bytes]) -> None:
        prefixed, raw = data
        _check(READERS[name], (PREFIXES.get(name, b"") if prefixed else b"") + raw)

    check()


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=20,
)


def _state_file(game: str, value: Any) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "state.json")
        Path(path).write_text(json.dumps(value))
        with contextlib.suppress(GridArenaError):
            position(make(game), "", path)


def _mutated_states(game: str) -> st.SearchStrategy[Any]:
    base = make(game).new_initial_state(1).to_json()
    return st.one_of(
        JSON_VALUES,
        st.builds(lambda key, value: {**base, key: value}, st.sampled_from(sorted(base)), JSON_VALUES),
    )


@pytest.mark.parametrize("examples", EXAMPLES)
@pytest.mark.parametrize("game", GAMES)
def test_a_state_file_fails_only_with_a_clear_error(game: str, examples: int) -> None:
    @_fuzz(examples)
    @given(value=_mutated_states(game))
    def check(value: Any) -> None:
        _state_file(game, value)

    check()


# -- the cases issue 17 found, each through the command line ---------------------------------------


def test_a_binary_case_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    case = tmp_path / "binary.in"
    case.write_bytes(b"\x00\xff\xfe garbage")
    assert main(["puzzle", "solve", str(case)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "binary.in: the case is not UTF-8 text" in err


@pytest.mark.parametrize(
    "command", [["results"], ["tournament", "isolation", "--players", "random,random", "--games", "2"]]
)
def test_a_file_that_is_not_a_database_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    text = tmp_path / "notes.sqlite"
    text.write_text("my notes\n")
    foreign = tmp_path / "other.sqlite"
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE TABLE users (name TEXT)")
    for path, message in (
        (text, "not an SQLite database"),
        (foreign, "an SQLite database of something else"),
    ):
        before = path.read_bytes()
        assert main([*command, "--db", str(path)]) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and message in err
        assert path.read_bytes() == before  # nothing written into somebody else's file
    assert main([*command, "--db", str(tmp_path)]) == 1
    assert "is a directory" in capsys.readouterr().err


def test_a_small_board_needs_no_partition(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    case = tmp_path / "eight.txt"
    case.write_text("1 2 3 4 5 6 0 7 8\n")
    assert main(["puzzle", "solve", str(case)]) == 0  # --algo auto: no table is asked for
    captured = capsys.readouterr()
    assert captured.out.splitlines()[0] == "2" and "pattern database" not in captured.err
    assert main(["puzzle", "solve", "--algo", "pdb", str(case)]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines()[0] == "2"
    assert "3x3 board: no default pattern database" in captured.err


def test_a_folder_of_cases_is_solved_in_one_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "cases"
    folder.mkdir()
    (folder / "a.txt").write_text("1 2 3 4 5 6 0 7 8\n")
    (folder / "b.txt").write_text("1 2 3 4 5 6 7 0 8\n")
    (folder / "c.txt").write_text("not a board\n")
    assert main(["puzzle", "solve", str(folder)]) == 0  # a file of a folder that is not a case is skipped
    captured = capsys.readouterr()
    assert captured.out.splitlines() == [
        f"# {folder / 'a.txt'}",
        "2",
        "7 2",
        "8 2",
        f"# {folder / 'b.txt'}",
        "1",
        "8 2",
    ]
    assert "c.txt: skipped, not a case (c.txt:1: expected an integer" in captured.err
    assert "total: cases=2 solved=2 slides=3" in captured.err and "skipped=1" in captured.err
    assert main(["puzzle", "solve", str(folder / "a.txt"), str(folder / "c.txt")]) == 1  # named: an error
    captured = capsys.readouterr()
    assert "c.txt:1: expected an integer" in captured.err and "total: cases=2 solved=1" in captured.err
    assert main(["puzzle", "solve", "--json", str(folder / "a.txt"), str(folder / "b.txt")]) == 0
    document = json.loads(capsys.readouterr().out)
    assert [c["length"] for c in document["cases"]] == [2, 1] and document["totals"]["slides"] == 3


# -- replays: every field of a real replay replaced by any JSON value (issue 31) ---------------------


def _real_replay(folder: Path) -> dict[str, Any]:
    path = folder / "real.jsonl"
    assert main(["play", "isolation(width=4,height=4)", "--players", "random,random", "--seed", "3",
                 "--replay", str(path), "--quiet"]) == 0  # fmt: skip
    return read_replay(path).to_json()


REAL_REPLAY: dict[str, Any] = {}


def _replace(document: dict[str, Any], where: list[Any], value: Any) -> dict[str, Any]:
    """``document`` with the value at the path ``where`` (keys and indices, taken modulo) replaced."""
    copy = json.loads(json.dumps(document))
    node: Any = copy
    for step in where[:-1]:
        if isinstance(node, dict) and node:
            node = node[sorted(node)[step % len(node)]]
        elif isinstance(node, list) and node:
            node = node[step % len(node)]
        else:
            return copy
    if isinstance(node, dict) and node:
        node[sorted(node)[where[-1] % len(node)]] = value
    elif isinstance(node, list) and node:
        node[where[-1] % len(node)] = value
    return copy


def _as_lines(document: dict[str, Any]) -> str:
    """A replay document as JSON Lines: the header, each turn, the result."""
    turns = document["turns"] if isinstance(document.get("turns"), list) else [document.get("turns")]
    result = [{"result": document["result"]}] if document.get("result") is not None else []
    return "\n".join(json.dumps(record) for record in [document.get("header"), *turns, *result])


HOSTILE_NUMBERS = st.sampled_from(["NaN", "Infinity", "-Infinity", "9" * 5000, "1e999", "-0", "1.5"])


def _replay_texts() -> st.SearchStrategy[str]:
    mutated = st.builds(
        _replace,
        st.just(REAL_REPLAY),
        st.lists(st.integers(0, 50), min_size=1, max_size=4),
        JSON_VALUES,
    )
    documents = mutated.map(lambda d: json.dumps(d))
    lines = mutated.map(_as_lines)
    numbers = st.builds(
        lambda text, number, at: text[:at] + number + text[at:],
        st.just(json.dumps(REAL_REPLAY)),
        HOSTILE_NUMBERS,
        st.integers(0, 2000),
    )
    return st.one_of(documents, lines, numbers)


@pytest.mark.parametrize(
    "examples", [pytest.param(150, id="quick"), pytest.param(3000, id="3000", marks=pytest.mark.slow)]
)
def test_a_malformed_replay_is_one_line_through_every_reader(
    examples: int, tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    """Print, check and draw each mutated replay: one line and exit 1, or a normal answer; never exit 2."""
    folder = tmp_path_factory.mktemp("replays")
    if not REAL_REPLAY:
        REAL_REPLAY.update(_real_replay(folder))

    @_fuzz(examples)
    @given(text=_replay_texts())
    def check(text: str) -> None:
        path = folder / "mutated.jsonl"
        path.write_text(text)
        for extra in ([], ["--check"], ["--json"], ["--svg", str(folder / "out.svg")]):
            code = main(["replay", str(path), *extra])
            err = capsys.readouterr().err
            assert code in (0, 1), (text, extra, err)
            assert "internal error" not in err and "Traceback" not in err, (text, extra, err)

    check()


# -- action text from a program or a replay: any text is an action or one GridArenaError (issue 31) --


def _action_texts(game: str) -> st.SearchStrategy[str]:
    state = make(game).new_initial_state(1)
    legal = [state.action_to_string(state.random_action(__import__("random").Random(i))) for i in range(5)]
    spliced = st.builds(
        lambda text, at, insert: text[:at] + insert + text[at:],
        st.sampled_from(legal),
        st.integers(0, 30),
        st.sampled_from(["9" * 5000, "0" * 5000 + "1", "²", "٣", "-", " ", "1e999", "nan"]),
    )
    return st.one_of(spliced, TEXTY)


@pytest.mark.parametrize("examples", EXAMPLES)
@pytest.mark.parametrize("game", GAMES)
def test_action_text_is_an_action_or_one_clear_error(game: str, examples: int) -> None:
    state = make(game).new_initial_state(1)

    @_fuzz(examples)
    @given(text=_action_texts(game))
    def check(text: str) -> None:
        with contextlib.suppress(GridArenaError):
            state.illegal_reason(state.string_to_action(text))

    check()


def test_every_kind_of_file_and_its_limit_is_in_the_security_page() -> None:
    text = (Path(__file__).parents[1] / "docs" / "security.md").read_text()
    for kind, limit in LIMITS.items():
        assert f"| {kind} | " in text, kind
        if limit:
            assert f"| {kind} | {size_text(limit)}" in text, (kind, size_text(limit))


def test_gzip_is_decompressed_within_the_limit_member_by_member() -> None:
    members = [b"a" * 3000, b"", b"b" * 70000]
    data = b"".join(gzip.compress(m) for m in members)
    assert gunzip_limited(data + b"\0" * 8, 73000, "x", "replay") == b"".join(members)
    with pytest.raises(FileReadError, match="larger once decompressed: a replay may have at most 60 KiB"):
        gunzip_limited(data, 60 * 1024, "x", "replay")
    with pytest.raises(FileReadError, match="corrupt gzip data"):
        gunzip_limited(data[:-5], 10**6, "x", "replay")
    with pytest.raises(FileReadError, match="bytes after its end"):
        gunzip_limited(data + b"junk", 10**6, "x", "replay")
