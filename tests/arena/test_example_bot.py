"""The example external bot shown in docs/arena.md is the file in examples/, and it plays legal games."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from gridarena.bots.external import ExternalBot
from gridarena.core.play import play_game
from gridarena.core.registry import make, make_bot

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "random_bot.py"


def test_the_docs_show_the_example_file_verbatim() -> None:
    shown = re.findall(r"^```py\n(.*?)^```", (ROOT / "docs" / "arena.md").read_text(), re.M | re.S)
    assert shown == [EXAMPLE.read_text()]


def test_the_example_bot_plays_whole_games_on_any_board() -> None:
    for spec in ("isolation", "isolation(width=4,height=6)"):
        game = make(spec)
        bot = ExternalBot(f"{sys.executable} {EXAMPLE}", name="example")
        record = play_game(
            game, [bot, make_bot(game, "random")], seed=5, names=["example", "random"], time_per_move=2.0
        )
        bot.close()
        assert record.outcome.termination == "normal" and record.plies > 4
