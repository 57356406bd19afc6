"""The registry: it collects the catalogue's entries (:mod:`gridarena.catalogue`) and builds games and
bots only through their declarations.

Nothing here names a game, a bot or a page: each game package declares one
:class:`~gridarena.core.catalogue.GameEntry`, and the generic bots come in families. Entries are
imported lazily, when first asked for, so ``gridarena games`` stays fast and a broken game cannot
break the others. Every spec is checked against its declaration before a factory is called: an
unknown keyword, a wrong type, a value out of range is one line naming the bot, the parameter and
what is allowed. The ``*_for_request`` functions are the web's: they build only what reaches nothing
beyond its game (no program, no file, no terminal), and refuse the rest before anything is imported.
"""

from __future__ import annotations

import difflib
import importlib
from collections.abc import Callable, Mapping
from typing import Any, Final, get_args

from gridarena.core.catalogue import (
    BotEntry,
    GameEntry,
    PlayEntry,
    UnsafeSpecError,
    check_bot_values,
)
from gridarena.core.errors import SpecError, UnknownNameError
from gridarena.core.params import Param, check_names, check_values, request_problems
from gridarena.core.specs import parse_spec
from gridarena.core.types import Game
from gridarena.core.words import Words

#: Where the catalogue's tables are (the one module that names every game and family).
CATALOGUE: Final = "gridarena.catalogue"

__all__ = ["BotEntry", "GameEntry", "PlayEntry", "UnsafeSpecError"]


def _load(entry: str) -> Any:
    module, _, attr = entry.partition(":")
    return getattr(importlib.import_module(module), attr)


def _catalogue() -> Any:
    return importlib.import_module(CATALOGUE)


def _check_name(kind: str, name: str, table: Mapping[str, object]) -> None:
    if name not in table:
        raise UnknownNameError(kind, name, difflib.get_close_matches(name, list(table)))


def available_games() -> list[str]:
    """Names of the registered games, sorted.

    >>> "isolation" in available_games()
    True
    """
    return sorted(_catalogue().GAMES)


def game_ids() -> tuple[str, ...]:
    """The names the ``GameId`` type allows (a test keeps it equal to the table)."""
    return get_args(_catalogue().GameId)


def game_entry(game: str) -> GameEntry:
    """The catalogue entry of ``game``.

    >>> game_entry("isolation").title
    'Knight Isolation (Udacity AIND)'
    """
    games = _catalogue().GAMES
    _check_name("game", game, games)
    entry: GameEntry = _load(games[game])
    return entry


def parameters(game: str) -> Mapping[str, Param]:
    """The parameters ``game`` takes, each with its kind and range (``docs/<game>.md`` lists them).

    >>> parameters("isolation")["width"].describe()
    'an integer from 1 to 26'
    """
    factory = _load(game_entry(game).factory)
    if not isinstance(getattr(factory, "PARAMETERS", None), Mapping):
        raise SpecError(f"{game}: the game declares no PARAMETERS (each parameter with its range)")
    table: Mapping[str, Param] = factory.PARAMETERS
    return table


def make(name: str, **params: Any) -> Game[Any]:
    """Build a game by name, or from a spec such as ``isolation(width=5,height=5)``.

    A parameter the game does not take is refused here, naming the ones it does; each value's range
    is checked before the game builds anything.

    >>> make("isolation(width=5,height=5)").params["width"]
    5
    """
    spec_name, spec_params = parse_spec(name)
    merged = {**spec_params, **params}
    table = parameters(spec_name)
    check_names(spec_name, table, merged)
    checked = check_values(spec_name, table, merged)
    factory: Callable[..., Game[Any]] = _load(game_entry(spec_name).factory)
    return factory(**checked)


def make_for_request(spec: str, **params: Any) -> Game[Any]:
    """:func:`make` for a spec that came from the network: refused when a parameter names a file on
    the server's disk (only the files packaged with gridarena may be named), before anything is read.

    >>> make_for_request("reversixt(map=/etc/passwd)")
    Traceback (most recent call last):
    ...
    gridarena.core.catalogue.UnsafeSpecError: reversixt: map='/etc/passwd' names a file on the server's disk; a request may give only a packaged map (mini, othello8, sampler)
    """
    name, spec_params = parse_spec(spec)
    merged = {**spec_params, **params}
    table = parameters(name)
    check_names(name, table, merged)
    problems = request_problems(name, table, merged)
    if problems:
        raise UnsafeSpecError(problems[0])
    return make(name, **merged)


def bot_table(game: str) -> Mapping[str, BotEntry]:
    """Every bot usable in ``game``: the families' bots, then the game's own (which may take a name)."""
    entry = game_entry(game)
    table: dict[str, BotEntry] = {}
    for family in _catalogue().BOT_FAMILIES:
        table.update(_load(family)(entry))
    table.update(entry.bots)
    return table


def available_bots(game: str) -> list[str]:
    """Names of the bots usable in ``game``, sorted."""
    return sorted(bot_table(game))


def bot_entry(game: str, name: str) -> BotEntry:
    """The declaration of bot ``name`` in ``game``."""
    table = bot_table(game)
    _check_name(f"bot for {game}", name, table)
    return table[name]


def offered_bots(game: str) -> list[str]:
    """The bots of ``game`` a request from the network may name (they reach nothing beyond the game), sorted.

    The web viewer's form lists these, and its API accepts these only (:func:`make_bot_for_request`).

    >>> "external" in offered_bots("isolation"), "greedy" in offered_bots("isolation")
    (False, True)
    """
    return sorted(name for name, entry in bot_table(game).items() if not entry.reaches)


def check_request_bot(game: str, spec: str) -> tuple[BotEntry, dict[str, Any]]:
    """Refuse (:class:`UnsafeSpecError`) a bot spec from the network that would start a program or
    reach a file on the server; check every value against the declaration. Nothing is imported."""
    name, values = parse_spec(spec)
    entry = bot_entry(game, name)
    if entry.reaches:  # before the values: whatever they are, this bot is not the web's
        raise UnsafeSpecError(
            f"{entry.request_problem(name, {})}: a request may name only {', '.join(offered_bots(game))}"
        )
    check_bot_values(name, entry, values)
    problem = entry.request_problem(name, values)
    if problem is not None:
        raise UnsafeSpecError(problem)
    return entry, values


ExtraBots = Mapping[str, "BotEntry | str"]
"""Declared bots outside the catalogue (tests, plugins): name -> a :class:`BotEntry`, or the text
``"module:ATTR"`` of one (text travels to worker processes and into a tournament's stored JSON)."""


def _extra_entry(name: str, value: BotEntry | str) -> BotEntry:
    entry = _load(value) if isinstance(value, str) else value
    if not isinstance(entry, BotEntry):
        raise SpecError(f"bot {name}: {value!r} is not a declared BotEntry (a factory needs its declaration)")
    return entry


def make_bot(game: Game[Any], spec: str, extra: ExtraBots | None = None, **params: Any) -> Any:
    """Build a bot for ``game`` from a spec such as ``alphabeta(depth=5,heuristic=improved)``.

    The spec is checked against the bot's declaration before its factory is imported or called.
    Every spec may carry ``name=...`` (a display name) and ``seed=...``. ``extra`` adds declared bots
    outside the catalogue (tests, plugins).

    >>> make_bot(make("isolation"), "random(name=r1)").name
    'r1'
    """
    name, spec_params = parse_spec(spec)
    table: dict[str, BotEntry | str] = {**bot_table(game.name), **(extra or {})}
    _check_name(f"bot for {game.name}", name, table)
    return build_bot(game, name, _extra_entry(name, table[name]), {**spec_params, **params})


def build_bot(game: Game[Any], name: str, entry: BotEntry, values: Mapping[str, Any]) -> Any:
    """The bot of ``entry`` with ``values`` checked against its declaration; the only call of a factory."""
    display, seed, checked = check_bot_values(name, entry, values)
    factory = _load(entry.factory)
    bot = factory(game, seed=seed, **checked)
    if display is not None:
        bot.name = display
    return bot


def make_bot_for_request(game: Game[Any], spec: str) -> Any:
    """:func:`make_bot` for a spec that came from the network: :func:`check_request_bot` first."""
    entry, values = check_request_bot(game.name, spec)
    return build_bot(game, parse_spec(spec)[0], entry, values)


def evaluators(game: str) -> Mapping[str, Callable[..., float]]:
    """The game's named evaluation functions (empty when it offers none)."""
    entry = game_entry(game).evaluators
    return _load(entry) if entry else {}


def evaluator(game: str, name: str) -> Callable[..., float]:
    """One evaluation function of ``game`` by name."""
    table = evaluators(game)
    _check_name(f"heuristic for {game}", name, table)
    return table[name]


def playable() -> dict[str, PlayEntry]:
    """The games the web viewer's play page offers, in the order it lists them.

    >>> playable()["isolation"].opponent
    'greedy'
    """
    entries = (game_entry(name) for name in available_games())
    return {entry.name: entry.play for entry in entries if entry.play is not None}


def has_renderer(game: str) -> bool:
    """Whether ``game`` registered an SVG renderer (the viewer falls back to the state's text if not)."""
    return game in _catalogue().GAMES and game_entry(game).renderer is not None


def renderer(game: str) -> Callable[..., str]:
    """The SVG renderer of ``game``: ``render_svg(state, *, last_action=None) -> str``.

    >>> renderer("isolation").__module__
    'gridarena.games.isolation.render'
    """
    reference = game_entry(game).renderer
    if reference is None:
        raise UnknownNameError("renderer", game, [])
    function: Callable[..., str] = _load(reference)
    return function


def game_words(game: str) -> Words:
    """What ``game`` says to people (:class:`~gridarena.core.words.Words`): its own, or the common
    words alone for a name the catalogue does not know (a replay of another version's game).

    >>> game_words("reversixt").seats[0].name, game_words("no such game").seats
    ('red', ())
    """
    if game not in _catalogue().GAMES or game_entry(game).words is None:
        return Words()
    words: Words = _load(str(game_entry(game).words))
    return words


def has_analyser(game: str) -> bool:
    """Whether ``game`` registered an analyser."""
    return game in _catalogue().GAMES and game_entry(game).analyser is not None


def make_analyser(game: Game[Any], seconds: float) -> Any:
    """The analyser of ``game`` (an :class:`~gridarena.core.analysis.Analyser`), about ``seconds`` per position."""
    reference = game_entry(game.name).analyser
    if reference is None:
        raise UnknownNameError("analyser", game.name, [])
    return _load(reference)(game, seconds)
