"""Pentocity tools.

``gridarena pentocity sequence --sequencer random --seed 869 --count 8`` prints the request stream in the
format the tests compare with the Java sequencers' output (cells in Java's HashSet order).

``gridarena pentocity run --player best --sequencer random --seed 869`` plays single-player games and
prints the scores with their mean and 95 % interval. ``--seed X`` replays the request stream of seed X
``--repeats`` times (the player's seed changes); ``--seeds a,b,c`` plays one game per seed; without either,
``--repeats`` games get seeds derived from ``--master`` (drawn and printed when absent).

``gridarena pentocity tournament --players best`` plays players × sequencers × the ten 2016 seeds on a
pool of processes and prints our means beside the 2016 table.

Both run on the arena (one single-player tournament per sequencer, the Java simulator's CPU budget as a
``total`` time control on the CPU clock), in memory unless ``--db`` keeps the games in a database."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gridarena.arena import tournament as arena
from gridarena.arena.backends import Backend, InlineBackend, ProcessBackend
from gridarena.arena.seeds import new_master_seed, parse_seed_list, run_seed, to_java_long
from gridarena.arena.singleplayer import RunSummary, summarize_runs
from gridarena.arena.store import Store
from gridarena.arena.text import format_mean
from gridarena.cli.help import examples
from gridarena.cli.options import CONCURRENCY, SEED, count, seconds
from gridarena.cli.output import warn
from gridarena.core.errors import GridArenaError
from gridarena.core.registry import make_bot
from gridarena.core.specs import format_spec, split_players
from gridarena.core.types import JSON
from gridarena.games.pentocity.formats import request_line
from gridarena.games.pentocity.reference import REFERENCE_2016, SEEDS_2016
from gridarena.games.pentocity.rules import Pentocity
from gridarena.games.pentocity.sequencers import SEQUENCERS, entropy_seed, make_sequencer, take
from gridarena.games.pentocity.simulator import JAVA_CLOCK, JAVA_GRACE, time_control

Handler = Callable[[argparse.Namespace], int]


class UsageError(GridArenaError, ValueError):
    """A command-line value that is out of range."""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the ``pentocity`` subcommands (``sequence``; one subparser each, so more can follow)."""
    commands = parser.add_subparsers(dest="pentocity_command", metavar="COMMAND", required=True)
    sequence = commands.add_parser(
        "sequence",
        help="print the first requests of a sequencer",
        description="Print the first requests of a sequencer, seed-exact with the Java original.",
        **examples("gridarena pentocity sequence --sequencer random --seed 7 --count 5"),
    )
    sequence.add_argument(
        "--sequencer", required=True, metavar="NAME", help=f"one of: {', '.join(sorted(SEQUENCERS))}"
    )
    sequence.add_argument("--seed", type=SEED, help="Java seed (a signed 64-bit integer); drawn when absent")
    sequence.add_argument("--count", type=count(0, 10**6), default=8, help="number of requests (default 8)")
    sequence.add_argument("--json", action="store_true", help="print the requests as JSON on stdout")
    sequence.set_defaults(pentocity_handler=run_sequence)
    _configure_run(commands)
    _configure_tournament(commands)


def _configure_run(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    run_parser = commands.add_parser(
        "run",
        help="play single-player games: scores, mean and 95 %% interval",
        description="Play one player on one sequencer; print the scores, their mean and 95 % interval.",
        **examples("gridarena pentocity run --player best --sequencer random --repeats 3"),
    )
    run_parser.add_argument(
        "--player", required=True, metavar="SPEC", help="player spec, e.g. best or packer(shortlist=4)"
    )
    run_parser.add_argument(
        "--sequencer", default="random", metavar="NAME", help="sequencer (default random)"
    )
    seeds = run_parser.add_mutually_exclusive_group()
    seeds.add_argument("--seed", type=SEED, help="replay this request stream in every repeat")
    seeds.add_argument("--seeds", metavar="LIST", help="one game per seed of this comma-separated list")
    seeds.add_argument("--master", type=SEED, help="derive the repeats' seeds from this master seed")
    run_parser.add_argument("--repeats", type=count(high=10**6), default=1, help="games to play (default 1)")
    _common_options(run_parser, workers=1)
    run_parser.set_defaults(pentocity_handler=run_run)


def _configure_tournament(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    tournament = commands.add_parser(
        "tournament",
        help="players x sequencers x the 2016 seeds, beside the 2016 means",
        description="Play each player on each sequencer and seed; print our means beside the 2016 table.",
        **examples("gridarena pentocity tournament --players best,example --sequencers random,misfits"),
    )
    tournament.add_argument("--players", default="best", metavar="LIST", help="comma-separated player specs")
    tournament.add_argument(
        "--sequencers", default=",".join(REFERENCE_2016), metavar="LIST", help="default: the 14 of 2016"
    )
    tournament.add_argument(
        "--seeds", default=",".join(map(str, SEEDS_2016)), metavar="LIST", help="default: the ten 2016 seeds"
    )
    _common_options(tournament, workers=2)
    tournament.set_defaults(pentocity_handler=run_tournament)


def _common_options(parser: argparse.ArgumentParser, workers: int) -> None:
    parser.add_argument(
        "--workers", type=CONCURRENCY, default=workers, help=f"worker processes (default {workers})"
    )
    parser.add_argument(
        "--cpu-time",
        type=seconds(high=86400),
        default=300.0,
        help="CPU seconds per game, as Java's 300 (0: no limit)",
    )
    parser.add_argument(
        "--db",
        metavar="FILE",
        help="keep the games (and replays beside it) in this SQLite file (default: memory)",
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON on stdout")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")


def run(args: argparse.Namespace) -> int:
    """Run the chosen ``pentocity`` subcommand."""
    handler: Handler = args.pentocity_handler
    return handler(args)


def run_sequence(args: argparse.Namespace) -> int:
    """Print ``--count`` requests of ``--sequencer`` seeded with ``--seed``."""
    seed = args.seed
    if seed is None:
        seed = entropy_seed()
        print(f"seed: {seed}", file=sys.stderr)
    sequencer = make_sequencer(args.sequencer, seed)
    if sequencer.REPRODUCIBLE == "distribution":
        print(f"note: Java's {args.sequencer} ignores the seed; this stream is not Java's", file=sys.stderr)
    requests = take(sequencer, args.count)
    if args.json:
        entries = [
            {
                "index": n,
                "kind": b.kind.value,
                "shape": b.shape_name(),
                "rotations": len(b.rotations()),
                "cells": [list(c) for c in b.java_cells()],
            }
            for n, b in enumerate(requests, 1)
        ]
        print(json.dumps({"sequencer": args.sequencer, "seed": seed, "requests": entries}))
    else:
        for n, building in enumerate(requests, 1):
            print(request_line(n, building))
    return 0


def _check_sequencer(name: str) -> None:
    """UnknownNameError for a sequencer that does not exist (before any game starts)."""
    Pentocity(sequencer=name)


def run_seeds(args: argparse.Namespace) -> list[tuple[int, int]]:
    """(sequencer seed, player seed) of every game that ``run`` plays."""
    if args.seeds is not None:
        if args.repeats != 1:
            raise UsageError("--seeds plays one game per seed; leave out --repeats")
        return [(seed, seed) for seed in parse_seed_list(args.seeds)]
    if args.seed is not None:
        return [
            (args.seed, args.seed if i == 0 else to_java_long(run_seed(args.seed, i)))
            for i in range(args.repeats)
        ]
    master = args.master
    if master is None:
        master = new_master_seed()
        print(f"master seed: {master}", file=sys.stderr)
    derived = [to_java_long(run_seed(master, i)) for i in range(args.repeats)]
    return [(seed, seed) for seed in derived]


def _cpu_time(args: argparse.Namespace) -> float | None:
    return None if args.cpu_time <= 0 else float(args.cpu_time)


Row = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Run:
    """One stored game of a series: the sequencer seed, the player seed and the arena's game row."""

    seed: int
    bot_seed: int
    row: Row

    @property
    def score(self) -> int:
        """The points scored (also after a forfeit, which returns 0)."""
        return int(self.row["info"]["score"])

    @property
    def failed(self) -> str | None:
        """Why the game does not count (its termination), or None for a normal game."""
        return None if self.row["termination"] == "normal" else str(self.row["termination"])

    @property
    def seconds(self) -> float:
        """Wall-clock seconds the player took for its moves."""
        return float(self.row["time_stats"][0]["wall_ms"]) / 1000.0

    @property
    def cpu_seconds(self) -> float:
        """CPU seconds the player took for its moves (what the budget counts)."""
        return float(self.row["time_stats"][0]["cpu_ms"]) / 1000.0

    def to_json(self) -> dict[str, JSON]:
        """The game as ``pentocity run --json`` lists it."""
        return {
            "seed": self.seed,
            **self.row["info"],
            "returns": self.row["returns"],
            "termination": self.row["termination"],
            "reason": self.row["detail"],
            "cpu_seconds": self.cpu_seconds,
        }


def _backend(workers: int) -> Backend:
    return InlineBackend() if workers <= 1 else ProcessBackend(workers)


def play_series(
    args: argparse.Namespace,
    sequencer: str,
    players: list[str],
    runs: list[tuple[int, int]],
    backend: Backend,
    on_run: Callable[[Run], None],
) -> dict[str, list[Run]]:
    """Every player's games on ``sequencer`` for ``runs`` (sequencer seed, player seed), through the arena."""
    game = Pentocity(sequencer=sequencer, cpu_time=_cpu_time(args))
    config = arena.TournamentConfig(
        format_spec("pentocity", dict(game.params)),
        tuple(players),
        seed=0,  # the runs' seeds are all given: the master seed draws nothing
        run_seeds=tuple(seed for seed, _ in runs),
        run_bot_seeds=tuple(bot_seed for _, bot_seed in runs),
        time=time_control(game),
        clock=JAVA_CLOCK,
        grace=JAVA_GRACE,
    )
    store = Store(args.db or ":memory:")

    def stored(progress: arena.Progress) -> None:
        # A run's blocks are numbered round by round, one per player.
        on_run(Run(*runs[int(progress.last["block"]) // len(players)], progress.last))

    try:
        outcome = arena.run_tournament(config, store, backend, new=True, progress=stored, warn=warn)
        rows = {(r["seats"][0], r["round"]): r for r in store.games(outcome.tournament)}
    finally:
        store.close()
    return {name: [Run(*run, rows[(name, i)]) for i, run in enumerate(runs)] for name in config.names()}


def summarize(results: list[Run]) -> RunSummary:
    """The arena's single-player summary of finished games (an abnormal ending is a failed run)."""
    scores = [None if r.failed else float(r.score) for r in results]
    return summarize_runs(scores, [r.failed for r in results])


def run_run(args: argparse.Namespace) -> int:
    """Play ``--repeats`` games (or one per ``--seeds`` item) and print the scores with mean and CI."""
    _check_sequencer(args.sequencer)
    make_bot(Pentocity(sequencer=args.sequencer), args.player)  # a bad spec fails before any game
    runs = run_seeds(args)

    done = 0

    def show(run: Run) -> None:
        nonlocal done
        done += 1
        if not args.quiet:
            print(
                f"game {done}/{len(runs)}: seed {run.seed} score {run.score} "
                f"({run.row['termination']}, {run.seconds:.1f} s)",
                file=sys.stderr,
            )

    backend = _backend(args.workers)
    try:
        (results,) = play_series(args, args.sequencer, [args.player], runs, backend, show).values()
    finally:
        backend.close()
    summary = summarize(results)
    if args.json:
        print(json.dumps(_run_json(args, results, summary)))
    else:
        print(f"{args.player} on {args.sequencer}: {format_mean(summary)}")
        print("scores: " + " ".join(str(r.score) for r in results))
    return 0 if not summary.failures else 1


def _run_json(args: argparse.Namespace, results: list[Run], summary: RunSummary) -> dict[str, object]:
    data: dict[str, object] = {"player": args.player, "sequencer": args.sequencer}
    data.update(summary.to_json())
    data["seeds"] = [r.seed for r in results]
    data["bot_seeds"] = [r.bot_seed for r in results]
    data["seconds"] = [round(r.seconds, 3) for r in results]
    data["games"] = [r.to_json() for r in results]
    return data


def run_tournament(args: argparse.Namespace) -> int:
    """Play players × sequencers × seeds and print our means beside the 2016 ones."""
    players = split_players(args.players)
    sequencers = [s.strip() for s in args.sequencers.split(",") if s.strip()]
    seeds = parse_seed_list(args.seeds)
    for name in sequencers:
        _check_sequencer(name)
    for player in players:
        make_bot(Pentocity(), player)

    cells: dict[tuple[str, str], list[Run]] = {}
    names: list[str] = []
    backend = _backend(args.workers)
    try:
        for sequencer in sequencers:
            found = play_series(args, sequencer, players, [(s, s) for s in seeds], backend, lambda run: None)
            names = list(found)  # the players' names (a long spec is shown by a short one)
            for name in names:
                cells[(sequencer, name)] = found[name]
                if not args.quiet:
                    mean = summarize(found[name]).mean
                    shown = mean if mean is None else round(mean, 1)
                    print(f"{name} on {sequencer}: mean {shown}", file=sys.stderr)
    finally:
        backend.close()
    table = {key: summarize(results) for key, results in cells.items()}
    if args.json:
        data = _tournament_json(names, sequencers, seeds, cells, table)
        print(json.dumps({**data, "specs": dict(zip(names, players, strict=True))}))
    else:
        for line in tournament_table(names, sequencers, table):
            print(line)
    return 0 if not any(s.failures for s in table.values()) else 1


def _tournament_json(
    players: list[str],
    sequencers: list[str],
    seeds: tuple[int, ...],
    cells: dict[tuple[str, str], list[Run]],
    table: dict[tuple[str, str], RunSummary],
) -> dict[str, object]:
    rows = []
    for sequencer in sequencers:
        reference = REFERENCE_2016.get(sequencer)
        row: dict[str, object] = {
            "sequencer": sequencer,
            "best_2016": None if reference is None else reference.best,
            "best_2016_player": None if reference is None else reference.group,
            "mean_2016": None if reference is None else reference.players_mean,
        }
        row["players"] = {p: _cell_json(table[(sequencer, p)], cells[(sequencer, p)]) for p in players}
        rows.append(row)
    return {"players": players, "seeds": list(seeds), "rows": rows}


def _cell_json(summary: RunSummary, results: list[Run]) -> dict[str, object]:
    """One player's cell: the run summary plus the slowest game in wall-clock and in CPU seconds."""
    return {
        **summary.to_json(),
        "max_seconds": max(r.seconds for r in results),
        "max_cpu_seconds": max(r.cpu_seconds for r in results),
    }


def tournament_table(
    players: list[str], sequencers: list[str], table: dict[tuple[str, str], RunSummary]
) -> list[str]:
    """The text table: one row per sequencer, our mean ± half-width per player, then the 2016 figures.

    >>> t = {("g6", "x"): summarize_runs([2901.0, 2903.0])}
    >>> print("\\n".join(tournament_table(["x"], ["g6"], t)))
    sequencer                          x   2016 best  (group)   2016 mean
    g6                     2902.0 ± 12.7        2900     (g6)        1988
    """
    header = f"{'sequencer':<18}" + "".join(f"{p:>18}" for p in players)
    lines = [header + f"{'2016 best':>12}{'(group)':>9}{'2016 mean':>12}"]
    for sequencer in sequencers:
        line = f"{sequencer:<18}"
        for player in players:
            summary = table[(sequencer, player)]
            if summary.mean is None:
                line += f"{'-':>18}"
            else:
                half = "" if summary.halfwidth is None else f" ± {summary.halfwidth:.1f}"
                line += f"{summary.mean:.1f}{half}".rjust(18)
        reference = REFERENCE_2016.get(sequencer)
        if reference is not None:
            line += f"{reference.best:>12.0f}{'(' + reference.group + ')':>9}{reference.players_mean:>12.0f}"
        lines.append(line)
    return lines
