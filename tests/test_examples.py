"""The "Write your own bot" example of every game (``examples/<game>/mybot.py``): the docs page shows the
file as it is, and the bot plays the same game in this process (``python(file=...)``) and as a program
over the jsonl protocol (``external(cmd=...)``), and in a tournament."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Final

import pytest

from gridarena.arena.backends import InlineBackend
from gridarena.arena.store import Store
from gridarena.arena.tournament import TournamentConfig, run_tournament
from gridarena.bots.external import ExternalBot
from gridarena.core.bot import Bot
from gridarena.core.play import GameRecord, play_game
from gridarena.core.registry import available_games, make, make_bot
from gridarena.core.specs import format_spec

ROOT: Final = Path(__file__).resolve().parents[1]

#: Per game: a short game, its seed, the opponents, and what the example must show in it.
GAMES: Final = {
    "isolation": ("isolation(width=5,height=5)", 3, ["random"]),
    "reversixt": ("reversixt(map=othello8)", 0, ["random"]),
    "iceandfire": ("iceandfire", 1, ["wood2"]),
    "pentocity": ("pentocity(sequencer=misfits)", 84, []),
    "slidingpuzzle": ("slidingpuzzle(scramble=40)", 2, []),
}


def example(name: str) -> Path:
    return ROOT / "examples" / name / "mybot.py"


def test_every_game_has_an_example() -> None:
    assert set(GAMES) == set(available_games())
    assert all(example(name).is_file() for name in GAMES)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_docs_show_the_example_file_as_it_is(name: str) -> None:
    page = (ROOT / "docs" / f"{name}.md").read_text()
    assert "## Write your own bot" in page
    shown = re.findall(r"^```py\n(.*?)^```", page, re.M | re.S)
    assert example(name).read_text() in shown


def play(name: str, bot: Bot) -> GameRecord:
    spec, seed, others = GAMES[name]
    game = make(spec)
    bots = [bot, *(make_bot(game, other) for other in others)]
    seeds = [seed + 100 * seat for seat in range(len(bots))]  # the same seeds for both paths
    try:
        return play_game(game, bots, seed=seed, bot_seeds=seeds, time_per_move=30.0)
    finally:
        close = getattr(bot, "close", None)
        if close is not None:
            close()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_example_plays_the_same_game_in_process_and_as_a_program(name: str) -> None:
    game = make(GAMES[name][0])
    inside = play(name, make_bot(game, format_spec("python", {"file": str(example(name))})))
    program = play(name, ExternalBot(f"{sys.executable} {example(name)}", name="mine"))
    for record in (inside, program):
        assert record.outcome.termination == "normal", record.outcome.reason
    assert [t.action for t in program.turns] == [
        t.action for t in inside.turns
    ]  # the same bot: the same moves from the same seeds
    returns = inside.outcome.returns
    if name == "pentocity":  # more than twice the points of random placements
        assert returns[0] > 2 * play(name, make_bot(game, "random")).outcome.returns[0]
    elif name == "slidingpuzzle":  # solved by A* within its budget: the shortest solution
        assert returns == play(name, make_bot(game, "solver(algorithm=astar)")).outcome.returns
    else:
        assert returns[0] > returns[1]  # a win (these seeds; the example wins most of its games)


def test_an_example_plays_a_tournament() -> None:
    spec = format_spec("python", {"file": str(example("isolation")), "name": "mine"})
    config = TournamentConfig("isolation(width=5,height=5)", (spec, "random"), games=4, seed=1, time="1")
    report = run_tournament(config, Store(":memory:"), InlineBackend()).report
    assert report["games"] == 4 and report["forfeits"]["mine"] == {}
