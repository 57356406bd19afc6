"""The solver as a player of the arena's single-player mode."""

from __future__ import annotations

from pathlib import Path

import pytest

from gridarena.bots.base import RandomBot
from gridarena.core.clock import TimeControl
from gridarena.core.play import play_game
from gridarena.games.slidingpuzzle.ai.heuristics import SolverError, make_heuristic
from gridarena.games.slidingpuzzle.ai.solvers import AStar
from gridarena.games.slidingpuzzle.bots import make_solver_bot
from gridarena.games.slidingpuzzle.rules import SlidingPuzzle


def test_the_solver_plays_an_optimal_game() -> None:
    game = SlidingPuzzle(variant="homework", scramble=40, max_moves=200)
    heuristic = make_heuristic(game.goal)
    for seed in range(3):
        start = game.new_initial_state(seed=seed)
        optimum = AStar(heuristic).solve(start.board).length
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


def test_the_solver_checks_solvability_before_it_searches() -> None:
    game = SlidingPuzzle(rows=2, cols=3, start=(2, 1, 3, 4, 5, 0))  # one swap from the goal: odd
    for algorithm in ("bfs", "astar", "idastar"):
        bot = make_solver_bot(game, algorithm=algorithm)
        decision = bot.act(game.new_initial_state(), TimeControl())
        assert decision.action in game.new_initial_state().legal_actions()
        assert bot.last is not None and (bot.last.status, bot.last.expanded) == ("unsolvable", 0)
    with pytest.raises(SolverError, match="unknown algorithm"):
        make_solver_bot(game, algorithm="dfs")


def test_the_anytime_bot_follows_a_weighted_plan_when_the_optimum_is_out_of_reach() -> None:
    game = SlidingPuzzle(rows=4, cols=4, scramble=200, max_moves=400)
    state = game.new_initial_state(seed=3)
    clock = TimeControl(nodes=2_000)  # far too few for the optimum, plenty for weight 2
    plain = make_solver_bot(game)
    plain.act(state, clock)
    assert plain.last is not None and plain.last.path is None and not plain.plan
    anytime = make_solver_bot(game, anytime=True)
    decision = anytime.act(state, clock)
    found = anytime.last
    assert found is not None and found.path is not None and found.stopped and found.weight > 1.0
    assert decision.action == found.path[0] and len(anytime.plan) == len(found.path) - 1
    record = play_game(game, [make_solver_bot(game, anytime=True)], seed=3)
    assert record.outcome.termination == "normal"
