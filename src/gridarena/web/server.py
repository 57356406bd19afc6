"""Running the application under uvicorn, bound to the loopback interface unless told otherwise.

The viewer has no login and its play page runs bots on request, so it listens on 127.0.0.1 by
default; :func:`serve` refuses any other address unless the caller says it was asked for
explicitly (``gridarena serve --host ADDRESS``).

>>> is_loopback("127.0.0.1"), is_loopback("::1"), is_loopback("localhost"), is_loopback("0.0.0.0")
(True, True, True, False)
"""

from __future__ import annotations

import ipaddress
from typing import Any, Final

from gridarena.core.errors import GridArenaError

DEFAULT_HOST: Final = "127.0.0.1"


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


def serve(app: Any, host: str, port: int, *, explicit: bool = False) -> None:
    """Run ``app`` until interrupted (open event streams get one second to close on shutdown)."""
    import uvicorn

    check_host(host, explicit=explicit)
    uvicorn.run(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=1)
