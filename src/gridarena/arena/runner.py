"""Run one game of a tournament from plain data: a :class:`GameTask` in, a JSON result out.

A task names the game spec, the entrant specs by seat, the block seed, the time control and where the
replay goes; a worker (a process, a Ray task or this process) builds the game and the bots from the
registries and plays them with :func:`gridarena.core.play.play_game`, the one game loop. Nothing live
crosses a process boundary, so there is nothing to pickle.

Openings: a block's games may start from a position drawn from the block seed, so both games of a pair
start alike with the seats swapped. ``opening="random(plies=2)"`` plays two seeded random plies; a game
can offer its own (AIND's random placements) by adding ``name -> "module:function"`` to
:data:`OPENINGS`, where the function is ``opening(game, seed, **params) -> state``.
"""

from __future__ import annotations

import base64
import hashlib
import importlib
import json
import math
import random
import shlex
import socket
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path, PurePath
from typing import Any, Final

from gridarena.arena.players import program_name
from gridarena.arena.replay import ReplayRecorder, gzip_document, read_replay, replay_turn, write_document
from gridarena.core.bot import Closes, ReportsLatency, WantsResult, WantsTimeControl
from gridarena.core.catalogue import BotEntry
from gridarena.core.clock import DEFAULT_GRACE
from gridarena.core.errors import GridArenaError, SpecError
from gridarena.core.gameclock import TimeSpec, game_clock
from gridarena.core.params import Command
from gridarena.core.params import Path as PathParam
from gridarena.core.play import GameRecord, MoveWatcher, play_game
from gridarena.core.registry import ExtraBots, bot_entry, make, make_bot
from gridarena.core.seeding import derive_seed
from gridarena.core.specs import parse_spec, unique_names
from gridarena.core.types import JSON, Game, GameState, Outcome, Player

Opening = Callable[..., list[Any]]
"""``opening(game, seed, **params)``: the actions played from the seed's initial state before the bots'
first move (the replay lists them, so a viewer can show every ply)."""

#: Openings by name; a game adds its own (``"aind": "gridarena.games.isolation.aind:opening"``).
OPENINGS: dict[str, str] = {
    "random": "gridarena.arena.runner:random_opening",
}


def random_opening(game: Game[Any], seed: int, plies: int = 2) -> list[Any]:
    """``plies`` random legal actions from the seed's initial state (fewer if the game ends first).

    >>> game = make("isolation(width=5,height=5)")
    >>> len(random_opening(game, 7)) == 2 and random_opening(game, 7) == random_opening(game, 7)
    True
    """
    rng = random.Random(derive_seed("opening", seed))
    state: GameState[Any] = game.new_initial_state(seed)
    actions: list[Any] = []
    for _ in range(plies):
        if state.is_terminal():
            break
        actions.append(state.random_action(rng))
        state = state.apply_action(actions[-1])
    return actions


def opening_start(game: Game[Any], seed: int, opening: str | None) -> tuple[GameState[Any], list[JSON]]:
    """The first position of a game (the seed's initial state, or after the named opening) and the
    opening's plies that led there, each ``{"ply", "player", "action"}`` as the replay lists them.

    >>> state, plies = opening_start(make("isolation(width=5,height=5)"), 7, "random(plies=2)")
    >>> state.ply, [p["player"] for p in plies]
    (2, [0, 1])
    """
    state: GameState[Any] = game.new_initial_state(seed)
    if not opening:
        return state, []
    name, params = parse_spec(opening)
    if name not in OPENINGS:
        raise SpecError(f"unknown opening {name!r}; known: {', '.join(sorted(OPENINGS))}")
    module, _, attr = OPENINGS[name].partition(":")
    function: Opening = getattr(importlib.import_module(module), attr)
    plies: list[JSON] = []
    for action in function(game, seed, **params):
        text = state.action_to_string(action)
        plies.append({"ply": len(plies), "player": state.current_player(), "action": text})
        state = state.apply_action(action)
    return state, plies


def start_state(game: Game[Any], seed: int, opening: str | None) -> GameState[Any]:
    """The first position of a game: the seed's initial state, or the named opening's."""
    return opening_start(game, seed, opening)[0]


SHORT_SPEC: Final = 40
"""The longest spec shown as it is; a longer one is shown by a short name (:func:`entrant_names`)."""


def entrant_names(specs: Sequence[str], game: str | None = None) -> list[str]:
    """The names entrants are shown by in every table, page, replay and report (the one rule).

    ``name=`` when given; else the spec when it has at most :data:`SHORT_SPEC` characters; else a
    short name from ``game``'s catalogue (:func:`short_name`: a program by its name, an AIND preset by
    its title). Entrants whose short names would be alike show the parameters that tell them apart,
    and any name left repeated gets ``#2``, ``#3``. The spec itself stays in the reports (``spec``).

    >>> entrant_names(["greedy", "greedy", "external(cmd='x',name=mine)"])
    ['greedy', 'greedy#2', 'mine']
    >>> entrant_names(["external(cmd='python3 /home/me/bots/my_bot.py --level 3',protocol='jsonl')"], "isolation")
    ['my_bot']
    >>> entrant_names(["alphabeta(depth=5,heuristic='improved',tt=False,aspiration=50)",
    ...                "alphabeta(depth=5,heuristic='open_move',tt=False,aspiration=50)"], "isolation")
    ['alphabeta(heuristic=improved)', 'alphabeta(heuristic=open_move)']
    """
    shown = [_given_or_short(spec, game) for spec in specs]
    groups: dict[str, list[int]] = {}
    for i, (text, shortened) in enumerate(shown):
        if shortened:
            groups.setdefault(text, []).append(i)
    plain = {text for text, shortened in shown if not shortened}
    for text, members in groups.items():
        if len(members) > 1 or text in plain:
            for i, told in zip(members, _told_apart(text, [specs[i] for i in members]), strict=True):
                if len(told) <= SHORT_SPEC:
                    shown[i] = (told, True)
    return unique_names(text for text, _ in shown)


def legacy_names(specs: Sequence[str]) -> list[str]:
    """The names entrants had before :func:`entrant_names` shortened long specs (``name=``, else the
    whole spec): the seats of games stored by earlier versions, which reports read back."""
    return unique_names(str(parse_spec(spec)[1].get("name", spec)) for spec in specs)


def _given_or_short(spec: str, game: str | None) -> tuple[str, bool]:
    """(the name, whether it was shortened from a long spec)."""
    values = parse_spec(spec)[1]
    if values.get("name") is not None:
        return str(values["name"]), False
    if len(spec) <= SHORT_SPEC:
        return spec.strip(), False
    return short_name(spec, game), True


def short_name(spec: str, game: str | None = None) -> str:
    """A bot's short name: the first of its entry's ``shown_by`` parameters that is given (a command
    by its program's name, a path by its file's), else the entry's title, else its catalogue name.

    >>> short_name("ab_improved(timeout=5.0)", "isolation"), short_name("aind(file='/x/game_agent.py')", "isolation")
    ('AB_Improved', 'game_agent')
    """
    name, values = parse_spec(spec)
    entry = _catalogued(game, name)
    if entry is None:
        return name
    params = entry.all_params()
    for key in entry.shown_by:
        value = values.get(key)
        if value is None:
            continue
        if isinstance(params.get(key), Command):
            return program_name(value if isinstance(value, str) else shlex.join(map(str, value)))
        if isinstance(params.get(key), PathParam):
            return PurePath(str(value)).stem[:64] or name
        return str(value)[:64]
    return entry.title or name


def _catalogued(game: str | None, bot: str) -> BotEntry | None:
    if game is None:
        return None
    try:
        return bot_entry(parse_spec(game)[0], bot)
    except GridArenaError:  # an unknown game or a bot given through extra_bots: no entry to read
        return None


def _told_apart(base: str, specs: Sequence[str]) -> list[str]:
    """``base(key=value,...)`` for each spec, with only the parameters whose values differ among them."""
    values = [parse_spec(spec)[1] for spec in specs]
    keys = sorted({k for v in values for k in v if len({repr(w.get(k)) for w in values}) > 1})
    return [f"{base}({','.join(f'{k}={v[k]}' for k in keys if k in v)})" if keys else base for v in values]


def build_bot(
    game: Game[Any], spec: str, time_control: str | None = None, extra_bots: ExtraBots | None = None
) -> Any:
    """A bot from its spec (the registry, or ``extra_bots``), told the time control if it wants it."""
    bot = make_bot(game, spec, extra=extra_bots)
    if isinstance(bot, WantsTimeControl):  # a program that is told the control at start-up
        bot.time_control = time_control
    return bot


@dataclass(frozen=True, slots=True)
class GameTask:
    """One game to play, as plain JSON-serialisable data (for any backend)."""

    tournament: int
    block: int
    game: int
    game_spec: str
    players: tuple[str, ...]
    names: tuple[str, ...]
    seed: int
    bot_seeds: tuple[int, ...]
    time: str | None = None
    clock: str = "wall"
    grace: float = DEFAULT_GRACE
    max_plies: int | None = None
    opening: str | None = None
    replay: str | None = None
    replay_inline: bool = False
    durable: bool = False
    extra_bots: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, JSON]:
        """The task as a JSON object."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> GameTask:
        """Inverse of :meth:`to_json`."""
        values = dict(data)
        for key in ("players", "names", "bot_seeds"):
            values[key] = tuple(values[key])
        return cls(**values)

    @property
    def key(self) -> tuple[int, int]:
        """(block, game): unique in a tournament."""
        return self.block, self.game

    def jsonl_path(self) -> Path | None:
        """Where the replay is written while the game runs (beside its compacted target)."""
        return None if self.replay is None else Path(self.replay).with_suffix("").with_suffix(".jsonl")

    def hard_limit(self) -> float | None:
        """Seconds after which a move that has not returned is killed with its worker."""
        if self.time is None:
            return None
        longest = TimeSpec.parse(self.time).longest_move()
        return longest + self.grace + max(1.0, longest)


def percentile(values: Sequence[float], q: float) -> float:
    """The nearest-rank ``q`` quantile of a non-empty sample.

    >>> percentile([5.0, 1.0, 3.0, 2.0, 4.0], 0.99), percentile([5.0, 1.0, 3.0, 2.0, 4.0], 0.5)
    (5.0, 3.0)
    """
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1)]


def time_stats(record: GameRecord, players: int) -> list[dict[str, JSON]]:
    """Per seat: moves, total, maximum and 99th-percentile wall ms, CPU ms, deepest search reported."""
    stats: list[dict[str, JSON]] = []
    for seat in range(players):
        turns = [t for t in record.turns if t.player == seat]
        walls = [t.wall_ms for t in turns]
        depths = [t.info["depth"] for t in turns if isinstance(t.info.get("depth"), int)]
        stats.append(
            {
                "moves": len(turns),
                "wall_ms": round(sum(walls), 3),
                "wall_ms_max": round(max(walls), 3) if walls else None,
                "wall_ms_p99": round(percentile(walls, 0.99), 3) if walls else None,
                "cpu_ms": round(sum(t.cpu_ms for t in turns), 3),
                "depth_max": max(depths) if depths else None,
            }
        )
    return stats


class _EndBots:
    """A recorder that tells bots with an ``end`` method the result (external programs exit)."""

    def __init__(self, bots: Sequence[Any]) -> None:
        self.bots = bots

    def turn(self, turn: Any, state: GameState[Any]) -> None:
        """Nothing to do per ply."""

    def result(self, record: GameRecord) -> None:
        """Send the result to every bot that wants it."""
        for bot in self.bots:
            if isinstance(bot, WantsResult):
                bot.end(record.outcome)


def result_record(
    task: GameTask,
    outcome: Outcome,
    plies: int,
    stats: list[dict[str, JSON]] | None = None,
    info: dict[str, JSON] | None = None,
) -> dict[str, JSON]:
    """The JSON result of a game: what the store keeps in its ``games`` row."""
    return {
        "tournament": task.tournament,
        "block": task.block,
        "game": task.game,
        "seats": list(task.names),
        "returns": list(outcome.returns),
        "ranks": list(outcome.ranks()),
        "termination": outcome.termination,
        "forfeit_seat": outcome.forfeit_player,
        "detail": outcome.reason,
        "plies": plies,
        "time_stats": stats or [],
        "host": socket.gethostname(),
        "replay": None,
        "replay_sha256": None,
        "finished": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "info": info or {},
    }


def run_game_task(task: GameTask, watcher: MoveWatcher | None = None) -> dict[str, JSON]:
    """Play the task's game and return its result record (replay compacted, or inline for Ray)."""
    game = make(task.game_spec)
    if len(task.players) != game.num_players:
        raise GridArenaError(
            f"{game.name} needs {game.num_players} players, the task has {len(task.players)}"
        )
    # play_game warms the bots up (kernels, tables) before the first move, outside the clock.
    bots = [build_bot(game, spec, task.time, task.extra_bots) for spec in task.players]
    state, opening = opening_start(game, task.seed, task.opening)
    # A Ray worker's replay travels back inside the result, so it is kept in memory, not in a file.
    jsonl = None if task.replay_inline else task.jsonl_path()
    recorders: list[Any] = [_EndBots(bots)]
    replay: ReplayRecorder | None = None
    if task.replay is not None:
        header: dict[str, JSON] = {
            "tournament": task.tournament,
            "block": task.block,
            "game_index": task.game,
        }
        header.update(
            time_control=task.time, clock=task.clock, grace=task.grace, players_specs=list(task.players)
        )
        if opening:
            header["opening"] = opening
        replay = ReplayRecorder(jsonl, game, task.names, task.seed, state, **header)
        recorders.insert(0, replay)
    try:
        record = play_game(
            game,
            bots,
            seed=task.seed,
            names=task.names,
            state=state,
            max_plies=task.max_plies,
            recorders=recorders,
            clock=game_clock(task.time, game.num_players, clock=task.clock, grace=task.grace),
            bot_seeds=task.bot_seeds,
            watcher=watcher,
        )
    finally:
        for bot in bots:
            if isinstance(bot, Closes):
                bot.close()
    stats = time_stats(record, game.num_players)
    for seat, bot in enumerate(bots):
        if (
            isinstance(bot, ReportsLatency) and bot.latency_ms
        ):  # an external program's round trips at start-up
            stats[seat]["latency_ms"] = [round(x, 3) for x in bot.latency_ms]
    result = result_record(task, record.outcome, record.plies, stats, record.final_state.result_info())
    if replay is not None:
        result.update(_finish_replay(task, jsonl, replay.writer.document()))
    return result


def _finish_replay(task: GameTask, jsonl: Path | None, document: bytes) -> dict[str, JSON]:
    """Write the compact replay (``document``: the finished JSON Lines file as one JSON document).

    Only a ``durable`` tournament syncs the file to disk; its game rows are synced too
    (``synchronous=FULL``). Otherwise the rename alone keeps the file whole, and skipping the sync
    saves about 4 ms per game. Ray workers send the gzipped bytes back inside the result instead.
    """
    if task.replay_inline:
        data = gzip_document(document)
        return {
            "replay": task.replay,
            "replay_sha256": hashlib.sha256(data).hexdigest(),
            "replay_data": base64.b64encode(data).decode("ascii"),
        }
    assert task.replay is not None and jsonl is not None
    sha = write_document(document, Path(task.replay), durable=task.durable)
    jsonl.unlink()
    return {"replay": task.replay, "replay_sha256": sha}


def write_inline_replay(result: dict[str, JSON]) -> None:
    """Write a replay that came back inside a result (Ray workers) to its target path."""
    data = result.pop("replay_data", None)
    if data is None or result.get("replay") is None:
        return
    target = Path(str(result["replay"]))
    target.parent.mkdir(parents=True, exist_ok=True)
    write_document(base64.b64decode(str(data)), target, durable=False, packed=True)


def forfeit_result(task: GameTask, seat: Player, termination: str, detail: str) -> dict[str, JSON]:
    """The result of a game whose worker was killed or died while ``seat`` was thinking.

    The position is rebuilt from the replay's JSON Lines prefix when there is one, so the forfeit is
    scored by the game's rules at the ply where it happened.
    """
    game = make(task.game_spec)
    state = start_state(game, task.seed, task.opening)
    plies = 0
    jsonl = task.jsonl_path()
    if jsonl is not None and jsonl.exists():
        for turn in read_replay(jsonl).turns:
            state, _ = replay_turn(state, turn)
            plies += 1
    name = task.names[seat]
    final = state.forfeit(seat, termination, f"{name}: {detail}")
    outcome = final.outcome()
    assert outcome is not None
    result = result_record(task, outcome, plies, info=final.result_info())
    if jsonl is not None and jsonl.exists() and task.replay is not None:
        with open(jsonl, "a", encoding="utf-8") as out:
            out.write(json.dumps({"result": {**outcome.to_json(), "plies": plies}}) + "\n")
        document = json.dumps(read_replay(jsonl).to_json(), separators=(",", ":")).encode()
        result.update(_finish_replay(task, jsonl, document))
    return result
