"""``postmortem``: the heuristics of the contest's second place (forum thread 105722, post 30).

Cut detection by a chain Dijkstra scored by what it cuts, cut defence in three steps (towers, then
blocking units, then a counter-cut), unit movement by priorities, towers, spawning, in that turn
order. Only the cut detection could be re-read at its source; the rest follows what the top
players wrote in that thread and is documented in docs/iceandfire.md. ``best`` (``ai/best.py``)
builds on it and uses it as its model of the opponent.
"""

from __future__ import annotations

import random

from gridarena.games.iceandfire.ai.board import ME, OPP, Board, BoardBot
from gridarena.games.iceandfire.ai.tactics import INF, WIN, Plan, best_cut, chain_search, finisher
from gridarena.games.iceandfire.geometry import CELLS, MINE, NEUTRAL, TOWER, UNIT_COST, xy


class PostMortemBot(BoardBot):
    """The contest's second place, as a turn of heuristics (see the module docstring).

    Turn flow: (1) a finisher if the gold takes the enemy HQ; (2) cut defence when the opponent's
    best cut (or finisher) next turn is worth more than ``danger``: towers first, then blocking
    units, then the best counter-cut; (3) our best cuts while one is worth it; (4) unit moves by
    priority; (5) towers on the threatened border; (6) spawning; (7) a mine when rich.
    """

    name = "postmortem"
    #: Turns over which a change of income is counted when a cut is scored.
    horizon = 5.0
    #: A threat worth more than this (in gold over the horizon) is defended.
    danger = 25.0
    #: Gold kept back from spawning once the armies touch.
    reserve = 0
    #: As an opponent model inside ``best``: no defence, towers or mines, fewer cut tries (time).
    light = False
    cut_tries = 4
    cut_targets = 40
    #: Weight of own neighbours when a unit claims a neutral cell: a compact territory is harder to cut.
    compact = 0.2
    #: Weight of getting nearer the enemy HQ when units claim cells (ties, by default).
    closer = 0.01
    #: Gold left after a mine, at least.
    mine_reserve = 30
    bank_finisher = False
    reply_search = False
    defend_finisher = False
    #: Chains may run on through own cut-off land they reconnect (``tactics.chain_search(joins=True)``):
    #: our cuts and the threat we see then count recaptures through it (``best`` and its models).
    joins = False

    def perturb(self, rng: random.Random, scale: float) -> None:
        """Another style for the sparring pool: each weight scaled by a random factor in
        [1 - ``scale``, 1 + ``scale``], a reserve of gold kept once the armies touch, fewer or more cuts."""

        def factor() -> float:
            return 1.0 + rng.uniform(-scale, scale)

        self.horizon *= factor()
        self.danger *= factor()
        self.compact *= factor() * (1.0 + 4.0 * scale * rng.random())
        self.closer *= factor() * (1.0 + 100.0 * scale * rng.random())
        self.mine_reserve = round(self.mine_reserve * factor())
        self.reserve = round(40 * scale * rng.random())
        self.cut_tries = max(1, round(self.cut_tries * factor()))

    # -- the turn -------------------------------------------------------------------------------

    def plan(self, board: Board) -> list[str]:
        """The whole turn."""
        return self.play_turn(board)[0]

    def play_turn(self, board: Board) -> tuple[list[str], Board]:
        """The whole turn: its commands and the board after them (``board`` may be changed)."""
        commands: list[str] = []
        finish = finisher(board, ME, board.gold[ME])
        if finish is not None:
            return finish.commands, finish.board
        if not self.light:
            board = self.defend(board, commands)
        board = self.cuts(board, commands)
        if board.won == ME:
            return commands, board
        board = self.move_units(board, commands)
        if not self.light:
            board = self.towers(board, commands)
        board = self.spawn(board, commands)
        if not self.light:
            board = self.mines(board, commands)
        return commands, board

    def _apply(self, plan: Plan, commands: list[str]) -> Board:
        commands.extend(plan.commands)
        return plan.board

    def opponent_budget(self, board: Board) -> int:
        """The opponent's gold at the start of its next turn."""
        return board.gold[OPP] + max(0, board.compute_income(OPP))

    #: How many of the opponent's cheapest chain targets a threat looks at (the judge of ``best``: all).
    threat_targets = 25
    judge_targets = 200

    def threat(self, board: Board, targets: int = 0, stop_above: float | None = None) -> Plan | None:
        """The opponent's best cut next turn (its finisher first), over its ``targets`` cheapest chains.

        ``stop_above``: the caller only needs to know whether the threat is below it (see best_cut).
        """
        budget = self.opponent_budget(board)
        # One search for both questions.
        chains = chain_search(board, OPP, budget, all_units_act=True, joins=self.joins)
        finish = finisher(board, OPP, budget, all_units_act=True, chains=chains)
        if finish is not None:
            return finish
        limit = targets or self.threat_targets
        return best_cut(
            board,
            OPP,
            budget,
            self.horizon,
            limit=limit,
            all_units_act=True,
            chains=chains,
            stop_above=stop_above,
        )

    def defend(self, board: Board, commands: list[str]) -> Board:
        """Cut defence in three steps: a tower, blocking units, then a counter-cut."""
        threat = self.threat(board)
        if threat is None or threat.score < self.danger:
            return board
        path = [c for c in threat.cells if board.owner[c] == ME or board.owner[c] == NEUTRAL]
        # Step 1: a tower that protects the chain's cells raises them to level 3.
        best: tuple[float, Board, str] | None = None
        candidates = {n for c in threat.cells for n in (c, *board.info.neighbours[c])}
        for i in candidates:
            if not board.can_build(i, TOWER):
                continue
            b = board.copy()
            b.build(i, TOWER)
            after = self.threat(b, stop_above=None if best is None else best[0])
            value = 0.0 if after is None else after.score
            if best is None or value < best[0]:
                x, y = xy(i)
                best = (value, b, f"BUILD TOWER {x} {y}")
        if best is not None and best[0] < min(self.danger, threat.score):
            commands.append(best[2])
            return best[1]
        # Step 2: units on the chain's neutral or own free cells make it dearer.
        b = board.copy()
        placed: list[str] = []
        for c in path:
            if b.can_train(c, 1) and b.owner[c] != OPP:
                b.train(c, 1)
                x, y = xy(c)
                placed.append(f"TRAIN 1 {x} {y}")
                after = self.threat(b, stop_above=self.danger)
                if after is None or after.score < self.danger:
                    commands.extend(placed)
                    return b
            if len(placed) >= 2:
                break
        # Step 3: strike first where it hurts most.
        counter = best_cut(board, ME, board.gold[ME], self.horizon, joins=self.joins)
        if counter is not None and counter.score > 0:
            return self._apply(counter, commands)
        return board

    def cut_value(self, plan: Plan) -> float:
        """A cut's worth (``best`` subtracts the opponent's best reply)."""
        return plan.score

    def cuts(self, board: Board, commands: list[str]) -> Board:
        """Our cuts, best first, while one is worth its gold."""
        for _ in range(self.cut_tries):
            plan = self.next_cut(board)
            if plan is None or plan.score <= 0:
                break
            if plan.score < WIN and self.cut_value(plan) <= 0:
                break
            board = self._apply(plan, commands)
            if board.won == ME or self.out_of_time():
                break
        return board

    def next_cut(self, board: Board) -> Plan | None:
        """Our best cut on ``board`` (the chain Dijkstra's, :func:`best_cut`)."""
        return best_cut(board, ME, board.gold[ME], self.horizon, limit=self.cut_targets, joins=self.joins)

    def move_units(self, board: Board, commands: list[str]) -> Board:
        """Each unit, nearest to the enemy HQ first: the best neighbour by priority, else onwards."""
        enemy_hq = board.hq[OPP]
        dist = board.info.dist
        units = [i for i in board.units(ME) if not board.moved[i]]
        units.sort(key=lambda i: dist[i][enemy_hq])
        for src in units:
            if board.moved[src] or not board.unit_level[src]:
                continue
            best_score, best_cell = 0.0, -1
            for n in board.info.neighbours[src]:
                if board.step(src, n) != n:
                    continue
                score = self.move_score(board, src, n)
                if score > best_score:
                    best_score, best_cell = score, n
            if self.stays(board, src, best_score):
                continue
            uid = board.unit_id[src]
            target = best_cell if best_cell >= 0 else self.frontier_target(board, src)
            if target < 0:
                continue
            if board.move(src, target) >= 0:
                x, y = xy(target)
                commands.append(f"MOVE {uid} {x} {y}")
        return board

    def stays(self, board: Board, src: int, score: float) -> bool:
        """Whether the unit on ``src`` keeps its cell although its best step scores ``score``
        (``best``: a unit that holds the front; here never)."""
        return False

    def room(self, board: Board, i: int) -> int:
        """Neutral cells within distance 2 of ``i``: how much a unit there can still claim."""
        owner = board.owner
        return sum(1 for c in board.info.near[i] if owner[c] == NEUTRAL)

    def darkened(self, board: Board, after: Board) -> int:
        """Enemy cells active before and not after (taken or cut off)."""
        return sum(
            1
            for i in range(CELLS)
            if board.owner[i] == OPP and board.active[i] and not (after.owner[i] == OPP and after.active[i])
        )

    def move_score(self, board: Board, src: int, n: int) -> float:
        """Priority of stepping from ``src`` onto ``n``: HQ, kills and cuts, neutral room, reconnecting."""
        if n == board.hq[OPP]:
            return WIN
        enemy_hq = board.hq[OPP]
        closer = self.closer * (board.info.dist[src][enemy_hq] - board.info.dist[n][enemy_hq])
        o = board.owner[n]
        if o == OPP:
            score = 3.0 + (UNIT_COST[board.unit_level[n]] / 10 if board.unit_owner[n] == OPP else 0)
            if board.building[n] in (MINE, TOWER):
                score += 2.0
            b = board.copy()
            b.move(src, n)
            return score + self.darkened(board, b) - 1 + closer
        if o == NEUTRAL:
            return 2.0 + 0.25 * self.room(board, n) + self.compact * self.own_neighbours(board, n) + closer
        if not board.active[n]:
            return 1.5 + closer  # reconnect an own cut-off cell
        return 0.0

    def frontier_target(self, board: Board, src: int) -> int:
        """The nearest neutral cell, else the nearest cell not ours and active (ties: nearer the enemy HQ)."""
        dist = board.info.dist
        enemy_hq = board.hq[OPP]
        best, best_key = -1, (INF, INF, INF)
        for i in range(CELLS):
            if board.info.void[i] or (board.owner[i] == ME and board.active[i]) or i == src:
                continue
            key = (0 if board.owner[i] == NEUTRAL else 1, dist[src][i], dist[i][enemy_hq])
            if key < best_key:
                best, best_key = i, key
        return best

    def contact(self, board: Board) -> int:
        """How close the two territories are (the shortest distance between their cells)."""
        mine = board.cells_of(ME)
        theirs = board.cells_of(OPP)
        dist = board.info.dist
        return min((dist[a][b] for a in mine for b in theirs), default=INF)

    def towers(self, board: Board, commands: list[str]) -> Board:
        """Towers on own cells near enemy units or territory, one per turn, where none protects yet."""
        if board.gold[ME] < 15:
            return board
        dist = board.info.dist
        enemies = [i for i in range(CELLS) if board.owner[i] == OPP and board.active[i]]
        enemy_units = [i for i in board.units(OPP)]
        best, best_value = -1, 0.0
        for i in range(CELLS):
            if not board.can_build(i, TOWER):
                continue
            near_units = sum(1 for u in enemy_units if dist[i][u] <= 2)
            near_cells = sum(1 for e in enemies if dist[i][e] <= 2)
            if near_units == 0 and near_cells == 0:
                continue
            covered = [i, *board.info.neighbours[i]]
            gain = sum(1 for c in covered if board.owner[c] == ME and not board.protected(c))
            value = gain + 2 * near_units + 0.5 * min(near_cells, 4)
            if value > best_value:
                best, best_value = i, value
        if best >= 0 and best_value >= 4:
            board.build(best, TOWER)
            x, y = xy(best)
            commands.append(f"BUILD TOWER {x} {y}")
        return board

    def spawn_score(self, board: Board, i: int) -> float:
        """What a level-1 unit trained on ``i`` is worth: enemy cells and cuts, neutral room."""
        o = board.owner[i]
        if o == OPP:
            b = board.copy()
            b.train(i, 1)
            return 3.0 + self.darkened(board, b) - 1
        if o == NEUTRAL:
            return 2.0 + 0.25 * self.room(board, i) + self.compact * self.own_neighbours(board, i)
        return 1.5

    @staticmethod
    def own_neighbours(board: Board, i: int) -> int:
        """Own active neighbours of ``i``: a compact territory is harder to cut."""
        return sum(1 for n in board.info.neighbours[i] if board.owner[n] == ME and board.active[n])

    def spawn(self, board: Board, commands: list[str], limit: int = 12) -> Board:
        """Level-1 units where they claim the most, while the gold and the income allow."""
        enemy_hq = board.hq[OPP]
        dist = board.info.dist
        touching = self.reserve and self.contact(board) <= 2
        neighbours, owner, active = board.info.neighbours, board.owner, board.active
        # Only cells next to the active territory can be trained on: keep that frontier up to date.
        frontier = {
            n
            for i in range(CELLS)
            if owner[i] == ME and active[i]
            for n in neighbours[i]
            if not (owner[n] == ME and active[n])
        }
        for _ in range(limit):
            if board.gold[ME] < 10 + (self.reserve if touching else 0):
                break
            if board.compute_income(ME) <= 0 and board.gold[ME] < 40:
                break
            best, best_score = -1, 2.0
            for i in sorted(frontier):
                if not board.can_train(i, 1):
                    continue
                score = self.spawn_score(board, i) - self.closer * dist[i][enemy_hq]
                if score > best_score:
                    best, best_score = i, score
            if best < 0:
                break
            if not self.spawn_ok(board, best):
                break
            board.train(best, 1)
            x, y = xy(best)
            commands.append(f"TRAIN 1 {x} {y}")
            if board.owner[best] == ME and board.active[best]:
                frontier.discard(best)
                frontier |= {n for n in neighbours[best] if not (board.owner[n] == ME and board.active[n])}
        return board

    def spawn_ok(self, board: Board, i: int) -> bool:
        """A last check before a spawn (``best``: it must not hand the opponent a finisher)."""
        return True

    def mines(self, board: Board, commands: list[str], reserve: int | None = None) -> Board:
        """A mine on a safe spot when the gold is plentiful (``reserve``: gold kept, default ``mine_reserve``)."""
        cost = board.mine_cost(ME)
        if board.gold[ME] < cost + (self.mine_reserve if reserve is None else reserve):
            return board
        enemies = [i for i in range(CELLS) if board.owner[i] == OPP]
        dist = board.info.dist
        for i in sorted(board.info.spots, key=lambda c: dist[c][board.hq[ME]]):
            if board.can_build(i, MINE) and min((dist[i][e] for e in enemies), default=INF) >= 3:
                board.build(i, MINE)
                x, y = xy(i)
                commands.append(f"BUILD MINE {x} {y}")
                break
        return board
