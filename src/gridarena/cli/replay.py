"""Print a replay move by move, or check it against the engine.

gridarena replay game.jsonl            # the game as text
gridarena replay game.jsonl --check    # replay the actions and compare every stored state
gridarena replay game.jsonl --json     # the replay as one JSON document
gridarena replay game.jsonl --svg end.svg [--ply N]   # a picture after ply N (default: the last)
"""

from __future__ import annotations

import argparse

from gridarena.arena.replay import Replay, format_replay, read_replay
from gridarena.cli.output import err, print_json, warn
from gridarena.core.errors import GridArenaError, ReplayFormatError
from gridarena.core.registry import make

HELP = "print or check a replay file"


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of ``gridarena replay``."""
    parser.add_argument("file", help="a replay written by play or tournament (.jsonl, .json or .json.gz)")
    parser.add_argument("--check", action="store_true", help="re-simulate and compare every stored state")
    parser.add_argument("--json", action="store_true", help="print the replay as one JSON document")
    parser.add_argument(
        "--svg",
        metavar="OUT",
        help="write an SVG picture of the game after --ply (games whose states draw one)",
    )
    parser.add_argument(
        "--ply", type=int, help="with --svg: the plies to replay first (default: all of them)"
    )


def check_replay(replay: Replay, path: str) -> int:
    """Replay the actions with the engine; raise at the first state that differs. Returns plies checked."""
    header = replay.header
    game = make(str(header["game"]), **dict(header.get("options") or {}))
    state = game.new_initial_state(header.get("seed"))
    if header.get("initial_state") not in (None, state.to_text()):
        raise ReplayFormatError(path, 1, "the initial state differs from the engine's")
    for turn in replay.turns:
        try:
            state = state.apply_action(state.string_to_action(str(turn["action"])))
        except GridArenaError as exc:
            raise GridArenaError(f"{path}: ply {turn['ply']}: {exc}") from None
        if "state" in turn and turn["state"] != state.to_text():
            raise GridArenaError(f"{path}: ply {turn['ply']}: the stored state differs from the engine's")
    return len(replay.turns)


def write_svg(replay: Replay, path: str, out: str, ply: int | None) -> int:
    """Replay ``ply`` plies (all by default) with the engine and write the state's ``to_svg()`` to ``out``."""
    header = replay.header
    game = make(str(header["game"]), **dict(header.get("options") or {}))
    state = game.new_initial_state(header.get("seed"))
    turns = replay.turns if ply is None else replay.turns[:ply]
    if ply is not None and not 0 <= ply <= len(replay.turns):
        raise GridArenaError(f"{path}: --ply must be from 0 to {len(replay.turns)}, got {ply}")
    if not callable(getattr(state, "to_svg", None)):
        raise GridArenaError(f"{path}: {game.name} draws no SVG picture (its states have no to_svg)")
    for turn in turns:
        state = state.apply_action(state.string_to_action(str(turn["action"])))
    title = f"{header['game']} seed {header.get('seed')}, after ply {len(turns)}"
    with open(out, "w", encoding="utf-8") as handle:
        handle.write(state.to_svg(title=title))
    return len(turns)


def run(args: argparse.Namespace) -> int:
    """Print, dump, check or draw the replay."""
    replay = read_replay(args.file, warn=warn)
    if args.svg:
        plies = write_svg(replay, args.file, args.svg, args.ply)
        err.print(f"{args.svg}: the game after {plies} plies")
        return 0
    if args.check:
        plies = check_replay(replay, args.file)
        err.print(f"{args.file}: {plies} plies match the engine")
    if args.json:
        print_json(replay.to_json())
    elif not args.check:
        print(format_replay(replay))
    return 0
