"""The referee's command parser: Java split and trim, the regexes of both versions, and the
split between pieces that are ignored and lines that lose; fuzzed with Hypothesis."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gridarena.core.errors import ActionParseError
from gridarena.games.iceandfire.formats import (
    Build,
    Ignored,
    Move,
    Msg,
    Train,
    TurnInput,
    Wait,
    check_turn,
    java_split,
    java_trim,
    parse_line,
    parse_spots,
    spots_text,
    turn_to_text,
)


@pytest.mark.parametrize(
    ("line", "pieces"),
    [("A;B;", ["A", "B"]), ("A;B;;", ["A", "B"]), (";", []), ("", [""]), ("A;;B", ["A", "", "B"]),
     ("A; ;", ["A", " "]), (";A", ["", "A"]), (";;;", []), ("A", ["A"])],
)  # fmt: skip
def test_java_split_table(line: str, pieces: list[str]) -> None:
    assert java_split(line) == pieces


def test_java_trim_is_not_str_strip() -> None:
    assert java_trim("\x01\x1f WAIT \x00") == "WAIT"
    assert java_trim("\u00a0WAIT\u2003") == "\u00a0WAIT\u2003"  # Unicode spaces stay
    assert "\x01WAIT".strip() != "WAIT"  # Python's strip keeps U+0001: hence the dedicated trim


@pytest.mark.parametrize(
    ("line", "turn"),
    [
        ("WAIT;MOVE 1 2 3;", (Wait(), Move(1, 2, 3))),
        (";", ()),
        ("WAIT;;", (Wait(),)),
        ("MOVE 1 2 3; TRAIN 3 3 3; BUILD MINE 0 1; MSG Team Fire",
         (Move(1, 2, 3), Train(3, 3, 3), Build("MINE", 0, 1), Msg("Team Fire"))),
        ("  TRAIN 1 0 1\t", (Train(1, 0, 1),)),
        ("MOVE 007 0 0", (Move(7, 0, 0),)),
        ("MSG a;MSG b", (Msg("a"), Msg("b"))),
        ("MSG \x01x", (Msg("\x01x"),)),
    ],
)  # fmt: skip
def test_played_lines(line: str, turn: tuple) -> None:
    assert parse_line(line) == turn
    assert parse_line(line, "multi") == turn


@pytest.mark.parametrize(
    "line",
    ["", "WAIT;;WAIT", "WAIT; ;", ";WAIT", "wait", "MOVE -1 2 3",
     "MOVE 1 2", "MOVE 1 2 3 4", "WAIT 1", "BUILD MILL 1 1", "MOVE  1 2 3", "MSG", "MSG ", "MOVE 1 2 ３",
     "TRAIN 1 1 1;HELLO", "MSG a\u2028b", "MSG a\rb", "BUILD  TOWER 1 1", "Move 1 2 3"],
)  # fmt: skip
def test_losing_lines_in_both_versions(line: str) -> None:
    for rules in ("contest", "multi"):
        with pytest.raises(ActionParseError, match="unrecognised command"):
            parse_line(line, rules)


def test_an_unrecognised_piece_loses_even_after_good_ones() -> None:
    with pytest.raises(ActionParseError, match=r"'BOOM' \(piece 3 of the line\)"):
        parse_line("TRAIN 1 1 0;MOVE 1 2 3;BOOM")


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("TRAIN  1 1", "level is empty"),
        ("MOVE 1  2", "x is empty"),
        ("MOVE 1 2 2147483648", "y 2147483648 is not a Java int"),
        ("BUILD MINE  3", "x is empty"),
        ("BUILD TOWER 1 99999999999", "y 99999999999 is not a Java int"),
    ],
)
def test_contest_ignores_empty_and_overflowing_numbers_multi_loses(line: str, reason: str) -> None:
    assert parse_line(f"WAIT;{line};WAIT") == (Wait(), Ignored(line, reason), Wait())
    with pytest.raises(ActionParseError):
        parse_line(line, "multi")


def test_java_int_limit_itself_is_a_number() -> None:
    assert parse_line("MOVE 2147483647 0 0") == (Move(2**31 - 1, 0, 0),)
    assert parse_line("MOVE 2147483647 0 0", "multi") == (Move(2**31 - 1, 0, 0),)


def test_commands_compare_by_kind() -> None:
    assert Move(1, 2, 3) != Train(1, 2, 3)
    assert Wait() != ()
    assert len({Move(1, 2, 3), Train(1, 2, 3), Wait()}) == 3


def test_check_turn_loses_where_the_text_would() -> None:
    assert check_turn([Wait(), Msg("hi")]) == (Wait(), Msg("hi"))
    for bad in [(Train(1, -1, 0),), (Build("HOUSE", 1, 1),), (Msg("a;b"),), (Msg(" "),), ("WAIT",), 5]:
        with pytest.raises(ActionParseError):
            check_turn(bad)
    assert check_turn((Move(1, 2**40, 0),)) == (Move(1, 2**40, 0),)  # contest: the referee skips it
    with pytest.raises(ActionParseError):
        check_turn((Move(1, 2**40, 0),), "multi")
    with pytest.raises(ActionParseError):
        check_turn((Ignored("TRAIN  1 1", "level is empty"),), "multi")


# -- fuzzing ------------------------------------------------------------------------------------

WORDS = [
    "WAIT",
    "MSG",
    "MOVE",
    "TRAIN",
    "BUILD",
    "MINE",
    "TOWER",
    "0",
    "1",
    "12",
    "007",
    "2147483648",
    "-1",
    "",
]
PIECE_CHARS = st.sampled_from([" ", ";", "\t", "\x00", "\x01", "\n", "\u2028", "\u00a0", "a", "W", "9"])


@st.composite
def lines(draw: st.DrawFn) -> str:
    """Lines near the grammar (words, numbers, separators, odd spaces) and anything at all."""
    if draw(st.booleans()):
        return draw(st.text(max_size=40))
    tokens = draw(st.lists(st.one_of(st.sampled_from(WORDS), PIECE_CHARS), max_size=14))
    return "".join(tokens) if draw(st.booleans()) else " ".join(tokens)


def parse_never_crashes(line: str) -> None:
    for rules in ("contest", "multi"):
        try:
            turn = parse_line(line, rules)
        except ActionParseError:
            continue
        text = turn_to_text(turn)
        assert parse_line(text, rules) == turn, (line, text)
        assert check_turn(turn, rules) == turn


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines())
def test_fuzz_the_parser(line: str) -> None:
    parse_never_crashes(line)


@pytest.mark.slow
@settings(max_examples=12_000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines())
def test_fuzz_the_parser_long(line: str) -> None:
    parse_never_crashes(line)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.builds(Move, st.integers(0, 2**31 - 1), st.integers(0, 20), st.integers(0, 20)),
            st.builds(Train, st.integers(0, 5), st.integers(0, 20), st.integers(0, 20)),
            st.builds(Build, st.sampled_from(["MINE", "TOWER"]), st.integers(0, 20), st.integers(0, 20)),
            st.just(Wait()),
            st.builds(
                Msg,
                st.text(
                    min_size=1,
                    alphabet=st.characters(min_codepoint=33, max_codepoint=0x7E, exclude_characters=";"),
                ),
            ),
        ),
        max_size=8,
    )
)
def test_turn_text_round_trip(commands: list) -> None:
    turn = tuple(commands)
    assert parse_line(turn_to_text(turn)) == turn
    assert parse_line(turn_to_text(turn), "multi") == turn


# -- the CodinGame input ---------------------------------------------------------------------------

_N = st.integers(0, 2**31 - 1)
_XY = st.integers(0, 11)
TURN_INPUTS = st.builds(
    TurnInput,
    st.integers(-500, 500),
    st.integers(-500, 500),
    st.integers(-500, 500),
    st.integers(-500, 500),
    st.lists(st.text("#.OoXx", min_size=12, max_size=12), min_size=12, max_size=12),
    st.lists(st.tuples(st.integers(0, 1), st.integers(0, 2), _XY, _XY), max_size=8),
    st.lists(st.tuples(st.integers(0, 1), _N, st.integers(1, 3), _XY, _XY), max_size=8),
)


@settings(max_examples=200, deadline=None)
@given(TURN_INPUTS)
def test_turn_input_round_trips_through_its_text(shown: TurnInput) -> None:
    assert TurnInput.parse(shown.to_text().splitlines()) == shown


@given(st.lists(st.tuples(_XY, _XY), max_size=20))
def test_mine_spots_round_trip_through_their_text(spots: list[tuple[int, int]]) -> None:
    assert parse_spots(spots_text(spots).splitlines()) == spots
