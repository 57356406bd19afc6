"""AIND's tournament and fair pairs for Isolation: played by the arena, reported as AIND reported them.

Both are arena tournaments (:func:`gridarena.arena.tournament.run_tournament`). The AIND tournament is
a gauntlet, the test agents against the seven CPU agents; pairs is a match of two. Every block starts
from two random placements (AIND's opening: the arena's ``--opening 'random(plies=2)'``), the same for
every encounter of a round, and is played twice with the seats swapped. The reports are counted from
the stored game rows (seats, returns, termination), with Wilson 95% intervals.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gridarena.arena.backends import Backend
from gridarena.arena.intervals import wilson_interval
from gridarena.arena.runner import entrant_names
from gridarena.arena.schedule import Block
from gridarena.arena.store import Store
from gridarena.arena.tournament import Progress, TournamentConfig, run_tournament
from gridarena.cli.output import warn
from gridarena.core.clock import DEFAULT_GRACE
from gridarena.core.gameclock import TimeSpec
from gridarena.core.types import JSON
from gridarena.games.isolation.aind.board import aind_reason
from gridarena.games.isolation.aind.tournament import Entrant, table_footer, table_header, table_row

OPENING = "random(plies=2)"
Row = Mapping[str, Any]
"""A stored game row (or a result on its way to the store): seats, returns, termination, forfeit_seat."""


def win_interval(wins: float, games: int) -> tuple[float, float]:
    """Wilson 95% interval of ``wins`` out of ``games`` (``(0, 1)`` without games).

    >>> lo, hi = win_interval(35, 70); round(lo, 3), round(hi, 3)
    (0.386, 0.614)
    >>> win_interval(0, 0)
    (0.0, 1.0)
    """
    return (0.0, 1.0) if games == 0 else wilson_interval(wins / games, games)


def winner(row: Row) -> str:
    """The name in the seat with the best return.

    >>> winner({"seats": ["a", "b"], "returns": [-1.0, 1.0]})
    'b'
    """
    seats, returns = row["seats"], row["returns"]
    return str(seats[max(range(len(seats)), key=returns.__getitem__)])


class Tally:
    """Games between test agents and opponents, counted as AIND counted them.

    ``loser_keys`` names each entrant in the timeout losses (AIND marks a CPU agent ``(cpu)``).
    """

    def __init__(self, tests: Sequence[str], opponents: Sequence[str], loser_keys: Mapping[str, str]) -> None:
        self.won = {o: dict.fromkeys(tests, 0) for o in opponents}
        self.played = dict.fromkeys(opponents, 0)
        self.loser_keys = loser_keys
        self.reasons: Counter[str] = Counter()
        self.timeout_losses: Counter[str] = Counter()

    def add(self, row: Row) -> str:
        """Count one game; its opponent."""
        seats = row["seats"]
        opponent = next(s for s in seats if s in self.played)
        test = next(s for s in seats if s != opponent)
        self.played[opponent] += 1
        self.won[opponent][test] += winner(row) == test
        reason = aind_reason(row["termination"])
        self.reasons[reason] += 1
        if reason == "timeout":
            self.timeout_losses[self.loser_keys[seats[row["forfeit_seat"]]]] += 1
        return str(opponent)


ProgressCount = Callable[[int, int], None]
"""``on_progress(games_done, games_total)``: after each stored game."""


@dataclass(frozen=True)
class Arena:
    """Where and how the games run: the store, the backend, the board and AIND's clock (ms per move).

    ``on_progress`` hears of every stored game (the command's progress display).
    """

    store: Store
    backend: Backend
    time_limit: float
    clock: str = "wall"
    grace: float = DEFAULT_GRACE
    width: int = 7
    height: int = 7
    on_progress: ProgressCount | None = None

    def play(
        self,
        players: Sequence[str],
        games: int,
        seed: int,
        on_game: Callable[[Row], None],
        play_order: Callable[[Block], Any] | None = None,
        **schedule: Any,
    ) -> list[dict[str, Any]]:
        """Play a tournament of ``players`` with AIND's opening and clock; its stored game rows.

        ``play_order`` sorts the blocks as :func:`~gridarena.arena.tournament.run_tournament` does.
        """
        config = TournamentConfig(
            game=f"isolation(width={self.width},height={self.height})",
            players=tuple(players),
            games=games,
            seed=seed,
            time=TimeSpec("move", per_move=self.time_limit / 1000.0).to_text(),
            clock=self.clock,
            grace=self.grace,
            opening=OPENING,
            **schedule,
        )
        seen = 0

        def progress(state: Progress) -> None:
            nonlocal seen
            if self.on_progress is not None:
                self.on_progress(state.games_done, state.games_total)
            if state.games_done > seen:  # a stored game (an aborted one is reported too, and not stored)
                seen = state.games_done
                on_game(state.last)

        outcome = run_tournament(
            config, self.store, self.backend, new=True, progress=progress, warn=warn, play_order=play_order
        )
        return self.store.games(outcome.tournament)


# ---- AIND's tournament ---------------------------------------------------------------------------


@dataclass
class TournamentResult:
    """A finished tournament: per-opponent wins of every test agent and the totals."""

    tests: list[str]
    opponents: list[str]
    rounds: dict[str, dict[str, int]]  # opponent -> test agent -> wins
    num_matches: int
    timeouts: int
    forfeits: int
    timeout_losses: dict[str, int]
    seed: int
    time_limit: float

    @property
    def games_per_opponent(self) -> int:
        """Games each test agent plays against one opponent (``2 * num_matches``)."""
        return 2 * self.num_matches

    def wins(self, test: str) -> int:
        """Total wins of a test agent."""
        return sum(round_[test] for round_ in self.rounds.values())

    def games(self) -> int:
        """Games each test agent played in all (``2 * num_matches * opponents``)."""
        return self.games_per_opponent * len(self.opponents)

    def interval(self, test: str) -> tuple[float, float]:
        """Wilson 95% interval of a test agent's win rate."""
        return win_interval(self.wins(test), self.games())

    def to_json(self) -> dict[str, JSON]:
        """The result as a JSON object (rates with their Wilson 95% intervals)."""
        agents: list[JSON] = []
        for name in self.tests:
            lo, hi = self.interval(name)
            agents.append({
                "name": name, "wins": self.wins(name), "games": self.games(),
                "win_rate": self.wins(name) / self.games(), "ci95": [lo, hi],
                "timeout_losses": self.timeout_losses.get(name, 0),
            })  # fmt: skip
        return {
            "seed": self.seed, "num_matches": self.num_matches, "time_limit_ms": self.time_limit,
            "interval": "wilson", "test_agents": agents,
            "opponents": [{"name": o, "wins": dict(self.rounds[o])} for o in self.opponents],
            "timeouts": self.timeouts, "forfeits": self.forfeits, "timeout_losses": dict(self.timeout_losses),
        }  # fmt: skip

    def footer(self) -> list[str]:
        """AIND's last lines: win rates, their intervals, timeouts and forfeits."""
        rates = [self.wins(t) / self.games() for t in self.tests]
        intervals = [self.interval(t) for t in self.tests]
        return table_footer(rates, intervals, self.timeouts, self.forfeits, self.timeout_losses)


class _Gauntlet:
    """Names and labels of one AIND tournament, its tally, and the table rows as they complete."""

    def __init__(self, tests: Sequence[Entrant], cpu: Sequence[Entrant], num_matches: int) -> None:
        names = entrant_names([e.spec for e in [*tests, *cpu]], "isolation")
        self.tests, self.cpu = names[: len(tests)], names[len(tests) :]
        self.labels = {name: e.label for name, e in zip(names, [*tests, *cpu], strict=True)}
        self.loser_keys = {
            **{t: self.labels[t] for t in self.tests},
            **{c: self.labels[c] + " (cpu)" for c in self.cpu},
        }
        self.num_matches = num_matches
        self.running = self.tally()
        self.printed = 0

    def tally(self) -> Tally:
        """An empty tally of these entrants."""
        return Tally(self.tests, self.cpu, self.loser_keys)

    def row(self, tally: Tally, index: int) -> str:
        """Table row ``index`` (from 0) of a tally."""
        won = {self.labels[t]: n for t, n in tally.won[self.cpu[index]].items()}
        return table_row(index + 1, self.labels[self.cpu[index]], list(won), won, 2 * self.num_matches)

    def completed_rows(self, row: Row) -> list[str]:
        """Count a game as it is stored; the table rows that completes, in the table's order."""
        self.running.add(row)
        done = [self.running.played[c] >= 2 * self.num_matches * len(self.tests) for c in self.cpu]
        lines = []
        while self.printed < len(self.cpu) and done[self.printed]:
            lines.append(self.row(self.running, self.printed))
            self.printed += 1
        return lines

    def result(self, rows: Sequence[Row], seed: int, time_limit: float) -> TournamentResult:
        """The result counted from the stored game rows."""
        tally = self.tally()
        for row in rows:
            tally.add(row)
        rounds = {self.labels[c]: {self.labels[t]: n for t, n in tally.won[c].items()} for c in self.cpu}
        return TournamentResult(
            [self.labels[t] for t in self.tests], [self.labels[c] for c in self.cpu], rounds,
            self.num_matches, tally.reasons["timeout"], tally.reasons["forfeit"], dict(tally.timeout_losses),
            seed, time_limit,
        )  # fmt: skip


def play_tournament(
    arena: Arena,
    tests: Sequence[Entrant],
    cpu: Sequence[Entrant],
    num_matches: int,
    seed: int,
    on_row: Callable[[str], None] | None = None,
) -> TournamentResult:
    """AIND's tournament through the arena; ``on_row`` gets the header, then each row once it is complete."""
    gauntlet = _Gauntlet(tests, cpu, num_matches)
    show = on_row or (lambda line: None)
    for line in table_header([e.label for e in tests]):
        show(line)

    def on_game(row: Row) -> None:
        for line in gauntlet.completed_rows(row):
            show(line)

    players = [e.spec for e in [*tests, *cpu]]
    rows = arena.play(
        players, 2 * num_matches, seed, on_game, by_opponent, format="gauntlet", candidates=len(tests)
    )
    return gauntlet.result(rows, seed, arena.time_limit)


def by_opponent(block: Block) -> tuple[int, int, int]:
    """AIND's order of play: one CPU agent after another (its table row), rounds, then the test agents.

    A gauntlet's encounter is ``(test agent, CPU agent)``, so each row of the table is complete once
    its opponent's games are played, as tournament.py printed them.
    """
    test, opponent = block.encounter
    return opponent, block.round, test


# ---- fair pairs ----------------------------------------------------------------------------------


@dataclass
class PairsResult:
    """A head-to-head series of fair pairs: each random opening played twice, seats swapped."""

    names: tuple[str, str]
    wins: int  # of the first agent
    games: int
    timeout_losses: dict[str, int]
    reasons: dict[str, int]
    seed: int
    time_limit: float

    def interval(self) -> tuple[float, float]:
        """Wilson 95% interval of the first agent's win rate."""
        return win_interval(self.wins, self.games)

    def to_json(self) -> dict[str, JSON]:
        """The series as a JSON object."""
        lo, hi = self.interval()
        return {
            "agents": list(self.names), "wins": self.wins, "games": self.games,
            "win_rate": self.wins / self.games if self.games else 0.0, "ci95": [lo, hi], "interval": "wilson",
            "timeout_losses": dict(self.timeout_losses), "reasons": dict(self.reasons), "seed": self.seed,
            "time_limit_ms": self.time_limit,
        }  # fmt: skip

    def summary(self) -> str:
        """One line: wins, rate, interval, timeouts."""
        lo, hi = self.interval()
        rate = 100 * self.wins / self.games if self.games else 0.0
        timeouts = ", ".join(f"{k} {v}" for k, v in sorted(self.timeout_losses.items())) or "none"
        return (
            f"{self.names[0]} vs {self.names[1]}: {self.wins}/{self.games} won = {rate:.1f}% "
            f"(95% CI {100 * lo:.1f}-{100 * hi:.1f}%, Wilson); timeout losses: {timeouts}"
        )


def play_pairs(
    arena: Arena,
    first: str,
    second: str,
    pairs: int,
    seed: int,
    on_game: Callable[[int, int], None] | None = None,
) -> PairsResult:
    """``pairs`` random openings, each played with both seatings; ``on_game(wins, games)`` after each game."""
    names = entrant_names([first, second], "isolation")
    keys = {name: name for name in names}
    running = Tally(names[:1], names[1:], keys)

    def count(row: Row) -> None:
        running.add(row)
        if on_game is not None:
            on_game(running.won[names[1]][names[0]], running.played[names[1]])

    tally = Tally(names[:1], names[1:], keys)
    for row in arena.play([first, second], 2 * pairs, seed, count):
        tally.add(row)
    wins, games = tally.won[names[1]][names[0]], tally.played[names[1]]
    return PairsResult(
        (names[0], names[1]),
        wins,
        games,
        dict(tally.timeout_losses),
        dict(tally.reasons),
        seed,
        arena.time_limit,
    )
