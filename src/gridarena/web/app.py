"""The Starlette application behind ``gridarena serve``: pages, a JSON API under ``/api/``, static files.

The results database is opened read-only (SQLite ``mode=ro``) for each request, so a tournament
running in another process keeps writing while the pages read; ``/api/tournaments/{id}/events``
polls it and pushes the report again (server-sent events) whenever a game was stored. Files are
served only from the package's ``static/`` folder and replays only from the replays folder;
anything else is a plain 400 or 404, never a file outside them and never a traceback.
"""

from __future__ import annotations

import asyncio
import html
import json
import os
import urllib.parse
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Final

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from gridarena.arena.replay import read_replay
from gridarena.arena.report import build_report
from gridarena.arena.store import Store, StoreError
from gridarena.core.errors import GridArenaError
from gridarena.core.registry import make_for_request, offered_bots, playable
from gridarena.core.specs import parse_spec
from gridarena.web.analysis import analysed_games, bounded_analysis, stored_analysis
from gridarena.web.frames import ReplayView, header_summary, view_of
from gridarena.web.guard import LOOPBACK_NAMES, Guard
from gridarena.web.live import live_files, live_games
from gridarena.web.pages import page, viewer_page
from gridarena.web.play import PlayError, PlaySession, Sessions, hint_bot
from gridarena.web.words import entrant_html, entrants, game_title, stored_result

REPLAY_SUFFIXES: Final = (".jsonl", ".json", ".json.gz")
MAX_LISTED: Final = 500
MAX_FORM_FIELDS: Final = 20
"""The most fields a play form or a play request may have."""
MAX_ROW_ID: Final = 2**63 - 1
"""SQLite's largest integer: a larger id names no row (a 404, not a 500 from the driver)."""


@dataclass
class Settings:
    """Where the data is: the database (None: no tournaments) and the replays folder."""

    db: Path | None
    replays: Path
    poll: float = 1.0
    sessions: Sessions = field(default_factory=Sessions)

    def store(self) -> Store:
        """The database, read-only; 404 when the server has none."""
        if self.db is None:
            raise HTTPException(404, "no database: start the server with --db FILE")
        return Store(self.db, readonly=True)


# -- replays --------------------------------------------------------------------------------------


@lru_cache(maxsize=32)
def _view(path: str, mtime_ns: int, size: int) -> ReplayView:
    """A replay rebuilt once per file version (the key includes its modification time and size)."""
    return view_of(read_replay(path, warn=lambda _: None))


def view_file(path: Path) -> ReplayView:
    """The view of a replay file, rebuilt only when the file changed."""
    stat = path.stat()
    return _view(str(path), stat.st_mtime_ns, stat.st_size)


def replay_file(settings: Settings, relative: str) -> Path:
    """A replay inside the replays folder: 400 for a path that leaves it, 404 for no such replay."""
    root = settings.replays.resolve()
    if not relative or relative.startswith(("/", "\\")) or "\x00" in relative:
        raise HTTPException(400, "a replay path is relative to the replays folder")
    try:
        target = (root / relative).resolve()
        if root not in target.parents:
            raise HTTPException(400, "the path leaves the replays folder")
        if not target.name.endswith(REPLAY_SUFFIXES) or not target.is_file():
            raise HTTPException(404, f"no replay {relative[:200]!r}")
    except OSError:  # a name the file system refuses (too long, ...) names no replay
        raise HTTPException(404, f"no replay {relative[:200]!r}") from None
    return target


def list_replays(settings: Settings) -> list[dict[str, Any]]:
    """Replay files under the replays folder, newest first (at most :data:`MAX_LISTED`)."""
    root = settings.replays
    if not root.is_dir():
        return []
    found = [p for p in root.rglob("*") if p.is_file() and p.name.endswith(REPLAY_SUFFIXES)]
    found.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    return [
        {
            "path": p.relative_to(root).as_posix(),
            "bytes": p.stat().st_size,
            "modified": int(p.stat().st_mtime),
        }
        for p in found[:MAX_LISTED]
    ]


def game_replay(settings: Settings, tournament: int, block: int, game: int) -> Path:
    """The replay file of a stored game; only paths inside the database's replays folder count."""
    with settings.store() as store:
        store.tournament(tournament)
        stored = store.game_replay_path(tournament, block, game)
        folder = store.replay_dir(tournament).parent.resolve()
    if stored is None:
        raise HTTPException(404, f"tournament {tournament} has no game {block}-{game}")
    if not stored:
        raise HTTPException(404, f"game {block}-{game} of tournament {tournament} kept no replay")
    assert settings.db is not None
    path = (settings.db.parent / stored).resolve()
    if folder not in path.parents or not path.is_file():
        raise HTTPException(404, f"the replay of game {block}-{game} is missing ({stored})")
    return path


# -- tournaments ----------------------------------------------------------------------------------


def tournaments_json(settings: Settings) -> list[dict[str, Any]]:
    """Every tournament, newest first, with its game count."""
    if settings.db is None:
        return []
    with settings.store() as store:
        counts = store.game_counts()
        return [
            {
                "id": t.id,
                "created": t.created,
                "status": t.status,
                "game": t.config.get("game"),
                "game_title": game_title(str(t.config.get("game"))),
                "players": t.config.get("players"),
                "entrants": entrants(str(t.config.get("game")), t.config.get("players") or []),
                "games": counts.get(t.id, 0),
                "seed": str(t.master_seed),
            }
            for t in reversed(store.tournaments())
        ]


def tournament_json(settings: Settings, tournament: int) -> dict[str, Any]:
    """The report (``gridarena results --json``), every stored game with its replay link and the games
    being played (``live``)."""
    with settings.store() as store:
        report = build_report(store, tournament)
        games = store.games(tournament, done_only=False)
        analysed = analysed_games(store, tournament)
        live = live_games(store, tournament, settings.replays)
    rows = [
        {
            "block": g["block"],
            "game": g["game"],
            "round": g["round"],
            "seats": g["seats"],
            "returns": g["returns"],
            "ranks": g["ranks"],
            "termination": g["termination"],
            "forfeit_seat": g["forfeit_seat"],
            "detail": g["detail"],
            "plies": g["plies"],
            "finished": g["finished"],
            "result": stored_result(str(report["game"]), g),
            "url": f"/tournaments/{tournament}/games/{g['block']}/{g['game']}" if g["replay"] else None,
            "analysed": (g["block"], g["game"]) in analysed,
        }
        for g in games
    ]
    return {"report": report, "games": rows, "live": live, "seed_text": str(report["seed"])}


def signature(settings: Settings, tournament: int) -> tuple[Any, ...]:
    """What changes when a game begins, is stored, or the status moves: the live page's trigger."""
    with settings.store() as store:
        status = store.tournament(tournament).status
        games, last = store.progress(tournament)
        playing = live_files(store, tournament) if status == "running" else ()
    return (status, games, last, playing)


# -- handlers -------------------------------------------------------------------------------------


def _settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def _int(request: Request, name: str) -> int:
    value: int = request.path_params[name]
    if value > MAX_ROW_ID:
        raise HTTPException(404, f"no {name} {value}: ids go up to {MAX_ROW_ID}")
    return value


async def _threaded(fn: Callable[..., Any], *args: Any) -> Any:
    try:
        return await run_in_threadpool(fn, *args)
    except StoreError as exc:
        raise HTTPException(404 if "no tournament" in str(exc) else 400, str(exc)) from None


async def index(request: Request) -> HTMLResponse:
    settings = _settings(request)
    rows = await _threaded(tournaments_json, settings)
    body = ["<h1>Tournaments</h1>"]
    if settings.db is None:
        body.append('<p class="muted">No database: start the server with <code>--db FILE</code>.</p>')
    elif not rows:
        body.append('<p class="muted">No tournament in this database yet.</p>')
    else:
        body.append(
            '<table id="tournaments"><tr><th>id</th><th>created</th><th>game</th><th>players</th>'
            "<th>games</th><th>status</th><th>seed</th></tr>"
        )
        for t in rows:
            body.append(
                f'<tr><td><a href="/tournaments/{t["id"]}">{t["id"]}</a></td><td>{html.escape(t["created"])}</td>'
                f"<td>{html.escape(t['game_title'])}</td><td>{entrant_html(t['entrants'])}</td>"
                f'<td class="num">{t["games"]}</td><td><span class="badge {html.escape(t["status"])}">'
                f"{html.escape(t['status'])}</span></td><td><code>{t['seed']}</code></td></tr>"
            )
        body.append("</table>")
    body.append(f'<p class="muted">database: {html.escape(str(settings.db or "none"))}</p>')
    return HTMLResponse(page("tournaments", "".join(body)))


async def tournament_page(request: Request) -> HTMLResponse:
    tid = _int(request, "tid")
    await _threaded(signature, _settings(request), tid)  # 404 before the shell for an unknown id
    body = f'<div id="tournament" data-id="{tid}"><p class="muted">loading tournament {tid}…</p></div>'
    return HTMLResponse(page(f"tournament {tid}", body, scripts=("tournament.js",)))


async def game_page(request: Request) -> HTMLResponse:
    tid, block, game = _int(request, "tid"), _int(request, "block"), _int(request, "game")
    path = await _threaded(game_replay, _settings(request), tid, block, game)
    view = await _threaded(view_file, path)
    base = f"/api/tournaments/{tid}/games/{block}/{game}"
    urls = {"frame_url": f"{base}/frames/", "api": base, "analysis_url": f"{base}/analysis"}
    payload = view.payload(kind="tournament", tournament=tid, **urls)
    return HTMLResponse(viewer_page(header_summary(view.replay.header), payload))


async def replays_page(request: Request) -> HTMLResponse:
    settings = _settings(request)
    rows = await _threaded(list_replays, settings)
    body = [f"<h1>Replays</h1><p class='muted'>in {html.escape(str(settings.replays))}</p>"]
    if not rows:
        body.append(
            '<p class="muted">No replay files here yet (games played on the play page land here).</p>'
        )
    else:
        body.append('<table id="replays"><tr><th>file</th><th>bytes</th></tr>')
        for r in rows:
            link = f"/replays/view?path={html.escape(r['path'])}"
            body.append(
                f'<tr><td><a href="{link}">{html.escape(r["path"])}</a></td><td class="num">{r["bytes"]}</td></tr>'
            )
        body.append("</table>")
    return HTMLResponse(page("replays", "".join(body)))


def _file_payload(settings: Settings, relative: str) -> tuple[ReplayView, dict[str, Any]]:
    view = view_file(replay_file(settings, relative))
    query = f"path={relative}"
    payload = view.payload(
        kind="file",
        path=relative,
        frame_url=f"/api/replays/frame?{query}&ply=",
        api=f"/api/replays/view?{query}",
        analysis_url=f"/api/replays/analysis?{query}",
    )
    return view, payload


async def replay_view_page(request: Request) -> HTMLResponse:
    view, payload = await _threaded(_file_payload, _settings(request), request.query_params.get("path", ""))
    return HTMLResponse(viewer_page(header_summary(view.replay.header), payload))


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


async def play_form(request: Request) -> HTMLResponse:
    return HTMLResponse(page("play", _play_form()))


def _start(settings: Settings, form: dict[str, str]) -> PlaySession:
    game_name = form.get("game", "")
    entry = playable().get(game_name)
    if entry is None:
        raise PlayError(f"the browser plays {', '.join(playable())}, not {game_name[:40]!r}")
    spec = form.get("spec", "").strip() or entry.spec
    if parse_spec(spec)[0] != game_name:  # before the game is made: its parameters are another game's
        raise PlayError(f"options {spec!r} are not a {game_name} spec")
    game = make_for_request(spec)
    opponent = form.get("opponent") or entry.opponent if game.num_players > 1 else None
    try:
        seat = int(form.get("seat", "0")) if game.num_players > 1 else 0
        seconds = float(form.get("seconds", "1") or 1)
    except ValueError:
        raise PlayError("seat and seconds must be numbers") from None
    if not 0 < seconds <= 60:
        raise PlayError("the bot's seconds per move must be above 0 and at most 60")
    session = PlaySession.start(game, opponent, seat, settings.replays / "web", seconds=seconds)
    settings.sessions.add(session)
    return session


async def play_start(request: Request) -> Response:
    settings = _settings(request)
    # An url-encoded form read with the standard library (Starlette's form parser needs python-multipart).
    text = (await request.body()).decode("utf-8", "replace")
    try:
        fields = urllib.parse.parse_qs(text, max_num_fields=MAX_FORM_FIELDS)
    except ValueError:
        return HTMLResponse(page("play", _play_form(f"at most {MAX_FORM_FIELDS} fields")), status_code=400)
    form = {k: v[-1] for k, v in fields.items()}
    try:
        session = await run_in_threadpool(_start, settings, form)
    except GridArenaError as exc:
        return HTMLResponse(page("play", _play_form(str(exc))), status_code=400)
    return Response(status_code=303, headers={"location": f"/play/{session.id}"})


def _session(request: Request) -> PlaySession:
    session = _settings(request).sessions.get(request.path_params["sid"])
    if session is None:
        raise HTTPException(404, "no such game (the server may have restarted)")
    return session


async def play_page(request: Request) -> HTMLResponse:
    session = _session(request)
    body = f'<div id="play" data-id="{session.id}"><p class="muted">loading…</p></div>'
    return HTMLResponse(page(f"play {session.game.name}", body, scripts=("play.js",)))


# -- API ------------------------------------------------------------------------------------------


async def api_tournaments(request: Request) -> JSONResponse:
    return JSONResponse(await _threaded(tournaments_json, _settings(request)))


async def api_tournament(request: Request) -> JSONResponse:
    return JSONResponse(await _threaded(tournament_json, _settings(request), _int(request, "tid")))


async def api_events(request: Request) -> StreamingResponse:
    settings, tid = _settings(request), _int(request, "tid")
    await _threaded(signature, settings, tid)

    async def stream() -> AsyncIterator[str]:
        last, quiet = None, 0.0
        while not await request.is_disconnected():
            now = await _threaded(signature, settings, tid)
            if now != last:
                data = await _threaded(tournament_json, settings, tid)
                yield f"event: report\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"
                last, quiet = now, 0.0
            elif quiet >= 15:
                yield ": still here\n\n"
                quiet = 0.0
            await asyncio.sleep(settings.poll)
            quiet += settings.poll

    return StreamingResponse(stream(), media_type="text/event-stream", headers={"cache-control": "no-cache"})


async def api_game(request: Request) -> JSONResponse:
    tid, block, game = _int(request, "tid"), _int(request, "block"), _int(request, "game")
    view = await _threaded(view_file, await _threaded(game_replay, _settings(request), tid, block, game))
    return JSONResponse(view.payload(kind="tournament", tournament=tid))


def _svg(text: str) -> Response:
    return Response(text, media_type="image/svg+xml", headers={"cache-control": "max-age=300"})


def _ply(request: Request, view: ReplayView, raw: str | None) -> int:
    try:
        ply = int(raw if raw is not None else "")
    except ValueError:
        raise HTTPException(400, f"ply must be a whole number, got {raw!r}") from None
    if ply != view.clamp(ply):
        raise HTTPException(404, f"no ply {ply}: the replay has plies 0 to {view.plies}")
    return ply


async def api_game_frame(request: Request) -> Response:
    tid, block, game = _int(request, "tid"), _int(request, "block"), _int(request, "game")
    view = await _threaded(view_file, await _threaded(game_replay, _settings(request), tid, block, game))
    ply = _ply(request, view, request.path_params["ply"])
    return _svg(await run_in_threadpool(view.frame, ply))


async def api_game_analysis(request: Request) -> JSONResponse:
    settings, key = _settings(request), (_int(request, "tid"), _int(request, "block"), _int(request, "game"))
    stored = await _threaded(stored_analysis, settings.store, *key)
    path = None if stored else await _threaded(game_replay, settings, *key)
    return JSONResponse(stored or await _threaded(bounded_analysis, path))


async def api_replay_analysis(request: Request) -> JSONResponse:
    path = await _threaded(replay_file, _settings(request), request.query_params.get("path", ""))
    return JSONResponse(await _threaded(bounded_analysis, path))


async def api_replays(request: Request) -> JSONResponse:
    return JSONResponse(await _threaded(list_replays, _settings(request)))


async def api_replay_view(request: Request) -> JSONResponse:
    _, payload = await _threaded(_file_payload, _settings(request), request.query_params.get("path", ""))
    return JSONResponse(payload)


async def api_replay_frame(request: Request) -> Response:
    path = await _threaded(replay_file, _settings(request), request.query_params.get("path", ""))
    view = await _threaded(view_file, path)
    ply = _ply(request, view, request.query_params.get("ply"))
    return _svg(await run_in_threadpool(view.frame, ply))


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


async def api_play_start(request: Request) -> JSONResponse:
    form = {k: str(v) for k, v in (await _body(request)).items()}
    session = await run_in_threadpool(_start, _settings(request), form)
    return JSONResponse({"id": session.id, "url": f"/play/{session.id}", **session.status()})


async def api_play_status(request: Request) -> JSONResponse:
    session = _session(request)
    return JSONResponse(await run_in_threadpool(session.status))


async def api_play_move(request: Request) -> JSONResponse:
    session = _session(request)
    action = (await _body(request)).get("action")
    if not isinstance(action, str):
        raise HTTPException(400, 'the body must be {"action": "<the action as text>"}')
    return JSONResponse(await run_in_threadpool(session.move, action))


async def api_play_hint(request: Request) -> JSONResponse:
    session = _session(request)
    spec = hint_bot(session.game.name)
    if spec is None:
        raise HTTPException(404, f"no hints for {session.game.name}")
    return JSONResponse(await run_in_threadpool(session.hint, spec))


# -- errors ---------------------------------------------------------------------------------------


def _wants_json(request: Request) -> bool:
    return request.url.path.startswith("/api/")


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    response = _error(request, exc.status_code, str(exc.detail))
    response.headers.update(exc.headers or {})
    return response


async def gridarena_error(request: Request, exc: Exception) -> Response:
    return _error(request, 400, str(exc))


async def server_error(request: Request, exc: Exception) -> Response:
    return _error(request, 500, f"internal error ({type(exc).__name__}); the server log has the details")


def _error(request: Request, status: int, message: str) -> Response:
    message = " ".join(message.splitlines())  # one line, whatever a request made the message echo
    if _wants_json(request):
        return JSONResponse({"error": message, "status": status}, status_code=status)
    body = f'<h1>{status}</h1><p class="error" id="error">{html.escape(message)}</p><p><a href="/">tournaments</a></p>'
    return HTMLResponse(page(f"error {status}", body), status_code=status)


def create_app(
    db: str | os.PathLike[str] | None,
    replays: str | os.PathLike[str],
    *,
    poll: float = 1.0,
    hosts: list[str] | None = None,
) -> Starlette:
    """The application; ``db`` is checked now (a file that is not a gridarena database raises
    :class:`StoreError`), and opened read-only for every request.

    ``hosts`` are the names the ``Host`` header may carry (default: the loopback names, which stops a
    DNS-rebinding page from reading the viewer through a name of its own); ``["*"]`` allows any.
    """
    path = None if db is None else Path(db).absolute()
    if path is not None:
        Store(path, readonly=True).close()
    settings = Settings(path, Path(replays).absolute(), poll)
    static = StaticFiles(packages=[("gridarena.web", "static")])
    routes = [
        Route("/", index),
        Route("/favicon.ico", lambda request: Response(status_code=204)),
        Route("/tournaments/{tid:int}", tournament_page),
        Route("/tournaments/{tid:int}/games/{block:int}/{game:int}", game_page),
        Route("/replays", replays_page),
        Route("/replays/view", replay_view_page),
        Route("/play", play_form, methods=["GET"]),
        Route("/play", play_start, methods=["POST"]),
        Route("/play/{sid}", play_page),
        Route("/api/tournaments", api_tournaments),
        Route("/api/tournaments/{tid:int}", api_tournament),
        Route("/api/tournaments/{tid:int}/events", api_events),
        Route("/api/tournaments/{tid:int}/games/{block:int}/{game:int}", api_game),
        Route("/api/tournaments/{tid:int}/games/{block:int}/{game:int}/frames/{ply}", api_game_frame),
        Route("/api/tournaments/{tid:int}/games/{block:int}/{game:int}/analysis", api_game_analysis),
        Route("/api/replays", api_replays),
        Route("/api/replays/view", api_replay_view),
        Route("/api/replays/frame", api_replay_frame),
        Route("/api/replays/analysis", api_replay_analysis),
        Route("/api/play", api_play_start, methods=["POST"]),
        Route("/api/play/{sid}", api_play_status),
        Route("/api/play/{sid}/move", api_play_move, methods=["POST"]),
        Route("/api/play/{sid}/hint", api_play_hint, methods=["POST"]),
        Mount("/static", app=static, name="static"),
    ]
    handlers: dict[Any, Callable[..., Any]] = {
        HTTPException: http_error,
        GridArenaError: gridarena_error,
        Exception: server_error,
    }
    middleware = [
        Middleware(TrustedHostMiddleware, allowed_hosts=hosts or LOOPBACK_NAMES, www_redirect=False),
        Middleware(Guard),
    ]
    app = Starlette(routes=routes, exception_handlers=handlers, middleware=middleware)
    app.state.settings = settings
    return app
