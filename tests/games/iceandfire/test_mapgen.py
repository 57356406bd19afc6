"""The map generator against the maps of the referee's own classes (compiled unmodified) and their
generation steps, and the facts every generated map satisfies."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gridarena.core.errors import SpecError
from gridarena.core.javarandom import JavaRandom
from gridarena.games.iceandfire.formats import LEAGUES
from gridarena.games.iceandfire.mapgen import (
    LONG_MAX,
    LONG_MIN,
    components,
    contest_spot_count,
    format_map,
    generate,
    java_long,
)

VECTORS: list[tuple[int, tuple[str, ...], list[tuple[int, int]], list[tuple[int, int]]]] = [
    (
        1,
        (
            "...#########",
            "...........#",
            "...........#",
            "...........#",
            "#..........#",
            "#.........##",
            "##.........#",
            "#..........#",
            "#...........",
            "#...........",
            "#...........",
            "#########...",
        ),
        [(1, 0), (9, 1), (9, 3), (10, 3), (4, 4), (7, 4), (4, 7), (7, 7), (1, 8), (2, 8), (2, 10), (10, 11)],
        [(1, 0), (3, 1), (6, 2), (7, 2), (1, 4), (7, 4), (4, 7), (10, 7), (4, 9), (5, 9), (8, 10), (10, 11)],
    ),
    (
        42,
        (
            ".........###",
            "..........##",
            "...........#",
            "#..........#",
            "......##....",
            "....####....",
            "....####....",
            "....##......",
            "#..........#",
            "#...........",
            "##..........",
            "###.........",
        ),
        [(1, 0), (3, 0), (5, 3), (10, 4), (1, 7), (6, 8), (8, 11), (10, 11)],
        [
            (1, 0),
            (3, 1),
            (6, 1),
            (4, 3),
            (9, 4),
            (0, 5),
            (11, 5),
            (0, 6),
            (11, 6),
            (2, 7),
            (7, 8),
            (5, 10),
            (8, 10),
            (10, 11),
        ],
    ),
    (
        123456789,
        (
            "...#########",
            "...###..#...",
            "...#........",
            "............",
            "#..........#",
            "##........##",
            "##........##",
            "#..........#",
            "............",
            "........#...",
            "...#..###...",
            "#########...",
        ),
        [(1, 0), (2, 1), (4, 2), (0, 3), (2, 3), (9, 8), (11, 8), (7, 9), (9, 10), (10, 11)],
        [(1, 0), (8, 2), (0, 3), (11, 8), (3, 9), (10, 11)],
    ),
    (
        -7095413993656790854,
        (
            "...#......##",
            "...........#",
            "...........#",
            "##.........#",
            "#..........#",
            "#..........#",
            "#..........#",
            "#..........#",
            "#.........##",
            "#...........",
            "#...........",
            "##......#...",
        ),
        [
            (1, 0),
            (4, 0),
            (9, 1),
            (10, 1),
            (2, 2),
            (7, 2),
            (2, 3),
            (4, 5),
            (6, 5),
            (10, 5),
            (1, 6),
            (5, 6),
            (7, 6),
            (9, 8),
            (4, 9),
            (9, 9),
            (1, 10),
            (2, 10),
            (7, 11),
            (10, 11),
        ],
        [
            (1, 0),
            (2, 0),
            (6, 0),
            (1, 1),
            (5, 2),
            (10, 5),
            (1, 6),
            (6, 9),
            (10, 10),
            (5, 11),
            (9, 11),
            (10, 11),
        ],
    ),
    (
        0,
        (
            ".......#####",
            "........####",
            ".........###",
            "...#......##",
            "#...#.....##",
            "#....#....##",
            "##....#....#",
            "##.....#...#",
            "##......#...",
            "###.........",
            "####........",
            "#####.......",
        ),
        [
            (1, 0),
            (6, 1),
            (0, 2),
            (4, 2),
            (8, 3),
            (6, 4),
            (9, 5),
            (2, 6),
            (5, 7),
            (3, 8),
            (7, 9),
            (11, 9),
            (5, 10),
            (10, 11),
        ],
        [(1, 0), (6, 1), (1, 5), (10, 6), (5, 10), (10, 11)],
    ),
    (
        4,
        (
            "..........##",
            "...######.##",
            "...######.##",
            "#..#####...#",
            "....###.....",
            ".....##.....",
            ".....##.....",
            ".....###....",
            "#...#####..#",
            "##.######...",
            "##.######...",
            "##..........",
        ),
        [(1, 0), (4, 0), (5, 0), (0, 2), (9, 3), (8, 4), (3, 7), (2, 8), (11, 9), (6, 11), (7, 11), (10, 11)],
        [(1, 0), (8, 0), (9, 1), (8, 4), (10, 5), (1, 6), (3, 7), (2, 10), (3, 11), (10, 11)],
    ),
    (
        10,
        (
            "...####....#",
            "...###.....#",
            "...###.....#",
            "#..........#",
            "#.##.......#",
            "#.###..###.#",
            "#.###..###.#",
            "#.......##.#",
            "#..........#",
            "#.....###...",
            "#.....###...",
            "#....####...",
        ),
        [(1, 0), (8, 0), (6, 2), (7, 2), (1, 5), (10, 6), (4, 9), (5, 9), (3, 11), (10, 11)],
        [(1, 0), (7, 0), (9, 4), (6, 5), (5, 6), (2, 7), (4, 11), (10, 11)],
    ),
    (
        117,
        (
            "..........##",
            "...........#",
            ".....#.....#",
            "#....#.....#",
            "#....##...##",
            "##........##",
            "##........##",
            "##...##....#",
            "#.....#....#",
            "#.....#.....",
            "#...........",
            "##..........",
        ),
        [
            (1, 0),
            (6, 0),
            (3, 1),
            (1, 2),
            (7, 3),
            (9, 4),
            (2, 5),
            (9, 6),
            (2, 7),
            (4, 8),
            (10, 9),
            (8, 10),
            (5, 11),
            (10, 11),
        ],
        [(1, 0), (7, 1), (9, 1), (7, 2), (8, 5), (3, 6), (4, 9), (2, 10), (4, 10), (10, 11)],
    ),
]


@pytest.mark.parametrize("rules", ["contest", "multi"])
@pytest.mark.parametrize("vector", VECTORS, ids=[str(v[0]) for v in VECTORS])
def test_section_17_vectors(vector: tuple, rules: str) -> None:
    seed, rows, contest_spots, multi_spots = vector
    for league in LEAGUES:
        generated = generate(seed, rules, league)
        assert generated.rows == rows, (seed, rules, league)
        expected = (
            (contest_spots if rules == "contest" else multi_spots) if league in ("wood1", "bronze") else []
        )
        assert list(generated.spots) == expected, (seed, rules, league)


def test_section_16_random_vectors_used_by_the_generator() -> None:
    rng = JavaRandom(1)
    assert [rng.next(24) for _ in range(6)] == [12262101, 1685660, 6880014, 6835705, 3484876, 607928]
    assert JavaRandom(-7095413993656790854).state == 0x695032CB6D7
    assert JavaRandom(1).next_int(13) == 4


def test_trace_seed_1_contest_spot_draws() -> None:
    trace: list[tuple[str, object]] = []
    generate(1, "contest", "bronze", trace)
    assert ("components", [(len_one_component(trace), (0, 0))]) in trace
    assert not any(kind == "picks" for kind, _ in trace)
    draws = [value for kind, value in trace if kind == "spot"]
    assert draws == [
        ((11, 10), "banned"),
        ((7, 7), "accepted"),
        ((4, 7), "accepted"),
        ((2, 10), "accepted"),
        ((11, 5), "void"),
        ((9, 3), "accepted"),
        ((1, 8), "accepted"),
    ]


def len_one_component(trace: list[tuple[str, object]]) -> int:
    (comps,) = [value for kind, value in trace if kind == "components"]
    assert isinstance(comps, list) and len(comps) == 1
    return int(comps[0][0])


def test_trace_seed_1_multi_spot_draws() -> None:
    trace: list[tuple[str, object]] = []
    generate(1, "multi", "bronze", trace)
    assert ("spot count", 12) in trace  # n = 110 non-void cells, max 16, nextInt(11) = 7, v = 13
    draws = [value for kind, value in trace if kind == "spot"]
    assert draws == [
        ((10, 7), "accepted"),
        ((7, 4), "accepted"),
        ((7, 2), "accepted"),
        ((10, 11), "taken"),
        ((5, 9), "accepted"),
        ((3, 1), "accepted"),
    ]


def test_trace_seed_10_joining() -> None:
    trace: list[tuple[str, object]] = []
    generate(10, "contest", "bronze", trace)
    values = dict(trace[:3])
    assert values["unjoined"] == (
        "...####....#",
        "...###.....#",
        "...###.....#",
        "#...##....##",
        "####.....###",
        "#####..#####",
        "#####..#####",
        "###.....####",
        "##....##...#",
        "#.....###...",
        "#.....###...",
        "#....####...",
    )
    assert values["components"] == [(12, (0, 0)), (50, (1, 9)), (12, (8, 8))]
    assert values["picks"] == [(1, 1), (4, 7), (8, 8)]


@pytest.mark.parametrize(
    ("seed", "comps", "picks"),
    [
        (4, [(33, (0, 0)), (33, (7, 4))], [(2, 7), (10, 11)]),
        (
            117,
            [(14, (0, 0)), (22, (1, 8)), (1, (4, 5)), (22, (6, 0)), (1, (7, 6)), (14, (8, 7))],
            [(2, 1), (3, 10), (4, 5), (8, 1), (7, 6), (9, 11)],
        ),
    ],
)
def test_trace_other_joined_seeds(seed: int, comps: list, picks: list) -> None:
    trace: list[tuple[str, object]] = []
    generate(seed, "contest", "bronze", trace)
    values = dict(kv for kv in trace if kv[0] in ("components", "picks"))
    assert values == {"components": comps, "picks": picks}


def test_contest_spot_counts() -> None:
    assert contest_spot_count(1) == 12
    assert contest_spot_count(-7095413993656790854) == 20
    counts = {contest_spot_count(seed) for seed in range(200)}
    assert counts == set(range(8, 21, 2))


def test_seeds_are_java_longs() -> None:
    assert java_long(LONG_MAX + 1) == LONG_MIN
    assert java_long(-1) == -1
    # Only the low 48 bits of seed ^ 0x5DEECE66D matter: seeds 2^48 apart give the same game.
    assert generate(5).rows == generate(5 + 2**48).rows
    assert generate(LONG_MIN).seed == LONG_MIN and generate(LONG_MAX).seed == LONG_MAX
    assert generate(2**64 + 7).seed == 7


def test_bad_options_are_named() -> None:
    with pytest.raises(SpecError, match="league"):
        generate(1, league="silver")
    with pytest.raises(SpecError, match="rules"):
        generate(1, rules="legend")


def test_format_map_prints_the_vector_layout() -> None:
    text = format_map(generate(1))
    assert text.splitlines()[1] == " 0 ...#########"
    assert text.splitlines()[-2] == "numberMineSpots = 12"


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(LONG_MIN, LONG_MAX), rules=st.sampled_from(["contest", "multi"]))
def test_generated_maps_keep_the_section_15_facts(seed: int, rules: str) -> None:
    generated = generate(seed, rules, "bronze")
    rows, spots = generated.rows, set(generated.spots)
    cells = {(x, y) for y in range(12) for x in range(12) if rows[y][x] == "."}
    assert all((11 - x, 11 - y) in cells for x, y in cells)
    assert all((11 - x, 11 - y) in spots for x, y in spots)
    grid = [[rows[y][x] == "." for y in range(12)] for x in range(12)]
    assert len(components(grid)) == 1
    assert all((x, y) in cells for x in range(3) for y in range(3))
    assert {(1, 0), (10, 11)} <= spots <= cells
    assert not spots & {(0, 0), (11, 11), (0, 1), (11, 10)}
    if rules == "contest":
        assert len(spots) == contest_spot_count(seed)
    else:
        assert 6 <= len(spots) <= max(6, 3 * len(cells) // 20) and len(spots) % 2 == 0
    assert generate(seed, rules, "wood2").rows == rows and not generate(seed, rules, "wood3").spots
