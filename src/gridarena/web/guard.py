"""The viewer's guard, an ASGI middleware around every request: the security headers, a 403 for a POST
from another site, and a 413 for a body over :data:`MAX_BODY` (refused from its declared length
before it is read, or cut as a chunked body streams in).

>>> TOO_LARGE
'the request body is larger than 65536 bytes'
"""

from __future__ import annotations

import urllib.parse
from typing import Any, Final

from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse

MAX_BODY: Final = 64 * 1024
"""The largest request body read (bytes); a larger one is a 413, refused before it is read."""

#: Sent with every answer: scripts and styles only from this server, no framing, no type sniffing.
SECURITY_HEADERS: Final = [
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
        b"frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
]
LOOPBACK_NAMES: Final = ["127.0.0.1", "localhost", "::1", "[::1]"]


TOO_LARGE: Final = f"the request body is larger than {MAX_BODY} bytes"


def _declared_length(headers: dict[bytes, bytes]) -> int | None:
    """The body length the request declares (None: not declared, or not a number)."""
    value = headers.get(b"content-length", b"").strip()
    return int(value) if value.isdigit() else None


def limited(receive: Any, limit: int) -> Any:
    """``receive`` that raises a 413 once the body read so far exceeds ``limit`` bytes (a chunked
    body declares no length: it is counted as it streams in, and never held past the limit)."""
    seen = 0

    async def receive_limited() -> Any:
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > limit:
                raise HTTPException(413, TOO_LARGE, headers={"connection": "close"})
        return message

    return receive_limited


class Guard:
    """ASGI middleware: the security headers on every answer, a 403 for a POST from another site
    (a page elsewhere must not start games here through the browser of the person running the
    viewer), and a 413 for a body over :data:`MAX_BODY`, before it is read."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        origin = headers.get(b"origin")
        if scope["method"] == "POST" and origin is not None:
            netloc = urllib.parse.urlsplit(origin.decode("latin-1")).netloc
            if netloc != headers.get(b"host", b"").decode("latin-1"):
                await self._refuse(scope, receive, send, 403, "a request from another site")
                return

        async def send_with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        length = _declared_length(headers)
        if length is not None and length > MAX_BODY:
            await self._refuse(scope, receive, send_with_headers, 413, TOO_LARGE)
            return
        await self.app(scope, limited(receive, MAX_BODY), send_with_headers)

    @staticmethod
    async def _refuse(scope: Any, receive: Any, send: Any, status: int, message: str) -> None:
        response = JSONResponse({"error": message, "status": status}, status_code=status)
        response.headers["connection"] = "close"  # the unread body must not be taken for the next request
        await response(scope, receive, send)
