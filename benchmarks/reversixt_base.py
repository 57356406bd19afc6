"""A bot of another checkout of gridarena (``base:SPEC``), played in a child process: today's ``best``
against a changed one in the same sparring loop, on the same CPU budgets.

The child imports gridarena from ``--base DIR`` (the ``src`` folder of that checkout, e.g.
``git archive COMMIT src | tar -x -C DIR/..``), builds the bot there and answers one request a line:
the game's map text and the seat on ``reset``, a position (the state's JSON, which both checkouts
read alike while the rules are unchanged) and the seconds left on ``act``. The child measures those
seconds on its own thread's CPU clock when the parent's clock is a CPU clock, as an in-process bot
would, and keeps its bot (and its table) between the moves of a game.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from gridarena.core.bot import BaseBot, Decision
from gridarena.core.clock import TimeControl
from gridarena.games.reversixt.formats import write_map
from gridarena.games.reversixt.rules import ReversiState, ReversiXT

CHILD = r"""
import json, sys, time
from gridarena.core.clock import TimeControl
from gridarena.core.registry import make_bot
from gridarena.games.reversixt.formats import parse_map
from gridarena.games.reversixt.rules import ReversiXT

spec, game, bot = sys.argv[1], None, None
for line in sys.stdin:
    req = json.loads(line)
    if req["cmd"] == "reset":
        game = ReversiXT.from_map(parse_map(req["map"]))
        bot = make_bot(game, spec)
        bot.reset(game, req["seat"], req["seed"])
        if req.get("time_control") and hasattr(bot, "time_control"):
            bot.time_control = req["time_control"]
        out = {"ok": True}
    else:
        state = game.state_from_json(req["state"])
        clock = time.thread_time if req["cpu"] else time.perf_counter
        left = req["left"]
        if left is None:
            control = TimeControl(depth=req["depth"], nodes=req["nodes"])
        else:
            control = TimeControl(deadline=clock() + left, clock=clock, depth=req["depth"], nodes=req["nodes"])
        decision = bot.act(state, control)
        out = {"move": state.action_to_string(decision.action)}
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()
"""

BASE: Path | None = None
"""The ``src`` folder that ``base:`` bots import gridarena from (set by the benchmarks' ``--base``)."""


class BaseCheckoutBot(BaseBot):
    """``SPEC`` as the checkout in :data:`BASE` plays it, in a child process (see the module docstring)."""

    def __init__(self, game: ReversiXT, spec: str) -> None:
        super().__init__(None)
        if BASE is None:
            raise SystemExit("base: bots need --base DIR (the src folder of the other checkout)")
        self.name, self.map_text = f"base:{spec}", write_map(game.board)
        self.time_control: str | None = None
        env = {**os.environ, "PYTHONPATH": str(BASE)}
        self.proc = subprocess.Popen(
            [sys.executable, "-c", CHILD, spec], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env,
            cwd=str(BASE),
        )  # fmt: skip

    def _ask(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"{self.name}: the child process ended (exit {self.proc.wait()})")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def reset(self, game: Any, seat: int, seed: int) -> None:
        super().reset(game, seat, seed)
        self._ask(
            {
                "cmd": "reset",
                "map": self.map_text,
                "seat": seat,
                "seed": seed,
                "time_control": self.time_control,
            }
        )

    def act(self, state: Any, clock: TimeControl) -> Decision:
        assert isinstance(state, ReversiState)
        left = None if clock.deadline is None else clock.time_left()
        answer = self._ask({
            "cmd": "act", "state": state.to_json(), "left": left, "cpu": clock.clock is time.thread_time,
            "depth": clock.depth, "nodes": clock.nodes,
        })  # fmt: skip
        return Decision(state.string_to_action(answer["move"]), {})

    def close(self) -> None:
        """End the child (also when the bot is dropped)."""
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def __del__(self) -> None:
        self.close()


def player_bot(game: ReversiXT, spec: str) -> Any:
    """The bot of ``spec``: ``base:SPEC`` from the other checkout (:class:`BaseCheckoutBot`), else this one's."""
    from gridarena.core.registry import make_bot

    if spec.startswith("base:"):
        return BaseCheckoutBot(game, spec[5:])
    return make_bot(game, spec)
