"""The catalogue's entries: what a game package declares about itself and its bots.

Each game package has a ``catalogue.py`` with one :class:`GameEntry`: the game's factory, its bots
(each a :class:`BotEntry` with its declared parameters), its renderer, its analyser, its evaluation
functions and what the play page needs. Generic bots come in families (``bots/catalogue.py``,
``adapters/catalogue.py``). :mod:`gridarena.core.registry` only collects the entries; every bot is
built through its declaration (:func:`check_bot_values` before the factory is called), so a
keyword that is not declared, a value out of range or a bot that reaches a program or a file from a
request never reaches a factory.

>>> entry = BotEntry("gridarena.bots.base:make_random_bot", "uniform over the legal moves")
>>> check_bot_values("random", entry, {"depth": 3})
Traceback (most recent call last):
...
gridarena.core.params.ParamError: random: unknown parameter 'depth'; random takes name, seed
>>> entry = BotEntry("x:y", "", {"depth": Int(1, 64, default=4)})
>>> check_bot_values("deep", entry, {"depth": 100})
Traceback (most recent call last):
...
gridarena.core.params.ParamError: deep: depth must be an integer from 1 to 64, got 100
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from gridarena.core.errors import SpecError
from gridarena.core.params import (
    REQUIRED,
    Int,
    Param,
    ParamError,
    Reach,
    Text,
    check_names,
    check_values,
    shown,
)

#: Parameters every bot takes, declared once: a display name and a seed for its random choices.
COMMON_PARAMS: Final[Mapping[str, Param]] = {
    "name": Text(64, optional=True, help="the name shown in tables, pages and replays"),
    "seed": Int(0, 2**64 - 1, optional=True, help="the seed of the bot's own random choices"),
}


class UnsafeSpecError(SpecError):
    """A spec from a request (the web viewer) that would start a program or reach a file on the server."""


@dataclass(frozen=True, slots=True)
class BotEntry:
    """A catalogued bot: its factory (a lazy ``"module:function"``), one line on what it does, its
    declared parameters, and what it reaches beyond its game.

    The factory is called as ``factory(game, seed=..., **values)`` with exactly the declared
    parameters that were given, each checked and converted; a test holds every factory's signature
    to its declaration (names and defaults) and refuses ``**kwargs``. ``title`` is the display name
    (``AB_Improved``); empty, the catalogue name is shown. ``shown_by`` names the parameters whose
    value names the bot better than either (``external``: its command, shown by the program's name),
    the first one given counts; both apply only where a spec is too long to show as it is.
    """

    factory: str
    summary: str
    params: Mapping[str, Param] = field(default_factory=dict)
    reaches: frozenset[Reach] = frozenset()
    title: str = ""
    shown_by: tuple[str, ...] = ()

    def all_params(self) -> dict[str, Param]:
        """The declared parameters and the common ones (``name``, ``seed``)."""
        return {**self.params, **COMMON_PARAMS}

    def request_problem(self, name: str, values: Mapping[str, object]) -> str | None:
        """Why a request from the network may not build this bot with ``values`` (None: it may)."""
        if self.reaches:
            return f"{name} " + " and ".join(sorted(r.value for r in self.reaches))
        for key, value in values.items():
            problem = self.params[key].request_problem(value) if key in self.params else None
            if problem is not None:
                return f"{name}: {key}={shown(value)} {problem}"
        return None


@dataclass(frozen=True, slots=True)
class PlayEntry:
    """How the web viewer's play page offers a game: the spec it starts, the opponent it proposes (None:
    a game for one), the bot that gives hints, and a line telling a person how to move."""

    spec: str
    opponent: str | None
    hint: str | None
    how: str


@dataclass(frozen=True, slots=True)
class GameEntry:
    """A game package's one entry in the catalogue.

    ``factory`` builds the game (its ``PARAMETERS`` declare each parameter's range); ``bots`` are the
    game's own bots; ``renderer`` (``render_svg``), ``analyser`` (``make_analyser``) and ``evaluators``
    (a table ``name -> evaluate(state, player)`` for the generic search bots, whose names are
    ``heuristics``) are lazy ``"module:attr"`` references; ``play`` says how the browser offers it;
    ``words`` (a :class:`~gridarena.core.words.Words`) is what the game says to people: its seats'
    colours, how a game ended, its parameters.
    """

    name: str
    title: str
    factory: str
    bots: Mapping[str, BotEntry] = field(default_factory=dict)
    renderer: str | None = None
    analyser: str | None = None
    evaluators: str | None = None
    heuristics: tuple[str, ...] = ()
    play: PlayEntry | None = None
    words: str | None = None


def check_bot_values(
    name: str, entry: BotEntry, values: Mapping[str, object]
) -> tuple[str | None, int | None, dict[str, object]]:
    """Check ``values`` against the entry's declaration: (display name, seed, the factory's keywords).

    Every keyword must be declared, every value in its range; a required parameter must be given.
    The message names the bot, the parameter and what it allows.
    """
    table = entry.all_params()
    check_names(name, table, values)
    checked = check_values(name, table, values)
    for key, param in entry.params.items():
        if param.default is REQUIRED and key not in checked:
            raise ParamError(f"{name}: {key} is required ({param.describe()})")
    display = checked.pop("name", None)
    seed = checked.pop("seed", None)
    return (None if display is None else str(display)), seed, checked  # type: ignore[return-value]


def describe_bot(name: str, entry: BotEntry) -> list[str]:
    """Lines of text describing a bot and its parameters (``gridarena bots``, the docs' tables)."""
    lines = [f"{name}: {entry.summary}"]
    if entry.reaches:
        lines.append("  reaches: " + "; ".join(sorted(r.value for r in entry.reaches)))
    for key, param in entry.params.items():
        if param.default is REQUIRED:
            default = "required"
        elif param.default is None:
            default = "not set by default"  # the bot's own choice, e.g. per map or per player count
        else:
            default = f"default {param.default!r}"
        extra = f" ({param.help})" if param.help else ""
        lines.append(f"  {key}: {param.describe()}; {default}{extra}")
    return lines
