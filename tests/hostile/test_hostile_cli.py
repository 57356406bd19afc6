"""Hostile input on the command line (issue 23): every one ends in one line on stderr and exit 1, never a
traceback, an "internal error" (exit 2) or a machine out of memory."""

from __future__ import annotations

import functools
import gzip
import os
import resource
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from gridarena import __file__ as PACKAGE_INIT
from gridarena.arena.store import Store
from gridarena.cli.main import main

#: The address-space cap of a command that code with the bug would let grow without bound.
MEMORY_CAP = 2 * 1024**3


def capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def gridarena(
    *argv: str, user: int | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m gridarena`` in a child with its address space capped (as ``user`` when given)."""
    command = [sys.executable, "-m", "gridarena", *argv]
    if user is not None:
        command = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups", *command]
    # Another user cannot write the numba cache beside the sources: give the child one of its own.
    env = {**os.environ, "NUMBA_CACHE_DIR": tempfile.mkdtemp(prefix="gridarena-numba-")}
    os.chmod(env["NUMBA_CACHE_DIR"], 0o777)
    try:
        return subprocess.run(
            command,
            capture_output=True,
            text=True,
            timeout=300,
            preexec_fn=capped,
            cwd=cwd,
            env=env,
            check=False,
        )
    finally:
        shutil.rmtree(env["NUMBA_CACHE_DIR"], ignore_errors=True)


def one_line(stderr: str, *words: str) -> None:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert "internal error" not in stderr and "Traceback" not in stderr, stderr
    for word in words:
        assert word in lines[0], stderr


# -- item 2 and 5: game and bot parameters --------------------------------------------------------


def test_a_memory_bomb_in_a_game_spec_is_one_line() -> None:
    done = gridarena("play", "slidingpuzzle(rows=100000,cols=100000)", "--players", "solver")
    assert done.returncode == 1, done.stderr
    one_line(done.stderr, "rows must be an integer from 1 to 16", "100000")


@pytest.mark.parametrize(
    "spec,players,words",
    [
        (
            "slidingpuzzle(width=1000,height=1000)",
            "solver",
            "unknown parameter 'width'; slidingpuzzle takes rows",
        ),
        (
            "slidingpuzzle(rows=3,cols=3,scramble='x')",
            "solver",
            "scramble must be an integer from 0 to 10000",
        ),
        ("slidingpuzzle(walls=5)", "solver", "walls must be a list"),
        ("slidingpuzzle(walls=[50])", "solver", "wall cell 50 is off the 3x3 board"),
        (
            "slidingpuzzle(goal=[1,2,3,4,5,6,7,8,1000000000000])",
            "solver",
            "goal must be a list of at most 256",
        ),
        ("isolation(width=3.5)", "random,random", "width must be an integer from 1 to 26"),
        ("isolation(depth=3)", "random,random", "unknown parameter 'depth'"),
        ("pentocity(cpu_time='x')", "example", "cpu_time must be a number above 0"),
        ("pentocity(sequencer=1)", "example", "sequencer must be one of"),
        ("reversixt(map=1)", "random,random,random", "map must be the name of a packaged map"),
        ("reversixt(parsed=1)", "random,random,random", "unknown parameter 'parsed'"),
        ("iceandfire(league=1)", "random,random", "league must be one of"),
        ("isolation", "greedy(foo=1),random", "greedy: unknown parameter 'foo'; greedy takes name, seed"),
        ("isolation", "ab_improved(foo=1),random", "unknown parameter 'foo'"),
        ("isolation", "aind(player=math),random", "is not a class"),
        ("slidingpuzzle", "solver(width=3)", "solver: unknown parameter 'width'"),
    ],
)
def test_bad_parameters_are_one_line(
    spec: str, players: str, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", spec, "--players", players, "--quiet"]) == 1
    one_line(capsys.readouterr().err, words)


# -- item 5: ids beyond SQLite's integers ---------------------------------------------------------


def test_a_tournament_id_beyond_sqlite_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "r.sqlite"
    Store(db).close()
    assert main(["results", "--db", str(db), "--tournament", "99999999999999999999999"]) == 1
    one_line(capsys.readouterr().err, "no tournament with id 99999999999999999999999")


# -- item 8: a read-only database, a deeply nested replay ----------------------------------------

NOBODY = 65534


@pytest.fixture
def shared_folder() -> Iterator[Path]:
    """A folder another user can enter (pytest's tmp_path is private to root)."""
    folder = Path(tempfile.mkdtemp(prefix="gridarena-ro-"))
    folder.chmod(0o777)
    yield folder
    shutil.rmtree(folder)


def non_root() -> int | None:
    """The user to run as: ourselves when not root, else ``nobody`` through setpriv (None: impossible)."""
    if os.geteuid() != 0:
        return None
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: a read-only file cannot be made read-only for us")
    why = cannot_import_as(NOBODY)
    if why is not None:
        pytest.skip(why)
    return NOBODY


def private_folder(path: Path) -> Path | None:
    """The first folder above ``path`` that users other than its owner and group cannot enter."""
    for folder in reversed(path.parents):
        if not folder.stat().st_mode & 0o001:
            return folder
    return None


@functools.cache
def cannot_import_as(user: int) -> str | None:
    """Why ``user`` cannot run this Python and import gridarena (a checkout in a 0700 folder, as
    ``mktemp -d`` makes), or None when it can."""
    as_user = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups"]
    command = [*as_user, sys.executable, "-c", "import gridarena"]
    probe = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False, cwd="/")
    if probe.returncode == 0:
        return None
    source = Path(PACKAGE_INIT).resolve()
    blocked = private_folder(source) or private_folder(Path(sys.executable))
    where = f"{blocked} is private (mode {blocked.stat().st_mode & 0o777:o})" if blocked else "it cannot"
    return f"user {user} cannot import gridarena from {source.parent}: {where}; this test needs another user"


@pytest.mark.parametrize("folder_writable", [True, False])
def test_a_read_only_database_is_one_line(shared_folder: Path, folder_writable: bool) -> None:
    """SQLite refuses the write of a non-root user (root writes a 0444 file anyway, so the child drops
    to ``nobody``); with the folder read-only as well, the WAL files cannot be made either."""
    db = shared_folder / "ro.sqlite"
    with Store(db) as store:
        store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.chmod(0o444)
    shared_folder.chmod(0o777 if folder_writable else 0o555)
    before = db.read_bytes()
    user = non_root()
    done = gridarena(
        "tournament", "isolation(width=4,height=4)", "--players", "greedy,random", "--games", "2",
        "--seed", "1", "--db", str(db), "--quiet", user=user, cwd=shared_folder,
    )  # fmt: skip
    shared_folder.chmod(0o777)
    assert done.returncode == 1, done.stderr
    one_line(done.stderr, str(db), "cannot write the database", "read-only")
    assert db.read_bytes() == before
    with sqlite3.connect(db) as check:
        assert check.execute("SELECT COUNT(*) FROM tournaments").fetchone()[0] == 0


@pytest.mark.parametrize(
    "text",
    [
        "[" * 200_000,
        '{"header": {"format": "gridarena-replay", "version": 1}, "turns": ' + "[" * 200_000,
        '{"format": "gridarena-replay", "version": 1, "game": "isolation"}\n' + "[" * 100_000 + "\n{}\n",
        '{"format": "gridarena-replay", "version": 1}\n',
        '{"header": {"format": "gridarena-replay", "version": 1}}',
        '{"header": {"format": "gridarena-replay", "version": 1}, "turns": [1]}',
    ],
)
def test_a_hostile_replay_is_one_line(tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deep.jsonl"
    path.write_text(text)
    assert main(["replay", str(path)]) == 1
    one_line(capsys.readouterr().err, str(path))


# -- issue 31, item 5 (the command line's side): one bounded reader for every file -------------------


def attack(*argv: str, cap: int = MEMORY_CAP, timeout: float = 60.0) -> subprocess.CompletedProcess[str]:
    """``python -m gridarena ARGV`` with its address space capped at ``cap``; a hang is a failure."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    return subprocess.run(
        [sys.executable, "-m", "gridarena", *argv],
        capture_output=True,
        text=True,
        timeout=timeout,
        preexec_fn=limit,
        stdin=subprocess.DEVNULL,
        check=False,
    )


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    """A FIFO nobody writes to: opening it for reading without O_NONBLOCK waits for ever."""
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return path


def test_a_device_as_a_map_is_one_line() -> None:
    started = time.monotonic()
    done = attack("reversixt", "mapinfo", "/dev/zero", cap=1024**3, timeout=30)
    assert done.returncode == 1, done.stderr
    one_line(done.stderr, "/dev/zero: cannot read the map: it is a character device, not a regular file")
    assert time.monotonic() - started < 20


@pytest.mark.parametrize(
    "argv,what",
    [
        (["reversixt", "mapinfo"], "map"),
        (["replay"], "replay"),
        (["puzzle", "solve"], "case"),
        (["analyze"], "replay"),
        (["reversixt", "verify-trace", "othello8"], "trace"),
        (["search", "isolation", "--depth", "1", "--state"], "state file"),
        (["play", "isolation", "--players-file"], "players file"),
        (["results", "--db"], "database"),
        (["isolation", "aind-tournament", "--matches", "1", "--seed", "1", "--agents"], "agent file"),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, list) else v,
)
def test_a_fifo_is_one_line_and_never_waited_for(fifo: Path, argv: list[str], what: str) -> None:
    done = attack(*argv, str(fifo), timeout=30)
    assert done.returncode == 1, done.stderr
    one_line(done.stderr, f"{fifo}: cannot read the {what}: it is a FIFO, not a regular file")


def test_a_symlink_to_a_device_is_refused_as_the_device(tmp_path: Path) -> None:
    link = tmp_path / "map.map"
    link.symlink_to("/dev/urandom")
    done = attack("reversixt", "mapinfo", str(link), cap=1024**3, timeout=30)
    assert done.returncode == 1, done.stderr
    one_line(done.stderr, "map.map: cannot read the map: it is a character device")


def test_a_gzip_bomb_is_refused_while_it_is_decompressed(tmp_path: Path) -> None:
    """1 GiB of spaces in 1 MB of gzip: decompressed no further than the 256 MiB a replay may have."""
    bomb = tmp_path / "bomb.jsonl.gz"
    with gzip.open(bomb, "wb", compresslevel=9) as out:
        out.write(b'{"format": "gridarena-replay", "version": 1, "game": "isolation"}\n')
        for _ in range(1024):
            out.write(b" " * (1 << 20))
    assert bomb.stat().st_size < 2 << 20
    started = time.monotonic()
    done = attack("replay", str(bomb), cap=1024**3, timeout=60)
    assert done.returncode == 1, done.stderr
    one_line(
        done.stderr,
        "bomb.jsonl.gz: the replay is larger once decompressed: a replay may have at most 256 MiB",
    )
    assert time.monotonic() - started < 30


def test_a_file_past_its_kind_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    huge = tmp_path / "huge.map"
    with open(huge, "wb") as out:  # sparse: 300 MB that take no disk
        out.truncate(300 * 10**6)
    done = attack("reversixt", "mapinfo", str(huge), cap=1024**3, timeout=30)
    assert done.returncode == 1, done.stderr
    one_line(done.stderr, "huge.map: the map is 286.1 MiB: a map may have at most 64 MiB")


@pytest.mark.parametrize("path", ["/proc/self/mem", "/proc/self/pagemap", "/proc/self/environ", "/proc/kmsg"])
def test_proc_files_are_one_line(path: str) -> None:
    if not os.path.exists(path):
        pytest.skip(f"{path} does not exist here")
    done = attack("reversixt", "mapinfo", path, cap=1024**3, timeout=30)
    assert done.returncode == 1, done.stderr
    one_line(done.stderr, path)


FIVE_THOUSAND = "9" * 5000


@pytest.mark.parametrize(
    "name,content,argv,words",
    [
        ("case.in", f"{FIVE_THOUSAND} 1\n1 2 3\n", ["puzzle", "solve"], "case.in:1: a number of 5000 digits"),
        ("board.txt", f"1 2 3 4 5 6 7 {FIVE_THOUSAND} 0\n", ["puzzle", "solve"], "a number of 5000 digits"),
        ("m.map", f"2\n0\n{FIVE_THOUSAND} 0\n2 2\n1 2\n0 0\n", ["reversixt", "mapinfo"], "m.map:3:1"),
        (
            "r.jsonl",
            '{"format": "gridarena-replay", "version": 1, "seed": ' + FIVE_THOUSAND + "}\n",
            ["replay"],
            "r.jsonl:1",
        ),
        (
            "p.toml",
            f'[[player]]\nspec = "random"\nx = {FIVE_THOUSAND}\n',
            ["play", "isolation", "--players-file"],
            "p.toml",
        ),
        (
            "s.json",
            '{"width": ' + FIVE_THOUSAND + "}",
            ["search", "isolation", "--depth", "1", "--state"],
            "s.json",
        ),
    ],
)
def test_a_5000_digit_number_in_a_file_is_one_line(
    tmp_path: Path, name: str, content: str, argv: list[str], words: str
) -> None:
    path = tmp_path / name
    path.write_text(content)
    done = attack(*argv, str(path), timeout=120)
    assert done.returncode == 1, done.stderr
    one_line(done.stderr, words)


def test_binary_junk_in_every_reader_is_one_line(tmp_path: Path) -> None:
    junk = tmp_path / "junk"
    junk.write_bytes(bytes(range(256)) * 64 + b"\x1f\x8b" + os.urandom(512))
    for argv in (["replay"], ["reversixt", "mapinfo"], ["puzzle", "solve"], ["results", "--db"]):
        done = attack(*argv, str(junk), timeout=60)
        assert done.returncode == 1, (argv, done.stderr)
        one_line(done.stderr, str(junk))


def test_a_partition_whose_tables_exceed_the_bound_is_refused_before_allocating(tmp_path: Path) -> None:
    """``--partition 15`` on 4x4 asked for 19 TiB; the bound is stated: 16 GiB a table's build."""
    case = tmp_path / "fifteen.txt"
    case.write_text("1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15\n")
    done = attack("puzzle", "solve", "--algo", "pdb", "--partition", "15", "--pdb", str(tmp_path), str(case))
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines()[-1].endswith(
        "a pattern of 15 tiles on this 4x4 board needs 23.79 TiB to build, more than the 16 GiB allowed: "
        "use smaller patterns (e.g. 7-8 on 4x4, 6-6-6-6 on 5x5)"
    ), done.stderr


# -- issue 31, item 10: every option checked for its range ---------------------------------------

OFFENDERS = [
    ["play", "isolation", "--players", "random,random", "--grace", "nan"],
    ["play", "isolation", "--players", "random,random", "--max-plies", "0"],
    ["play", "isolation", "--players", "random,random", "--max-plies", "-1"],
    ["tournament", "isolation", "--players", "random,random", "--grace", "inf"],
    ["tournament", "isolation", "--players", "random,random", "--max-plies", "0"],
    ["serve", "--poll", "0"],
    ["serve", "--poll", "-1"],
    ["serve", "--poll", "nan"],
    ["serve", "--poll", "inf"],
    ["puzzle", "solve", "--time", "nan", "x.in"],
    ["puzzle", "solve", "--time", "-1", "x.in"],
    ["puzzle", "solve", "--max-nodes", "-1", "x.in"],
    ["puzzle", "solve", "--memory", "0", "x.in"],
    ["puzzle", "solve", "--memory", "100T", "x.in"],
    ["reversixt", "server", "--map", "othello8", "--time", "nan"],
    ["reversixt", "server", "--map", "othello8", "--time", "inf"],
    ["reversixt", "server", "--map", "othello8", "--wait", "nan"],
    ["reversixt", "client", "--wait", "nan"],
    ["reversixt", "client", "--fallback-time", "0"],
    ["iceandfire", "match", "--p1", "best", "--p2", "best", "--grace-ms", "nan"],
    ["stats", "--wld", "1", "-1", "3"],
    ["play", "isolation", "--players", "random,random", "--seed", "9" * 30],
    ["check", "isolation", "--games", "0"],
    ["search", "isolation", "--time", "-0.5"],
]


@pytest.mark.parametrize("argv", OFFENDERS, ids=[" ".join(a)[:60] for a in OFFENDERS])
def test_an_option_out_of_its_range_is_one_line_and_exit_1(argv: list[str]) -> None:
    done = attack(*argv, timeout=60)
    assert done.returncode == 1, (done.returncode, done.stderr[-500:])
    option = next(
        word for word in reversed(argv) if word.startswith("--") and argv.index(word) < len(argv) - 1
    )
    one_line(done.stderr, f"argument {option}: must be")


# -- issue 31, item 10: a closed output pipe -------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["results"],
        ["results", "--json"],
        ["games"],
        ["stats", "--wld", "10", "5", "3"],
        ["reversixt", "mapinfo", "sampler"],
        ["play", "isolation(width=4,height=4)", "--players", "random,random", "--seed", "1", "--quiet"],
    ],
    ids=lambda argv: " ".join(argv[:2]),
)
def test_a_closed_output_ends_the_command_quietly(tmp_path: Path, argv: list[str]) -> None:
    """``gridarena results | head -1``: the reader went away; no "internal error: BrokenPipeError"."""
    db = tmp_path / "r.sqlite"
    assert main(["tournament", "isolation(width=4,height=4)", "--players", "greedy,random", "--games", "2",
                 "--seed", "1", "--db", str(db), "--backend", "inline", "--quiet"]) == 0  # fmt: skip
    read, write = os.pipe()
    os.close(read)  # a reader that is already gone: the first write fails with EPIPE
    try:
        done = subprocess.run(
            [sys.executable, "-m", "gridarena", *argv, *(["--db", str(db)] if argv[0] == "results" else [])],
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            check=False,
        )
    finally:
        os.close(write)
    assert done.returncode == 141, done.stderr
    assert "Error" not in done.stderr and "internal error" not in done.stderr, done.stderr


# -- found by the attacker's session of issue 31 ------------------------------------------------------


def test_a_configuration_cannot_make_the_builder_replace_a_fifo_or_a_device(
    tmp_path: Path, fifo: Path
) -> None:
    """A PDB configuration names its output files; naming /dev/zero replaced the device with a PDB (the
    builder writes a temporary file and renames it). Tested on a FIFO: the same refusal, no harm on main."""
    config = tmp_path / "pdb.conf"
    config.write_text(f"0 0 0\n0 0 0\n{fifo}\n1 2\n")
    done = attack("puzzle", "pdb", "build", str(config), "--pdb", str(tmp_path / "out"), timeout=60)
    assert done.returncode == 1, done.stderr
    one_line(
        done.stderr, f"{fifo}: cannot write the pattern database there: it is a FIFO, not a regular file"
    )
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_an_empty_case_name_is_not_the_current_folder(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("1 2 3 4 5 6 0 7 8\n")
    done = subprocess.run(
        [sys.executable, "-m", "gridarena", "puzzle", "solve", ""],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        check=False,
    )
    assert done.returncode == 1 and done.stdout == "", done.stdout
    one_line(done.stderr, ": cannot read the case: no such file")


@pytest.mark.parametrize("value", ["١٢", "１２", "9" * 50, "0x10", ""])
def test_numbers_on_the_command_line_are_ascii_and_short(
    value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """int() reads Arabic-Indic and full-width digits; the command line takes what it shows in --help."""
    assert main(["play", "isolation", "--players", "random,random", "--seed", value]) == 1
    one_line(capsys.readouterr().err, "argument --seed: must be a signed 64-bit integer")


@pytest.fixture
def full() -> str:
    """A device every write to fails with ENOSPC (what a full disk does)."""
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    return "/dev/full"


def test_outputs_that_cannot_be_written_are_one_line(tmp_path: Path, full: str) -> None:
    db = tmp_path / "r.sqlite"
    assert main(["tournament", "isolation(width=4,height=4)", "--players", "greedy,random", "--games", "2",
                 "--seed", "1", "--db", str(db), "--backend", "inline", "--quiet"]) == 0  # fmt: skip
    play = ["play", "isolation(width=4,height=4)", "--players", "random,random", "--seed", "1", "--quiet"]
    for argv, words in (
        ([*play, "--replay", full], "/dev/full: cannot write the replay: No space left on device"),
        ([*play, "--replay", str(tmp_path)], f"{tmp_path}: cannot write the replay: it is a directory"),
        (["results", "--db", str(db), "--csv", full], "/dev/full: cannot write the CSV file: No space left"),
        (
            ["results", "--db", str(db), "--csv", str(tmp_path)],
            "cannot write the CSV file: it is a directory",
        ),
    ):
        done = attack(*argv, timeout=120)
        assert done.returncode == 1, (argv, done.stderr)
        one_line(done.stderr, words)
