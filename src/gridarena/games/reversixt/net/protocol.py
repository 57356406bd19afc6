"""ReversiXT's network protocol, as the course's reference server speaks it: framing and the nine messages.

Every message is a frame: type (uint8), payload length (uint32, big-endian), payload. The messages
are small frozen dataclasses; :func:`encode` turns one into its frame and :func:`decode` reads a
type and a payload back, raising a specific :class:`ProtocolError` for an unknown type or a wrong
length. :func:`read_message` reads one frame from an ``asyncio.StreamReader`` and checks the type and
length in the header *before* reading the payload, so a peer that announces four gigabytes is refused
at once instead of being waited for (a server reads at most :data:`MAX_CLIENT_PAYLOAD` payload bytes per
client frame), and it can bound how long a frame that has begun may take to end.

>>> encode(Group(5)).hex(" ")
'01 00 00 00 01 05'
>>> decode(*split_frame(bytes.fromhex("06 00000006 0008 0006 00 02")))
MoveAnnouncement(x=8, y=6, special=0, player=2)
"""

from __future__ import annotations

import asyncio
import struct
from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum
from typing import Final, TypeAlias

from gridarena.core.errors import GridArenaError
from gridarena.core.files import LIMITS

HEADER: Final = struct.Struct(">BI")
"""type (uint8) and payload length (uint32), network byte order."""

#: Largest map payload a client accepts: a 1000 x 1000 map (the reference server's limit) with generous blanks and
#: transitions fits easily; anything larger is a broken or hostile server. The same bound as a map file's.
MAX_MAP_BYTES: Final = LIMITS["map"]


class MessageType(IntEnum):
    """The protocol's message types, numbered as on the wire."""

    GROUP = 1
    MAP = 2
    PLAYER = 3
    MOVE_REQUEST = 4
    MOVE_ANSWER = 5
    ANNOUNCEMENT = 6
    DISQUALIFICATION = 7
    END_PHASE1 = 8
    END_GAME = 9


class ProtocolError(GridArenaError):
    """Bytes that break the protocol: the message says what and which message."""


class UnknownTypeError(ProtocolError):
    """A frame whose type byte is not one of 1..9 (or not one the receiver accepts)."""


class LengthError(ProtocolError):
    """A frame whose payload length does not fit its type."""


class ValueRangeError(ProtocolError, ValueError):
    """A field that does not fit its wire width (encoding), e.g. a player number of 256."""


class ConnectionClosedError(ProtocolError):
    """The peer closed the connection (cleanly between frames, or in the middle of one)."""


class IncompleteFrameError(ProtocolError):
    """A frame that began but did not end in time: the peer stopped in the middle of it."""


@dataclass(frozen=True, slots=True)
class Group:
    """1, client -> server: the client's group number, sent once, first."""

    group: int


@dataclass(frozen=True, slots=True)
class MapData:
    """2, server -> client: the map file's bytes, verbatim, as the reference server sends them."""

    data: bytes


@dataclass(frozen=True, slots=True)
class PlayerNumber:
    """3, server -> client: the client's player number 1..p."""

    player: int


@dataclass(frozen=True, slots=True)
class MoveRequest:
    """4, server -> client: the time account in ms (0 = no limit) and the depth limit (0 = none)."""

    time_ms: int
    depth: int


@dataclass(frozen=True, slots=True)
class MoveAnswer:
    """5, client -> server: the move, x (column), y (row) and the special byte."""

    x: int
    y: int
    special: int


@dataclass(frozen=True, slots=True)
class MoveAnnouncement:
    """6, server -> every client: a move and its author."""

    x: int
    y: int
    special: int
    player: int


@dataclass(frozen=True, slots=True)
class Disqualification:
    """7, server -> clients: ``player`` is disqualified."""

    player: int


@dataclass(frozen=True, slots=True)
class EndPhase1:
    """8, server -> every client: phase 1 is over (END1)."""


@dataclass(frozen=True, slots=True)
class EndGame:
    """9, server -> every client: the game is over (END2)."""


Message: TypeAlias = (
    Group
    | MapData
    | PlayerNumber
    | MoveRequest
    | MoveAnswer
    | MoveAnnouncement
    | Disqualification
    | EndPhase1
    | EndGame
)

#: Message type -> (class, payload layout); ``None`` for the map, whose payload is raw bytes.
_LAYOUT: Final[dict[int, tuple[type, struct.Struct | None]]] = {
    MessageType.GROUP: (Group, struct.Struct(">B")),
    MessageType.MAP: (MapData, None),
    MessageType.PLAYER: (PlayerNumber, struct.Struct(">B")),
    MessageType.MOVE_REQUEST: (MoveRequest, struct.Struct(">IB")),
    MessageType.MOVE_ANSWER: (MoveAnswer, struct.Struct(">HHB")),
    MessageType.ANNOUNCEMENT: (MoveAnnouncement, struct.Struct(">HHBB")),
    MessageType.DISQUALIFICATION: (Disqualification, struct.Struct(">B")),
    MessageType.END_PHASE1: (EndPhase1, struct.Struct(">")),
    MessageType.END_GAME: (EndGame, struct.Struct(">")),
}
_TYPE_OF: Final[dict[type, int]] = {cls: t for t, (cls, _) in _LAYOUT.items()}
_WIDTH_MAX: Final = {"B": 0xFF, "H": 0xFFFF, "I": 0xFFFF_FFFF}


def message_type(message: Message) -> MessageType:
    """The type byte of ``message``.

    >>> message_type(EndGame())
    <MessageType.END_GAME: 9>
    """
    return MessageType(_TYPE_OF[type(message)])


def payload_length(kind: int) -> int | None:
    """The fixed payload length of message type ``kind``, None for the map (any length).

    >>> payload_length(MessageType.MOVE_ANSWER), payload_length(MessageType.MAP)
    (5, None)
    """
    if kind not in _LAYOUT:
        raise UnknownTypeError(f"unknown message type {kind} (expected 1..9)")
    layout = _LAYOUT[kind][1]
    return None if layout is None else layout.size


def _fields(message: Message) -> tuple[int, ...]:
    return tuple(getattr(message, name) for name in message.__slots__)


def encode(message: Message) -> bytes:
    """The frame of ``message``; a field too wide for its wire width raises :class:`ValueRangeError`.

    >>> encode(MoveRequest(2000, 0)).hex(" ")
    '04 00 00 00 05 00 00 07 d0 00'
    """
    kind = _TYPE_OF[type(message)]
    layout = _LAYOUT[kind][1]
    if layout is None:
        payload = bytes(message.data)  # type: ignore[union-attr]
    else:
        values = _fields(message)
        for name, width, value in zip(message.__slots__, layout.format[1:], values, strict=True):
            if not isinstance(value, int) or not 0 <= value <= _WIDTH_MAX[width]:
                raise ValueRangeError(
                    f"{type(message).__name__}.{name} = {value!r} does not fit an unsigned "
                    f"{8 * struct.calcsize(width)}-bit field"
                )
        payload = layout.pack(*values)
    return HEADER.pack(kind, len(payload)) + payload


def split_frame(frame: bytes) -> tuple[int, bytes]:
    """(type, payload) of one complete frame; raises :class:`LengthError` if the bytes disagree."""
    if len(frame) < HEADER.size:
        raise LengthError(f"a frame needs at least {HEADER.size} header bytes, got {len(frame)}")
    kind, length = HEADER.unpack_from(frame)
    if len(frame) - HEADER.size != length:
        raise LengthError(
            f"message type {kind}: header says {length} payload bytes, frame has {len(frame) - HEADER.size}"
        )
    return kind, frame[HEADER.size :]


def check_length(kind: int, length: int, *, max_map: int = MAX_MAP_BYTES) -> None:
    """Raise the specific error for a header whose type is unknown or whose length does not fit it."""
    expected = payload_length(kind)
    name = MessageType(kind).name.lower().replace("_", " ")
    if expected is None:
        if length > max_map:
            raise LengthError(f"message type {kind} ({name}): {length} bytes, more than {max_map}")
    elif length != expected:
        raise LengthError(f"message type {kind} ({name}): length {length}, expected {expected}")


def decode(kind: int, payload: bytes) -> Message:
    """The message of type ``kind`` with ``payload``; specific errors for an unknown type or length.

    >>> decode(7, b"\\x03")
    Disqualification(player=3)
    >>> decode(5, b"\\x00\\x01")
    Traceback (most recent call last):
    ...
    gridarena.games.reversixt.net.protocol.LengthError: message type 5 (move answer): length 2, expected 5
    """
    check_length(kind, len(payload), max_map=max(MAX_MAP_BYTES, len(payload)))
    cls, layout = _LAYOUT[kind]
    if layout is None:
        return MapData(bytes(payload))
    return cls(*layout.unpack(payload))  # type: ignore[no-any-return]


def decode_stream(data: bytes) -> tuple[list[Message], bytes]:
    """Every complete frame at the start of ``data``, and the bytes of an incomplete last one.

    >>> decode_stream(bytes.fromhex("08 00000000 09 00000000 03 0000"))
    ([EndPhase1(), EndGame()], b'\\x03\\x00\\x00')
    """
    messages: list[Message] = []
    pos = 0
    while len(data) - pos >= HEADER.size:
        kind, length = HEADER.unpack_from(data, pos)
        check_length(kind, length)
        end = pos + HEADER.size + length
        if end > len(data):
            break
        messages.append(decode(kind, data[pos + HEADER.size : end]))
        pos = end
    return messages, data[pos:]


async def read_message(
    reader: asyncio.StreamReader,
    *,
    accept: frozenset[int] | None = None,
    max_map: int = MAX_MAP_BYTES,
    frame_timeout: float | None = None,
    frame_rate: float | None = None,
) -> Message:
    """Read one frame; ``accept`` limits the types this side may receive (others: :class:`UnknownTypeError`).

    The header is checked before the payload is read. A peer that closes before the first header
    byte raises :class:`ConnectionClosedError` saying so; one that closes mid-frame says how far it got.
    With ``frame_timeout``, a frame that has begun must be complete within that many seconds, plus,
    with ``frame_rate``, one second per ``frame_rate`` bytes of the payload its header announces
    (:class:`IncompleteFrameError`); the wait for its first byte is not limited.
    """
    try:
        first = await reader.readexactly(1)
    except asyncio.IncompleteReadError:
        raise ConnectionClosedError("connection closed") from None
    allowed = frame_timeout
    try:
        async with asyncio.timeout(frame_timeout) as deadline:

            def announced(length: int) -> None:  # a long payload gets its time once its length is known
                nonlocal allowed
                if frame_timeout is not None and frame_rate is not None:
                    allowed = frame_timeout + length / frame_rate
                    deadline.reschedule(deadline.when() + length / frame_rate)  # type: ignore[operator]

            return await _rest_of_frame(reader, first, accept, max_map, announced)
    except TimeoutError:
        raise IncompleteFrameError(
            f"a frame begun was not complete within {allowed:g} s (a truncated frame)"
        ) from None


async def _rest_of_frame(
    reader: asyncio.StreamReader,
    first: bytes,
    accept: frozenset[int] | None,
    max_map: int,
    announced: Callable[[int], None],
) -> Message:
    try:
        header = first + await reader.readexactly(HEADER.size - 1)
    except asyncio.IncompleteReadError as exc:
        raise ConnectionClosedError(
            f"connection closed after {1 + len(exc.partial)} of {HEADER.size} header bytes"
        ) from None
    kind, length = HEADER.unpack(header)
    if accept is not None and kind not in accept:
        known = f" ({MessageType(kind).name.lower().replace('_', ' ')})" if kind in _LAYOUT else ""
        raise UnknownTypeError(f"unexpected message type {kind}{known}, expected {sorted(map(int, accept))}")
    check_length(kind, length, max_map=max_map)
    announced(length)
    try:
        payload = await reader.readexactly(length)
    except asyncio.IncompleteReadError as exc:
        raise ConnectionClosedError(
            f"connection closed after {len(exc.partial)} of {length} payload bytes of a type-{kind} message"
        ) from None
    return decode(kind, payload)


#: What each side may receive.
FROM_CLIENT: Final = frozenset({MessageType.GROUP, MessageType.MOVE_ANSWER})
FROM_SERVER: Final = frozenset(set(MessageType) - FROM_CLIENT)

#: The largest payload a client may send (a move answer): what a server reads per client frame at most.
MAX_CLIENT_PAYLOAD: Final = max(_LAYOUT[kind][1].size for kind in FROM_CLIENT)  # type: ignore[union-attr]
