"""The ReversiXT map parser and writer: the data folder's maps, the reference server's rejections
(data README 2), gridarena's own rejections, and fuzzing."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rxt_data import REJECTED, all_maps, catalogue, folder

from gridarena.core.files import FileReadError
from gridarena.games.reversixt.formats import (
    DX,
    DY,
    HOLE,
    SYMBOLS,
    MapFormatError,
    ReversiMap,
    parse_map,
    read_map,
    write_map,
)

HEADER = "2\n0\n0 0\n3 4\n"
BOARD = "1 2 0 0\n- - - -\n2 0 0 0\n"


def reject(text: str, match: str) -> MapFormatError:
    with pytest.raises(MapFormatError, match=match) as info:
        parse_map(text, "t.map")
    return info.value


# ---------------------------------------------------------------------------------------------
# The data folder


def test_every_catalogue_map_loads_with_its_header(shared_data: Path) -> None:
    rows = catalogue(shared_data)
    assert len(rows) == 55
    for row in rows:
        path = folder(shared_data) / row.path
        if row.rejected:
            with pytest.raises(MapFormatError, match=r"transition \d+ is invalid"):
                read_map(path)
            continue
        m = read_map(path)
        assert (m.players, m.height, m.width, m.overrides, m.bombs) == (
            row.players,
            row.rows,
            row.cols,
            row.overrides,
            row.bombs,
        ), row.path
        if row.radius is not None:
            assert m.radius == row.radius, row.path
        assert len(m.transitions) == row.transitions, row.path
        counts = {s: m.cells.count(SYMBOLS.index(s)) for s in "cibx"}
        assert counts == row.specials, row.path


def test_every_loadable_map_round_trips(shared_data: Path) -> None:
    checked = 0
    for path in all_maps(shared_data):
        if path.name in REJECTED:
            continue
        m = read_map(path)
        text = write_map(m)
        assert parse_map(text) == m, path
        assert text.endswith("\n") and "\r" not in text
        assert all(line == line.strip() and "  " not in line for line in text.splitlines())
        checked += 1
    assert checked >= 60


def test_the_two_norm12x12_copies_are_the_same_map(shared_data: Path) -> None:
    a = read_map(folder(shared_data) / "FritzFlorian-bachelor-thesis-code/norm12x12.map")
    b = read_map(folder(shared_data) / "semmelsamu-reversixt-bot/maps/fightclub/norm12x12.map")
    assert a == b and a.name == b.name == "norm12x12"


def test_crlf_and_whitespace_probes_read_as_the_same_map(shared_data: Path) -> None:
    probes = folder(shared_data) / "probes"
    expected = parse_map(HEADER + BOARD)
    assert read_map(probes / "crlf.map") == expected
    assert read_map(probes / "ws.map") == expected


@pytest.mark.parametrize(
    ("name", "message", "where"),
    [
        ("p1.map", "invalid number of players", ":1:1:"),
        ("p9.map", "invalid number of players", ":1:1:"),
        ("delim.map", "invalid delimiter", ":8:7:"),
        ("dup.map", r"transition 1 duplicates transition 0", ":9:1:"),
        ("B2.map", r"transition 0 is invalid \(leading to/coming from invalid field\)", ":8:1:"),
    ],
)
def test_probe_maps_the_reference_server_refused(
    shared_data: Path, name: str, message: str, where: str
) -> None:
    with pytest.raises(MapFormatError, match=message) as info:
        read_map(folder(shared_data) / "probes" / name)
    assert f"{name}{where}" in str(info.value)
    assert "\n" not in str(info.value)


def test_course_maps_the_reference_server_refused(shared_data: Path) -> None:
    maps = folder(shared_data) / "semmelsamu-reversixt-bot/maps"
    with pytest.raises(MapFormatError, match=r"transition 0 is invalid .*\(1,1\) is a hole"):
        read_map(maps / "evilMaps_g04/evilMap01.map")
    with pytest.raises(MapFormatError, match=r"transition 1 is invalid .*\(11,3\) up-right is a field"):
        read_map(maps / "initialMaps/scope.map")


def test_bomb_vector_after_files_need_strict_false(shared_data: Path) -> None:
    after = folder(shared_data) / "marcluque-Reversi-AI/bombmoves/bombmove_test0_after.txt"
    with pytest.raises(MapFormatError, match="transition 0 is invalid"):
        read_map(after)
    assert read_map(after, strict=False).cells.count(HOLE) == 14


# ---------------------------------------------------------------------------------------------
# Whitespace tolerance (the reference server reads tokens) and the allowed oddities


def test_tokens_may_be_spread_over_lines_in_any_way() -> None:
    one_line = "2 0 0 0 3 4 1 2 0 0 - - - - 2 0 0 0"
    assert parse_map(one_line) == parse_map(HEADER + BOARD)
    assert parse_map("\t2\t0\n\n 0  0\r\n3 4 " + BOARD.replace("\n", " \n")) == parse_map(HEADER + BOARD)


def test_self_loops_and_two_directions_of_one_field_are_allowed() -> None:
    m = parse_map("2 0 0 0 1 2 1 2\n0 0 0 <-> 0 0 0\n0 0 6 <-> 0 0 4\n")
    assert m.transitions == ((0, 0, 0, 0, 0, 0), (0, 0, 6, 0, 0, 4))


def test_players_without_stones_are_allowed() -> None:
    assert parse_map("4 0 0 0 1 2 1 0").players == 4


# ---------------------------------------------------------------------------------------------
# gridarena's rejections (never shown to the reference server): each with its own message and place


@pytest.mark.parametrize(
    ("text", "match", "where"),
    [
        ("2 0 0 0 3", r"unexpected end of file: expected board width", "t.map:1:10"),
        ("2 0 0 0 1 2 1", r"unexpected end of file: 1 of the 1x2 = 2 cells", "t.map:1:14"),
        ("2 x 0 0 1 2 1 2", r"number of override stones: 'x' is not a non-negative integer", "t.map:1:3"),
        ("2 0 -1 0 1 2 1 2", r"number of bombs: '-1' is not", "t.map:1:5"),
        ("2 0 0 2147483648 1 2 1 2", r"bomb radius: 2147483648 is too large", "t.map:1:7"),
        ("2 0 0 0 0 2", r"board height is 0", "t.map:1:9"),
        ("2 0 0 0 2 0", r"board width is 0", "t.map:1:11"),
        ("2 0 0 0 1001 2", r"dimensions too large \(max 1000x1000", "t.map:1:9"),
        ("2 0 0 0 2 1001", r"dimensions too large \(max 1000x1000", "t.map:1:11"),
        ("2 0 0 0 1 4 0000", r"cell \(0,0\): '0000' is not one of the symbols", "t.map:1:13"),
        ("2 0 0 0 1 2 1 y", r"cell \(1,0\): 'y' is not one of the symbols", "t.map:1:15"),
        ("2 0 0 0 1 2 1 3", r"cell \(1,0\): a stone of player 3 on a 2-player map", "t.map:1:15"),
        ("2 0 0 0 1 2 1 2\n0 0 8 <-> 1 0 0", r"transition 0: direction 8 is not 0..7", "t.map:2:5"),
        ("2 0 0 0 1 2 1 2\n0 0 0 <-> 2 0 0", r"transition 0 is invalid .*\(2,0\) is outside", "t.map:2:11"),
        ("2 0 0 0 1 2 1 2\n0 0 0 <-> 0 1 0", r"transition 0 is invalid .*\(0,1\) is outside", "t.map:2:13"),
        ("2 0 0 0 1 2 1 2\n0 0 0 <->1 0 0", r"invalid delimiter \(transition 0: '<->1'", "t.map:2:7"),
        ("2 0 0 0 1 2 1 2\n0 0 0<-> 1 0 0", r"transition 0: d1: '0<->' is not", "t.map:2:5"),
        ("2 0 0 0 1 2 1 2\n0 0 0 <-> 1 0", r"incomplete transition 0", "t.map:2:1"),
        (
            "2 0 0 0 1 2 1 2\n0 0 0 <-> 1 0 0\n0 0 0 <-> 1 0 4",
            r"transition 1: endpoint \(0, 0, 0\) is already used",
            "t.map:3:1",
        ),
        (
            "2 0 0 0 1 2 1 2\n0 0 0 <-> 1 0 0\n1 0 0 <-> 0 0 0",
            r"transition 1 duplicates transition 0",
            "t.map:3:1",
        ),
        (
            "2 0 0 0 1 2 1 2\n0 0 2 <-> 1 0 0",
            r"the neighbour \(1,0\) of \(0,0\) right is a field",
            "t.map:2:1",
        ),
        ("2 0 0 0 1 2 1 -\n1 0 0 <-> 0 0 0", r"\(1,0\) is a hole", "t.map:2:1"),
        ("2 0 0 0 1 2 1 2 \u00e9", r"transition 0: x1: .\u00e9. is not a non-negative integer", "t.map:1:17"),
    ],
)
def test_gridarena_rejections_name_line_column_and_reason(text: str, match: str, where: str) -> None:
    error = reject(text, match)
    assert str(error).startswith(where + ":"), str(error)


def test_read_map_reports_missing_and_broken_files(tmp_path: Path) -> None:
    with pytest.raises(FileReadError, match=r"nothing\.map: cannot read the map: no such file"):
        read_map(tmp_path / "nothing.map")
    bad = tmp_path / "bad.map.gz"
    bad.write_bytes(b"\x1f\x8b\x08 truncated gzip")
    with pytest.raises(FileReadError, match=r"bad\.map\.gz: the map is corrupt gzip data"):
        read_map(bad)


def test_read_map_reads_gzip_and_names_the_map(tmp_path: Path) -> None:
    path = tmp_path / "tiny.map.gz"
    path.write_bytes(gzip.compress((HEADER + BOARD).encode()))
    m = read_map(path)
    assert m.name == "tiny" and m == parse_map(HEADER + BOARD)


# ---------------------------------------------------------------------------------------------
# Fuzzing: the parser never fails in any other way, and the writer round-trips every map

TOKENS = st.sampled_from(
    ["0", "1", "2", "3", "8", "9", "c", "i", "b", "x", "-", "<->", "->", "10", "1000", "1001",
     "2147483648", "00", "a", "\u00e9", "-1", "7", "4"]
)  # fmt: skip
SEPARATORS = st.sampled_from([" ", "  ", "\n", "\r\n", "\t", " \n "])


@st.composite
def token_soup(draw: st.DrawFn) -> str:
    """A header that is often valid, then random tokens and separators."""
    head = draw(st.lists(st.integers(0, 12), min_size=0, max_size=6))
    tokens = [str(v) for v in head] + draw(st.lists(TOKENS, max_size=60))
    seps = draw(st.lists(SEPARATORS, min_size=len(tokens), max_size=len(tokens)))
    return "".join(t + s for t, s in zip(tokens, seps, strict=True))


@st.composite
def valid_maps(draw: st.DrawFn) -> ReversiMap:
    """A random valid map with random (valid) transitions."""
    players = draw(st.integers(2, 8))
    height, width = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    symbols = SYMBOLS[: players + 1] + SYMBOLS[9:]
    cells = bytes(draw(st.lists(st.sampled_from(range(len(SYMBOLS))).filter(lambda c: SYMBOLS[c] in symbols),
                                min_size=height * width, max_size=height * width)))  # fmt: skip
    ends = []
    for i, c in enumerate(cells):
        if c == HOLE:
            continue
        y, x = divmod(i, width)
        for d in range(8):
            nx, ny = x + DX[d], y + DY[d]
            if not (0 <= nx < width and 0 <= ny < height) or cells[ny * width + nx] == HOLE:
                ends.append((x, y, d))
    order = draw(st.permutations(ends)) if ends else []
    count = draw(st.integers(0, len(order) // 2))
    transitions = tuple((*order[2 * n], *order[2 * n + 1]) for n in range(count))
    if ends and draw(st.booleans()):
        transitions += ((*order[-1], *order[-1]),) if len(order) % 2 else ()
    return ReversiMap(
        players,
        draw(st.integers(0, 300)),
        draw(st.integers(0, 300)),
        draw(st.integers(0, 9)),
        height,
        width,
        cells,
        transitions,
    )


def mutated(text: str, data: st.DataObject) -> str:
    for _ in range(data.draw(st.integers(1, 4))):
        pos = data.draw(st.integers(0, len(text)))
        kind = data.draw(st.sampled_from(["insert", "delete", "replace"]))
        char = data.draw(st.sampled_from(list("0123456789cibx-<> \n\t\r")))
        if kind == "insert":
            text = text[:pos] + char + text[pos:]
        elif kind == "delete":
            text = text[:pos] + text[pos + 1 :]
        else:
            text = text[:pos] + char + text[pos + 1 :]
    return text


def check_parse(text: str) -> None:
    """Either a map that writes back to an equal map, or one MapFormatError line with a place."""
    try:
        m = parse_map(text, "f.map")
    except MapFormatError as e:
        assert str(e).startswith("f.map:") and "\n" not in str(e)
        return
    assert parse_map(write_map(m)) == m


def fuzz_soup(text: str) -> None:
    check_parse(text)


def fuzz_round_trip(m: ReversiMap) -> None:
    text = write_map(m)
    assert parse_map(text) == m
    assert write_map(parse_map(text)) == text


def fuzz_mutation(m: ReversiMap, data: st.DataObject) -> None:
    check_parse(mutated(write_map(m), data))


FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=10_000, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(token_soup())
def test_fuzz_token_soup(text: str) -> None:
    fuzz_soup(text)


@FAST
@given(valid_maps())
def test_fuzz_write_parse_round_trip(m: ReversiMap) -> None:
    fuzz_round_trip(m)


@FAST
@given(valid_maps(), st.data())
def test_fuzz_mutated_maps(m: ReversiMap, data: st.DataObject) -> None:
    fuzz_mutation(m, data)


@pytest.mark.slow
@SLOW
@given(token_soup())
def test_fuzz_token_soup_10000(text: str) -> None:
    fuzz_soup(text)


@pytest.mark.slow
@SLOW
@given(valid_maps(), st.data())
def test_fuzz_mutated_maps_10000(m: ReversiMap, data: st.DataObject) -> None:
    fuzz_mutation(m, data)


@pytest.mark.slow
@SLOW
@given(valid_maps())
def test_fuzz_write_parse_round_trip_10000(m: ReversiMap) -> None:
    fuzz_round_trip(m)
