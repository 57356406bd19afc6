"""Analyse one position with a generic search and print what each completed depth found.

  gridarena search isolation --moves d4,c2 --algorithm alphabeta --heuristic improved --time 1
  gridarena search 'isolation(width=5,height=5)' --moves c3,b1 --depth 8 --json
  gridarena search isolation --state position.json --algorithm maxn --nodes 200000

The position is the game's initial state after ``--moves`` (action texts, comma-separated), or a
state saved as JSON (``--state FILE``). Deepening stops at ``--depth``, ``--nodes`` or ``--time``
(seconds), whichever comes first; without any of them it searches to the end of the game.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Iterator
from typing import Any

from gridarena.bots.search_bots import resolve_heuristic
from gridarena.cli.options import count, seconds
from gridarena.cli.output import err, print_json
from gridarena.core.clock import TimeControl
from gridarena.core.errors import GridArenaError, StateFormatError
from gridarena.core.files import read_text
from gridarena.core.numbers import load_json
from gridarena.core.registry import make
from gridarena.core.types import Game, GameState
from gridarena.search.adversarial import Evaluate, Progress
from gridarena.search.alphabeta import alphabeta_deepening
from gridarena.search.brs import brs_deepening
from gridarena.search.iterative import deepen
from gridarena.search.maxn import maxn_deepening
from gridarena.search.minimax import minimax
from gridarena.search.paranoid import paranoid_deepening

Deepening = Callable[[GameState[Any], Evaluate, TimeControl, int | None], Iterator[Progress]]

ALGORITHMS: dict[str, Deepening] = {
    "alphabeta": lambda s, e, c, d: alphabeta_deepening(s, e, c, max_depth=d),
    "paranoid": lambda s, e, c, d: paranoid_deepening(s, e, c, max_depth=d),
    "maxn": lambda s, e, c, d: maxn_deepening(s, e, c, max_depth=d),
    "brs": lambda s, e, c, d: brs_deepening(s, e, c, max_depth=d),
    "minimax": lambda s, e, c, d: deepen(lambda depth: minimax(s, depth, e, clock=c), c, d),
}


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of ``gridarena search``."""
    parser.add_argument("game", help="game name or spec, e.g. isolation or 'isolation(width=5,height=5)'")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--moves", default="", help="comma-separated actions played from the initial state")
    where.add_argument("--state", metavar="FILE", help="a state saved as JSON")
    parser.add_argument(
        "--algorithm",
        choices=sorted(ALGORITHMS),
        default="alphabeta",
        help="the search: alphabeta (two players, default), paranoid, maxn or brs (several), minimax",
    )
    parser.add_argument("--heuristic", help="the game's evaluation function (default: the game's default)")
    parser.add_argument("--depth", type=count(1, 1000), help="deepest iteration")
    parser.add_argument("--nodes", type=count(high=2**62), help="node budget")
    parser.add_argument("--time", type=seconds(above=0), help="seconds to search")
    parser.add_argument("--json", action="store_true", help="print the iterations as JSON on stdout")


def position(game: Game[Any], moves: str, state_file: str | None) -> GameState[Any]:
    """The state to analyse: a JSON file, or the initial state after the listed moves."""
    if state_file is not None:
        try:
            data = load_json(read_text(state_file, "state file"))
        except (ValueError, RecursionError) as exc:  # not JSON, or a number too long
            raise StateFormatError(f"{state_file}: cannot read a JSON state ({exc})") from None
        saved: GameState[Any] = game.state_from_json(data)
        return saved
    state: GameState[Any] = game.new_initial_state()
    for ply, text in enumerate(t.strip() for t in moves.split(",") if t.strip()):
        action = state.string_to_action(text)
        reason = state.illegal_reason(action)
        if reason is not None:
            raise GridArenaError(f"--moves: move {ply + 1} ({text}): {reason}")
        state = state.apply_action(action)
    return state


def run(args: argparse.Namespace) -> int:
    """Deepen until a limit; print one line (or JSON object) per completed depth."""
    game = make(args.game)
    state = position(game, args.moves, args.state)
    if state.is_terminal():
        raise GridArenaError("the position is already finished: nothing to search")
    evaluate = resolve_heuristic(game, args.heuristic)
    clock = TimeControl.for_seconds(args.time, nodes=args.nodes)
    start = time.perf_counter()
    rows = []
    for progress in ALGORITHMS[args.algorithm](state, evaluate, clock, args.depth):
        elapsed = time.perf_counter() - start
        row = {
            "depth": progress.depth,
            "score": progress.score,
            "best": state.action_to_string(progress.best),
            "nodes": progress.nodes,
            "exact": progress.exact,
            "seconds": round(elapsed, 4),
        }
        rows.append(row)
        if not args.json:
            err.print(
                f"depth {row['depth']:>2}  score {progress.score:>14g}  best {row['best']:<6} "
                f"nodes {progress.nodes:>9}  {elapsed:8.3f} s{'  (exact)' if progress.exact else ''}"
            )
    if args.json:
        print_json({"algorithm": args.algorithm, "iterations": rows, "total_nodes": clock.count})
    elif rows:
        print(rows[-1]["best"])
    else:
        err.print("no depth completed within the limits")
    return 0 if rows else 1
