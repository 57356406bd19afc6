"""Reprint a stored tournament's report: standings with intervals, crosstable, per-bot figures, forfeits.

gridarena results                                   # the latest tournament in ./gridarena.sqlite
gridarena results --db results.sqlite --tournament 3 --json
gridarena results --tournament 3 --csv standings.csv
gridarena results --list                            # every tournament in the database
"""

from __future__ import annotations

import argparse
from typing import Any

from gridarena.arena.report import build_report
from gridarena.arena.runner import entrant_names
from gridarena.arena.store import Store, StoreError, database_path
from gridarena.arena.text import DASH, format_text, standings_csv
from gridarena.cli.options import ROW_ID
from gridarena.cli.output import print_json
from gridarena.core.files import write_text
from gridarena.core.words import spec_title


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of ``gridarena results``."""
    parser.add_argument("--db", help="database file (default: $GRIDARENA_DB, else ./gridarena.sqlite)")
    parser.add_argument("--tournament", type=ROW_ID, help="tournament id (default: the latest)")
    parser.add_argument("--list", action="store_true", help="list the tournaments in the database")
    parser.add_argument("--exclude-forfeits", action="store_true", help="also report without forfeited games")
    out = parser.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="the full report as JSON on stdout")
    out.add_argument("--csv", metavar="FILE", help="write the standings as CSV ('-' for stdout)")


def _per_bot_lines(report: dict[str, Any]) -> list[str]:
    """Per entrant: moves, mean / p99 / max wall ms per move, CPU/wall ratio, depth, pipe round trip."""
    header = ("moves", "mean ms", "p99 ms", "max ms", "cpu/wall", "depth", "rtt ms")
    lines = [f"{'player':<24}" + "".join(f" {h:>8}" for h in header)]
    for name, b in report["bots"].items():
        cells = [b["wall_ms_mean"], b["wall_ms_p99"], b["wall_ms_max"], b["cpu_wall_ratio"]]
        text = [str(b["moves"]), *(DASH if v is None else f"{v:.2f}" for v in cells)]
        text.append(DASH if b["depth_max"] is None else str(b["depth_max"]))
        text.append(DASH if b["latency_ms_median"] is None else f"{b['latency_ms_median']:.2f}")
        lines.append(f"{name:<24}" + "".join(f" {t:>8}" for t in text))
    return lines


def run(args: argparse.Namespace) -> int:
    """Print the report (text, JSON or CSV)."""
    path = database_path(args.db)
    if not path.exists():
        raise StoreError(f"{path}: no such database (give --db or set GRIDARENA_DB)")
    with Store(path) as store:
        if args.list:
            for t in store.tournaments():
                names = entrant_names(t.config["players"], str(t.config["game"]))
                print(
                    f"{t.id}\t{t.created}\t{t.status}\t{spec_title(str(t.config['game']))}\t{','.join(names)}"
                )
            return 0
        tournament = store.tournament(args.tournament).id
        report = build_report(store, tournament, exclude_forfeits=args.exclude_forfeits)
    if args.json:
        print_json(report)
    elif args.csv:
        text = standings_csv(report)
        if args.csv == "-":
            print(text, end="")
        else:
            write_text(args.csv, text, "CSV file")
    else:
        print(format_text(report))
        print()
        print("\n".join(_per_bot_lines(report)))
    return 0
