"""The wire format of the course's protocol: framing and messages in hex, round trips, and the specific errors."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gridarena.games.reversixt.net.protocol import (
    FROM_CLIENT,
    ConnectionClosedError,
    Disqualification,
    EndGame,
    EndPhase1,
    Group,
    LengthError,
    MapData,
    Message,
    MessageType,
    MoveAnnouncement,
    MoveAnswer,
    MoveRequest,
    PlayerNumber,
    UnknownTypeError,
    ValueRangeError,
    decode,
    decode_stream,
    encode,
    message_type,
    read_message,
    split_frame,
)

#: The messages in hex (blanks only separate fields).
SPEC_EXAMPLES = [
    ("01 00000001 05", Group(5)),
    ("03 00000001 02", PlayerNumber(2)),
    ("04 00000005 000007D0 00", MoveRequest(2000, 0)),
    ("05 00000005 0008 0006 00", MoveAnswer(8, 6, 0)),
    ("06 00000006 0008 0006 00 02", MoveAnnouncement(8, 6, 0, 2)),
    ("05 00000005 0002 000C 03", MoveAnswer(2, 12, 3)),
    ("07 00000001 03", Disqualification(3)),
    ("08 00000000", EndPhase1()),
    ("09 00000000", EndGame()),
]


@pytest.mark.parametrize(("hex_text", "message"), SPEC_EXAMPLES, ids=[h for h, _ in SPEC_EXAMPLES])
def test_the_spec_examples_encode_and_decode(hex_text: str, message: Message) -> None:
    frame = bytes.fromhex(hex_text)
    assert encode(message) == frame
    assert decode(*split_frame(frame)) == message


def test_the_map_is_sent_verbatim() -> None:
    text = b"2\n0\n0 0\n1 2\n1 2 \r\n"  # trailing blank and CRLF kept, no final newline added
    assert encode(MapData(text)) == bytes([2, 0, 0, 0, len(text)]) + text
    assert decode(2, text) == MapData(text)


u8, u16, u32 = st.integers(0, 0xFF), st.integers(0, 0xFFFF), st.integers(0, 0xFFFF_FFFF)
MESSAGES = st.one_of(
    st.builds(Group, u8),
    st.builds(MapData, st.binary(max_size=300)),
    st.builds(PlayerNumber, u8),
    st.builds(MoveRequest, u32, u8),
    st.builds(MoveAnswer, u16, u16, u8),
    st.builds(MoveAnnouncement, u16, u16, u8, u8),
    st.builds(Disqualification, u8),
    st.just(EndPhase1()),
    st.just(EndGame()),
)


@given(MESSAGES)
def test_every_message_round_trips(message: Message) -> None:
    frame = encode(message)
    kind, payload = split_frame(frame)
    assert kind == message_type(message)
    assert decode(kind, payload) == message


@given(st.lists(MESSAGES, max_size=8), st.integers(0, 4))
def test_a_stream_decodes_frame_by_frame(messages: list[Message], cut: int) -> None:
    data = b"".join(encode(m) for m in messages)
    tail = encode(Disqualification(1))[:cut]  # an incomplete frame stays in the rest
    decoded, rest = decode_stream(data + tail)
    assert decoded == messages and rest == tail


@given(st.integers(10, 255), st.binary(max_size=8))
def test_an_unknown_type_is_named(kind: int, payload: bytes) -> None:
    with pytest.raises(UnknownTypeError, match=f"unknown message type {kind}"):
        decode(kind, payload)
    with pytest.raises(UnknownTypeError):
        decode(0, payload)


@given(st.sampled_from([t for t in MessageType if t != MessageType.MAP]), st.binary(max_size=12))
def test_a_wrong_length_is_named(kind: MessageType, payload: bytes) -> None:
    expected = {1: 1, 3: 1, 4: 5, 5: 5, 6: 6, 7: 1, 8: 0, 9: 0}[kind]
    if len(payload) == expected:
        return
    with pytest.raises(LengthError, match=f"length {len(payload)}, expected {expected}"):
        decode(kind, payload)


@pytest.mark.parametrize(
    "message",
    [
        Group(256),
        PlayerNumber(-1),
        MoveRequest(2**32, 0),
        MoveAnswer(65536, 0, 0),
        MoveAnnouncement(0, 0, 0, 300),
    ],
)
def test_values_too_wide_for_the_wire_are_refused(message: Message) -> None:
    with pytest.raises(ValueRangeError, match="does not fit an unsigned"):
        encode(message)


def test_split_frame_checks_the_header_against_the_bytes() -> None:
    with pytest.raises(LengthError, match="header says 1 payload bytes, frame has 2"):
        split_frame(bytes.fromhex("01 00000001 0505"))
    with pytest.raises(LengthError, match="at least 5 header bytes"):
        split_frame(b"\x01\x00")


def _read(data: bytes, eof: bool = True, **kwargs: object) -> Message:
    async def go() -> Message:
        reader = asyncio.StreamReader()
        reader.feed_data(data)
        if eof:
            reader.feed_eof()
        return await read_message(reader, **kwargs)  # type: ignore[arg-type]

    return asyncio.run(go())


def test_read_message_reads_one_frame_and_checks_the_types_it_accepts() -> None:
    assert _read(encode(MoveAnswer(1, 2, 20)) + b"junk", accept=FROM_CLIENT) == MoveAnswer(1, 2, 20)
    with pytest.raises(UnknownTypeError, match=r"unexpected message type 6 \(announcement\)"):
        _read(encode(MoveAnnouncement(1, 2, 0, 1)), accept=FROM_CLIENT)


def test_read_message_refuses_a_huge_length_before_reading_it() -> None:
    # No payload follows and no EOF is fed: the error must come from the header alone.
    with pytest.raises(LengthError, match="length 4294967295, expected 5"):
        _read(bytes.fromhex("05 FFFFFFFF"), eof=False)
    with pytest.raises(LengthError, match="more than 100"):
        _read(bytes.fromhex("02 00000065"), eof=False, max_map=100)


def test_read_message_says_where_the_connection_closed() -> None:
    with pytest.raises(ConnectionClosedError, match=r"^connection closed$"):
        _read(b"")
    with pytest.raises(ConnectionClosedError, match="after 2 of 5 header bytes"):
        _read(b"\x05\x00")
    with pytest.raises(ConnectionClosedError, match="after 3 of 5 payload bytes"):
        _read(bytes.fromhex("05 00000005 000100"))
