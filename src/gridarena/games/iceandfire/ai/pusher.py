"""``pusher``: a sparring bot that rushes the enemy HQ along its front line.

Written to imitate the style that beat ``best`` from outside (docs/iceandfire.md): no towers, no
mines, every unit and every coin spent on getting nearer the enemy HQ. Each turn:

1. the finisher, if the gold pays the chain to the enemy HQ;
2. every unit, nearest the enemy HQ first, steps to the neighbour it may enter that is nearest the
   enemy HQ, preferring the front line (cells touching the enemy's land) and kills;
3. level-1 units trained on the playable cells nearest the enemy HQ, front line first (a level 2 or
   3 where only that enters, and only near the HQ), while the gold lasts; it banks instead when
   the next turn's gold would pay the chain to the HQ.

``cuts=1`` plays its best cuts first and ``guard=1`` guards its HQ against the enemy's finisher: a
sharper rusher of the same style.
"""

from __future__ import annotations

from gridarena.games.iceandfire.ai.board import ME, OPP, Board, BoardBot
from gridarena.games.iceandfire.ai.defence import dearest_blocker
from gridarena.games.iceandfire.ai.tactics import best_cut, finisher, hq_chain_cost
from gridarena.games.iceandfire.geometry import CELLS, NEUTRAL, UNIT_COST, xy


class PusherBot(BoardBot):
    """Advance along the front line towards the enemy HQ, train into it, chain to the HQ."""

    name = "pusher"
    #: How near the enemy HQ (path distance) a level 2 or 3 unit may be trained to break through.
    breakthrough = 5
    #: Weight of the front line (cells next to the enemy's land) against plain nearness.
    front = 1.5
    #: A sharper rusher: its best cuts first (a chain into enemy land that pays), and a tower or a
    #: blocking unit next to its HQ when the enemy's gold could take it next turn.
    cuts = False
    guard = False

    def plan(self, board: Board) -> list[str]:
        """Finisher, then the push."""
        return self.play_turn(board)[0]

    def play_turn(self, board: Board) -> tuple[list[str], Board]:
        """The turn's commands and the board after them (``board`` may be changed)."""
        finish = finisher(board, ME, board.gold[ME])
        if finish is not None:
            return finish.commands, finish.board
        commands: list[str] = []
        if self.guard:
            board = self.guard_hq(board, commands)
        if self.cuts:
            for _ in range(2):
                plan = best_cut(board, ME, board.gold[ME], 5.0, limit=20)
                if plan is None or plan.score <= 0:
                    break
                commands.extend(plan.commands)
                board = plan.board
                if board.won == ME:
                    return commands, board
        self.advance(board, commands)
        if not self.bank(board):
            self.train_forward(board, commands)
        return commands, board

    def guard_hq(self, board: Board, commands: list[str]) -> Board:
        """A tower (or else a unit) next to the HQ, the one that makes the enemy's chain to it dearest,
        when the enemy's gold next turn could pay that chain."""
        budget = board.gold[OPP] + max(0, board.compute_income(OPP))
        if hq_chain_cost(board, OPP, budget) > budget:
            return board
        best = dearest_blocker(
            board, board.info.neighbours[board.hq[ME]], lambda _board, _cell: 1, budget + 60
        )
        if best is None:
            return board
        commands.append(best[2])
        return best[1]

    def cell_value(self, board: Board, i: int) -> float:
        """How much the push wants cell ``i``: nearness to the enemy HQ, the front line, what dies there."""
        dist = board.info.dist
        value = -4.0 * dist[i][board.hq[OPP]]
        if any(board.owner[n] == OPP for n in board.info.neighbours[i]):
            value += self.front
        if board.owner[i] == OPP:
            value += 1.0 + UNIT_COST[board.unit_level[i]] / 10
        elif board.owner[i] == NEUTRAL:
            value += 0.5
        return value

    def advance(self, board: Board, commands: list[str]) -> None:
        """Each unit steps to its best neighbour, if that is better than where it stands."""
        enemy_hq = board.hq[OPP]
        dist = board.info.dist
        for src in sorted(board.units(ME), key=lambda i: dist[i][enemy_hq]):
            if board.moved[src] or not board.unit_level[src]:
                continue
            best, best_value = -1, self.cell_value(board, src) - 4.0  # staying is a lost step
            for n in board.info.neighbours[src]:
                if board.step(src, n) != n:
                    continue
                value = float(CELLS) if n == enemy_hq else self.cell_value(board, n)
                if value > best_value:
                    best, best_value = n, value
            if best < 0:
                continue
            uid = board.unit_id[src]
            if board.move(src, best) >= 0:
                x, y = xy(best)
                commands.append(f"MOVE {uid} {x} {y}")

    def bank(self, board: Board) -> bool:
        """Keep the gold when the next turn's gold pays the chain to the enemy HQ (and this one's does not)."""
        later = board.gold[ME] + max(0, board.compute_income(ME))
        return hq_chain_cost(board, ME, later) <= later

    def train_forward(self, board: Board, commands: list[str]) -> None:
        """Units on the playable cells nearest the enemy HQ, while the gold lasts."""
        dist = board.info.dist
        enemy_hq = board.hq[OPP]
        for _ in range(12):
            best, best_value, best_level = -1, float("-inf"), 0
            for i in range(CELLS):
                if board.info.void[i] or (board.owner[i] == ME and board.active[i]):
                    continue
                level = board.min_level(i, ME)
                if not level or (level > 1 and dist[i][enemy_hq] > self.breakthrough):
                    continue
                if not board.can_train(i, level):
                    continue
                value = self.cell_value(board, i) - 2.0 * (level - 1)
                if value > best_value:
                    best, best_value, best_level = i, value, level
            if best < 0 or board.compute_income(ME) - 1 < -board.gold[ME] // 4:
                break
            board.train(best, best_level)
            x, y = xy(best)
            commands.append(f"TRAIN {best_level} {x} {y}")
