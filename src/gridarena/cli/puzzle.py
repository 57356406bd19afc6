"""Sliding puzzles: solve homework cases and one-line boards, build pattern databases, benchmark.

``gridarena puzzle solve case3_1.in --algo pdb`` prints the homework's answer (the number of slides,
then ``cell direction`` lines) on stdout and the statistics on stderr (``--json``: all on stdout).

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
from pathlib import Path

from gridarena.cli.help import examples
from gridarena.cli.options import NODES, SEED, Number, count, physical_memory, seconds, size
from gridarena.core.errors import GridArenaError
from gridarena.core.files import FileKind, read_stream_text, read_text
from gridarena.games.slidingpuzzle.ai.anytime import solve_anytime
from gridarena.games.slidingpuzzle.ai.heuristics import Heuristic, make_heuristic, pdb_heuristic
from gridarena.games.slidingpuzzle.ai.idastar import IdaStar, Progress, default_memory
from gridarena.games.slidingpuzzle.ai.solvers import ALGORITHMS, default_algorithm, solution_stats, solve
from gridarena.games.slidingpuzzle.bench import run_method
from gridarena.games.slidingpuzzle.board import Action, Board
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
    board_by_name,
    build_pdb,
    default_partition,
    pattern_sets,
    pdb_filename,
    save_pdb,
)
from gridarena.games.slidingpuzzle.pdb.partitions import board_key, pdb_folder
from gridarena.search import Solution

Handler = Callable[[argparse.Namespace], int]


class PuzzleUsageError(GridArenaError, ValueError):
    """A command-line value that does not fit the puzzle."""


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
            "gridarena puzzle solve cases/            every case of a folder, tables loaded once",
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
        choices=(*ALGORITHMS, "pdb"),
        default="pdb",
        help="pdb (default): IDA* with pattern databases (weighted A* with --weight); "
        + "; ".join(f"{name}: {entry.summary}" for name, entry in ALGORITHMS.items()),
    )
    solve_cmd.add_argument("--pdb", metavar="DIR", help="PDB directory (default: the cache)")
    solve_cmd.add_argument("--partition", help="PDB partition for --algo pdb, e.g. 6-6-3 or 7-8")
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
        help="transposition tables' budget, e.g. 4G or 512M (default: a quarter of the machine's memory)",
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


def case_paths(names: Sequence[str]) -> list[str]:
    """The cases to solve: each name, with a folder standing for its files in name order."""
    paths: list[str] = []
    for name in names:
        folder = Path(name)
        if name not in ("-", "") and folder.is_dir():  # Path("") is the current folder: not asked for
            found = sorted(str(p) for p in folder.iterdir() if p.is_file() and not p.name.startswith("."))
            if not found:
                raise PuzzleUsageError(f"{name}: a folder without case files")
            paths.extend(found)
        else:
            paths.append(name)
    return paths


class _Tables:
    """The heuristics of one run, built (and their pattern databases loaded) once per goal."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.cache: dict[tuple[Board, str | None], tuple[Heuristic | None, str]] = {}
        self.solvers: dict[tuple[int, float], tuple[Heuristic, IdaStar]] = {}

    def solver(self, heuristic: Heuristic, weight: float = 1.0) -> IdaStar:
        """The IDA* of ``heuristic`` (weighted for ``--anytime``), made once per run (tables reused).

        A weighted search gets an eighth of the memory budget: it is short, the optimal one is not.
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

    def pick(self, case: PuzzleCase) -> tuple[Heuristic | None, str]:
        """The heuristic (None: the solver's default) and algorithm for ``case``."""
        args = self.args
        if args.algo != "pdb":
            return None, args.algo
        key = (case.goal, args.partition)
        if key not in self.cache:
            name = args.partition or default_partition(case.goal)
            if name is None:  # a board this small needs no pattern database
                _say(
                    f"{board_key(case.goal)} board: no default pattern database, so "
                    f"{default_algorithm(args.weight)} with the Manhattan distance (--partition names one)"
                )
                self.cache[key] = (None, default_algorithm(args.weight))
            else:
                heuristic = pdb_heuristic(case.goal, name, args.pdb, progress=_say)
                self.cache[key] = (heuristic, default_algorithm(args.weight))
        return self.cache[key]


def run_solve(args: argparse.Namespace) -> int:
    """Solve each case and print the homework answer (a header line per case when there are several)."""
    paths = case_paths(args.file)
    tables = _Tables(args)
    if len(paths) == 1:
        found = _solve_one(paths[0], args, tables)
        if args.anytime and not args.json and found.path is not None:
            print(f"# final: {found.length} slides, optimum {math.ceil(found.lower_bound)}..{found.length}")
        code = _report(found, args.json)
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
            _say(f"{path}: " + " ".join(f"{k}={v}" for k, v in stats.items() if v not in ("", None)))
    totals = _totals(results)
    if args.json:
        print(json.dumps({"cases": results, "totals": totals}))
    else:
        _say("total: " + " ".join(f"{k}={v}" for k, v in totals.items()))
    return 1 if failed else 0


def _solve_one(path: str, args: argparse.Namespace, tables: _Tables) -> Solution[Action]:
    case = parse_case(_read(path), path, blank_first=args.blank_first)
    heuristic, algorithm = tables.pick(case)
    deadline = None if args.time is None else time.perf_counter() + args.time
    if algorithm != "idastar" and not args.anytime:
        limit = 50_000_000 if args.max_nodes is None else args.max_nodes  # A* and BFS keep every board
        return solve(case, algorithm, heuristic, max_nodes=limit, deadline=deadline, weight=args.weight)
    return _optimal(case, heuristic or make_heuristic(case.goal), args, tables, deadline)


def _optimal(
    case: PuzzleCase, heuristic: Heuristic, args: argparse.Namespace, tables: _Tables, deadline: float | None
) -> Solution[Action]:
    """The numba IDA* without limits unless asked, with progress, Ctrl-C and the anytime answers first."""
    show = _ProgressLine(args.progress or sys.stderr.isatty())
    stop = threading.Event()
    previous = signal.getsignal(signal.SIGINT)
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, lambda number, frame: stop.set())
    try:
        return solve_anytime(
            case,
            lambda weight: tables.solver(heuristic, weight),
            anytime=args.anytime,
            first=args.weight if args.weight != 1.0 else 2.0,
            max_nodes=(1 << 62) if args.max_nodes is None else args.max_nodes,
            deadline=deadline,
            stop=stop,
            progress=show,
            on_answer=lambda found, bound: _announce(found, bound, args.json),
        )
    finally:
        show.end()
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGINT, previous)


def _announce(found: Solution[Action], bound: int, as_json: bool) -> None:
    """An anytime answer better than the ones before: on stdout, with the proven bound and the gap."""
    assert found.path is not None
    length = len(found.path)
    if as_json:
        print(
            json.dumps(
                {"anytime": True, "moves": moves_to_json(found.path), "length": length, "lower_bound": bound}
            )
        )
    else:
        print(f"# anytime: {length} slides ({found.algorithm}), optimum {bound}..{length}")
        sys.stdout.write(format_solution(found.path))
    sys.stdout.flush()


class _ProgressLine:
    """The search's progress on stderr: rewritten in place on a terminal, a line each time otherwise."""

    def __init__(self, on: bool) -> None:
        self.on = on
        self.tty = sys.stderr.isatty()
        self.shown = False

    def __call__(self, where: Progress) -> None:
        if not self.on:
            return
        if self.tty:
            sys.stderr.write("\r" + where.line() + "\x1b[K")
        else:
            sys.stderr.write("progress: " + where.line() + "\n")
        sys.stderr.flush()
        self.shown = True

    def end(self) -> None:
        if self.on and self.tty and self.shown:
            sys.stderr.write("\n")
            sys.stderr.flush()


def _totals(results: Sequence[dict[str, object]]) -> dict[str, object]:
    solved = [r for r in results if r.get("moves") is not None]

    def total(key: str) -> int | float:
        return sum(r[key] for r in solved if isinstance(r.get(key), int | float))  # type: ignore[misc]

    return {
        "cases": len(results),
        "solved": len(solved),
        "slides": total("length"),
        "expanded": total("expanded"),
        "generated": total("generated"),
        "seconds": round(float(total("seconds")), 6),
    }


def _report(found: Solution[Action], as_json: bool) -> int:
    stats = solution_stats(found)
    if as_json:
        moves = None if found.path is None else moves_to_json(found.path)
        print(json.dumps({"moves": moves, **stats}))
    else:
        _say(" ".join(f"{k}={v}" for k, v in stats.items() if v not in ("", None)))
        if found.path is not None:
            sys.stdout.write(format_solution(found.path))
    if found.path is None:
        _say(f"no solution: {found.status}" + (f" ({found.reason})" if found.reason else ""))
        return 1
    return 0


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
        goal, jobs = config.goal, [(folder / out, tiles, args.storage) for out, tiles in config.patterns]
    else:
        if not (args.board and args.partition):
            raise PuzzleUsageError("pass a configuration file, or --board and --partition")
        goal = board_by_name(args.board, blank_first=args.blank_first)
        jobs = []
        for chosen in pattern_sets(goal, args.partition):
            storage = chosen.storage(args.storage)
            jobs += [(folder / pdb_filename(goal, p, chosen.regions), p, storage) for p in chosen.patterns]
        jobs = list({job[0]: job for job in jobs}.values())
    built = []
    for path, tiles, storage in jobs:
        started = time.perf_counter()
        pdb = build_pdb(goal, tiles, storage)
        save_pdb(pdb, path)
        seconds = time.perf_counter() - started
        size = path.stat().st_size
        _say(
            f"{path}: pattern {list(tiles)}, {pdb.entries:,} entries ({pdb.storage}), {size:,} bytes, "
            f"max {pdb.header['max_value']}, {pdb.header['states']:,} states, {seconds:.1f} s"
        )
        built.append(
            {
                "path": str(path),
                "pattern": list(tiles),
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
        heuristic = pdb_heuristic(goal, args.partition, args.pdb, mirror=args.mirror, progress=_say)
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
