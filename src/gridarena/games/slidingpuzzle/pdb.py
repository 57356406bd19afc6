"""Additive pattern databases: a numba builder, an on-disk format, memory-mapped loading.

A PDB for pattern P stores, for every placement of P's tiles on the movable cells, the least number
of slides *of P's tiles* that bring them home, when every other tile is indistinguishable and moves
for free. Each slide moves one tile, so the values of disjoint patterns add up admissibly.

The builder runs one breadth-first search backwards from the goal over abstract states (placement
of P's tiles, blanks). Because the other tiles move for free, a blank can go anywhere in its region
(the connected set of cells not holding P's tiles), so a state keeps only how many blanks each region
holds, with the blanks put on the region's smallest cells: the zero-cost moves disappear and the 0-1
search becomes a plain breadth-first search over these canonical states. The stored value is the
minimum over the blank arrangements (Korf and Felner's style), keyed by a perfect hash of the
placement alone: the rank of the ordered k-permutation of P's cells among the M movable cells.

States are integers ``placement_rank * C(M - k, b) + blank_rank`` (``blank_rank``: the colex rank
of the blanks' indices among the non-pattern cells), kept in a bit set, so no Python object exists
per state. Up to two blanks are supported (the homework has two, the classic puzzles one).
"""

from __future__ import annotations

import json
import os
import time
import zlib
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from math import comb, perm
from pathlib import Path
from typing import Any, Final

import numpy as np
from numba import njit

from gridarena.core.errors import GridArenaError
from gridarena.games.slidingpuzzle.formats import pattern_problem
from gridarena.games.slidingpuzzle.rules import WALL, Board, goal_board, homework_goal, movable_neighbours

MAGIC: Final = b"GAPDB\r\n\x1a"  # the PNG trick: text-mode copies and truncations show at once
FORMAT_VERSION: Final = 1
ALIGN: Final = 64
UNSET: Final = 255
MAX_BLANKS: Final = 2


class PdbError(GridArenaError, ValueError):
    """A pattern database that cannot be built or used as asked."""


class PdbFileError(PdbError):
    """A PDB file that is not ours, truncated, corrupted, or built for another board or pattern."""

    def __init__(self, path: str | os.PathLike[str], message: str) -> None:
        super().__init__(f"{path}: {message}")


# ---------------------------------------------------------------------------------------------
# Geometry on movable cells


@dataclass(frozen=True)
class Geometry:
    """The movable cells of a goal board, renumbered 0..M-1, with their neighbours (-1: none)."""

    goal: Board
    cells: np.ndarray  # movable index -> board cell
    index: np.ndarray  # board cell -> movable index (-1 for walls)
    neighbours: np.ndarray  # (M, 4), movable indices in direction order up, down, left, right

    @classmethod
    def of(cls, goal: Board) -> Geometry:
        """The geometry of ``goal``'s board."""
        cells = np.array([c for c, v in enumerate(goal.cells) if v != WALL], dtype=np.int64)
        index = np.full(len(goal.cells), -1, dtype=np.int64)
        index[cells] = np.arange(len(cells))
        near = np.full((len(cells), 4), -1, dtype=np.int64)
        adjacent = movable_neighbours(goal)
        for m, c in enumerate(cells):
            for n in adjacent[c]:
                dr, dc = divmod(n, goal.cols)[0] - c // goal.cols, n % goal.cols - c % goal.cols
                near[m, ((-1, 0), (1, 0), (0, -1), (0, 1)).index((dr, dc))] = index[n]
        return cls(goal, cells, index, near)

    @property
    def size(self) -> int:
        """M, the number of movable cells."""
        return len(self.cells)


def placement_weights(m: int, k: int) -> np.ndarray:
    """Mixed-radix weights of the k-permutation rank: ``W[i] = P(m - i - 1, k - i - 1)``.

    >>> placement_weights(5, 3).tolist()
    [12, 3, 1]
    """
    return np.array([perm(m - i - 1, k - i - 1) for i in range(k)], dtype=np.int64)


def rank_placement_ref(cells: Sequence[int], m: int) -> int:
    """Readable reference: lexicographic rank of distinct ``cells`` among k-permutations of range(m).

    >>> [rank_placement_ref(p, 3) for p in ((0, 1), (0, 2), (1, 0), (2, 1))]
    [0, 1, 2, 5]
    """
    rank, k = 0, len(cells)
    for i, c in enumerate(cells):
        digit = c - sum(1 for d in cells[:i] if d < c)
        rank += digit * perm(m - i - 1, k - i - 1)
    return rank


@njit(cache=True)
def rank_placement(pos: np.ndarray, k: int, weights: np.ndarray) -> int:
    """Numba twin of :func:`rank_placement_ref` (``pos[:k]`` are movable indices < 63)."""
    rank = 0
    used = np.int64(0)
    for i in range(k):
        c = pos[i]
        below = used & ((np.int64(1) << c) - 1)
        n = 0
        while below:
            below &= below - 1
            n += 1
        rank += (c - n) * weights[i]
        used |= np.int64(1) << c
    return rank


@njit(cache=True)
def unrank_placement(rank: int, k: int, m: int, weights: np.ndarray, pos: np.ndarray) -> None:
    """Inverse of :func:`rank_placement`, written into ``pos[:k]``."""
    used = np.int64(0)
    for i in range(k):
        digit = rank // weights[i]
        rank -= digit * weights[i]
        c = 0
        while True:
            if not (used >> c) & 1:
                if digit == 0:
                    break
                digit -= 1
            c += 1
        pos[i] = c
        used |= np.int64(1) << c


# ---------------------------------------------------------------------------------------------
# The builder kernel


@njit(cache=True)
def _regions(occupied: np.ndarray, near: np.ndarray, label: np.ndarray, stack: np.ndarray) -> int:
    """Label the connected regions of unoccupied cells 0, 1, ... (-1 on occupied cells); the count."""
    m = occupied.shape[0]
    for c in range(m):
        label[c] = -1
    count = 0
    for s in range(m):
        if occupied[s] or label[s] >= 0:
            continue
        label[s] = count
        top = 0
        stack[0] = s
        while top >= 0:
            c = stack[top]
            top -= 1
            for d in range(4):
                n = near[c, d]
                if n >= 0 and not occupied[n] and label[n] < 0:
                    label[n] = count
                    top += 1
                    stack[top] = n
        count += 1
    return count


@njit(cache=True)
def _blank_rank(
    blanks: np.ndarray,
    nb: int,
    occupied: np.ndarray,
    label: np.ndarray,
    n_regions: int,
    binom: np.ndarray,
    per_region: np.ndarray,
) -> int:
    """Colex rank of the canonical blanks: per region, its blank count on its smallest free cells."""
    m = occupied.shape[0]
    for r in range(n_regions):
        per_region[r] = 0
    for j in range(nb):
        per_region[label[blanks[j]]] += 1
    rank = 0
    free_index = 0
    placed = 0
    for c in range(m):
        if occupied[c]:
            continue
        r = label[c]
        if per_region[r] > 0:
            per_region[r] -= 1
            placed += 1
            rank += binom[free_index, placed]
        free_index += 1
    return rank


@njit(cache=True)
def _decode(
    state: int,
    k: int,
    nb: int,
    m: int,
    n_comb: int,
    weights: np.ndarray,
    binom: np.ndarray,
    pos: np.ndarray,
    occupied: np.ndarray,
    blanks: np.ndarray,
    free_cells: np.ndarray,
) -> int:
    """Unpack a state into pattern cells, occupancy and blank cells; returns the placement rank."""
    prank = state // n_comb
    crank = state - prank * n_comb
    unrank_placement(prank, k, m, weights, pos)
    for c in range(m):
        occupied[c] = False
    for i in range(k):
        occupied[pos[i]] = True
    nf = 0
    for c in range(m):
        if not occupied[c]:
            free_cells[nf] = c
            nf += 1
    for j in range(nb - 1, -1, -1):
        f = j
        while f + 1 < nf and binom[f + 1, j + 1] <= crank:
            f += 1
        crank -= binom[f, j + 1]
        blanks[j] = free_cells[f]
    return prank


@njit(cache=True)
def _bfs(
    k: int,
    nb: int,
    m: int,
    near: np.ndarray,
    start_pos: np.ndarray,
    start_blanks: np.ndarray,
    values: np.ndarray,
    seen: np.ndarray,
) -> tuple[int, int]:
    """Breadth-first search from the goal's abstract state; fills ``values``; (states, max depth)."""
    weights = np.empty(k, dtype=np.int64)
    for i in range(k):
        w = 1
        for j in range(m - k + 1, m - i):
            w *= j
        weights[i] = w
    binom = np.zeros((m + 1, nb + 2), dtype=np.int64)
    for n in range(m + 1):
        binom[n, 0] = 1
        for r in range(1, nb + 2):
            binom[n, r] = 0 if n == 0 else binom[n - 1, r - 1] + binom[n - 1, r]
    n_comb = binom[m - k, nb]
    pos = np.empty(k, dtype=np.int64)
    new_pos = np.empty(k, dtype=np.int64)
    occupied = np.zeros(m, dtype=np.bool_)
    new_occ = np.zeros(m, dtype=np.bool_)
    blanks = np.empty(nb, dtype=np.int64)
    new_blanks = np.empty(nb, dtype=np.int64)
    label = np.empty(m, dtype=np.int64)
    new_label = np.empty(m, dtype=np.int64)
    stack = np.empty(m + 1, dtype=np.int64)
    tried = np.empty(m, dtype=np.int64)
    per_region = np.empty(m, dtype=np.int64)
    free_cells = np.empty(m, dtype=np.int64)

    for i in range(k):
        occupied[start_pos[i]] = True
    n_reg = _regions(occupied, near, label, stack)
    prank = rank_placement(start_pos, k, weights)
    state = prank * n_comb + _blank_rank(start_blanks, nb, occupied, label, n_reg, binom, per_region)
    seen[state >> 3] |= np.uint8(1 << (state & 7))
    values[prank] = 0
    frontier = np.empty(1024, dtype=np.int64)
    frontier[0] = state
    n_front = 1
    total = 1
    depth = 0
    while n_front > 0:
        nxt = np.empty(max(1024, 2 * n_front), dtype=np.int64)
        n_next = 0
        for q in range(n_front):
            _decode(frontier[q], k, nb, m, n_comb, weights, binom, pos, occupied, blanks, free_cells)
            n_reg = _regions(occupied, near, label, stack)
            for i in range(k):
                c = pos[i]
                for d in range(4):
                    t = near[c, d]
                    if t < 0 or occupied[t]:
                        continue
                    region = label[t]
                    in_region = 0
                    for j in range(nb):
                        if label[blanks[j]] == region:
                            in_region += 1
                    if in_region == 0:
                        continue
                    # Tile i moves c -> t; the blank that was at t is now at c.
                    for j in range(k):
                        new_pos[j] = pos[j]
                    new_pos[i] = t
                    for j in range(m):
                        new_occ[j] = occupied[j]
                    new_occ[c] = False
                    new_occ[t] = True
                    new_reg = _regions(new_occ, near, new_label, stack)
                    new_prank = rank_placement(new_pos, k, weights)
                    new_blanks[0] = c
                    kept = 1
                    for j in range(nb):
                        if label[blanks[j]] != region:
                            new_blanks[kept] = blanks[j]
                            kept += 1
                    n_options = 1
                    if in_region == 2:
                        # The region's second blank may stand anywhere in it except t; after the move the
                        # region may split, and each part it could be in is a different successor.
                        n_options = 0
                        for e in range(m):
                            if e != t and not occupied[e] and label[e] == region:
                                seen_label = False
                                for x in range(n_options):
                                    if new_label[tried[x]] == new_label[e]:
                                        seen_label = True
                                if not seen_label:
                                    tried[n_options] = e
                                    n_options += 1
                    for option in range(n_options):
                        if in_region == 2:
                            new_blanks[1] = tried[option]
                        nstate = new_prank * n_comb + _blank_rank(
                            new_blanks, nb, new_occ, new_label, new_reg, binom, per_region
                        )
                        byte = nstate >> 3
                        bit = np.uint8(1 << (nstate & 7))
                        if seen[byte] & bit:
                            continue
                        seen[byte] |= bit
                        if values[new_prank] == 255:
                            values[new_prank] = depth + 1
                        if n_next == nxt.shape[0]:
                            grown = np.empty(2 * n_next, dtype=np.int64)
                            grown[:n_next] = nxt
                            nxt = grown
                        nxt[n_next] = nstate
                        n_next += 1
        total += n_next
        frontier = nxt
        n_front = n_next
        if n_next > 0:
            depth += 1
    return total, depth


def build_values(goal: Board, pattern: Sequence[int]) -> tuple[np.ndarray, int]:
    """The byte table of ``pattern`` (255 where a placement is unreachable) and the states searched."""
    problem = pattern_problem(goal, pattern)
    if problem:
        raise PdbError(problem)
    blanks = len(goal.blanks)
    if blanks > MAX_BLANKS:
        raise PdbError(f"the PDB builder handles at most {MAX_BLANKS} blanks; the goal has {blanks}")
    geo = Geometry.of(goal)
    m, k = geo.size, len(pattern)
    if m > 62:
        raise PdbError(f"the PDB builder handles at most 62 movable cells; the board has {m}")
    home = goal.positions()
    start_pos = np.array([geo.index[home[t]] for t in pattern], dtype=np.int64)
    start_blanks = np.array([geo.index[c] for c in goal.blanks], dtype=np.int64)
    n_states = perm(m, k) * comb(m - k, blanks)
    values = np.full(perm(m, k), UNSET, dtype=np.uint8)
    seen = np.zeros((n_states + 7) // 8, dtype=np.uint8)
    states, _ = _bfs(k, blanks, m, geo.neighbours, start_pos, start_blanks, values, seen)
    return values, states


def build_values_ref(goal: Board, pattern: Sequence[int]) -> dict[tuple[int, ...], int]:
    """Readable oracle: 0-1 BFS over (pattern cells, blank set) with exact blank positions.

    Keys are the pattern tiles' board cells in pattern order; only for tiny boards.
    """
    adjacent = movable_neighbours(goal)
    home = goal.positions()
    start = (tuple(home[t] for t in pattern), frozenset(goal.blanks))
    dist = {start: 0}
    queue = deque([start])
    best: dict[tuple[int, ...], int] = {}
    while queue:
        state = queue.popleft()
        cells, blanks = state
        d = dist[state]
        for blank in blanks:
            for source in adjacent[blank]:
                if source in blanks:
                    continue
                moved = cells.index(source) if source in cells else -1
                new_cells = cells if moved < 0 else (*cells[:moved], blank, *cells[moved + 1 :])
                nxt = (new_cells, (blanks - {blank}) | {source})
                cost = 0 if moved < 0 else 1
                if nxt not in dist or dist[nxt] > d + cost:
                    dist[nxt] = d + cost
                    queue.appendleft(nxt) if cost == 0 else queue.append(nxt)
    for (cells, _), d in dist.items():
        best[cells] = min(best.get(cells, d), d)
    return best


# ---------------------------------------------------------------------------------------------
# Files


@dataclass(frozen=True)
class PatternDatabase:
    """One loaded table: the goal, the pattern and its values (``u8`` bytes or ``u4`` packed nibbles)."""

    goal: Board
    pattern: tuple[int, ...]
    storage: str
    table: np.ndarray = field(repr=False)
    path: Path | None = None
    header: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def entries(self) -> int:
        """Number of placements (M!/(M-k)!)."""
        return perm(len(self.goal.cells) - len(self.goal.walls), len(self.pattern))

    def value(self, rank: int) -> int:
        """The stored value of placement ``rank``."""
        if self.storage == "u4":
            return int(self.table[rank >> 1] >> (4 * (rank & 1))) & 15
        return int(self.table[rank])

    def lookup(self, board: Board) -> int:
        """The database's lower bound for ``board``.

        >>> goal = goal_board(2, 3)
        >>> build_pdb(goal, (1, 2)).lookup(goal)
        0
        """
        geo = Geometry.of(self.goal)
        where = board.positions()
        return self.value(rank_placement_ref([int(geo.index[where[t]]) for t in self.pattern], geo.size))

    def unpacked(self) -> np.ndarray:
        """The values as one byte per placement."""
        if self.storage == "u8":
            return np.asarray(self.table)
        both = np.empty(2 * len(self.table), dtype=np.uint8)
        both[0::2], both[1::2] = self.table & 15, self.table >> 4
        return both[: self.entries]


def pack_nibbles(values: np.ndarray) -> np.ndarray:
    """Two values per byte, low nibble first (every value must be below 16).

    >>> pack_nibbles(np.array([1, 2, 3], dtype=np.uint8)).tolist()
    [33, 3]
    """
    padded = np.zeros(len(values) + (len(values) & 1), dtype=np.uint8)
    padded[: len(values)] = values
    return (padded[0::2] | (padded[1::2] << 4)).astype(np.uint8)


def build_pdb(goal: Board, pattern: Sequence[int], storage: str = "auto") -> PatternDatabase:
    """Build the table of ``pattern`` in memory; ``auto`` storage packs 4 bits when values fit.

    >>> build_pdb(goal_board(2, 3), (4, 5)).storage
    'u4'
    """
    started = time.perf_counter()
    values, states = build_values(goal, pattern)
    top = int(values[values != UNSET].max())
    if storage == "auto":
        storage = "u4" if top < 15 and not (values == UNSET).any() else "u8"
    if storage not in ("u4", "u8"):
        raise PdbError(f"storage must be 'u4', 'u8' or 'auto', not {storage!r}")
    if storage == "u4" and (top >= 15 or (values == UNSET).any()):
        raise PdbError(f"values up to {top} (or unreachable placements) do not fit 4 bits; use 'u8'")
    table = pack_nibbles(values) if storage == "u4" else values
    header: dict[str, Any] = {
        "max_value": top,
        "states": states,
        "unreachable": int((values == UNSET).sum()),
        "build_seconds": round(time.perf_counter() - started, 3),
    }
    return PatternDatabase(goal, tuple(pattern), storage, table, None, header)


def save_pdb(pdb: PatternDatabase, path: str | os.PathLike[str]) -> Path:
    """Write ``pdb`` atomically (a temporary file, then a rename) with its header and checksum."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = np.ascontiguousarray(pdb.table)
    header = {
        "format_version": FORMAT_VERSION,
        "rows": pdb.goal.rows,
        "cols": pdb.goal.cols,
        "goal": list(pdb.goal.cells),
        "pattern": list(pdb.pattern),
        "storage": pdb.storage,
        "entries": pdb.entries,
        "data_bytes": int(data.nbytes),
        "crc32": zlib.crc32(data.data),
        **{
            k: v
            for k, v in pdb.header.items()
            if k in ("max_value", "states", "unreachable", "build_seconds")
        },
    }
    text = json.dumps(header, sort_keys=True).encode()
    prefix = len(MAGIC) + 4 + len(text)
    pad = -prefix % ALIGN
    temporary = path.with_name(path.name + f".tmp{os.getpid()}")
    with open(temporary, "wb") as out:
        out.write(MAGIC + len(text).to_bytes(4, "little") + text + b"\n" * pad)
        out.write(data.data)
    os.replace(temporary, path)
    return path


def read_header(path: str | os.PathLike[str]) -> tuple[dict[str, Any], int]:
    """The JSON header of a PDB file and the offset of its data; refuses files that are not ours."""
    try:
        with open(path, "rb") as f:
            head = f.read(len(MAGIC) + 4)
            if len(head) < len(MAGIC) + 4 or head[: len(MAGIC)] != MAGIC:
                raise PdbFileError(path, "not a gridarena PDB file (bad magic number)")
            size = int.from_bytes(head[len(MAGIC) :], "little")
            text = f.read(size)
    except OSError as error:
        raise PdbFileError(path, f"cannot read: {error.strerror}") from error
    if len(text) != size:
        raise PdbFileError(path, "truncated inside the header")
    try:
        header = json.loads(text)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise PdbFileError(path, f"corrupted header: {error}") from error
    if not isinstance(header, dict):
        raise PdbFileError(path, "corrupted header: not a JSON object")
    prefix = len(MAGIC) + 4 + size
    return header, prefix + (-prefix % ALIGN)


_REQUIRED: Final = (
    "format_version",
    "rows",
    "cols",
    "goal",
    "pattern",
    "storage",
    "entries",
    "data_bytes",
    "crc32",
)


def load_pdb(
    path: str | os.PathLike[str],
    *,
    goal: Board | None = None,
    pattern: Sequence[int] | None = None,
    verify: bool = True,
) -> PatternDatabase:
    """Memory-map a PDB file; refuse it if truncated, corrupted (``verify``: the CRC-32) or mismatched.

    ``goal`` and ``pattern``, when given, must equal the file's; the message names the field.
    """
    header, offset = read_header(path)
    missing = [k for k in _REQUIRED if k not in header]
    if missing:
        raise PdbFileError(path, f"header lacks the fields {missing}")
    if header["format_version"] != FORMAT_VERSION:
        raise PdbFileError(
            path, f"format version {header['format_version']}, this gridarena reads {FORMAT_VERSION}"
        )
    try:
        file_goal = Board(int(header["rows"]), int(header["cols"]), tuple(int(v) for v in header["goal"]))
    except (GridArenaError, TypeError, ValueError) as error:
        raise PdbFileError(path, f"header field 'goal': {error}") from error
    _expect(path, "goal", list(file_goal.cells), None if goal is None else list(goal.cells))
    _expect(
        path,
        "rows x cols",
        (file_goal.rows, file_goal.cols),
        None if goal is None else (goal.rows, goal.cols),
    )
    _expect(path, "pattern", list(header["pattern"]), None if pattern is None else list(pattern))
    storage, data_bytes = header["storage"], int(header["data_bytes"])
    entries = perm(len(file_goal.cells) - len(file_goal.walls), len(header["pattern"]))
    expected = {"u8": entries, "u4": (entries + 1) // 2}.get(str(storage))
    if expected is None or header["entries"] != entries or data_bytes != expected:
        raise PdbFileError(
            path, f"header fields 'storage'/'entries'/'data_bytes' disagree ({storage}, {entries})"
        )
    available = os.path.getsize(path) - offset
    if available != data_bytes:
        kind = "truncated" if available < data_bytes else "has trailing bytes"
        raise PdbFileError(
            path, f"{kind}: expected {data_bytes} data bytes after the header, found {available}"
        )
    table = np.memmap(path, dtype=np.uint8, mode="r", offset=offset, shape=(data_bytes,))
    if verify and zlib.crc32(table.data) != header["crc32"]:
        raise PdbFileError(path, "checksum mismatch: the data is corrupted; rebuild the database")
    return PatternDatabase(file_goal, tuple(header["pattern"]), str(storage), table, Path(path), header)


def _expect(path: str | os.PathLike[str], name: str, found: object, wanted: object) -> None:
    if wanted is not None and found != wanted:
        raise PdbFileError(path, f"built for {name} {found}, but {wanted} was asked for")


# ---------------------------------------------------------------------------------------------
# Partitions, cache and PDB sets


def default_cache_dir() -> Path:
    """Where PDB files go: ``$GRIDARENA_CACHE`` (its ``pdb`` folder) or ``~/.cache/gridarena/pdb``."""
    root = os.environ.get("GRIDARENA_CACHE")
    return Path(root) / "pdb" if root else Path.home() / ".cache" / "gridarena" / "pdb"


def pdb_filename(goal: Board, pattern: Sequence[int]) -> str:
    """A file name fixed by the goal and the pattern, so builds are found again.

    >>> pdb_filename(goal_board(2, 3), (1, 2))
    '2x3-eaf9f2c8-1_2.pdb'
    """
    digest = zlib.crc32(json.dumps(list(goal.cells)).encode())
    return f"{goal.rows}x{goal.cols}-{digest:08x}-{'_'.join(map(str, pattern))}.pdb"


_BLANK_LAST_4X4: Final = {
    "5-5-5": ((1, 2, 5, 6, 9), (3, 4, 7, 8, 12), (10, 11, 13, 14, 15)),
    "6-6-3": ((1, 5, 6, 9, 10, 13), (7, 8, 11, 12, 14, 15), (2, 3, 4)),
    "7-8": ((9, 10, 11, 12, 13, 14, 15), (1, 2, 3, 4, 5, 6, 7, 8)),
}
_HOMEWORK: Final = {
    "5-5-5": ((1, 2, 3, 6, 7), (4, 5, 10, 14, 15), (8, 12, 16, 17, 18)),
    "6-6-3": ((1, 2, 3, 6, 7, 8), (12, 14, 15, 16, 17, 18), (4, 5, 10)),
    "7-8": ((1, 2, 3, 6, 7, 8, 12), (4, 5, 10, 14, 15, 16, 17, 18)),
    "3-4-4-4": ((1, 2, 6, 7), (3, 4, 8), (5, 10, 14, 15), (12, 16, 17, 18)),
    "2-2-2-2-2-2-1-1-1": ((1, 6), (2, 3), (4, 5), (7, 8), (10, 15), (16, 17), (12,), (14,), (18,)),
}
_BLANK_LAST_5X5: Final = {
    "6-6-6-6": (
        (1, 2, 6, 7, 11, 12),
        (3, 4, 5, 8, 9, 10),
        (13, 14, 15, 18, 19, 20),
        (16, 17, 21, 22, 23, 24),
    ),
}


def partition(goal: Board, name: str) -> tuple[tuple[int, ...], ...]:
    """Disjoint patterns named by their sizes, e.g. ``"7-8"`` on the 15-puzzle.

    Named layouts exist for the 4x4 and 5x5 goals (either blank convention) and the homework board;
    elsewhere the tiles are cut in row-major order of their home cells into groups of those sizes.

    >>> partition(goal_board(2, 3), "3-2")
    ((1, 2, 3), (4, 5))
    >>> partition(goal_board(4, 4, blank_first=True), "7-8")[0]
    (1, 2, 3, 4, 5, 6, 7)
    """
    named = _named_partition(goal, name)
    if named is not None:
        return named
    try:
        sizes = [int(s) for s in name.split("-")]
    except ValueError:
        raise PdbError(f"partition {name!r} is not sizes joined by '-', such as '7-8'") from None
    tiles = sorted(goal.tiles, key=goal.positions().__getitem__)
    if sum(sizes) > len(tiles) or min(sizes) < 1:
        raise PdbError(f"partition {name!r} needs {sum(sizes)} tiles; the board has {len(tiles)}")
    groups, start = [], 0
    for size in sizes:
        groups.append(tuple(sorted(tiles[start : start + size])))
        start += size
    return tuple(groups)


def _named_partition(goal: Board, name: str) -> tuple[tuple[int, ...], ...] | None:
    if goal == homework_goal():
        return _HOMEWORK.get(name)
    for side, table in ((4, _BLANK_LAST_4X4), (5, _BLANK_LAST_5X5)):
        n = side * side
        if name not in table:
            continue
        if goal == goal_board(side, side):
            return table[name]
        if goal == goal_board(side, side, blank_first=True):
            # Blank-first is blank-last turned 180 degrees with tile v renamed n - v.
            return tuple(tuple(sorted(n - t for t in group)) for group in table[name])
    return None


def build_set(
    goal: Board,
    patterns: Sequence[Sequence[int]],
    directory: str | os.PathLike[str] | None = None,
    *,
    force: bool = False,
    paths: Sequence[str | os.PathLike[str]] | None = None,
    storage: str = "auto",
) -> list[Path]:
    """Build (or reuse, unless ``force``) one file per pattern in ``directory``; their paths."""
    folder = Path(directory) if directory is not None else default_cache_dir()
    out = []
    for number, pattern in enumerate(patterns):
        target = folder / (paths[number] if paths is not None else pdb_filename(goal, pattern))
        if force or not _usable(target, goal, pattern):
            save_pdb(build_pdb(goal, pattern, storage), target)
        out.append(target)
    return out


def _usable(path: Path, goal: Board, pattern: Sequence[int]) -> bool:
    if not path.exists():
        return False
    try:
        load_pdb(path, goal=goal, pattern=pattern)
    except PdbFileError:
        return False
    return True


def load_set(
    goal: Board, patterns: Sequence[Sequence[int]], directory: str | os.PathLike[str] | None = None
) -> list[PatternDatabase]:
    """Load the files of a partition from ``directory`` (default: the cache), checked against it."""
    folder = Path(directory) if directory is not None else default_cache_dir()
    found = []
    for pattern in patterns:
        path = folder / pdb_filename(goal, pattern)
        if not path.exists():
            raise PdbError(
                f"{path}: no database for pattern {list(pattern)}; build it with 'gridarena puzzle pdb build'"
            )
        found.append(load_pdb(path, goal=goal, pattern=pattern))
    return found
