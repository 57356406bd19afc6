"""Registries of games, bots and evaluation functions: dicts of lazy ``"module:attr"`` entries.

Nothing here imports a game until it is made, so ``gridarena games`` stays fast and a broken
game cannot break the others. The CLI's choices, the conformance test's parametrisation and the
tables in the docs are read from these dicts.
"""

from __future__ import annotations

import difflib
import importlib
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias, get_args

from gridarena.core.errors import SpecError, UnknownNameError
from gridarena.core.params import Param, check_names, request_problems
from gridarena.core.specs import parse_spec
from gridarena.core.types import Game

GameId: TypeAlias = Literal["iceandfire", "isolation", "pentocity", "reversixt", "slidingpuzzle"]

_GAMES: dict[GameId, str] = {
    "iceandfire": "gridarena.games.iceandfire.rules:IceAndFire",
    "isolation": "gridarena.games.isolation.rules:Isolation",
    "pentocity": "gridarena.games.pentocity.rules:Pentocity",
    "reversixt": "gridarena.games.reversixt.rules:ReversiXT",
    "slidingpuzzle": "gridarena.games.slidingpuzzle.rules:SlidingPuzzle",
}


class UnsafeSpecError(SpecError):
    """A spec from a request (the web viewer) that would start a program or reach a file on the server."""


@dataclass(frozen=True, slots=True)
class BotEntry:
    """A registered bot: its factory (a lazy ``"module:factory"``) and what it can reach beyond its game.

    ``reaches`` says what keeps the bot itself from a request (it starts a program, reads a file or the
    terminal, or searches without a clock), empty for a bot that only computes within its clock; ``file_params`` names the parameters that make it read or write files, each
    with what it does; ``spec_params`` names the parameters that are bot specs themselves. A request
    from the network may name a bot only when ``reaches`` is empty and give none of ``file_params``;
    the bot specs inside are held to the same rule. A plain string in the tables below is an entry
    that reaches nothing.
    """

    factory: str
    reaches: str = ""
    file_params: Mapping[str, str] = field(default_factory=dict)
    spec_params: tuple[str, ...] = ()


#: Bots every game can use; a game's own table (below) may add to or override these names.
_COMMON_BOTS: dict[str, str | BotEntry] = {
    "random": "gridarena.bots.base:make_random_bot",
    "human": BotEntry("gridarena.bots.human:make_human_bot", reaches="reads the server's terminal"),
    "external": BotEntry(
        "gridarena.bots.external:make_external_bot", reaches="starts a program on the server"
    ),
    # Learned and OpenSpiel play (gridarena.adapters): a numpy policy file, OpenSpiel's own bots.
    "policy": BotEntry(
        "gridarena.adapters.bots:make_policy_bot", reaches="reads a policy file on the server"
    ),
    "openspiel": BotEntry(
        "gridarena.adapters.bots:make_openspiel_bot", reaches="searches a fixed budget without a clock"
    ),
}

#: The generic search bots, offered for every game that registers evaluation functions.
_SEARCH_BOTS: dict[str, str | BotEntry] = {
    "minimax": "gridarena.bots.search_bots:make_minimax_bot",
    "alphabeta": "gridarena.bots.search_bots:make_alphabeta_bot",
    "paranoid": "gridarena.bots.search_bots:make_paranoid_bot",
    "maxn": "gridarena.bots.search_bots:make_maxn_bot",
    "brs": "gridarena.bots.search_bots:make_brs_bot",
    "mcts": "gridarena.bots.search_bots:make_mcts_bot",
}

_GAME_BOTS: dict[str, dict[str, str | BotEntry]] = {
    "iceandfire": {
        "wood3": "gridarena.games.iceandfire.bots:make_wood3_bot",
        "wood2": "gridarena.games.iceandfire.bots:make_wood2_bot",
        "wood1": "gridarena.games.iceandfire.bots:make_wood1_bot",
        "postmortem": "gridarena.games.iceandfire.bots:make_postmortem_bot",
        "best": "gridarena.games.iceandfire.bots:make_best_bot",
        "pusher": "gridarena.games.iceandfire.bots:make_pusher_bot",
        "climber": "gridarena.games.iceandfire.bots:make_climber_bot",
    },
    "isolation": {
        "greedy": "gridarena.games.isolation.bots:make_greedy_bot",
        "mm_open": "gridarena.games.isolation.bots:make_mm_open",
        "mm_center": "gridarena.games.isolation.bots:make_mm_center",
        "mm_improved": "gridarena.games.isolation.bots:make_mm_improved",
        "ab_open": "gridarena.games.isolation.bots:make_ab_open",
        "ab_center": "gridarena.games.isolation.bots:make_ab_center",
        "ab_improved": "gridarena.games.isolation.bots:make_ab_improved",
        "ab_custom": "gridarena.games.isolation.bots:make_ab_custom",
        "ab_custom_2": "gridarena.games.isolation.bots:make_ab_custom_2",
        "ab_custom_3": "gridarena.games.isolation.bots:make_ab_custom_3",
        "ab_custom_4": "gridarena.games.isolation.bots:make_ab_custom_4",
        "best": "gridarena.games.isolation.bots:make_best",
        # Load-independent twins: best with a node budget, AB_Improved on its own CPU clock or at fixed depths.
        "best_nodes": "gridarena.games.isolation.bots:make_best_nodes",
        "ab_improved_cpu": "gridarena.games.isolation.bots:make_ab_improved_cpu",
        "ab_improved_depth": "gridarena.games.isolation.bots:make_ab_improved_depth",
        "aind": BotEntry(
            "gridarena.games.isolation.bots:make_aind", file_params={"file": "imports a Python file"}
        ),
    },
    "pentocity": {
        "example": "gridarena.games.pentocity.bots:make_example_bot",
        "rowbyrow": "gridarena.games.pentocity.bots:make_rowbyrow_bot",
        "diagonal": "gridarena.games.pentocity.bots:make_diagonal_bot",
        "jigsaw": "gridarena.games.pentocity.bots:make_jigsaw_bot",
        "components": "gridarena.games.pentocity.bots:make_components_bot",
        "shortroad": "gridarena.games.pentocity.bots:make_shortroad_bot",
        "group1": "gridarena.games.pentocity.bots:make_group1_bot",
        "packer": "gridarena.games.pentocity.bots:make_packer_bot",
        "reserve": "gridarena.games.pentocity.bots:make_reserve_bot",
        "bands": "gridarena.games.pentocity.bots:make_bands_bot",
        "best": "gridarena.games.pentocity.bots:make_bands_bot",
    },
    "reversixt": {
        "trivial": "gridarena.games.reversixt.bots:make_trivial_bot",
        "paranoid": "gridarena.games.reversixt.bots:make_paranoid_bot",
        "brs": "gridarena.games.reversixt.bots:make_brs_bot",
        "best": "gridarena.games.reversixt.bots:make_best_bot",
        "best_v1": "gridarena.games.reversixt.bots:make_best_v1_bot",
        "mcts": "gridarena.games.reversixt.bots:make_mcts_bot",
    },
    "slidingpuzzle": {
        "solver": BotEntry(
            "gridarena.games.slidingpuzzle.bots:make_solver_bot",
            file_params={
                "pdb_dir": "reads and writes pattern databases in a folder",
                "partition": "reads or builds pattern databases in the cache folder",
            },
        ),
    },
}

#: Evaluation functions ``evaluate(state, player) -> float`` per game, for the search bots.
_EVALUATORS: dict[str, str] = {
    "isolation": "gridarena.games.isolation.bots:EVALUATORS",
}


@dataclass(frozen=True, slots=True)
class PlayEntry:
    """How the web viewer's play page offers a game: the spec it starts, the opponent it proposes (None:
    a game for one), the bot that gives hints, and a line telling a person how to move."""

    spec: str
    opponent: str | None
    hint: str | None
    how: str


#: The games a person can play in the browser (a game needs a renderer whose pieces carry ``data-action``).
_PLAYABLE: dict[str, PlayEntry] = {
    "isolation": PlayEntry("isolation", "greedy", "alphabeta(depth=3)", "click a cell to enter it"),
    "slidingpuzzle": PlayEntry(
        "slidingpuzzle(rows=3,cols=3,scramble=30)",
        None,
        "solver",
        'click a tile next to a blank; "hint" asks the optimal solver for the next slide',
    ),
}


#: Board pictures per game: ``render_svg(state, *, last_action=None) -> str`` (an SVG document whose root
#: carries ``data-game`` and ``data-ply``). The web viewer and ``gridarena replay --svg`` find a game's
#: drawing here, so a new game plugs into both with its ``render.py`` and this one line.
_RENDERERS: dict[str, str] = {
    "iceandfire": "gridarena.games.iceandfire.render:render_svg",
    "isolation": "gridarena.games.isolation.render:render_svg",
    "pentocity": "gridarena.games.pentocity.render:render_svg",
    "reversixt": "gridarena.games.reversixt.render:render_svg",
    "slidingpuzzle": "gridarena.games.slidingpuzzle.render:render_svg",
}


#: Analysers per game: ``make_analyser(game, seconds) -> Analyser`` (see :mod:`gridarena.core.analysis`),
#: beside each game's renderer. ``gridarena analyze``, the viewer's evaluation graph and the tournament
#: analysis find a game's here, so a new game gets analysis with its ``analysis.py`` and this one line.
_ANALYSERS: dict[str, str] = {
    "iceandfire": "gridarena.games.iceandfire.analysis:make_analyser",
    "isolation": "gridarena.games.isolation.analysis:make_analyser",
    "pentocity": "gridarena.games.pentocity.analysis:make_analyser",
    "reversixt": "gridarena.games.reversixt.analysis:make_analyser",
    "slidingpuzzle": "gridarena.games.slidingpuzzle.analysis:make_analyser",
}


def _load(entry: str) -> Any:
    module, _, attr = entry.partition(":")
    return getattr(importlib.import_module(module), attr)


def _check_name(kind: str, name: str, table: Mapping[Any, object]) -> None:
    if name not in table:
        raise UnknownNameError(kind, name, difflib.get_close_matches(name, list(table)))


def available_games() -> list[str]:
    """Names of the registered games, sorted.

    >>> "isolation" in available_games()
    True
    """
    return sorted(_GAMES)


def game_ids() -> tuple[str, ...]:
    """The names the ``GameId`` type allows (a test keeps it equal to the table)."""
    return get_args(GameId)


def parameters(game: str) -> Mapping[str, Param]:
    """The parameters ``game`` takes, each with its kind and range (``docs/<game>.md`` lists them).

    >>> parameters("isolation")["width"].describe()
    'an integer from 1 to 26'
    """
    _check_name("game", game, _GAMES)
    factory = _load(_GAMES[game])  # type: ignore[index]
    if not isinstance(getattr(factory, "PARAMETERS", None), Mapping):
        raise SpecError(f"{game}: the game declares no PARAMETERS (each parameter with its range)")
    table: Mapping[str, Param] = factory.PARAMETERS
    return table


def make(name: str, **params: Any) -> Game[Any]:
    """Build a game by name, or from a spec such as ``isolation(width=5,height=5)``.

    A parameter the game does not take is refused here, naming the ones it does; the game checks
    each value's range before it builds anything.

    >>> make("isolation(width=5,height=5)").params["width"]
    5
    """
    spec_name, spec_params = parse_spec(name)
    merged = {**spec_params, **params}
    check_names(spec_name, parameters(spec_name), merged)
    factory: Callable[..., Game[Any]] = _load(_GAMES[spec_name])  # type: ignore[index]
    return factory(**merged)


def make_for_request(spec: str) -> Game[Any]:
    """:func:`make` for a spec that came from the network: refused when a parameter names a file on
    the server's disk (only the files packaged with gridarena may be named), before anything is read.

    >>> make_for_request("reversixt(map=/etc/passwd)")
    Traceback (most recent call last):
    ...
    gridarena.core.registry.UnsafeSpecError: reversixt: map='/etc/passwd' names a file on the server's disk; a request may give only a packaged map (mini, othello8, sampler)
    """
    name, params = parse_spec(spec)
    table = parameters(name)
    check_names(name, table, params)
    problems = request_problems(name, table, params)
    if problems:
        raise UnsafeSpecError(problems[0])
    return make(spec)


def _entry(value: str | BotEntry) -> BotEntry:
    return BotEntry(value) if isinstance(value, str) else value


def bot_table(game: str) -> dict[str, BotEntry]:
    """Bot names usable in ``game`` mapped to their registry entries."""
    _check_name("game", game, _GAMES)
    search = _SEARCH_BOTS if game in _EVALUATORS else {}
    table = {**_COMMON_BOTS, **search, **_GAME_BOTS.get(game, {})}
    return {name: _entry(value) for name, value in table.items()}


def offered_bots(game: str) -> list[str]:
    """The bots of ``game`` a request from the network may name (they reach nothing beyond the game), sorted.

    The web viewer's form lists these, and its API accepts these only (:func:`make_bot_for_request`).

    >>> "external" in offered_bots("isolation"), "greedy" in offered_bots("isolation")
    (False, True)
    """
    return sorted(name for name, entry in bot_table(game).items() if not entry.reaches)


def check_request_bot(game: str, spec: str) -> None:
    """Refuse (:class:`UnsafeSpecError`) a bot spec from the network that would start a program or
    reach a file on the server, here or in a bot spec given as one of its parameters."""
    name, params = parse_spec(spec)
    table = bot_table(game)
    _check_name(f"bot for {game}", name, table)
    entry = table[name]
    if entry.reaches:
        raise UnsafeSpecError(
            f"{name} {entry.reaches}: a request may name only {', '.join(offered_bots(game))}"
        )
    for param in params:
        if param in entry.file_params:
            raise UnsafeSpecError(
                f"{name}: parameter {param!r} {entry.file_params[param]} on the server: not from a request"
            )
    for param in entry.spec_params:
        if param in params:
            if not isinstance(params[param], str):
                raise SpecError(f"{name}: parameter {param!r} must be a bot spec (text)")
            check_request_bot(game, params[param])


def available_bots(game: str) -> list[str]:
    """Names of the bots usable in ``game``, sorted."""
    return sorted(bot_table(game))


def make_bot(game: Game[Any], spec: str, extra: Mapping[str, str] | None = None, **params: Any) -> Any:
    """Build a bot for ``game`` from a spec such as ``alphabeta(depth=5,heuristic=improved)``.

    Every spec may carry ``name=...``: a display name, given to the bot and not to its factory.
    ``extra`` adds bots outside the registry (name -> ``"module:factory"``: plugins and tests).

    >>> make_bot(make("isolation"), "random(name=r1)").name
    'r1'
    """
    name, spec_params = parse_spec(spec)
    table = {**{k: v.factory for k, v in bot_table(game.name).items()}, **(extra or {})}
    _check_name(f"bot for {game.name}", name, table)
    merged = {**spec_params, **params}
    display = merged.pop("name", None)
    factory = _load(table[name])
    check_keywords(name, factory, merged)
    bot = factory(game, **merged)
    if display is not None:
        bot.name = str(display)
    return bot


def make_bot_for_request(game: Game[Any], spec: str) -> Any:
    """:func:`make_bot` for a spec that came from the network: :func:`check_request_bot` first."""
    check_request_bot(game.name, spec)
    return make_bot(game, spec)


def check_keywords(
    name: str, function: Callable[..., Any], params: Mapping[str, Any], *, skip: int = 1
) -> None:
    """Refuse a keyword that ``function`` does not take (after its first ``skip`` parameters), naming the
    ones it does, before it is called; a function with ``**options`` checks its own.

    >>> check_keywords("greedy", lambda game, seed=None: None, {"depth": 3})
    Traceback (most recent call last):
    ...
    gridarena.core.errors.SpecError: greedy: unknown parameter 'depth'; greedy takes seed
    """
    accepted = list(inspect.signature(function).parameters.values())[skip:]
    if any(p.kind is p.VAR_KEYWORD for p in accepted):
        return
    names = [p.name for p in accepted if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    for key in params:
        if key not in names:
            takes = ", ".join(names) or "no parameters"
            raise SpecError(f"{name}: unknown parameter {key!r}; {name} takes {takes}")


def evaluators(game: str) -> Mapping[str, Callable[..., float]]:
    """The game's named evaluation functions (empty when it offers none)."""
    _check_name("game", game, _GAMES)
    entry = _EVALUATORS.get(game)
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
    return dict(_PLAYABLE)


def has_renderer(game: str) -> bool:
    """Whether ``game`` registered an SVG renderer (the viewer falls back to the state's text if not)."""
    return game in _RENDERERS


def renderer(game: str) -> Callable[..., str]:
    """The SVG renderer of ``game``: ``render_svg(state, *, last_action=None) -> str``.

    >>> renderer("isolation").__module__
    'gridarena.games.isolation.render'
    """
    _check_name("renderer", game, _RENDERERS)
    function: Callable[..., str] = _load(_RENDERERS[game])
    return function


def has_analyser(game: str) -> bool:
    """Whether ``game`` registered an analyser."""
    return game in _ANALYSERS


def make_analyser(game: Game[Any], seconds: float) -> Any:
    """The analyser of ``game`` (an :class:`~gridarena.core.analysis.Analyser`), about ``seconds`` per position."""
    _check_name("analyser", game.name, _ANALYSERS)
    return _load(_ANALYSERS[game.name])(game, seconds)
