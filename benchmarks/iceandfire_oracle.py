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

``--json FILE`` writes every position with its variants, their values and outcomes (``won``, and
each replay's in ``games``), after each position (a stopped run keeps what it did). Ctrl-C stops
the run and prints the row of the positions done.

Are the outcomes the variants' own, or chance? ``--positions FILE`` plays out again the positions of
an earlier ``--json`` (instead of new games; against ``--opponent``, which may be another than the
file's), each variant's earlier outcome kept as ``before``, and ``--noise SD`` makes the bot of the
played-out games break its close calls at random (a normal draw added to each value its judge
gives). A line under the table says how far the new outcomes agree with the earlier ones, variant
against variant within a position, and what the variant they chose wins now against the judge's
pick:

    /work/bin/onecore .venv/bin/python benchmarks/iceandfire_oracle.py --opponent morozec \\
        --positions oracle.json --replays 4 --noise 20 --json again.json

What would a perfect foresight of the opponent be worth? ``--foresight PAIRS`` (with ``--positions``)
plays no variant out: after each variant the opponent itself replies, then PAIRS turn pairs of the
real game follow (the bot's turn, the opponent's reply), and the position at the start of each of
the bot's turns is measured by the judge's evaluation and by the active cells, ours less the
opponent's. The table says, per point and measure, how many pairs of variants it orders as the
file's outcomes do, and what the variant it ranks first won less the mean variant (``--json``: the
file's positions, each variant with its measures at each point as ``foresight``):

    /work/bin/onecore .venv/bin/python benchmarks/iceandfire_oracle.py --opponent morozec \\
        --positions again.json --foresight 4
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import iceandfire_strength as strength

from gridarena.bots.external import ExternalBot
from gridarena.core.errors import GridArenaError
from gridarena.core.gameclock import game_clock
from gridarena.core.play import play_game
from gridarena.core.registry import make, make_bot
from gridarena.core.seeding import derive_seed
from gridarena.core.specs import split_players
from gridarena.games.iceandfire.ai.best import BestBot
from gridarena.games.iceandfire.ai.board import board_from_input, parse_init
from gridarena.games.iceandfire.formats import TurnInput

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
    noise: float = 0.0,
    noise_seed: str = "",
    outcomes: list[Any] | None = None,
    plies: int | None = None,
) -> tuple[bool, list[Any]]:
    """``bot`` in ``seat`` against ``spec`` from ``state``, a position of the map ``seed``, to the end:
    whether the bot won, and the states at the start of its turns (``log``: the bot's judged
    variants, a list per turn; ``replay``: which replay, for the bots' seeds; ``noise``: the standard
    deviation of a normal draw added to each value the bot's judge gives, drawn from ``noise_seed``;
    ``outcomes``: the game's :class:`~gridarena.core.types.Outcome` is appended to it; ``plies``: the
    game stops after that many plies, adjudicated)."""
    ours = make_bot(game, bot)
    if log is not None or noise:
        if not isinstance(ours, BestBot):
            raise SystemExit(f"--bot {bot}: not a best(...) bot, so it has no judged variants")
        if log is not None:
            ours.variant_log = log
        if noise:
            draws = random.Random(noise_seed)
            ours.judge_noise = lambda: draws.gauss(0.0, noise)
    mid_game = state.ply > 0
    theirs = opponent(game, spec, seed, seat, mid_game)
    bots = [ours, theirs] if seat == 0 else [theirs, ours]
    starts = Starts(seat, state)
    try:
        record = play_game(
            game,
            bots,
            seed=seed * 1000 + replay,
            names=[bot, strength.label(spec)][:: 1 if seat == 0 else -1],  # in the forfeits' reasons
            # The bots' seeds as when the seats were named "a" and "b" (the runs of the docs).
            bot_seeds=[derive_seed("bot", seed * 1000 + replay, n) for n in "ab"],
            clock=game_clock("1/0.05", 2, clock="cpu"),
            state=state,
            recorders=[starts],
            max_plies=plies,
        )
    finally:
        if hasattr(theirs, "close"):
            theirs.close()
    if outcomes is not None:
        outcomes.append(record.outcome)
    return record.outcome.returns[seat] > record.outcome.returns[1 - seat], starts.states


def positions_of(
    game: Any, bot: str, spec: str, seed: int, seat: int, low: int, high: int
) -> tuple[bool, list[Any], str]:
    """One game: whether the bot won, its turns in ``low``-``high`` with two or more distinct
    variants judged: (state, [(commands, value)], the commands played), and why the opponent
    forfeited it ("" if it did not)."""
    log: list[list[tuple[list[str], float]]] = []
    outcomes: list[Any] = []
    start = game.new_initial_state(seed=seed)
    won, states = play_from(game, start, bot, spec, seed, seat, log, outcomes=outcomes)
    outcome = outcomes[0]
    forfeit = (outcome.reason or outcome.termination) if outcome.forfeit_player == 1 - seat else ""
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
    return won, chosen, forfeit


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
            games = [returns[seat] > returns[1 - seat]] * args.replays
        else:
            games = [
                play_from(
                    game,
                    after,
                    args.bot,
                    spec,
                    seed,
                    seat,
                    replay=r + 1,
                    noise=args.noise,
                    noise_seed=f"{seed} {seat} {state.ply} {';'.join(commands)} {r}",
                )[0]
                for r in range(args.replays)
            ]
        rows.append(
            {
                "commands": list(commands),
                "value": value,
                "won": sum(games),
                "games": [int(g) for g in games],
                "chosen": commands == played,
            }
        )
    return rows


#: A measure at a point of a variant's game that the game did not reach: it ended before (won: +,
#: lost: -).
ENDED = 1e6
#: The measures of :func:`measures`, as the table names them.
MEASURES = ("the judge's value", "active cells, ours less its")


def measures(judge: BestBot, state: Any, seat: int) -> list[float]:
    """A position at the start of ``seat``'s turn, measured: the value ``judge`` gives it
    (``Judge.evaluate``: the income lead over the turns it lasts, gold, units...) and our active
    cells less the opponent's."""
    board = board_from_input(
        TurnInput.parse(state.codingame_turn(seat).splitlines()),
        parse_init(state.codingame_init(seat).splitlines()),
    )
    judge.turns = state.turn - 1
    return [round(judge.evaluate(board), 1), float(board.active_lead())]


def foresee(
    game: Any,
    args: argparse.Namespace,
    spec: str,
    seed: int,
    seat: int,
    state: Any,
    variants: list[list[str]],
    forfeits: list[str] | None = None,
) -> list[list[list[float]]]:
    """Each variant with the opponent's real turns after it: from the position after the variant
    the opponent replies, then ``--foresight`` turn pairs are played (the bot's turn, the
    opponent's reply; 1/0.05 on the CPU clock), and the position at the start of each of the bot's
    turns is measured (:func:`measures`): after the reply, then after each pair. A game that ends
    before gives +-:data:`ENDED` for the points it did not reach (``forfeits``: why the opponent
    forfeited a variant's game is appended to it)."""
    judge = make_bot(game, args.bot)
    assert isinstance(judge, BestBot)  # main checked it
    points_of = []
    for commands in variants:
        after = state.apply_action(state.string_to_action(";".join(commands) or "WAIT"))
        points: list[list[float]] = []
        ended = after.outcome() if after.is_terminal() else None
        if ended is None:
            outcomes: list[Any] = []
            _, states = play_from(
                game, after, args.bot, spec, seed, seat, outcomes=outcomes, plies=1 + 2 * args.foresight
            )
            points = [measures(judge, s, seat) for s in states[: args.foresight + 1]]
            if outcomes[0].termination != "adjudicated":  # the game ended before the last point
                ended = outcomes[0]
                if ended.forfeit_player == 1 - seat and forfeits is not None:
                    forfeits.append(ended.reason or ended.termination)
        if ended is not None:
            sign = ENDED if ended.returns[seat] > ended.returns[1 - seat] else -ENDED
            points += [[sign] * len(MEASURES)] * (args.foresight + 1 - len(points))
        points_of.append(points)
    return points_of


def ordered(pairs: list[tuple[float, float]]) -> tuple[int, int]:
    """Of the pairs of items that the first number orders, how many the second number orders alike
    and how many the other way (ties of either order nothing)."""
    alike = against = 0
    for x1, o1 in pairs:
        for x2, o2 in pairs:
            if x1 > x2:
                alike += o1 > o2
                against += o1 < o2
    return alike, against


def interval(games: list[list[float]], rng: random.Random) -> str:
    """The mean of the values of whole games resampled with replacement, 2,000 times: its 95 %
    interval, as "[low, high]"."""
    boot = sorted(
        statistics.fmean(g for game in rng.choices(games, k=len(games)) for g in game) for _ in range(2000)
    )
    return f"[{boot[50]:+.3f}, {boot[1949]:+.3f}]"


def ranked(positions: list[dict[str, Any]], key: Any, rng: random.Random) -> tuple[str, str]:
    """How ``key`` (a variant's number) orders the variants of each position against their outcomes:
    the pairs it orders as the outcomes do / the other way, and what the variant it ranks first won
    less the mean variant, with a 95 % interval by bootstrap over whole games."""
    alike = against = 0
    gains: dict[tuple[int, int], list[float]] = {}
    for p in positions:
        vs = [(key(v), v["won"] / p["replays"]) for v in p["variants"]]
        a, b = ordered(vs)
        alike, against = alike + a, against + b
        first = max(vs, key=lambda v: v[0])  # of equals, the first listed
        gains.setdefault((p["seed"], p["seat"]), []).append(first[1] - statistics.fmean(o for _, o in vs))
    games = list(gains.values())
    mean = statistics.fmean(g for game in games for g in game)
    return f"{alike} / {against}", f"{mean:+.3f} {interval(games, rng)}"


def foresight_table(positions: list[dict[str, Any]], pairs: int) -> list[str]:
    """The lines of ``--foresight``'s table: per point, each measure against the outcomes."""
    header = ["measured", "at"]
    for name in MEASURES:
        header += [f"{name}: pairs as the outcomes / against", f"{name}: first-ranked - mean variant [95 %]"]
    lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    row = [
        "the judge's choice",
        "its modelled reply and rollout",
        *ranked(positions, lambda v: v["value"], random.Random(1)),
    ]
    lines.append("| " + " | ".join([*row, "-", "-"]) + " |")
    for k in range(pairs + 1):
        at = "after the opponent's reply" if k == 0 else f"after {k} more turn pair{'s' * (k > 1)}"
        row = ["the real game", at]
        for m in range(len(MEASURES)):
            row += ranked(positions, lambda v, k=k, m=m: v["foresight"][k][m], random.Random(1))
        lines.append("| " + " | ".join(row) + " |")
    return lines


def run_foresight(
    game: Any, args: argparse.Namespace, spec: str, earlier: list[tuple[dict[str, Any], Any]]
) -> None:
    """``--foresight``: each position's variants with the opponent's real turns after them, measured,
    against the earlier run's outcomes; prints the table, writes ``--json`` (the earlier positions,
    each variant with its ``foresight`` points), exits 130 on Ctrl-C after the table of those done."""
    done: list[dict[str, Any]] = []
    forfeits: list[str] = []
    interrupted = False
    try:
        for p, state in earlier:
            commands = [v["commands"] for v in p["variants"]]
            points = foresee(game, args, spec, p["seed"], p["seat"], state, commands, forfeits)
            variants = [dict(v, foresight=f) for v, f in zip(p["variants"], points, strict=True)]
            done.append(dict(p, variants=variants, foresight=args.foresight))
            if not args.quiet:
                ends = ", ".join(f"{v['value']:.0f} -> {v['foresight'][-1][0]:.0f}" for v in variants)
                print(f"seed {p['seed']} seat {p['seat']} turn {state.turn}: {ends}", file=sys.stderr)
            if args.json:
                Path(args.json).write_text(json.dumps(done))
    except KeyboardInterrupt:
        interrupted = True
    if not done:
        print("interrupted before the first position was measured: no table, no --json file", file=sys.stderr)
        sys.exit(130)
    stopped = f" (stopped; {len(done)} of {len(earlier)} positions)" if interrupted else ""
    print(
        f"{args.bot} against {strength.label(spec)}: the positions of {args.positions}{stopped}, their outcomes"
        f" against {earlier[0][0]['opponent']}; after each variant the opponent's real reply, then"
        f" {args.foresight} turn pair{'s' * (args.foresight != 1)} (the bot's turn and the reply, 1/0.05 on"
        " the cpu clock), measured at the start of each of the bot's turns"
    )
    if forfeits:
        games = sum(len(p["variants"]) for p in done)
        print(f"the opponent forfeited {len(forfeits)} of the {games} variants' games ({forfeits[0]})")
    for line in foresight_table(done, args.foresight):
        print(line)
    if interrupted:
        sys.exit(130)


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
        a, b = ordered([(v["value"], v["won"]) for v in p["variants"]])
        agree, disagree = agree + a, disagree + b
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


#: The largest ``--positions`` file read (a run of 30 seeds writes about 250 kB).
MAX_POSITIONS_BYTES = 200_000_000


def read_positions(path: str, game: Any, parser: argparse.ArgumentParser) -> list[tuple[dict[str, Any], Any]]:
    """The positions of an earlier ``--json`` file, all played against one opponent, each with its
    state, every variant checked to be a turn of it before any game is played; a bad file is one
    line."""
    try:
        if Path(path).stat().st_size > MAX_POSITIONS_BYTES:
            parser.error(f"--positions {path}: larger than {MAX_POSITIONS_BYTES:,} bytes")
        data = json.loads(Path(path).read_text())
    except OSError as error:
        parser.error(f"--positions {path}: {error.strerror}")
    except ValueError as error:
        parser.error(f"--positions {path}: not JSON ({error})")
    if not isinstance(data, list) or not data:
        parser.error(f"--positions {path}: not a list of positions written by --json")
    for index, p in enumerate(data):
        fields = ("opponent", "seed", "seat", "replays", "state", "variants", "game_won")
        missing = [f for f in fields if not isinstance(p, dict) or f not in p]
        if missing:
            parser.error(f"--positions {path}: position {index} has no field {missing[0]!r}")
        if p["opponent"] != data[0]["opponent"] or not isinstance(p["opponent"], str):
            parser.error(
                f"--positions {path}: position {index} was played against {p['opponent']},"
                f" position 0 against {data[0]['opponent']}: one opponent a file"
            )
        if not isinstance(p["variants"], list) or len(p["variants"]) < 2:
            parser.error(f"--positions {path}: position {index}: 'variants' is not a list of two or more")
        if not all(isinstance(p[f], int) and not isinstance(p[f], bool) for f in ("seed", "seat", "replays")):
            parser.error(
                f"--positions {path}: position {index}: 'seed', 'seat' and 'replays' are not whole numbers"
            )
        if p["seat"] not in (0, 1) or p["replays"] < 1:
            parser.error(f"--positions {path}: position {index}: seat {p['seat']}, replays {p['replays']}")
        for v in p["variants"]:
            bad = [f for f in ("commands", "value", "won", "chosen") if not isinstance(v, dict) or f not in v]
            if bad:
                parser.error(f"--positions {path}: position {index} has a variant without {bad[0]!r}")
            commands, value, won = v["commands"], v["value"], v["won"]
            if not (isinstance(commands, list) and all(isinstance(c, str) for c in commands)):
                parser.error(
                    f"--positions {path}: position {index}: a variant's 'commands' is not a list of texts"
                )
            if (
                not isinstance(value, (int, float))
                or not isinstance(won, int)
                or not 0 <= won <= p["replays"]
            ):
                parser.error(
                    f"--positions {path}: position {index}: a variant's 'value' or 'won' is out of place"
                )
        if sum(bool(v["chosen"]) for v in p["variants"]) != 1:
            parser.error(f"--positions {path}: position {index} has not one variant marked chosen")
    positions = []
    for p in data:
        try:
            state = game.state_from_json(p["state"])
            for v in p["variants"]:
                state.apply_action(state.string_to_action(";".join(v["commands"]) or "WAIT"))
        except GridArenaError as error:
            parser.error(f"--positions {path}: seed {p['seed']} seat {p['seat']}: {error}")
        positions.append((p, state))
    return positions


def games_of(
    game: Any, args: argparse.Namespace, spec: str, earlier: list[tuple[dict[str, Any], Any]] | None
) -> Iterator[tuple[int, int, bool, list[Any], str]]:
    """Each game in turn: (seed, seat, won, [(state, variants, the commands played, the earlier
    outcomes or None)], why the opponent forfeited it or ""), from new games or from ``earlier``
    positions (each with its state, as :func:`read_positions` gives them)."""
    low, high = args.turns
    if earlier is None:
        for seed in range(args.first_seed, args.first_seed + args.seeds):
            for seat in (0, 1):
                won, chosen, forfeit = positions_of(game, args.bot, spec, seed, seat, low, high)
                yield seed, seat, won, [(*c, None) for c in chosen], forfeit
        return
    by_game: dict[tuple[int, int], list[tuple[dict[str, Any], Any]]] = {}
    for p, state in earlier:
        by_game.setdefault((p["seed"], p["seat"]), []).append((p, state))
    for (seed, seat), ps in by_game.items():
        chosen = []
        for p, state in ps:
            variants = {tuple(v["commands"]): v["value"] for v in p["variants"]}
            played = next(tuple(v["commands"]) for v in p["variants"] if v["chosen"])
            before = {tuple(v["commands"]): v["won"] / p["replays"] for v in p["variants"]}
            chosen.append((state, variants, played, before))
        yield seed, seat, ps[0][0]["game_won"], chosen, ""


def again(positions: list[dict[str, Any]], rng: random.Random) -> str:
    """How far the outcomes played out again agree with the earlier run's, variant against variant
    in the same position (so not the position's own chances): their correlation, the pairs the
    earlier outcomes order and whether the new ones order them alike, and what a choice by the
    earlier outcomes won now against the judge's pick (the difference with a 95 % interval by
    bootstrap over whole games) and the mean variant."""
    before: list[float] = []
    now: list[float] = []
    same = against = 0
    by_before, picked, mean = [], [], []
    gains: dict[tuple[int, int], list[float]] = {}
    for p in positions:
        vs = p["variants"]
        shares = [(v["before"], v["won"] / p["replays"]) for v in vs]
        mb, mn = statistics.fmean(b for b, _ in shares), statistics.fmean(n for _, n in shares)
        before += [b - mb for b, _ in shares]
        now += [n - mn for _, n in shares]
        a, b = ordered(shares)
        same, against = same + a, against + b
        best = max(range(len(vs)), key=lambda i: (vs[i]["before"], vs[i]["value"]))
        by_before.append(shares[best][1])
        picked.append(next(n for (_, n), v in zip(shares, vs, strict=True) if v["chosen"]))
        mean.append(mn)
        gains.setdefault((p["seed"], p["seat"]), []).append(by_before[-1] - picked[-1])
    spread = (sum(b * b for b in before) * sum(n * n for n in now)) ** 0.5
    correlation = sum(b * n for b, n in zip(before, now, strict=True)) / spread if spread else 0.0
    return (
        f"against the earlier outcomes, variant by variant within a position: correlation {correlation:.2f};"
        f" pairs they order, ordered alike now {same}, the other way {against};"
        f" won now by the variant they chose {statistics.fmean(by_before):.3f},"
        f" by the judge's pick {statistics.fmean(picked):.3f}"
        f" (the difference {statistics.fmean(by_before) - statistics.fmean(picked):+.3f}"
        f" {interval(list(gains.values()), rng)}), by the mean variant {statistics.fmean(mean):.3f}"
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
    parser.add_argument(
        "--noise",
        type=float,
        default=0.0,
        metavar="SD",
        help="in the games played out, add a normal draw of this standard deviation to each value the"
        " bot's judge gives: a bot that breaks its close calls at random (default 0, none)",
    )
    parser.add_argument(
        "--positions",
        metavar="FILE",
        help="play out again the positions of an earlier --json FILE, against its opponent or another,"
        " instead of new games (--seeds, --first-seed and --turns are then not used), and say how far"
        " the outcomes agree with that run's",
    )
    parser.add_argument(
        "--foresight",
        type=int,
        metavar="PAIRS",
        help="with --positions: instead of playing the variants out, play the opponent's real reply"
        " to each and PAIRS turn pairs after it, and say how well the judge's value and the active"
        " cells there order the variants as the earlier outcomes do (0 to 10)",
    )
    parser.add_argument("--ext", default=strength.EXT, help="where the public programs are built")
    parser.add_argument("--json", metavar="FILE", help="write every position, after each one")
    parser.add_argument("--quiet", action="store_true", help="no line per game and position on stderr")
    args = parser.parse_args()
    if args.seeds < 1 or args.replays < 1:
        parser.error("--seeds and --replays must be at least 1")
    if not 0 <= args.noise <= 10_000:
        parser.error(f"--noise {args.noise:g}: a standard deviation from 0 to 10000")
    if args.opponent in ("programs", "styles") or len(split_players(args.opponent)) != 1:
        parser.error(f"--opponent {args.opponent}: one opponent (a registry bot, a program or name=command)")
    try:
        (spec,) = strength.expand_pool(args.opponent, args.ext)
    except SystemExit as missing:  # a program not built: its line, naming this option
        parser.error(str(missing).replace("--pool", "--opponent", 1))
    if args.foresight is not None:
        if not args.positions:
            parser.error("--foresight needs --positions FILE: the positions and outcomes it measures against")
        if not 0 <= args.foresight <= 10:
            parser.error(f"--foresight {args.foresight}: from 0 to 10 turn pairs")
    game = make("iceandfire")
    low, high = args.turns
    earlier = read_positions(args.positions, game, parser) if args.positions else None
    if args.foresight is not None and earlier is not None:
        if not isinstance(make_bot(game, args.bot), BestBot):
            parser.error(f"--bot {args.bot}: not a best(...) bot, so it has no judge to measure with")
        run_foresight(game, args, spec, earlier)
        return
    positions: list[dict[str, Any]] = []
    results: dict[tuple[int, int], bool] = {}
    forfeits: list[str] = []
    interrupted = False
    try:
        for seed, seat, won, chosen, forfeit in games_of(game, args, spec, earlier):
            results[seed, seat] = won
            if forfeit:
                forfeits.append(forfeit)
            if not args.quiet:
                why = f" (the opponent forfeited: {forfeit})" if forfeit else ""
                print(
                    f"seed {seed} seat {seat}: {'won' if won else 'lost'}{why}, {len(chosen)} positions",
                    file=sys.stderr,
                )
            for state, variants, played, before in chosen:
                rows = replay(game, args, spec, seed, seat, state, variants, played)
                if before is not None:  # the outcomes of the earlier run, beside the new ones
                    for row in rows:
                        row["before"] = before[tuple(row["commands"])]
                positions.append(
                    {
                        "opponent": strength.label(spec),
                        "seed": seed,
                        "seat": seat,
                        "turn": state.turn,
                        "game_won": won,
                        "replays": args.replays,
                        "noise": args.noise,
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
        why = (
            f"; the opponent forfeited {len(forfeits)} of {len(results)} games ({forfeits[0]})"
            if forfeits
            else ""
        )
        print(f"no position with two or more judged variants in the window{why}", file=sys.stderr)
        return
    first, last = min(seed for seed, _ in results), max(seed for seed, _ in results)
    if earlier is None:
        where, stopped = f"turns {low}-{high}", f" (stopped; {args.seeds} asked for)"
    else:
        where, stopped = (
            f"the positions of {args.positions} (played against {earlier[0][0]['opponent']};"
            " the games won and lost are that run's)",
            f" (stopped; {len(positions)} of {len(earlier)} positions)",
        )
    print(
        f"{args.bot} against {strength.label(spec)}: seeds {first}-{last}{stopped if interrupted else ''}"
        f", both seats, {where}, replays a variant: {args.replays}"
        f"{f', judge noise {args.noise:g}' if args.noise else ''}, 1/0.05 on the cpu clock"
        f"{f'; the opponent forfeited {len(forfeits)} of {len(results)} games' if forfeits else ''}"
    )
    print("| " + " | ".join(HEADER) + " |")
    print("|" + " --- |" * len(HEADER))
    print("| " + " | ".join(summary(positions, results, random.Random(1))) + " |")
    if earlier is not None:
        print(again(positions, random.Random(1)))
    if interrupted:
        sys.exit(130)


if __name__ == "__main__":
    main()
