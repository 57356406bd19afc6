"""Running the application under uvicorn, bound to the loopback interface unless told otherwise, with
limits on what a connection may hold.

The viewer has no login and its play page runs bots on request, so it listens on 127.0.0.1 by
default; :func:`serve` refuses any other address unless the caller says it was asked for
explicitly (``gridarena serve --host ADDRESS``).

uvicorn bounds the concurrency (:data:`LIMIT_CONCURRENCY`), the wait for the next request on a kept
connection (:data:`KEEP_ALIVE`) and the size of a request's head (:data:`MAX_HEAD_BYTES`), but not
the time a request's head may take to arrive: a client that sends its headers a byte at a time keeps
its socket for ever, and a thousand such clients take every file descriptor. :func:`head_timeout_protocol`
adds that limit to uvicorn's h11 protocol: each connection gets :data:`HEAD_TIMEOUT` seconds for each
request's head, and at most :data:`MAX_PENDING_HEADS` connections may be waiting for one: past that
the oldest that has shown it is slow (it sent part of a head, or nothing for :data:`FRESH` seconds) is
closed, so a flood of slow heads cannot crowd out a client that sends its head at once (even one whose
bytes the server has not read yet), and past twice that the oldest of all.

>>> is_loopback("127.0.0.1"), is_loopback("::1"), is_loopback("localhost"), is_loopback("0.0.0.0")
(True, True, True, False)
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections import OrderedDict
from typing import Any, Final

from gridarena.core.errors import GridArenaError

DEFAULT_HOST: Final = "127.0.0.1"
HEAD_TIMEOUT: Final = 10.0
"""Seconds a request's line and headers may take to arrive, from its first byte (or the connection)."""
MAX_PENDING_HEADS: Final = 128
"""Connections that may be waiting for a request's head at once; past it the oldest is closed."""
FRESH: Final = 1.0
"""Seconds a new connection that has sent nothing yet is spared when room is made for another."""
LIMIT_CONCURRENCY: Final = 512
"""Connections and requests in progress (uvicorn's ``limit_concurrency``); past it a request gets a 503."""
KEEP_ALIVE: Final = 5
"""Seconds an idle kept-alive connection waits for its next request (uvicorn's ``timeout_keep_alive``)."""
BACKLOG: Final = 128
"""Connections the kernel holds for the server to accept, and the most it accepts at a time (uvicorn's
``backlog``; its default of 2,048 let a burst of slow connections take every file descriptor at once,
before any of them could be closed)."""
MAX_HEAD_BYTES: Final = 16 * 1024
"""The largest request line and headers (uvicorn's ``h11_max_incomplete_event_size``); past it a 400."""


def is_loopback(host: str) -> bool:
    """Whether ``host`` names this machine only (127.0.0.0/8, ::1 or ``localhost``)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_host(host: str, *, explicit: bool) -> str:
    """``host`` if it may be bound: a loopback address always, any other only when ``explicit``."""
    if not is_loopback(host) and not explicit:
        raise GridArenaError(
            f"refusing to listen on {host}: the viewer has no login; pass --host {host} to mean it"
        )
    return host


def head_timeout_protocol(timeout: float = HEAD_TIMEOUT, limit: int = MAX_PENDING_HEADS) -> type[Any]:
    """uvicorn's h11 protocol with a deadline for each request's head (passed to uvicorn as ``http=``).

    A subclass, because uvicorn has no such setting and its protocol is where the bytes arrive; each call
    makes a class of its own, whose connections waiting for a head are counted together.
    """
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    waiting: OrderedDict[Any, asyncio.TimerHandle] = OrderedDict()

    class HeadTimeoutProtocol(H11Protocol):
        since = 0.0
        heard = False  # part of a head arrived: a connection that has had its chance

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._await_head()

        def data_received(self, data: bytes) -> None:
            if self not in waiting and self.conn.their_state is h11.IDLE:
                self._await_head()  # the first bytes of the next request on a kept-alive connection
            super().data_received(data)
            if self.conn.their_state is not h11.IDLE:  # the head is in (or the connection failed)
                self._head_done()
            else:
                self.heard = True

        def connection_lost(self, exc: Exception | None) -> None:
            self._head_done()
            super().connection_lost(exc)

        def _await_head(self) -> None:
            self.since, self.heard = self.loop.time(), False
            waiting[self] = self.loop.call_later(timeout, self._too_slow)
            now = self.loop.time()
            while len(waiting) > limit:
                slow = (p for p in waiting if p.heard or now - p.since > FRESH)
                victim = next(slow, None)
                if victim is None:
                    if len(waiting) <= 2 * limit:
                        return
                    victim = next(iter(waiting))
                waiting.pop(victim).cancel()
                victim.transport.close()

        def _head_done(self) -> None:
            timer = waiting.pop(self, None)
            if timer is not None:
                timer.cancel()

        def _too_slow(self) -> None:
            waiting.pop(self, None)
            self.transport.close()

    return HeadTimeoutProtocol


def serve(app: Any, host: str, port: int, *, explicit: bool = False) -> None:
    """Run ``app`` until interrupted (open event streams get one second to close on shutdown)."""
    import uvicorn

    check_host(host, explicit=explicit)
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="warning",
        timeout_graceful_shutdown=1,
        http=head_timeout_protocol(),
        limit_concurrency=LIMIT_CONCURRENCY,
        timeout_keep_alive=KEEP_ALIVE,
        h11_max_incomplete_event_size=MAX_HEAD_BYTES,
        backlog=BACKLOG,
    )
