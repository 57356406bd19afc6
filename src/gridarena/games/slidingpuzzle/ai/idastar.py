"""The IDA* solver, the puzzle's fast path: :class:`IdaStar` drives the numba kernel of :mod:`..fast.idastar`.

Children come in the order of the blanks' cells, then the direction from the blank (up, down, left,
right). Of two commuting slides (disjoint cells) in a row only one order is searched, a slide that undoes
an earlier one across commuting slides is never made, and with two or more blanks a table of exact
packed boards prunes boards reached again no shallower in the iteration; all three together keep the
first optimal path in depth-first order (:func:`~gridarena.games.slidingpuzzle.fast.idastar.ida_task`,
docs/slidingpuzzle.md). The driver runs the kernel in one or several threads (tasks over a shallow
frontier), with limits, progress and a stop event. A node is *expanded* when its children are
generated; every child created counts as *generated*, summed over the iterations."""

from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

import numpy as np

from gridarena.games.slidingpuzzle.ai.heuristics import Heuristic, SolverError
from gridarena.games.slidingpuzzle.board import Action, Board, action_of
from gridarena.games.slidingpuzzle.fast.idastar import INFINITY, ida_task
from gridarena.games.slidingpuzzle.fast.incremental import (
    KernelHeuristic,
)
from gridarena.games.slidingpuzzle.solvability import EXHAUSTED
from gridarena.search import Solution

#: The table's default limit on a large machine. Hard homework boards gain 3-7% fewer expansions from
#: 2^27 slots against 2^20 (docs/slidingpuzzle.md), so 2^25 slots (1 GiB) lose little.
DEFAULT_MEMORY: Final = 1 << 30
#: The table's first size, in log2 of its slots (512 KB on the homework board). After an iteration that
#: expanded more boards than the table has slots, it grows to hold them, up to the limit: an easy board
#: never pays for zeroing the pages of a large table (a fresh 4 GiB table cost about 4 s, a 6 GB one
#: 40 s of system time on a board of 8 slides), and a hard one gets a table the size of its iterations.
FIRST_TABLE_BITS: Final = 14
#: The reason a search stopped at its node limit starts with this.
NODE_LIMIT: Final = "node limit reached"


def default_memory() -> int:
    """The transposition table's default limit (bytes): 1 GiB, or an eighth of the machine's memory if less.

    It is a limit, not a size: the table starts small and grows only while the search needs it
    (:class:`IdaStar`).
    """
    try:
        machine = int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))
    except (ValueError, OSError, AttributeError):  # no sysconf: assume a modest 4 GB machine
        machine = 4 << 30
    return min(DEFAULT_MEMORY, machine // 8)


@dataclass(frozen=True)
class Progress:
    """Where a running search is: its current bound (no solution is shorter), counts and time."""

    bound: int
    expanded: int
    generated: int
    seconds: float

    @property
    def rate(self) -> float:
        """Expansions per second of wall time so far."""
        return self.expanded / self.seconds if self.seconds > 0 else 0.0

    def line(self) -> str:
        """One line for a terminal: bound, nodes, nodes/s, elapsed."""
        return (
            f"bound {self.bound}  nodes {self.expanded:,}  {self.rate / 1e6:.2f} M/s  "
            f"elapsed {self.seconds:.1f} s"
        )


#: A kernel call's (result, next bound) and its slides (``moves``).
Outcome = tuple[tuple[int, int], np.ndarray]

_FRONTIER_ROWS: Final = 1 << 14  # tasks are numbered in 16 bits (_TASK_BITS)
_TASKS_PER_THREAD: Final = 64
#: Tasks start no deeper than this: each deeper try repeats the collecting search, and an iteration
#: with few boards there is small anyway.
_MAX_TASK_DEPTH: Final = 12


class IdaStar:
    """Numba IDA* for one heuristic; reusable across boards (tables are prepared once).

    With two or more blanks a transposition table of exact packed boards, shared by the threads, prunes
    boards reached again no shallower in the current iteration (:func:`_tt_visit`). It starts at
    2^:data:`FIRST_TABLE_BITS` slots and, after an iteration that expanded more boards than it has
    slots, grows to hold them (its entries only serve the iteration that wrote them, so nothing is
    lost), up to ``memory`` bytes (default :func:`default_memory`; never more slots than about twice
    the boards of a small board). ``transpositions`` fixes it at 2^``transpositions`` slots (0: off).
    With one blank it is off unless asked for: a single-blank board has few transpositions and the table
    only slows the search.
    ``threads`` > 1 splits each iteration's frontier at a shallow depth into tasks that the threads
    take in depth-first order (numba releases the GIL). ``prune_commute`` and ``prune_chain`` switch the
    move pruning (:func:`ida_task`) for ablations; optimal answers do not depend on them.
    """

    def __init__(
        self,
        heuristic: Heuristic,
        *,
        transpositions: int | None = None,
        memory: int | None = None,
        threads: int = 1,
        prune_commute: bool = True,
        prune_chain: bool = True,
        weight: float = 1.0,
    ) -> None:
        if not 1 <= threads <= 8:
            raise SolverError(
                f"threads must be 1 to 8 (the table keeps a thread number in 3 bits), not {threads}"
            )
        if not 1.0 <= weight <= 64.0:
            raise SolverError(f"weight {weight} is out of range: it must be between 1 and 64")
        self.weight = weight
        self._wg, self._wh = (1, 1) if weight == 1.0 else (16, round(16 * weight))
        self.heuristic = heuristic
        self.kernel = KernelHeuristic(heuristic)
        self.threads = threads
        self.prune_commute = prune_commute
        self.prune_chain = prune_chain
        self._layout(heuristic)
        self.memory = default_memory() if memory is None else memory
        if transpositions is None:
            bits = self._budget_bits(heuristic) if len(heuristic.goal.blanks) > 1 else 0
        else:
            bits = transpositions
        #: log2 of the slots the table may grow to, and of the slots it has now (0: no table).
        self.max_tt_bits = bits if self.key_words > 0 else 0
        self.tt_bits = (
            self.max_tt_bits if transpositions is not None else min(self.max_tt_bits, FIRST_TABLE_BITS)
        )
        self._tt: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self._stamp = 0

    def _budget_bits(self, heuristic: Heuristic) -> int:
        """log2 of the table's slots: within ``memory`` and no more than twice the boards there are."""
        slot_bytes = self._slot_bytes()
        bits = 0
        while (slot_bytes << (bits + 1)) <= self.memory and bits < 40:
            bits += 1
        cells, blanks = heuristic.geo.size, len(heuristic.goal.blanks)
        boards = math.factorial(cells) // math.factorial(blanks)
        while bits > 10 and (1 << (bits - 1)) >= 2 * boards:
            bits -= 1
        return bits if bits >= 4 else 0

    @property
    def name(self) -> str:
        """The algorithm and the heuristic, e.g. ``idastar/pdb(6-6-3r)`` (``/w=2`` when weighted)."""
        return f"idastar/{self.heuristic.name}" + (f"/w={self.weight:g}" if self.weight != 1.0 else "")

    @property
    def table_bytes(self) -> int:
        """The bytes of the transposition table now (one, shared by the threads)."""
        return self._slot_bytes() << self.tt_bits if self.tt_bits else 0

    @property
    def table_limit(self) -> int:
        """The bytes the transposition table may grow to."""
        return self._slot_bytes() << self.max_tt_bits if self.max_tt_bits else 0

    def _slot_bytes(self) -> int:
        return 8 * max(1, self.key_words) + 16

    def _grow(self, expanded: int) -> None:
        """After an iteration of ``expanded`` expansions: a table with more slots than that, within the limit.

        The old table is dropped, not copied: its entries belong to the finished iteration.
        """
        bits = min(self.max_tt_bits, max(self.tt_bits, expanded.bit_length()))
        if bits > self.tt_bits:
            self.tt_bits, self._tt = bits, None

    def _layout(self, heuristic: Heuristic) -> None:
        """Where each movable cell's tile number sits in the exact packed board key (int64 words)."""
        bits = max(1, max(heuristic.goal.tiles, default=1).bit_length())
        per_word = 63 // bits
        size = heuristic.geo.size
        words = -(-size // per_word)
        self.key_words = words if words <= 4 else 0  # bigger boards go without the table
        self.kword = np.array([m // per_word for m in range(size)], dtype=np.int64)
        self.kshift = np.array([bits * (m % per_word) for m in range(size)], dtype=np.int64)

    def _table(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The threads' shared table: key words and a check word, g << 16 | task number, stamp."""
        if self._tt is None:
            slots = 1 << self.tt_bits if self.tt_bits else 0
            self._tt = (
                np.zeros((slots, max(1, self.key_words) + 1), dtype=np.int64),
                np.zeros(slots, dtype=np.int32),
                np.zeros(slots, dtype=np.int32),
            )
        return self._tt

    def _next_stamp(self) -> int:
        # Stamps tell this iteration's entries from older ones, so the table is never cleared.
        self._stamp += 1
        return self._stamp

    def _key(self, occ: np.ndarray) -> np.ndarray:
        key = np.zeros(max(1, self.key_words), dtype=np.int64)
        if self.key_words:
            for m, t in enumerate(occ):
                key[self.kword[m]] ^= int(t) << int(self.kshift[m])
        return key

    def h0(self, board: Board) -> int:
        """The kernel's heuristic value of ``board`` (tests compare it with ``Heuristic.estimate``)."""
        return self.kernel.value(self.kernel.start(board)[3])

    def _run(
        self,
        root: tuple[np.ndarray, ...],
        bound: int,
        limit: int,
        counts: np.ndarray,
        stop: np.ndarray,
        moves: np.ndarray,
        n_prefix: int,
        collect: int,
        frontier: np.ndarray,
        task: int,
        stamp: int,
    ) -> tuple[int, int]:
        """One call of the kernel on fresh copies of the root's state (the kernel changes them)."""
        heur, k = self.heuristic, self.kernel
        occ, pos, blanks, hc, lc_lines, pv, mpv, key, rinfo = (a.copy() for a in root)
        return ida_task(
            bound, limit, counts, stop, occ, pos, blanks, heur.geo.neighbours, heur.dist, hc,
            heur.linear_conflict, lc_lines, k.rows, k.cols, k.grow, k.gcol, k.pat_of, k.pat_tiles,
            k.pat_k, k.pat_w, k.tables, k.packed, pv, mpv, heur.mirror, heur.mirror_cell,
            heur.mirror_tile, moves, n_prefix, collect, frontier, key, self.kword, self.kshift,
            *self._table(), stamp, task,
            k.pat_slots, k.cellbit, rinfo, self.prune_commute, self.prune_chain, self._wg, self._wh,
        )  # fmt: skip

    def solve(
        self,
        board: Board,
        *,
        max_nodes: int = 1 << 62,
        deadline: float | None = None,
        progress: Callable[[Progress], None] | None = None,
        interval: float = 0.5,
        stop: threading.Event | None = None,
    ) -> Solution[Action]:
        """An optimal solution of ``board``, or what was proved when stopped.

        The search stops at ``max_nodes`` expansions (status ``limit``), at ``deadline`` (a
        ``time.perf_counter`` value) or when ``stop`` is set (e.g. on Ctrl-C); a stopped answer's
        ``bound`` is the least length still possible. ``progress`` is called every ``interval``
        seconds and at each new bound. With a deadline, progress or stop event, or several threads,
        the kernel runs in worker threads and the calling thread watches them.
        """
        k = self.kernel
        started = time.perf_counter()
        occ, pos, blanks, hc, lc_lines, pv, mpv = k.start(board)
        root = (occ, pos, blanks, hc, lc_lines, pv, mpv, self._key(occ), k.rinfo.copy())
        h0 = k.value(hc)
        bound = self._wh * h0
        counts = np.zeros((self.threads, 3), dtype=np.int64)
        flag = np.zeros(1, dtype=np.int64)
        watched = self.threads > 1 or deadline is not None or progress is not None or stop is not None
        why = ""

        def answer(path: tuple[int, ...] | None, stopped: bool = False, reason: str = "") -> Solution[Action]:
            return Solution(
                path,
                math.inf if path is None else float(len(path)),
                int(counts[:, 0].sum()),
                int(counts[:, 1].sum()),
                stopped=stopped,
                reason=reason,
                bound=proven() if stopped else 0,  # a stopped search proved its last bound
                h0=h0,
                weight=self.weight,
                algorithm=self.name,
                seconds=time.perf_counter() - started,
            )

        def proven() -> int:
            # The bound of an optimal search is proven; a weighted one proves only its own h0.
            return bound if self.weight == 1.0 else h0

        def report() -> None:
            if progress is not None:
                seconds = time.perf_counter() - started
                progress(Progress(proven(), int(counts[:, 0].sum()), int(counts[:, 1].sum()), seconds))

        def watch(workers: list[threading.Thread]) -> None:
            nonlocal why
            last = time.perf_counter()
            for worker in workers:
                worker.start()
            try:
                while any(w.is_alive() for w in workers):
                    next(w for w in workers if w.is_alive()).join(0.05)
                    now = time.perf_counter()
                    if not why:
                        if stop is not None and stop.is_set():
                            why = "interrupted"
                        elif deadline is not None and now > deadline:
                            why = "time limit reached"
                        elif counts[:, 0].sum() >= max_nodes:
                            why = NODE_LIMIT
                        if why:
                            flag[0] = 1
                    if now - last >= interval:
                        last = now
                        report()
            except BaseException:  # Ctrl-C in the watching thread: stop the workers, then pass it on
                flag[0] = 1
                for worker in workers:
                    worker.join()
                raise

        if h0 == 0:
            return answer(())
        cells = self.heuristic.geo.cells
        collect = 2
        while True:
            report()
            next_bound = INFINITY
            before = int(counts[:, 0].sum())
            results, collect = self._iteration(root, bound, max_nodes, counts, flag, collect, watched, watch)
            self._grow(int(counts[:, 0].sum()) - before)
            for (length, nb), moves in results:
                next_bound = min(next_bound, nb)
                if length >= 0:
                    return answer(
                        tuple(action_of(int(cells[moves[i, 1]]), int(moves[i, 3])) for i in range(length))
                    )
            hit_limit = any(length == -2 for (length, _), _ in results) or counts[:, 0].sum() >= max_nodes
            if not why and hit_limit:
                why = NODE_LIMIT
            if not why and deadline is not None and time.perf_counter() > deadline:
                why = "time limit reached"
            if not why and stop is not None and stop.is_set():
                why = "interrupted"
            if why:
                return answer(
                    None, stopped=True, reason=f"{why} (no solution shorter than {proven()} slides)"
                )
            if next_bound >= INFINITY:
                return answer(None, reason=EXHAUSTED)
            bound = next_bound

    def _iteration(
        self,
        root: tuple[np.ndarray, ...],
        bound: int,
        max_nodes: int,
        counts: np.ndarray,
        flag: np.ndarray,
        collect: int,
        watched: bool,
        watch: Callable[[list[threading.Thread]], None],
    ) -> tuple[list[Outcome], int]:
        """One iteration to ``bound``: every kernel call's outcome with its slides, and the task depth.

        One thread searches from the root; several take the tasks of :meth:`_frontier` in order.
        """
        results: list[Outcome] = []
        if self.threads == 1:
            moves = np.zeros((bound // self._wg + 2, 4), dtype=np.int64)
            stamp = self._next_stamp()

            def serial() -> None:
                args = (root, bound, max_nodes, counts[0], flag, moves, 0, 0, moves, 0, stamp)
                results.append((self._run(*args), moves))

            if watched:
                watch([threading.Thread(target=serial, daemon=True)])
            else:
                serial()
            return results, collect
        tasks, collect, collected = self._frontier(root, bound, max_nodes, counts, flag, collect)
        results.append(collected)
        lock = threading.Lock()
        taken = [0]
        stamp = self._next_stamp()  # not the frontier's: its entries would prune the tasks' roots

        def work(thread: int) -> None:
            while not flag[0]:
                with lock:
                    number = taken[0]
                    taken[0] += 1
                if number >= len(tasks):
                    return
                moves = np.zeros((bound // self._wg + 2, 4), dtype=np.int64)
                moves[:collect] = tasks[number].reshape(collect, 4)
                spent = int(counts[:, 0].sum())
                limit = int(counts[thread, 0]) + max(0, max_nodes - spent)
                args = (root, bound, limit, counts[thread], flag, moves, collect, 0, moves, number, stamp)
                outcome = self._run(*args)
                with lock:
                    results.append((outcome, moves))
                if outcome[0] >= 0 or outcome[0] == -2:
                    flag[0] = 1  # a solution (optimal: its length is the bound) or the node limit

        if collected[0][0] == -1 and tasks.shape[0]:
            watch([threading.Thread(target=work, args=(i,), daemon=True) for i in range(self.threads)])
        return results, collect

    def _frontier(
        self,
        root: tuple[np.ndarray, ...],
        bound: int,
        max_nodes: int,
        counts: np.ndarray,
        flag: np.ndarray,
        depth: int,
    ) -> tuple[np.ndarray, int, Outcome]:
        """The tasks of a parallel iteration: the slides to the boards at the first depth (from
        ``depth`` on) with enough of them, that depth, and the collecting search's own outcome (a
        solution shallower than that depth, the node limit, and its next bound)."""
        want = _TASKS_PER_THREAD * self.threads
        depth = max(1, min(depth, _MAX_TASK_DEPTH, bound // self._wg - 1))
        kept: tuple[np.ndarray, int, Outcome] | None = None
        while True:
            frontier = np.zeros((_FRONTIER_ROWS, 4 * depth), dtype=np.int64)
            moves = np.zeros((bound // self._wg + 2, 4), dtype=np.int64)
            counts[0, 2] = 0
            stamp = self._next_stamp()
            outcome = self._run(root, bound, max_nodes, counts[0], flag, moves, 0, depth, frontier, 0, stamp)
            if outcome[0] == -4 and kept is not None:
                return kept  # the deeper frontier does not fit: the last one does
            if outcome[0] == -4:
                if depth == 1:
                    raise SolverError(f"more than {_FRONTIER_ROWS} boards one slide from the start")
                depth = max(1, depth // 2)  # the last iteration's depth is too deep now
                continue
            found = frontier[: counts[0, 2]].copy()
            kept = (found, depth, (outcome, moves))
            if outcome[0] != -1 or len(found) >= want or depth >= min(_MAX_TASK_DEPTH, bound // self._wg - 1):
                return kept
            depth += 1
