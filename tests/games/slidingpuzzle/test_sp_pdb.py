"""Pattern databases: ranking, the numba builder against a brute-force oracle, files and refusals."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sp_oracles import distances

from gridarena.games.slidingpuzzle.board import Board, goal_board, homework_goal, movable_neighbours
from gridarena.games.slidingpuzzle.fast import pdbbuild
from gridarena.games.slidingpuzzle.fast.indexing import (
    Geometry,
    placement_weights,
    popcount,
    rank_placement,
    rank_placement_ref,
    unrank_placement,
)
from gridarena.games.slidingpuzzle.fast.pdbbuild import (
    build_values,
    build_values_ref,
    exact_costs_ref,
    search_states,
)
from gridarena.games.slidingpuzzle.pdb import (
    BuildProgress,
    PdbError,
    PdbFileError,
    board_by_name,
    build_pdb,
    build_set,
    build_tables,
    default_cache_dir,
    load_pdb,
    load_set,
    partition,
    pattern_sets,
    save_pdb,
    table_jobs,
)
from gridarena.games.slidingpuzzle.pdb.partitions import (
    board_key,
    default_partition,
    split_set_name,
    tables_present,
)
from gridarena.games.slidingpuzzle.pdb.table import pack_nibbles


@settings(deadline=None)
@given(
    st.integers(1, 20).flatmap(lambda m: st.tuples(st.just(m), st.permutations(range(m)), st.integers(1, m)))
)
def test_rank_and_unrank_agree_with_the_reference(args: tuple[int, list[int], int]) -> None:
    m, order, k = args
    cells = np.array(order[:k], dtype=np.int64)
    weights = placement_weights(m, k)
    rank = rank_placement(cells, k, weights)
    assert rank == rank_placement_ref(list(cells), m)
    back = np.empty(k, dtype=np.int64)
    unrank_placement(rank, k, m, weights, back)
    assert back.tolist() == cells.tolist()


def test_ranking_is_a_perfect_hash() -> None:
    ranks = sorted(rank_placement_ref(p, 6) for p in itertools.permutations(range(6), 3))
    assert ranks == list(range(6 * 5 * 4))


CASES = [
    (goal_board(2, 3), (1, 2)),
    (goal_board(3, 3), (1, 2, 3)),
    (goal_board(3, 3, blank_first=True), (1, 2, 3, 4)),
    (goal_board(3, 3, blanks=2), (1, 2, 3)),
    (goal_board(3, 3, blanks=2, walls=(4,)), (1, 2, 6)),
    (goal_board(3, 4, blanks=2, walls=(5,)), (1, 2, 8, 9)),
    (goal_board(3, 4, walls=(5, 6)), (3, 4, 8, 1)),
    (homework_goal(), (1, 6)),
    (homework_goal(), (12, 18)),  # 12 sits between two walls, 18 beside the blanks
    (goal_board(5, 5), (1, 7)),  # the 24-puzzle's board: 25 cells, one blank
    (goal_board(5, 5, blank_first=True), (24, 18, 12)),
]


@pytest.mark.parametrize(("goal", "pattern"), CASES, ids=lambda x: repr(x)[:60])
def test_builder_matches_the_brute_force_oracle(goal: Board, pattern: tuple[int, ...]) -> None:
    values, _ = build_values(goal, pattern)
    geo = Geometry.of(goal)
    expected = np.full(len(values), 255, dtype=np.uint8)
    for cells, d in build_values_ref(goal, pattern).items():
        expected[rank_placement_ref([int(geo.index[c]) for c in cells], geo.size)] = d
    assert np.array_equal(values, expected)


@pytest.mark.parametrize(
    ("goal", "patterns"),
    [
        (goal_board(2, 4), ((1, 2, 5), (3, 4, 6, 7))),
        (goal_board(3, 3, blanks=2, walls=(4,)), ((1, 2, 3), (6, 7))),
        (goal_board(2, 4, blanks=2), ((1, 2, 3), (4, 5, 6))),
    ],
)
def test_additive_sums_never_exceed_the_true_distance(
    goal: Board, patterns: tuple[tuple[int, ...], ...]
) -> None:
    pdbs = [build_pdb(goal, p) for p in patterns]
    tight = 0
    for board, d in distances(goal).items():
        total = sum(p.lookup(board) for p in pdbs)
        assert total <= d, board
        tight += total == d
    assert tight > 1  # the bound is informative, not all zeros


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    goal = goal_board(3, 3)
    for storage in ("u8", "u4"):
        pdb = build_pdb(goal, (1, 2), storage)
        path = save_pdb(pdb, tmp_path / f"{storage}.pdb")
        loaded = load_pdb(path, goal=goal, pattern=(1, 2))
        assert isinstance(loaded.table, np.memmap)
        assert np.array_equal(loaded.unpacked(), pdb.unpacked())
        assert loaded.header["max_value"] == pdb.header["max_value"]


def test_nibble_packing_keeps_values() -> None:
    values = np.arange(15, dtype=np.uint8)
    packed = pack_nibbles(values)
    assert len(packed) == 8
    pdb = build_pdb(goal_board(2, 3), (1, 2), "u4")
    assert [pdb.value(r) for r in range(len(pdb.unpacked()))] == pdb.unpacked().tolist()


def test_values_too_big_for_four_bits_are_refused() -> None:
    with pytest.raises(PdbError, match="do not fit 4 bits"):
        build_pdb(goal_board(3, 4, walls=(5, 6)), (3, 4, 8, 1), "u4")


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    return save_pdb(build_pdb(goal_board(3, 3), (1, 2, 3)), tmp_path / "x.pdb")


def test_a_truncated_file_is_refused(saved: Path) -> None:
    data = saved.read_bytes()
    saved.write_bytes(data[:-10])
    with pytest.raises(PdbFileError, match="truncated: expected 252 data bytes"):
        load_pdb(saved)
    saved.write_bytes(data[:20])
    with pytest.raises(PdbFileError, match="truncated inside the header"):
        load_pdb(saved)


def test_a_corrupted_file_is_refused(saved: Path) -> None:
    data = bytearray(saved.read_bytes())
    data[-1] ^= 1
    saved.write_bytes(bytes(data))
    with pytest.raises(PdbFileError, match="checksum mismatch"):
        load_pdb(saved)
    assert load_pdb(saved, verify=False).pattern == (1, 2, 3)


def test_a_mismatched_file_is_refused(saved: Path) -> None:
    with pytest.raises(PdbFileError, match=r"built for pattern \[1, 2, 3\], but \[1, 2, 4\] was asked for"):
        load_pdb(saved, pattern=(1, 2, 4))
    with pytest.raises(PdbFileError, match="built for goal"):
        load_pdb(saved, goal=goal_board(3, 3, blank_first=True))


def test_foreign_files_are_refused(tmp_path: Path) -> None:
    other = tmp_path / "other.bin"
    other.write_bytes(b"\x00" * 100)
    with pytest.raises(PdbFileError, match="bad magic number"):
        load_pdb(other)
    with pytest.raises(PdbFileError, match="cannot read"):
        load_pdb(tmp_path / "missing.pdb")


def test_build_set_reuses_good_files_and_replaces_bad_ones(tmp_path: Path) -> None:
    goal = goal_board(2, 4)
    patterns = partition(goal, "3-4")
    paths = build_set(goal, patterns, tmp_path)
    stamp = paths[0].stat().st_mtime_ns
    assert build_set(goal, patterns, tmp_path)[0].stat().st_mtime_ns == stamp
    paths[0].write_bytes(paths[0].read_bytes()[:-1])
    build_set(goal, patterns, tmp_path)
    assert [p.pattern for p in load_set(goal, patterns, tmp_path)] == [(1, 2, 3), (4, 5, 6, 7)]


def test_missing_set_says_how_to_build(tmp_path: Path) -> None:
    with pytest.raises(PdbError, match="gridarena puzzle pdb build"):
        load_set(goal_board(2, 4), ((1, 2),), tmp_path)


def test_partitions() -> None:
    assert partition(goal_board(4, 4), "7-8")[1] == (1, 2, 3, 4, 5, 6, 7, 8)
    assert [len(g) for g in partition(homework_goal(), "6-6-3")] == [6, 6, 3]
    assert sorted(t for g in partition(goal_board(5, 5), "6-6-6-6") for t in g) == list(range(1, 25))
    with pytest.raises(PdbError, match="needs 10 tiles"):
        partition(goal_board(2, 3), "5-5")


def test_cache_dir_follows_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("GRIDARENA_CACHE", str(tmp_path))
    assert default_cache_dir() == tmp_path / "pdb"
    monkeypatch.delenv("GRIDARENA_CACHE")
    assert default_cache_dir() == Path.home() / ".cache" / "gridarena" / "pdb"


def test_three_blanks_are_refused() -> None:
    with pytest.raises(PdbError, match="at most 2 blanks"):
        build_values(goal_board(2, 3, blanks=3), (1,))


@st.composite
def small_boards_and_patterns(draw: st.DrawFn) -> tuple[Board, tuple[int, ...]]:
    """A goal of 2x2..3x4 cells with random walls and one or two blanks, and a pattern of 1-3 tiles."""
    rows, cols = draw(st.integers(2, 3)), draw(st.integers(2, 4))
    cells = rows * cols
    walls = draw(st.lists(st.integers(0, cells - 1), unique=True, max_size=max(0, cells - 4)))
    blanks = draw(st.integers(1, 2))
    goal = goal_board(rows, cols, blanks=blanks, walls=walls)
    size = draw(st.integers(1, min(3, len(goal.tiles))))
    return goal, tuple(draw(st.permutations(goal.tiles))[:size])


@settings(deadline=None, max_examples=60)
@given(small_boards_and_patterns())
def test_builder_matches_the_oracle_on_random_boards(case: tuple[Board, tuple[int, ...]]) -> None:
    goal, pattern = case
    values, states = build_values(goal, pattern)
    geo = Geometry.of(goal)
    expected = np.full(len(values), 255, dtype=np.uint8)
    for cells, d in build_values_ref(goal, pattern).items():
        expected[rank_placement_ref([int(geo.index[c]) for c in cells], geo.size)] = d
    assert np.array_equal(values, expected)
    assert states >= int((values != 255).sum())  # at least one search state per reachable placement


def test_progress_reports_every_layer() -> None:
    layers: list[tuple[int, int]] = []
    _, states = build_values(goal_board(3, 3), (1, 2, 3), progress=lambda d, n: layers.append((d, n)))
    assert [d for d, _ in layers] == list(range(1, len(layers) + 1))
    assert layers[-1][1] == states and all(a[1] < b[1] for a, b in itertools.pairwise(layers))


@pytest.mark.parametrize(
    ("goal", "size"),
    [
        (goal_board(3, 3), 3),
        (goal_board(3, 3, blanks=2), 3),
        (goal_board(3, 4, blanks=2, walls=(5,)), 3),
        (homework_goal(), 3),
        (goal_board(2, 4, blanks=2, walls=(1,)), 2),  # a cut cell: some states are never reached
    ],
)
def test_the_expected_states_bound_the_build(goal: Board, size: int) -> None:
    pattern = tuple(sorted(goal.tiles))[:size]
    _, states = build_values(goal, pattern)
    expected = search_states(goal, size)
    assert states <= expected
    if not goal.walls or goal == homework_goal():
        assert states == expected  # every state is reached: the progress bar ends at 100%


def test_progress_comes_within_layers(monkeypatch: pytest.MonkeyPatch) -> None:
    goal, pattern = goal_board(3, 4, blanks=2, walls=(5,)), (1, 2, 8)
    whole, _ = build_values(goal, pattern)
    monkeypatch.setattr(pdbbuild, "CHUNK_WORDS", 2)  # 64 states a chunk: many chunks a layer
    seen: list[tuple[int, int]] = []
    values, states = build_values(goal, pattern, progress=lambda d, n: seen.append((d, n)))
    assert np.array_equal(values, whole)
    depths = [d for d, _ in seen]
    assert len(seen) > len(set(depths)) and depths == sorted(depths)  # several reports in some layer
    assert seen[-1][1] == states and all(a[1] < b[1] for a, b in itertools.pairwise(seen))


def test_a_build_reports_its_percentage_and_the_time_left(tmp_path: Path) -> None:
    goal = goal_board(3, 3, blanks=2)
    assert not tables_present(goal, "3-4", tmp_path)
    jobs = table_jobs(goal, "3-4", tmp_path)
    assert [job.pattern for job in jobs] == [(1, 2, 3), (4, 5, 6, 7)]
    heard: list[BuildProgress] = []
    built = [job.path for job, _, _ in build_tables(goal, jobs, heard.append)]
    assert built == [job.path for job in jobs] and tables_present(goal, "3-4", tmp_path)
    assert heard[0].fraction == 0 and heard[-1].fraction == 1 and heard[-1].remaining == 0
    assert [p.done for p in heard] == sorted(p.done for p in heard)
    assert {p.number for p in heard} == {1, 2} and all(p.tables == 2 for p in heard)
    assert "100% (table 2 of 2: " in heard[-1].line() and "s left" in heard[-1].line()
    assert table_jobs(goal, "3-4", tmp_path) == []  # built: nothing left to do
    assert len(table_jobs(goal, "3-4", tmp_path, force=True)) == 2


@given(st.integers(0, (1 << 62) - 1))
def test_popcount_counts_bits(x: int) -> None:
    assert popcount(x) == bin(x).count("1")


REGION_CASES = [
    (goal_board(3, 3, blanks=2), (1, 2, 3)),
    (goal_board(3, 3, blanks=2, walls=(4,)), (1, 2, 6)),
    (goal_board(3, 4, blanks=2, walls=(5,)), (1, 2, 8)),
    (goal_board(3, 3), (1, 2, 5)),  # one blank
]


def _region_of(goal: Board, pattern_cells: tuple[int, ...], cell: int) -> frozenset[int]:
    """The connected cells outside the pattern around ``cell`` (a readable flood fill)."""
    adjacent = movable_neighbours(goal)
    seen, todo = {cell}, [cell]
    while todo:
        for n in adjacent[todo.pop()]:
            if n not in seen and n not in pattern_cells:
                seen.add(n)
                todo.append(n)
    return frozenset(seen)


@pytest.mark.parametrize(("goal", "pattern"), REGION_CASES, ids=lambda x: repr(x)[:60])
def test_region_keyed_values_are_the_least_exact_cost_with_the_blanks_in_their_regions(
    goal: Board, pattern: tuple[int, ...]
) -> None:
    pdb = build_pdb(goal, pattern, "r4")
    exact = exact_costs_ref(goal, pattern)
    expected: dict[tuple[tuple[int, ...], tuple[frozenset[int], ...]], int] = {}
    for (cells, blanks), d in exact.items():
        key = (cells, tuple(sorted((_region_of(goal, cells, b) for b in blanks), key=min)))
        expected[key] = min(expected.get(key, d), d)
    others = [t for t in goal.tiles if t not in pattern]
    least = build_values_ref(goal, pattern)
    stronger = 0
    for (cells, blanks), _ in itertools.islice(exact.items(), 0, None, 7):
        board_cells = [0 if v == 0 else v for v in goal.cells]
        rest = [c for c, v in enumerate(goal.cells) if v >= 0 and c not in cells and c not in blanks]
        for c, t in zip(rest, others, strict=True):
            board_cells[c] = t
        for c, t in zip(cells, pattern, strict=True):
            board_cells[c] = t
        for c in blanks:
            board_cells[c] = 0
        board = Board(goal.rows, goal.cols, tuple(board_cells))
        key = (cells, tuple(sorted((_region_of(goal, cells, b) for b in blanks), key=min)))
        value = pdb.lookup(board)
        assert value == min(expected[key], 14 + least[cells])
        stronger += value > least[cells]
    if (goal, pattern) == REGION_CASES[0]:
        assert stronger > 0  # the blanks' regions add information


def test_region_keyed_files_round_trip_and_are_named_apart(tmp_path: Path) -> None:
    goal = goal_board(3, 3, blanks=2, walls=(4,))
    plain, regional = (
        build_set(goal, [(1, 2, 6)], tmp_path),
        build_set(goal, [(1, 2, 6)], tmp_path, storage="r4"),
    )
    assert plain != regional and regional[0].name.endswith("-r.pdb")
    loaded = load_set(goal, [(1, 2, 6)], tmp_path, regions=True)[0]
    assert loaded.regions and np.array_equal(loaded.table, build_pdb(goal, (1, 2, 6), "r4").table)
    assert split_set_name("6-6-3r") == ("6-6-3", True)


def test_board_names() -> None:
    assert board_by_name("homework") == homework_goal()
    assert board_by_name("4x4", blank_first=True).cells[0] == 0
    with pytest.raises(PdbError, match="neither"):
        board_by_name("big")


def test_default_partitions_and_pattern_sets() -> None:
    assert (board_key(homework_goal()), default_partition(homework_goal())) == (
        "4x5-homework",
        "5-5-5ar/5-5-5br/6-6-3r",
    )
    assert default_partition(board_by_name("4x4", blank_first=True)) == "6-6-3"
    assert default_partition(goal_board(3, 3)) is None
    first, second = pattern_sets(homework_goal(), "7-7-1/6-6-3r")
    assert (first.regions, second.regions) == (False, True)
    assert second.patterns == partition(homework_goal(), "6-6-3")
    assert (first.storage("u8"), second.storage(), second.storage("r4")) == ("u8", "r4", "r4")
    with pytest.raises(PdbError, match="region-keyed sets are stored as r4, not u8"):
        second.storage("u8")
