"""Play one game between bots, programs or a human at the terminal, and print the result.

  gridarena play isolation --players greedy,random --seed 7 --replay game.jsonl
  gridarena play isolation --players human,greedy        # you move first; type cells like d4
  gridarena play 'isolation(width=5,height=5)' --players random,random --json
  gridarena play iceandfire --players best,'python3 mybot.py' --time 1/0.05 --seed 7
  gridarena play reversixt --players best,trivial --time account:2 --clock cpu

Players are comma-separated, one per seat: a bot spec of the game (see `gridarena games`), or a
program typed as a command (a path or a space: `./mybot`, `python3 bot.py`), which speaks the game's
own protocol: CodinGame's text for Ice and Fire, JSON lines for the others (docs/arena.md). A
players file (`--players-file`, as in `gridarena tournament`) names programs that need more. The
time control is the tournament's (`--time`): seconds per move (`0.15`), first and later moves
(`1/0.05`), an account (`account:2`), a budget per game (`total:300`) or an increment (`60+0.5`).
Without --seed a seed is drawn and printed, so every game can be repeated.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any

from gridarena.arena.load import overload
from gridarena.arena.players import entrant_spec, players_from_file
from gridarena.arena.replay import ReplayRecorder
from gridarena.arena.runner import entrant_names
from gridarena.cli.options import GRACE, SEED, count
from gridarena.cli.output import err, print_json, warn
from gridarena.cli.progress import Ticker, ticker
from gridarena.core.bot import Closes
from gridarena.core.clock import DEFAULT_GRACE
from gridarena.core.errors import GridArenaError
from gridarena.core.gameclock import CLOCK_KINDS, TimeSpec, game_clock
from gridarena.core.play import GameRecord, Recorder, Turn, play_game
from gridarena.core.registry import game_words, make, make_bot
from gridarena.core.specs import parse_spec, split_players
from gridarena.core.types import JSON, Game, GameState
from gridarena.core.words import Ending, describe


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of ``gridarena play``."""
    parser.add_argument("game", help="game name or spec, e.g. isolation or 'isolation(width=5,height=5)'")
    who = parser.add_mutually_exclusive_group(required=True)
    who.add_argument("--players", help="comma-separated bot specs or commands, one per seat")
    who.add_argument(
        "--players-file", metavar="TOML", help="the seats from a players file ([[player]] tables)"
    )
    parser.add_argument("--seed", type=SEED, help="seed of the game (drawn and printed when absent)")
    parser.add_argument(
        "--time",
        help="time control, as in `gridarena tournament`: 0.15, 150ms, 1/0.05, account:2, total:300, 60+0.5",
    )
    parser.add_argument("--clock", choices=CLOCK_KINDS, default="wall", help="what the time control measures")
    parser.add_argument(
        "--grace",
        type=GRACE,
        default=DEFAULT_GRACE,
        help="seconds a late answer is forgiven (default: %(default)s)",
    )
    parser.add_argument("--replay", metavar="FILE", help="write the replay (JSON Lines) to FILE")
    parser.add_argument("--max-plies", type=count(), help="adjudicate a draw after this many plies")
    parser.add_argument("--json", action="store_true", help="print the result as JSON on stdout")
    parser.add_argument("--quiet", action="store_true", help="print only the result line")


def run(args: argparse.Namespace) -> int:
    """Play the game; print the final board and the result."""
    game = make(args.game)
    typed = players_from_file(args.players_file) if args.players_file else split_players(args.players)
    return play_one(
        game,
        [entrant_spec(game, text) for text in typed],
        seed=args.seed,
        time=args.time,
        clock=args.clock,
        grace=args.grace,
        replay=args.replay,
        max_plies=args.max_plies,
        as_json=args.json,
        quiet=args.quiet,
    )


def play_one(
    game: Game[Any],
    specs: Sequence[str],
    *,
    seed: int | None = None,
    time: str | None = None,
    clock: str = "wall",
    grace: float = DEFAULT_GRACE,
    replay: str | None = None,
    max_plies: int | None = None,
    as_json: bool = False,
    quiet: bool = False,
) -> int:
    """One game of ``specs`` (one per seat) under the time control ``time``, reported on stdout.

    Every front end that plays one game (``gridarena play``, ``gridarena iceandfire match``) comes here.
    """
    if len(specs) != game.num_players:
        raise GridArenaError(f"{game.name} needs {game.num_players} players, got {len(specs)}")
    control = None if time is None else TimeSpec.parse(time).to_text()
    if grace < 0:
        raise GridArenaError(f"--grace must be 0 or more seconds, not {grace}")
    bots = [make_bot(game, spec) for spec in specs]
    names = entrant_names(specs, game.name)
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "big")
        if not as_json:
            err.print(f"seed {seed}")
    loaded = overload() if control is not None else None
    recorders: list[Recorder] = []
    if replay:
        state = game.new_initial_state(seed)
        recorders.append(
            ReplayRecorder(replay, game, names, seed, state, time_control=control, players_specs=list(specs))
        )
    # A person at the terminal reads the board there: no bar beneath it.
    silent = quiet or as_json or any(parse_spec(spec)[0] == "human" for spec in specs)
    try:
        with ticker(silent, "plies", transient=True) as tick:
            record = play_game(
                game,
                bots,
                seed=seed,
                names=names,
                clock=game_clock(control, game.num_players, clock=clock, grace=grace),
                max_plies=max_plies,
                recorders=[*recorders, PlyCounter(tick)],
            )
    finally:  # an external program is killed and reaped, whatever happened
        for bot in bots:
            if isinstance(bot, Closes):
                bot.close()
    summary = game_summary(game, specs, seed, control, record, replay, names)
    if control is not None:
        _warn_of_load(loaded or overload(), record, names)
    if as_json:
        print_json(summary)
        return 0
    if not quiet:
        print(record.final_state.to_text(), file=sys.stderr)
    print(verdict_line(summary, record))
    if replay:
        print(f"replay: {summary['replay']}")
    return 0


class PlyCounter:
    """A recorder that shows a long game's progress: plies played (a ReversiXT game at 2 s a move takes minutes)."""

    def __init__(self, tick: Ticker) -> None:
        self.tick = tick

    def turn(self, turn: Turn, state: GameState[Any]) -> None:
        """One more ply."""
        self.tick.update(turn.ply + 1)

    def result(self, record: GameRecord) -> None:
        """Nothing: the result is printed by the command."""


def _warn_of_load(loaded: str | None, record: GameRecord, names: Sequence[str]) -> None:
    """A timed game on a busy machine: say so (as tournaments do), above all when a move came too late."""
    if loaded is None:
        return
    outcome = record.outcome
    if outcome.termination == "timeout" and outcome.forfeit_player is not None:
        warn(f"{names[outcome.forfeit_player]} lost on time while the {loaded}")
    else:
        warn(loaded)


def game_summary(
    game: Game[Any],
    specs: Sequence[str],
    seed: int,
    control: str | None,
    record: GameRecord,
    replay: str | None,
    names: Sequence[str],
) -> dict[str, JSON]:
    """The result of one game as JSON: who won (seats with rank 1), why, and what the game reports;
    ``players`` are the names the players are shown by (:func:`entrant_names`), ``specs`` their specs."""
    outcome = record.outcome
    ranks = outcome.ranks()
    winners = [seat for seat, rank in enumerate(ranks) if rank == 1]
    return {
        "game": game.name,
        "params": dict(game.params),
        "seed": seed,
        "players": list(names),
        "specs": list(specs),
        "time": control,
        "returns": list(outcome.returns),
        "ranks": list(ranks),
        "winner": winners[0] if len(winners) == 1 and game.num_players > 1 else None,
        "termination": outcome.termination,
        "forfeit_player": outcome.forfeit_player,
        "reason": outcome.reason,
        "plies": record.plies,
        "seconds": round(record.seconds, 3),
        "info": dict(record.final_state.result_info()),
        "moves": [turn.action for turn in record.turns],
        "replay": os.path.abspath(replay) if replay else None,
    }


def verdict_line(summary: dict[str, JSON], record: GameRecord) -> str:
    """``winner: greedy · random (blue) has no legal move left: greedy (orange) wins · 23 plies, seed 7``:
    who won, then how, in the game's own words (those of the viewer's pages)."""
    players = summary["players"]
    assert isinstance(players, list)
    ranks = summary["ranks"]
    assert isinstance(ranks, list)
    winners = [str(players[i]) for i, rank in enumerate(ranks) if rank == 1]
    verdict = "draw" if len(winners) == len(players) > 1 else f"winner: {', '.join(winners)}"
    ending = Ending(record.outcome, tuple(map(str, players)), record.final_state.result_info())
    told = describe(game_words(str(summary["game"])), ending)
    shown = told if len(players) == 1 else f"{verdict} · {told}"  # alone, the score is the verdict
    return f"{shown} · {summary['plies']} plies, seed {summary['seed']}"
