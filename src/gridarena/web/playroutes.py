"""The play page's routes: start a game, move, ask a hint, resign, and read a game's status.

What a request may choose: a game the play page offers (``playable()``), its options through the
request-safe constructor (``make_for_request``), a bot of ``offered_bots(game)`` for the other seat
(checked by building it in a worker with ``make_bot_for_request``), a seat, and the bot's seconds per
move (above 0, at most :data:`MAX_SECONDS`). Starting answers at once with the game's id and its
token (also set as a cookie for the page); moving, hinting and resigning need the token. A request that
needs a worker when every worker is busy is a 503 with ``Retry-After``. No handler holds a thread while
a bot thinks: each awaits the game's change (:meth:`~gridarena.web.play.PlaySession.settle`) or the
worker's answer (:meth:`~gridarena.web.workers.Lease.ask_async`).
"""

from __future__ import annotations

import html
import json
import secrets
import urllib.parse
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from gridarena.core.errors import GridArenaError
from gridarena.core.registry import make_for_request, offered_bots, playable
from gridarena.core.specs import parse_spec
from gridarena.core.types import Game
from gridarena.web.pages import page
from gridarena.web.play import HINT_SECONDS, PlayError, PlaySession, hint_bot
from gridarena.web.workers import KILL_GRACE, Lease, WorkerError

if TYPE_CHECKING:
    from gridarena.web.app import Settings

MAX_FORM_FIELDS: Final = 20
"""The most fields a play form or a play request may have."""
MAX_SPEC_CHARS: Final = 4096
"""The longest game spec or bot spec a request may give (a 16x16 puzzle's goal and start fit)."""
MAX_SECONDS: Final = 60.0
"""The most seconds per move a request may give the bot."""
CHECK_SECONDS: Final = 10.0
"""Seconds a worker has to build a requested bot (it only builds it)."""
MAX_WAIT: Final = 30.0
"""The longest a status request may wait for a change (``?wait=``)."""
RETRY_AFTER: Final = "2"
TOKEN_HEADER: Final = "x-gridarena-token"
COOKIE_SECONDS: Final = 86_400
BUSY: Final = "every worker process is busy with other games; try again in a few seconds"


def _settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def _play_form(error: str = "") -> str:
    entries = playable()
    games = "".join(f'<option value="{g}">{g}</option>' for g in entries)
    opponents = "".join(
        f'<optgroup label="{g}">'
        + "".join(
            f'<option value="{b}"{" selected" if b == entry.opponent else ""}>{b}</option>'
            for b in offered_bots(g)
        )
        + "</optgroup>"
        for g, entry in entries.items()
        if entry.opponent is not None
    )
    how = " ".join(f"{html.escape(g)}: {html.escape(e.how)}." for g, e in entries.items())
    example = html.escape(next(iter(entries.values())).spec)
    return (
        "<h1>Play</h1>"
        + (f'<p class="error">{html.escape(error)}</p>' if error else "")
        + '<form class="play" id="play-form" method="post" action="/play">'
        f'<label for="game">game</label><select name="game" id="game">{games}</select>'
        f'<label for="spec">options</label><input name="spec" id="spec" placeholder="{example}">'
        f'<label for="opponent">opponent</label><select name="opponent" id="opponent">{opponents}</select>'
        '<label for="seat">your seat</label><select name="seat" id="seat"><option value="0">first</option>'
        '<option value="1">second</option></select>'
        '<label for="seconds">bot seconds per move</label><input name="seconds" id="seconds" value="1">'
        '<span></span><button type="submit" id="start">start</button></form>'
        f'<p class="muted">{how} Every game is stored as a replay.</p>'
    )


@dataclass(frozen=True, slots=True)
class PlayRequest:
    """A play request, checked: the game (built), its spec, the opponent's spec, the person's seat, the bot's seconds."""

    game: Game[Any]
    spec: str
    opponent: str | None
    seat: int
    seconds: float


def _number(form: dict[str, str], key: str, default: str, kind: type[int] | type[float]) -> Any:
    text = form.get(key, default).strip() or default
    if len(text) > 32:  # checked before it is converted: int() of 5,000 digits is slow, of 4,301 refused
        raise PlayError(f"{key} must be a short number, got {len(text)} characters")
    try:
        return kind(text)
    except ValueError:
        raise PlayError("seat and seconds must be numbers") from None


def prepare(form: dict[str, str]) -> PlayRequest:
    """Check a play request and build its game (the bot is checked in a worker, by :func:`start`)."""
    game_name = form.get("game", "")
    entry = playable().get(game_name)
    if entry is None:
        raise PlayError(f"the browser plays {', '.join(playable())}, not {game_name[:40]!r}")
    spec = form.get("spec", "").strip() or entry.spec
    opponent = (form.get("opponent") or entry.opponent or "").strip() or None
    for what, text in (("options", spec), ("opponent", opponent or "")):
        if len(text) > MAX_SPEC_CHARS:
            raise PlayError(f"{what} are {len(text)} characters long; a request may give {MAX_SPEC_CHARS}")
    try:
        if parse_spec(spec)[0] != game_name:  # before the game is made: its parameters are another game's
            raise PlayError(f"options {spec!r} are not a {game_name} spec")
        game = make_for_request(spec)
    except (RecursionError, MemoryError, ValueError, TypeError) as exc:
        if isinstance(exc, GridArenaError):
            raise
        raise PlayError(f"options {spec[:80]!r} cannot be read ({type(exc).__name__})") from None
    seat = _number(form, "seat", "0", int) if game.num_players > 1 else 0
    seconds = _number(form, "seconds", "1", float)
    if not 0 < seconds <= MAX_SECONDS:
        raise PlayError(f"the bot's seconds per move must be above 0 and at most {MAX_SECONDS:g}")
    return PlayRequest(game, spec, opponent if game.num_players > 1 else None, seat, seconds)


def _reserve(request: Request) -> Lease:
    lease = _settings(request).pool.reserve()
    if lease is None:
        raise HTTPException(503, BUSY, headers={"retry-after": RETRY_AFTER})
    return lease


async def start(request: Request, form: dict[str, str]) -> PlaySession:
    """Start the game ``form`` asks for: its bot is built once in a worker, to refuse a bad spec now."""
    settings = _settings(request)
    asked = await run_in_threadpool(prepare, form)
    lease = None
    if asked.opponent is not None:
        lease = _reserve(request)
        job = {"op": "check", "game": asked.spec, "bot": asked.opponent, "cpu": CHECK_SECONDS}
        try:
            answer = await lease.ask_async(job, CHECK_SECONDS)
        except BaseException:
            lease.release()
            raise
        if "error" in answer:
            lease.release()
            raise PlayError(f"opponent {asked.opponent[:80]!r}: {answer['error']}")
    try:
        session = await run_in_threadpool(
            PlaySession.start,
            asked.game,
            asked.spec,
            asked.opponent,
            asked.seat,
            settings.replays / "web",
            settings.pool,
            seconds=asked.seconds,
            lease=lease,
        )
    except BaseException:
        if lease is not None:
            lease.release()
        raise
    settings.sessions.add(session)
    return session


def _cookie(session: PlaySession) -> str:
    return f"gridarena-play-{session.id}"


def _keep_token(response: Response, session: PlaySession) -> Response:
    """The page's copy of the token: a cookie sent back only to this game's routes."""
    response.set_cookie(
        _cookie(session),
        session.token,
        max_age=COOKIE_SECONDS,
        path=f"/api/play/{session.id}",
        httponly=True,
        samesite="strict",
    )
    return response


async def play_form(request: Request) -> HTMLResponse:
    return HTMLResponse(page("play", _play_form()))


async def play_start(request: Request) -> Response:
    # An url-encoded form read with the standard library (Starlette's form parser needs python-multipart).
    text = (await request.body()).decode("utf-8", "replace")
    try:
        fields = urllib.parse.parse_qs(text, max_num_fields=MAX_FORM_FIELDS)
    except ValueError:
        return HTMLResponse(page("play", _play_form(f"at most {MAX_FORM_FIELDS} fields")), status_code=400)
    try:
        session = await start(request, {k: v[-1] for k, v in fields.items()})
    except GridArenaError as exc:
        return HTMLResponse(page("play", _play_form(str(exc))), status_code=400)
    except HTTPException as exc:
        if exc.status_code != 503:
            raise
        response = HTMLResponse(page("play", _play_form(BUSY)), status_code=503)
        response.headers["retry-after"] = RETRY_AFTER
        return response
    return _keep_token(Response(status_code=303, headers={"location": f"/play/{session.id}"}), session)


def _session(request: Request) -> PlaySession:
    session = _settings(request).sessions.get(request.path_params["sid"])
    if session is None:
        raise HTTPException(404, "no such game (the server may have restarted)")
    return session


def _yours(request: Request, session: PlaySession) -> bool:
    given = request.headers.get(TOKEN_HEADER) or request.cookies.get(_cookie(session)) or ""
    return secrets.compare_digest(given.encode("utf-8", "replace"), session.token.encode())


def _owned(request: Request) -> PlaySession:
    """The game of the path, if the request carries its token (403 otherwise: the id alone is no token)."""
    session = _session(request)
    if not _yours(request, session):
        raise HTTPException(
            403, f"this game belongs to whoever started it: send its token (cookie or {TOKEN_HEADER} header)"
        )
    return session


async def play_page(request: Request) -> HTMLResponse:
    session = _session(request)
    body = f'<div id="play" data-id="{session.id}"><p class="muted">loading…</p></div>'
    return HTMLResponse(page(f"play {session.game.name}", body, scripts=("play.js",)))


async def _body(request: Request) -> dict[str, Any]:
    """The body as a JSON object of at most :data:`MAX_FORM_FIELDS` fields whose values are text or numbers."""
    try:
        data = json.loads(await request.body())
    except (ValueError, RecursionError):  # RecursionError: nested deeper than the JSON reader goes
        raise HTTPException(400, "the body must be a JSON object") from None
    if not isinstance(data, dict) or len(data) > MAX_FORM_FIELDS:
        raise HTTPException(400, f"the body must be a JSON object of at most {MAX_FORM_FIELDS} fields")
    for key, value in data.items():
        if not isinstance(value, str | int | float) or isinstance(value, bool):
            raise HTTPException(400, f"field {key[:40]!r} must be text or a number")
    return data


def _query_number(request: Request, key: str, limit: float) -> float:
    text = request.query_params.get(key, "0")
    try:
        value = float(text) if len(text) <= 16 else -1.0
    except ValueError:
        value = -1.0
    if not 0 <= value <= limit:
        raise HTTPException(400, f"{key} must be a number from 0 to {limit:g}")
    return value


async def api_play_start(request: Request) -> Response:
    """Start a game; the answer comes once the person is to move (the bot may move first), or at once
    with ``"wait": 0`` (the status then says whose turn it is; ``GET /api/play/ID?wait=S`` follows it)."""
    form = {k: str(v) for k, v in (await _body(request)).items()}
    wait = form.pop("wait", "")
    session = await start(request, form)
    if wait.strip() not in ("0", "0.0"):
        await session.settle(session.seconds + KILL_GRACE + 5.0)
    status = {"url": f"/play/{session.id}", "token": session.token, **session.status(yours=True)}
    return _keep_token(JSONResponse(status), session)


async def api_play_status(request: Request) -> JSONResponse:
    """The game's status; ``?since=N`` sends the turns from ply N on, ``?wait=S`` first awaits a change
    (a ply, the person's turn, the end) for up to S seconds."""
    session = _session(request)
    since = int(_query_number(request, "since", 10**7))
    wait = _query_number(request, "wait", MAX_WAIT)
    yours = _yours(request, session)
    if wait:  # a watcher waits for a ply or the end; the owner also for its turn
        await session.settle(
            wait, lambda: len(session.turns) > since or session.over or (yours and session.your_turn)
        )
    return JSONResponse(await run_in_threadpool(session.status, since, yours=yours))


async def api_play_move(request: Request) -> JSONResponse:
    session = _owned(request)
    body = await _body(request)
    action = body.get("action")
    if not isinstance(action, str) or len(action) > MAX_SPEC_CHARS:
        raise HTTPException(400, 'the body must be {"action": "<the action as text>"}')
    lease = _reserve(request) if await run_in_threadpool(session.needs_worker, action) else None
    try:
        plies = session.post(action, lease)
    except BaseException:
        if lease is not None:
            lease.release()
        raise
    since = body.get("since", plies)
    since = since if isinstance(since, int) and 0 <= since <= plies else plies
    await session.settle(session.seconds + KILL_GRACE + 5.0)
    return JSONResponse(await run_in_threadpool(session.status, since, yours=True))


async def api_play_hint(request: Request) -> JSONResponse:
    session = _owned(request)
    spec = hint_bot(session.game.name)
    if spec is None:
        raise HTTPException(404, f"no hints for {session.game.name}")
    job = session.hint_job(spec)
    lease = _reserve(request)
    try:
        if not session.begin(lease):
            raise PlayError("the game is over")
        answer = await lease.ask_async(job, HINT_SECONDS + KILL_GRACE)
    except WorkerError as exc:
        if session.over or session.resigned:
            raise HTTPException(409, "the game ended while the hint was being worked out") from None
        # The hint's worker was stopped (past its time or memory) or died: no hint this time, never a 500.
        raise HTTPException(503, f"no hint this time: {exc}", headers={"retry-after": "2"}) from None
    finally:
        session.end(lease)
        lease.release()
    if "error" in answer:
        raise HTTPException(400, f"no hint here: {answer['error']}")
    return JSONResponse({"action": answer["action"], "info": answer.get("info") or {}, "by": spec})


async def api_play_resign(request: Request) -> JSONResponse:
    session = _owned(request)
    session.resign()
    await session.settle(5.0, lambda: session.over)
    return JSONResponse(await run_in_threadpool(session.status, len(session.turns), yours=True))


def routes() -> list[Route]:
    """The play page's routes, for the application's table."""
    return [
        Route("/play", play_form, methods=["GET"]),
        Route("/play", play_start, methods=["POST"]),
        Route("/play/{sid}", play_page),
        Route("/api/play", api_play_start, methods=["POST"]),
        Route("/api/play/{sid}", api_play_status),
        Route("/api/play/{sid}/move", api_play_move, methods=["POST"]),
        Route("/api/play/{sid}/hint", api_play_hint, methods=["POST"]),
        Route("/api/play/{sid}/resign", api_play_resign, methods=["POST"]),
    ]
