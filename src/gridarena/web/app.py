"""The Starlette application behind ``gridarena serve``: pages, a JSON API under ``/api/``, static files.

The results database is opened read-only (SQLite ``mode=ro``) for each request, so a tournament
running in another process keeps writing while the pages read; ``/api/tournaments/{id}/events``
polls it and pushes the report again (server-sent events) whenever a game was stored. Files are
served only from the package's ``static/`` folder and replays only from the replays folder, whose
headers are rebuilt as a request would name their game (:func:`~gridarena.web.frames.request_game`);
anything else is a plain 400 or 404, never a file outside them and never a traceback. The play
page's routes (:mod:`gridarena.web.playroutes`) run bots in the worker pool
(:mod:`gridarena.web.workers`) that the application starts and stops with itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import os
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import anyio
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.convertors import Convertor, register_url_convertor
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
from gridarena.web import playroutes
from gridarena.web.analysis import analysed_games, bounded_analysis, stored_analysis
from gridarena.web.frames import (
    HeaderRefused,
    ReplayView,
    ViewCache,
    finite_replay,
    header_summary,
    request_game,
    view_of,
)
from gridarena.web.guard import LOOPBACK_NAMES, Guard
from gridarena.web.live import live_files, live_games
from gridarena.web.pages import page, viewer_page
from gridarena.web.play import Sessions
from gridarena.web.words import entrant_html, entrants, game_title, stored_result
from gridarena.web.workers import WorkerPool

REPLAY_SUFFIXES: Final = (".jsonl", ".json", ".json.gz")
MAX_LISTED: Final = 500
MAX_ROW_ID: Final = 2**63 - 1
"""SQLite's largest integer: a larger id names no row (a 404, not a 500 from the driver)."""


class Digits(Convertor[str]):
    """Path ids as their digits: Starlette's ``int`` converter calls ``int()`` on any digit string, which
    refuses 4,301 digits or more (a 500); :func:`_int` checks the length before it converts."""

    regex = "[0-9]+"

    def convert(self, value: str) -> str:
        return value

    def to_string(self, value: str) -> str:
        return str(value)


register_url_convertor("digits", Digits())


@dataclass
class Settings:
    """Where the data is: the database (None: no tournaments) and the replays folder."""

    db: Path | None
    replays: Path
    poll: float = 1.0
    pool: WorkerPool = field(default_factory=WorkerPool)
    sessions: Sessions = field(default_factory=Sessions)
    views: ViewCache = field(default_factory=ViewCache)

    def store(self) -> Store:
        """The database, read-only; 404 when the server has none."""
        if self.db is None:
            raise HTTPException(404, "no database: start the server with --db FILE")
        return Store(self.db, readonly=True)


# -- replays --------------------------------------------------------------------------------------


def build_view(path: Path) -> ReplayView:
    """A replay file rebuilt for the viewer: its numbers finite, its game built as a request would name
    it (a header that names a file on the server is a 400, never read)."""
    replay = finite_replay(read_replay(path, warn=lambda _: None))
    try:
        game = request_game(replay.header)
    except HeaderRefused as exc:
        raise HTTPException(400, f"{path.name}: {exc}") from None
    return view_of(replay, game)


def view_file(settings: Settings, path: Path) -> ReplayView:
    """The view of a replay file, rebuilt only when the file changed (kept within the cache's budget)."""
    return settings.views.get(path, build_view)


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
    digits: str = request.path_params[name]
    value = int(digits) if len(digits) <= 30 else MAX_ROW_ID + 1  # the length first: no slow int()
    if value > MAX_ROW_ID:
        raise HTTPException(404, f"no {name} {digits[:30]}: ids go up to {MAX_ROW_ID}")
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
    settings = _settings(request)
    path = await _threaded(game_replay, settings, tid, block, game)
    view = await _threaded(view_file, settings, path)
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
    view = view_file(settings, replay_file(settings, relative))
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
    settings = _settings(request)
    view = await _threaded(view_file, settings, await _threaded(game_replay, settings, tid, block, game))
    return JSONResponse(view.payload(kind="tournament", tournament=tid))


def _svg(text: str) -> Response:
    return Response(text, media_type="image/svg+xml", headers={"cache-control": "max-age=300"})


def _ply(request: Request, view: ReplayView, raw: str | None) -> int:
    try:
        ply = int(raw if raw is not None and len(raw) <= 30 else "")  # the length first: no slow int()
    except ValueError:
        raise HTTPException(400, f"ply must be a whole number, got {(raw or '')[:40]!r}") from None
    if ply != view.clamp(ply):
        raise HTTPException(404, f"no ply {ply}: the replay has plies 0 to {view.plies}")
    return ply


async def api_game_frame(request: Request) -> Response:
    tid, block, game = _int(request, "tid"), _int(request, "block"), _int(request, "game")
    settings = _settings(request)
    view = await _threaded(view_file, settings, await _threaded(game_replay, settings, tid, block, game))
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
    settings = _settings(request)
    path = await _threaded(replay_file, settings, request.query_params.get("path", ""))
    view = await _threaded(view_file, settings, path)
    ply = _ply(request, view, request.query_params.get("ply"))
    return _svg(await run_in_threadpool(view.frame, ply))


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
    workers: int | None = None,
) -> Starlette:
    """The application; ``db`` is checked now (a file that is not a gridarena database raises
    :class:`StoreError`), and opened read-only for every request.

    ``hosts`` are the names the ``Host`` header may carry (default: the loopback names, which stops a
    DNS-rebinding page from reading the viewer through a name of its own); ``["*"]`` allows any.
    ``workers`` sizes the pool of bot processes (default: the cores), started and stopped with the app.
    """
    path = None if db is None else Path(db).absolute()
    if path is not None:
        Store(path, readonly=True).close()
    settings = Settings(path, Path(replays).absolute(), poll, WorkerPool(workers))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await anyio.to_thread.run_sync(settings.pool.start)  # the first worker waits for the fork server
        try:
            yield
        finally:
            settings.sessions.close()
            await anyio.to_thread.run_sync(settings.pool.close)

    static = StaticFiles(packages=[("gridarena.web", "static")])
    routes = [
        Route("/", index),
        Route("/favicon.ico", lambda request: Response(status_code=204)),
        Route("/tournaments/{tid:digits}", tournament_page),
        Route("/tournaments/{tid:digits}/games/{block:digits}/{game:digits}", game_page),
        Route("/replays", replays_page),
        Route("/replays/view", replay_view_page),
        Route("/api/tournaments", api_tournaments),
        Route("/api/tournaments/{tid:digits}", api_tournament),
        Route("/api/tournaments/{tid:digits}/events", api_events),
        Route("/api/tournaments/{tid:digits}/games/{block:digits}/{game:digits}", api_game),
        Route(
            "/api/tournaments/{tid:digits}/games/{block:digits}/{game:digits}/frames/{ply}", api_game_frame
        ),
        Route("/api/tournaments/{tid:digits}/games/{block:digits}/{game:digits}/analysis", api_game_analysis),
        Route("/api/replays", api_replays),
        Route("/api/replays/view", api_replay_view),
        Route("/api/replays/frame", api_replay_frame),
        Route("/api/replays/analysis", api_replay_analysis),
        *playroutes.routes(),
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
    app = Starlette(routes=routes, exception_handlers=handlers, middleware=middleware, lifespan=lifespan)
    app.state.settings = settings
    return app
