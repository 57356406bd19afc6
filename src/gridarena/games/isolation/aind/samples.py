"""AIND's ``sample_players.py`` in gridarena, plus the reference report's four custom heuristics.

Every score has AIND's signature ``score(game, player) -> float`` over the AIND
:class:`~gridarena.games.isolation.aind.Board` and computes the same formula as its twin in
:mod:`gridarena.games.isolation.ai.heuristics`. This module also stands in for ``sample_players``
when an AIND ``game_agent.py`` is loaded without one beside it.

>>> from gridarena.games.isolation.aind.board import Board
>>> game = Board("p1", "p2")
>>> for move in [(2, 3), (0, 5), (1, 1), (2, 4)]:
...     game.apply_move(move)
>>> improved_score(game, "p1"), center_score(game, "p1"), custom_score_4(game, "p2")
(-4.0, 12.5, -3.0)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable
from typing import Any, Final, TypeAlias

from gridarena.games.isolation.ai import heuristics as h
from gridarena.games.isolation.aind.board import SHARED_RNG, Board, Move, TimeLeft

Score: TypeAlias = Callable[[Board, Any], float]
"""AIND's evaluation signature ``score(game, player) -> float``."""


def _decided(game: Board, player: Hashable) -> float | None:
    if game.is_loser(player):
        return -math.inf
    if game.is_winner(player):
        return math.inf
    return None


def _counts(game: Board, player: Hashable) -> tuple[list[Move], list[Move]]:
    return game.get_legal_moves(player), game.get_legal_moves(game.get_opponent(player))


def null_score(game: Board, player: Hashable) -> float:
    """0 unless the game is decided (AIND ``null_score``)."""
    done = _decided(game, player)
    return 0.0 if done is None else done


def open_move_score(game: Board, player: Hashable) -> float:
    """The player's number of legal moves (AIND ``open_move_score``)."""
    done = _decided(game, player)
    return float(len(game.get_legal_moves(player))) if done is None else done


def improved_score(game: Board, player: Hashable) -> float:
    """Own moves minus the opponent's (AIND ``improved_score``)."""
    done = _decided(game, player)
    if done is not None:
        return done
    own, opp = _counts(game, player)
    return h.improved_value(len(own), len(opp))


def center_score(game: Board, player: Hashable) -> float:
    """Squared distance from the point ``(height/2, width/2)``; fails for an unplaced player, as AIND's."""
    done = _decided(game, player)
    if done is not None:
        return done
    y, x = game.get_player_location(player)  # type: ignore[misc]
    return h.center_value(game.width, game.height, y, x)


def custom_score(game: Board, player: Hashable) -> float:
    """(a) Linear combination ``own - 3 * opp`` (AB_Custom)."""
    done = _decided(game, player)
    if done is not None:
        return done
    own, opp = _counts(game, player)
    return h.linear_value(len(own), len(opp))


def custom_score_2(game: Board, player: Hashable) -> float:
    """(b) Taxicab ``(own - opp) * 0.5 / d`` (AB_Custom_2); ``d = 1`` while a piece is unplaced."""
    done = _decided(game, player)
    if done is not None:
        return done
    own, opp = _counts(game, player)
    a, b = game.get_player_location(player), game.get_player_location(game.get_opponent(player))
    d = 1 if a is None or b is None else abs(a[0] - b[0]) + abs(a[1] - b[1])
    return h.taxicab_value(len(own), len(opp), d)


def custom_score_3(game: Board, player: Hashable) -> float:
    """(c) Intersection ``(own - 3 * opp) + 5 * common / blanks`` (AB_Custom_3)."""
    done = _decided(game, player)
    if done is not None:
        return done
    own, opp = _counts(game, player)
    common = len(set(own) & set(opp))
    return h.intersection_value(len(own), len(opp), common, len(game.get_blank_spaces()))


def custom_score_4(game: Board, player: Hashable) -> float:
    """(d) 2D correlation ``(own - 3 * opp) - 0.5 * C[r][c]`` (AB_Custom_4), counted directly."""
    done = _decided(game, player)
    if done is not None:
        return done
    own, opp = _counts(game, player)
    loc = game.get_player_location(player)
    return h.correlation_value(len(own), len(opp), 0 if loc is None else _block(game, loc))


def _block(game: Board, loc: Move) -> int:
    """Non-blank cells of the 3x3 block centred on ``loc`` (scipy's correlate2d with zero fill)."""
    row, col = loc
    state, height = game._board_state, game.height
    return sum(
        1
        for c in range(max(0, col - 1), min(game.width, col + 2))
        for r in range(max(0, row - 1), min(height, row + 2))
        if state[r + c * height]
    )


#: The AIND-signature scores by heuristic name (the names of :data:`heuristics.HEURISTICS`).
SCORES: Final[dict[str, Score]] = {
    "null": null_score,
    "open_move": open_move_score,
    "improved": improved_score,
    "center": center_score,
    "linear": custom_score,
    "taxicab": custom_score_2,
    "intersection": custom_score_3,
    "correlation": custom_score_4,
}


class RandomPlayer:
    """A uniformly random legal move, or ``(-1, -1)``; draws from ``rng`` (default: the shared one)."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = SHARED_RNG if rng is None else rng

    def get_move(self, game: Board, time_left: TimeLeft) -> Move:
        """A random legal move."""
        legal_moves = game.get_legal_moves()
        if not legal_moves:
            return (-1, -1)
        return legal_moves[self.rng.randint(0, len(legal_moves) - 1)]


class GreedyPlayer:
    """One-ply search: the move whose successor scores best (ties go to the larger move tuple)."""

    def __init__(self, score_fn: Score = open_move_score) -> None:
        self.score = score_fn

    def get_move(self, game: Board, time_left: TimeLeft) -> Move:
        """The greedy move, or ``(-1, -1)``."""
        legal_moves = game.get_legal_moves()
        if not legal_moves:
            return (-1, -1)
        _, move = max((self.score(game.forecast_move(m), self), m) for m in legal_moves)
        return move


class HumanPlayer:
    """Asks for a move on the terminal: prints the board and the numbered legal moves."""

    def __init__(self, ask: Callable[[str], str] = input, show: Callable[[str], None] = print) -> None:
        self.ask, self.show = ask, show

    def get_move(self, game: Board, time_left: TimeLeft) -> Move:
        """The move whose number the human types."""
        legal_moves = game.get_legal_moves()
        if not legal_moves:
            return (-1, -1)
        self.show(game.to_string() + "\n" + "\n".join(f"[{i}] {m}" for i, m in enumerate(legal_moves)))
        while True:
            answer = self.ask("Select move index:")
            if answer.strip().isdigit() and int(answer) < len(legal_moves):
                return legal_moves[int(answer)]
            self.show("Illegal move! Try again.")
