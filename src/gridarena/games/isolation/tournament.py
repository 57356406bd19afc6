"""AIND's ``tournament.py`` procedure and table, with 95% intervals, and fair head-to-head pairs.

For each CPU opponent in turn, ``num_matches`` times: one board per test agent and seat order
(``Board(cpu, T)`` then ``Board(T, cpu)``), two random opening moves applied to all of them, so
each random opening is played twice with the seats swapped and shared by every test agent; then
every board is played with ``play(time_limit)``. The same player objects serve all games. Rates
come with Wilson score intervals (95%), which stay inside [0, 1] and behave at rates near 0 or 1
where the normal approximation does not.

Unlike AIND, every game's timeouts and forfeits are counted (AIND's later versions do the same),
timeout losses are also reported per agent, and all randomness (openings and the boards' move
shuffles) comes from one seeded ``random.Random``; only timing can make two runs differ.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from gridarena.arena.stats import wilson_interval
from gridarena.games.isolation.aind import (
    TIME_LIMIT_MILLIS,
    AgentLoadError,
    Board,
    load_agent_module,
    samples,
)
from gridarena.games.isolation.aind.agents import AlphaBetaPlayer, CpuClock, MinimaxPlayer
from gridarena.games.isolation.best import BEST_NODES, BestPlayer, ImprovedDepthPlayer

NUM_MATCHES = 5


class Agent(NamedTuple):
    """A player object and its name in the table (AIND's namedtuple)."""

    player: Any
    name: str


def win_interval(wins: float, games: int) -> tuple[float, float]:
    """Wilson 95% interval of ``wins`` out of ``games`` (``(0, 1)`` without games).

    >>> lo, hi = win_interval(35, 70); round(lo, 3), round(hi, 3)
    (0.386, 0.614)
    >>> win_interval(0, 0)
    (0.0, 1.0)
    """
    return (0.0, 1.0) if games == 0 else wilson_interval(wins / games, games)


@dataclass
class Tally:
    """Counts of one tournament: wins per player object, timeouts and forfeits."""

    wins: dict[Any, int] = field(default_factory=dict)
    timeouts: int = 0
    forfeits: int = 0
    timeout_losses: dict[str, int] = field(default_factory=dict)

    def record(self, winner: Any, loser_name: str, reason: str) -> None:
        """Count one finished game."""
        self.wins[winner] = self.wins.get(winner, 0) + 1
        if reason == "timeout":
            self.timeouts += 1
            self.timeout_losses[loser_name] = self.timeout_losses.get(loser_name, 0) + 1
        elif reason == "forfeit":
            self.forfeits += 1


def _opening(games: Sequence[Board], rng: random.Random) -> None:
    """Apply two random moves (uniform over the blank cells) to every board, as AIND does."""
    for _ in range(2):
        move = rng.choice(games[0].get_legal_moves())
        for game in games:
            game.apply_move(move)


def play_round(
    cpu: Agent,
    tests: Sequence[Agent],
    num_matches: int,
    rng: random.Random,
    tally: Tally,
    time_limit: float = TIME_LIMIT_MILLIS,
    width: int = 7,
    height: int = 7,
) -> dict[str, int]:
    """One opponent's games against every test agent; the test agents' wins in this round, by name."""
    won = {test.name: 0 for test in tests}
    for _ in range(num_matches):
        games, seats = [], []
        for test in tests:
            for first, second in ((cpu, test), (test, cpu)):
                games.append(Board(first.player, second.player, width, height, rng))
                seats.append((first, second, test))
        _opening(games, rng)
        for game, (first, second, test) in zip(games, seats, strict=True):
            winner, _, reason = game.play(time_limit)
            loser = second if winner is first.player else first
            tally.record(winner, loser.name + (" (cpu)" if loser is cpu else ""), reason)
            won[test.name] += winner is test.player
    return won


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

    def to_json(self) -> dict[str, Any]:
        """The result as a JSON object (rates with their Wilson 95% intervals)."""
        agents = []
        for name in self.tests:
            lo, hi = win_interval(self.wins(name), self.games())
            agents.append({
                "name": name, "wins": self.wins(name), "games": self.games(),
                "win_rate": self.wins(name) / self.games(), "ci95": [lo, hi],
                "timeout_losses": self.timeout_losses.get(name, 0),
            })  # fmt: skip
        return {
            "seed": self.seed, "num_matches": self.num_matches, "time_limit_ms": self.time_limit,
            "interval": "wilson", "test_agents": agents,
            "opponents": [{"name": o, "wins": self.rounds[o]} for o in self.opponents],
            "timeouts": self.timeouts, "forfeits": self.forfeits, "timeout_losses": self.timeout_losses,
        }  # fmt: skip


def table_header(tests: Sequence[str]) -> list[str]:
    """AIND's two header lines (generalised from four test agents to any number)."""
    first = "\n{:^9}{:^13}".format("Match #", "Opponent") + "".join(f"{name:^13}" for name in tests)
    second = "{:^9}{:^13}".format("", "") + " {:^5}| {:^5}".format("Won", "Lost") * len(tests)
    return [first, second]


def table_row(index: int, opponent: str, tests: Sequence[str], won: dict[str, int], games: int) -> str:
    """One opponent's line: ``Won | Lost`` per test agent out of ``games``."""
    cells = "".join(f" {won[name]:^5}| {games - won[name]:^5}" for name in tests)
    return f"{index!s:^9}{opponent:^13}" + cells


def table_footer(result: TournamentResult) -> list[str]:
    """The rule, the win rates, their 95% intervals (added) and AIND's timeout and forfeit notes."""
    width = 9 + 13 * (len(result.tests) + 1)
    rates = [f"{100 * result.wins(t) / result.games():.1f}%" for t in result.tests]
    intervals = []
    for name in result.tests:
        lo, hi = win_interval(result.wins(name), result.games())
        intervals.append(f"{100 * lo:.0f}-{100 * hi:.0f}%")
    lines = [
        "-" * width,
        "{:^9}{:^13}".format("", "Win Rate:") + "".join(f"{r:^13}" for r in rates),
        "{:^9}{:^13}".format("", "95% CI:") + "".join(f"{i:^13}" for i in intervals) + "\n",
    ]
    if result.timeouts:
        lines.append(
            f"\nThere were {result.timeouts} timeouts during the tournament -- make sure your agent handles "
            "search timeout correctly, and consider increasing the timeout margin for your agent.\n"
        )
        per_agent = ", ".join(f"{name} {n}" for name, n in sorted(result.timeout_losses.items()))
        lines.append(f"Timeout losses per agent: {per_agent}\n")
    if result.forfeits:
        lines.append(
            f"\nYour ID search forfeited {result.forfeits} games while there were still legal moves available to play.\n"
        )
    return lines


def format_table(result: TournamentResult) -> str:
    """The whole table as tournament.py prints it, plus the interval line."""
    lines = table_header(result.tests)
    for index, opponent in enumerate(result.opponents, 1):
        lines.append(
            table_row(index, opponent, result.tests, result.rounds[opponent], result.games_per_opponent)
        )
    return "\n".join(lines + table_footer(result))


def play_tournament(
    cpu_agents: Sequence[Agent],
    test_agents: Sequence[Agent],
    num_matches: int = NUM_MATCHES,
    seed: int = 0,
    time_limit: float = TIME_LIMIT_MILLIS,
    width: int = 7,
    height: int = 7,
    on_row: Callable[[str], None] | None = None,
) -> TournamentResult:
    """Run AIND's tournament; ``on_row`` gets each table line as soon as it is known."""
    rng, tally = random.Random(seed), Tally()
    tests = [agent.name for agent in test_agents]
    rounds: dict[str, dict[str, int]] = {}
    if on_row:
        for line in table_header(tests):
            on_row(line)
    for index, cpu in enumerate(cpu_agents, 1):
        rounds[cpu.name] = play_round(cpu, test_agents, num_matches, rng, tally, time_limit, width, height)
        if on_row:
            on_row(table_row(index, cpu.name, tests, rounds[cpu.name], 2 * num_matches))
    return TournamentResult(
        tests, [c.name for c in cpu_agents], rounds, num_matches, tally.timeouts, tally.forfeits,
        tally.timeout_losses, seed, time_limit,
    )  # fmt: skip


# ---- the agents -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class AgentSource:
    """Where the players come from: AIND-style classes and scores (gridarena's, or an agent file's)."""

    minimax: Callable[..., Any]
    alphabeta: Callable[..., Any]
    random_player: Callable[[], Any]
    open_move: samples.Score
    center: samples.Score
    improved: samples.Score
    customs: tuple[tuple[str, samples.Score], ...]


def builtin_source(rng: random.Random) -> AgentSource:
    """gridarena's AIND agents with the reference report's four custom heuristics."""
    return AgentSource(
        MinimaxPlayer, AlphaBetaPlayer, lambda: samples.RandomPlayer(rng),
        samples.open_move_score, samples.center_score, samples.improved_score,
        (("AB_Custom", samples.custom_score), ("AB_Custom_2", samples.custom_score_2),
         ("AB_Custom_3", samples.custom_score_3), ("AB_Custom_4", samples.custom_score_4)),
    )  # fmt: skip


def file_source(path: str | Path, rng: random.Random) -> AgentSource:
    """The classes and ``custom_score*`` of an unmodified AIND ``game_agent.py``; samples beside it or ours."""
    module = load_agent_module(path)
    missing = [n for n in ("MinimaxPlayer", "AlphaBetaPlayer", "custom_score") if not hasattr(module, n)]
    if missing:
        raise AgentLoadError(f"{path}: missing {', '.join(missing)} (an AIND game_agent.py defines them)")
    sample = sys.modules.get("sample_players", samples)
    customs = [("AB_Custom", module.custom_score)]
    customs += [(f"AB_Custom_{i}", getattr(module, f"custom_score_{i}")) for i in range(2, 10)
                if hasattr(module, f"custom_score_{i}")]  # fmt: skip
    random_player = getattr(sample, "RandomPlayer", samples.RandomPlayer)
    make_random = (
        (lambda: samples.RandomPlayer(rng)) if random_player is samples.RandomPlayer else random_player
    )
    return AgentSource(
        module.MinimaxPlayer, module.AlphaBetaPlayer, make_random,
        getattr(sample, "open_move_score", samples.open_move_score),
        getattr(sample, "center_score", samples.center_score),
        getattr(sample, "improved_score", samples.improved_score), tuple(customs),
    )  # fmt: skip


def cpu_agents(source: AgentSource) -> list[Agent]:
    """The seven CPU opponents, in AIND's order."""
    return [
        Agent(source.random_player(), "Random"),
        Agent(source.minimax(score_fn=source.open_move), "MM_Open"),
        Agent(source.minimax(score_fn=source.center), "MM_Center"),
        Agent(source.minimax(score_fn=source.improved), "MM_Improved"),
        Agent(source.alphabeta(score_fn=source.open_move), "AB_Open"),
        Agent(source.alphabeta(score_fn=source.center), "AB_Center"),
        Agent(source.alphabeta(score_fn=source.improved), "AB_Improved"),
    ]


def make_test_agents(source: AgentSource, extra: Sequence[str] = ()) -> list[Agent]:
    """AB_Improved, then one AB agent per custom score, then any extra agents by name (``best``)."""
    agents = [Agent(source.alphabeta(score_fn=source.improved), "AB_Improved")]
    agents += [Agent(source.alphabeta(score_fn=score), name) for name, score in source.customs]
    for name in extra:
        agents.append(Agent(make_player(name), name))
    return agents


#: AIND-interface players by gridarena bot name (fresh objects on every call).
PLAYERS: dict[str, Callable[[], Any]] = {
    "random": samples.RandomPlayer,
    "mm_open": lambda: MinimaxPlayer(score_fn=samples.open_move_score),
    "mm_center": lambda: MinimaxPlayer(score_fn=samples.center_score),
    "mm_improved": lambda: MinimaxPlayer(score_fn=samples.improved_score),
    "ab_open": lambda: AlphaBetaPlayer(score_fn=samples.open_move_score),
    "ab_center": lambda: AlphaBetaPlayer(score_fn=samples.center_score),
    "ab_improved": lambda: AlphaBetaPlayer(score_fn=samples.improved_score),
    "ab_custom": lambda: AlphaBetaPlayer(score_fn=samples.custom_score),
    "ab_custom_2": lambda: AlphaBetaPlayer(score_fn=samples.custom_score_2),
    "ab_custom_3": lambda: AlphaBetaPlayer(score_fn=samples.custom_score_3),
    "ab_custom_4": lambda: AlphaBetaPlayer(score_fn=samples.custom_score_4),
    "best": BestPlayer,
    # Load-independent twins: a node budget and fixed depths; play them with a long --time-limit.
    "best_nodes": lambda: BestPlayer(nodes=BEST_NODES),
    "ab_improved_depth": ImprovedDepthPlayer,
    "ab_improved_cpu": lambda: CpuClock(AlphaBetaPlayer(score_fn=samples.improved_score)),
}


def make_player(name: str) -> Any:
    """A fresh AIND-interface player by bot name; ``KeyError`` names the choices."""
    if name not in PLAYERS:
        raise KeyError(f"unknown isolation agent {name!r}; choose from {', '.join(PLAYERS)}")
    return PLAYERS[name]()


# ---- head to head ---------------------------------------------------------------------------------


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

    def to_json(self) -> dict[str, Any]:
        """The series as a JSON object."""
        lo, hi = self.interval()
        return {
            "agents": list(self.names), "wins": self.wins, "games": self.games,
            "win_rate": self.wins / self.games if self.games else 0.0, "ci95": [lo, hi], "interval": "wilson",
            "timeout_losses": self.timeout_losses, "reasons": self.reasons, "seed": self.seed,
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
    first: Agent,
    second: Agent,
    pairs: int,
    seed: int = 0,
    time_limit: float = TIME_LIMIT_MILLIS,
    width: int = 7,
    height: int = 7,
    on_game: Callable[[int, int], None] | None = None,
) -> PairsResult:
    """``pairs`` random openings, each played ``Board(first, second)`` and ``Board(second, first)``."""
    rng = random.Random(seed)
    wins, games = 0, 0
    timeouts: dict[str, int] = {}
    reasons: dict[str, int] = {}
    for _ in range(pairs):
        boards = [Board(first.player, second.player, width, height, rng),
                  Board(second.player, first.player, width, height, rng)]  # fmt: skip
        _opening(boards, rng)
        for board in boards:
            winner, _, reason = board.play(time_limit)
            won = winner is first.player
            wins, games = wins + won, games + 1
            reasons[reason] = reasons.get(reason, 0) + 1
            if reason == "timeout":
                loser = second.name if won else first.name
                timeouts[loser] = timeouts.get(loser, 0) + 1
            if on_game:
                on_game(wins, games)
    return PairsResult((first.name, second.name), wins, games, timeouts, reasons, seed, time_limit)
