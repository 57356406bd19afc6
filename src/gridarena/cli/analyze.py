"""Analyse games: every move's value before and after, blunders and mistakes marked, per player figures.

``gridarena analyze REPLAY`` analyses one game with its game's analyser (Isolation: exact results
from the solution and the proof search, else the engine's estimate; sliding puzzle: exact distances
by the optimal solver; ReversiXT and Ice and Fire: ``best``'s judgement; Pentocity: what ``best``
would score from each position, so a placement's regret): ``--time`` seconds per position,
``--json`` for the analysis as JSON, ``--html OUT`` for the one-file viewer with the evaluation
graph under the board. ``gridarena analyze --db DB --tournament N`` analyses every stored game of a
tournament as jobs on the arena's backends (kept in the database, so a stopped run resumes) and
reports per player the marks per game and the average loss per move. docs/analysis.md says how to
read the values and the graph.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from gridarena.arena.analysis import (
    DEFAULT_SECONDS,
    MARKS,
    GameAnalysis,
    analysis_batch,
    analyze_replay,
    player_summary,
)
from gridarena.arena.jobs import Job, run_jobs
from gridarena.arena.replay import read_replay
from gridarena.arena.store import Store, database_path
from gridarena.cli.help import examples
from gridarena.cli.jobs import StopOnTerminate, add_job_options, job_backend
from gridarena.cli.options import ROW_ID, seconds
from gridarena.cli.output import print_json, warn
from gridarena.cli.progress import ticker
from gridarena.core.errors import GridArenaError
from gridarena.core.types import JSON

SYMBOLS = {
    "blunder": "??",
    "mistake": "?",
    "inaccuracy": "?!",
    "slower": "(slower)",
    "faster": "(faster)",
    "wasted": "(wasted)",
}


class AnalyzeUsageError(GridArenaError, ValueError):
    """Options that do not fit together."""


def configure(parser: argparse.ArgumentParser) -> None:
    """The ``analyze`` options."""
    parser.epilog = examples(
        "gridarena analyze game.jsonl                       # every move's values and marks, per-player figures",
        "gridarena analyze game.jsonl --time 3 --json       # more time per position; the analysis as JSON",
        "gridarena analyze game.jsonl --html game.html      # the one-file viewer with the evaluation graph",
        "gridarena analyze --db runs.sqlite --tournament 1  # every stored game, kept in the database",
    )["epilog"]
    parser.add_argument("replay", nargs="?", help="a replay file (.jsonl, .json or .json.gz)")
    parser.add_argument(
        "--time",
        type=seconds(above=0, high=3600),
        default=DEFAULT_SECONDS,
        help=f"seconds per position (default {DEFAULT_SECONDS:g})",
    )
    parser.add_argument("--json", action="store_true", help="print the analysis as JSON on stdout")
    parser.add_argument("--html", metavar="OUT", help="write the one-file viewer with the evaluation graph")
    parser.add_argument("--db", help="a results database: with --tournament, analyse its stored games")
    parser.add_argument("--tournament", type=ROW_ID, help="the tournament of --db to analyse")
    add_job_options(parser, "games")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")


def run(args: argparse.Namespace) -> int:
    """Analyse the replay, or the tournament's games."""
    if args.tournament is not None or args.db is not None:
        if args.replay or args.html:
            raise AnalyzeUsageError(
                "give a REPLAY, or --db with --tournament (not both); --html is for one replay"
            )
        if args.tournament is None:
            raise AnalyzeUsageError("--db needs --tournament N")
        return run_tournament(args)
    if not args.replay:
        raise AnalyzeUsageError("give a REPLAY file, or --db DB --tournament N")
    replay = read_replay(args.replay, warn=warn)
    with ticker(args.quiet, "plies analysed", transient=True) as tick:
        analysis = analyze_replay(replay, args.time, progress=lambda done, plies: tick.update(done, plies))
    if args.html:
        write_html(args.replay, replay, analysis.to_json(), Path(args.html))
    if args.json:
        print_json(analysis.to_json())
    else:
        print(format_analysis(analysis))
    return 0


def format_analysis(analysis: GameAnalysis) -> str:
    """The analysis as text: one line per move, then each player's figures."""
    lines = [f"{analysis.game}: values are {_kind_text(analysis.kind)}"]
    for p in analysis.plies:
        symbol = SYMBOLS.get(p.mark or "", "")
        best = f"  (best {p.before.best})" if p.mark and p.before.best and p.before.best != p.action else ""
        name = analysis.names[p.player] if p.player < len(analysis.names) else str(p.player)
        lines.append(
            f"{p.ply + 1:>4} {name:<14} {p.action + symbol:<24} {p.before.text:>12} -> {p.after.text:<12}{best}"
        )
    lines.append("")
    for name, figures in analysis.players().items():
        marks = ", ".join(f"{counted} {figures[counted]}" for counted in MARKS.values() if figures[counted])
        lines.append(
            f"{name}: {figures['moves']} moves, {marks or 'no marks'}, loss per move {figures['loss_per_move']}"
        )
    if not analysis.complete:
        lines.append("(the time ran out before the end: later moves are not analysed)")
    return "\n".join(lines)


def _kind_text(kind: str) -> str:
    return {
        "result": "for the player to move: +1 won, -1 lost, estimates between",
        "distance": "slides still needed to the goal",
        "score": "the points best scores from here",
    }[kind]


def write_html(name: str, replay: Any, analysis: dict[str, JSON], out: Path) -> None:
    """The one-file viewer of the replay with the analysis inline."""
    from gridarena.web.frames import header_summary, view_of
    from gridarena.web.pages import export_html

    view = view_of(replay)
    payload = view.payload(kind="file", name=Path(name).name)
    payload["analysis"] = analysis
    try:
        out.write_text(export_html(header_summary(replay.header), payload, view.frames()), encoding="utf-8")
    except OSError as exc:
        raise GridArenaError(f"{out}: cannot write: {exc.strerror or exc}") from None
    print(f"{out}: the viewer with the evaluation graph; open it in a browser", file=sys.stderr)


def run_tournament(args: argparse.Namespace) -> int:
    """Analyse every stored game of the tournament (resuming), then print the per-player summary."""
    path = database_path(args.db)
    store = Store(path)
    try:
        tournament = store.tournament(args.tournament)
        batch = analysis_batch(tournament.id)
        done = store.job_results(batch)
        games = [g for g in store.games(tournament.id, done_only=False) if g["replay"]]
        remaining = [g for g in games if f"{g['block']}-{g['game']}" not in done]
        jobs = [
            Job(
                "gridarena.arena.analysis:analysis_job",
                f"{g['block']}-{g['game']}",
                {"replay": str(path.parent / str(g["replay"])), "seconds": args.time},
                index,
            )
            for index, g in enumerate(remaining)
        ]
        if jobs:
            backend = job_backend(args)
            finished = len(games) - len(remaining)

            def progress(job: Job, result: JSON) -> None:
                nonlocal finished
                finished += 1
                if not args.quiet:
                    print(
                        f"analysed game {job.name}: {finished} of {len(games)}", file=sys.stderr, flush=True
                    )

            try:
                with StopOnTerminate():
                    run_jobs(backend, store, batch, iter(jobs), progress)
            finally:
                backend.close()
        analyses = list(store.job_results(batch).values())
    finally:
        store.close()
    summary = player_summary(analyses)
    if args.json:
        print_json({"tournament": tournament.id, "games": len(analyses), "players": summary})
    else:
        print(format_summary(tournament.id, len(analyses), summary))
    return 0


def format_summary(tournament: int, games: int, summary: dict[str, dict[str, JSON]]) -> str:
    """Per player: games, moves, marks per game and the average loss per move."""
    lines = [f"tournament {tournament}: {games} games analysed", ""]
    header = f"{'player':<20} {'games':>5} {'moves':>6} {'blunders/g':>10} {'mistakes/g':>10} {'inacc./g':>9} {'wasted/g':>9} {'loss/move':>9}"
    lines.append(header)
    for name, row in summary.items():
        lines.append(
            f"{name:<20} {row['games']:>5} {row['moves']:>6} {row.get('blunders_per_game', 0):>10} "
            f"{row.get('mistakes_per_game', 0):>10} {row.get('inaccuracies_per_game', 0):>9} "
            f"{row.get('wasted_per_game', 0):>9} {row['loss_per_move']!s:>9}"
        )
    return "\n".join(lines)


__all__ = ["configure", "run"]
