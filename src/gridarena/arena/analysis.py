"""A game's analysis: every move's value before and after, its loss and mark, and the evaluation graph.

The game's analyser comes from the registry (``make_analyser``; see :mod:`gridarena.core.analysis`),
so this module knows no game. For the move of ply ``n`` by player ``p``, *before* is the position's
value for ``p`` and *after* the value for ``p`` of the position the move left; where the analyser
cannot judge ``p`` in that position (a game of three or more, or a chance node next), ``p``'s next
position to move stands in. A tournament's games are analysed as jobs on the arena's backends
(:func:`analysis_job`) and summed up per player (:func:`player_summary`).

>>> from gridarena import make
>>> game = make("slidingpuzzle(rows=2,cols=3,scramble=8)")
>>> state = game.new_initial_state(seed=2)
>>> states, actions = [state], []
>>> for action in (state.legal_actions()[0],):
...     actions.append(action)
...     states.append(states[-1].apply_action(action))
>>> analysis = analyze_positions(game, states, actions, ["solver"], seconds=5.0)
>>> analysis.kind, len(analysis.plies), analysis.plies[0].loss in (0.0, 2.0)
('distance', 1, True)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from gridarena.arena.replay import Replay, read_replay, replay_positions
from gridarena.core.analysis import Analyser, Evaluation, Kind, loss, mark
from gridarena.core.errors import GridArenaError
from gridarena.core.registry import make_analyser
from gridarena.core.types import CHANCE, JSON, TERMINAL, Game, GameState, Player

DEFAULT_SECONDS: Final = 1.0
"""Seconds of analysis per position by default."""
MARKS: Final = {
    "blunder": "blunders",
    "mistake": "mistakes",
    "inaccuracy": "inaccuracies",
    "slower": "slower",
    "faster": "faster",
    "wasted": "wasted",
}
"""Every mark a move can get, worst first (``slower``/``faster``: a proven win lengthened, a loss
shortened), and the name of its count in a player's figures."""


class AnalysisError(GridArenaError):
    """A replay that cannot be analysed (the engine cannot follow it, or the game has no analyser)."""


@dataclass(frozen=True, slots=True)
class PlyAnalysis:
    """One move: ply number (0 is the first move), player, action text, values before and after."""

    ply: int
    player: Player
    action: str
    before: Evaluation
    after: Evaluation
    loss: float
    mark: str | None
    at: int = 0  # the position the after value is of: ply + 1, or the player's next turn

    def to_json(self) -> dict[str, JSON]:
        """The move as ``gridarena analyze --json`` lists it."""
        return {
            "ply": self.ply,
            "player": self.player,
            "action": self.action,
            "before": self.before.value,
            "after": self.after.value,
            "exact": self.before.exact and self.after.exact,
            "loss": round(self.loss, 4),
            "mark": self.mark,
            "error": round(self.before.error + self.after.error, 4),
            "before_text": self.before.text,
            "after_text": self.after.text,
            "best": self.before.best,
        }


@dataclass(slots=True)
class GameAnalysis:
    """A game's analysis: the kind of value, the players' names, every analysed move and the graph.

    ``complete`` is False when the time ran out before every move was analysed (the rest are left out).
    """

    game: str
    kind: Kind
    names: list[str]
    plies: list[PlyAnalysis] = field(default_factory=list)
    graph: list[dict[str, JSON]] = field(default_factory=list)
    complete: bool = True
    seconds: float = 0.0

    def players(self) -> dict[str, dict[str, JSON]]:
        """Per player: moves, marks and loss (see :func:`player_figures`)."""
        return {
            name: player_figures(self.kind, [p for p in self.plies if p.player == seat])
            for seat, name in enumerate(self.names)
        }

    def to_json(self) -> dict[str, JSON]:
        """The analysis as JSON (``gridarena analyze --json``, the viewer's graph, the stored jobs)."""
        return {
            "game": self.game,
            "kind": self.kind,
            "complete": self.complete,
            "seconds": round(self.seconds, 3),
            "plies": [p.to_json() for p in self.plies],
            "players": self.players(),
            "graph": self.graph,
        }


def player_figures(kind: Kind, moves: Sequence[PlyAnalysis]) -> dict[str, JSON]:
    """A player's moves summed up: how many, each mark's count, total and average loss per move."""
    figures: dict[str, JSON] = {"moves": len(moves)}
    for name, counted in MARKS.items():
        figures[counted] = sum(1 for m in moves if m.mark == name)
    total = sum(max(0.0, m.loss) for m in moves)
    figures["loss"] = round(total, 4)
    figures["loss_per_move"] = round(total / len(moves), 4) if moves else None
    return figures


def _value(
    analyser: Analyser,
    cache: dict[tuple[int, Player], Evaluation | None],
    states: Sequence[GameState[Any]],
    n: int,
    player: Player,
) -> Evaluation | None:
    if (n, player) not in cache:
        cache[n, player] = analyser.evaluate(states[n], player)
    return cache[n, player]


def _after(
    analyser: Analyser,
    cache: dict[tuple[int, Player], Evaluation | None],
    states: Sequence[GameState[Any]],
    n: int,
    player: Player,
) -> tuple[int, Evaluation | None]:
    """The value for ``player`` after the move of ply ``n``: at ``n + 1``, or at its next turn."""
    for m in range(n + 1, len(states)):
        value = _value(analyser, cache, states, m, player)
        mover = states[m].current_player()
        if value is not None or mover in (player, TERMINAL):
            return m, value
    return len(states) - 1, None


def analyze_positions(
    game: Game[Any],
    states: Sequence[GameState[Any]],
    actions: Sequence[Any],
    names: Sequence[str],
    seconds: float = DEFAULT_SECONDS,
    deadline: float | None = None,
    analyser: Analyser | None = None,
    budget: float | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> GameAnalysis:
    """Analyse the moves of a game given as its positions (``states[n]`` before ply ``n``) and actions.

    ``seconds`` per position; past ``deadline`` (a ``time.perf_counter`` value), or once the moves
    after the first have taken ``budget`` seconds, the remaining moves are left out and the analysis
    is marked incomplete. The first move is outside the budget: it carries the analyser's start-up
    (kernels compiled, tables loaded), which a per-ply budget should not pay for.
    ``progress(plies done, plies)`` after each ply.
    """
    analyser = analyser if analyser is not None else make_analyser(game, seconds)
    start = time.perf_counter()
    result = GameAnalysis(game.name, analyser.kind, list(names))
    cache: dict[tuple[int, Player], Evaluation | None] = {}
    budget_end: float | None = None
    for n, action in enumerate(actions):
        state = states[n]
        player = state.current_player()
        if player in (CHANCE, TERMINAL) or player < 0:
            continue
        now = time.perf_counter()
        if budget is not None and budget_end is None and result.plies:
            budget_end = now + budget
        if (deadline is not None and now >= deadline) or (budget_end is not None and now >= budget_end):
            result.complete = False
            break
        before = _value(analyser, cache, states, n, player)
        at, after = _after(analyser, cache, states, n, player)
        if before is None or after is None:
            continue
        kind, text = analyser.kind, state.action_to_string(action)
        result.plies.append(
            PlyAnalysis(
                n, player, text, before, after, loss(kind, before, after), mark(kind, before, after), at
            )
        )
        if progress is not None:
            progress(n + 1, len(actions))
    result.graph = graph(game, analyser.kind, result.plies, len(names))
    result.seconds = time.perf_counter() - start
    return result


def graph(game: Game[Any], kind: Kind, plies: Sequence[PlyAnalysis], players: int) -> list[dict[str, JSON]]:
    """The evaluation graph: per series (one player's view), points ``[position, value, exact, mark]``.

    Position ``k`` is the board after ``k`` plies. A two-player zero-sum game has one series, the
    first player's view (the second player's values negated, as lichess shows white's); other games
    one series per player, each point where that player's value is known.
    """
    one_view = players == 2 and game.zero_sum and kind == "result"
    series: dict[int, dict[int, list[JSON]]] = {}
    for p in plies:
        seat, sign = (0, 1.0 if p.player == 0 else -1.0) if one_view else (p.player, 1.0)
        points = series.setdefault(seat, {})
        points.setdefault(p.ply, [p.ply, sign * p.before.value, p.before.exact, None])
        points[p.at] = [p.at, sign * p.after.value, p.after.exact, p.mark]
    return [
        {"seat": seat, "points": [points[k] for k in sorted(points)]}
        for seat, points in sorted(series.items())
    ]


def analyze_replay(
    replay: Replay,
    seconds: float = DEFAULT_SECONDS,
    deadline: float | None = None,
    budget: float | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> GameAnalysis:
    """Analyse a replay's moves (as far as the engine can rebuild them); ``budget`` and ``progress`` as
    for :func:`analyze_positions`."""
    positions = replay_positions(replay)
    if positions.game is None:
        raise AnalysisError(positions.problem or "the engine cannot rebuild this game")
    names = [str(p.get("name")) for p in replay.header.get("players") or [] if isinstance(p, Mapping)]
    actions = positions.actions
    return analyze_positions(
        positions.game, positions.states, actions, names, seconds, deadline, budget=budget, progress=progress
    )


def analysis_batch(tournament: int) -> str:
    """The name under which a tournament's analyses are stored (``gridarena analyze --db``; the viewer reads them)."""
    return f"analysis {tournament}"


def analysis_job(payload: Mapping[str, JSON]) -> JSON:
    """The arena job of one stored game: ``{"replay": path, "seconds": s}`` in, its analysis out."""
    replay = read_replay(str(payload["replay"]))
    return analyze_replay(replay, float(str(payload["seconds"]))).to_json()


def player_summary(analyses: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, JSON]]:
    """Per player over a set of analysed games: games, moves, each mark per game and the average loss per move."""
    totals: dict[str, dict[str, float]] = {}
    for analysis in analyses:
        for name, figures in analysis["players"].items():
            if not figures["moves"]:
                continue
            total = totals.setdefault(name, {"games": 0.0})
            total["games"] += 1
            for key, value in figures.items():
                if isinstance(value, int | float) and key != "loss_per_move":
                    total[key] = total.get(key, 0.0) + value
    summary: dict[str, dict[str, JSON]] = {}
    for name, total in sorted(totals.items()):
        games, moves = total["games"], total.get("moves", 0.0)
        row: dict[str, JSON] = {"games": int(games), "moves": int(moves)}
        for key, value in total.items():
            if key not in ("games", "moves", "loss"):
                row[f"{key}_per_game"] = round(value / games, 3)
        row["loss_per_move"] = round(total.get("loss", 0.0) / moves, 4) if moves else None
        summary[name] = row
    return summary
