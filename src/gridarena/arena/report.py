"""The tournament report, built from the database alone (``gridarena results`` reprints it any time).

Only ``done`` blocks count, so a pair is never counted half. Two entrants at a two-seat game get the
match figures of spec section 6 (pentanomial when paired); more entrants get Plackett–Luce ratings,
a crosstable, and the section 6 figures per encounter; single-player runs get mean, sd and a t interval.
Every report lists forfeits per entrant and reason, and time used per move.
"""

from __future__ import annotations

import csv
import io
import statistics
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

from gridarena.arena.ratings import Crosstable, GameRecord, crosstable, fit_ratings
from gridarena.arena.runner import entrant_names, percentile
from gridarena.arena.stats import (
    MatchStats,
    Pentanomial,
    SprtConfig,
    StatsInputError,
    Trinomial,
    compare_paired,
    format_mean,
    format_report,
    match_stats,
    summarize_runs,
)
from gridarena.arena.store import Store
from gridarena.core.types import JSON

Row = dict[str, Any]
FORFEITS = ("timeout", "illegal", "crash", "protocol")


def _points(row: Row, seat: int) -> float:
    """1 for finishing ahead of the other seat, ½ for a tie, 0 behind (two seats)."""
    mine, theirs = row["ranks"][seat], row["ranks"][1 - seat]
    return 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0


def match_sample(games: Sequence[Row], pair: Sequence[str]) -> Trinomial | Pentanomial | None:
    """The counts of ``pair[0]`` against ``pair[1]``: pentanomial if every block is a pair, else trinomial."""
    a, b = pair[0], pair[1]
    blocks: dict[int, list[float]] = defaultdict(list)
    for row in games:
        if sorted(row["seats"]) == sorted((a, b)) and len(row["seats"]) == 2:
            blocks[row["block"]].append(_points(row, row["seats"].index(a)))
    if not blocks:
        return None
    if all(len(points) == 2 for points in blocks.values()):
        counts = [0] * 5
        wl = 0
        for points in blocks.values():
            counts[int(2 * sum(points))] += 1
            wl += sorted(points) == [0.0, 1.0]
        return Pentanomial(counts[0], counts[1], counts[2], counts[3], counts[4], wl=wl)
    flat = [p for points in blocks.values() for p in points]
    return Trinomial(flat.count(1.0), flat.count(0.0), flat.count(0.5))


def _records(games: Sequence[Row]) -> list[GameRecord]:
    return [
        GameRecord(
            tuple(row["seats"]),
            tuple(row["ranks"]),
            tuple(row["returns"]),
            row["block"],
            row["termination"],
            row["forfeit_seat"],
        )
        for row in games
    ]


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
    records = _records(games)
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
    games = store.games(tournament)
    blocks = store.blocks(tournament)
    report: dict[str, JSON] = {
        "tournament": tournament,
        "status": row.status,
        "game": config["game"],
        "seed": row.master_seed,
        "config": config,
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
    report.update(_results(games, names, config))
    if exclude_forfeits:
        clean = [g for g in games if g["termination"] not in FORFEITS]
        report["excluding_forfeits"] = {"games": len(clean), **_results(clean, names, config)}
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
        report["crosstable"] = crosstable(_records(games), names).to_json()
    if seats == 2 and len(names) > 2:
        report["encounters"] = _encounters(games, names)
    return report


def _names(config: dict[str, Any]) -> list[str]:
    return entrant_names(config["players"])


def _encounters(games: Sequence[Row], names: Sequence[str]) -> list[JSON]:
    out: list[JSON] = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            stats = _match(games, (a, b))
            if stats is not None:
                out.append({"players": [a, b], **stats.to_json()["match"]})
    return out


# -- text -------------------------------------------------------------------------------------------


def elo_text(elo: float | None, ci: Sequence[float | None]) -> str:
    """Elo with the half-width of its interval, or a one-sided bound when the point is undefined.

    >>> elo_text(12.34, [2.0, 22.0]), elo_text(None, [77.5, None])
    ('+12.3 ± 10.0', '> +77.5')
    """
    low, high = ci
    if elo is None:
        return f"> {low:+.1f}" if low is not None else f"< {high:+.1f}" if high is not None else "—"
    if low is None or high is None:
        return f"{elo:+.1f} (open)"
    return f"{elo:+.1f} ± {(high - low) / 2:.1f}"


def standings_lines(report: dict[str, Any]) -> list[str]:
    """The standings as aligned text rows (player, games, W/L/D, score, Elo ± half-width)."""
    rows = report.get("standings", [])
    if "runs" in report:
        lines = [f"{'player':<24} {'runs':>5}  mean ± 95 %"]
        for r in rows:
            summary = summarize_runs(r["scores"])
            lines.append(
                f"{r['player']:<24} {r['games']:>5}  {format_mean(summary)}  failures {r['failures']}"
            )
        return lines
    lines = [f"{'player':<24} {'games':>5} {'W':>5} {'L':>5} {'D':>5} {'score':>7}  Elo (95 %)"]
    for r in rows:
        score = "—" if r["score"] is None else f"{100 * r['score']:.1f}%"
        lines.append(
            f"{r['player']:<24} {r['games']:>5} {r['wins']:>5} {r['losses']:>5} {r['draws']:>5} {score:>7}  "
            f"{elo_text(r['elo'], r['elo_ci95'])}"
        )
    return lines


def format_text(report: dict[str, Any]) -> str:
    """The report as text: header, standings, match figures or crosstable, forfeits, database path."""
    config = report["config"]
    time_control = config.get("time") or "untimed"
    blocks = report["blocks"]
    lines = [
        f"tournament {report['tournament']}: {config['game']}, {time_control}, {config.get('format')}, "
        f"{blocks['done']}/{blocks['scheduled']} blocks, {report['games']} games, seed {report['seed']}"
        + ("" if config.get("swap", True) else ", no seat swap"),
        "",
        *standings_lines(report),
    ]
    if report.get("match_text"):
        lines += ["", *report["match_text"]]
    elif report.get("crosstable"):
        ct = report["crosstable"]
        entrants = tuple(ct["entrants"])
        points = tuple(
            tuple(float(row["vs"].get(o, {}).get("points", 0.0)) for o in entrants) for row in ct["rows"]
        )
        games = tuple(
            tuple(int(row["vs"].get(o, {}).get("games", 0)) for o in entrants) for row in ct["rows"]
        )
        lines += ["", Crosstable(entrants, points, games).to_text()]
    clean = report.get("excluding_forfeits")
    if clean:
        lines += ["", f"without forfeited games ({clean['games']} games):", *standings_lines(clean)]
    lines += ["", _forfeit_line(report), f"database: {report['database']}"]
    return "\n".join(lines)


def _forfeit_line(report: dict[str, Any]) -> str:
    parts = []
    for name, reasons in report["forfeits"].items():
        total = sum(reasons.values())
        detail = f" ({', '.join(f'{n} {k}' for k, n in reasons.items())})" if total else ""
        parts.append(f"{name} {total}{detail}")
    return f"Forfeits: {', '.join(parts)}; blocks under load: {report['blocks']['load_warning']}"


def standings_csv(report: dict[str, Any]) -> str:
    """The standings as CSV: one row per entrant, forfeits per reason as columns."""
    out = io.StringIO()
    columns = ["player", "games", "wins", "losses", "draws", "score", "elo", "elo_low", "elo_high", *FORFEITS]
    writer = csv.writer(out)
    writer.writerow(columns)
    for r in report["standings"]:
        low, high = r["elo_ci95"]
        reasons = report["forfeits"].get(r["player"], {})
        writer.writerow(
            [
                r["player"],
                r["games"],
                r["wins"],
                r["losses"],
                r["draws"],
                r["score"],
                r["elo"],
                low,
                high,
                *(reasons.get(k, 0) for k in FORFEITS),
            ]
        )
    return out.getvalue()
