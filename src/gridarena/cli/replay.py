"""Print a replay move by move, or check it against the engine.

gridarena replay game.jsonl            # the game as text
gridarena replay game.jsonl --check    # replay the actions and compare every stored state
gridarena replay game.jsonl --json     # the replay as one JSON document
gridarena replay game.jsonl --svg end.svg [--ply N]   # a picture of the position after ply N (default: the end)

``--svg`` works for every game whose package has a ``render.render_svg(state)`` (Pentocity, ReversiXT).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from gridarena.arena.replay import Replay, format_replay, read_replay
from gridarena.cli.output import err, print_json, warn
from gridarena.core.errors import GridArenaError, ReplayFormatError
from gridarena.core.registry import make
from gridarena.core.types import GameState

HELP = "print or check a replay file"


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of ``gridarena replay``."""
    parser.add_argument("file", help="a replay written by play or tournament (.jsonl, .json or .json.gz)")
    parser.add_argument("--check", action="store_true", help="re-simulate and compare every stored state")
    parser.add_argument("--json", action="store_true", help="print the replay as one JSON document")
    parser.add_argument(
        "--svg", metavar="OUT", help="write an SVG picture of a position (games with a renderer)"
    )
    parser.add_argument(
        "--ply", type=int, help="with --svg: the position after this many plies (default: the end)"
    )


def replay_states(replay: Replay, path: str) -> Iterator[GameState[Any]]:
    """The states of a replay, the initial one first, re-simulated with the engine."""
    header = replay.header
    game = make(str(header["game"]), **dict(header.get("options") or {}))
    state = game.new_initial_state(header.get("seed"))
    yield state
    for turn in replay.turns:
        try:
            state = state.apply_action(state.string_to_action(str(turn["action"])))
        except GridArenaError as exc:
            raise GridArenaError(f"{path}: ply {turn['ply']}: {exc}") from None
        yield state


def svg_renderer(state: GameState[Any]) -> Callable[[GameState[Any]], str]:
    """The ``render_svg`` of the state's game package, or a GridArenaError naming the game."""
    package = type(state.game).__module__.rsplit(".", 1)[0]
    module_name = f"{package}.render"
    render = None
    if importlib.util.find_spec(module_name) is not None:
        render = getattr(importlib.import_module(module_name), "render_svg", None)
    if render is None:
        raise GridArenaError(f"{state.game.name} has no SVG renderer ({module_name}.render_svg)")
    return render  # type: ignore[no-any-return]


def write_svg(replay: Replay, path: str, out: str, ply: int | None) -> int:
    """Write the picture of the position after ``ply`` plies (default: the last); returns that ply."""
    states = list(replay_states(replay, path))
    last = len(states) - 1
    at = last if ply is None else ply
    if not 0 <= at <= last:
        raise GridArenaError(f"{path}: --ply {ply} is outside 0..{last}")
    render = svg_renderer(states[at])
    try:
        Path(out).write_text(render(states[at]))
    except OSError as exc:
        raise GridArenaError(f"cannot write {out}: {exc.strerror or exc}") from None
    return at


def check_replay(replay: Replay, path: str) -> int:
    """Replay the actions with the engine; raise at the first state that differs. Returns plies checked."""
    states = replay_states(replay, path)
    if replay.header.get("initial_state") not in (None, next(states).to_text()):
        raise ReplayFormatError(path, 1, "the initial state differs from the engine's")
    for turn, state in zip(replay.turns, states, strict=True):
        if "state" in turn and turn["state"] != state.to_text():
            raise GridArenaError(f"{path}: ply {turn['ply']}: the stored state differs from the engine's")
    return len(replay.turns)


def run(args: argparse.Namespace) -> int:
    """Print, dump or check the replay."""
    replay = read_replay(args.file, warn=warn)
    if args.ply is not None and not args.svg:
        raise GridArenaError("--ply needs --svg")
    if args.svg:
        ply = write_svg(replay, args.file, args.svg, args.ply)
        err.print(f"{args.svg}: the position after ply {ply}")
        return 0
    if args.check:
        plies = check_replay(replay, args.file)
        err.print(f"{args.file}: {plies} plies match the engine")
    if args.json:
        print_json(replay.to_json())
    elif not args.check:
        print(format_replay(replay))
    return 0
