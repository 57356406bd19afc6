"""A bot is ready before it is asked: no numba kernel is compiled or loaded inside a move, whatever the
front end; on a fresh install (an empty numba cache) the first timed move is not lost on time; a bot
asked before its warm-up is over answers a cheap legal move in time."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gridarena.bots.warmup import WarmingBot
from gridarena.cli import iceandfire as iceandfire_cli
from gridarena.core.bot import BaseBot, Decision
from gridarena.core.clock import TimeControl
from gridarena.core.play import play_game
from gridarena.core.registry import available_bots, available_games, make, make_bot
from gridarena.core.types import Game, GameState
from gridarena.games.iceandfire.protocol import serve

#: The bots whose search runs on numba kernels; each is checked in a process of its own.
NUMBA_BOTS = [
    ("isolation", "best"),
    ("isolation", "best_nodes"),
    ("isolation", "ab_improved_depth"),
    ("reversixt", "trivial"),
    ("reversixt", "paranoid"),
    ("reversixt", "brs"),
    ("reversixt", "best"),
    ("slidingpuzzle", "solver"),
]
#: Not ours to warm up: a program, a person, OpenSpiel's own search (no kernel of ours; its MCTS
#: does not stop at a 0.1 s clock on Ice and Fire), and a policy or a Python bot that needs its file.
NOT_BOTS = {"external", "human", "openspiel", "policy", "python"}

#: Plays each (game, bot, plies) of argv[1] through the loop; per game, the numba compiler-lock
#: events (a compilation or a load from the cache) in the warm-up and inside the moves.
CHILD = """
import json, sys
from numba.core import event
from gridarena.core.gameclock import game_clock
from gridarena.core.play import play_game
from gridarena.core.registry import make, make_bot

class Count(event.Listener):
    n = 0
    def on_start(self, ev):
        Count.n += 1
    def on_end(self, ev):
        pass

event.register("numba:compiler_lock", Count())

class Watch:
    def __init__(self):
        self.first, self.inside = None, 0
    def started(self, seat, ply, clock):
        self.at = Count.n
        if self.first is None:
            self.first = Count.n
    def finished(self, seat, ply):
        self.inside += Count.n - self.at

out = []
for game_spec, spec, plies in json.loads(sys.argv[1]):
    game, watch, before = make(game_spec), Watch(), Count.n
    bots = [make_bot(game, spec)] + [make_bot(game, "random") for _ in range(game.num_players - 1)]
    record = play_game(game, bots, seed=3, clock=game_clock("0.1", game.num_players), max_plies=plies, watcher=watch)
    out.append([spec, (watch.first or Count.n) - before, watch.inside, record.outcome.termination])
print(json.dumps(out))
"""


def run_child(cases: list[tuple[str, str, int]], env: dict[str, str] | None = None) -> list[Any]:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, json.dumps(cases)],
        capture_output=True,
        text=True,
        timeout=600,
        env=None if env is None else {**os.environ, **env},
    )
    assert done.returncode == 0, done.stderr
    result: list[Any] = json.loads(done.stdout)
    return result


@pytest.mark.timing
@pytest.mark.parametrize("game,bot", NUMBA_BOTS)
def test_a_numba_bot_loads_its_kernels_before_its_first_move(game: str, bot: str) -> None:
    [(_, before, inside, termination)] = run_child([(game, bot, 8)])
    assert before > 0, "the bot loaded no kernel before its first move: is it still a numba bot?"
    assert inside == 0, f"{inside} kernels compiled or loaded inside moves"
    assert termination != "timeout"


def test_no_other_bot_loads_a_numba_kernel_inside_a_move() -> None:
    """A bot that starts using numba must warm up (and join NUMBA_BOTS), or this fails.

    They share one process, so a kernel that one bot loaded could hide another's; each bot of
    NUMBA_BOTS is checked alone above."""
    numba = set(NUMBA_BOTS)
    cases = [
        (game, bot, 2)
        for game in available_games()
        for bot in available_bots(game)
        if bot not in NOT_BOTS and (game, bot) not in numba
    ]
    assert [row[:3] for row in run_child(cases) if row[2]] == []


@pytest.fixture
def cold_cache(tmp_path: Path) -> dict[str, str]:
    """The environment of a fresh install: numba's cache in an empty directory."""
    return {"NUMBA_CACHE_DIR": str(tmp_path / "numba-cache")}


def cold_run(command: str, cache: dict[str, str]) -> dict[str, Any]:
    """``gridarena COMMAND --json`` in a fresh process on a fresh install; its JSON output."""
    done = subprocess.run(
        [sys.executable, "-m", "gridarena", *shlex.split(command), "--json"],
        capture_output=True,
        text=True,
        timeout=1200,
        env={**os.environ, **cache},
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


@pytest.mark.timing
def test_the_first_timed_move_on_a_fresh_install_is_in_time(cold_cache: dict[str, str]) -> None:
    """``gridarena play`` at 1 s a move: the proxy compiles its search (seconds) before the game."""
    command = "play 'isolation(width=5,height=5)' --players ab_improved_depth,greedy --time 1 --seed 1"
    result = cold_run(command, cold_cache)
    assert result["termination"] == "normal", result["reason"]
    assert any(Path(cold_cache["NUMBA_CACHE_DIR"]).rglob("*.nbi"))  # it did compile, into the empty cache


@pytest.mark.timing
@pytest.mark.slow
def test_a_timed_tournament_on_a_fresh_install_loses_no_game_on_time(
    cold_cache: dict[str, str], tmp_path: Path
) -> None:
    """Two games of ReversiXT's best against trivial on a 1 s account, each worker compiling at start."""
    command = "tournament 'reversixt(map=othello8)' --players best,trivial --games 2 --time account:1"
    command += f" --seed 1 --max-plies 6 --concurrency 2 --db {tmp_path / 't.sqlite'}"
    report = cold_run(command, cold_cache)
    assert report["games"] == 2 and all(not f for f in report["forfeits"].values()), report["forfeits"]


class SlowStart(BaseBot):
    """A bot whose warm-up takes ``seconds`` and whose own move is the last legal action."""

    name = "slowstart"

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.seconds, self.warmed, self.resets, self.moves = seconds, False, 0, 0

    def warm_up(self, game: Game[Any]) -> None:
        time.sleep(self.seconds)
        self.warmed = True

    def reset(self, game: Game[Any], seat: int, seed: int) -> None:
        assert self.warmed, "reset during the warm-up"
        self.resets += 1

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        self.moves += 1
        return Decision("WAIT" if state.game.name == "iceandfire" else state.legal_actions()[-1])


@pytest.mark.timing
def test_a_bot_asked_during_its_warm_up_answers_a_cheap_legal_move_at_once() -> None:
    game = make("isolation(width=5,height=5)")
    slow = SlowStart(1.0)
    ready: list[float] = []
    bot = WarmingBot(slow, game, on_ready=ready.append)
    bot.reset(game, 0, 7)
    state = game.new_initial_state()
    started = time.perf_counter()
    first = bot.act(state, TimeControl.for_seconds(0.05))
    assert time.perf_counter() - started < 0.05 and first.info == {"warming_up": True}
    assert state.illegal_reason(first.action) is None and slow.resets == 0
    assert bot.wait(10.0) and ready and ready[0] >= 1.0
    assert bot.act(state, TimeControl()).action == state.legal_actions()[-1] and slow.resets == 1


def test_the_loop_waits_for_a_warming_bot_and_a_failed_warm_up_is_a_crash() -> None:
    game = make("isolation(width=5,height=5)")
    bot = WarmingBot(SlowStart(0.2), game)
    record = play_game(game, [bot, make_bot(game, "greedy")], seed=1, time_per_move=1.0)
    assert bot.cheap_moves == 0 and record.outcome.termination == "normal"

    class Broken(SlowStart):
        def warm_up(self, game: Game[Any]) -> None:
            raise RuntimeError("no kernels here")

    record = play_game(game, [make_bot(game, "greedy"), Broken(0.0)], seed=1, names=["g", "b"])
    outcome = record.outcome
    assert (outcome.termination, outcome.forfeit_player) == ("crash", 1)
    assert outcome.reason == "b: warm-up failed: RuntimeError: no kernels here"


@pytest.mark.timing
def test_the_codingame_bot_answers_in_time_during_its_warm_up_then_plays_itself(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``gridarena iceandfire bot``: the warm-up starts before the first input; a turn that comes
    first gets a cheap legal answer within CodinGame's 1 s, and the bot says when it is ready."""
    game = make("iceandfire")
    slow = SlowStart(1.0)
    monkeypatch.setattr(iceandfire_cli, "make_bot", lambda game, name: slow)
    ready: list[float] = []
    bot = iceandfire_cli.standalone("slow", game, ready.append)
    state = game.new_initial_state(5)
    first = (state.codingame_init(0) + state.codingame_turn(0)).splitlines(keepends=True)
    second = state.codingame_turn(0).splitlines(keepends=True)

    def lines() -> Iterator[str]:
        yield from first
        while not ready:  # the referee's second turn comes once the bot is ready
            time.sleep(0.01)
        yield from second

    answers: list[tuple[float, str]] = []
    started = time.perf_counter()
    feed = lines()
    serve(
        bot, lambda: next(feed, ""), lambda line: answers.append((time.perf_counter() - started, line)), game
    )
    assert len(answers) == 2 and answers[0][0] < 0.5 and slow.moves == 1  # the first answer was not its own
    assert answers[1][1] == "WAIT\n" and ready[0] >= 1.0
