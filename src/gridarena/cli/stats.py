"""Print the two-entrant statistics of given counts: Elo, nElo, LOS, ratios and SPRT.

gridarena stats --wld 3225 3068 3707
gridarena stats --penta 13 37 50 25 3 --wl 20 --sprt 0,5,0.05,0.05 --json
"""

from __future__ import annotations

import argparse
import json
import sys

from rich.console import Console
from rich.table import Table

from gridarena.arena.counts import Pentanomial, Sample, StatsInputError, Trinomial
from gridarena.arena.elo import EloFigures
from gridarena.arena.match import MatchStats, match_stats
from gridarena.arena.sprt import SprtConfig
from gridarena.arena.text import format_number, format_percent, format_report, format_sprt
from gridarena.cli.options import GAMES


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the ``stats`` options to ``parser``."""
    counts = parser.add_mutually_exclusive_group(required=True)
    counts.add_argument(
        "--wld", nargs=3, type=GAMES, metavar=("W", "L", "D"), help="the candidate's wins, losses and draws"
    )
    counts.add_argument(
        "--penta",
        nargs=5,
        type=GAMES,
        metavar=("LL", "LD", "DD", "WD", "WW"),
        help="pair results from the candidate's side; DD counts DD and WL pairs together",
    )
    parser.add_argument(
        "--wl", type=GAMES, default=None, metavar="K", help="with --penta: K of the DD pairs were WL pairs"
    )
    parser.add_argument(
        "--sprt", default=None, metavar="ELO0,ELO1,ALPHA,BETA", help="also print the SPRT, e.g. 0,5,0.05,0.05"
    )
    parser.add_argument(
        "--sprt-model",
        choices=("normalized", "logistic"),
        default="normalized",
        help="Elo model of the SPRT hypotheses (default: normalized)",
    )
    parser.add_argument(
        "--names", default="A,B", metavar="CANDIDATE,OPPONENT", help="names for the standings (default A,B)"
    )
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    output.add_argument("--table", action="store_true", help="print a rich table instead of report lines")


def _sample(args: argparse.Namespace) -> Sample:
    if args.wld is not None:
        if args.wl is not None:
            raise StatsInputError("--wl splits pentanomial DD pairs; it needs --penta, not --wld")
        wins, losses, draws = args.wld
        return Trinomial(wins, losses, draws)
    ll, ld, dd, wd, ww = args.penta
    return Pentanomial(ll, ld, dd, wd, ww, wl=args.wl)


def _names(text: str) -> tuple[str, str]:
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 2 or not all(parts):
        raise StatsInputError(f"--names wants two comma-separated names, got {text!r}")
    return parts[0], parts[1]


def _table(stats: MatchStats) -> Table:
    f: EloFigures = stats.figures
    table = Table(title=f"{stats.names[0]} vs {stats.names[1]} ({f.model}, {f.games} games)")
    table.add_column("figure")
    table.add_column("value", justify="right")
    table.add_column("95 % interval", justify="right")
    table.add_row("score", format_percent(f.score, 2), "")
    table.add_row("Elo", format_number(f.elo), f"[{format_number(f.elo_low)}, {format_number(f.elo_high)}]")
    table.add_row(
        "nElo", format_number(f.nelo), f"[{format_number(f.nelo_low)}, {format_number(f.nelo_high)}]"
    )
    table.add_row("LOS", format_percent(f.los, 2), "")
    table.add_row("draw ratio", format_percent(f.draw_ratio, 1), "")
    if f.penta is not None:
        table.add_row("pairs ratio", format_number(f.pairs_ratio), "")
        table.add_row("Ptnml(0-2)", str(list(f.penta.counts)), "")
    if stats.sprt is not None:
        table.add_row("SPRT", format_sprt(stats.sprt).removeprefix("LLR: "), "")
    return table


def run(args: argparse.Namespace) -> int:
    """Compute and print the report; 0 on success (bad counts raise :class:`StatsInputError`)."""
    sample = _sample(args)
    config = None if args.sprt is None else SprtConfig.parse(args.sprt, args.sprt_model)
    stats = match_stats(sample, config, _names(args.names))
    if args.json:
        json.dump(stats.to_json(), sys.stdout, allow_nan=False)
        sys.stdout.write("\n")
    elif args.table:
        Console(file=sys.stdout).print(_table(stats))
    else:
        sys.stdout.write("\n".join(format_report(stats)) + "\n")
    return 0
