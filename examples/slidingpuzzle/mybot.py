"""A sliding-puzzle solver of your own: A* over the boards, planned once and then played slide by slide.

In this process:  gridarena play slidingpuzzle --players 'python(file=mybot.py)'
As a program:     gridarena play slidingpuzzle --players "external(cmd='python3 mybot.py',name=mine)"
"""

import heapq
import itertools
import sys

from gridarena import BaseBot, Decision, Game
from gridarena.bots.jsonl import serve
from gridarena.core.clock import TimeControl
from gridarena.games.slidingpuzzle.board import Board
from gridarena.games.slidingpuzzle.rules import PuzzleState


class Planner(BaseBot):
    """A* guided by the sum of each tile's distance to its goal cell. A search that passes its budget
    (20,000 boards, or the move's clock) plays towards the board nearest the goal it has seen, and
    plans again from there."""

    name = "planner"
    budget = 20_000

    def reset(self, game: Game, seat: int, seed: int) -> None:
        super().reset(game, seat, seed)
        goal = game.goal  # the solved board
        self.home = {tile: divmod(cell, goal.cols) for cell, tile in enumerate(goal.cells) if tile > 0}
        self.plan: list[int] = []  # slides still to play

    def act(self, state: PuzzleState, clock: TimeControl) -> Decision:
        if not self.plan:
            self.plan = self.search(state, clock)
        return Decision(self.plan.pop(0), {"planned": len(self.plan)})

    def distance(self, board: Board) -> int:
        """Slides each tile needs if it were alone on the board (never more than the real number)."""
        total = 0
        for cell, tile in enumerate(board.cells):
            if tile > 0:  # -1 is a wall, 0 a blank
                row, col = divmod(cell, board.cols)
                total += abs(row - self.home[tile][0]) + abs(col - self.home[tile][1])
        return total

    def search(self, start: PuzzleState, clock: TimeControl) -> list[int]:
        """The slides to the goal, or to the nearest board seen when the budget ends first."""
        order = itertools.count()  # breaks ties between equal estimates: first found, first out
        frontier = [(self.distance(start.board), next(order), start, [])]
        cost = {start.board: 0}
        nearest = (self.distance(start.board), start.legal_actions()[:1])
        for _ in range(self.budget):
            if not frontier or clock.time_left() < 0.01:
                break
            _, _, state, path = heapq.heappop(frontier)
            left = self.distance(state.board)
            if left == 0:
                return path
            if path and left < nearest[0]:
                nearest = (left, path)
            for slide in state.legal_actions():
                after = state.child(slide)
                if cost.get(after.board, len(path) + 2) > len(path) + 1:
                    cost[after.board] = len(path) + 1
                    estimate = len(path) + 1 + self.distance(after.board)
                    heapq.heappush(frontier, (estimate, next(order), after, [*path, slide]))
        return list(nearest[1])


if __name__ == "__main__":  # run as a program, it speaks the jsonl protocol on stdin and stdout
    serve(Planner(), sys.stdin, sys.stdout)
