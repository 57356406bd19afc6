"""Ice and Fire: `best`'s judge against the games themselves, turn by turn.

``best`` chooses each turn among a few variant turns by the value its judge gives them (a rollout of
modelled replies). This checks that choice against what the games say: it plays ``--bot`` against
``--opponent`` on ``--seeds`` maps in both seats (1/0.05 on the CPU clock, as
``iceandfire_strength.py``), keeps the position at the start of each of the bot's turns in
``--turns`` and every variant the judge weighed there, and then plays each variant out: from the
position after it, a fresh ``--bot`` against a fresh ``--opponent`` to the end, ``--replays`` times.
A variant's outcome is the share of those games the bot won. It prints one row:

* how often the judge's pick won, against the mean of the other variants of the same position (the
  difference with a 95 % interval by bootstrap over whole games, whose positions are not
  independent), and how many pairs of variants the judge orders as the outcomes do or the other way;
* how many lost games had, at some turn of the window, another variant whose replays the bot won
  (at least three in four), and how many won games had one that lost every replay;
* how many variants' replays all ended alike (all won or all lost): how far a position with its
  variant decides the game, given the two programs.

An opponent is anything ``iceandfire_strength.py --pool`` takes: a registry bot, the name of a public
program of its ``PROGRAMS`` table (built under ``--ext``), or ``name=command``. A program is started
in mid-game by first giving it the seed's opening (its initial input and its first turn's, its
answer dropped), then the position's input: some programs (``morozec``) build their tables on their
first turn only and fail on a later first turn.

    /work/bin/onecore .venv/bin/python benchmarks/iceandfire_oracle.py --opponent morozec \\
        --seeds 30 --first-seed 1 --turns 5-11 --replays 2 --json oracle.json

``--json FILE`` writes every position with its variants, their values and outcomes, after each
position (a stopped run keeps what it did). Ctrl-C stops the run and prints the row of the
positions done.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import iceandfire_strength as strength

from gridarena.bots.external import ExternalBot
from gridarena.core.gameclock import game_clock
from gridarena.core.play import play_game
from gridarena.core.registry import make, make_bot
from gridarena.core.specs import split_players
from gridarena.games.iceandfire.ai.best import BestBot

#: A variant whose replays the bot won at least this share of counts as winning.
WINNING = 0.75


class MidGameProgram(ExternalBot):
    """A CodinGame program started in mid-game: before the position's input it gets ``opening`` (the
    initial input and the input of its first turn of the same seed), and its answer is dropped, so
    that what it builds on its first turn is built from the map's start."""

    def __init__(self, command: str, name: str, opening: str) -> None:
        super().__init__(command, name=name, protocol="codingame")
        self.opening = opening

    def _act_codingame(self, state: Any, deadline: float) -> Any:
        if self._turns == 0:  # the initial input goes with the opening, not again with the position
            self._write(self.opening.encode(), deadline, "the opening")
            self._readline(deadline, "the opening")
            self._turns = 1
        return super()._act_codingame(state, deadline)


class Starts:
    """A recorder of the states at the start of ``seat``'s turns (``first``: the game's first state)."""

    def __init__(self, seat: int, first: Any) -> None:
        self.seat = seat
        self.states = [first] if first.player == seat and first.result is None else []

    def turn(self, turn: Any, state: Any) -> None:
        if state.result is None and state.player == self.seat:
            self.states.append(state)

    def result(self, record: Any) -> None:
        pass


def opening_text(game: Any, seed: int, seat: int) -> str:
    """What the opponent of ``seat`` reads on its first turn of ``seed`` (red moves first: blue's
    first turn follows red's, taken here as a WAIT)."""
    state = game.new_initial_state(seed=seed)
    if seat == 0:
        state = state.apply_action(state.string_to_action("WAIT"))
    return str(state.codingame_init(1 - seat) + state.codingame_turn(1 - seat))


def opponent(game: Any, spec: str, seed: int, seat: int, mid_game: bool) -> Any:
    """The opponent of ``seat``: a registry bot, or a program (:class:`MidGameProgram` when the game
    starts in mid-game)."""
    program = strength.program_of(spec)
    if mid_game and program is not None:
        name, command = program
        return MidGameProgram(command, name, opening_text(game, seed, seat))
    return strength.opponent(game, spec)


def play_from(
    game: Any,
    state: Any,
    bot: str,
    spec: str,
    seed: int,
    seat: int,
    log: list[Any] | None = None,
    replay: int = 0,
) -> tuple[bool, list[Any]]:
    """``bot`` in ``seat`` against ``spec`` from ``state``, a position of the map ``seed``, to the end:
    whether the bot won, and the states at the start of its turns (``log``: the bot's judged
    variants, a list per turn; ``replay``: which replay, for the bots' seeds)."""
    ours = make_bot(game, bot)
    if log is not None:
        if not isinstance(ours, BestBot):
            raise SystemExit(f"--bot {bot}: not a best(...) bot, so it has no judged variants")
        ours.variant_log = log
    mid_game = state.ply > 0
    theirs = opponent(game, spec, seed, seat, mid_game)
    bots = [ours, theirs] if seat == 0 else [theirs, ours]
    starts = Starts(seat, state)
    try:
        record = play_game(
            game,
            bots,
            seed=seed * 1000 + replay,
            names=["a", "b"],
            clock=game_clock("1/0.05", 2, clock="cpu"),
            state=state,
            recorders=[starts],
        )
    finally:
        if hasattr(theirs, "close"):
            theirs.close()
    return record.outcome.returns[seat] > record.outcome.returns[1 - seat], starts.states


def positions_of(
    game: Any, bot: str, spec: str, seed: int, seat: int, low: int, high: int
) -> tuple[bool, list[Any]]:
    """One game: whether the bot won, and its turns in ``low``-``high`` with two or more distinct
    variants judged: (state, [(commands, value)], the commands played)."""
    log: list[list[tuple[list[str], float]]] = []
    won, states = play_from(game, game.new_initial_state(seed=seed), bot, spec, seed, seat, log)
    chosen = []
    for state, judged in zip(states, log, strict=False):  # a forfeit may end the game between the two
        if not low <= state.turn <= high:
            continue
        variants: dict[tuple[str, ...], float] = {}
        for commands, value in judged:
            variants.setdefault(tuple(commands), value)
        if len(variants) >= 2:
            played = max(variants, key=lambda c: variants[c])  # the first of equals, as the bot chose
            chosen.append((state, variants, played))
    return won, chosen


def replay(
    game: Any,
    args: argparse.Namespace,
    spec: str,
    seed: int,
    seat: int,
    state: Any,
    variants: dict[tuple[str, ...], float],
    played: tuple[str, ...],
) -> list[dict[str, Any]]:
    """Each variant played out ``--replays`` times from the position after it."""
    rows = []
    for commands, value in variants.items():
        after = state.apply_action(state.string_to_action(";".join(commands) or "WAIT"))
        if after.is_terminal():  # the variant takes the HQ: nothing to play out
            returns = after.outcome().returns
            wins = args.replays * (returns[seat] > returns[1 - seat])
        else:
            wins = sum(
                play_from(game, after, args.bot, spec, seed, seat, replay=r + 1)[0]
                for r in range(args.replays)
            )
        rows.append({"commands": list(commands), "value": value, "won": wins, "chosen": commands == played})
    return rows


def summary(
    positions: list[dict[str, Any]], results: dict[tuple[int, int], bool], rng: random.Random
) -> tuple[str, ...]:
    """One opponent's row of the table."""
    games: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for p in positions:
        games.setdefault((p["seed"], p["seat"]), []).append(p)
    won_games = {k for k, won in results.items() if won}
    lost_games = len(results) - len(won_games)

    def rates(ps: list[dict[str, Any]]) -> list[tuple[float, float]]:
        out = []
        for p in ps:
            share = [(v["won"] / p["replays"], v["chosen"]) for v in p["variants"]]
            picked = [s for s, c in share if c]
            others = [s for s, c in share if not c]
            if picked and others:
                out.append((picked[0], statistics.fmean(others)))
        return out

    by_game = {k: rates(ps) for k, ps in games.items()}

    def difference(keys: list[tuple[int, int]]) -> float:
        pairs = [pair for k in keys for pair in by_game[k]]
        return statistics.fmean(a - b for a, b in pairs) if pairs else 0.0

    pairs = rates(positions)
    keys = list(games)
    boot = sorted(difference([rng.choice(keys) for _ in keys]) for _ in range(2000))
    agree = disagree = 0
    for p in positions:
        vs = p["variants"]
        for a in vs:
            for b in vs:
                if a["value"] > b["value"]:
                    agree += a["won"] > b["won"]
                    disagree += a["won"] < b["won"]
    variants = sum(len(p["variants"]) for p in positions)
    decided = sum(1 for p in positions for v in p["variants"] if v["won"] in (0, p["replays"]))
    lost_saved = sum(
        1
        for k, ps in games.items()
        if not results[k]
        and any(not v["chosen"] and v["won"] >= WINNING * p["replays"] for p in ps for v in p["variants"])
    )
    won_risked = sum(
        1
        for k in won_games
        if any(not v["chosen"] and v["won"] == 0 for p in games.get(k, []) for v in p["variants"])
    )
    picked = statistics.fmean(a for a, _ in pairs) if pairs else 0.0
    others = statistics.fmean(b for _, b in pairs) if pairs else 0.0
    return (
        positions[0]["opponent"],
        f"{len(results)} ({lost_games} lost)",
        str(len(positions)),
        f"{picked:.3f}",
        f"{others:.3f}",
        f"{picked - others:+.3f} [{boot[50]:+.3f}, {boot[1949]:+.3f}]",
        f"{agree} / {disagree}",
        f"{lost_saved} of {lost_games}",
        f"{won_risked} of {len(won_games)}",
        f"{decided} of {variants}",
    )


HEADER = (
    "opponent",
    "games",
    "positions",
    "judge's pick won",
    "the other variants won",
    "pick - others [95 %]",
    "pairs in the judge's order: as the outcomes / against",
    "lost games with a winning other variant",
    "won games with a losing other variant",
    "variants whose replays all ended alike",
)


def parse_turns(text: str) -> tuple[int, int]:
    low, _, high = text.partition("-")
    try:
        first, last = int(low), int(high or low)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--turns is FIRST-LAST, e.g. 5-11; got {text!r}") from None
    if not 1 <= first <= last <= 200:
        raise argparse.ArgumentTypeError(f"--turns {text}: need 1 <= FIRST <= LAST <= 200")
    return first, last


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--bot", default="best", help="a best(...) spec (default best)")
    parser.add_argument(
        "--opponent",
        default="postmortem",
        help="one entry of iceandfire_strength.py --pool (default postmortem)",
    )
    parser.add_argument("--seeds", type=int, default=2, help="maps, each in both seats (default 2)")
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument(
        "--turns", type=parse_turns, default=(5, 11), help="the window, FIRST-LAST (default 5-11)"
    )
    parser.add_argument("--replays", type=int, default=2, help="games played out per variant (default 2)")
    parser.add_argument("--ext", default=strength.EXT, help="where the public programs are built")
    parser.add_argument("--json", metavar="FILE", help="write every position, after each one")
    parser.add_argument("--quiet", action="store_true", help="no line per game and position on stderr")
    args = parser.parse_args()
    if args.seeds < 1 or args.replays < 1:
        parser.error("--seeds and --replays must be at least 1")
    if args.opponent in ("programs", "styles") or len(split_players(args.opponent)) != 1:
        parser.error(f"--opponent {args.opponent}: one opponent (a registry bot, a program or name=command)")
    try:
        (spec,) = strength.expand_pool(args.opponent, args.ext)
    except SystemExit as missing:  # a program not built: its line, naming this option
        parser.error(str(missing).replace("--pool", "--opponent", 1))
    game = make("iceandfire")
    low, high = args.turns
    positions: list[dict[str, Any]] = []
    results: dict[tuple[int, int], bool] = {}
    interrupted = False
    try:
        for seed in range(args.first_seed, args.first_seed + args.seeds):
            for seat in (0, 1):
                won, chosen = positions_of(game, args.bot, spec, seed, seat, low, high)
                results[seed, seat] = won
                if not args.quiet:
                    print(
                        f"seed {seed} seat {seat}: {'won' if won else 'lost'}, {len(chosen)} positions",
                        file=sys.stderr,
                    )
                for state, variants, played in chosen:
                    rows = replay(game, args, spec, seed, seat, state, variants, played)
                    positions.append(
                        {
                            "opponent": strength.label(spec),
                            "seed": seed,
                            "seat": seat,
                            "turn": state.turn,
                            "game_won": won,
                            "replays": args.replays,
                            "state": state.to_json(),
                            "variants": rows,
                        }
                    )
                    if not args.quiet:
                        outcome = ", ".join(
                            f"{r['value']:.0f}: {r['won']}{' (pick)' if r['chosen'] else ''}" for r in rows
                        )
                        print(f"  turn {state.turn}: {outcome}", file=sys.stderr)
                    if args.json:
                        Path(args.json).write_text(json.dumps(positions))
    except KeyboardInterrupt:
        interrupted = True
        if positions:
            done = f"{len(positions)} position{'s' * (len(positions) != 1)}"
            print(f"interrupted: the table below is of the {done} done", file=sys.stderr)
    if not positions:
        if interrupted:
            print(
                "interrupted before the first position was played out: no table, no --json file",
                file=sys.stderr,
            )
            sys.exit(130)
        print("no position with two or more judged variants in the window", file=sys.stderr)
        return
    last = max(seed for seed, _ in results)  # the seed played last (all asked for, unless stopped)
    print(
        f"{args.bot} against {strength.label(spec)}: seeds {args.first_seed}-{last}"
        f"{f' (stopped; {args.seeds} asked for)' if interrupted else ''}, both seats, turns {low}-{high}, "
        f"replays a variant: {args.replays}, 1/0.05 on the cpu clock"
    )
    print("| " + " | ".join(HEADER) + " |")
    print("|" + " --- |" * len(HEADER))
    print("| " + " | ".join(summary(positions, results, random.Random(1))) + " |")
    if interrupted:
        sys.exit(130)


if __name__ == "__main__":
    main()
