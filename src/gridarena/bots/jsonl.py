"""The program's side of the ``jsonl`` protocol: a bot of yours as a program, ``external(cmd=...)``.

:func:`serve` answers the arena's messages (docs/arena.md, "External bots: the jsonl protocol") with
a :class:`~gridarena.core.bot.Bot`: ``start`` builds the game from its name and options and resets the
bot, each ``turn`` rebuilds the state from its JSON and asks ``act`` (with a clock that ends at the
turn's ``time_left_ms``), and ``end`` tells a bot that wants the result. So the class that
``python(file=...)`` plays in-process plays the same moves as a program, in its own process::

    if __name__ == "__main__":
        serve(MyBot(), sys.stdin, sys.stdout)

>>> import io, json
>>> from gridarena.bots.base import RandomBot
>>> arena = [
...     {"type": "start", "game": "isolation", "options": {"width": 3, "height": 3}, "seat": 0, "seed": 1},
...     {"type": "ping"},
...     {"type": "turn", "state": {"width": 3, "height": 3, "board": ".../.../...", "ply": 0}, "legal": None},
...     {"type": "end", "result": {"returns": [1.0, -1.0]}},
... ]
>>> out = io.StringIO()
>>> serve(RandomBot(1), [json.dumps(m) for m in arena], out)
1
>>> [json.loads(line) for line in out.getvalue().splitlines()][:2]
[{'type': 'ready', 'name': 'random'}, {'type': 'pong'}]
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, TextIO

from gridarena.core.bot import Bot, WantsResult, WantsTimeControl, warm_up
from gridarena.core.clock import TimeControl
from gridarena.core.collector import freeze_startup
from gridarena.core.errors import GridArenaError
from gridarena.core.registry import make
from gridarena.core.types import JSON, Game, Outcome


class ProtocolError(GridArenaError):
    """A message from the arena that this side cannot read (the program then exits with it)."""


def serve(bot: Bot, lines: Iterable[str], out: TextIO) -> int:
    """Play ``bot`` over the jsonl protocol: messages from ``lines``, answers on ``out``; returns the
    number of turns answered when ``end`` comes (or the input ends). Once the bot is ready, what the
    process holds is frozen out of the garbage collector's passes (a program plays one game:
    :func:`~gridarena.core.collector.freeze_startup`)."""
    game: Game[Any] | None = None
    turns = 0
    for line in lines:
        message = json.loads(line)
        kind = message.get("type") if isinstance(message, dict) else None
        if kind == "start":
            game = make(str(message["game"]), **message.get("options", {}))
            if isinstance(bot, WantsTimeControl):
                bot.time_control = message.get("time_control")
            bot.reset(game, int(message["seat"]), int(message["seed"]))
            warm_up(bot, game)
            freeze_startup()  # no collector pass in a move walks the imports (core/collector.py)
            reply: dict[str, JSON] = {"type": "ready", "name": bot.name}
        elif kind == "ping":
            reply = {"type": "pong"}
        elif kind == "turn":
            if game is None:
                raise ProtocolError("jsonl: a turn came before start")
            reply = _turn(bot, game, message)
            turns += 1
        elif kind == "end":
            if isinstance(bot, WantsResult) and isinstance(message.get("result"), dict):
                bot.end(Outcome.from_json(message["result"]))
            break
        else:
            raise ProtocolError(f"jsonl: unknown message {line.strip()[:200]!r}")
        out.write(json.dumps(reply, separators=(",", ":")) + "\n")
        out.flush()
    return turns


def _turn(bot: Bot, game: Game[Any], message: dict[str, Any]) -> dict[str, JSON]:
    """The answer to one turn: the bot's action as the game's text, and its info."""
    state = game.state_from_json(message["state"])
    left = message.get("time_left_ms")
    clock = TimeControl.for_seconds(None if left is None else float(left) / 1000.0)
    decision = bot.act(state, clock)
    return {"action": state.action_to_string(decision.action), "info": decision.info}
