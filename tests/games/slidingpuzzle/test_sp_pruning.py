"""IDA*'s move pruning, transposition table and threads keep answers optimal (exact distances by BFS)."""

from __future__ import annotations

import itertools
import random
import threading

import pytest
from sp_oracles import distances

from gridarena.games.slidingpuzzle.ai.heuristics import make_heuristic
from gridarena.games.slidingpuzzle.ai.idastar import (
    DEFAULT_MEMORY,
    FIRST_TABLE_BITS,
    IdaStar,
    Progress,
    default_memory,
)
from gridarena.games.slidingpuzzle.board import goal_board, homework_goal, random_walk
from gridarena.games.slidingpuzzle.formats import PuzzleCase, check_solution
from gridarena.games.slidingpuzzle.pdb import build_pdb

TWO_BLANKS = (
    goal_board(3, 3, blanks=2, walls=(4,)),
    goal_board(2, 4, blanks=2),
    goal_board(3, 3, blanks=2),
)


def _heuristics(goal):  # type: ignore[no-untyped-def]
    tiles = sorted(goal.tiles)
    half = len(tiles) // 2
    return (
        make_heuristic(goal, linear_conflict=False),
        make_heuristic(goal, [build_pdb(goal, tiles[:half]), build_pdb(goal, tiles[half:])]),
    )


# Every combination of the techniques: commuting order, undo across commuting slides, the table
# (off, 2^6 slots with forced replacements, the default), one or two threads.
CONFIGS = [
    {"prune_commute": c, "prune_chain": u, "transpositions": t, "threads": n}
    for c, u, t, n in itertools.product((False, True), (False, True), (0, 6, None), (1, 2))
]


@pytest.mark.parametrize("which", range(len(TWO_BLANKS)))
def test_every_technique_alone_and_together_finds_the_bfs_distance(which: int) -> None:
    goal = TWO_BLANKS[which]
    optimal = distances(goal)
    rng = random.Random(16 + which)
    boards = [random_walk(goal, rng.randrange(10, 400), rng) for _ in range(10)]
    boards.append(max(optimal, key=optimal.__getitem__))  # a farthest board
    for heuristic in _heuristics(goal):
        for config in CONFIGS:
            solver = IdaStar(heuristic, memory=1 << 22, **config)  # type: ignore[arg-type]
            # Without the commuting order the far boards take 10^6-10^7 nodes: keep the test short.
            for board in boards if config["prune_commute"] else [b for b in boards if optimal[b] <= 18]:
                found = solver.solve(board)
                assert found.length == optimal[board], (board, config, heuristic.name)
                check_solution(PuzzleCase(board, goal), found.path or (), optimal[board])


def test_pruning_and_the_table_cut_nodes() -> None:
    goal = TWO_BLANKS[2]
    optimal = distances(goal)
    board = max(optimal, key=optimal.__getitem__)
    heuristic = _heuristics(goal)[0]
    plain = IdaStar(heuristic, prune_commute=False, prune_chain=False, transpositions=0).solve(board)
    pruned = IdaStar(heuristic, transpositions=0).solve(board)
    both = IdaStar(heuristic, memory=1 << 24).solve(board)
    assert plain.length == pruned.length == both.length == optimal[board]
    assert both.expanded < pruned.expanded < plain.expanded


def test_the_table_is_limited_by_the_memory_budget() -> None:
    heuristic = make_heuristic(goal_board(3, 3, blanks=2))
    small, large = IdaStar(heuristic, memory=1 << 20), IdaStar(heuristic, memory=1 << 24, threads=2)
    assert 0 < small.table_limit <= 1 << 20 and small.table_limit > 1 << 19
    assert 0 < large.table_limit <= 1 << 24
    # Never more than about twice the boards of a small board (9!/2 here), however large the budget.
    assert IdaStar(heuristic, memory=1 << 34).max_tt_bits <= 20
    assert IdaStar(make_heuristic(goal_board(3, 3)), memory=1 << 24).table_limit == 0  # one blank: off


def test_the_table_starts_small_and_grows_with_the_search() -> None:
    heuristic = make_heuristic(homework_goal())
    hard = random_walk(homework_goal(), 1000, random.Random(0))
    solver = IdaStar(heuristic, memory=1 << 24)
    assert solver.table_bytes == 32 << FIRST_TABLE_BITS and solver.table_limit == 1 << 24
    assert solver.solve(random_walk(homework_goal(), 8, random.Random(1))).status == "solved"
    assert solver.table_bytes == 32 << FIRST_TABLE_BITS  # an easy board: the table stays small
    solver.solve(hard, max_nodes=300_000)  # iterations of 10^5 boards: it grows, within the limit
    assert 32 << FIRST_TABLE_BITS < solver.table_bytes <= 1 << 24
    fixed = IdaStar(heuristic, transpositions=10)
    fixed.solve(hard, max_nodes=100_000)
    assert fixed.table_bytes == fixed.table_limit == 32 << 10
    # The default limit is 1 GiB at most, never a share of a large machine.
    assert IdaStar(heuristic).table_limit <= default_memory() <= DEFAULT_MEMORY == 1 << 30


def test_a_stop_event_and_progress_report_what_was_proved() -> None:
    goal = TWO_BLANKS[2]
    optimal = distances(goal)
    board = max(optimal, key=optimal.__getitem__)
    heuristic = make_heuristic(goal, linear_conflict=False)
    seen: list[Progress] = []
    stop = threading.Event()
    stop.set()
    for threads in (1, 2):
        stopped = IdaStar(heuristic, threads=threads, transpositions=0).solve(board, stop=stop)
        assert stopped.status == "limit" and "interrupted" in stopped.reason
        assert stopped.h0 <= stopped.bound <= optimal[board]
    found = IdaStar(heuristic, threads=2).solve(board, progress=seen.append, interval=0.0)
    assert found.length == optimal[board]
    assert seen and all(p.bound <= optimal[board] for p in seen) and "bound" in seen[-1].line()
    timed = IdaStar(heuristic, transpositions=0).solve(board, deadline=0.0)
    assert timed.status == "limit" and "time limit" in timed.reason
