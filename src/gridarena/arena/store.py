"""The results database: one SQLite file, WAL journal, a versioned schema.

Only the coordinator writes. Each game is inserted when it finishes, in one transaction that also
advances its block's ``games_done``; the transaction of a block's last game marks the block ``done``.
Statistics read only ``done`` blocks, so a pair is never counted half. On resume the game rows of
unfinished blocks are deleted (one transaction) and those blocks are played again from their seeds;
the primary keys make a duplicate insert an error, never a silent double count.

Replays live beside the database: ``results.sqlite`` keeps them in ``results.replays/<tournament>/``.

>>> store = Store(":memory:")
>>> store.schema_version()
3
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import socket
import sqlite3
import subprocess
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from gridarena import __version__
from gridarena.core.errors import GridArenaError
from gridarena.core.files import check_regular, open_regular
from gridarena.core.types import JSON

SCHEMA_VERSION: Final = 3
DEFAULT_DB: Final = "gridarena.sqlite"
ENV_DB: Final = "GRIDARENA_DB"

# Seeds are unsigned 64-bit numbers; SQLite's INTEGER is signed and would turn larger ones into REAL
# (losing digits), so seed columns are TEXT.
#: Schema migrations: version -> statements that bring version - 1 to it, applied in one transaction.
MIGRATIONS: Final[dict[int, tuple[str, ...]]] = {
    1: (
        """CREATE TABLE tournaments (id INTEGER PRIMARY KEY, created TEXT, config TEXT, config_hash TEXT,
           master_seed TEXT, version TEXT, git_commit TEXT, host TEXT, status TEXT)""",
        """CREATE TABLE blocks (tournament INTEGER REFERENCES tournaments(id), block INTEGER, encounter TEXT,
           round INTEGER, seed TEXT, games INTEGER, games_done INTEGER, status TEXT, load_warning INTEGER,
           PRIMARY KEY (tournament, block), UNIQUE (tournament, encounter, round))""",
        """CREATE TABLE games (tournament INTEGER, block INTEGER, game INTEGER, seats TEXT, returns TEXT,
           ranks TEXT, termination TEXT, forfeit_seat INTEGER, detail TEXT, plies INTEGER, time_stats TEXT,
           host TEXT, replay TEXT, replay_sha256 TEXT, finished TEXT,
           PRIMARY KEY (tournament, block, game),
           FOREIGN KEY (tournament, block) REFERENCES blocks(tournament, block))""",
    ),
    # The final state's own figures (``GameState.result_info``: Pentocity's score and request counts).
    2: ("ALTER TABLE games ADD COLUMN info TEXT",),
    # Results of plain jobs (arena/jobs.py): a solve's openings, a tournament's analyses; ``batch`` names the run.
    3: (
        """CREATE TABLE jobs (batch TEXT, name TEXT, payload TEXT, result TEXT, host TEXT, finished TEXT,
           PRIMARY KEY (batch, name))""",
    ),
}


class StoreError(GridArenaError):
    """A database that cannot be used as asked; the message names the file and the problem."""


def database_path(db: str | os.PathLike[str] | None = None) -> Path:
    """``--db`` if given, else ``$GRIDARENA_DB``, else ``gridarena.sqlite`` in the working directory."""
    chosen = db if db is not None else os.environ.get(ENV_DB) or DEFAULT_DB
    return Path(chosen).absolute()


def config_hash(config: Mapping[str, JSON]) -> str:
    """SHA-256 of the configuration's canonical JSON: equal configurations, equal hashes.

    >>> config_hash({"b": 1, "a": [2]}) == config_hash({"a": [2], "b": 1})
    True
    """
    return hashlib.sha256(json.dumps(config, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


@functools.cache
def git_commit() -> str | None:
    """The commit of the working tree the package runs from, if it is a git checkout (asked once)."""
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=Path(__file__).parent,
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


@dataclass(frozen=True, slots=True)
class Tournament:
    """A tournament row: its configuration, master seed and status (``running``, ``done``, ``stopped``)."""

    id: int
    created: str
    config: dict[str, JSON]
    config_hash: str
    master_seed: int
    status: str
    host: str
    version: str


@dataclass(frozen=True, slots=True)
class BlockRow:
    """A block row: encounter text, round, seed, how many of its games are stored, and its status."""

    block: int
    encounter: str
    round: int
    seed: int
    games: int
    games_done: int
    status: str
    load_warning: bool


def _game_row(row: sqlite3.Row) -> dict[str, JSON]:
    record = dict(row)
    for key in ("seats", "returns", "ranks", "time_stats", "info"):
        record[key] = json.loads(record[key]) if record[key] is not None else None
    return record


SQLITE_MAGIC: Final = b"SQLite format 3\x00"
MAX_ROW_ID: Final = 2**63 - 1
"""SQLite's largest integer: an id beyond it names no row (and the driver would raise OverflowError)."""


def _cannot_write(path: Path | None, exc: sqlite3.Error) -> StoreError:
    """The one-line error of a write SQLite refused (a read-only file or folder, a full disk, a lock)."""
    message = f"{path or ':memory:'}: cannot write the database ({exc})"
    if "readonly" in str(exc):
        message += ": the file or its folder is read-only for this user; `gridarena serve` can still show it"
    return StoreError(message)


def _check_file(path: Path) -> None:
    """A path that exists must be an SQLite file (an empty file is fine: SQLite makes it one)."""
    if check_regular(path, "database") is None:  # a FIFO or a device would hang or feed SQLite for ever
        return
    with open_regular(path, "database") as f:
        try:
            head = f.read(len(SQLITE_MAGIC)) or b""
        except OSError as exc:
            raise StoreError(f"{path}: cannot read the database: {exc.strerror or exc}") from None
    if head and head != SQLITE_MAGIC:
        raise StoreError(f"{path}: not an SQLite database (gridarena keeps its results in SQLite files)")


class Store:
    """The tournament database (``":memory:"`` for tests)."""

    def __init__(
        self, path: str | os.PathLike[str], *, durable: bool = False, readonly: bool = False
    ) -> None:
        """Open (or create) the database; ``readonly`` opens an existing one with SQLite's ``mode=ro``
        (the web viewer's way: it never creates, migrates or writes), refusing a missing file."""
        self.path = Path(path) if str(path) != ":memory:" else None
        self.durable = durable
        if self.path is not None:
            _check_file(self.path)
            if readonly and not self.path.is_file():
                raise StoreError(f"{self.path}: no such database")
            if not readonly:
                self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            if readonly and self.path is not None:
                uri = f"{self.path.absolute().as_uri()}?mode=ro"
                self.db = sqlite3.connect(
                    uri, uri=True, isolation_level=None, timeout=30.0, check_same_thread=False
                )
            else:
                self.db = sqlite3.connect(str(path), isolation_level=None, timeout=30.0)
        except sqlite3.Error as exc:
            raise StoreError(f"{path}: cannot open the database ({exc})") from None
        try:
            self.db.row_factory = sqlite3.Row
            self._check_foreign()  # before WAL mode, which would rewrite the header of a stranger's file
            if readonly:
                self._check_readable()
                return
            self.db.execute("PRAGMA journal_mode=WAL")
            # NORMAL in WAL mode: a committed game survives a killed process; FULL also survives power loss.
            self.db.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
            self.db.execute("PRAGMA foreign_keys=ON")
            self._migrate()
        except sqlite3.OperationalError as exc:  # a read-only file or folder, a full disk, a lock
            self.db.close()
            raise _cannot_write(self.path, exc) from None
        except sqlite3.DatabaseError as exc:  # a damaged file passes the header check and fails here
            self.db.close()
            raise StoreError(f"{path}: not a usable gridarena database ({exc})") from None
        except StoreError:
            self.db.close()
            raise

    def close(self) -> None:
        """Close the connection."""
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """BEGIN IMMEDIATE ... COMMIT, rolled back on any error; a write SQLite refuses is a StoreError."""
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise _cannot_write(self.path, exc) from None
        try:
            yield self.db
        except BaseException as exc:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            if isinstance(exc, sqlite3.OperationalError):
                raise _cannot_write(self.path, exc) from None
            raise
        try:
            self.db.execute("COMMIT")
        except sqlite3.OperationalError as exc:
            self.db.execute("ROLLBACK")
            raise _cannot_write(self.path, exc) from None

    def schema_version(self) -> int:
        """``PRAGMA user_version``: the schema version of the file."""
        return int(self.db.execute("PRAGMA user_version").fetchone()[0])

    def _check_foreign(self) -> None:
        """Refuse an SQLite database of something else rather than add our tables to it."""
        if self.schema_version() != 0:
            return
        tables = [row[0] for row in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        if tables:
            shown = ", ".join(sorted(tables)[:5]) + (", ..." if len(tables) > 5 else "")
            raise StoreError(
                f"{self.path}: an SQLite database of something else (tables {shown}), not a gridarena "
                "results database; name a new file"
            )

    def _check_readable(self) -> None:
        """A read-only open needs our schema as it is now: it cannot create or migrate one."""
        version = self.schema_version()
        if version != SCHEMA_VERSION:
            what = "no gridarena tables (an empty database)" if version == 0 else f"schema version {version}"
            raise StoreError(
                f"{self.path}: {what}; this gridarena reads version {SCHEMA_VERSION} "
                "(`gridarena results --db FILE` brings an older gridarena database up to date)"
            )

    def _migrate(self) -> None:
        version = self.schema_version()
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path}: database schema version {version} is newer than this gridarena's "
                f"{SCHEMA_VERSION}; upgrade gridarena to read it"
            )
        if version == SCHEMA_VERSION:
            return
        with self.transaction() as db:
            for target in range(version + 1, SCHEMA_VERSION + 1):
                for statement in MIGRATIONS[target]:
                    db.execute(statement)
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    # -- tournaments ------------------------------------------------------------------------------

    def replay_dir(self, tournament: int) -> Path:
        """``<db stem>.replays/<tournament>/`` beside the database file."""
        base = self.path if self.path is not None else Path(DEFAULT_DB).absolute()
        return base.with_name(f"{base.stem}.replays") / str(tournament)

    def create_tournament(
        self, config: Mapping[str, JSON], master_seed: int, blocks: Iterable[tuple[int, str, int, int, int]]
    ) -> int:
        """Insert a tournament and all its scheduled blocks ``(block, encounter, round, seed, games)``."""
        now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        with self.transaction() as db:
            cursor = db.execute(
                "INSERT INTO tournaments (created, config, config_hash, master_seed, version, git_commit, host,"
                " status) VALUES (?, ?, ?, ?, ?, ?, ?, 'running')",
                (
                    now,
                    json.dumps(config, sort_keys=True),
                    config_hash(config),
                    str(master_seed),
                    __version__,
                    git_commit(),
                    socket.gethostname(),
                ),
            )
            tournament = int(cursor.lastrowid or 0)
            db.executemany(
                "INSERT INTO blocks (tournament, block, encounter, round, seed, games, games_done, status,"
                " load_warning) VALUES (?, ?, ?, ?, ?, ?, 0, 'pending', 0)",
                [(tournament, b, enc, r, str(seed), games) for b, enc, r, seed, games in blocks],
            )
        return tournament

    def _tournament(self, row: sqlite3.Row | None, what: str) -> Tournament:
        if row is None:
            raise StoreError(f"{self.path}: no tournament {what}")
        return Tournament(
            int(row["id"]),
            row["created"],
            json.loads(row["config"]),
            row["config_hash"],
            int(row["master_seed"]),
            row["status"],
            row["host"],
            row["version"],
        )

    def tournament(self, tournament: int | None = None) -> Tournament:
        """One tournament by id, or the latest one."""
        if tournament is None:
            row = self.db.execute("SELECT * FROM tournaments ORDER BY id DESC LIMIT 1").fetchone()
            return self._tournament(row, "in this database")
        if not 0 <= tournament <= MAX_ROW_ID:
            return self._tournament(None, f"with id {tournament}")
        row = self.db.execute("SELECT * FROM tournaments WHERE id = ?", (tournament,)).fetchone()
        return self._tournament(row, f"with id {tournament}")

    def tournaments(self) -> list[Tournament]:
        """Every tournament, oldest first."""
        rows = self.db.execute("SELECT * FROM tournaments ORDER BY id").fetchall()
        return [self._tournament(row, "") for row in rows]

    def unfinished(self, hash_: str) -> Tournament | None:
        """The latest tournament with this configuration hash that has not finished."""
        row = self.db.execute(
            "SELECT * FROM tournaments WHERE config_hash = ? AND status != 'done' ORDER BY id DESC LIMIT 1",
            (hash_,),
        ).fetchone()
        return None if row is None else self._tournament(row, "")

    def set_status(self, tournament: int, status: str) -> None:
        """Set a tournament's status."""
        with self.transaction() as db:
            db.execute("UPDATE tournaments SET status = ? WHERE id = ?", (status, tournament))

    # -- blocks and games -------------------------------------------------------------------------

    def blocks(self, tournament: int) -> list[BlockRow]:
        """Every block of a tournament, in play order."""
        rows = self.db.execute(
            "SELECT * FROM blocks WHERE tournament = ? ORDER BY block", (tournament,)
        ).fetchall()
        return [
            BlockRow(
                int(r["block"]),
                r["encounter"],
                int(r["round"]),
                int(r["seed"]),
                int(r["games"]),
                int(r["games_done"]),
                r["status"],
                bool(r["load_warning"]),
            )
            for r in rows
        ]

    def reset_unfinished(self, tournament: int) -> list[int]:
        """Delete the games of blocks that are not ``done`` (one transaction); return those blocks."""
        with self.transaction() as db:
            db.execute(
                "DELETE FROM games WHERE tournament = ? AND block IN "
                "(SELECT block FROM blocks WHERE tournament = ? AND status != 'done')",
                (tournament, tournament),
            )
            db.execute(
                "UPDATE blocks SET games_done = 0, status = 'pending' WHERE tournament = ? AND status != 'done'",
                (tournament,),
            )
            db.execute("UPDATE tournaments SET status = 'running' WHERE id = ?", (tournament,))
        return [b.block for b in self.blocks(tournament) if b.status != "done"]

    def record_game(self, result: Mapping[str, JSON], replay_root: Path | None = None) -> bool:
        """Insert one finished game and advance its block; True when that completed the block."""
        replay = result.get("replay")
        if replay is not None and replay_root is not None:
            replay = os.path.relpath(str(replay), replay_root)
        row = (
            result["tournament"],
            result["block"],
            result["game"],
            json.dumps(result["seats"]),
            json.dumps(result["returns"]),
            json.dumps(result["ranks"]),
            result["termination"],
            result["forfeit_seat"],
            result["detail"],
            result["plies"],
            json.dumps(result.get("time_stats")),
            result.get("host"),
            replay,
            result.get("replay_sha256"),
            result.get("finished"),
            json.dumps(result.get("info") or {}),
        )
        key = (result["tournament"], result["block"])
        with self.transaction() as db:
            try:
                db.execute(f"INSERT INTO games VALUES ({', '.join('?' * len(row))})", row)
            except sqlite3.IntegrityError as exc:
                raise StoreError(
                    f"{self.path}: game {result['game']} of block {result['block']} is already stored ({exc})"
                ) from None
            db.execute(
                "UPDATE blocks SET games_done = games_done + 1, status = CASE WHEN games_done + 1 >= games "
                "THEN 'done' ELSE 'running' END WHERE tournament = ? AND block = ?",
                key,
            )
            status = db.execute(
                "SELECT status FROM blocks WHERE tournament = ? AND block = ?", key
            ).fetchone()
        return bool(status is not None and status[0] == "done")

    def mark_aborted(self, tournament: int, block: int) -> None:
        """Flag a block the arena could not finish (not scored; played again on resume)."""
        with self.transaction() as db:
            db.execute(
                "UPDATE blocks SET status = 'aborted' WHERE tournament = ? AND block = ?", (tournament, block)
            )

    def mark_load_warning(self, tournament: int, blocks: Sequence[int]) -> None:
        """Flag blocks played while the machine was overloaded."""
        with self.transaction() as db:
            db.executemany(
                "UPDATE blocks SET load_warning = 1 WHERE tournament = ? AND block = ?",
                [(tournament, b) for b in blocks],
            )

    # -- jobs -------------------------------------------------------------------------------------

    def record_job(self, batch: str, name: str, payload: JSON, result: JSON, host: str) -> None:
        """Store a finished job's result (a job already stored is kept: the first result stands)."""
        finished = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        row = (batch, name, json.dumps(payload), json.dumps(result), host, finished)
        with self.transaction() as db:
            db.execute("INSERT OR IGNORE INTO jobs VALUES (?, ?, ?, ?, ?, ?)", row)

    def job_results(self, batch: str) -> dict[str, Any]:
        """The stored results of a batch of jobs by name, in the order they were stored."""
        rows = self.db.execute("SELECT name, result FROM jobs WHERE batch = ? ORDER BY rowid", (batch,))
        return {name: json.loads(result) for name, result in rows}

    def job_names(self, batch: str) -> list[str]:
        """The names of a batch's stored jobs."""
        return [row[0] for row in self.db.execute("SELECT name FROM jobs WHERE batch = ?", (batch,))]

    def job_result(self, batch: str, name: str) -> Any:
        """One stored job's result, or None."""
        row = self.db.execute(
            "SELECT result FROM jobs WHERE batch = ? AND name = ?", (batch, name)
        ).fetchone()
        return None if row is None else json.loads(row[0])

    def games(self, tournament: int, *, done_only: bool = True) -> list[dict[str, Any]]:
        """Game rows (JSON columns decoded), of ``done`` blocks only unless told otherwise."""
        query = "SELECT g.*, b.encounter, b.round FROM games g JOIN blocks b USING (tournament, block) WHERE g.tournament = ?"
        if done_only:
            query += " AND b.status = 'done'"
        rows = self.db.execute(query + " ORDER BY g.block, g.game", (tournament,)).fetchall()
        return [_game_row(row) for row in rows]

    def game_replay_path(self, tournament: int, block: int, game: int) -> str | None:
        """The stored replay path of one game (relative to the database's folder); None if no such game.

        An empty string means the game kept no replay.
        """
        row = self.db.execute(
            "SELECT replay FROM games WHERE tournament = ? AND block = ? AND game = ?",
            (tournament, block, game),
        ).fetchone()
        return None if row is None else str(row["replay"] or "")

    def game_counts(self) -> dict[int, int]:
        """Stored games per tournament id."""
        return dict(self.db.execute("SELECT tournament, COUNT(*) FROM games GROUP BY tournament").fetchall())

    def progress(self, tournament: int) -> tuple[int, str | None]:
        """(games stored, when the last one finished): what changes while a tournament runs."""
        row = self.db.execute(
            "SELECT COUNT(*), MAX(finished) FROM games WHERE tournament = ?", (tournament,)
        ).fetchone()
        return int(row[0]), row[1]
