"""A small AIND-style game_agent.py written for gridarena's tests (not Udacity's file).

It uses only what the 2017 project offered an agent: the Board handed to get_move, the
time_left() callable, and the modules the grading sandbox allowed.
"""

import math
import random

import isolation  # the harness makes this importable; the agent only checks the class name
import numpy as np
from sample_players import improved_score

BOARD_CLASS_NAME = isolation.Board.__name__


class SearchTimeout(Exception):
    """Subclass base exception for code clarity."""


def custom_score(game, player):
    """Own moves minus twice the opponent's."""
    if game.is_loser(player):
        return float("-inf")
    if game.is_winner(player):
        return float("inf")
    own = len(game.get_legal_moves(player))
    opp = len(game.get_legal_moves(game.get_opponent(player)))
    return float(own - 2 * opp)


def custom_score_2(game, player):
    """Improved score plus a small pull towards the middle rows (uses numpy)."""
    if game.is_loser(player) or game.is_winner(player):
        return improved_score(game, player)
    row, _ = game.get_player_location(player)
    return improved_score(game, player) - float(np.abs(row - (game.height - 1) / 2.0)) / 10.0


def custom_score_3(game, player):
    """Share of the blank cells the player can reach next."""
    if game.is_loser(player):
        return float("-inf")
    if game.is_winner(player):
        return float("inf")
    return len(game.get_legal_moves(player)) / math.sqrt(1 + len(game.get_blank_spaces()))


class IsolationPlayer:
    """Base class for minimax and alphabeta agents."""

    def __init__(self, search_depth=3, score_fn=custom_score, timeout=10.0):
        self.search_depth = search_depth
        self.score = score_fn
        self.time_left = None
        self.TIMER_THRESHOLD = timeout


class MinimaxPlayer(IsolationPlayer):
    """Fixed-depth minimax."""

    def get_move(self, game, time_left):
        self.time_left = time_left
        best_move = (-1, -1)
        try:
            return self.minimax(game, self.search_depth)
        except SearchTimeout:
            pass
        return best_move

    def minimax(self, game, depth):
        if self.time_left() < self.TIMER_THRESHOLD:
            raise SearchTimeout()
        moves = game.get_legal_moves()
        if not moves:
            return (-1, -1)
        return max(moves, key=lambda m: self._value(game.forecast_move(m), depth - 1, False))

    def _value(self, game, depth, maximizing):
        if self.time_left() < self.TIMER_THRESHOLD:
            raise SearchTimeout()
        moves = game.get_legal_moves()
        if depth == 0 or not moves:
            return self.score(game, self)
        values = [self._value(game.forecast_move(m), depth - 1, not maximizing) for m in moves]
        return max(values) if maximizing else min(values)


class AlphaBetaPlayer(IsolationPlayer):
    """Iterative-deepening alpha-beta."""

    def get_move(self, game, time_left):
        self.time_left = time_left
        moves = game.get_legal_moves()
        best_move = random.choice(moves) if moves else (-1, -1)
        depth = 1
        try:
            while True:
                best_move = self.alphabeta(game, depth)
                depth += 1
        except SearchTimeout:
            pass
        return best_move

    def alphabeta(self, game, depth, alpha=float("-inf"), beta=float("inf")):
        if self.time_left() < self.TIMER_THRESHOLD:
            raise SearchTimeout()
        best_move, best = (-1, -1), float("-inf")
        for move in game.get_legal_moves():
            value = self._ab(game.forecast_move(move), depth - 1, alpha, beta, False)
            if best_move == (-1, -1) or value > best:
                best_move, best = move, value
            alpha = max(alpha, best)
        return best_move

    def _ab(self, game, depth, alpha, beta, maximizing):
        if self.time_left() < self.TIMER_THRESHOLD:
            raise SearchTimeout()
        moves = game.get_legal_moves()
        if depth == 0 or not moves:
            return self.score(game, self)
        if maximizing:
            value = float("-inf")
            for move in moves:
                value = max(value, self._ab(game.forecast_move(move), depth - 1, alpha, beta, False))
                if value >= beta:
                    return value
                alpha = max(alpha, value)
            return value
        value = float("inf")
        for move in moves:
            value = min(value, self._ab(game.forecast_move(move), depth - 1, alpha, beta, True))
            if value <= alpha:
                return value
            beta = min(beta, value)
        return value
