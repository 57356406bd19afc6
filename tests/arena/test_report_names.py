"""The report names entrants as they are shown everywhere (issue 32), keeps each one's spec beside its
name, and still reads the games an earlier version stored under whole specs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from gridarena.arena.backends import InlineBackend
from gridarena.arena.report import build_report
from gridarena.arena.runner import legacy_names
from gridarena.arena.store import Store
from gridarena.arena.text import format_text
from gridarena.arena.tournament import TournamentConfig, run_tournament

LONG = "alphabeta(depth=2,heuristic='improved',tt=False,aspiration=50)"
PLAYERS = (LONG, "greedy")


def _report(db: Path) -> dict[str, Any]:
    with Store(db) as store:
        return build_report(store, 1)


def test_a_long_spec_is_shown_by_its_short_name_with_its_spec_beside(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    with Store(db) as store:
        run_tournament(
            TournamentConfig("isolation(width=4,height=4)", PLAYERS, games=2, seed=1), store, InlineBackend()
        )
    report = _report(db)
    rows = {row["player"]: row["spec"] for row in report["standings"]}
    assert rows == {"alphabeta": LONG, "greedy": "greedy"}
    assert report["entrants"] == [{"name": "alphabeta", "spec": LONG}, {"name": "greedy", "spec": "greedy"}]
    assert LONG not in format_text(report)
    games = sum(row["games"] for row in report["standings"])
    with Store(db) as store:  # as an earlier version stored them: the seats named by whole specs
        old = dict(zip(("alphabeta", "greedy"), legacy_names(PLAYERS), strict=True))
        for row in store.db.execute("SELECT rowid, seats FROM games").fetchall():
            seats = [old[s] for s in json.loads(row["seats"])]
            store.db.execute("UPDATE games SET seats = ? WHERE rowid = ?", (json.dumps(seats), row["rowid"]))
        store.db.commit()
    again = _report(db)
    assert (
        again["standings"] == report["standings"] and sum(row["games"] for row in again["standings"]) == games
    )
