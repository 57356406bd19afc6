"""A tournament from start to report: schedule -> backend -> store -> statistics.

:func:`run_tournament` is what ``gridarena tournament`` calls. It writes the configuration and every
scheduled block to the database first, then streams games to a backend and stores each result as it
comes back, so a tournament killed at any moment resumes (``resume=ID``) by playing only the blocks
that are not ``done``. With an SPRT, no new game starts once a bound is crossed; the games in flight
finish and are stored.

>>> from gridarena.arena.backends import InlineBackend
>>> from gridarena.arena.store import Store
>>> config = TournamentConfig("isolation(width=4,height=4)", ("greedy", "random"), games=2, seed=7)
>>> outcome = run_tournament(config, Store(":memory:"), InlineBackend())
>>> outcome.status, [row["games"] for row in outcome.report["standings"]]
('done', [2, 2])
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from gridarena.arena.backends import Backend, Result
from gridarena.arena.counts import StatsInputError
from gridarena.arena.load import cores, overload
from gridarena.arena.report import build_report, match_sample
from gridarena.arena.runner import GameTask, build_bot, entrant_names
from gridarena.arena.schedule import Block, schedule
from gridarena.arena.seeds import bot_seed, new_master_seed
from gridarena.arena.sprt import SprtConfig, SprtResult, sprt
from gridarena.arena.store import Store, config_hash
from gridarena.core.bot import Closes
from gridarena.core.clock import DEFAULT_GRACE
from gridarena.core.errors import GridArenaError
from gridarena.core.gameclock import TimeSpec
from gridarena.core.registry import make
from gridarena.core.types import JSON

LOAD_SAMPLE_SECONDS = 10.0


class TournamentError(GridArenaError):
    """A tournament that cannot start or resume as asked; the message says what to do instead."""


@dataclass(frozen=True, slots=True)
class TournamentConfig:
    """Everything that fixes a tournament's schedule and games (stored, hashed and compared on resume)."""

    game: str
    players: tuple[str, ...]
    games: int = 2
    seed: int | None = None
    format: str = "round-robin"
    candidates: int = 1
    time: str | None = None
    clock: str = "wall"
    grace: float = DEFAULT_GRACE
    swap: bool = True
    all_orders: bool = False
    max_groups: int = 200
    max_plies: int | None = None
    opening: str | None = None
    run_seeds: tuple[int, ...] | None = None
    sprt: str | None = None
    forced_concurrency: bool = False
    extra_bots: dict[str, str] = field(default_factory=dict)
    """Declared bots outside the catalogue, name -> ``"module:ATTR"`` of a :class:`BotEntry` (plugins and
    tests); shipped as text."""
    run_bot_seeds: tuple[int, ...] | None = None
    """The player's seed of each run of ``run_seeds`` (default: derived from the master seed), so a
    single-player series can repeat an original's runs exactly (Pentocity's 2016 tournament)."""

    def to_json(self) -> dict[str, JSON]:
        """The configuration as JSON (what the database stores)."""
        data = asdict(self)
        data["players"] = list(self.players)
        for key in ("run_seeds", "run_bot_seeds"):
            data[key] = None if data[key] is None else list(data[key])
        if data["run_bot_seeds"] is None:  # absent, so configurations stored before it hash alike
            del data["run_bot_seeds"]
        return data

    @classmethod
    def from_json(cls, data: dict[str, JSON]) -> TournamentConfig:
        """Inverse of :meth:`to_json`."""
        values = dict(data)
        values["players"] = tuple(values["players"])
        for key in ("run_seeds", "run_bot_seeds"):
            if values.get(key) is not None:
                values[key] = tuple(values[key])
        return cls(**values)

    def names(self) -> list[str]:
        """The entrants' display names."""
        return entrant_names(self.players, self.game)


@dataclass(slots=True)
class Progress:
    """What a progress display needs after each stored game."""

    tournament: int
    games_total: int
    games_done: int = 0
    blocks_done: int = 0
    forfeits: int = 0
    sprt: SprtResult | None = None
    last: Result = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class TournamentOutcome:
    """How a run ended (``done``, ``stopped``) and the report built from the database."""

    tournament: int
    status: str
    report: dict[str, JSON]


def default_concurrency(timed: bool) -> int:
    """All usable cores for untimed games; one less (at least 1) for timed ones, so that the machine's other
    work does not steal their time."""
    return max(1, cores() - 1) if timed else cores()


def check_concurrency(concurrency: int, timed: bool, force: bool) -> None:
    """Refuse a timed tournament above the core count unless forced: oversubscription causes timeouts."""
    if timed and concurrency > cores() and not force:
        raise TournamentError(
            f"--concurrency {concurrency} is above the {cores()} usable cores for a timed tournament; "
            "games would lose on time to waiting for a core (use --force-concurrency to insist)"
        )


def validate_config(config: TournamentConfig) -> tuple[int, list[str]]:
    """Build the game and every bot once, so a bad spec fails before anything is stored (the command
    line calls it before it opens the database, so a refused spec leaves no file): the seats and the
    players' names."""
    game = make(config.game)
    if config.time is not None:
        TimeSpec.parse(config.time)
    if config.run_bot_seeds is not None and (
        config.run_seeds is None or len(config.run_bot_seeds) != len(config.run_seeds)
    ):
        raise TournamentError("run_bot_seeds needs run_seeds of the same length (one player seed per run)")
    if config.sprt is not None:
        if len(config.players) != 2:
            raise TournamentError(f"--sprt needs exactly two players, got {len(config.players)}")
        SprtConfig.parse(config.sprt)
    for spec in config.players:
        bot = build_bot(game, spec, extra_bots=config.extra_bots)
        if isinstance(bot, Closes):
            bot.close()
    return game.num_players, config.names()


def _blocks(config: TournamentConfig, seats: int, master: int) -> list[Block]:
    return schedule(
        len(config.players),
        seats=seats,
        games=config.games,
        master=master,
        fmt=config.format,  # type: ignore[arg-type]
        candidates=config.candidates,
        swap=config.swap,
        all_orders=config.all_orders,
        max_groups=config.max_groups,
        run_seeds=config.run_seeds,
    )


def _bot_seeds(config: TournamentConfig, block: Block, master: int, seated: Sequence[str]) -> tuple[int, ...]:
    """Each seat's bot seed: the configured one of a run, else derived from the master seed and the round."""
    if config.run_bot_seeds is not None:
        return (config.run_bot_seeds[block.round],) * len(seated)
    return tuple(bot_seed(master, block.round, name) for name in seated)


def _tasks(
    config: TournamentConfig,
    tournament: int,
    blocks: Sequence[Block],
    master: int,
    replays: Path | None,
    inline: bool,
    durable: bool,
) -> Iterator[GameTask]:
    names = config.names()
    for block in blocks:
        for g, seating in enumerate(block.seatings):
            yield GameTask(
                tournament=tournament,
                block=block.number,
                game=g,
                game_spec=config.game,
                players=tuple(config.players[i] for i in seating),
                names=tuple(names[i] for i in seating),
                seed=block.seed,
                bot_seeds=_bot_seeds(config, block, master, [names[i] for i in seating]),
                time=config.time,
                clock=config.clock,
                grace=config.grace,
                max_plies=config.max_plies,
                opening=config.opening,
                replay=None if replays is None else str(replays / f"{block.number}-{g}.json.gz"),
                replay_inline=inline,
                durable=durable,
                extra_bots=dict(config.extra_bots),
            )


def _open(
    config: TournamentConfig, store: Store, blocks_of: Callable[[int], list[Block]], new: bool
) -> tuple[int, int]:
    """Create the tournament (refusing to duplicate an unfinished one): (id, master seed)."""
    if config.seed is None:
        config = replace(config, seed=new_master_seed())
    assert config.seed is not None
    data = config.to_json()
    previous = store.unfinished(config_hash(data))
    if previous is not None and not new:
        raise TournamentError(
            f"tournament {previous.id} in {store.path} has the same configuration and is unfinished; "
            f"continue it with --resume {previous.id}, or start another with --new"
        )
    blocks = blocks_of(config.seed)
    names = config.names()
    rows = [(b.number, b.key(names), b.round, b.seed, len(b.seatings)) for b in blocks]
    return store.create_tournament(data, config.seed, rows), config.seed


class _Coordinator:
    """The sink of a backend: stores results, checks the SPRT and the load, reports progress."""

    def __init__(
        self,
        store: Store,
        tournament: int,
        config: TournamentConfig,
        total: int,
        progress: Callable[[Progress], None] | None,
        stop: Callable[[], bool],
        warn: Callable[[str], None],
    ) -> None:
        self.store, self.tournament, self.config = store, tournament, config
        self.progress, self.stop, self.warn = progress, stop, warn
        self.state = Progress(tournament, total)
        self.sprt_config = SprtConfig.parse(config.sprt) if config.sprt else None
        self.decided = False
        self.aborted: list[Result] = []
        self.root = store.path.parent if store.path is not None else None
        self.timed = config.time is not None
        self.loaded = False
        self.load_sampled = time.monotonic()

    def _check_load(self) -> None:
        if not self.timed or time.monotonic() - self.load_sampled < LOAD_SAMPLE_SECONDS:
            return
        self.load_sampled = time.monotonic()
        why = overload()
        if why is not None and not self.loaded:
            self.warn(why)
        self.loaded = why is not None

    def _check_sprt(self) -> None:
        if self.sprt_config is None or self.decided:
            return
        sample = match_sample(self.store.games(self.tournament), self.config.names())
        if sample is None:
            return
        try:
            result = sprt(self.sprt_config, sample)
        except StatsInputError:
            return
        self.state.sprt = result
        self.decided = result.decision is not None

    def __call__(self, result: Result) -> bool:
        self._check_load()
        if result.get("aborted"):
            self.aborted.append(result)
            self.store.mark_aborted(self.tournament, int(result["block"]))
            self.warn(f"block {result['block']} game {result['game']} aborted: {result['detail']}")
        else:
            done = self.store.record_game(result, self.root)
            self.state.games_done += 1
            self.state.forfeits += result["termination"] not in ("normal", "adjudicated")
            if done:
                self.state.blocks_done += 1
                if self.loaded:
                    self.store.mark_load_warning(self.tournament, [int(result["block"])])
                self._check_sprt()
            self.state.last = result
        if self.progress is not None:
            self.progress(self.state)
        return not (self.decided or self.stop())


def run_tournament(
    config: TournamentConfig | None,
    store: Store,
    backend: Backend,
    *,
    resume: int | None = None,
    new: bool = False,
    progress: Callable[[Progress], None] | None = None,
    stop: Callable[[], bool] = lambda: False,
    exclude_forfeits: bool = False,
    warn: Callable[[str], None] = warnings.warn,
    play_order: Callable[[Block], Any] | None = None,
) -> TournamentOutcome:
    """Play a new tournament (``config``) or the missing blocks of a stored one (``resume``).

    ``progress`` is called after every stored game; ``stop`` returning True stops scheduling (the
    games in flight finish); ``exclude_forfeits`` adds the standings without forfeited games. ``warn``
    receives what a person should know but the report cannot show as it happens (an aborted block, a
    loaded machine); by default it is a Python warning. ``play_order`` sorts the blocks to play (a key;
    default: their numbers, rounds interleaved): AIND's table, one opponent after another, completes a
    row at a time; the blocks keep their numbers and seeds, so the games are the same.
    """
    if resume is not None:
        stored = store.tournament(None if resume < 0 else resume)
        if "source" in stored.config:  # games another program played and stored (a game server's)
            raise TournamentError(
                f"tournament {stored.id} was recorded by {stored.config['source']}, not scheduled here: "
                "there is nothing to resume"
            )
        saved = TournamentConfig.from_json(stored.config)
        if (
            config is not None
            and config_hash(replace(config, seed=stored.master_seed).to_json()) != stored.config_hash
        ):
            raise TournamentError(
                f"the options given contradict tournament {stored.id}'s stored configuration; "
                "resume with --resume alone (and --db), or start a new tournament"
            )
        config, tournament, master = saved, stored.id, stored.master_seed
        seats, _ = validate_config(config)
        pending = set(store.reset_unfinished(tournament))
    else:
        if config is None:
            raise TournamentError("a new tournament needs a configuration")
        fresh = config
        seats, _ = validate_config(fresh)
        tournament, master = _open(fresh, store, lambda m: _blocks(fresh, seats, m), new)
        config = replace(config, seed=master)
        pending = {b.block for b in store.blocks(tournament)}
    assert config is not None
    blocks = [b for b in _blocks(config, seats, master) if b.number in pending]
    if play_order is not None:
        blocks.sort(key=play_order)
    replays = store.replay_dir(tournament) if store.path is not None else None
    total = sum(len(b.seatings) for b in blocks)
    sink = _Coordinator(store, tournament, config, total, progress, stop, warn)
    tasks = _tasks(config, tournament, blocks, master, replays, backend.inline_replays, store.durable)
    backend.run(tasks, sink)
    finished = all(b.status == "done" for b in store.blocks(tournament))
    status = "done" if finished or sink.decided else "stopped"
    store.set_status(tournament, status)
    report = build_report(store, tournament, exclude_forfeits=exclude_forfeits)
    if sink.state.sprt is not None:
        report["sprt_decision_at_crossing"] = sink.state.sprt.to_json()
    report["aborted"] = [dict(r) for r in sink.aborted]
    return TournamentOutcome(tournament, status, report)
