"""What a game says to people: its seats' colours, a finished game as a sentence, its parameters as rows.

Each game package declares one :class:`Words` (its catalogue entry's ``words``, read with
:func:`gridarena.core.registry.game_words`): the colour of each seat as its board draws it, a
function that tells how a game ended (:class:`Ending` in, a sentence out) and one that lists the
game's parameters for a person (a map by its name and size, not its text). What is the same for
every game is written here once: who won from the ranks, a forfeit, parameters as short text.

>>> ending = Ending(Outcome((1.0, -1.0), "normal", "player 2 has no legal move"), ("greedy", "random"))
>>> describe(Words(), ending)
'player 2 has no legal move: greedy wins'
>>> describe(Words(), Ending(Outcome((0.0, 1.0, -1.0, 0.5)), ("a", "b", "c", "d")))
'b first, then d, a, c'
>>> describe(Words(), Ending(Outcome((-1.0, 1.0), "crash", "ValueError: bad", 0), ("crasher", "greedy")))
'crasher crashed (ValueError: bad): greedy wins'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from gridarena.core.errors import GridArenaError
from gridarena.core.specs import parse_spec
from gridarena.core.types import FORFEITS, JSON, Game, Outcome, Player

#: What a player did to forfeit, by termination.
FORFEIT_VERBS: Final = {
    "timeout": "ran out of time",
    "illegal": "played an illegal move",
    "crash": "crashed",
    "protocol": "broke the protocol",
}
LONG_VALUE: Final = 40
"""A parameter's value longer than this (characters) is shown by what it is, not as it is."""


@dataclass(frozen=True, slots=True)
class Seat:
    """How a seat is drawn: the colour's name (``red``) and its value (``#d62728``)."""

    name: str
    colour: str


@dataclass(frozen=True, slots=True)
class Ending:
    """A finished game as a describer sees it: the outcome, the players' names by seat, and the
    figures the final state reported (``result_info``: scores, turns, ...; empty when unknown)."""

    outcome: Outcome
    names: tuple[str, ...]
    info: Mapping[str, JSON] = field(default_factory=dict)

    def name(self, seat: Player) -> str:
        """The name of ``seat`` (``player N`` where none was recorded)."""
        return self.names[seat] if 0 <= seat < len(self.names) and self.names[seat] else f"player {seat + 1}"

    def winners(self) -> list[Player]:
        """The seats ranked first."""
        return [seat for seat, rank in enumerate(self.outcome.ranks()) if rank == 1]


Describe = Callable[[Ending, "Words"], "str | None"]
"""A game's sentence for an ending (None: the common sentence of :func:`describe` serves)."""
Options = Callable[[Game[Any]], list[tuple[str, str]]]
"""A game's parameters as (label, value) rows for a person."""


@dataclass(frozen=True, slots=True)
class Words:
    """What a game says about itself (see the module's summary); every part is optional."""

    seats: tuple[Seat, ...] = ()
    describe: Describe | None = None
    options: Options | None = None

    def who(self, ending: Ending, seat: Player) -> str:
        """A seat's name with its colour where the game has colours: ``greedy (red)``."""
        colour = self.seats[seat].name if 0 <= seat < len(self.seats) else ""
        name = ending.name(seat)
        return f"{name} ({colour})" if colour and colour != name else name

    def does(self, ending: Ending, seat: Player, verb: str) -> str:
        """The seat and what it did, the verb agreeing with the name: ``greedy (red) has no move``,
        and for a person playing, ``you (red) have no move`` (``verb`` as for one other player).

        >>> ending = Ending(Outcome((1.0, -1.0)), ("you", "greedy"))
        >>> Words((Seat("red", "#f00"), Seat("blue", "#00f"))).does(ending, 0, "wins, 3 to 1")
        'you (red) win, 3 to 1'
        """
        return f"{self.who(ending, seat)} {agree(ending.name(seat), verb)}"


def agree(subject: str, verb: str) -> str:
    """``verb`` (for one other player: ``has``, ``wins``) as it reads after ``subject``: changed only
    for ``you`` (the name of the person in the web's play page).

    >>> agree("you", "has no legal move left"), agree("you", "was disqualified"), agree("you", "crashed")
    ('have no legal move left', 'were disqualified', 'crashed')
    """
    if subject != "you":
        return verb
    word = verb.split(" ", 1)[0].rstrip(",;:")
    plain = _YOU_VERBS.get(word, word[:-1] if word.endswith("s") and not word.endswith("ss") else word)
    return plain + verb[len(word) :]


_YOU_VERBS: Final = {"has": "have", "is": "are", "was": "were", "does": "do"}


def describe(words: Words, ending: Ending) -> str:
    """How the game ended, in one sentence: the game's own words, else the common ones."""
    if words.describe is not None:
        told = words.describe(ending, words)
        if told:
            return told
    outcome = ending.outcome
    if outcome.termination in FORFEITS and outcome.forfeit_player is not None:
        if len(outcome.returns) == 1:  # alone, a forfeit is the whole story
            return forfeit(words, ending)
        return f"{forfeit(words, ending)}: {standing(words, ending)}"
    if outcome.termination == "aborted":
        return f"the game was aborted ({outcome.reason})" if outcome.reason else "the game was aborted"
    return f"{outcome.reason}: {standing(words, ending)}" if outcome.reason else standing(words, ending)


def forfeit(words: Words, ending: Ending) -> str:
    """``crasher crashed (why)``: who forfeited and how."""
    outcome = ending.outcome
    seat = outcome.forfeit_player if outcome.forfeit_player is not None else 0
    verb = FORFEIT_VERBS.get(outcome.termination, outcome.termination)
    return words.does(ending, seat, verb) + (f" ({outcome.reason})" if outcome.reason else "")


def standing(words: Words, ending: Ending, scores: Sequence[object] | None = None) -> str:
    """Who won: ``greedy wins``, ``a draw``, ``b first, then d, a, c`` (ties share a place), or for
    one player its return; ``scores`` (one per seat) are added to the names where given."""
    returns = ending.outcome.returns
    if len(returns) == 1:
        score = scores[0] if scores else f"{returns[0]:g}"
        return words.does(ending, 0, f"scored {score}")

    def shown(seat: Player) -> str:
        score = "" if scores is None or scores[seat] is None else f" {scores[seat]}"
        return words.who(ending, seat) + score

    places = sorted(set(ending.outcome.ranks()))
    groups = [[s for s, r in enumerate(ending.outcome.ranks()) if r == rank] for rank in places]
    if len(groups) == 1:
        return "a draw" + (f" at {scores[0]}" if scores and len(set(map(str, scores))) == 1 else "")
    if len(returns) == 2:
        (winner,), (loser,) = groups
        if scores is None:
            return words.does(ending, winner, "wins")
        return words.does(ending, winner, f"wins, {scores[winner]} to {scores[loser]}")
    first = " and ".join(shown(s) for s in groups[0])
    first += " share first place" if len(groups[0]) > 1 else " first"
    rest = ", ".join(" and ".join(shown(s) for s in group) for group in groups[1:])
    return f"{first}, then {rest}"


def option_rows(params: Mapping[str, JSON]) -> list[tuple[str, str]]:
    """A game's parameters as (name, value) rows: short values as they are, long ones by what they are.

    >>> option_rows({"width": 7, "text": "a\\nb\\nc", "goal": list(range(16))})
    [('width', '7'), ('text', '3 lines of text'), ('goal', '16 numbers')]
    """
    return [(key, short_value(value)) for key, value in params.items()]


def short_value(value: JSON) -> str:
    """A parameter's value as a person reads it in a table (never a page of text).

    >>> short_value(None), short_value(True), short_value("x" * 100)
    ('–', 'yes', '100 characters of text')
    """
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        lines = value.count("\n") + (0 if value.endswith("\n") else 1)
        if lines > 1:
            return f"{lines} lines of text"
        return value if len(value) <= LONG_VALUE else f"{len(value)} characters of text"
    if isinstance(value, list):
        text = ", ".join(map(short_value, value))
        if len(text) <= LONG_VALUE:
            return text
        kind = "numbers" if all(isinstance(v, int | float) for v in value) else "values"
        return f"{len(value)} {kind}"
    if isinstance(value, dict):
        text = ", ".join(f"{k}={short_value(v)}" for k, v in value.items())
        return text if len(text) <= LONG_VALUE else f"{len(value)} settings"
    return f"{value:g}" if isinstance(value, float) else str(value)


def options(words: Words, game: Game[Any]) -> list[tuple[str, str]]:
    """The game's parameters for a person: the game's own rows, else :func:`option_rows`."""
    return words.options(game) if words.options is not None else option_rows(game.params)


def spec_title(spec: str, longest: int = LONG_VALUE) -> str:
    """A game's spec as a person reads it in a table or a title: itself when short, else its name and
    each value in short (a map given as text is not printed).

    >>> spec_title("isolation(width=5,height=5)")
    'isolation(width=5,height=5)'
    >>> spec_title("reversixt(map='x',text='4\\\\n0\\\\n0 1\\\\n25 25\\\\n" + "x 1 0 0 " * 20 + "')")
    'reversixt (map x, text: 5 lines of text)'
    """
    if len(spec) <= longest:
        return spec
    name = spec.split("(", 1)[0].strip()
    try:
        _, params = parse_spec(spec)
    except GridArenaError:  # longer or deeper than a spec may be today: its name alone
        return name
    shown = [(key, short_value(value)) for key, value in params.items()]
    text = ", ".join(f"{k} {v}" if " " not in v else f"{k}: {v}" for k, v in shown)
    return f"{name} ({text})" if text else name
