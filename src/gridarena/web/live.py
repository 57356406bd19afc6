"""The games of a tournament being played now, as the viewer lists them.

While a game runs, its replay is written line by line beside the database (``<db stem>.replays/<id>/
<block>-<game>.jsonl``: the arena's workers write it so, and so does ``gridarena reversixt server
--db``); once the game is stored, the file is compacted to ``.json.gz``. So a ``.jsonl`` file whose game
is not stored yet is a game in progress, and the replays page can show it as it grows.
"""

from __future__ import annotations

import urllib.parse
from pathlib import Path
from typing import Any, Final

from gridarena.arena.store import Store

MAX_LIVE: Final = 500
"""The most games in progress listed for one tournament."""


def live_files(store: Store, tournament: int) -> tuple[str, ...]:
    """The names of the replays being written for a tournament (what the live page watches)."""
    folder = store.replay_dir(tournament)
    return tuple(sorted(p.name for p in folder.glob("*.jsonl"))[:MAX_LIVE]) if folder.is_dir() else ()


def live_games(store: Store, tournament: int, replays: Path) -> list[dict[str, Any]]:
    """The games being played: block, game, plies so far and a link to the replays page when the file
    is under ``replays`` (the viewer's replays folder)."""
    folder = store.replay_dir(tournament)
    stored = {(g["block"], g["game"]) for g in store.games(tournament, done_only=False)}
    rows = []
    for name in live_files(store, tournament):
        block, _, game = name.removesuffix(".jsonl").partition("-")
        if not (block.isdigit() and game.isdigit()) or (int(block), int(game)) in stored:
            continue
        path = folder / name
        try:
            relative: str | None = path.resolve().relative_to(replays.resolve()).as_posix()
        except (OSError, ValueError):
            relative = None
        try:
            with path.open("rb") as lines:
                plies = max(0, sum(1 for _ in lines) - 1)  # the header, then a line a ply
        except OSError:  # stored and compacted meanwhile
            continue
        url = None if relative is None else f"/replays/view?path={urllib.parse.quote(relative)}"
        rows.append({"block": int(block), "game": int(game), "plies": plies, "url": url})
    return rows
