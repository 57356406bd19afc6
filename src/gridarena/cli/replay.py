"""Print a replay move by move, or check it against the engine.

gridarena replay game.jsonl            # the game as text
gridarena replay game.jsonl --check    # replay the actions and compare every stored state
gridarena replay game.jsonl --json     # the replay as one JSON document
"""

from __future__ import annotations

import argparse

from gridarena.arena.replay import Replay, format_replay, read_replay
from gridarena.cli.output import err, print_json, warn
from gridarena.core.errors import GridArenaError, ReplayFormatError
from gridarena.core.registry import make


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of ``gridarena replay``."""
    parser.add_argument("file", help="a replay written by play or tournament (.jsonl, .json or .json.gz)")
    parser.add_argument("--check", action="store_true", help="re-simulate and compare every stored state")
    parser.add_argument("--json", action="store_true", help="print the replay as one JSON document")


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


def run(args: argparse.Namespace) -> int:
    """Print, dump or check the replay."""
    replay = read_replay(args.file, warn=warn)
    if args.check:
        plies = check_replay(replay, args.file)
        err.print(f"{args.file}: {plies} plies match the engine")
    if args.json:
        print_json(replay.to_json())
    elif not args.check:
        print(format_replay(replay))
    return 0
