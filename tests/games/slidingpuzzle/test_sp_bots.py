"""The solver as a player of the arena's single-player mode."""

from __future__ import annotations

from pathlib import Path

from gridarena.bots.base import RandomBot
from gridarena.core.play import play_game
from gridarena.games.slidingpuzzle.bots import make_solver_bot
from gridarena.games.slidingpuzzle.formats import PuzzleCase
from gridarena.games.slidingpuzzle.rules import SlidingPuzzle
from gridarena.games.slidingpuzzle.solvers import astar, make_heuristic


def test_the_solver_plays_an_optimal_game() -> None:
    game = SlidingPuzzle(variant="homework", scramble=40, max_moves=200)
    heuristic = make_heuristic(game.goal)
    for seed in range(3):
        start = game.new_initial_state(seed=seed)
        optimum = astar(PuzzleCase(start.board, game.goal), heuristic).length
        assert optimum is not None
        for algorithm in ("idastar", "astar"):
            record = play_game(game, [make_solver_bot(game, algorithm=algorithm)], seed=seed)
            assert record.outcome.returns == (-float(optimum),)


def test_random_play_ends_at_the_cap_below_every_solver(tmp_path: Path) -> None:
    game = SlidingPuzzle(rows=3, cols=3, scramble=40, max_moves=30)
    record = play_game(game, [RandomBot(seed=1)], seed=2)
    assert record.outcome.returns[0] <= -1.0
    solver = play_game(game, [make_solver_bot(game, partition="4-4", pdb_dir=str(tmp_path))], seed=2)
    assert solver.outcome.returns[0] > record.outcome.returns[0]
