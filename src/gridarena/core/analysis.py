"""The analysis protocol: what a game's analyser answers about a position, and how a move is marked.

A game offers analysis with one factory in its package (``games/<game>/analysis.py``, registered in
:mod:`gridarena.core.registry`): ``make_analyser(game, seconds) -> Analyser``, whose
:meth:`Analyser.evaluate` gives a position's :class:`Evaluation` for one player within about
``seconds``. The arena walks a game with it (:mod:`gridarena.arena.analysis`); the marks of a move
follow from its values before and after (:func:`mark`), by the kind of value the game reports:

* ``result`` (two-player games): +1 a win, -1 a loss, estimates in between (a win chance scaled to
  -1..1, as lichess draws its graph); an exact result may know its distance in plies.
* ``distance`` (puzzles): moves still needed to reach the goal, exact; fewer is better.
* ``score`` (single-player points): the points a reference player scores from here on; more is better.

>>> mark("result", Evaluation(1.0, exact=True, plies=9), Evaluation(-1.0, exact=True, plies=20))
'blunder'
>>> mark("distance", Evaluation(12.0, exact=True), Evaluation(13.0, exact=True))
'wasted'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal, Protocol, TypeAlias

from gridarena.core.types import JSON, GameState, Player

Kind: TypeAlias = Literal["result", "distance", "score"]
KINDS: Final = ("result", "distance", "score")

#: Drops of a ``result`` estimate (on -1..1) that mark a move: lichess's 30, 20 and 10 points of win chance.
RESULT_MARKS: Final = ((0.6, "blunder"), (0.4, "mistake"), (0.2, "inaccuracy"))
#: Regrets of a ``score`` (as a fraction of what was still to be had) that mark a move.
SCORE_MARKS: Final = ((0.10, "blunder"), (0.05, "mistake"), (0.02, "inaccuracy"))


@dataclass(frozen=True, slots=True)
class Evaluation:
    """A position's value for one player, from an analyser.

    ``exact``: a proven value (a game result, a distance), not an estimate. ``plies``: for an exact
    result, the plies to the end with best play when known. ``best``: the analyser's own move there
    (as text) when it has one. ``text``: the value as people read it (``won in 13``, ``+0.35``).
    ``error``: how far an estimate may be off on the value's own scale (0 for an exact value, or an
    analyser that repeats itself): a move is marked only for a change beyond it (:func:`mark`).
    """

    value: float
    exact: bool = False
    plies: int | None = None
    best: str | None = None
    text: str = ""
    error: float = 0.0

    def to_json(self) -> dict[str, JSON]:
        """The evaluation as the analysis JSON holds it."""
        return {
            "value": self.value,
            "exact": self.exact,
            "plies": self.plies,
            "best": self.best,
            "text": self.text,
            "error": self.error,
        }


class Analyser(Protocol):
    """A game's analyser: the kind of value it reports, and positions' values for a player."""

    kind: Kind

    def evaluate(self, state: GameState[Any], player: Player) -> Evaluation | None:
        """The value of ``state`` for ``player``; None where it has none (a chance node, or a player it
        cannot judge from this position: then the player's next turn stands in)."""
        ...


def loss(kind: Kind, before: Evaluation, after: Evaluation) -> float:
    """What a move cost its player (0 for a perfect move; never negative for an exact analyser).

    ``result``: the drop in value; ``distance``: the moves added beyond the one made; ``score``: the
    points given up (the regret).

    >>> loss("distance", Evaluation(5.0), Evaluation(4.0)), loss("score", Evaluation(90.0), Evaluation(80.0))
    (0.0, 10.0)
    """
    if kind == "distance":
        return after.value - before.value + 1
    return before.value - after.value


def mark(kind: Kind, before: Evaluation, after: Evaluation) -> str | None:
    """The mark a move earns from its values before and after, or None.

    ``result``: ``blunder`` when a proven win becomes a proven loss; ``slower`` when a proven win
    stays proven but further away than one ply less, ``faster`` when a proven loss comes sooner than
    it had to; otherwise by the drop of the estimate (:data:`RESULT_MARKS`), where a drop between
    an estimate and a proven result is at most a ``mistake`` (only two proven results make a
    blunder certain). ``distance``:
    ``wasted`` for a move that does not bring the goal one move closer. ``score``: by the regret as
    a fraction of the score still to be had (:data:`SCORE_MARKS`). A drop or a regret counts only
    beyond the two values' uncertainty (``error``): what noise alone can make is no mark.

    >>> mark("result", Evaluation(1.0, True, 9), Evaluation(1.0, True, 12))
    'slower'
    >>> mark("result", Evaluation(0.3), Evaluation(-0.2)), mark("score", Evaluation(100.0), Evaluation(99.0))
    ('mistake', None)
    >>> mark("result", Evaluation(0.3, error=0.2), Evaluation(-0.2, error=0.2))  # 0.5 - 0.4 is no mark
    """
    if kind == "distance":
        return "wasted" if loss(kind, before, after) > 0 else None
    noise = before.error + after.error
    if kind == "score":
        regret = (loss(kind, before, after) - noise) / max(abs(before.value), 1.0)
        return next((name for limit, name in SCORE_MARKS if regret >= limit), None)
    if before.exact and after.exact:
        return _exact_mark(before, after)
    drop = loss(kind, before, after) - noise
    found = next((name for limit, name in RESULT_MARKS if drop >= limit), None)
    if found == "blunder" and (before.exact or after.exact):
        return "mistake"  # one side is only an estimate: the position may have been lost already
    return found


def _exact_mark(before: Evaluation, after: Evaluation) -> str | None:
    if before.value > 0 > after.value:
        return "blunder"
    if before.plies is None or after.plies is None:
        return None
    if before.value > 0 and after.plies > before.plies - 1:
        return "slower"
    if before.value < 0 and after.plies < before.plies - 1:
        return "faster"
    return None
