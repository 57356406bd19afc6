"""The viewer's words for the tournament pages: a tournament's game and players in short, a stored
game's result as a sentence (in the game's own words, :mod:`gridarena.core.words`).

>>> stored_result("isolation", {"seats": ["greedy", "random"], "returns": [1.0, -1.0], "termination": "normal",
...                             "detail": "player 2 has no legal move", "forfeit_seat": None, "info": {}})
'random (blue) has no legal move left: greedy (orange) wins'
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

from gridarena.arena.runner import entrant_names
from gridarena.core.registry import game_words
from gridarena.core.types import Outcome
from gridarena.core.words import Ending, describe, spec_title


def game_title(spec: str) -> str:
    """A game's spec in short (:func:`~gridarena.core.words.spec_title`): a map's text is never shown."""
    return spec_title(spec)


def entrants(game: str, specs: Sequence[str]) -> list[dict[str, str]]:
    """Each entrant's name (:func:`~gridarena.arena.runner.entrant_names`) and spec, for a tournament's rows."""
    return [{"name": n, "spec": s} for n, s in zip(entrant_names(specs, game), specs, strict=True)]


def entrant_html(shown: Sequence[Mapping[str, str]]) -> str:
    """Entrants' names as HTML, each with its spec as a tooltip (where the spec says more than the name)."""
    return ", ".join(f'<span class="entrant"{_title(e)}>{html.escape(e["name"])}</span>' for e in shown)


def _title(entrant: Mapping[str, str]) -> str:
    return "" if entrant["spec"] == entrant["name"] else f' title="{html.escape(entrant["spec"])}"'


def stored_result(game: str, row: Mapping[str, Any]) -> str:
    """A stored game's result (a row of ``Store.games``) as a sentence, in the game's words."""
    try:
        outcome = Outcome(
            tuple(float(r) for r in row["returns"]),
            str(row.get("termination") or "normal"),
            str(row.get("detail") or ""),
            row.get("forfeit_seat"),
        )
    except (TypeError, ValueError, KeyError):
        return "no result"
    info = row.get("info") if isinstance(row.get("info"), Mapping) else {}
    name = game.split("(", 1)[0].strip()
    return describe(game_words(name), Ending(outcome, tuple(map(str, row["seats"])), info or {}))
