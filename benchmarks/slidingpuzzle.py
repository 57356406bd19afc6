"""Sliding-puzzle benchmarks: PDB builds, the homework board, and the 15-puzzle next to published figures.

    python benchmarks/slidingpuzzle.py homework --count 100 --seed 0 [--time-cap 30] [--cases DIR]
    python benchmarks/slidingpuzzle.py ablation --count 10 --seed 0 --time-cap 30
    python benchmarks/slidingpuzzle.py memory --count 10 --seed 0 --time-cap 20
    python benchmarks/slidingpuzzle.py cold --cases ../shared/data/slidingpuzzle/ntu_tcg2022_hw1 --repeat 3
    python benchmarks/slidingpuzzle.py fifteen --count 100 --seed 0 --methods 5-5-5,6-6-3,7-8,7-8+mirror
    python benchmarks/slidingpuzzle.py build --board 4x4 --partition 6-6-3

PDB files come from ``--pdb DIR`` (default: the cache); ``--build`` builds missing ones first (timed on
their own lines). Every solver runs once on a tiny board before timing, so numba compilation is not in
the figures. Tables print medians (and means and maxima where the published figures are means); the ratio
column
compares each method's median generated nodes with the first method's, run in the same process.
"""

from __future__ import annotations

import argparse
import math
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gridarena.games.slidingpuzzle.ai.heuristics import Heuristic, make_heuristic, pdb_heuristic
from gridarena.games.slidingpuzzle.ai.idastar import IdaStar
from gridarena.games.slidingpuzzle.ai.solvers import AStar
from gridarena.games.slidingpuzzle.bench import Summary, run_method
from gridarena.games.slidingpuzzle.board import Action, Board, homework_goal
from gridarena.games.slidingpuzzle.formats import (
    PuzzleCase,
    check_solution,
    format_solution,
    parse_homework_case,
    parse_solution,
)
from gridarena.games.slidingpuzzle.instances import random_instances, walk_instances
from gridarena.games.slidingpuzzle.pdb import (
    BuildProgress,
    board_by_name,
    build_pdb,
    default_partition,
    partition,
)
from gridarena.search import Solution

#: Korf & Felner (2002) / Felner, Korf & Hanan (2004), 1000 random 15-puzzles (as lecture summaries of the papers quote them).
PUBLISHED = {
    "manhattan": (36.94, 401_189_630, 53.424),
    "5-5-5": (41.56, 3_090_405, 0.541),
    "6-6-3": (42.92, 617_555, 0.163),
    "7-8": (44.75, 136_289, 0.081),
    "7-8+mirror": (45.63, 36_710, 0.034),
}

#: The student's explored states per public case (the report of the reference student solution, ``report.pdf``
#: of ``shaoyuchu/TCG``): A* Manhattan, A* max(Manhattan, 2-tile PDBs).
STUDENT = {
    "case1_1": (26, 26),
    "case1_2": (9, 9),
    "case1_3": (19, 18),
    "case1_4": (53, 53),
    "case1_5": (38, 38),
    "case2_1": (47, 44),
    "case2_2": (575, 248),
    "case2_3": (97, 93),
    "case2_4": (55, 53),
    "case2_5": (46, 48),
    "case3_1": (1793, 1825),
    "case3_2": (2408, 1152),
    "case3_3": (1657, 1438),
    "case3_4": (3278, 1441),
    "case3_5": (904, 614),
}


def peak_mb() -> float:
    """Peak resident memory of this process so far, in MB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def print_summaries(rows: list[Summary], published: bool = False) -> None:
    base = statistics.median(rows[0].generated) if rows and rows[0].generated else 0
    head = (
        f"{'method':<22}{'solved':>8}{'mean h0':>9}{'len med':>8}{'gen med':>12}{'gen mean':>12}{'ms med':>9}"
    )
    head += f"{'ms mean':>9}{'ms max':>9}{'cpu ms':>8}{'ratio':>8}"
    if published:
        head += f"{'pub h0':>8}{'pub gen':>13}{'pub ms':>9}"
    print(head)
    for s in rows:
        r = s.row()
        ratio = statistics.median(s.generated) / base if base and s.generated else float("nan")
        line = (
            f"{s.method:<22}{s.solved:>5}/{s.count:<3}{r['mean_h0']:>8}{r['length_median']:>8}"
            f"{r['generated_median']:>12,.0f}{r['generated_mean']:>12,}{1000 * r['seconds_median']:>9.2f}"
            f"{1000 * r['seconds_mean']:>9.2f}{1000 * r['seconds_max']:>9.1f}{1000 * r['cpu_seconds_mean']:>8.1f}"
            f"{ratio:>8.3f}"
        )
        key = s.method.removeprefix("idastar/").replace("pdb(", "").replace(")", "")
        if published and key in PUBLISHED:
            h0, gen, sec = PUBLISHED[key]
            line += f"{h0:>8}{gen:>13,}{1000 * sec:>9.0f}"
        print(line)


def heuristic_for(goal: Board, method: str, args: argparse.Namespace) -> Heuristic:
    """Manhattan distance, or a partition such as ``7-8``, with ``+mirror`` for mirrored lookups."""
    if method in ("manhattan", "manhattan+lc"):
        return make_heuristic(goal, linear_conflict=None if method.endswith("+lc") else False)
    name, _, extra = method.partition("+")
    last = [0.0]

    def show(where: BuildProgress) -> None:  # a line every 5 s
        if time.perf_counter() - last[0] >= 5 or where.done >= where.total:
            last[0] = time.perf_counter()
            print(f"building {name}: {where.line()}", file=sys.stderr)

    return pdb_heuristic(goal, name, args.pdb, mirror=extra == "mirror", build=args.build, progress=show)


def run_homework(args: argparse.Namespace) -> None:
    goal = homework_goal()
    started = time.perf_counter()
    name = args.partition or default_partition(goal) or "6-6-3r"
    heuristic = heuristic_for(goal, name, args)
    print(
        f"homework PDB set {name}: loaded in {time.perf_counter() - started:.2f} s, peak memory {peak_mb():.0f} MB"
    )
    solver = IdaStar(heuristic, threads=args.threads, memory=args.memory)
    print(
        f"IDA*: {args.threads} thread(s), transposition table {solver.table_bytes / 2**20:.0f} MiB, "
        f"growing up to {solver.table_limit / 2**30:.2f} GiB"
    )
    if args.cases:
        solve_public_cases(solver, Path(args.cases))
    if not args.count:
        return
    boards = walk_instances(goal, args.count, 1000, args.seed)
    results: list[Solution[Action]] = []
    cap = f", {args.time_cap:g} s per board at most" if args.time_cap else ""
    print(f"\nper board (random walks of 1000 slides, seeds {args.seed}..{args.seed + args.count - 1}{cap}):")
    print(f"{'board':>5}{'h0':>5}{'optimum':>9}{'seconds':>9}{'expanded':>14}{'generated':>14}")

    def keep(number: int, found: Solution[Action]) -> None:
        verify(boards[number], goal, found)
        results.append(found)
        length = str(found.length) if found.status == "solved" else f">={found.bound}"
        print(
            f"{number:>5}{found.h0:>5}{length:>9}{found.seconds:>9.2f}{found.expanded:>14,}{found.generated:>14,}",
            flush=True,
        )

    summary = run_method(
        heuristic.name, solver, boards, max_nodes=args.max_nodes, time_cap=args.time_cap, on_result=keep
    )
    print(
        f"\n{args.count} random walks of 1000 slides from the goal (seeds {args.seed}..{args.seed + args.count - 1}):"
    )
    print_summaries([summary])
    lengths = sorted(summary.lengths)
    print("length distribution:", {n: lengths.count(n) for n in sorted(set(lengths))})
    bounds = sorted(r.bound for r in results if r.status == "limit")
    if bounds:
        print(
            f"the {len(bounds)} unsolved boards need at least (proved by the stopped searches):",
            {n: bounds.count(n) for n in sorted(set(bounds))},
        )
    known = sorted(r.lower_bound for r in results)
    print(
        f"proven lower bound on the optimal length, all {len(known)} boards: median {statistics.median(known):g}, "
        f"{sum(n > 80 for n in known)} need more than 80 slides, {sum(n >= 90 for n in known)} at least 90"
    )
    targets(results)
    if args.cross_nodes:
        cross_check(goal, boards, results, args)


def targets(results: list[Solution[Action]]) -> None:
    """Issue 16's targets, as far as these results show them (a capped board proves only its bound)."""
    seconds = sorted(r.seconds if r.status == "solved" else math.inf for r in results)
    median = statistics.median(seconds) if seconds else math.inf
    print(f"median time to the optimum (capped boards count as slower): {median:.2f} s (target <= 10 s)")
    for top, limit in ((84, 30.0), (90, 600.0)):
        known = [r for r in results if r.status == "solved" and (r.length or 0) <= top]
        slow = [r for r in known if r.seconds > limit]
        open_ = [r for r in results if r.status != "solved" and r.bound <= top]
        print(
            f"optimum <= {top}: {len(known)} boards solved, {len(slow)} of them over {limit:g} s; "
            f"{len(open_)} capped boards could still be <= {top} (bounds {sorted(r.bound for r in open_)})"
        )


#: The ablation: (label, partition, IdaStar options), each adding one technique to the row before.
ABLATION: list[tuple[str, str, dict[str, object]]] = [
    (
        "base (6-6-3r, 2^20 table, no commuting order)",
        "6-6-3r",
        {"prune_commute": False, "prune_chain": False, "transpositions": 20},
    ),
    (
        "+max of partitions",
        "5-5-5ar/5-5-5br/6-6-3r",
        {"prune_commute": False, "prune_chain": False, "transpositions": 20},
    ),
    ("+move pruning", "5-5-5ar/5-5-5br/6-6-3r", {"transpositions": 20}),
    ("+table of 2^27 slots (4 GiB)", "5-5-5ar/5-5-5br/6-6-3r", {"transpositions": 27}),
    ("+parallel (2 threads)", "5-5-5ar/5-5-5br/6-6-3r", {"threads": 2, "transpositions": 27}),
]


def run_ablation(args: argparse.Namespace) -> None:
    """Nodes and time per technique on the first boards of the homework benchmark, each run capped."""
    goal = homework_goal()
    boards = walk_instances(goal, args.count, 1000, args.seed)
    print(f"ablation: {args.count} boards (seeds {args.seed}..), {args.time_cap:g} s per board at most")
    print(f"{'technique':<48}{'solved':>7}{'expanded':>14}{'seconds':>9}  per board (optimum or >=bound / s)")
    for label, name, options in ABLATION:
        heuristic = heuristic_for(goal, name, args)
        solver = IdaStar(heuristic, memory=args.memory, **options)  # type: ignore[arg-type]
        summary_rows = []
        total_nodes, total_seconds, solved = 0, 0.0, 0
        solver.solve(boards[0], max_nodes=1000)  # compile and touch the tables outside the figures
        for number, board in enumerate(boards):
            found = solver.solve(board, deadline=time.perf_counter() + args.time_cap)
            verify(board, goal, found)
            total_nodes += found.expanded
            total_seconds += found.seconds
            solved += found.status == "solved"
            shown = str(found.length) if found.status == "solved" else f">={found.bound}"
            summary_rows.append(f"{number}:{shown}/{found.seconds:.1f}")
        print(
            f"{label:<48}{solved:>4}/{len(boards):<2}{total_nodes:>14,}{total_seconds:>9.1f}  {' '.join(summary_rows)}",
            flush=True,
        )


#: The tables compared by ``memory``: the CLI's old default (a quarter of this machine's memory: 2^27 slots,
#: 4 GiB, allocated at once) and the new one (2^14 slots, grown to the iterations, up to 1 GiB).
TABLES: list[tuple[str, int | None]] = [
    ("fixed 2^27 slots (4 GiB, the old default)", 27),
    ("grown by need (the new default)", None),
]


def run_memory(args: argparse.Namespace) -> None:
    """The old and the new transposition table on the same boards, each board in a fresh solver (a fresh
    table, as in one ``gridarena puzzle solve`` per board; ``--reuse``: one solver each for all boards, as
    in a folder of cases), the two in alternating order."""
    goal = homework_goal()
    heuristic = heuristic_for(goal, args.partition or default_partition(goal) or "6-6-3r", args)
    boards = walk_instances(goal, args.count, 1000, args.seed)
    IdaStar(heuristic).solve(boards[0], max_nodes=1000)  # compile outside the figures
    cap = f", at most {args.time_cap:g} s per board" if args.time_cap else ""
    print(f"tables: {args.count} boards (seeds {args.seed}..), {args.threads} thread(s){cap}")
    print(
        f"{'board':>5}"
        + "".join(f"{'optimum':>9}{'seconds':>9}{'cpu s':>8}{'expanded':>12}{'MiB':>8}" for _ in TABLES)
    )
    seconds: list[list[float]] = [[] for _ in TABLES]
    cpu: list[list[float]] = [[] for _ in TABLES]
    kept = [IdaStar(heuristic, threads=args.threads, transpositions=bits) for _, bits in TABLES]
    for number, board in enumerate(boards):
        row: list[str] = [""] * len(TABLES)
        order = range(len(TABLES)) if number % 2 == 0 else reversed(range(len(TABLES)))
        for which in order:
            if args.reuse:  # one solver per table over all boards (as in a folder of cases)
                solver = kept[which]
            else:
                solver = IdaStar(heuristic, threads=args.threads, transpositions=TABLES[which][1])
            deadline = None if args.time_cap is None else time.perf_counter() + args.time_cap
            used = time.process_time()
            found = solver.solve(board, deadline=deadline)
            used = time.process_time() - used
            verify(board, goal, found)
            seconds[which].append(found.seconds)
            cpu[which].append(used)
            shown = str(found.length) if found.status == "solved" else f">={found.bound}"
            row[which] = (
                f"{shown:>9}{found.seconds:>9.2f}{used:>8.2f}{found.expanded:>12,}{solver.table_bytes / 2**20:>8.1f}"
            )
        print(f"{number:>5}" + "".join(row), flush=True)
    for which, (label, _) in enumerate(TABLES):
        print(
            f"{label}: median {statistics.median(seconds[which]):.2f} s, total {sum(seconds[which]):.1f} s "
            f"of wall time; median {statistics.median(cpu[which]):.2f} s, total {sum(cpu[which]):.1f} s of CPU"
        )


def run_cold(args: argparse.Namespace) -> None:
    """Each case of ``--cases`` alone, as a student runs it: ``gridarena puzzle solve CASE`` in a fresh
    process with an empty PDB cache and the default options (``--fresh-numba``: an empty numba cache too,
    as on the first run after installing). Wall time, CPU and peak memory of the process, medians over
    ``--repeat`` runs; every answer replayed and compared with A* on the distance sum (optimal)."""
    manhattan = make_heuristic(homework_goal())
    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(
        f"{'case':<9}{'slides':>7}{'optimum':>8}{'wall s':>8}{'max s':>7}{'cpu s':>7}{'peak MB':>8}  tables built"
    )
    walls = []
    for path in sorted(Path(args.cases).glob("*.in")):
        case = parse_homework_case(path.read_text(), str(path))
        optimum = AStar(manhattan).solve(case.start).length
        runs = [_cold_run(path, case, args.fresh_numba) for _ in range(args.repeat)]
        wall, cpu, peak = (statistics.median(r[i] for r in runs) for i in range(3))
        walls.append(wall)
        lengths = {r[3] for r in runs}
        assert lengths == {optimum}, (path.name, lengths, optimum)
        built = max(r[4] for r in runs)
        print(
            f"{path.stem:<9}{optimum:>7}{optimum:>8}{wall:>8.2f}{max(r[0] for r in runs):>7.2f}{cpu:>7.2f}"
            f"{peak:>8.0f}  {built}",
            flush=True,
        )
    print(f"median {statistics.median(walls):.2f} s, max {max(walls):.2f} s of wall time per case")
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def _cold_run(path: Path, case: PuzzleCase, fresh_numba: bool) -> tuple[float, float, float, int, int]:
    """One ``gridarena puzzle solve`` of ``path`` in a fresh process: wall s, CPU s, peak MB, slides, tables built."""
    with tempfile.TemporaryDirectory() as scratch:
        env = {**os.environ, "GRIDARENA_CACHE": scratch}
        if fresh_numba:
            env["NUMBA_CACHE_DIR"] = str(Path(scratch) / "numba")
        with open(Path(scratch) / "out", "w+") as out:
            started = time.perf_counter()
            child = subprocess.Popen(
                [sys.executable, "-m", "gridarena", "puzzle", "solve", str(path)],
                stdout=out,
                stderr=subprocess.DEVNULL,
                env=env,
            )
            _, status, usage = os.wait4(child.pid, 0)
            wall = time.perf_counter() - started
            child.returncode = os.waitstatus_to_exitcode(status)
            out.seek(0)
            answer = out.read()
        assert child.returncode == 0, (path, child.returncode)
        length = check_solution(case, parse_solution(answer))
        built = len(list(Path(scratch).rglob("*.pdb")))
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, length, built


def verify(board: Board, goal: Board, found: Solution[Action]) -> None:
    """Replay a solution as printed (homework answer text, parsed back); raises if it does not solve."""
    if found.status == "solved":
        check_solution(PuzzleCase(board, goal), parse_solution(format_solution(found.path or ())))


def cross_check(
    goal: Board, boards: list[Board], results: list[Solution[Action]], args: argparse.Namespace
) -> None:
    """Re-solve the boards with a second, independent heuristic (``--cross``: Manhattan distance or a
    partition), capped at ``--cross-nodes`` expansions, and compare lengths where it finishes."""
    heuristic = heuristic_for(goal, args.cross, args)
    second = IdaStar(heuristic)
    agree = checked = 0
    lengths = []
    for board, first in zip(boards, results, strict=True):
        other = second.solve(board, max_nodes=args.cross_nodes)
        if other.status != "solved" or first.status != "solved":
            continue
        checked += 1
        agree += other.length == first.length
        lengths.append(other.length or 0)
        check_solution(PuzzleCase(board, goal), first.path or (), other.length)
    span = f", lengths {min(lengths)}-{max(lengths)}" if lengths else ""
    print(
        f"cross-check with IDA*/{heuristic.name} (<= {args.cross_nodes:,} expansions): {checked} boards "
        f"re-solved{span}, {agree} lengths agree"
    )


def solve_public_cases(solver: IdaStar, folder: Path) -> None:
    """Each public case: IDA* with the PDB set, A* with Manhattan distance, and the student's counts."""
    manhattan = make_heuristic(homework_goal())
    print(
        f"\n{'case':<9}{'len':>5}{'expanded':>10}{'generated':>11}{'ms':>8}{'A* exp':>8}{'A* gen':>8}"
        f"{'student A*':>11}{'student PDB':>12}"
    )
    for path in sorted(folder.glob("*.in")):
        case = parse_homework_case(path.read_text(), str(path))
        solver.solve(case.start)
        found = solver.solve(case.start)
        check_solution(case, found.path or ())
        plain = AStar(manhattan).solve(case.start)
        check_solution(case, plain.path or (), found.length)
        seed_astar, seed_pdb = STUDENT.get(path.stem, (0, 0))
        print(
            f"{path.stem:<9}{found.length:>5}{found.expanded:>10,}{found.generated:>11,}"
            f"{1000 * found.seconds:>8.2f}{plain.expanded:>8,}{plain.generated:>8,}{seed_astar:>11,}{seed_pdb:>12,}"
        )


def run_fifteen(args: argparse.Namespace) -> None:
    goal = board_by_name("4x4", blank_first=args.blank_first)
    boards = random_instances(goal, args.count, args.seed)
    rows = []
    for method in args.methods.split(","):
        started = time.perf_counter()
        heuristic = heuristic_for(goal, method, args)
        print(
            f"{method}: tables ready in {time.perf_counter() - started:.2f} s, peak memory {peak_mb():.0f} MB",
            file=sys.stderr,
        )
        nodes = args.manhattan_nodes if method.startswith("manhattan") else args.max_nodes
        rows.append(
            run_method(
                f"idastar/{method}",
                IdaStar(heuristic),
                boards,
                max_nodes=nodes,
                on_result=lambda i, found: verify(boards[i], goal, found),
            )
        )
    print(
        f"\n15-puzzle, {args.count} random solvable instances (seed {args.seed}); published: 1000 instances"
    )
    print_summaries(rows, published=True)


def run_build(args: argparse.Namespace) -> None:
    goal = board_by_name(args.board, blank_first=args.blank_first)
    print(f"{'pattern':<32}{'entries':>14}{'states':>15}{'seconds':>9}{'peak MB':>9}")
    for pattern in partition(goal, args.partition):
        started = time.perf_counter()
        pdb = build_pdb(goal, pattern)
        print(
            f"{','.join(map(str, pattern)):<32}{pdb.entries:>14,}{pdb.header['states']:>15,}"
            f"{time.perf_counter() - started:>9.1f}{peak_mb():>9.0f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("part", choices=("homework", "fifteen", "build", "ablation", "memory", "cold"))
    parser.add_argument("--partition", help="PDB set (homework: the default set; build: 6-6-3)")
    parser.add_argument("--threads", type=int, default=2, help="IDA* threads (homework)")
    parser.add_argument(
        "--memory", type=int, help="transposition table's limit in bytes (default: IdaStar's, 1 GiB at most)"
    )
    parser.add_argument("--time-cap", type=float, help="seconds per board (homework, ablation)")
    parser.add_argument("--board", default="4x4")
    parser.add_argument("--methods", default="manhattan,manhattan+lc,5-5-5,6-6-3,7-8,7-8+mirror")
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--blank-first", action="store_true")
    parser.add_argument("--pdb", help="PDB directory (default: the cache)")
    parser.add_argument("--build", action="store_true", help="build missing PDB files first")
    parser.add_argument(
        "--cases", help="folder of homework .in files (homework: solved first; cold: the cases)"
    )
    parser.add_argument("--repeat", type=int, default=3, help="runs per case (cold)")
    parser.add_argument("--reuse", action="store_true", help="memory: one solver per table for all boards")
    parser.add_argument("--fresh-numba", action="store_true", help="cold: an empty numba cache too")
    parser.add_argument("--max-nodes", type=int, default=1 << 62)
    parser.add_argument("--manhattan-nodes", type=int, default=20_000_000, help="cap for Manhattan IDA*")
    parser.add_argument("--cross", default="manhattan", help="second heuristic for the cross-check")
    parser.add_argument("--cross-nodes", type=int, default=0, help="cross-check cap (0: no cross-check)")
    args = parser.parse_args()
    if args.part == "ablation" and args.time_cap is None:
        args.time_cap = 30.0
    parts = {
        "homework": run_homework,
        "fifteen": run_fifteen,
        "build": run_build,
        "ablation": run_ablation,
        "memory": run_memory,
        "cold": run_cold,
    }
    parts[args.part](args)


if __name__ == "__main__":
    main()
