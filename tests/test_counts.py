"""Perft and state counts of every registered game: one runner over ``tests/data/<game>/*.txt``.

Every ``.txt`` file directly in ``tests/data/<game>/`` is a count file; every registered game needs one.
Blocks of lines (``#`` starts a comment):

    id NAME                      names the entry
    state TEXT                   the position: ``SPEC [seed N]`` (``make(SPEC).new_initial_state(N)``),
                                 or a game's own form (Isolation: ``WxH`` and the rows joined by ``/``)
    play ACTION                  optional, repeated: actions as text, applied in order (checked)
    perft DEPTH COUNT            leaves of the game tree DEPTH plies down (a game that ends sooner adds none)
    reachable COUNT              distinct positions reachable, the start included (ends are not expanded)
    placements COUNT             Pentocity: valid (rotation, location) placements of the pending request
                                 that need no new road, water or park
    commands COUNT               Ice and Fire: one-command turns (MOVE of each own unit, TRAIN 1-3, BUILD
                                 MINE and TOWER, to every cell) that the referee plays rather than skips

Each count is checked twice: against the game through its public API (the generic perft and
breadth-first search, Pentocity's vectorised ``placement_mask``), and against an independent oracle
written here from the rules (a brute force on plain tuples and sets; for Pentocity a loop of
``resolve_move``, the simulator's own check, over every rotation and location), so a wrong data file
cannot agree with a wrong engine by construction. On a mismatch the message gives the split by first
action ("divide"), by depth or by rotation, which locates the bug; ``-s`` prints the speed of every count.
"""

from __future__ import annotations

import collections
import functools
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from countfiles import DATA, Count, Entry, count_files, entry_state, read_count_file
from gamewalks import breadth_first, moves_from
from gridarena.core.registry import available_games
from gridarena.core.types import GameState

# ---------------------------------------------------------------------------------------------
# Counting through the game's public API


def perft(state: GameState[Any], depth: int) -> int:
    """Leaves of the game tree ``depth`` plies below ``state`` (chance outcomes count as plies)."""
    if depth == 0:
        return 1
    return sum(perft(state.child(a), depth - 1) for a in moves_from(state))


def perft_divide(state: GameState[Any], depth: int) -> dict[str, int]:
    """Perft split by the first action: the subtree that disagrees holds the bug."""
    return {state.action_to_string(a): perft(state.child(a), depth - 1) for a in moves_from(state)}


def reachable(state: GameState[Any]) -> int:
    """Distinct positions reachable from ``state``, itself included."""
    return sum(1 for _ in breadth_first(state))


def reachable_by_depth(state: GameState[Any]) -> dict[str, int]:
    """Reachable positions split by their distance from ``state``."""
    depths = collections.Counter(node.depth for node in breadth_first(state))
    return {f"depth {d}": n for d, n in sorted(depths.items())}


def placements_by_rotation(state: Any) -> dict[str, int]:
    """Pentocity: placements of the pending request that need nothing built first, per rotation."""
    from gridarena.games.pentocity.land import placement_mask

    request, mode = state.request, state.game.mode
    assert request is not None, "placements are counted for a pending request"
    return {
        f"r{r}": int(placement_mask(state.land, s, request.kind, mode).sum())
        for r, s in enumerate(request.rotations())
    }


def iceandfire_commands_by_kind(state: Any) -> dict[str, int]:
    """Ice and Fire: one-command turns the referee plays (its log names no skipped command), per kind."""
    from gridarena.games.iceandfire.formats import Build, Move, Train

    me = state.current_player()
    cells = [(x, y) for y in range(12) for x in range(12)]
    candidates = {
        "MOVE": [Move(u.id, x, y) for u in state.units if u.owner == me for x, y in cells],
        "TRAIN": [Train(level, x, y) for level in (1, 2, 3) for x, y in cells],
        "BUILD": [Build(kind, x, y) for kind in ("MINE", "TOWER") for x, y in cells],
    }
    return {
        kind: sum(not any(": ignored," in m for m in state.apply_action((c,)).log) for c in commands)
        for kind, commands in candidates.items()
    }


@dataclass(frozen=True, slots=True)
class Counter:
    """How to compute one kind of count and how to split it when it disagrees."""

    count: Callable[[GameState[Any], Count], int]
    split: Callable[[GameState[Any], Count], dict[str, int]]


COUNTERS: dict[str, Counter] = {
    "perft": Counter(lambda s, c: perft(s, c.depth or 0), lambda s, c: perft_divide(s, c.depth or 0)),
    "reachable": Counter(lambda s, c: reachable(s), lambda s, c: reachable_by_depth(s)),
    "placements": Counter(
        lambda s, c: sum(placements_by_rotation(s).values()), lambda s, c: placements_by_rotation(s)
    ),
    "commands": Counter(
        lambda s, c: sum(iceandfire_commands_by_kind(s).values()), lambda s, c: iceandfire_commands_by_kind(s)
    ),
}


# ---------------------------------------------------------------------------------------------
# Independent oracles, written from the rules (the originals each game's docs page names)

JUMPS = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]


def isolation_brute_force(
    width: int,
    height: int,
    used: frozenset[tuple[int, int]],
    pieces: list[tuple[int, int] | None],
    depth: int,
) -> int:
    """Leaves at ``depth`` straight from the rules: placements anywhere blank, then knight jumps."""
    if depth == 0:
        return 1
    mover = len(used) % 2
    here = pieces[mover]
    if here is None:
        targets = [(r, c) for r in range(height) for c in range(width) if (r, c) not in used]
    else:
        targets = [(here[0] + dr, here[1] + dc) for dr, dc in JUMPS]
        targets = [(r, c) for r, c in targets if 0 <= r < height and 0 <= c < width and (r, c) not in used]
    total = 0
    for target in targets:
        after = list(pieces)
        after[mover] = target
        total += isolation_brute_force(width, height, used | {target}, after, depth - 1)
    return total


def isolation_oracle(entry: Entry, state: GameState[Any], count: Count) -> int | None:
    """Isolation perft from the board rows of the entry, by :func:`isolation_brute_force`."""
    if count.kind != "perft" or entry.plays:
        return None
    size, board = entry.state.split()
    width, height = map(int, size.split("x"))
    rows = board.split("/")
    cells = [(r, c, ch) for r, row in enumerate(rows) for c, ch in enumerate(row)]
    used = frozenset((r, c) for r, c, ch in cells if ch != ".")
    pieces = [next(((r, c) for r, c, ch in cells if ch == p), None) for p in "12"]
    return isolation_brute_force(width, height, used, pieces, count.depth or 0)


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A sliding puzzle from the rules: the goal ends the game, and so do ``cap`` slides."""

    rows: int
    cols: int
    goal: tuple[int, ...]
    cap: int

    def slides(self, cells: tuple[int, ...]) -> list[tuple[int, ...]]:
        """Boards after each slide of a tile (> 0) into an orthogonally adjacent blank (0)."""
        after = []
        for blank in (i for i, v in enumerate(cells) if v == 0):
            r, c = divmod(blank, self.cols)
            for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                tile = nr * self.cols + nc
                if 0 <= nr < self.rows and 0 <= nc < self.cols and cells[tile] > 0:
                    board = list(cells)
                    board[blank], board[tile] = cells[tile], 0
                    after.append(tuple(board))
        return after

    def perft(self, cells: tuple[int, ...], made: int, depth: int) -> int:
        """Leaves ``depth`` slides down from ``cells`` after ``made`` slides."""
        if depth == 0:
            return 1
        if cells == self.goal or made >= self.cap:
            return 0
        return sum(self.perft(b, made + 1, depth - 1) for b in self.slides(cells))

    def reachable(self, cells: tuple[int, ...], made: int) -> int:
        """Distinct boards reachable from ``cells``; the goal and capped boards are not expanded."""
        seen, layer = {cells}, [cells]
        while layer and made < self.cap:
            layer = [b for c in layer if c != self.goal for b in self.slides(c) if b not in seen]
            seen.update(layer)
            layer = list(dict.fromkeys(layer))
            made += 1
        return len(seen)


def puzzle_oracle(entry: Entry, state: GameState[Any], count: Count) -> int | None:
    """Sliding-puzzle perft and reachable counts by :class:`Puzzle`, from the state's JSON and the game's parameters."""
    params, data = state.game.params, state.to_json()
    puzzle = Puzzle(int(params["rows"]), int(params["cols"]), tuple(params["goal"]), int(params["max_moves"]))
    cells, made = tuple(data["cells"]), int(data["moves"])
    if count.kind == "perft":
        return puzzle.perft(cells, made, count.depth or 0)
    return puzzle.reachable(cells, made) if count.kind == "reachable" else None


def pentocity_oracle(entry: Entry, state: Any, count: Count) -> int | None:
    """Pentocity placements by trying every rotation and location with the simulator's own check."""
    from gridarena.games.pentocity.land import SIDE, Move
    from gridarena.games.pentocity.placement import Placement, resolve_move

    if count.kind != "placements":
        return None
    request, mode = state.request, state.game.mode
    moves = (
        Move.build((i, j), r)
        for r in range(len(request.rotations()))
        for i in range(SIDE)
        for j in range(SIDE)
    )
    return sum(isinstance(resolve_move(state.land, request, m, mode), Placement) for m in moves)


def reversixt_oracle(entry: Entry, state: Any, count: Count) -> int | None:
    """ReversiXT perft and reachable counts by the rules rewritten on plain tuples (tests/reversixt_oracle.py)."""
    from reversixt_oracle import reversixt_count

    return reversixt_count(state, count.kind, count.depth)


def iceandfire_oracle(entry: Entry, state: Any, count: Count) -> int | None:
    """Ice and Fire one-command turns from the rules (capture, TRAIN, MOVE, BUILD), on the state's JSON alone: its own
    flood fill, distances, capture predicate, path step and build checks, nothing of the referee."""
    if count.kind != "commands":
        return None
    data = state.to_json()
    grid, league, rules, me = "".join(data["cells"]), data["league"], data["rules"], data["player"]
    spots = {(x, y) for x, y in data["spots"]}
    gold = data["gold"][me]
    units = {(x, y): (uid, o, lv, act) for uid, o, lv, x, y, act in data["units"]}
    buildings = {(x, y): (o, kind) for o, kind, x, y in data["buildings"]}
    top = 1 if league == "wood3" else 3

    def owner(c: tuple[int, int]) -> int | None:
        ch = grid[c[1] * 12 + c[0]]
        return {"R": 0, "r": 0, "B": 1, "b": 1}.get(ch)

    def near(c: tuple[int, int]) -> list[tuple[int, int]]:
        x, y = c
        steps = [(x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)]
        return [(a, b) for a, b in steps if 0 <= a < 12 and 0 <= b < 12 and grid[b * 12 + a] != "#"]

    def active_of(p: int) -> set[tuple[int, int]]:
        hq = (0, 0) if p == 0 else (11, 11)
        seen, todo = ({hq}, [hq]) if owner(hq) == p else (set(), [])
        while todo:
            for n in near(todo.pop()):
                if owner(n) == p and n not in seen:
                    seen.add(n)
                    todo.append(n)
        return seen

    active = active_of(0) | active_of(1)
    tower = {c for c, (_, kind) in buildings.items() if kind == 2}

    def takes(c: tuple[int, int], level: int) -> bool:
        o = owner(c)
        guarded = o is not None and (
            c in tower or any(n in tower and n in active and owner(n) == o for n in near(c))
        )
        if o != me and ((c in active and guarded) or c in tower) and level < 3:
            return False
        if c not in units and c not in buildings:
            return True
        if o == me:
            return False
        return not (c in units and level != top and level <= units[c][2])

    def playable(c: tuple[int, int]) -> bool:
        return any(owner(n) == me and n in active for n in [c, *near(c)])

    @functools.cache
    def from_target(b: tuple[int, int]) -> dict[tuple[int, int], int]:
        dist, todo = {b: 0}, collections.deque([b])
        while todo:
            c = todo.popleft()
            for n in near(c):
                if n not in dist:
                    dist[n] = dist[c] + 1
                    todo.append(n)
        return dist

    def dist(a: tuple[int, int], b: tuple[int, int]) -> int:
        return from_target(b)[a]

    order = [(0, -1), (1, 0), (0, 1), (-1, 0)] if me == 0 else [(0, 1), (-1, 0), (0, -1), (1, 0)]
    land = [(x, y) for y in range(12) for x in range(12) if grid[y * 12 + x] != "#"]
    total = 0
    for (sx, sy), (_, o, level, can_act) in units.items():
        if o != me or not can_act:
            continue
        for t in land:
            if abs(sx - t[0]) + abs(sy - t[1]) == 1 and not takes(t, level):
                continue
            best = dist((sx, sy), t)
            for dx, dy in order:
                n = (sx + dx, sy + dy)
                if n in near((sx, sy)) and dist(n, t) < best and takes(n, level):
                    total += 1
                    break
    costs = {1: 10, 2: 20, 3: 30}
    total += sum(playable(c) and gold >= costs[lv] and takes(c, lv) for lv in range(1, top + 1) for c in land)
    if league in ("wood1", "bronze"):
        mines = sum(1 for o, kind in buildings.values() if o == me and kind == 1)
        for c in land:
            if owner(c) != me or c not in active or c in units or c in buildings:
                continue
            mine_cost = 20 + 4 * mines if rules == "contest" else 15
            total += gold >= mine_cost and c in spots
            tower_ok = not (rules == "multi" and league == "wood1")
            total += tower_ok and gold >= 15 and c not in spots
    return total


ORACLES: dict[str, Callable[[Entry, Any, Count], int | None]] = {
    "iceandfire": iceandfire_oracle,
    "isolation": isolation_oracle,
    "slidingpuzzle": puzzle_oracle,
    "pentocity": pentocity_oracle,
    "reversixt": reversixt_oracle,
}


# ---------------------------------------------------------------------------------------------
# The tests

ENTRIES = [e for game in available_games() for path in count_files(game) for e in read_count_file(path, game)]


@pytest.mark.parametrize("game", available_games())
def test_every_registered_game_has_counts(game: str) -> None:
    entries = [e for e in ENTRIES if e.game == game]
    assert entries, (
        f"{game} has no count file: add tests/data/{game}/perft.txt with 'id', 'state' and 'perft DEPTH COUNT' "
        f"lines (format: tests/test_counts.py), computed and cross-checked independently, and an oracle in ORACLES"
    )
    assert all(e.counts for e in entries), [e.where for e in entries if not e.counts]


def test_every_count_folder_belongs_to_a_registered_game() -> None:
    folders = {p.parent.name for p in DATA.glob("*/*.txt")}
    assert folders <= set(available_games()), (
        f"count files of unregistered games: {folders - set(available_games())}"
    )


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.id for e in ENTRIES])
def test_game_matches_counts(entry: Entry) -> None:
    state = entry_state(entry)
    for count in entry.counts:
        counter, start = COUNTERS[count.kind], time.perf_counter()
        got = counter.count(state, count)
        seconds = time.perf_counter() - start
        speed = f"{got:,} in {seconds:.3f} s, {got / max(seconds, 1e-9):,.0f} nodes/s"
        print(f"{entry.id}: {count} = {speed}")
        if got != count.expected:
            split = counter.split(state, count)
            pytest.fail(
                f"{entry.where} {entry.id}: {count} = {got}, expected {count.expected} ({speed}); split: {split}"
            )


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.id for e in ENTRIES])
def test_oracle_matches_counts(entry: Entry) -> None:
    if entry.game not in ORACLES:
        pytest.skip(f"no independent oracle for {entry.game}: write one from its spec into ORACLES")
    state = entry_state(entry)
    for count in entry.counts:
        got = ORACLES[entry.game](entry, state, count)
        assert got is not None, f"{entry.id}: the {entry.game} oracle cannot check {count}"
        if got != count.expected:
            pytest.fail(
                f"{entry.where} {entry.id}: the oracle says {count} = {got}, the file {count.expected}"
            )


def test_isolation_file_covers_the_required_boards() -> None:
    entries = [e for e in ENTRIES if e.game == "isolation"]
    sizes = {e.state.split()[0] for e in entries}
    assert {"5x5", "7x7", "11x9"} <= sizes
    assert all(sorted(c.depth or 0 for c in e.counts) == [1, 2, 3, 4] for e in entries)


def one_blank_board(cells: Sequence[int]) -> bool:
    """True for a board without walls and with a single blank."""
    return list(cells).count(0) == 1 and -1 not in cells


def test_one_blank_puzzles_reach_half_the_arrangements() -> None:
    """On a wall-free board with one blank, exactly (R C)!/2 boards are reachable (the permutation's parity)."""
    checked = 0
    for entry in (e for e in ENTRIES if e.game == "slidingpuzzle"):
        cells = entry_state(entry).to_json()["cells"]
        for count in (c for c in entry.counts if c.kind == "reachable" and one_blank_board(cells)):
            assert count.expected == math.factorial(len(cells)) // 2, entry.id
            checked += 1
    assert checked >= 2
