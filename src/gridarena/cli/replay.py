"""Print a replay move by move, check it against the engine, or draw it (SVG, one-file HTML viewer).

--svg draws one ply with the game's own renderer; --html writes the viewer, the replay and every frame
into one file that opens from disk with no server.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from gridarena.arena.replay import Replay, format_replay, read_replay, replay_game, replay_start, replay_turn
from gridarena.cli.help import examples
from gridarena.cli.options import count
from gridarena.cli.output import err, print_json, warn
from gridarena.core.errors import GridArenaError, ReplayFormatError


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of ``gridarena replay``."""
    parser.epilog = examples(
        "gridarena replay game.jsonl                     # the game as text",
        "gridarena replay game.jsonl --check             # replay the actions and compare every stored state",
        "gridarena replay game.jsonl --json              # the replay as one JSON document",
        "gridarena replay game.jsonl --svg board.svg --ply 10   # the board after 10 plies (default: the end)",
        "gridarena replay game.jsonl --html game.html    # one self-contained viewer page; opens from disk",
    )["epilog"]
    parser.add_argument("file", help="a replay written by play or tournament (.jsonl, .json or .json.gz)")
    parser.add_argument("--check", action="store_true", help="re-simulate and compare every stored state")
    parser.add_argument("--json", action="store_true", help="print the replay as one JSON document")
    parser.add_argument(
        "--svg", metavar="OUT", help="write the board of one ply as SVG (the game's renderer)"
    )
    parser.add_argument(
        "--ply", type=count(0), help="the ply --svg draws: 0 is the start (default: the last)"
    )
    parser.add_argument(
        "--html", metavar="OUT", help="write one self-contained HTML viewer (script, replay, frames inline)"
    )


def check_replay(replay: Replay, path: str) -> int:
    """Replay the actions with the engine; raise at the first state that differs. Returns plies checked."""
    header = replay.header
    game = replay_game(header)
    state = replay_start(game, header)
    if header.get("initial_state") not in (None, state.to_text()):
        raise ReplayFormatError(path, 1, "the initial state differs from the engine's")
    for turn in replay.turns:
        try:
            state, _ = replay_turn(state, turn)
        except GridArenaError as exc:
            raise GridArenaError(f"{path}: ply {turn['ply']}: {exc}") from None
        if "state" in turn and turn["state"] != state.to_text():
            raise GridArenaError(f"{path}: ply {turn['ply']}: the stored state differs from the engine's")
    return len(replay.turns)


def _write(path: str, text: str) -> None:
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise GridArenaError(f"{path}: cannot write: {exc.strerror or exc}") from None


def draw(replay: Replay, args: argparse.Namespace) -> None:
    """The ``--svg`` and ``--html`` outputs (their notes on stderr)."""
    from gridarena.web.frames import header_summary, view_of
    from gridarena.web.pages import export_html

    view = view_of(replay)
    if view.problem:
        warn(f"{args.file}: {view.problem}")
    if args.svg:
        ply = view.plies if args.ply is None else args.ply
        if ply != view.clamp(ply):
            raise GridArenaError(f"--ply {ply}: the replay has plies 0 to {view.plies}")
        _write(args.svg, view.frame(ply))
        err.print(f"{args.svg}: ply {ply} of {view.plies}")
    if args.html:
        payload = view.payload(kind="file", name=Path(args.file).name)
        _write(args.html, export_html(header_summary(replay.header), payload, view.frames()))
        err.print(f"{args.html}: {view.plies + 1} frames; open it in a browser (no server needed)")


def run(args: argparse.Namespace) -> int:
    """Print, dump, check or draw the replay."""
    if args.ply is not None and not args.svg:
        raise GridArenaError("--ply chooses the ply of --svg; give --svg OUT too")
    replay = read_replay(args.file, warn=warn)
    if args.check:
        plies = check_replay(replay, args.file)
        err.print(f"{args.file}: {plies} plies match the engine")
    if args.svg or args.html:
        draw(replay, args)
    if args.json:
        print_json(replay.to_json())
    elif not (args.check or args.svg or args.html):
        print(format_replay(replay))
    return 0
