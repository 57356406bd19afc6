"""Knight Isolation tools around the 2017 AIND project, played by the arena.

``gridarena isolation aind-tournament [--agents game_agent.py] [--matches 5]`` reproduces
tournament.py (the test agents against the seven CPU agents, random openings shared by all test
agents and played twice with the seats swapped, the same table) and adds Wilson 95% intervals and
per-agent timeout losses. It is the arena's gauntlet (``gridarena tournament isolation --format
gauntlet --opening 'random(plies=2)' ...``), stored in --db (default: in memory).
``gridarena isolation pairs --agents best ab_improved --pairs 200`` plays fair pairs head to head;
``--agents best_nodes ab_improved_depth --time-limit 60000`` plays the load-independent twins (best
with a node budget, AB_Improved's fixed-depth proxy), whose result no machine load can change.
Agents are bot specs of the registry (``gridarena games`` lists them).

``gridarena isolation solve [--board 7x7] [--db FILE]`` proves who wins from the empty board: each
2-ply opening (up to the board's symmetries) is a job on the arena's backends, stored in the
database as it is solved, so a killed run goes on where it stopped when started again;
``--all`` solves every opening, not only the proof; ``--show [--json]`` prints what is proved so
far (the package's solution while the database decides nothing: ``solution-7x7.json``);
``--write FILE`` writes the solution file.
"""

from __future__ import annotations

import argparse
import difflib
import itertools
import json
import random
import shlex
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from gridarena.arena.backends import ALIASES, BACKENDS, Backend, make_backend
from gridarena.arena.jobs import Job, run_jobs
from gridarena.arena.store import Store, database_path
from gridarena.arena.tournament import check_concurrency, default_concurrency
from gridarena.cli.aind import Arena, ProgressCount, play_pairs, play_tournament
from gridarena.cli.help import examples
from gridarena.cli.jobs import Report, StopOnTerminate, add_job_options, job_backend, job_progress
from gridarena.cli.options import CONCURRENCY, GRACE, SEED, count, milliseconds
from gridarena.cli.progress import ticker
from gridarena.core.clock import DEFAULT_GRACE
from gridarena.core.errors import GridArenaError
from gridarena.core.files import write_failure
from gridarena.core.gameclock import CLOCK_KINDS
from gridarena.core.registry import available_bots
from gridarena.core.specs import parse_spec
from gridarena.core.types import JSON
from gridarena.games.isolation.aind import TIME_LIMIT_MILLIS
from gridarena.games.isolation.aind.tournament import (
    NUM_MATCHES,
    borrowed_players,
    candidates,
    cpu_agents,
)
from gridarena.games.isolation.fast import MAX_CELLS, Engine
from gridarena.games.isolation.solve import (
    BOOK_PLIES,
    SOLVE_PATH_BUDGET,
    SOLVE_PATH_MAX,
    SOLVE_TT_BITS,
    OpeningResult,
    ProofPlan,
    Solution,
    book_lines,
    cell_text,
    job_name,
    shipped_solution,
    solution_path,
)

Handler = Callable[[argparse.Namespace], int]

DESCRIPTION = """
This script evaluates the performance of the custom_score evaluation function
against the `ID_Improved` agent baseline. `ID_CustomScore` is an agent using
Iterative Deepening and the custom_score function defined in game_agent.py.
"""


class UsageError(GridArenaError, ValueError):
    """A command-line value that is out of range or unknown."""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the ``aind-tournament`` and ``pairs`` subcommands."""
    commands = parser.add_subparsers(dest="isolation_command", metavar="COMMAND", required=True)
    tour = commands.add_parser(
        "aind-tournament", help="AIND's tournament.py with 95%% intervals", description=__doc__
    )
    tour.add_argument(
        "--agents",
        metavar="FILE.py",
        help="an AIND game_agent.py; custom_score is enough: gridarena's players stand in for missing classes "
        "(default: gridarena's agents)",
    )
    tour.add_argument(
        "--matches", type=count(high=10**6), default=NUM_MATCHES, help="NUM_MATCHES (default 5)"
    )
    tour.add_argument("--extra", nargs="*", default=[], metavar="BOT", help="more test agents, e.g. best")
    _common(tour)
    tour.set_defaults(isolation_handler=run_tournament)
    pairs = commands.add_parser("pairs", help="fair pairs between two agents", description=__doc__)
    pairs.add_argument(
        "--agents", nargs=2, default=["best", "ab_improved"], metavar="BOT", help="two bot specs"
    )
    pairs.add_argument(
        "--pairs", type=count(high=10**6), default=50, help="random openings, each played twice (default 50)"
    )
    _common(pairs)
    pairs.set_defaults(isolation_handler=run_pairs)
    solve = commands.add_parser(
        "solve",
        help="prove who wins from the empty board (resumable)",
        description=__doc__,
        **examples(
            "gridarena isolation solve --board 5x5 --backend inline      # proves 5x5 in a second",
            "gridarena isolation solve --board 7x7 --all                 # every 7x7 opening: a few CPU minutes",
            "gridarena isolation solve --board 7x7 --show --json         # what is proved so far",
            "gridarena isolation solve --board 7x7 --all --write solution-7x7.json",
        ),
    )
    solve.add_argument("--board", default="7x7", help="WIDTHxHEIGHT (default 7x7)")
    solve.add_argument(
        "--db",
        default="isolation-solve.sqlite",
        help="where solved openings are kept (default isolation-solve.sqlite)",
    )
    solve.add_argument(
        "--all", action="store_true", help="solve every opening, not only those the proof needs"
    )
    solve.add_argument(
        "--show",
        action="store_true",
        help="print what is proved so far, solving nothing (the shipped solution while the database decides nothing)",
    )
    solve.add_argument("--write", metavar="FILE", help="write the solution file once the board is decided")
    solve.add_argument(
        "--book-plies",
        type=count(0, 128),
        default=BOOK_PLIES,
        help=f"--write: the winner's moves in its won lines below this ply go in the file (default {BOOK_PLIES})",
    )
    solve.add_argument(
        "--tt-bits",
        type=count(10, 30),
        default=SOLVE_TT_BITS,
        help="2^N table entries per worker, 16 bytes each (default 24: 256 MB)",
    )
    add_job_options(solve, "openings")
    solve.add_argument("--json", action="store_true", help="print the summary as JSON on stdout")
    solve.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    solve.set_defaults(isolation_handler=run_solve)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--seed", type=SEED, help="master seed of the openings and bots; drawn and printed if absent"
    )
    parser.add_argument(
        "--time-limit",
        type=milliseconds(above=0),
        default=TIME_LIMIT_MILLIS,
        help="ms per move (default 150)",
    )
    parser.add_argument("--clock", choices=CLOCK_KINDS, default="wall", help="what the time limit measures")
    parser.add_argument(
        "--grace", type=GRACE, default=DEFAULT_GRACE, help="seconds an answer may be late (AIND allowed none)"
    )
    parser.add_argument("--width", type=count(3, 11), default=7, help="board columns (default 7)")
    parser.add_argument("--height", type=count(3, 11), default=7, help="board rows (default 7)")
    parser.add_argument(
        "--db",
        help="store the games in this SQLite file, :memory: for none (default: $GRIDARENA_DB, else "
        "./gridarena.sqlite); gridarena serve --db FILE shows them",
    )
    parser.add_argument("--concurrency", type=CONCURRENCY, help="games at once (default: cores less one)")
    parser.add_argument("--force-concurrency", action="store_true", help="allow more games than cores")
    parser.add_argument(
        "--backend",
        choices=[*BACKENDS, *ALIASES],
        default="process",
        help="where games run: process (default: a pool of --concurrency processes), inline, or ray",
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON on stdout")
    parser.add_argument("--quiet", action="store_true", help="no progress display on stderr")


def run(args: argparse.Namespace) -> int:
    """Run the chosen ``isolation`` subcommand."""
    handler: Handler = args.isolation_handler
    return handler(args)


def _seed(args: argparse.Namespace) -> int:
    if args.seed is not None:
        return int(args.seed)
    seed = random.SystemRandom().randrange(2**31)
    print(f"seed: {seed}", file=sys.stderr)
    return seed


def _check(bots: list[str]) -> None:
    known = available_bots("isolation")
    for spec in bots:
        name = parse_spec(spec)[0]
        if name not in known:
            close = difflib.get_close_matches(name, known)
            hint = f"did you mean {', '.join(close)}?" if close else f"choose from {', '.join(known)}"
            raise UsageError(f"unknown agent {name!r}; {hint}")


def _arena(args: argparse.Namespace, on_progress: ProgressCount | None = None) -> Arena:
    concurrency = args.concurrency or default_concurrency(timed=True)
    check_concurrency(concurrency, True, args.force_concurrency)
    backend = make_backend(args.backend, concurrency)
    store = Store(_db(args))
    return Arena(
        store, backend, args.time_limit, args.clock, args.grace, args.width, args.height, on_progress
    )


def _db(args: argparse.Namespace) -> str | Path:
    return ":memory:" if args.db == ":memory:" else database_path(args.db)


def _name_the_database(args: argparse.Namespace) -> None:
    """The last words: where the games are and the command that shows them."""
    if args.quiet:
        return
    db = _db(args)
    if db == ":memory:":
        print("the games were kept in memory only (--db :memory:)", file=sys.stderr)
        return
    quoted = shlex.quote(str(db))
    print(f"games stored in {db}; see them with: gridarena serve --db {quoted}", file=sys.stderr)


def run_tournament(args: argparse.Namespace) -> int:
    """AIND's tournament; the table on stdout (or JSON with ``--json``, the table then on stderr).

    Each row is printed once its opponent's games are all played (they are played one opponent after
    another, as tournament.py did), with a progress display on stderr meanwhile.
    """
    _check(args.extra)
    seed = _seed(args)
    tests, cpu = candidates(args.agents, args.extra), cpu_agents(args.agents)
    borrowed = borrowed_players(args.agents) if args.agents else []
    if borrowed:
        print(
            f"{args.agents} has no {' or '.join(borrowed)}: gridarena's {', '.join(borrowed)} "
            "play with its scores",
            file=sys.stderr,
        )
    out = sys.stderr if args.json else sys.stdout
    games = 2 * args.matches * len(tests) * len(cpu)
    with ticker(args.quiet, "games", games) as tick:
        if not args.json:
            tick.row(DESCRIPTION, out)
            for line in ("*************************", "Playing Matches", "*************************"):
                tick.row(f"{line:^74}", out)
        arena = _arena(args, lambda done, total: tick.update(done, total))
        try:
            result = play_tournament(arena, tests, cpu, args.matches, seed, lambda row: tick.row(row, out))
        finally:
            arena.backend.close()
            arena.store.close()
    if args.json:
        print(json.dumps(result.to_json(), indent=2))
    else:
        print("\n".join(result.footer()), file=out)
    _name_the_database(args)
    return 0


def run_pairs(args: argparse.Namespace) -> int:
    """Fair pairs between two agents; a summary line (or JSON with ``--json``), progress on stderr."""
    _check(args.agents)
    seed = _seed(args)
    first = args.agents[0]
    with ticker(args.quiet, "games", 2 * args.pairs) as tick:
        arena = _arena(args)

        def progress(wins: int, games: int) -> None:
            tick.update(games, detail=f"{wins} won by {first}")

        try:
            result = play_pairs(arena, args.agents[0], args.agents[1], args.pairs, seed, progress)
        finally:
            arena.backend.close()
            arena.store.close()
    print(json.dumps(result.to_json(), indent=2) if args.json else result.summary())
    _name_the_database(args)
    return 0


def _board(text: str) -> tuple[int, int]:
    try:
        width, height = (int(x) for x in text.lower().split("x"))
    except ValueError:
        raise UsageError(f"--board {text!r}: expected WIDTHxHEIGHT, such as 7x7") from None
    if width < 2 or height < 2 or width * height > MAX_CELLS:
        raise UsageError(f"--board {text}: each side at least 2, at most {MAX_CELLS} cells")
    return width, height


def solve_batch(width: int, height: int) -> str:
    """The name under which a board's solved openings are stored."""
    return f"isolation-solve {width}x{height}"


def solve_openings(plan: ProofPlan, backend: Backend, store: Store, tt_bits: int, report: Report) -> None:
    """Solve openings on ``backend`` until the plan is done, each stored as it comes."""
    batch = solve_batch(plan.width, plan.height)
    busy: set[tuple[int, int]] = set()
    counter = itertools.count(1)

    def jobs() -> Iterator[Job]:
        while (opening := plan.next(busy)) is not None:
            busy.add(opening)
            payload: dict[str, JSON] = {"width": plan.width, "height": plan.height, "first": opening[0]}
            payload.update(reply=opening[1], tt_bits=tt_bits)
            yield Job("gridarena.games.isolation.solve:solve_job", job_name(*opening), payload, next(counter))

    def stored(job: Job, result: JSON) -> None:
        assert isinstance(result, dict)
        solved = OpeningResult.from_json(result)
        busy.discard((solved.first, solved.reply))
        plan.add(solved)
        decided = sum(1 for f in plan.firsts if plan.status(f) is not None)
        report(
            len(plan.results),
            f"{cell_text(solved.first, plan.width)} {cell_text(solved.reply, plan.width)}: "
            f"{('first', 'second')[solved.winner]} player wins ({solved.cpu:.1f} s CPU, {solved.nodes:,} nodes); "
            f"{len(plan.results)} solved, {decided} of {len(plan.firsts)} first moves decided",
        )

    while not plan.done():
        if run_jobs(backend, store, batch, jobs(), stored) == 0:
            break


def run_solve(args: argparse.Namespace) -> int:
    """Prove (or go on proving) the board; print what is proved; write the solution file if asked."""
    width, height = _board(args.board)
    if args.show and not args.write:
        return _show(args, width, height)
    store = Store(args.db)
    try:
        plan = _stored_plan(store, width, height, args.all)
        if not args.show and not plan.done():
            backend = job_backend(args)
            total = plan.total() if args.all else None
            try:
                with StopOnTerminate(), job_progress(args.quiet, "openings", total) as report:
                    solve_openings(plan, backend, store, args.tt_bits, report)
            finally:
                backend.close()
    finally:
        store.close()
    summary = plan.summary()
    if args.write:
        if plan.winner() is None or not all(plan.status(f) for f in plan.firsts):
            raise UsageError(f"--write: {args.board} is not solved yet ({len(plan.results)} openings stored)")
        engine: dict[str, JSON] = {"tt_bits": args.tt_bits, "path_max": SOLVE_PATH_MAX}
        engine["path_budget"] = SOLVE_PATH_BUDGET
        command = f"gridarena isolation solve --board {width}x{height}" + " --all" * args.all
        command += f" --tt-bits {args.tt_bits}" * (args.tt_bits != SOLVE_TT_BITS)
        command += f" --book-plies {args.book_plies}" * (args.book_plies != BOOK_PLIES)
        info: dict[str, JSON] = {"engine": engine, "command": command, "book_plies": args.book_plies}
        solution = Solution(width, height, plan.results.values(), info)
        solver = Engine(
            width, height, tt_bits=args.tt_bits, path_max=SOLVE_PATH_MAX, path_budget=SOLVE_PATH_BUDGET
        )
        solution.book = book_lines(solution, solver, args.book_plies)
        try:
            solution.write(Path(args.write))
        except OSError as exc:
            raise write_failure(args.write, "solution file", exc) from None
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(_summary_text(plan))
    return 0


def _shipped_plan(width: int, height: int, complete: bool) -> ProofPlan | None:
    """The proof of the solution shipped in the package for this board, if there is one."""
    solution = shipped_solution(width, height)
    return None if solution is None else ProofPlan(width, height, solution.plan.results.values(), complete)


def _stored_plan(store: Store, width: int, height: int, complete: bool) -> ProofPlan:
    """The proof as far as the database has it."""
    known = [OpeningResult.from_json(r) for r in store.job_results(solve_batch(width, height)).values()]
    return ProofPlan(width, height, known, complete=complete)


def _show(args: argparse.Namespace, width: int, height: int) -> int:
    """``--show``: what the database proves; the shipped solution instead while the database decides nothing.

    A database that does not exist is not created: it has proved nothing yet.
    """
    if args.db != ":memory:" and not Path(args.db).exists():
        plan = ProofPlan(width, height, complete=args.all)
    else:
        with Store(args.db) as store:
            plan = _stored_plan(store, width, height, args.all)
    shipped = _shipped_plan(width, height, args.all)
    source: dict[str, JSON] = {"source": "database", "db": args.db}
    shown = plan
    if plan.winner() is None and shipped is not None:
        shown = shipped
        source = {"source": "shipped", "file": solution_path(plan.width, plan.height), "db": args.db}
        source["db_solved"] = len(plan.results)
    if args.json:
        print(json.dumps({**shown.summary(), **source}, indent=2))
        return 0
    print(_summary_text(shown))
    if shown is not plan:
        print(
            f"(the solution shipped with gridarena, {source['file']}; {args.db} has "
            f"{len(plan.results)} of {plan.total()} openings)"
        )
    return 0


def _summary_text(plan: ProofPlan) -> str:
    winner = plan.winner()
    figures = plan.summary()["figures"]
    assert isinstance(figures, dict)
    head = f"{plan.width}x{plan.height}: " + (
        "not decided yet" if winner is None else f"the {('first', 'second')[winner]} player wins"
    )
    lines = [f"{head}; {len(plan.results)} of {plan.total()} openings solved"]
    for first in plan.firsts:
        refutation = plan.refutation(first)
        status = plan.status(first) or "open"
        why = f", refuted by {cell_text(refutation.reply, plan.width)}" if refutation else ""
        lines.append(f"  first move {cell_text(first, plan.width)}: {status}{why}")
    lines.append(f"CPU {figures.get('cpu_seconds')} s, {figures.get('nodes'):,} nodes")
    return "\n".join(lines)
