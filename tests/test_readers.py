"""Every file the CLI reads: any bytes give either the parsed object or one GridArenaError, never another
exception (issue 17). Quick runs here; ``pytest -m slow`` runs 2,000 examples per reader."""

from __future__ import annotations

import contextlib
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
from gridarena.core.files import read_text
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
    assert main(["puzzle", "solve", str(case)]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines()[0] == "2"
    assert "3x3 board: no default pattern database" in captured.err


def test_a_folder_of_cases_is_solved_in_one_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "cases"
    folder.mkdir()
    (folder / "a.txt").write_text("1 2 3 4 5 6 0 7 8\n")
    (folder / "b.txt").write_text("1 2 3 4 5 6 7 0 8\n")
    (folder / "c.txt").write_text("not a board\n")
    assert main(["puzzle", "solve", str(folder)]) == 1  # one bad case: exit 1, the others still solved
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
    assert "c.txt: error:" in captured.err and "total: cases=3 solved=2 slides=3" in captured.err
    assert main(["puzzle", "solve", "--json", str(folder / "a.txt"), str(folder / "b.txt")]) == 0
    document = json.loads(capsys.readouterr().out)
    assert [c["length"] for c in document["cases"]] == [2, 1] and document["totals"]["slides"] == 3
