"""The evaluation graph in the viewer: a game's stored analysis, or one made within bounds on request.

``gridarena analyze --db DB --tournament N`` stores each game's analysis in the database; the
viewer shows it. A game without one (or a replay file) is analysed when its graph is asked for, the
whole game at a per-ply budget: :data:`WEB_POSITION_SECONDS` a position, less for a long game so
that its positions share at most :data:`WEB_GAME_SECONDS`; the moves after the first may take
:data:`SLACK` times their share (an analyser may overrun its time a little), and the first move is
outside the budget, since it carries the analyser's start-up (Isolation's kernels compile on their
first call). One analysis runs at a time (another request meanwhile gets a 503 and may retry), in
this process: the analysers start no program, and their tables stay small (Isolation 16 MB, the
puzzle solver 64 MB). Answers are kept per replay file version.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from starlette.exceptions import HTTPException

from gridarena.arena.analysis import AnalysisError, analysis_batch, analyze_positions
from gridarena.arena.replay import read_replay, replay_positions
from gridarena.arena.store import Store
from gridarena.core.registry import has_analyser
from gridarena.web.frames import HeaderRefused, finite_replay, request_game

WEB_POSITION_SECONDS: Final = 0.25
"""Seconds per position at most (less for a long game, see :data:`WEB_GAME_SECONDS`)."""
WEB_GAME_SECONDS: Final = 30.0
"""The positions of one game share at most this many seconds (a 600-ply game: 0.05 s each)."""
SLACK: Final = 2.0
"""The moves may take this many times their positions' share before the rest are left out."""
KEEP: Final = 16
"""Analyses kept in memory (per replay file version), oldest dropped first."""
_busy = threading.Lock()
_made: dict[tuple[str, int, int], dict[str, Any]] = {}


def stored_analysis(
    open_store: Callable[[], Store], tournament: int, block: int, game: int
) -> dict[str, Any] | None:
    """The analysis ``gridarena analyze --db`` stored for a game, if any."""
    with open_store() as store:
        found = store.job_result(analysis_batch(tournament), f"{block}-{game}")
    return {**found, "source": "stored by gridarena analyze"} if isinstance(found, dict) else None


def analysed_games(store: Store, tournament: int) -> set[tuple[int, int]]:
    """The (block, game) pairs of a tournament whose analysis is stored."""
    names = store.job_names(analysis_batch(tournament))
    return {(int(block), int(game)) for block, _, game in (name.partition("-") for name in names)}


def _bounded(path: Path) -> dict[str, Any]:
    replay = finite_replay(read_replay(path, warn=lambda _: None))
    try:  # the header's game is rebuilt as a request would name it: never a file it names
        game = request_game(replay.header)
    except HeaderRefused as exc:
        raise HTTPException(400, str(exc)) from None
    if not has_analyser(game.name):
        raise HTTPException(404, f"no analyser for {game.name}")
    count = len(replay.turns) + 1
    seconds = min(WEB_POSITION_SECONDS, WEB_GAME_SECONDS / count)
    positions = replay_positions(replay, game)
    players = replay.header.get("players")
    names = [str(p.get("name")) for p in players if isinstance(p, dict)] if isinstance(players, list) else []
    try:
        if positions.game is None:
            raise AnalysisError(positions.problem or "the engine cannot rebuild this game")
        budget = SLACK * seconds * count + 1.0
        analysis = analyze_positions(game, positions.states, positions.actions, names, seconds, budget=budget)
    except AnalysisError as exc:
        raise HTTPException(404, str(exc)) from None
    return {**analysis.to_json(), "source": "made on request", "seconds_per_position": seconds}


def bounded_analysis(path: Path) -> dict[str, Any]:
    """The analysis of a replay file within the bounds above (503 while another one is being made)."""
    stat = path.stat()
    key = (str(path), stat.st_mtime_ns, stat.st_size)
    if key in _made:
        return _made[key]
    if not _busy.acquire(blocking=False):
        raise HTTPException(503, "another analysis is running; try again in a few seconds")
    try:
        made = _bounded(path)
    finally:
        _busy.release()
    if len(_made) >= KEEP:
        _made.pop(next(iter(_made)))
    _made[key] = made
    return made
