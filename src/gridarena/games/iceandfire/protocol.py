"""The CodinGame protocol from the bot's side: read the statement's "Game Input", answer one line.

:class:`CodinGameBot` is the adapter every bot of ours is written against: it plays from the
CodinGame input text, which the arena hands it from the state (``codingame_init`` /
``codingame_turn``), so the bot that plays our tournaments is byte for byte the one pasted behind a
CodinGame submission. ``gridarena iceandfire bot NAME`` runs :func:`serve` on stdin/stdout, so any
of our bots can stand behind a CodinGame submission or play our referee as an external program
(``protocol=codingame``).

* Our own bots (:class:`CodinGameBot` subclasses) read the text directly.
* Any other registered bot (``random``, ...) plays through :class:`StateBot`, which rebuilds a
  referee state from the input with :func:`state_from_input` and asks the bot as in the arena.

Streams come in as functions (``readline``, ``write``): this module prints nothing itself.

Timing follows CodinGame: 1000 ms for the first answer and 50 ms after; the bot is given that
deadline, counted from the moment the turn's input has been read, less a margin.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, Final

from gridarena.core.bot import BaseBot, Bot, Decision
from gridarena.core.clock import TimeControl, bot_margin
from gridarena.core.collector import freeze_startup
from gridarena.core.errors import GridArenaError
from gridarena.core.types import Game, GameState
from gridarena.games.iceandfire.formats import TurnInput, parse_spots
from gridarena.games.iceandfire.geometry import SIZE
from gridarena.games.iceandfire.positions import state_from_rows
from gridarena.games.iceandfire.rules import IceAndFire, IceAndFireState

FIRST_TURN: Final = 1.0
TURN: Final = 0.05


class CodinGameBot(BaseBot):
    """A bot that plays from the CodinGame input text: the same code in the arena and on CodinGame.

    Subclasses write :meth:`start` (the initial input) and :meth:`turn` (one turn's input lines ->
    the output line). ``act`` feeds them the state's own CodinGame text.
    """

    name = "codingame"

    def __init__(self, seed: int | None = None, rules: str = "contest", league: str = "bronze") -> None:
        super().__init__(seed)
        self.rules, self.league = rules, league
        self._started = False
        #: The turn's time control (its deadline on its own clock, wall or CPU); none: no limit.
        self.control = TimeControl()
        self.turns = 0
        self.new_game()

    def reset(self, game: Game[Any], seat: int, seed: int) -> None:
        """A new game: forget the map, read the initial input again on the first turn."""
        super().reset(game, seat, seed)
        self.rules = str(game.params.get("rules", "contest"))
        self.league = str(game.params.get("league", "bronze"))
        self._started = False
        self.turns = 0
        self.new_game()

    def new_game(self) -> None:
        """Per-game state of a subclass (called when the bot is made, by reset, and by the standalone
        loop once)."""

    def start(self, lines: Sequence[str]) -> None:
        """The initial input (mine spots)."""

    def turn(self, lines: Sequence[str]) -> str:
        """One turn's input lines -> the output line."""
        raise NotImplementedError

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        """Answer from the state's CodinGame text, as an external program would."""
        seat = state.current_player()
        if not self._started:
            self.start(state.codingame_init(seat).splitlines())  # type: ignore[attr-defined]
            self._started = True
        self.control = clock
        line = self.turn(state.codingame_turn(seat).splitlines())  # type: ignore[attr-defined]
        self.turns += 1
        return Decision(line)


class ProtocolError(GridArenaError):
    """The input does not follow the statement's "Game Input" (names the line)."""


class LineReader:
    """Reads numbered lines from ``readline``; None at the end of the input."""

    def __init__(self, readline: Callable[[], str]) -> None:
        self.readline = readline
        self.number = 0

    def line(self) -> str | None:
        """The next line without its end, or None at the end of the input."""
        text = self.readline()
        if not text:
            return None
        self.number += 1
        return text.rstrip("\r\n")

    def need(self, what: str) -> str:
        """The next line, which must exist."""
        text = self.line()
        if text is None:
            raise ProtocolError(f"input ended before line {self.number + 1} ({what})")
        return text

    def count(self, what: str) -> int:
        """A line holding one count."""
        text = self.need(what)
        try:
            return int(text)
        except ValueError:
            raise ProtocolError(f"line {self.number}: expected {what} (a number), got {text!r}") from None


def read_init(reader: LineReader) -> list[str] | None:
    """The initial input as lines (the spot count, then the spots); None if the input is empty."""
    first = reader.line()
    if first is None:
        return None
    try:
        n = int(first)
    except ValueError:
        raise ProtocolError(f"line {reader.number}: expected numberMineSpots, got {first!r}") from None
    spots = []
    for k in range(n):
        line = reader.need(f"mine spot {k + 1} of {n}")
        parts = line.split()
        if len(parts) != 2 or not all(p.isdigit() for p in parts):
            raise ProtocolError(f"line {reader.number}: expected mine spot {k + 1} as 'x y', got {line!r}")
        spots.append(line)
    return [first, *spots]


def read_turn(reader: LineReader) -> list[str] | None:
    """One turn's input as lines; None when the input has ended (the game is over)."""
    gold = reader.line()
    if gold is None:
        return None
    lines = [gold]
    lines += [reader.need(what) for what in ("income", "opponentGold", "opponentIncome")]
    lines += [reader.need(f"map row {y}") for y in range(SIZE)]
    nb = reader.count("buildingCount")
    lines.append(str(nb))
    lines += [reader.need(f"building {k + 1} of {nb}") for k in range(nb)]
    nu = reader.count("unitCount")
    lines.append(str(nu))
    lines += [reader.need(f"unit {k + 1} of {nu}") for k in range(nu)]
    return lines


def state_from_input(
    init: Sequence[str], turn: Sequence[str], game: IceAndFire | None = None, turn_number: int = 1
) -> IceAndFireState:
    """A referee state equal, for the player to move, to what the input shows.

    The input says everything a turn needs: gold, ownership and activity, buildings, units (all of
    which may act at the start of a turn), incomes as last computed. Not shown, and so rebuilt: the
    turn number (counted by the caller) and the id counter (after the highest
    id seen; ids of dead units cannot be known, which no bot's decision depends on).
    """
    game = game or IceAndFire()
    try:
        spots = parse_spots(init)
        shown = TurnInput.parse(turn)
        me = 0 if shown.my_hq() == (0, 0) else 1
    except (ValueError, IndexError) as exc:
        raise ProtocolError(f"unreadable turn input: {exc}") from None
    gold, income, opp_gold, opp_income = shown.gold, shown.income, shown.opp_gold, shown.opp_income
    rows, buildings, units = shown.rows, shown.buildings, shown.units
    # The input's owner 0 is the player to move; the state's are red (0) and blue (1).
    to_state = (me, 1 - me)
    letters = {"O": "RB"[me], "o": "RB"[me], "X": "RB"[1 - me], "x": "RB"[1 - me]}
    cells = ["".join(letters.get(ch, ch) for ch in row) for row in rows]
    state = state_from_rows(
        cells,
        game=game,
        units=[(uid, to_state[owner], level, x, y) for owner, uid, level, x, y in units],
        buildings=[(to_state[owner], kind, x, y) for owner, kind, x, y in buildings if kind != 0],
        gold=(gold, opp_gold) if me == 0 else (opp_gold, gold),
        spots=spots,
        player=me,
        turn=turn_number,
    )
    # The incomes as shown, which may be stale after a bankruptcy (the referee shows them so): not recomputed.
    return replace(state, income=(income, opp_income) if me == 0 else (opp_income, income))


class StateBot(CodinGameBot):
    """Any bot of the registry behind the protocol: the input becomes a referee state each turn."""

    def __init__(self, bot: Bot, game: IceAndFire) -> None:
        super().__init__(None, game.rules, game.league)
        self.bot, self.game = bot, game
        self.name = getattr(bot, "name", "bot")
        self.init: list[str] = []

    def new_game(self) -> None:
        """Reset the wrapped bot (seat from the first turn)."""
        self.init = []

    def start(self, lines: Sequence[str]) -> None:
        """Keep the initial input for every state."""
        self.init = list(lines)

    def turn(self, lines: Sequence[str]) -> str:
        """Rebuild the state, ask the bot, print its turn."""
        state = state_from_input(self.init, lines, self.game, self.turns + 1)
        if self.turns == 0:
            self.bot.reset(self.game, state.current_player(), self.rng.getrandbits(63))
        action = self.bot.act(state, self.control).action
        return action if isinstance(action, str) else state.action_to_string(action)


def serve(
    bot: CodinGameBot,
    readline: Callable[[], str],
    write: Callable[[str], None],
    game: Game[Any] | None = None,
    now: Callable[[], float] = time.perf_counter,
) -> int:
    """Play one game over the protocol: initial input, then turns until the input ends.

    Returns the number of turns answered. ``write`` gets each answer with its newline and must
    flush it (CodinGame reads it at once). After the initial input, what the process holds is frozen
    out of the garbage collector's passes (:func:`~gridarena.core.collector.freeze_startup`): a full
    pass over the imports would cost most of a 50 ms turn.
    """
    if game is not None:
        bot.reset(game, 0, 0)
    else:
        bot.new_game()
    reader = LineReader(readline)
    init = read_init(reader)
    if init is None:
        return 0
    bot.start(init)
    freeze_startup()  # no collector pass in a 50 ms turn walks the imports (core/collector.py)
    turns = 0
    while True:
        turn = read_turn(reader)
        if turn is None:
            return turns
        arrived = now()
        limit = FIRST_TURN if turns == 0 else TURN
        bot.control = TimeControl(deadline=arrived + limit - bot_margin(limit), clock=now)
        try:
            line = bot.turn(turn)
        except (ValueError, IndexError) as exc:
            raise ProtocolError(f"turn {turns + 1}: unreadable input ({exc})") from None
        bot.turns += 1
        turns += 1
        write(line + "\n")
