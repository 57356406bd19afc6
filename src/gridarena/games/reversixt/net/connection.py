"""One client's connection to the ReversiXT server: frames read one at a time, and at most one kept.

A reader task reads the client's frames as they come. While the server waits for this client's
answer (after a move request) the next frame is that answer. Any other frame (one sent unasked, of
the wrong type or length, truncated, or cut off by a closed connection) breaks the connection at once:
reading stops there, the reason is kept in :attr:`Connection.broken`, and the connection's owner is
told (:attr:`Connection.on_break`). So a client never holds more than :data:`INBOX_FRAMES` frame in
the server, no payload longer than :data:`~gridarena.games.reversixt.net.protocol.MAX_CLIENT_PAYLOAD`
bytes is read (the header's type and length are checked first), and asyncio stops reading its socket
once :data:`READ_LIMIT` bytes wait unread: a client that keeps sending fills only its own buffers.

Writing is split from waiting: :meth:`Connection.write` puts a frame in the send buffer at once (so
frames go out in the order the server decides on them), :meth:`Connection.drain` waits until the
client has taken them, at most :data:`SEND_TIMEOUT` seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from gridarena.games.reversixt.net.protocol import (
    FROM_CLIENT,
    ConnectionClosedError,
    Message,
    MoveAnswer,
    ProtocolError,
    encode,
    message_type,
    read_message,
)

#: Frames a connection keeps for the server: the answer to the pending request, nothing else.
INBOX_FRAMES: Final = 1

#: Bytes asyncio buffers from one client before it stops reading the socket (its ``limit``; reading
#: pauses at twice this). Client frames have at most 5 header and 5 payload bytes.
READ_LIMIT: Final = 4096

#: Seconds a send may wait for a client that does not read (its socket buffers are full).
SEND_TIMEOUT: Final = 30.0

#: Seconds a frame that has begun may take to end: a truncated frame breaks the connection after it.
FRAME_TIMEOUT: Final = 10.0

#: Result-file status words (gridarena's: the reference server's are not known), in the order of the
#: disqualification reasons: late, invalid move, bad message, broken connection.
STATUSES: Final = ("ok", "timeout", "invalid-move", "protocol-error", "disconnected")

#: The core API's termination for each disqualification status, and back.
TERMINATION: Final = {
    "timeout": "timeout",
    "invalid-move": "illegal",
    "protocol-error": "protocol",
    "disconnected": "crash",
}
STATUS: Final = {termination: status for status, termination in TERMINATION.items()}


@dataclass(frozen=True, slots=True)
class Broken:
    """Why a connection is out of the game: a result-file status word and a sentence."""

    status: str
    detail: str

    @property
    def termination(self) -> str:
        """The core API's termination for :attr:`status`."""
        return TERMINATION[self.status]


class Connection:
    """A client after its group number: its streams, the pending answer and, once broken, why."""

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        group: int,
        *,
        frame_timeout: float = FRAME_TIMEOUT,
    ) -> None:
        self.reader, self.writer, self.group = reader, writer, group
        self.frame_timeout = frame_timeout
        self.player = 0  # 1..p once seated in a game
        self.broken: Broken | None = None
        self.on_break: Callable[[Connection], None] | None = None
        self._answer: asyncio.Future[MoveAnswer | Broken] | None = None
        self._task: asyncio.Task[None] | None = None

    @property
    def peer(self) -> str:
        """The client's address, for the log."""
        peer = self.writer.get_extra_info("peername")
        return f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer)

    def start_reading(self) -> None:
        """Start the reader task (once, right after the group number)."""
        self._task = asyncio.create_task(self._read_loop(), name=f"reversixt-reader-{self.group}")

    async def _read_loop(self) -> None:
        while self.broken is None:
            try:
                message = await read_message(
                    self.reader, accept=FROM_CLIENT, frame_timeout=self.frame_timeout
                )
            except ConnectionClosedError as exc:
                self.fail("disconnected", str(exc))
                return
            except ProtocolError as exc:
                self.fail("protocol-error", str(exc))
                return
            except OSError as exc:
                self.fail("disconnected", f"connection broke: {exc}")
                return
            self._take(message)

    def _take(self, message: Message) -> None:
        answer, self._answer = self._answer, None
        kind = int(message_type(message))
        if answer is None or answer.done():
            self.fail("protocol-error", f"message type {kind} sent unasked")
        elif not isinstance(message, MoveAnswer):
            self._answer = answer  # the failure below is this request's answer
            self.fail("protocol-error", f"expected a move answer (type 5), got type {kind}")
        else:
            answer.set_result(message)

    def fail(self, status: str, detail: str) -> None:
        """The connection is out (the first reason counts): the pending request gets it, else the owner."""
        if self.broken is not None:
            return
        self.broken = Broken(status, detail)
        answer, self._answer = self._answer, None
        if answer is not None and not answer.done():
            answer.set_result(self.broken)
        elif self.on_break is not None:
            self.on_break(self)

    @property
    def writable(self) -> bool:
        """Whether frames can still be written (the socket is not closing)."""
        return not self.writer.transport.is_closing()

    def write(self, *messages: Message) -> None:
        """Put frames in the send buffer now (a closed connection takes nothing)."""
        if self.writable:
            self.writer.write(b"".join(encode(m) for m in messages))

    async def drain(self) -> None:
        """Wait until the client has taken what was written; a client that cannot be written to is out."""
        if not self.writable:
            return
        try:
            await asyncio.wait_for(self.writer.drain(), SEND_TIMEOUT)
        except TimeoutError:
            self.fail("disconnected", f"the client read nothing for {SEND_TIMEOUT:g} s")
        except OSError as exc:
            self.fail("disconnected", f"connection broke: {exc}")

    def expect_answer(self) -> None:
        """The next frame is the answer to a request about to be written."""
        self._answer = asyncio.get_running_loop().create_future()
        if self.broken is not None:
            self._answer.set_result(self.broken)

    async def answer(self, timeout: float | None) -> MoveAnswer | Broken | None:
        """The answer after :meth:`expect_answer` (the request written): it, why the connection broke,
        or None when ``timeout`` seconds pass first (a later frame is then one sent unasked)."""
        pending = self._answer
        assert pending is not None, "expect_answer() first"
        try:
            async with asyncio.timeout(timeout):
                await self.drain()
                return await pending
        except TimeoutError:
            return None
        finally:
            if self._answer is pending:
                self._answer = None

    def abort(self, detail: str) -> None:
        """Out at once, without waiting for anything: close the socket (nothing more is written), stop
        reading, fail."""
        self.writer.close()
        if self._task is not None:
            self._task.cancel()
        self.fail("disconnected", detail)

    async def close(self) -> None:
        """Stop reading and close the socket; safe to call twice."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        await close_writer(self.writer)


async def close_writer(writer: asyncio.StreamWriter) -> None:
    """Close a socket and wait until it is closed (a connection reset on the way is no error)."""
    writer.close()
    with contextlib.suppress(OSError):
        await writer.wait_closed()
