"""Registries of games, bots and evaluation functions: dicts of lazy ``"module:attr"`` entries.

Nothing here imports a game until it is made, so ``gridarena games`` stays fast and a broken
game cannot break the others. The CLI's choices, the conformance test's parametrisation and the
tables in the docs are read from these dicts.
"""

from __future__ import annotations

import difflib
import importlib
from collections.abc import Callable, Mapping
from typing import Any, Literal, TypeAlias, get_args

from gridarena.core.errors import UnknownNameError
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

#: Bots every game can use; a game's own table (below) may add to or override these names.
_COMMON_BOTS: dict[str, str] = {
    "random": "gridarena.bots.base:make_random_bot",
    "human": "gridarena.bots.human:make_human_bot",
    "external": "gridarena.bots.external:make_external_bot",
}

#: The generic search bots, offered for every game that registers evaluation functions.
_SEARCH_BOTS: dict[str, str] = {
    "minimax": "gridarena.bots.search_bots:make_minimax_bot",
    "alphabeta": "gridarena.bots.search_bots:make_alphabeta_bot",
    "paranoid": "gridarena.bots.search_bots:make_paranoid_bot",
    "maxn": "gridarena.bots.search_bots:make_maxn_bot",
    "brs": "gridarena.bots.search_bots:make_brs_bot",
    "mcts": "gridarena.bots.search_bots:make_mcts_bot",
}

_GAME_BOTS: dict[str, dict[str, str]] = {
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
        "aind": "gridarena.games.isolation.bots:make_aind",
    },
    "pentocity": {
        "example": "gridarena.games.pentocity.bots:make_example_bot",
        "rowbyrow": "gridarena.games.pentocity.bots:make_rowbyrow_bot",
        "diagonal": "gridarena.games.pentocity.players:make_diagonal_bot",
        "jigsaw": "gridarena.games.pentocity.players:make_jigsaw_bot",
        "components": "gridarena.games.pentocity.players:make_components_bot",
        "shortroad": "gridarena.games.pentocity.players:make_shortroad_bot",
        "group1": "gridarena.games.pentocity.players:make_group1_bot",
        "packer": "gridarena.games.pentocity.players:make_packer_bot",
        "reserve": "gridarena.games.pentocity.players:make_reserve_bot",
        "bands": "gridarena.games.pentocity.players:make_bands_bot",
        "best": "gridarena.games.pentocity.players:make_bands_bot",
    },
    "reversixt": {
        "trivial": "gridarena.games.reversixt.bots:make_trivial_bot",
        "paranoid": "gridarena.games.reversixt.bots:make_paranoid_bot",
        "brs": "gridarena.games.reversixt.bots:make_brs_bot",
        "best": "gridarena.games.reversixt.bots:make_best_bot",
    },
    "slidingpuzzle": {
        "solver": "gridarena.games.slidingpuzzle.bots:make_solver_bot",
    },
}

#: Evaluation functions ``evaluate(state, player) -> float`` per game, for the search bots.
_EVALUATORS: dict[str, str] = {
    "isolation": "gridarena.games.isolation.bots:EVALUATORS",
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


def make(name: str, **params: Any) -> Game[Any]:
    """Build a game by name, or from a spec such as ``isolation(width=5,height=5)``.

    >>> make("isolation(width=5,height=5)").params["width"]
    5
    """
    spec_name, spec_params = parse_spec(name)
    _check_name("game", spec_name, _GAMES)
    factory: Callable[..., Game[Any]] = _load(_GAMES[spec_name])  # type: ignore[index]
    return factory(**{**spec_params, **params})


def bot_table(game: str) -> dict[str, str]:
    """Bot names usable in ``game`` mapped to their entry points."""
    _check_name("game", game, _GAMES)
    search = _SEARCH_BOTS if game in _EVALUATORS else {}
    return {**_COMMON_BOTS, **search, **_GAME_BOTS.get(game, {})}


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
    table = {**bot_table(game.name), **(extra or {})}
    _check_name(f"bot for {game.name}", name, table)
    merged = {**spec_params, **params}
    display = merged.pop("name", None)
    bot = _load(table[name])(game, **merged)
    if display is not None:
        bot.name = str(display)
    return bot


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
