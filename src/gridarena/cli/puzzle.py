"""Sliding puzzles: solve homework cases and one-line boards, build pattern databases, benchmark.

``gridarena puzzle solve case3_1.in`` prints the homework's answer (the number of slides, then ``cell
direction`` lines) on stdout and the statistics on stderr (``--json``: all on stdout). By default an easy
board is solved at once by A* or IDA* on the distance sum; a board that needs more gets the pattern
databases, built into the cache the first time (with a progress bar). A folder stands for its case files.

``gridarena puzzle pdb build CONFIG`` reads the student's PDB configuration (base board, then pairs
of output path and tiles); ``gridarena puzzle pdb build --board 4x4 --partition 7-8`` builds a named
partition. Files go to ``--pdb DIR`` (default ``$GRIDARENA_CACHE/pdb`` or ``~/.cache/gridarena/pdb``).

``gridarena puzzle check CASE ANSWER`` replays an answer strictly; ``gridarena puzzle bench`` solves
seeded random boards and prints the distribution of lengths, nodes and times.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Final

from gridarena.cli.help import examples
from gridarena.cli.options import NODES, SEED, Number, count, physical_memory, seconds, size
from gridarena.cli.puzzle_cases import PuzzleUsageError, case_paths
from gridarena.cli.puzzle_output import SearchLine, announce, build_bar, report, totals
from gridarena.core.errors import GridArenaError
from gridarena.core.files import FileKind, check_replaceable, read_stream_text, read_text
from gridarena.games.slidingpuzzle.ai.anytime import solve_anytime
from gridarena.games.slidingpuzzle.ai.heuristics import Heuristic, make_heuristic, pdb_heuristic
from gridarena.games.slidingpuzzle.ai.idastar import NODE_LIMIT, IdaStar, default_memory
from gridarena.games.slidingpuzzle.ai.solvers import (
    ALGORITHMS,
    AStar,
    default_algorithm,
    solution_stats,
    solve,
    solve_case,
)
from gridarena.games.slidingpuzzle.bench import run_method
from gridarena.games.slidingpuzzle.board import Action, Board
from gridarena.games.slidingpuzzle.fast.pdbbuild import search_states
from gridarena.games.slidingpuzzle.formats import (
    PuzzleCase,
    check_solution,
    format_solution,
    moves_to_json,
    parse_case,
    parse_pdb_config,
    parse_solution,
)
from gridarena.games.slidingpuzzle.instances import random_instances, walk_instances
from gridarena.games.slidingpuzzle.pdb import (
    PdbFileError,
    TableJob,
    board_by_name,
    build_tables,
    default_partition,
    pattern_sets,
    pdb_filename,
    table_jobs,
)
from gridarena.games.slidingpuzzle.pdb.partitions import board_key, pdb_folder, tables_present
from gridarena.search import Solution

Handler = Callable[[argparse.Namespace], int]


def _say(message: str) -> None:
    print(message, file=sys.stderr)


def configure(parser: argparse.ArgumentParser) -> None:
    """Add ``solve``, ``check``, ``pdb build`` and ``bench``."""
    commands = parser.add_subparsers(dest="puzzle_command", metavar="COMMAND", required=True)

    solve_cmd = commands.add_parser(
        "solve",
        help="solve homework cases or one-line boards optimally",
        **examples(
            "gridarena puzzle solve case1_1.in",
            "gridarena puzzle solve cases/            every case file of a folder (other files are named and skipped)",
            "gridarena puzzle solve --algo pdb hard.in  the pattern databases at once (built the first time)",
            "gridarena puzzle solve --algo astar --weight 1.5 hard.in",
        ),
    )
    solve_cmd.add_argument(
        "file",
        nargs="+",
        help="homework cases (.in), files with a one-line board, or folders of them; '-' reads stdin",
    )
    solve_cmd.add_argument(
        "--algo",
        choices=("auto", "pdb", *ALGORITHMS),
        default="auto",
        help="auto (default): IDA* with the pattern databases if they are built; else first A* and IDA* on "
        f"the distance sum (up to {QUICK[0][1]:,} and {QUICK[1][1]:,} expansions), and the databases "
        "(built into the cache, once) only if the board needs more; "
        "pdb: the pattern databases at once (weighted A* with --weight); "
        + "; ".join(f"{name}: {entry.summary}" for name, entry in ALGORITHMS.items()),
    )
    solve_cmd.add_argument("--pdb", metavar="DIR", help="PDB directory (default: the cache)")
    solve_cmd.add_argument(
        "--partition", help="PDB partition, e.g. 6-6-3 or 7-8 (the tables at once, as with --algo pdb)"
    )
    solve_cmd.add_argument(
        "--blank-first", action="store_true", help="one-line boards: Korf's goal (blank first)"
    )
    solve_cmd.add_argument(
        "--max-nodes",
        type=NODES,
        help="stop the optimal search after about this many expansions (default: no limit)",
    )
    solve_cmd.add_argument(
        "--time",
        type=seconds(above=0),
        metavar="SECONDS",
        help="stop after this many seconds (default: no limit)",
    )
    solve_cmd.add_argument(
        "--memory",
        type=size(low=1 << 20, high=physical_memory(), high_text="the machine's memory"),
        metavar="SIZE",
        help="limit of the transposition table, e.g. 4G or 512M: it starts small and grows only while the "
        "search needs it (default: 1G, or an eighth of the machine's memory if less)",
    )
    solve_cmd.add_argument(
        "--threads",
        type=count(1, 1024),
        default=os.cpu_count() or 1,
        help="IDA* threads (default: every core; the homework allows one)",
    )
    solve_cmd.add_argument(
        "--progress",
        action="store_true",
        help="show the bound, nodes, nodes/s and time on stderr even when it is not a terminal",
    )
    solve_cmd.add_argument(
        "--anytime",
        action="store_true",
        help="first quick weighted IDA* answers (--weight, default 2, then 1.5 and 1.25), then the optimum; "
        "each better answer is printed as it comes, with the proven lower bound",
    )
    solve_cmd.add_argument(
        "--weight",
        type=Number(float, 1.0, 100.0),
        default=1.0,
        help="weighted A* (f = g + W*h, W > 1) with the PDBs (--algo pdb) or Manhattan (--algo astar): an "
        "answer at most W times the optimal length, for boards too hard to solve optimally (default 1: optimal)",
    )
    solve_cmd.add_argument("--json", action="store_true", help="answer and statistics as JSON on stdout")
    solve_cmd.set_defaults(puzzle_handler=run_solve)

    check_cmd = commands.add_parser(
        "check",
        help="replay an answer file against a case, strictly",
        **examples("gridarena puzzle check case1_1.in case1_1.out --optimal 12"),
    )
    check_cmd.add_argument("case", help="the homework case (.in) that was solved")
    check_cmd.add_argument(
        "answer", help="the answer file: the number of slides, then one `cell direction` line each"
    )
    check_cmd.add_argument("--optimal", type=count(0), help="also require this length")
    check_cmd.set_defaults(puzzle_handler=run_check)

    pdb_cmd = commands.add_parser(
        "pdb", help="pattern databases", **examples("gridarena puzzle pdb build --board 4x4 --partition 7-8")
    )
    pdb_sub = pdb_cmd.add_subparsers(dest="pdb_command", metavar="COMMAND", required=True)
    build = pdb_sub.add_parser(
        "build",
        help="build a PDB set from a configuration file or a named partition",
        **examples(
            "gridarena puzzle pdb build --board homework --partition 6-6-3r",
            "gridarena puzzle pdb build pdb.conf",
        ),
    )
    build.add_argument("config", nargs="?", help="the student's PDB configuration file")
    build.add_argument("--board", help="'homework' or RxC such as 4x4 (with --partition)")
    build.add_argument(
        "--partition", help="sizes such as 7-8, 5-5-5, 6-6-3, 6-6-6-6; 6-6-3r: keyed by the blanks' regions"
    )
    build.add_argument("--blank-first", action="store_true", help="classic boards: Korf's goal (blank first)")
    build.add_argument(
        "--blanks", type=count(1, 2), default=2, help="blanks of a configuration's 0/-1 base board (2)"
    )
    build.add_argument(
        "--storage",
        choices=("auto", "u8", "u4", "r4"),
        default="auto",
        help="u8 bytes, u4 nibbles, r4 keyed by the blanks' regions too (a set name ending in r, e.g. 6-6-3r)",
    )
    build.add_argument("--pdb", metavar="DIR", help="output directory (default: the cache)")
    build.add_argument("--json", action="store_true", help="the built files as JSON on stdout")
    build.set_defaults(puzzle_handler=run_build)

    bench = commands.add_parser(
        "bench",
        help="solve seeded random boards and summarise",
        **examples("gridarena puzzle bench --board 3x3 --count 20 --seed 1"),
    )
    bench.add_argument("--board", default="homework", help="'homework' or RxC (default homework)")
    bench.add_argument("--blank-first", action="store_true", help="classic boards: Korf's goal (blank first)")
    bench.add_argument("--count", type=count(high=10**6), default=100, help="how many boards (default 100)")
    bench.add_argument(
        "--walk", type=count(0), default=1000, help="slides of each random walk (0: uniform random boards)"
    )
    bench.add_argument("--seed", type=SEED, help="first instance's seed (drawn and printed when absent)")
    bench.add_argument("--partition", help="PDB partition; without it, Manhattan distance")
    bench.add_argument("--mirror", action="store_true", help="also look the mirrored board up")
    bench.add_argument("--pdb", metavar="DIR", help="PDB directory (default: the cache)")
    bench.add_argument(
        "--max-nodes",
        type=NODES,
        default=1 << 62,
        help="give up on a board after this many expansions (default: never)",
    )
    bench.add_argument(
        "--json",
        action="store_true",
        help="the summary, with every board's length, nodes and time, as JSON on stdout",
    )
    bench.set_defaults(puzzle_handler=run_bench)


def run(args: argparse.Namespace) -> int:
    """Dispatch to the chosen subcommand."""
    handler: Handler = args.puzzle_handler
    return handler(args)


def _read(path: str, what: FileKind = "case") -> str:
    if path == "-":
        return read_stream_text(sys.stdin.buffer, "<stdin>", what)
    return read_text(path, what)


#: ``--algo auto`` on a board whose pattern databases are not built yet tries these searches on the distance
#: sum first, each for at most so many expansions, and builds the databases (minutes) only if none finishes.
#: A* in Python needs no compiled kernel, so even the first run after installing answers the public
#: homework boards at once (2,485 expansions at most, 0.3 s); the numba IDA* reaches further (1-3 s).
QUICK: Final = (("astar", 10_000), ("idastar", 2_000_000))


class _Tables:
    """The heuristics of one run, made (and their pattern databases built or loaded) once per goal."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.cache: dict[tuple[Board, str | None], tuple[Heuristic | None, str]] = {}
        self.plain: dict[Board, Heuristic] = {}
        self.solvers: dict[tuple[int, float], tuple[Heuristic, IdaStar]] = {}

    def solver(self, heuristic: Heuristic, weight: float = 1.0) -> IdaStar:
        """The IDA* of ``heuristic`` (weighted for ``--anytime``), made once per run (tables reused).

        A weighted search gets an eighth of the memory limit: it is short, the optimal one is not.
        """
        args = self.args
        key = (id(heuristic), weight)
        if key not in self.solvers:
            memory = args.memory if args.memory is not None else default_memory()
            if weight != 1.0:
                memory //= 8
            made = IdaStar(heuristic, memory=memory, threads=args.threads, weight=weight)
            self.solvers[key] = (heuristic, made)
        return self.solvers[key][1]

    def distance(self, goal: Board) -> Heuristic:
        """The distance sum of ``goal`` (no pattern database), made once."""
        if goal not in self.plain:
            self.plain[goal] = make_heuristic(goal)
        return self.plain[goal]

    def quick_first(self, case: PuzzleCase) -> bool:
        """Whether ``case`` is tried without pattern databases first: ``--algo auto`` with a board whose
        default ones are not built yet."""
        args = self.args
        return (
            args.algo == "auto"
            and args.partition is None
            and args.weight == 1.0
            and (case.goal, None) not in self.cache
            and not self._ready(case.goal)
        )

    def _ready(self, goal: Board) -> bool:
        """Whether ``goal`` has no default pattern databases, or has them all on disk already."""
        name = default_partition(goal)
        return name is None or tables_present(goal, name, self.args.pdb)

    def pick(self, case: PuzzleCase) -> tuple[Heuristic | None, str]:
        """The heuristic (None: the distance sum) and algorithm for ``case``."""
        args = self.args
        if args.algo not in ("auto", "pdb"):
            return None, args.algo
        key = (case.goal, args.partition)
        if key not in self.cache:
            name = args.partition or default_partition(case.goal)
            if name is None:  # a board this small needs no pattern database
                if args.algo == "pdb":
                    _say(
                        f"{board_key(case.goal)} board: no default pattern database, so "
                        f"{default_algorithm(args.weight)} with the Manhattan distance (--partition names one)"
                    )
                self.cache[key] = (None, default_algorithm(args.weight))
            else:
                self.cache[key] = (self._databases(case.goal, name), default_algorithm(args.weight))
        return self.cache[key]

    def _databases(self, goal: Board, name: str) -> Heuristic:
        """The heuristic of partition ``name``, its missing tables built first with a progress bar."""
        if tables_present(goal, name, self.args.pdb):
            try:
                return pdb_heuristic(goal, name, self.args.pdb, build=False)
            except PdbFileError:  # a damaged file: found and built again below
                pass
        jobs = table_jobs(goal, name, self.args.pdb)
        if jobs:
            states = sum(job.states for job in jobs)
            _say(
                f"building the pattern databases {name} into {jobs[0].path.parent} ({len(jobs)} tables, "
                f"{states:,} states): once, later runs load them"
            )
            with build_bar() as bar:
                for _ in build_tables(goal, jobs, bar):
                    pass
        return pdb_heuristic(goal, name, self.args.pdb, build=False)


def run_solve(args: argparse.Namespace) -> int:
    """Solve each case and print the homework answer (a header line per case when there are several)."""
    paths, skipped = case_paths(args.file, blank_first=args.blank_first)
    for line in skipped:
        _say(line)
    tables = _Tables(args)
    if len(paths) == 1:
        found = _solve_one(paths[0], args, tables)
        if args.anytime and not args.json and found.path is not None:
            print(f"# final: {found.length} slides, optimum {math.ceil(found.lower_bound)}..{found.length}")
        code = report(found, args.json)
        return 1 if found.stopped else code
    results: list[dict[str, object]] = []
    failed = 0
    for path in paths:
        try:
            found = _solve_one(path, args, tables)
        except GridArenaError as exc:  # one bad case costs only itself: the others are still solved
            failed += 1
            _say(f"{path}: error: {exc}")
            results.append({"case": path, "error": str(exc)})
            continue
        stats = solution_stats(found)
        failed += found.path is None
        moves = None if found.path is None else moves_to_json(found.path)
        results.append({"case": path, "moves": moves, **stats})
        if not args.json:
            print(f"# {path}")
            if found.path is not None:
                sys.stdout.write(format_solution(found.path))
            else:
                print(f"no solution: {found.status}" + (f" ({found.reason})" if found.reason else ""))
            sys.stdout.flush()
            _say(f"{path}: " + " ".join(f"{k}={v}" for k, v in stats.items() if v not in ("", None)))
    summed = {**totals(results), "skipped": len(skipped)}
    if args.json:
        print(json.dumps({"cases": results, "totals": summed, "skipped": skipped}))
    else:
        _say("total: " + " ".join(f"{k}={v}" for k, v in summed.items()))
    return 1 if failed else 0


def _solve_one(path: str, args: argparse.Namespace, tables: _Tables) -> Solution[Action]:
    case = parse_case(_read(path), path, blank_first=args.blank_first)
    deadline = None if args.time is None else time.perf_counter() + args.time
    limit = (1 << 62) if args.max_nodes is None else args.max_nodes
    tried: list[Solution[Action]] = []
    if tables.quick_first(case):
        for algorithm, nodes in QUICK:
            found = _quick(case, algorithm, min(limit, nodes), args, tables, deadline)
            if not found.stopped or not found.reason.startswith(NODE_LIMIT) or limit <= nodes:
                return _joined(tried, found)  # solved, unsolvable, or stopped by the user's own limits
            tried.append(found)
            limit -= found.expanded
        spent = sum(t.seconds for t in tried)
        _say(
            f"{path}: not solved on the distance sum ({spent:.1f} s, at least {max(t.bound for t in tried):g} "
            "slides): now with the pattern databases"
        )
    heuristic, algorithm = tables.pick(case)
    if algorithm != "idastar" and not args.anytime:
        cap = 50_000_000 if args.max_nodes is None else args.max_nodes  # A* and BFS keep every board
        return solve(case, algorithm, heuristic, max_nodes=cap, deadline=deadline, weight=args.weight)
    found = _optimal(
        case, heuristic or tables.distance(case.goal), args, tables, deadline, limit, args.anytime
    )
    return _joined(tried, found)


def _quick(
    case: PuzzleCase,
    algorithm: str,
    nodes: int,
    args: argparse.Namespace,
    tables: _Tables,
    deadline: float | None,
) -> Solution[Action]:
    """One search of :data:`QUICK` on the distance sum, within ``nodes`` expansions."""
    if algorithm == "astar":
        return solve_case(AStar(tables.distance(case.goal)), case, max_nodes=nodes, deadline=deadline)
    return _optimal(case, tables.distance(case.goal), args, tables, deadline, nodes)


def _joined(tried: Sequence[Solution[Action]], found: Solution[Action]) -> Solution[Action]:
    """``found`` with the counts, the time and the names of the searches tried before it."""
    if not tried:
        return found
    return replace(
        found,
        expanded=found.expanded + sum(t.expanded for t in tried),
        generated=found.generated + sum(t.generated for t in tried),
        seconds=found.seconds + sum(t.seconds for t in tried),
        algorithm="+".join([*(t.algorithm for t in tried), found.algorithm]),
    )


def _optimal(
    case: PuzzleCase,
    heuristic: Heuristic,
    args: argparse.Namespace,
    tables: _Tables,
    deadline: float | None,
    max_nodes: int,
    anytime: bool = False,
) -> Solution[Action]:
    """The numba IDA* within ``max_nodes`` and the deadline, with progress, Ctrl-C and the anytime answers first."""
    show = SearchLine(args.progress or sys.stderr.isatty())
    stop = threading.Event()
    previous = signal.getsignal(signal.SIGINT)
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, lambda number, frame: stop.set())
    try:
        return solve_anytime(
            case,
            lambda weight: tables.solver(heuristic, weight),
            anytime=anytime,
            first=args.weight if args.weight != 1.0 else 2.0,
            max_nodes=max_nodes,
            deadline=deadline,
            stop=stop,
            progress=show,
            on_answer=lambda found, bound: announce(found, bound, args.json),
        )
    finally:
        show.end()
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGINT, previous)


def run_check(args: argparse.Namespace) -> int:
    """Replay an answer against a case; exit 1 with the reason if it does not solve it."""
    case = parse_case(_read(args.case), args.case)
    length = check_solution(case, parse_solution(_read(args.answer, "answer"), args.answer), args.optimal)
    _say(f"valid: {length} slides reach the goal")
    return 0


def run_build(args: argparse.Namespace) -> int:
    """Build the PDB files of a configuration or a named partition."""
    folder = pdb_folder(args.pdb)
    if args.config:
        if args.board or args.partition:
            raise PuzzleUsageError("give either a configuration file or --board with --partition, not both")
        config = parse_pdb_config(_read(args.config, "PDB configuration"), args.config, blanks=args.blanks)
        goal, wanted = config.goal, [(folder / out, tiles, args.storage) for out, tiles in config.patterns]
    else:
        if not (args.board and args.partition):
            raise PuzzleUsageError("pass a configuration file, or --board and --partition")
        goal = board_by_name(args.board, blank_first=args.blank_first)
        wanted = []
        for chosen in pattern_sets(goal, args.partition):
            storage = chosen.storage(args.storage)
            wanted += [(folder / pdb_filename(goal, p, chosen.regions), p, storage) for p in chosen.patterns]
    unique = {path: (path, tuple(tiles), storage) for path, tiles, storage in wanted}.values()
    for path, _, _ in unique:  # before any table is built: a FIFO or a device named as an output is refused
        check_replaceable(path, "pattern database")
    jobs = [
        TableJob(path, tiles, storage, search_states(goal, len(tiles))) for path, tiles, storage in unique
    ]
    built = []
    with build_bar() as bar:
        for job, pdb, seconds in build_tables(goal, jobs, bar):
            size = job.path.stat().st_size
            _say(
                f"{job.path}: pattern {list(job.pattern)}, {pdb.entries:,} entries ({pdb.storage}), "
                f"{size:,} bytes, max {pdb.header['max_value']}, {pdb.header['states']:,} states, {seconds:.1f} s"
            )
            built.append(
                {
                    "path": str(job.path),
                    "pattern": list(job.pattern),
                    "bytes": size,
                    "seconds": round(seconds, 2),
                    "storage": pdb.storage,
                    **pdb.header,
                }
            )
    if args.json:
        print(json.dumps(built))
    return 0


def run_bench(args: argparse.Namespace) -> int:
    """Solve seeded random boards with one method and print the distribution."""
    goal = board_by_name(args.board, blank_first=args.blank_first)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    if args.seed is None:
        _say(f"seed {seed}")
    boards = (
        walk_instances(goal, args.count, args.walk, seed)
        if args.walk
        else random_instances(goal, args.count, seed)
    )
    if args.partition:
        with build_bar() as bar:
            heuristic = pdb_heuristic(goal, args.partition, args.pdb, mirror=args.mirror, progress=bar)
    else:
        heuristic = make_heuristic(goal)
    summary = run_method(heuristic.name, IdaStar(heuristic), boards, max_nodes=args.max_nodes)
    row = {"board": args.board, "seed": seed, "walk": args.walk, **summary.row()}
    if args.json:
        print(
            json.dumps(
                {
                    **row,
                    "lengths": summary.lengths,
                    "generated": summary.generated,
                    "seconds": summary.seconds,
                }
            )
        )
    else:
        for key, value in row.items():
            _say(f"{key:>18}: {value}")
    return 0 if summary.solved == summary.count else 1
