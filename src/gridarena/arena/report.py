"""The tournament report, built from the database alone (``gridarena results`` reprints it any time).

Only ``done`` blocks count, so a pair is never counted half. Two entrants at a two-seat game get the
match figures (Elo, nElo, LOS, pentanomial when paired); more entrants get Plackett–Luce ratings,
a crosstable, and the two-entrant figures per encounter; single-player runs get mean, sd and a t interval.
Every report lists forfeits per entrant and reason, and time used per move. The report is one JSON
object (the ``--json`` output); :mod:`gridarena.arena.text` writes it as text.
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

from gridarena.arena.counts import Pentanomial, Sample, StatsInputError, Trinomial
from gridarena.arena.match import MatchStats, match_stats
from gridarena.arena.rated import RatedGame
from gridarena.arena.ratings import fit_ratings
from gridarena.arena.runner import entrant_names, legacy_names, percentile
from gridarena.arena.singleplayer import compare_paired, summarize_runs
from gridarena.arena.sprt import SprtConfig
from gridarena.arena.standings import crosstable
from gridarena.arena.store import Store
from gridarena.arena.text import format_report
from gridarena.core.types import FORFEITS, JSON
from gridarena.core.words import spec_title

Row = dict[str, Any]


def _points(row: Row, seat: int) -> float:
    """1 for finishing ahead of the other seat, ½ for a tie, 0 behind (two seats)."""
    mine, theirs = row["ranks"][seat], row["ranks"][1 - seat]
    return 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0


def match_sample(games: Sequence[Row], pair: Sequence[str]) -> Sample | None:
    """The counts of ``pair[0]`` against ``pair[1]``: pentanomial if every block is a pair, else trinomial."""
    a, b = pair[0], pair[1]
    blocks: dict[int, list[float]] = defaultdict(list)
    for row in games:
        if sorted(row["seats"]) == sorted((a, b)) and len(row["seats"]) == 2:
            blocks[row["block"]].append(_points(row, row["seats"].index(a)))
    if not blocks:
        return None
    if all(len(points) == 2 for points in blocks.values()):
        return Pentanomial.from_pairs((first, second) for first, second in blocks.values())
    return Trinomial.from_scores(p for points in blocks.values() for p in points)


def _rated_games(games: Sequence[Row]) -> list[RatedGame]:
    return [RatedGame.from_row(row) for row in games]


def _tally(games: Sequence[Row], names: Sequence[str]) -> dict[str, Counter[str]]:
    """Wins (sole first place), draws (shared first place), losses, games, per entrant."""
    tally: dict[str, Counter[str]] = {name: Counter() for name in names}
    for row in games:
        firsts = row["ranks"].count(1)
        for seat, name in enumerate(row["seats"]):
            rank = row["ranks"][seat]
            tally[name]["games"] += 1
            tally[name]["wins" if rank == 1 and firsts == 1 else "draws" if rank == 1 else "losses"] += 1
    return tally


def forfeits(games: Sequence[Row], names: Sequence[str]) -> dict[str, dict[str, int]]:
    """Forfeits per entrant and reason: ``{"ab": {"timeout": 10, "crash": 2}}``."""
    counts: dict[str, Counter[str]] = {name: Counter() for name in names}
    for row in games:
        if row["termination"] in FORFEITS and row["forfeit_seat"] is not None:
            counts[row["seats"][row["forfeit_seat"]]][row["termination"]] += 1
    return {name: dict(sorted(c.items())) for name, c in counts.items()}


def bot_figures(games: Sequence[Row], names: Sequence[str]) -> dict[str, dict[str, JSON]]:
    """Per entrant: moves, mean and maximum wall ms per move, the largest per-game p99, CPU ms, depth."""
    acc: dict[str, dict[str, Any]] = {
        n: {"moves": 0, "wall": 0.0, "cpu": 0.0, "max": None, "p99": None, "depth": None, "rtt": []}
        for n in names
    }
    for row in games:
        for seat, stats in enumerate(row["time_stats"] or []):
            a = acc[row["seats"][seat]]
            a["moves"] += stats["moves"]
            a["wall"] += stats["wall_ms"]
            a["cpu"] += stats["cpu_ms"]
            a["rtt"] += stats.get("latency_ms", [])
            for key, field in (("max", "wall_ms_max"), ("p99", "wall_ms_p99"), ("depth", "depth_max")):
                if stats.get(field) is not None:
                    a[key] = stats[field] if a[key] is None else max(a[key], stats[field])
    return {
        name: {
            "moves": a["moves"],
            "wall_ms_mean": a["wall"] / a["moves"] if a["moves"] else None,
            "wall_ms_max": a["max"],
            "wall_ms_p99": a["p99"],
            "cpu_ms_mean": a["cpu"] / a["moves"] if a["moves"] else None,
            "cpu_wall_ratio": a["cpu"] / a["wall"] if a["wall"] else None,
            "depth_max": a["depth"],
            "latency_ms_median": statistics.median(a["rtt"]) if a["rtt"] else None,
            "latency_ms_p99": percentile(a["rtt"], 0.99) if a["rtt"] else None,
        }
        for name, a in acc.items()
    }


def _match(games: Sequence[Row], pair: Sequence[str], sprt: str | None = None) -> MatchStats | None:
    sample = match_sample(games, pair)
    if sample is None:
        return None
    try:
        return match_stats(sample, SprtConfig.parse(sprt) if sprt else None, (pair[0], pair[1]))
    except StatsInputError:
        return None


def _multi_standings(games: Sequence[Row], names: Sequence[str]) -> tuple[list[Row], dict[str, JSON] | None]:
    tally = _tally(games, names)
    records = _rated_games(games)
    table = crosstable(records, names) if records else None
    fit = fit_ratings(records, prior_games=1.0, entrants=names) if records else None
    rows: list[Row] = []
    for i, name in enumerate(names):
        t = tally[name]
        played = sum(table.games[i]) if table is not None else 0
        rows.append(
            {
                "player": name,
                "games": t["games"],
                "wins": t["wins"],
                "losses": t["losses"],
                "draws": t["draws"],
                "score": sum(table.points[i]) / played if table is not None and played else None,
                "elo": fit.rating(name) if fit else None,
                "elo_ci95": list(fit.interval(name)) if fit else [None, None],
            }
        )
    rows.sort(key=lambda r: -(r["elo"] if r["elo"] is not None else float("-inf")))
    return rows, None if fit is None else fit.to_json()


def _run_scores(games: Sequence[Row], name: str) -> tuple[list[Row], list[float | None]]:
    """One entrant's runs in seed order (rounds), failed runs as ``None``."""
    mine = sorted((r for r in games if r["seats"][0] == name), key=lambda r: r["round"])
    return mine, [r["returns"][0] if r["termination"] in ("normal", "adjudicated") else None for r in mine]


def _runs(games: Sequence[Row], names: Sequence[str]) -> tuple[list[Row], dict[str, JSON]]:
    runs: dict[str, JSON] = {}
    rows: list[Row] = []
    for name in names:
        mine, scores = _run_scores(games, name)
        reasons = [None if s is not None else r["termination"] for s, r in zip(scores, mine, strict=True)]
        summary = summarize_runs(scores, reasons)
        runs[name] = summary.to_json()
        rows.append(
            {
                "player": name,
                "games": len(mine),
                "wins": None,
                "losses": None,
                "draws": None,
                "score": None,
                "elo": None,
                "elo_ci95": [None, None],
                **summary.to_json(),
            }
        )
    return rows, runs


def build_report(store: Store, tournament: int, *, exclude_forfeits: bool = False) -> dict[str, JSON]:
    """The full report of a tournament as one JSON object (the ``--json`` output).

    ``exclude_forfeits`` adds ``excluding_forfeits``: the standings again without the forfeited games
    (pairs with a forfeit then count game by game).
    """
    row = store.tournament(tournament)
    config = row.config
    names = _names(config)
    games = stored_seats(store.games(tournament), config["players"], names)
    blocks = store.blocks(tournament)
    report: dict[str, JSON] = {
        "tournament": tournament,
        "status": row.status,
        "game": config["game"],
        "game_title": spec_title(str(config["game"])),
        "seed": row.master_seed,
        "config": config,
        "entrants": [{"name": n, "spec": s} for n, s in zip(names, config["players"], strict=True)],
        "database": str(store.path) if store.path is not None else None,
        "replays": str(store.replay_dir(tournament)) if store.path is not None else None,
        "blocks": {
            "scheduled": len(blocks),
            "done": sum(b.status == "done" for b in blocks),
            "load_warning": sum(b.load_warning for b in blocks),
        },
        "games": len(games),
        "forfeits": forfeits(games, names),
        "bots": bot_figures(games, names),
    }
    specs = dict(zip(names, config["players"], strict=True))
    report.update(_results(games, names, config))
    _add_specs(report, specs)
    if exclude_forfeits:
        clean = [g for g in games if g["termination"] not in FORFEITS]
        without: dict[str, JSON] = {"games": len(clean), **_results(clean, names, config)}
        _add_specs(without, specs)
        report["excluding_forfeits"] = without
    return report


def _results(games: Sequence[Row], names: Sequence[str], config: dict[str, Any]) -> dict[str, JSON]:
    """Standings and the figures that go with them (match, ratings, crosstable, runs)."""
    report: dict[str, JSON] = {}
    seats = len(games[0]["seats"]) if games else None
    if seats == 1:
        report["standings"], report["runs"] = _runs(games, names)
        if len(names) == 2:
            a, b = (_run_scores(games, n)[1] for n in names)
            if len(a) == len(b):  # the same seeds, run by run
                report["comparison"] = {"players": list(names), **compare_paired(a, b).to_json()}
        return report
    match = _match(games, names, config.get("sprt")) if len(names) == 2 and seats == 2 else None
    standings, ratings = _multi_standings(games, names)
    if match is not None:
        elo = {r["player"]: r for r in match.standings()}
        for r in standings:
            r["elo"], r["elo_ci95"] = elo[r["player"]]["elo"], elo[r["player"]]["elo_ci95"]
        report["match"] = match.to_json()["match"]
        report["match_text"] = format_report(match)
    report["standings"] = standings
    report["ratings"] = ratings
    if games:
        report["crosstable"] = crosstable(_rated_games(games), names).to_json()
    if seats == 2 and len(names) > 2:
        report["encounters"] = _encounters(games, names)
    return report


def _names(config: dict[str, Any]) -> list[str]:
    return entrant_names(config["players"], str(config["game"]))


def stored_seats(games: Sequence[Row], specs: Sequence[str], names: Sequence[str]) -> list[Row]:
    """The stored games with their seats under today's names (:func:`entrant_names`): games stored
    by an earlier version name a long spec's entrant by the whole spec (:func:`legacy_names`)."""
    known = set(names)
    if all(seat in known for g in games for seat in g["seats"]):
        return list(games)
    renamed = {old: new for old, new in zip(legacy_names(specs), names, strict=True) if old not in known}
    return [{**g, "seats": [renamed.get(seat, seat) for seat in g["seats"]]} for g in games]


def _add_specs(report: dict[str, JSON], specs: dict[str, str]) -> None:
    """Each standings row names its entrant's spec beside its name (the pages show it on request)."""
    for row in report.get("standings") or []:
        if isinstance(row, dict):
            row["spec"] = specs.get(str(row["player"]))


def _encounters(games: Sequence[Row], names: Sequence[str]) -> list[JSON]:
    out: list[JSON] = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            stats = _match(games, (a, b))
            if stats is not None:
                out.append({"players": [a, b], **stats.to_json()["match"]})
    return out
