"""Ice and Fire: one bot against a sparring pool, seed by seed in both seats, at CodinGame's clock.

For each opponent of ``--pool`` (bot specs of the registry, ``name=command`` for a program behind the
CodinGame protocol, e.g. ``roout=/work/ext/roout/roout``, or the name of one of :data:`PROGRAMS`, the
public contest bots built outside the repository under ``--ext``: docs/iceandfire.md says how;
``programs`` stands for all of them and ``styles`` for our sparring styles) the bot plays
``--seeds`` maps (seeds ``--first-seed``, ``--first-seed + 1``, ...) twice, once in each seat, on the
arena's loop with a ``--time`` control (default CodinGame's ``1/0.05``: 1 s for the first turn,
50 ms after) on the ``--clock`` (``cpu`` by default: each bot charged and stopped by its own CPU
time, so the machine's load changes no verdict). It prints, per opponent, the games won (and won in
each seat: red moves first), lost and drawn, the score with its Wilson 95 % interval, how the losses
came (HQ taken on which turns, on points, forfeits) and the bot's turn times (p50 and p99 of CPU and
wall, first turns apart), then the whole pool's total, and the Elo of the bot against each opponent
with its 95 % interval (the pentanomial model: the two seats of a seed are a pair). ``--economy`` adds both sides' income, gold and
units' levels at the start of the bot's turns 4-16, won and lost games apart (where the lost ones
fall behind). ``--json FILE`` also writes every game, with those figures at every turn.

``--baseline SPEC`` makes it an SPRT of the bot against a baseline over the whole pool: seed after
seed, both play every opponent in both seats, and each game of the bot is scored against the
baseline's game of the same opponent, seed and seat (1 if only the bot won, 0 if only the baseline
did, ½ otherwise); the two seats of a seed form a pair, and after each seed the SPRT
(``gridarena.arena.sprt``, ``--sprt elo0,elo1`` in normalized Elo) decides or plays on, up to
``--seeds``; with ``--play-on`` every seed is played and the verdict says after which seed the SPRT
decided. Below the two bots' tables, the bot against the baseline game by game, per opponent: the
pairs' counts and the paired Elo with its 95 % interval.

Ctrl-C stops a run and prints the tables (and writes ``--json``) of the games played so far (with
``--baseline``, of the seeds played whole), then exits with 130.

    /work/bin/onecore .venv/bin/python benchmarks/iceandfire_strength.py --bot best \\
        --pool wood1,postmortem,pusher --seeds 20
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from gridarena.arena.counts import Pentanomial
from gridarena.arena.elo import figures
from gridarena.arena.intervals import wilson_interval
from gridarena.arena.sprt import SprtConfig, sprt
from gridarena.bots.external import ExternalBot
from gridarena.core.gameclock import game_clock
from gridarena.core.play import play_game
from gridarena.core.registry import make, make_bot
from gridarena.core.specs import split_players

#: Public contest bots, built outside the repository (docs/iceandfire.md), by name: the command that
#: runs each, ``{ext}`` standing for ``--ext``, and the file that must exist.
PROGRAMS: dict[str, tuple[str, str]] = {
    "turpif": ("java -Xss64m -cp {ext}/turpif/build Player", "{ext}/turpif/build/Player.class"),
    "roout": ("{ext}/roout/roout", "{ext}/roout/roout"),
    "akragan": ("{ext}/akragan/akragan", "{ext}/akragan/akragan"),
    "cigfire": ("python3 {ext}/cigfire/codefinal.py", "{ext}/cigfire/codefinal.py"),
    "vkandoba": ("mono {ext}/vkandoba/bot.exe", "{ext}/vkandoba/bot.exe"),
    "brendan": ("mono {ext}/brendangiraudet/bot.exe", "{ext}/brendangiraudet/bot.exe"),
    "waimanwong": ("mono {ext}/waimanwong/bot.exe", "{ext}/waimanwong/bot.exe"),
    "morozec": ("mono {ext}/morozec/bot.exe", "{ext}/morozec/bot.exe"),
}

#: Our sparring styles (the registry's bots), for ``--pool styles``.
STYLES = (
    "wood1",
    "climber",
    "postmortem",
    "postmortem(perturb=0.3,variant=3)",
    "pusher",
    "pusher(cuts=1,guard=1)",
)

EXT = "/work/ext"


def expand_pool(pool: str, ext: str) -> list[str]:
    """The opponents of ``--pool``: ``programs`` and ``styles`` expanded, program names resolved to
    ``name=command``; a program not built is one line naming it (SystemExit)."""
    specs: list[str] = []
    for spec in split_players(pool):
        if spec == "programs":
            specs.extend(expand_pool(",".join(PROGRAMS), ext))
        elif spec == "styles":
            specs.extend(STYLES)
        elif spec in PROGRAMS:
            command, needed = (text.format(ext=ext) for text in PROGRAMS[spec])
            if not os.path.exists(needed):
                raise SystemExit(f"--pool {spec}: {needed} is missing; build it as docs/iceandfire.md says")
            specs.append(f"{spec}={command}")
        else:
            specs.append(spec)
    return specs


def program_of(spec: str) -> tuple[str, str] | None:
    """``(name, command)`` of a ``name=command`` spec, a program over the CodinGame protocol; None for
    a registry bot (whose settings may hold ``=`` inside its parentheses)."""
    name, equals, command = spec.partition("=")
    return (name, command) if equals and "(" not in name else None


def opponent(game: Any, spec: str) -> Any:
    """A registry bot, or ``name=command``: a program over the CodinGame protocol."""
    program = program_of(spec)
    if program is not None:
        name, command = program
        return ExternalBot(command, name=name, protocol="codingame")
    return make_bot(game, spec)


def label(spec: str) -> str:
    program = program_of(spec)
    return spec if program is None else program[0]


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank quantile (0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))]


class Economy:
    """A recorder of both sides' income, gold and units' levels at the start of each turn of ``seat``:
    rows of (turn, income, the opponent's, gold, the opponent's, levels, the opponent's)."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.rows: list[list[int]] = []

    def turn(self, turn: Any, state: Any) -> None:
        if state.result is None and state.player == self.seat:
            sides = (self.seat, 1 - self.seat)
            levels = [sum(u.level for u in state.units if u.owner == p) for p in sides]
            self.rows.append(
                [state.turn, *(state.income[p] for p in sides), *(state.gold[p] for p in sides), *levels]
            )

    def result(self, record: Any) -> None:
        pass


def play_one(
    game: Any, args: argparse.Namespace, bot: str, spec: str, seed: int, seat: int
) -> dict[str, Any]:
    """One game of ``bot`` against the opponent ``spec`` on ``seed`` in ``seat``, as a JSON row."""
    ours, theirs = make_bot(game, bot), opponent(game, spec)
    bots = [ours, theirs] if seat == 0 else [theirs, ours]
    clock = game_clock(args.time, 2, clock=args.clock)
    economy = Economy(seat)
    economy.turn(None, game.new_initial_state(seed=seed))  # red's first turn: a recorder sees only later ones
    try:
        record = play_game(game, bots, seed=seed, names=["a", "b"], clock=clock, recorders=[economy])
    finally:
        if hasattr(theirs, "close"):
            theirs.close()
    returns = record.outcome.returns
    result = "draw" if returns[0] == returns[1] else "win" if returns[seat] > 0 else "loss"
    mine = [t for t in record.turns if t.player == seat]
    row = {
        "bot": bot,
        "opponent": label(spec),
        "seed": seed,
        "seat": seat,
        "result": result,
        "termination": record.outcome.termination,
        "reason": record.outcome.reason,
        "forfeit": record.outcome.forfeit_player,
        "turns": record.final_state.result_info().get("turns"),
        "cpu_ms": [t.cpu_ms for t in mine[1:]],
        "wall_ms": [t.wall_ms for t in mine[1:]],
        "economy": economy.rows,
    }
    return row


def played(args: argparse.Namespace, games: list[dict[str, Any]], row: dict[str, Any]) -> None:
    """Keep a game, then say so on stderr (in this order: a game said to be played is in the tables,
    whenever Ctrl-C comes)."""
    games.append(row)
    if not args.quiet:
        print(
            f"{row['bot']} v {row['opponent']} seed {row['seed']} seat {row['seat']}: {row['result']} ({row['reason']})",
            file=sys.stderr,
        )


def interrupted(args: argparse.Namespace, count: int, done: str, first: str) -> None:
    """Ctrl-C: the run stops and its tables show the ``count`` games (or seeds) played so far,
    ``done`` (``args.interrupted``); with none, it says that nothing is shown or written, as
    "before the first ``first``"."""
    args.interrupted = True
    if count:
        print(f"interrupted: the tables below are of the {done}", file=sys.stderr)
    else:
        print(f"interrupted before the first {first}: no table, no --json file", file=sys.stderr)


def play_pool(args: argparse.Namespace) -> list[dict[str, Any]]:
    game = make("iceandfire", rules=args.rules, league=args.league)
    games: list[dict[str, Any]] = []
    try:
        for spec in expand_pool(args.pool, args.ext):
            for k in range(args.seeds):
                for seat in (0, 1):
                    played(args, games, play_one(game, args, args.bot, spec, args.first_seed + k, seat))
    except KeyboardInterrupt:
        count = len(games)
        interrupted(args, count, f"{count} game{'s' * (count != 1)} played", "game ended")
    return games


POINTS = {"win": 1.0, "draw": 0.5, "loss": 0.0}


def paired(ours: dict[str, Any], base: dict[str, Any]) -> float:
    """The bot's game against the baseline's (same opponent, seed and seat): 1, ½ or 0."""
    return 0.5 + (POINTS[ours["result"]] - POINTS[base["result"]]) / 2


def play_sprt(args: argparse.Namespace) -> tuple[list[dict[str, Any]], list[dict[str, Any]], str]:
    """The SPRT of ``--bot`` against ``--baseline`` over the pool (see the module docstring): both
    bots' games and the verdict line."""
    game = make("iceandfire", rules=args.rules, league=args.league)
    elo0, elo1 = (float(x) for x in args.sprt.split(","))
    config = SprtConfig(elo0, elo1)
    specs = expand_pool(args.pool, args.ext)
    ours: list[dict[str, Any]] = []
    base: list[dict[str, Any]] = []
    pairs: list[tuple[float, float]] = []
    verdict, decided = "no decision", ""
    for k in range(args.seeds):
        seed = args.first_seed + k
        try:
            for spec in specs:
                two = []
                for seat in (0, 1):
                    played(args, ours, play_one(game, args, args.bot, spec, seed, seat))
                    played(args, base, play_one(game, args, args.baseline, spec, seed, seat))
                    two.append(paired(ours[-1], base[-1]))
                pairs.append((two[0], two[1]))
        except KeyboardInterrupt:  # the SPRT counts whole seeds: the games of this one are dropped
            whole = k * len(specs)
            del pairs[whole:], ours[2 * whole :], base[2 * whole :]
            interrupted(
                args,
                k,
                f"{k} seed{'s' * (k != 1)} played whole ({len(pairs)} pairs); seed {seed} is left out",
                "seed was played whole",
            )
            break
        penta = Pentanomial.from_pairs(pairs)
        result = sprt(config, penta)
        verdict = (
            f"SPRT [{elo0:g}, {elo1:g}] nElo after {k + 1} seeds ({len(pairs)} pairs, {penta.counts}): "
            f"LLR {result.llr:.2f} in ({result.bounds[0]:.2f}, {result.bounds[1]:.2f}), "
            f"{'H1: the bot is better' if result.decision == 'H1' else 'H0: not better' if result.decision == 'H0' else 'no decision'}"
        )
        if not args.quiet:
            print(verdict, file=sys.stderr)
        if result.decision is not None and not decided:
            decided = verdict
            if not args.play_on:
                break
    if decided and decided != verdict:
        verdict = f"{decided}; played on: {verdict.removeprefix(f'SPRT [{elo0:g}, {elo1:g}] nElo ')}"
    return ours, base, verdict


def paired_rows(ours: list[dict[str, Any]], base: list[dict[str, Any]]) -> list[tuple[str, ...]]:
    """Per opponent and for all: the bot's games scored against the baseline's (:func:`paired`),
    the two seats of a seed as a pair: pairs, their counts, games only one of the two won, Elo."""
    theirs = {(g["opponent"], g["seed"], g["seat"]): g for g in base}
    scored = [
        (g["opponent"], g["seed"], g["seat"], paired(g, theirs[key]))
        for g in ours
        if (key := (g["opponent"], g["seed"], g["seat"])) in theirs
    ]
    rows: list[tuple[str, ...]] = []
    names = list(dict.fromkeys(s[0] for s in scored))
    for name in [*names, "all"]:
        by_seed: dict[tuple[str, int], dict[int, float]] = {}
        for opp, seed, seat, point in scored:
            if name in ("all", opp):
                by_seed.setdefault((opp, seed), {})[seat] = point
        pairs = [(p[0], p[1]) for p in by_seed.values() if len(p) == 2]
        points = [v for p in by_seed.values() for v in p.values()]
        f = figures(Pentanomial.from_pairs(pairs))
        elo = "?" if f.elo is None else f"{f.elo:+.0f}"
        low = "-inf" if f.elo_low is None else f"{f.elo_low:+.0f}"
        high = "+inf" if f.elo_high is None else f"{f.elo_high:+.0f}"
        rows.append(
            (
                name,
                str(len(pairs)),
                " ".join(map(str, Pentanomial.from_pairs(pairs).counts)),
                str(points.count(1.0)),
                str(points.count(0.0)),
                f"{elo} [{low}, {high}]",
            )
        )
    return rows


def elo_text(chosen: list[dict[str, Any]]) -> str:
    """Elo of the bot against these games' opponents, pairs by seed (both seats), with its interval."""
    by_seed: dict[tuple[str, int], dict[int, float]] = {}
    for g in chosen:
        by_seed.setdefault((g["opponent"], g["seed"]), {})[g["seat"]] = POINTS[g["result"]]
    pairs = [(p[0], p[1]) for p in by_seed.values() if len(p) == 2]
    if not pairs:
        return ""
    f = figures(Pentanomial.from_pairs(pairs))

    def show(x: float | None, none: str) -> str:
        return none if x is None else f"{x:+.0f}"

    return f"{show(f.elo, '?')} [{show(f.elo_low, '-inf')}, {show(f.elo_high, '+inf')}]"


def hq_text(turns: list[int]) -> str:
    """The games lost with the HQ: how many, and on which turns (from eight on, the range and median:
    a run of hundreds of games would widen the table past reading)."""
    if not turns:
        return "0"
    if len(turns) < 8:
        return f"{len(turns)} (turns {', '.join(map(str, turns))})"
    return f"{len(turns)} (turns {min(turns)}-{max(turns)}, median {statistics.median(turns):g})"


def summary_rows(games: list[dict[str, Any]]) -> list[tuple[str, ...]]:
    rows: list[tuple[str, ...]] = []
    names = list(dict.fromkeys(g["opponent"] for g in games))
    for name in [*names, "all"]:
        chosen = [g for g in games if name == "all" or g["opponent"] == name]
        # The seats apart: red moves first, and a bot's two seats can differ far beyond the noise.
        seats = [[g for g in chosen if g["seat"] == seat] for seat in (0, 1)]
        wins = [sum(g["result"] == "win" for g in s) for s in seats]
        won = sum(wins)
        by_seat = " / ".join(f"{w} of {len(s)}" for w, s in zip(wins, seats, strict=True))
        lost = sum(g["result"] == "loss" for g in chosen)
        drawn = len(chosen) - won - lost
        score = (won + 0.5 * drawn) / len(chosen)
        low, high = wilson_interval(score, len(chosen))
        hq = sorted(g["turns"] for g in chosen if g["result"] == "loss" and "HQ" in g["reason"])
        forfeits = sum(1 for g in chosen if g["termination"] not in ("normal",))
        cpu = [v for g in chosen for v in g["cpu_ms"]]
        wall = [v for g in chosen for v in g["wall_ms"]]
        rows.append(
            (
                name,
                str(len(chosen)),
                str(won),
                by_seat,
                str(lost),
                str(drawn),
                f"{100 * score:.1f} %",
                f"{100 * low:.1f}-{100 * high:.1f} %",
                hq_text(hq),
                str(forfeits),
                f"{statistics.median(cpu):.1f} / {percentile(cpu, 0.99):.1f}" if cpu else "",
                f"{statistics.median(wall):.1f} / {percentile(wall, 0.99):.1f}" if wall else "",
                elo_text(chosen),
            )
        )
    return rows


#: The turns at which ``--economy`` shows the two sides.
ECONOMY_TURNS = (4, 8, 10, 12, 16)


def economy_rows(games: list[dict[str, Any]]) -> list[tuple[str, ...]]:
    """Per result (won, lost) and turn of :data:`ECONOMY_TURNS`: the games still going and the means of
    both sides' income, gold and units' levels at the start of the bot's turn."""
    rows: list[tuple[str, ...]] = []
    for result in ("win", "loss"):
        chosen = [g for g in games if g["result"] == result]
        for turn in ECONOMY_TURNS:
            at = [r for g in chosen for r in g["economy"] if r[0] == turn]
            if not at:
                continue
            mean = [statistics.fmean(r[k] for r in at) for k in range(1, 7)]
            rows.append(
                (
                    "won" if result == "win" else "lost",
                    str(turn),
                    f"{len(at)} of {len(chosen)}",
                    *(f"{mean[k]:.1f} v {mean[k + 1]:.1f}" for k in (0, 2, 4)),
                )
            )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--bot", default="best", help="the bot measured (a registry spec)")
    parser.add_argument("--pool", default="wood1,postmortem,pusher", help="opponents, comma-separated")
    parser.add_argument("--seeds", type=int, default=10, help="maps per opponent (each played in both seats)")
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--time", default="1/0.05", help="the time control (default CodinGame's 1/0.05)")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    parser.add_argument("--rules", default="contest")
    parser.add_argument("--league", default="bronze")
    parser.add_argument("--json", metavar="FILE", help="write every game to FILE")
    parser.add_argument("--quiet", action="store_true", help="no line per game on stderr")
    parser.add_argument("--ext", default=EXT, help="where the public contest bots were built")
    parser.add_argument("--baseline", help="an SPRT of --bot against this bot over the pool")
    parser.add_argument("--sprt", default="0,10", help="the SPRT's elo0,elo1 (normalized Elo)")
    parser.add_argument("--play-on", action="store_true", help="with --baseline: play every seed")
    parser.add_argument(
        "--economy",
        action="store_true",
        help="also the two sides' income, gold and units' levels at turns 4-16, won and lost games apart",
    )
    args = parser.parse_args()
    args.interrupted = False
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    start = time.perf_counter()
    verdict = ""
    base: list[dict[str, Any]] = []
    ours: list[dict[str, Any]] = []
    if args.baseline:
        ours, base, verdict = play_sprt(args)
        games = ours + base
    else:
        games = play_pool(args)
    if not games and args.interrupted:
        sys.exit(130)
    pairs = paired_rows(ours, base) if args.baseline else []
    print(
        f"{args.bot} against {args.pool}: {args.seeds} seeds from {args.first_seed}, both seats, {args.time} "
        f"on the {args.clock} clock; load average {load} before, "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} after; {time.perf_counter() - start:.0f} s"
    )
    if verdict:
        print(verdict)
    header = (
        "opponent",
        "games",
        "won",
        "as red / blue",
        "lost",
        "drawn",
        "score",
        "Wilson 95 %",
        "HQ lost",
        "forfeits",
        "turn CPU p50/p99 ms",
        "turn wall p50/p99 ms",
        "Elo [95 %]",
    )
    for bot in dict.fromkeys(g["bot"] for g in games):
        if args.baseline:
            print(f"\n{bot}:")
        print("| " + " | ".join(header) + " |")
        print("|" + " --- |" * len(header))
        for row in summary_rows([g for g in games if g["bot"] == bot]):
            print("| " + " | ".join(row) + " |")
    if args.baseline:
        print(f"\n{args.bot} against {args.baseline}, game by game:")
        print(
            "| opponent | pairs | LL LD DD+WL WD WW | only the bot won | only the baseline won | Elo [95 %] |"
        )
        print("|" + " --- |" * 6)
        for row in pairs:
            print("| " + " | ".join(row) + " |")
    if args.economy:
        for bot in dict.fromkeys(g["bot"] for g in games):
            print(f"\n{bot}, at the start of its turns (means; ours v the opponent's):")
            print("| result | turn | games going on | income | gold | units' levels |")
            print("|" + " --- |" * 6)
            for row in economy_rows([g for g in games if g["bot"] == bot]):
                print("| " + " | ".join(row) + " |")
    if args.json:
        Path(args.json).write_text(json.dumps(games, indent=1))
    if args.interrupted:
        sys.exit(130)


if __name__ == "__main__":
    main()
