"""Isolation solved from the empty board: the openings up to symmetry, the proof's plan and the solution file.

The empty board is won by the first player iff some first move wins against every reply, and by
the second iff every first move has a refuting reply. Both are decided by 2-ply openings (a first
move and a reply), each one job for the fast engine's :meth:`~.fast.Engine.prove`; the board's
symmetries (8 on a square board, 4 on another) leave 10 first moves of 49 on 7x7, and a first
move's replies are taken up to the symmetries that keep that first move in place. :class:`ProofPlan`
picks the next opening to solve from what is known, and :class:`Solution` is the proof as a small
JSON file shipped in the package (``data/solution-7x7.json``), which ``best`` plays from and the
analysis reads.

>>> first_moves(7, 7)
[0, 1, 2, 3, 8, 9, 10, 16, 17, 24]
>>> len(replies(7, 7, 24)), len(replies(7, 7, 2)), len(replies(7, 7, 16))
(9, 48, 27)
"""

from __future__ import annotations

import functools
import json
import statistics
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Final

from gridarena.core.errors import GridArenaError
from gridarena.core.types import JSON
from gridarena.games.isolation.fast import WIN, Engine
from gridarena.games.isolation.rules import Cell, State

Symmetry = tuple[Cell, ...]
"""A symmetry of the board as a permutation: ``symmetry[cell]`` is the cell's image."""

SOLVE_TT_BITS: Final = 24
"""Transposition-table size (2^24 entries of 16 bytes: 256 MB) of a solving worker."""
SOLVE_PATH_MAX: Final = 60
SOLVE_PATH_BUDGET: Final = 200_000
"""Endgame limits of a solving worker: separated regions of up to 60 plies, 200,000 steps a path search."""
FORMAT: Final = "gridarena-isolation-solution"
BOOK_PLIES: Final = 8
"""The solution file's book holds the winner's moves below this ply (where a proof may take longer than a move)."""


class SolutionError(GridArenaError, ValueError):
    """A solution file that cannot be read or does not fit the board."""


def cell_text(cell: Cell, width: int) -> str:
    """A cell's text, as the game writes it (column letter, row from 1).

    >>> cell_text(24, 7), cell_text(2, 7)
    ('d4', 'c1')
    """
    row, col = divmod(cell, width)
    return f"{chr(ord('a') + col)}{row + 1}"


@functools.cache
def symmetries(width: int, height: int) -> tuple[Symmetry, ...]:
    """The board's symmetries that map knight moves to knight moves, identity first.

    Flips and the half turn for every board; on a square board also the quarter turns and the two
    diagonal reflections.

    >>> len(symmetries(7, 7)), len(symmetries(5, 4))
    (8, 4)
    >>> symmetries(3, 3)[1][:3]  # the left-right flip
    (2, 1, 0)
    """
    kinds = 8 if width == height else 4
    return tuple(
        tuple(_image(kind, *divmod(cell, width), width, height) for cell in range(width * height))
        for kind in range(kinds)
    )


def _image(kind: int, row: int, col: int, width: int, height: int) -> Cell:
    """Symmetry ``kind`` of a cell: bit 0 flips left-right, bit 1 top-bottom, bit 2 transposes first."""
    if kind & 4:
        row, col = col, row
    if kind & 1:
        col = width - 1 - col
    if kind & 2:
        row = height - 1 - row
    return row * width + col


def inverse(symmetry: Symmetry) -> Symmetry:
    """The permutation that undoes ``symmetry``.

    >>> s = symmetries(7, 7)[5]
    >>> inverse(s)[s[10]]
    10
    """
    back = [0] * len(symmetry)
    for cell, image in enumerate(symmetry):
        back[image] = cell
    return tuple(back)


def canonical(width: int, height: int, cells: tuple[Cell, ...]) -> tuple[tuple[Cell, ...], Symmetry]:
    """The least image of ``cells`` (placements in order) under the board's symmetries, and the symmetry that gives it.

    >>> canonical(7, 7, (48,))[0], canonical(7, 7, (6, 0))[0]
    ((0,), (0, 6))
    """
    images = [(tuple(s[c] for c in cells), s) for s in symmetries(width, height)]
    return min(images)


PositionKey = tuple[int, int, int]
"""A position up to symmetry: its blocked cells as a bit set and the two pieces' cells (-1 unplaced)."""


def position_key(state: State) -> tuple[PositionKey, Symmetry]:
    """The least image of a position under the board's symmetries, and the symmetry that gives it.

    >>> a = position_key(State(7, 7).child(0).child(1).child(15))[0]
    >>> a == position_key(State(7, 7).child(6).child(5).child(19))[0]  # the mirror image
    True
    """
    images = []
    for symmetry in symmetries(state.width, state.height):
        blocked = sum(1 << symmetry[c] for c in range(state.width * state.height) if state.blocked >> c & 1)
        loc0, loc1 = (-1 if loc is None else symmetry[loc] for loc in state.locs)
        images.append(((blocked, loc0, loc1), symmetry))
    return min(images)


def first_moves(width: int, height: int) -> list[Cell]:
    """One first move per class under the symmetries (the least cell of each), ascending."""
    return sorted({canonical(width, height, (c,))[0][0] for c in range(width * height)})


def replies(width: int, height: int, first: Cell) -> list[Cell]:
    """The replies to ``first`` up to the symmetries that keep ``first`` in place (least of each class)."""
    keep = [s for s in symmetries(width, height) if s[first] == first]
    return sorted({min(s[r] for s in keep) for r in range(width * height) if r != first})


def all_openings(width: int, height: int) -> list[tuple[Cell, Cell]]:
    """Every 2-ply opening up to symmetry, as ``(first, reply)`` of the classes' least cells."""
    return [(f, r) for f in first_moves(width, height) for r in replies(width, height, f)]


@dataclass(frozen=True, slots=True)
class OpeningResult:
    """A solved 2-ply opening: the winning seat and, if the first player wins, a winning third move.

    ``score`` is the prove's bound for the first player (to move at ply 2); ``nodes`` and ``cpu``
    (seconds of CPU) are the solve's cost.
    """

    first: Cell
    reply: Cell
    winner: int
    move: Cell
    score: int
    nodes: int
    cpu: float

    def to_json(self) -> dict[str, JSON]:
        """The result as stored (a job result and a row of the solution file)."""
        return {
            "first": self.first,
            "reply": self.reply,
            "winner": self.winner,
            "move": self.move,
            "score": self.score,
            "nodes": self.nodes,
            "cpu": round(self.cpu, 3),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> OpeningResult:
        """Inverse of :meth:`to_json`."""
        return cls(
            int(data["first"]),
            int(data["reply"]),
            int(data["winner"]),
            int(data["move"]),
            int(data["score"]),
            int(data["nodes"]),
            float(data["cpu"]),
        )


@functools.cache
def _solver(width: int, height: int, tt_bits: int) -> Engine:
    """One engine per worker process and board (its table is allocated once: 256 MB at 2^24)."""
    return Engine(width, height, tt_bits=tt_bits, path_max=SOLVE_PATH_MAX, path_budget=SOLVE_PATH_BUDGET)


def solve_opening(
    width: int, height: int, first: Cell, reply: Cell, tt_bits: int = SOLVE_TT_BITS
) -> OpeningResult:
    """Solve one 2-ply opening with a fresh table (so its cost does not depend on the jobs before it).

    ``cpu`` is the proof's time; clearing the table before it is not counted (about 0.1 s at 2^24).

    >>> solve_opening(4, 4, 5, 10, tt_bits=10).winner  # the second player wins after b2 c3
    1
    """
    engine = _solver(width, height, tt_bits)
    engine.clear()
    state = State(width, height).child(first).child(reply)
    start = time.process_time()
    result = engine.prove(state)
    cpu = round(time.process_time() - start, 3)
    winner = 0 if result.score > 0 else 1
    return OpeningResult(
        first, reply, winner, result.move if winner == 0 else -1, result.score, result.nodes, cpu
    )


def solve_job(payload: Mapping[str, JSON]) -> dict[str, JSON]:
    """The arena job of one opening: ``{"width", "height", "first", "reply", "tt_bits"}`` in, the result's JSON out."""
    args = (int(str(payload[k])) for k in ("width", "height", "first", "reply", "tt_bits"))
    return solve_opening(*args).to_json()


def job_name(first: Cell, reply: Cell) -> str:
    """The stored name of an opening's job (``"first,reply"``)."""
    return f"{first},{reply}"


class ProofPlan:
    """What is proved so far about the empty board, and which opening to solve next.

    A first move is *lost* once a reply refutes it (the second player wins the 2-ply opening) and
    *won* once every reply class is solved as a first-player win. The plan goes on until every
    first move is decided (or, with ``complete``, until every opening is solved). Replies are tried
    in the order most likely to refute first: replies that refuted other first moves, carried over
    (the same cell, the same offset from the first move, the point mirror if that refuted), then the
    point mirror of the first move, then the others nearest the mirror first.
    """

    def __init__(
        self, width: int, height: int, results: Iterable[OpeningResult] = (), complete: bool = False
    ) -> None:
        self.width, self.height, self.complete = width, height, complete
        self.firsts = first_moves(width, height)
        self.replies = {f: replies(width, height, f) for f in self.firsts}
        self.results: dict[tuple[Cell, Cell], OpeningResult] = {}
        for result in results:
            self.add(result)

    def add(self, result: OpeningResult) -> None:
        """Record a solved opening."""
        self.results[result.first, result.reply] = result

    def total(self) -> int:
        """Openings up to symmetry on this board."""
        return sum(len(r) for r in self.replies.values())

    def refutation(self, first: Cell) -> OpeningResult | None:
        """A solved reply that wins for the second player, if any (the least such reply)."""
        found = [self.results[first, r] for r in self.replies[first] if (first, r) in self.results]
        lost = [r for r in found if r.winner == 1]
        return min(lost, key=lambda r: r.reply) if lost else None

    def status(self, first: Cell) -> str | None:
        """``"lost"`` (refuted), ``"won"`` (every reply solved as a first-player win) or None (open)."""
        if self.refutation(first) is not None:
            return "lost"
        if all((first, r) in self.results for r in self.replies[first]):
            return "won"
        return None

    def winner(self) -> int | None:
        """The seat that wins the empty board, once proved."""
        states = [self.status(f) for f in self.firsts]
        if "won" in states:
            return 0
        if all(s == "lost" for s in states):
            return 1
        return None

    def done(self) -> bool:
        """Whether nothing is left to solve."""
        if self.complete:
            return len(self.results) == self.total()
        return all(self.status(f) is not None for f in self.firsts)

    def _mirror(self, cell: Cell) -> Cell:
        return self.width * self.height - 1 - cell

    def _carried(self, first: Cell) -> list[Cell]:
        """Replies that refuted other first moves, carried over to ``first`` (canonical, in order of discovery)."""
        fr, fc = divmod(first, self.width)
        found: list[Cell] = []
        for other in self.firsts:
            refutation = self.refutation(other)
            if refutation is None or other == first:
                continue
            r = refutation.reply
            orow, ocol = divmod(other, self.width)
            rrow, rcol = divmod(r, self.width)
            row, col = fr + rrow - orow, fc + rcol - ocol
            candidates = [r]
            if 0 <= row < self.height and 0 <= col < self.width:
                candidates.append(row * self.width + col)
            if r == self._mirror(other):
                candidates.append(self._mirror(first))
            found += [c for c in candidates if c != first]
        return found

    def order(self, first: Cell) -> list[Cell]:
        """The replies of ``first`` (class representatives) in the order they are tried."""
        keep = [s for s in symmetries(self.width, self.height) if s[first] == first]

        def rep(cell: Cell) -> Cell:
            return min(s[cell] for s in keep)

        mirror = self._mirror(first)
        mr, mc = divmod(mirror, self.width)

        def distance(cell: Cell) -> int:
            row, col = divmod(cell, self.width)
            return max(abs(row - mr), abs(col - mc))

        ordered: list[Cell] = []
        for cell in [*self._carried(first), mirror]:
            if cell != first and rep(cell) not in ordered:
                ordered.append(rep(cell))
        rest = sorted(self.replies[first], key=lambda c: (min(distance(s[c]) for s in keep), c))
        return ordered + [c for c in rest if c not in ordered]

    def next(self, busy: Iterable[tuple[Cell, Cell]] = ()) -> tuple[Cell, Cell] | None:
        """The opening to solve next, not among ``busy`` (being solved); None when nothing is left.

        Open first moves take turns (the one with fewest openings in flight first), so that one
        hard first move does not hold up the others; each tries its replies in :meth:`order`.
        """
        busy = set(busy)
        open_firsts = [f for f in self.firsts if self.complete or self.status(f) is None]
        open_firsts.sort(key=lambda f: sum(1 for b in busy if b[0] == f))
        for first in open_firsts:
            for reply in self.order(first):
                if (first, reply) not in self.results and (first, reply) not in busy:
                    return first, reply
        return None

    def summary(self) -> dict[str, JSON]:
        """What is proved so far, as ``isolation solve --show --json`` prints it."""
        winner = self.winner()
        results = list(self.results.values())
        return {
            "board": f"{self.width}x{self.height}",
            "winner": None if winner is None else ("first", "second")[winner],
            "openings": {"solved": len(results), "total": self.total()},
            "first_moves": {cell_text(f, self.width): self._first_json(f) for f in self.firsts},
            "figures": figures(results),
        }

    def _first_json(self, first: Cell) -> dict[str, JSON]:
        status = self.status(first)
        refutation = self.refutation(first)
        solved = sum(1 for r in self.replies[first] if (first, r) in self.results)
        entry: dict[str, JSON] = {
            "result": status,
            "replies": {"solved": solved, "total": len(self.replies[first])},
        }
        if refutation is not None:
            entry["refutation"] = cell_text(refutation.reply, self.width)
        return entry


def figures(results: list[OpeningResult]) -> dict[str, JSON]:
    """The cost of a set of solved openings: CPU seconds, nodes, and the spread of the per-opening times."""
    if not results:
        return {"cpu_seconds": 0.0, "nodes": 0}
    cpu = [r.cpu for r in results]
    return {
        "cpu_seconds": round(sum(cpu), 1),
        "nodes": sum(r.nodes for r in results),
        "opening_cpu_seconds": {
            "min": round(min(cpu), 3),
            "median": round(statistics.median(cpu), 3),
            "max": round(max(cpu), 3),
        },
        "nodes_per_second": round(sum(r.nodes for r in results) / max(sum(cpu), 1e-9)),
    }


# -- the solution file -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the solution says of a position: the seat that wins and, when known, a move that wins for it."""

    winner: int
    move: Cell | None


class Solution:
    """A solved board: the winner of the empty board and the solved 2-ply openings (up to symmetry).

    :meth:`verdict` answers for any position of the first three plies, through the symmetries.
    """

    def __init__(
        self,
        width: int,
        height: int,
        results: Iterable[OpeningResult],
        info: Mapping[str, JSON] | None = None,
        book: Mapping[PositionKey, Cell] | None = None,
    ) -> None:
        self.width, self.height = width, height
        self.plan = ProofPlan(width, height, results)
        self.info = dict(info or {})
        self.book: dict[PositionKey, Cell] = dict(book or {})
        winner = self.plan.winner()
        if winner is None:
            raise SolutionError(
                f"isolation solution {width}x{height}: the empty board is not decided by its openings"
            )
        self.winner = winner

    def to_json(self) -> dict[str, JSON]:
        """The file's content: the summary, the proof tree and every solved opening."""
        tree: dict[str, JSON] = {}
        for first in self.plan.firsts:
            text = cell_text(first, self.width)
            refutation = self.plan.refutation(first)
            if refutation is not None:
                tree[text] = {"wins": "second", "refutation": cell_text(refutation.reply, self.width)}
            elif self.plan.status(first) == "won":
                tree[text] = {"wins": "first", "replies": len(self.plan.replies[first])}
        return {
            "format": FORMAT,
            **self.plan.summary(),
            **self.info,
            "tree": tree,
            "book": [[*key, move] for key, move in sorted(self.book.items())],
            "results": [
                r.to_json() for r in sorted(self.plan.results.values(), key=lambda r: (r.first, r.reply))
            ],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], where: str = "solution") -> Solution:
        """Read a solution file's content."""
        if data.get("format") != FORMAT:
            raise SolutionError(
                f"{where}: not a gridarena Isolation solution (format {data.get('format')!r})"
            )
        try:
            width, height = (int(x) for x in str(data["board"]).split("x"))
            results = [OpeningResult.from_json(r) for r in data["results"]]
            book = {(int(b), int(l0), int(l1)): int(move) for b, l0, l1, move in data.get("book", [])}
        except (KeyError, TypeError, ValueError) as exc:
            raise SolutionError(f"{where}: malformed solution ({exc})") from None
        info = {k: v for k, v in data.items() if k in ("engine", "command", "book_plies")}
        return cls(width, height, results, info, book)

    def write(self, path: Path) -> None:
        """Write the file (indented, the results one per line)."""
        data = self.to_json()
        rows = data.pop("results")
        book = data.pop("book")
        assert isinstance(rows, list) and isinstance(book, list)
        head = json.dumps(data, indent=1)[:-2]

        def lines(items: list[Any]) -> str:
            return ",\n".join("  " + json.dumps(r, separators=(",", ":")) for r in items)

        text = f'{head},\n "book": [\n{lines(book)}\n ],\n "results": [\n{lines(rows)}\n ]\n}}\n'
        path.write_text(text, encoding="utf-8")

    def verdict(self, state: State) -> Verdict | None:
        """The winner of a position of the first three plies (and a winning move when known), or of a
        position of the book (where the winner is to move, with its move), else None."""
        if (state.width, state.height) != (self.width, self.height):
            return None
        if state.ply > 2:
            if state.ply >= int(str(self.info.get("book_plies", BOOK_PLIES))):
                return None
            key, symmetry = position_key(state)
            move = self.book.get(key)
            return None if move is None else Verdict(state.ply % 2, inverse(symmetry)[move])
        placed = tuple(c for c in state.locs if c is not None)
        if state.ply == 0:
            first = self.winning_first_move()
            return Verdict(self.winner, first)
        (cells, symmetry) = canonical(self.width, self.height, placed)
        back = inverse(symmetry)
        if state.ply == 1:
            refutation = self.plan.refutation(cells[0])
            if refutation is not None:
                return Verdict(1, back[refutation.reply])
            return Verdict(0, None) if self.plan.status(cells[0]) == "won" else None
        result = self.plan.results.get((cells[0], cells[1]))
        if result is None:
            return None
        return Verdict(result.winner, back[result.move] if result.winner == 0 else None)

    def winning_first_move(self) -> Cell | None:
        """A first move that wins (the least), if the first player wins."""
        won = [f for f in self.plan.firsts if self.plan.status(f) == "won"]
        return won[0] if won else None


def book_lines(solution: Solution, engine: Engine, plies: int) -> dict[PositionKey, Cell]:
    """The winner's move in every position of its won lines below ``plies``, past the solved openings.

    From the empty board the winner plays the solution's move (then the engine's proof) and the
    loser every legal move; positions are taken up to symmetry. ``best`` reads the book where its
    own proof search might not finish within a move's time (the first plies of the knight moves).
    """
    book: dict[PositionKey, Cell] = {}
    seen: set[PositionKey] = set()

    def walk(state: State) -> None:
        key = position_key(state)[0]
        if state.ply >= plies or state.is_terminal() or key in seen:
            return
        seen.add(key)
        if state.ply % 2 != solution.winner:
            for move in state.legal_actions():
                walk(state.child(move))
            return
        verdict = solution.verdict(state) if state.ply <= 2 else None
        if verdict is not None and verdict.move is not None:
            move = verdict.move
        else:
            engine.clear()
            proof = engine.prove(state)
            if proof.score <= 0:
                raise SolutionError(
                    f"isolation book: the winner does not win at ply {state.ply}: {state.to_json()}"
                )
            move = proof.move
            book[key] = position_key(state)[1][move]
        walk(state.child(move))

    walk(State(solution.width, solution.height))
    return book


def solution_path(width: int, height: int) -> str:
    """The name of the shipped solution file of a board size."""
    return f"solution-{width}x{height}.json"


@functools.cache
def shipped_solution(width: int, height: int) -> Solution | None:
    """The solution shipped in the package for this board size, if there is one."""
    source = resources.files("gridarena.games.isolation").joinpath("data", solution_path(width, height))
    if not source.is_file():
        return None
    return Solution.from_json(json.loads(source.read_text(encoding="utf-8")), solution_path(width, height))


def win_plies(score: int) -> int:
    """Plies to the end that a proven score names (``WIN - k`` or ``-(WIN - k)``).

    >>> win_plies(999_957), win_plies(-999_956)
    (43, 44)
    """
    return WIN - abs(score)


__all__ = [
    "SOLVE_TT_BITS",
    "OpeningResult",
    "ProofPlan",
    "Solution",
    "SolutionError",
    "Verdict",
    "all_openings",
    "canonical",
    "first_moves",
    "replies",
    "shipped_solution",
    "solve_job",
    "solve_opening",
    "symmetries",
]
