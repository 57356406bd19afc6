"""The arena's figures as text: the match report, standings, means, CSV.

Each function returns strings and prints nothing; the command line decides where they go. An undefined
figure is ``—`` (:data:`DASH`), and an interval open on one side is a one-sided bound.

>>> from gridarena.arena.counts import Trinomial
>>> from gridarena.arena.elo import trinomial
>>> format_elo(trinomial(Trinomial(3225, 3068, 3707)))
'Elo: 5.46 +/- 5.40'
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from typing import Any, Final

from gridarena.arena.elo import EloFigures
from gridarena.arena.intervals import halfwidth
from gridarena.arena.match import MatchStats
from gridarena.arena.singleplayer import RunSummary, summarize_runs
from gridarena.arena.sprt import SprtResult
from gridarena.arena.standings import Crosstable
from gridarena.core.types import FORFEITS
from gridarena.core.words import spec_title

DASH: Final = "—"
"""What text shows for an undefined figure (``null`` in JSON)."""

STANDINGS_COLUMNS: Final = ("player", "games", "W", "L", "D", "score", "Elo (95 %)")
"""The columns of a standings table (:func:`standing_cells`)."""


def _fixed(value: float, digits: int = 2) -> str:
    """Fixed-point text without a minus sign on a value that rounds to zero."""
    text = f"{value:.{digits}f}"
    return text[1:] if text.startswith("-") and float(text) == 0.0 else text


def _signed(value: float, digits: int = 2) -> str:
    text = _fixed(value, digits)
    return text if text.startswith("-") else f"+{text}"


def _one_sided(low: float | None, high: float | None) -> str | None:
    """``> +77.5`` for an interval open above, ``< -77.5`` for one open below; ``None`` if both ends are."""
    if low is not None:
        return f"> {_signed(low, 1)}"
    return None if high is None else f"< {_signed(high, 1)}"


def format_number(value: float | None, digits: int = 2) -> str:
    """A figure with ``digits`` decimals, or ``—``.

    >>> format_number(0.5612), format_number(None)
    ('0.56', '—')
    """
    return DASH if value is None else f"{value:.{digits}f}"


def format_percent(value: float | None, digits: int) -> str:
    """A fraction as a percentage with ``digits`` decimals, or ``—``.

    >>> format_percent(0.97612, 2)
    '97.61 %'
    """
    return DASH if value is None else f"{100.0 * value:.{digits}f} %"


def format_elo(f: EloFigures) -> str:
    """The Elo part of the report: ``Elo: -43.66 +/- 29.43``, or a one-sided bound.

    >>> from gridarena.arena.counts import Trinomial
    >>> from gridarena.arena.elo import trinomial
    >>> format_elo(trinomial(Trinomial(6, 0, 0)))
    'Elo: > +77.5 (95 %)'
    """
    bound = _one_sided(f.elo_low, f.elo_high)
    if f.elo is None:
        return f"Elo: {DASH}" if bound is None else f"Elo: {bound} (95 %)"
    half = f.elo_halfwidth
    if half is not None:
        return f"Elo: {_fixed(f.elo)} +/- {half:.2f}"
    return f"Elo: {_fixed(f.elo)} (95 %: {bound or 'unbounded'})"


def format_sprt(result: SprtResult) -> str:
    """The LLR line: ``LLR: -0.69 (-2.94, 2.94) [0.00, 5.00]``, plus the decision once taken."""
    lower, upper = result.bounds
    line = (
        f"LLR: {_fixed(result.llr)} ({lower:.2f}, {upper:.2f}) "
        f"[{_fixed(result.config.elo0)}, {_fixed(result.config.elo1)}]"
    )
    if result.config.model != "normalized":
        line += f" {result.config.model}"
    return line if result.decision is None else f"{line} - {result.decision} accepted"


def format_report(stats: MatchStats) -> list[str]:
    """The body of the match report as text lines (the header and forfeits are the runner's)."""
    f = stats.figures
    nelo = DASH if f.nelo is None else f"{_fixed(f.nelo)} +/- {format_number(f.nelo_halfwidth)}"
    line2 = f"LOS: {format_percent(f.los, 2)}, DrawRatio: {format_percent(f.draw_ratio, 1)}"
    if f.penta is not None:
        line2 += f", PairsRatio: {format_number(f.pairs_ratio)}"
    points = f.score * f.games
    if f.counts is None:
        tally = f"Games: {f.games}, Wins: {DASH}, Losses: {DASH}, Draws: {DASH}"
    else:
        c = f.counts
        tally = f"Games: {f.games}, Wins: {c.wins}, Losses: {c.losses}, Draws: {c.draws}"
    lines = [
        f"{format_elo(f)}, nElo: {nelo}",
        line2,
        f"{tally}, Points: {points:.1f} ({100.0 * f.score:.2f} %)",
    ]
    if f.penta is not None:
        lines.append(f"Ptnml(0-2): [{', '.join(str(n) for n in f.penta.counts)}]")
    if stats.sprt is not None:
        lines.append(format_sprt(stats.sprt))
    return lines


def format_mean(summary: RunSummary, digits: int = 1) -> str:
    """The mean with its half-width, ``2041.3 ± 8.2 (95 %, n = 50)``.

    >>> format_mean(summarize_runs([10.0, 12.0, 14.0]))
    '12.0 ± 5.0 (95 %, n = 3)'
    """
    if summary.mean is None:
        return f"{DASH} (n = 0)"
    return f"{summary.mean:.{digits}f} ± {format_number(summary.halfwidth, digits)} (95 %, n = {summary.n})"


# -- reports -----------------------------------------------------------------------------------------------


def elo_text(elo: float | None, ci: Sequence[float | None]) -> str:
    """Elo with the half-width of its interval, or a one-sided bound when the point is undefined.

    >>> elo_text(12.34, [2.0, 22.0]), elo_text(None, [77.5, None])
    ('+12.3 ± 10.0', '> +77.5')
    """
    low, high = ci
    if elo is None:
        return _one_sided(low, high) or DASH
    half = halfwidth(low, high)
    return f"{elo:+.1f} (open)" if half is None else f"{elo:+.1f} ± {half:.1f}"


def standing_cells(row: Mapping[str, Any]) -> list[str]:
    """One standings row as the text of :data:`STANDINGS_COLUMNS`, ``—`` where a figure is undefined.

    >>> standing_cells({"player": "ab", "games": 4, "wins": 3, "losses": 1, "draws": 0, "score": 0.75,
    ...                 "elo": 190.85, "elo_ci95": [None, 400.0]})
    ['ab', '4', '3', '1', '0', '75.0%', '+190.8 (open)']
    """
    score = row.get("score")
    return [
        str(row["player"]),
        str(row["games"]),
        *(DASH if row.get(k) is None else str(row[k]) for k in ("wins", "losses", "draws")),
        DASH if score is None else f"{100 * score:.1f}%",
        elo_text(row.get("elo"), row.get("elo_ci95", [None, None])),
    ]


def standings_lines(report: dict[str, Any]) -> list[str]:
    """The standings as aligned text rows (player, games, W/L/D, score, Elo ± half-width)."""
    rows = report.get("standings", [])
    w = max([24, *(len(str(r["player"])) for r in rows)])  # a name as long as the rule allows still aligns
    if "runs" in report:
        lines = [f"{'player':<{w}} {'runs':>5}  mean ± 95 %"]
        for r in rows:
            summary = summarize_runs(r["scores"])
            lines.append(
                f"{r['player']:<{w}} {r['games']:>5}  {format_mean(summary)}  failures {r['failures']}"
            )
        return lines
    lines = [f"{'player':<{w}} {'games':>5} {'W':>5} {'L':>5} {'D':>5} {'score':>7}  Elo (95 %)"]
    for r in rows:
        player, games, wins, losses, draws, score, elo = standing_cells(r)
        lines.append(f"{player:<{w}} {games:>5} {wins:>5} {losses:>5} {draws:>5} {score:>7}  {elo}")
    return lines


def format_text(report: dict[str, Any]) -> str:
    """The report as text: header, standings, match figures or crosstable, forfeits, database path."""
    config = report["config"]
    time_control = config.get("time") or "untimed"
    blocks = report["blocks"]
    lines = [
        f"tournament {report['tournament']}: {spec_title(str(config['game']))}, {time_control}, {config.get('format')}, "
        f"{blocks['done']}/{blocks['scheduled']} blocks, {report['games']} games, seed {report['seed']}"
        + ("" if config.get("swap", True) else ", no seat swap"),
        "",
        *standings_lines(report),
    ]
    if report.get("match_text"):
        lines += ["", *report["match_text"]]
    elif report.get("crosstable"):
        lines += ["", Crosstable.from_json(report["crosstable"]).to_text()]
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
