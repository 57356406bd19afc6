"""Play a tournament: round-robin or gauntlet, paired seats, stored game by game in SQLite.

  gridarena tournament isolation --players greedy,random --games 20 --seed 7
  gridarena tournament isolation --players 'alphabeta(depth=3)',greedy,random --time 0.15 --json
  gridarena tournament isolation --players greedy,random --format gauntlet --candidates 1
  gridarena tournament isolation --resume 3 --db results.sqlite      # continue a killed tournament

Two-seat games are played in pairs (the same seed with the seats swapped), k-seat games in rotation sets,
single-player games as runs over seeds. The database is --db, else $GRIDARENA_DB, else gridarena.sqlite
here; replays go beside it in <db stem>.replays/. A killed tournament continues with --resume.
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from collections.abc import Callable
from contextlib import ExitStack
from types import FrameType
from typing import Any

from rich.console import Group
from rich.live import Live
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.progress import Progress as Bar
from rich.table import Table

from gridarena.arena.backends import ALIASES, BACKENDS, MissingExtraError, make_backend
from gridarena.arena.players import players_from_file
from gridarena.arena.report import build_report
from gridarena.arena.schedule import FORMATS
from gridarena.arena.seeds import parse_seed_list
from gridarena.arena.store import Store, database_path
from gridarena.arena.text import STANDINGS_COLUMNS, format_text, standing_cells
from gridarena.arena.tournament import (
    Progress,
    TournamentConfig,
    TournamentError,
    check_concurrency,
    default_concurrency,
    run_tournament,
    validate_config,
)
from gridarena.cli.options import CONCURRENCY, GRACE, ROW_ID, SEED, count
from gridarena.cli.output import err, print_json, progress_enabled, warn
from gridarena.cli.progress import ticker
from gridarena.core.clock import DEFAULT_GRACE
from gridarena.core.gameclock import CLOCK_KINDS, TimeSpec
from gridarena.core.specs import split_players


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of ``gridarena tournament``."""
    parser.add_argument("game", nargs="?", help="game name or spec (not needed with --resume)")
    parser.add_argument("--players", help="comma-separated bot specs; name=... sets a display name")
    parser.add_argument(
        "--games", type=count(), help="games per encounter, rounded up to whole blocks (default 2)"
    )
    parser.add_argument("--time", help="time control: 0.15, 150ms, 1/0.05, account:2, total:300, 60+0.5")
    parser.add_argument("--clock", choices=CLOCK_KINDS, default="wall", help="what the time control measures")
    parser.add_argument("--grace", type=GRACE, default=DEFAULT_GRACE, help="seconds an answer may be late")
    parser.add_argument("--seed", type=SEED, help="master seed (drawn, printed and stored when absent)")
    parser.add_argument(
        "--seeds",
        help="the games' own seeds instead of --games, one round each: 869,84,400 (single-player runs), "
        "1,2,3 (each encounter plays each seed, seats swapped: CodinGame's seeds for iceandfire)",
    )
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="round-robin",
        help="round-robin (default: every group of players meets) or gauntlet (candidates against the rest)",
    )
    parser.add_argument(
        "--candidates", type=count(), default=1, help="gauntlet: the first K players are candidates"
    )
    parser.add_argument("--no-swap", action="store_true", help="do not replay pairs with the seats swapped")
    parser.add_argument(
        "--all-orders", action="store_true", help="k seats: every seating, not only rotations"
    )
    parser.add_argument(
        "--max-groups", type=count(), default=200, help="k seats: above this, seeded random groups"
    )
    parser.add_argument("--max-plies", type=count(), help="adjudicate a draw after this many plies")
    parser.add_argument("--opening", help="opening of each block, e.g. 'random(plies=2)'")
    parser.add_argument("--sprt", help="elo0,elo1,alpha,beta: stop once the test decides (two players)")
    parser.add_argument(
        "--concurrency", type=CONCURRENCY, help="games at once (default: cores, one less if timed)"
    )
    parser.add_argument("--force-concurrency", action="store_true", help="allow a timed run above the cores")
    parser.add_argument(
        "--backend",
        choices=[*BACKENDS, *ALIASES],
        default="process",
        help="where games run: process (default: a pool of --concurrency processes), inline, or ray",
    )
    parser.add_argument("--ray-address", help="Ray cluster to join (default: $RAY_ADDRESS, else a local one)")
    parser.add_argument("--db", help="database file (default: $GRIDARENA_DB, else ./gridarena.sqlite)")
    parser.add_argument("--durable", action="store_true", help="synchronous=FULL: survive a power loss too")
    parser.add_argument(
        "--resume", type=ROW_ID, nargs="?", const=-1, metavar="ID", help="continue a tournament"
    )
    parser.add_argument(
        "--new", action="store_true", help="start even if the same configuration is unfinished"
    )
    parser.add_argument("--strict", action="store_true", help="exit 1 if any game was forfeited")
    parser.add_argument("--exclude-forfeits", action="store_true", help="also report without forfeited games")
    parser.add_argument(
        "--players-file", help="TOML file of [[player]] tables (name, cmd, cwd, env, or spec)"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress display")
    parser.add_argument("--json", action="store_true", help="print the final report as JSON on stdout")


def _config(args: argparse.Namespace) -> TournamentConfig | None:
    if args.resume is not None and not (args.players or args.players_file):
        return None
    players = split_players(args.players) if args.players else []
    if args.players_file:
        players += players_from_file(args.players_file)
    if not args.game or not players:
        raise TournamentError("give a GAME and --players or --players-file (or --resume ID)")
    if args.seeds and args.games is not None:
        raise TournamentError("give --games or --seeds, not both: with --seeds every seed is one round")
    return TournamentConfig(
        game=args.game,
        players=tuple(players),
        games=2 if args.games is None else args.games,
        seed=args.seed,
        format=args.format,
        candidates=args.candidates,
        time=None if args.time is None else TimeSpec.parse(args.time).to_text(),
        clock=args.clock,
        grace=args.grace,
        swap=not args.no_swap,
        all_orders=args.all_orders,
        max_groups=args.max_groups,
        max_plies=args.max_plies,
        opening=args.opening,
        run_seeds=parse_seed_list(args.seeds) if args.seeds else None,
        sprt=args.sprt,
        forced_concurrency=args.force_concurrency,
    )


class _Interrupts:
    """First Ctrl-C: stop scheduling and let the games in flight finish; a second one, or SIGTERM: stop now."""

    def __init__(self) -> None:
        self.stopping = False
        self.previous: list[Any] = []

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.stopping or signum == signal.SIGTERM:
            raise KeyboardInterrupt
        self.stopping = True
        print("\nstopping: the games in flight finish; Ctrl-C again to stop at once", file=sys.stderr)

    def __enter__(self) -> _Interrupts:
        for sig in (signal.SIGINT, signal.SIGTERM):
            self.previous.append(signal.signal(sig, self._handle))
        return self

    def __exit__(self, *exc: object) -> None:
        for sig, handler in zip((signal.SIGINT, signal.SIGTERM), self.previous, strict=True):
            signal.signal(sig, handler)


def _live_table(store: Store, tournament: int) -> Table:
    report = build_report(store, tournament)
    table = Table(title=f"tournament {tournament}", title_style="bold")
    for column in STANDINGS_COLUMNS:
        table.add_column(column, justify="left" if column == "player" else "right")
    for r in report["standings"]:
        table.add_row(*standing_cells(r))
    return table


class _Display:
    """A rich progress bar with games per second and ETA, and a live standings table, on stderr."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.bar = Bar(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]} games/s"),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=err,
        )
        self.task = self.bar.add_task("games", total=None, rate="0.0")
        self.live = Live(Group(self.bar), console=err, refresh_per_second=4)
        self.started = time.monotonic()
        self.refreshed = 0.0
        self.last: Progress | None = None

    def __call__(self, progress: Progress) -> None:
        rate = progress.games_done / max(1e-9, time.monotonic() - self.started)
        self.bar.update(
            self.task, total=progress.games_total, completed=progress.games_done, rate=f"{rate:.1f}"
        )
        self.last = progress
        # Rebuilding the table refits the ratings: once a second is plenty for a live view.
        if progress.blocks_done and time.monotonic() - self.refreshed > 1.0:
            self.refresh()

    def refresh(self) -> None:
        """Redraw the standings from the database (also once at the end, so the last view is final)."""
        if self.last is not None and self.last.blocks_done:
            self.refreshed = time.monotonic()
            self.live.update(Group(self.bar, _live_table(self.store, self.last.tournament)))


def run(args: argparse.Namespace) -> int:
    """Play (or resume) the tournament; print the report; 0 if it completed, 130 if interrupted."""
    config = _config(args)
    if config is not None:  # a refused player fails here, before the database file is made
        validate_config(config)
    path = database_path(args.db)
    store = Store(path, durable=args.durable)
    if config is not None:
        timed = config.time is not None
    else:  # a resume: the stored tournament's clock decides, or a timed one would run a game per core
        timed = store.tournament(None if args.resume < 0 else args.resume).config.get("time") is not None
    concurrency = args.concurrency or default_concurrency(timed)
    check_concurrency(concurrency, timed, args.force_concurrency)
    display = _Display(store) if progress_enabled(args.quiet or args.json) else None
    try:
        backend = make_backend(args.backend, concurrency, args.ray_address)
    except MissingExtraError as exc:
        print(f"gridarena tournament: error: {exc}", file=sys.stderr)
        return 2
    interrupts = _Interrupts()
    stack = ExitStack()
    progress: Callable[[Progress], None] | None = display
    if display is None and not (args.quiet or args.json):  # no terminal: a line every few seconds
        lines = stack.enter_context(ticker(False, "games"))

        def progress(state: Progress) -> None:
            detail = f"{state.forfeits} forfeited" if state.forfeits else ""
            lines.update(state.games_done, state.games_total, detail)

    try:
        with stack, interrupts:
            if display is not None:
                display.live.start()
            try:
                outcome = run_tournament(
                    config,
                    store,
                    backend,
                    resume=args.resume,
                    new=args.new,
                    progress=progress,
                    stop=lambda: interrupts.stopping,
                    exclude_forfeits=args.exclude_forfeits,
                    warn=warn,
                )
            finally:
                if display is not None:
                    display.refresh()
                    display.live.stop()
    finally:
        backend.close()
    report = outcome.report
    if args.json:
        print_json(report)
    else:
        print(format_text(report))
        if not args.quiet:
            err.print(f"replays: {report['replays']}", markup=False)
    if interrupts.stopping and outcome.status != "done":
        err.print(
            f"stopped; continue with: gridarena tournament --resume {outcome.tournament} --db {path}",
            markup=False,
        )
        return 130
    forfeited = sum(sum(r.values()) for r in report["forfeits"].values())
    return 1 if args.strict and forfeited else 0
