"""A bot's optional hooks are typed protocols (core/bot.py): the bots that have a hook are recognised by
its protocol, the loop uses it, and no front end looks a hook up by name."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from gridarena.bots.base import RandomBot
from gridarena.bots.external import ExternalBot
from gridarena.bots.warmup import WarmingBot
from gridarena.core.bot import (
    BaseBot,
    Closes,
    Decision,
    ReportsCpu,
    ReportsLatency,
    WantsResult,
    WantsTimeControl,
    WarmUp,
    Withdraws,
)
from gridarena.core.clock import TimeControl
from gridarena.core.play import play_game
from gridarena.core.registry import make, make_bot
from gridarena.core.types import GameState
from gridarena.games.reversixt.net.table import NetworkSeat

HOOKS = (WarmUp, WantsResult, Closes, WantsTimeControl, ReportsCpu, ReportsLatency, Withdraws)
NAMES = {"warm_up", "end", "close", "time_control", "last_move_cpu", "latency_ms", "withdrawn"}
SRC = Path(__file__).resolve().parents[2] / "src" / "gridarena"


def hooks_of(bot: object) -> set[str]:
    return {hook.__name__ for hook in HOOKS if isinstance(bot, hook)}


@pytest.mark.parametrize(
    ("bot", "expected"),
    [
        (RandomBot(), set()),
        (
            ExternalBot("python3 bot.py"),  # no process until reset
            {"WantsResult", "Closes", "WantsTimeControl", "ReportsCpu", "ReportsLatency"},
        ),
        (WarmingBot(RandomBot(), make("isolation")), {"WarmUp", "WantsResult", "Closes"}),
        (make_bot(make("reversixt"), "trivial"), {"WarmUp", "WantsTimeControl"}),  # its search bots
        (
            object.__new__(NetworkSeat),
            {"Withdraws"},
        ),  # a seat of our ReversiXT server (needs a table to play)
    ],
    ids=["random", "external", "warming", "reversixt-search", "network-seat"],
)
def test_the_bots_that_have_a_hook_are_recognised_by_its_protocol(bot: Any, expected: set[str]) -> None:
    assert hooks_of(bot) == expected


class _Remote(BaseBot):
    """A bot whose moves cost CPU elsewhere, and which leaves the game while it answers its second move."""

    name = "remote"

    def __init__(self) -> None:
        super().__init__(0)
        self.last_move_cpu: float | None = None
        self.moves = 0

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        self.moves += 1
        self.last_move_cpu = 0.25
        return Decision(state.legal_actions()[0])

    def withdrawn(self) -> tuple[str, str] | None:
        return ("crash", "connection lost") if self.moves >= 2 else None


def test_the_loop_uses_the_cpu_report_and_the_withdrawal() -> None:
    game = make("isolation")
    record = play_game(game, [_Remote(), RandomBot(1)], seed=1)
    mine = [t for t in record.turns if t.player == 0]
    assert [t.cpu_ms for t in mine] == [250.0]  # its own CPU report; the second answer came after it left
    assert record.outcome.termination == "crash" and "remote: connection lost" in record.outcome.reason


def _lookups(path: Path, root: Path = SRC.parent) -> list[str]:
    """``getattr``/``hasattr`` calls in a module whose attribute is a bot hook's name, as ``file:line``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr")
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and node.args[1].value in NAMES
        ):
            found.append(
                f"{path.relative_to(root)}:{node.lineno}: {node.func.id}(..., {node.args[1].value!r})"
            )
    return found


def test_no_hook_is_looked_up_by_name() -> None:
    """The loop, the arena and the front ends test a hook with ``isinstance(bot, WarmUp)`` and its kin."""
    found = [hit for path in sorted(SRC.rglob("*.py")) for hit in _lookups(path)]
    assert not found, "use the hook's protocol in core/bot.py:\n" + "\n".join(found)


def test_the_lookup_finder_can_fail(tmp_path: Path) -> None:
    module = tmp_path / "front_end.py"
    module.write_text(
        "def f(bot):\n    return getattr(bot, 'warm_up', None), hasattr(bot, 'close'), getattr(bot, 'x')\n"
    )
    assert _lookups(module, tmp_path) == [
        "front_end.py:2: getattr(..., 'warm_up')",
        "front_end.py:2: hasattr(..., 'close')",
    ]
