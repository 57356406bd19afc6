"""Ice and Fire's bots: the three Wood bosses, the contest's second-place post-mortem, and ``best``.

Every bot here reads the CodinGame input (spec 13), in the arena through the state's
``codingame_init`` / ``codingame_turn`` hooks and standalone on stdin (``gridarena iceandfire bot
NAME``, :mod:`gridarena.games.iceandfire.protocol`), and answers one CodinGame line. So the bot that
plays our tournaments is byte for byte the one pasted behind a CodinGame submission.

* ``wood3``, ``wood2``, ``wood1``: the league bosses ``config/levelN/Boss.py3`` as spec 18.2
  describes them, with one ``random.Random(0)`` per game making the same calls in the same order.
* ``postmortem``: the heuristics of the contest's second place (forum thread 105722, post 30): cut
  detection by a chain Dijkstra scored by what it cuts, cut defence in three steps (towers, then
  blocking units, then a counter-cut), unit movement by priorities, towers, spawning, in that
  turn order. Only the cut detection could be re-read at its source; the rest follows the spec's
  design anchors (18.1) and is documented in docs/iceandfire.md.
* ``best``: ``postmortem`` plus a one-turn finisher with gold banking, a defence against the
  opponent's finisher by tower search, and cuts chosen against the opponent's best reply.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from gridarena.core.bot import BaseBot, Decision
from gridarena.core.clock import TimeControl
from gridarena.core.types import Game, GameState
from gridarena.games.iceandfire.ai.board import (
    CELLS,
    ME,
    MINE,
    NEUTRAL,
    OPP,
    TOWER,
    UNIT_COST,
    Board,
    MapInfo,
    OutOfTime,
    TurnInput,
    board_from_input,
    parse_init,
    xy,
)
from gridarena.games.iceandfire.ai.tactics import (
    INF,
    WIN,
    Plan,
    best_cut,
    chain_search,
    chain_steps,
    finisher,
    hq_chain_cost,
    territory,
    units_value,
    upkeep_of,
)

WIDTH = HEIGHT = 12
HQ_TYPE = 0


def _clamp(v: int) -> int:
    return min(WIDTH - 1, max(0, v))


class CodinGameBot(BaseBot):
    """A bot that plays from the CodinGame input text: the same code in the arena and on CodinGame.

    Subclasses write :meth:`start` (the initial input) and :meth:`turn` (one turn's input lines ->
    the output line). ``act`` feeds them the state's own CodinGame text.
    """

    name = "codingame"

    def __init__(self, seed: int | None = None, rules: str = "contest") -> None:
        super().__init__(seed)
        self.rules = rules
        self._started = False
        self.deadline: float | None = None
        self.now: Callable[[], float] = time.perf_counter
        self.turns = 0

    def reset(self, game: Game[Any], seat: int, seed: int) -> None:
        """A new game: forget the map, read the initial input again on the first turn."""
        super().reset(game, seat, seed)
        self.rules = str(game.params.get("rules", "contest"))
        self._started = False
        self.turns = 0
        self.new_game()

    def new_game(self) -> None:
        """Per-game state of a subclass (called by reset, and by the standalone loop once)."""

    def start(self, lines: Sequence[str]) -> None:
        """The initial input (mine spots)."""

    def turn(self, lines: Sequence[str]) -> str:
        """One turn's input lines -> the output line."""
        raise NotImplementedError

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        """Answer from the state's CodinGame text, as an external program would."""
        seat = state.current_player()
        if not self._started:
            self.start(state.codingame_init(seat).splitlines())  # type: ignore[attr-defined]
            self._started = True
        # The deadline is a value of the control's own clock (wall, or the thread's CPU time).
        self.deadline, self.now = clock.deadline, clock.clock
        line = self.turn(state.codingame_turn(seat).splitlines())  # type: ignore[attr-defined]
        self.turns += 1
        return Decision(line)


# -- the Wood bosses (spec 18.2) ------------------------------------------------------------------


class WoodBoss(CodinGameBot):
    """Shared by the three bosses: ``random.Random(0)`` per game, the input as the boss reads it."""

    def new_game(self) -> None:
        """The boss's ``random.seed(0)``: one generator per game."""
        self.boss_rng = random.Random(0)
        self.spots: list[tuple[int, int]] = []

    def start(self, lines: Sequence[str]) -> None:
        """Mine spots in input order."""
        n = int(lines[0])
        self.spots = [(int(a), int(b)) for a, b in (line.split() for line in lines[1 : 1 + n])]

    @staticmethod
    def hqs(turn: TurnInput) -> tuple[tuple[int, int], tuple[int, int]]:
        """(own HQ, enemy HQ) from the buildings list."""
        mine = enemy = (0, 0)
        for owner, kind, x, y in turn.buildings:
            if kind == HQ_TYPE:
                if owner == 0:
                    mine = (x, y)
                else:
                    enemy = (x, y)
        return mine, enemy

    def diagonal(self, uid: int, x: int, y: int) -> str:
        """The random diagonal MOVE of the Wood 3 boss: x's choice drawn first, then y's."""
        tx = _clamp(x + self.boss_rng.choice([1, -1]))
        ty = _clamp(y + self.boss_rng.choice([1, -1]))
        return f"MOVE {uid} {tx} {ty}"


class Wood3Boss(WoodBoss):
    """``config/level1/Boss.py3``: random diagonal moves, and one level-1 unit at a time."""

    name = "wood3"

    def turn(self, lines: Sequence[str]) -> str:
        """Spec 18.2, Wood 3."""
        t = TurnInput.parse(lines)
        my_hq, _ = self.hqs(t)
        actions = ["WAIT"]
        count = 0
        for owner, uid, _level, x, y in t.units:
            if owner == 0:
                count += 1
                actions.append(self.diagonal(uid, x, y))
        if count == 0 and t.gold >= 10:
            sx, sy = (1, 0) if my_hq[0] == 0 else (my_hq[0] - 1, my_hq[1])
            actions.append(f"TRAIN 1 {sx} {sy}")
        return ";".join(actions)


class Wood2Boss(WoodBoss):
    """``config/level2/Boss.py3``: the first unit marches on the enemy HQ; level 2 when it can pay."""

    name = "wood2"

    def turn(self, lines: Sequence[str]) -> str:
        """Spec 18.2, Wood 2."""
        t = TurnInput.parse(lines)
        my_hq, enemy_hq = self.hqs(t)
        actions = ["WAIT"]
        first = True
        for owner, uid, _level, x, y in t.units:
            if owner != 0:
                continue
            if first:
                actions.append(f"MOVE {uid} {enemy_hq[0]} {enemy_hq[1]}")
                first = False
            else:
                actions.append(self.diagonal(uid, x, y))
        if t.gold >= 20 and t.income >= 4:
            sx, sy = (0, 1) if my_hq[1] == 0 else (my_hq[0], my_hq[1] - 1)
            actions.append(f"TRAIN 2 {sx} {sy}")
        elif t.gold >= 10:
            sx, sy = (1, 0) if my_hq[0] == 0 else (my_hq[0] - 1, my_hq[1])
            actions.append(f"TRAIN 1 {sx} {sy}")
        return ";".join(actions)


class Wood1Boss(WoodBoss):
    """``config/level3/Boss.py3``: random steps, one mine at a time, trains along a row scan."""

    name = "wood1"

    def turn(self, lines: Sequence[str]) -> str:
        """Spec 18.2, Wood 1."""
        t = TurnInput.parse(lines)
        rows = t.rows
        my_hq, _ = self.hqs(t)
        gold = t.gold
        occupied: list[tuple[int, int]] = [(x, y) for owner, _k, x, y in t.buildings if owner == 0]
        mine_units = []
        for owner, uid, _level, x, y in t.units:
            occupied.append((x, y))
            if owner == 0:
                mine_units.append((uid, x, y))
        actions = ["WAIT"]
        rng = self.boss_rng
        for uid, x, y in mine_units:
            if rng.randint(0, 1) == 1:
                tx, ty = x, _clamp(y + rng.choice([1, -1]))
            else:
                tx, ty = _clamp(x + rng.choice([1, -1])), y
            if rows[ty][tx] != "#" and (tx, ty) not in occupied:
                actions.append(f"MOVE {uid} {tx} {ty}")
                occupied.remove((x, y))
                occupied.append((tx, ty))
        if gold >= 20:
            for x, y in self.spots:
                if rows[y][x] == "O" and (x, y) not in occupied:
                    actions.append(f"BUILD MINE {x} {y}")
                    gold -= 20
                    self.spots.remove((x, y))
                    break
        if gold >= 10:
            if my_hq[0] == 0:
                spawn, reverse = (1, 0), True
            else:
                spawn, reverse = (my_hq[0] - 1, my_hq[1]), False
            if spawn not in occupied:
                actions.append(f"TRAIN 1 {spawn[0]} {spawn[1]}")
                occupied.append(spawn)
            ys = range(HEIGHT - 1, -1, -1) if reverse else range(HEIGHT)
            for y in ys:
                xs = range(WIDTH - 1, -1, -1) if reverse else range(WIDTH)
                for x in xs:
                    c = rows[y][x]
                    if c == "O" and (x, y) != my_hq and (x, y) not in occupied and gold >= 20:
                        actions.append(f"TRAIN 1 {x} {y}")
                        gold -= 10
                        occupied.append((x, y))
                    if c == "X" and _border(rows, x, y):
                        if (x, y) not in occupied:
                            actions.append(f"TRAIN 1 {x} {y}")
                            gold -= 10
                            occupied.append((x, y))
                        elif gold >= 20:
                            actions.append(f"TRAIN 2 {x} {y}")
                            gold -= 20
                            occupied.append((x, y))
                if gold < 10:
                    break
        return ";".join(actions)


def _border(rows: Sequence[str], x: int, y: int) -> bool:
    """The boss's ``is_my_border``: a 4-neighbour of (x, y) is an own active cell."""
    for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
        if 0 <= nx < WIDTH and 0 <= ny < HEIGHT and rows[ny][nx] == "O":
            return True
    return False


# -- the post-mortem bot and best -------------------------------------------------------------------


class PostMortemBot(CodinGameBot):
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

    def new_game(self) -> None:
        """Forget the map."""
        self.spots: list[int] = []
        self.info: MapInfo | None = None

    def start(self, lines: Sequence[str]) -> None:
        """Mine spots."""
        self.spots = parse_init(lines)

    def turn(self, lines: Sequence[str]) -> str:
        """Read the input, plan, and return the line."""
        t = TurnInput.parse(lines)
        board = board_from_input(t, self.spots, self.info, self.rules)
        self.info = board.info
        commands = self.plan(board)
        return ";".join(commands) if commands else "WAIT"

    def out_of_time(self, margin: float = 0.01) -> bool:
        """Whether the turn's deadline is less than ``margin`` seconds away (no deadline: never)."""
        return self.deadline is not None and self.now() > self.deadline - margin

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
        chains = chain_search(board, OPP, budget, all_units_act=True)  # one search for both questions
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
        counter = best_cut(board, ME, board.gold[ME], self.horizon)
        if counter is not None and counter.score > 0:
            return self._apply(counter, commands)
        return board

    def cut_value(self, plan: Plan) -> float:
        """A cut's worth (``best`` subtracts the opponent's best reply)."""
        return plan.score

    def cuts(self, board: Board, commands: list[str]) -> Board:
        """Our cuts, best first, while one is worth its gold."""
        for _ in range(self.cut_tries):
            plan = best_cut(board, ME, board.gold[ME], self.horizon, limit=self.cut_targets)
            if plan is None or plan.score <= 0:
                break
            if plan.score < WIN and self.cut_value(plan) <= 0:
                break
            board = self._apply(plan, commands)
            if board.won == ME or self.out_of_time():
                break
        return board

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
            uid = board.unit_id[src]
            target = best_cell if best_cell >= 0 else self.frontier_target(board, src)
            if target < 0:
                continue
            if board.move(src, target) >= 0:
                x, y = xy(target)
                commands.append(f"MOVE {uid} {x} {y}")
        return board

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


class BestBot(PostMortemBot):
    """``postmortem`` plus a banked finisher, a tower search against the enemy finisher, and replies."""

    name = "best"
    #: What a position in which the opponent could take our HQ in two turns is marked down by.
    hq_danger = 60.0
    #: ``model``: judge a variant after the opponent's reply as ``postmortem`` would play it;
    #: ``threat``: after the opponent's best cut alone.
    judge_mode = "model"
    model: PostMortemBot | None = None
    light_model: PostMortemBot | None = None
    #: How many of the last rollout pairs the light model plays (0: all by the full model). One:
    #: 178/200 against postmortem at 50 ms on the wall clock where the full model won 170/200.
    rollout_light = 1
    #: The modelled opponent looks at fewer chain targets for its defence (time).
    model_targets = 20
    #: The model without defence, towers and mines (cheaper, less exact).
    model_light = False
    #: Extra turn pairs (ours as the model would play, then the reply) before the judge looks: 2 since
    #: the searches got faster (wall clock, runs of 30-50 seeds x 2 seats against postmortem: 80-86 %,
    #: one pair 72-76 %).
    rollout = 2
    #: The judge's weights of gold in hand and of the cells a unit can still claim (per cell, up to 3).
    gold_weight = 0.6
    room_weight = 2.0
    #: How much of the opponent's best cut (its score over the horizon) the judge takes off.
    threat_weight = 1.0
    #: No new judgement once the deadline is this close (seconds), no new variant step once it is
    #: ``stop_margin + step_margin`` close, and every search stops ``hard_margin`` before it. At
    #: CodinGame's 50 ms the deadline a bot is given is 45 ms (core.clock.bot_margin), so a turn ends
    #: by about 27 ms: p99 27.3 ms on the wall clock over 100 games (docs/iceandfire.md).
    stop_margin = 0.020
    step_margin = 0.006
    hard_margin = 0.018
    #: Turns over which the judge counts an income lead (mines pay back over many turns).
    income_horizon = 15.0
    #: Count the cells the opponent's units can still claim against it.
    opp_room = False
    #: What a position from which our next turn's gold takes the enemy HQ is worth.
    finisher_bonus = 0.0
    bank_finisher = True
    reply_search = True
    defend_finisher = True

    #: Whole-turn variants: the steps each one runs, in order. Each is played on a copy of the
    #: board and judged after the opponent's best reply (:meth:`judge`); the best one is played.
    variants: tuple[tuple[str, ...], ...] = (
        ("stop", "defend", "cuts", "moves", "towers", "spawn", "mines"),
        ("stop", "cuts", "moves", "guard", "mines3"),
        ("stop", "cuts", "moves", "hqtower", "guard", "spawn"),
        ("stop", "fortify", "cuts", "moves", "guard", "spawn"),
        ("stop", "cuts", "moves"),
        ("stop", "cuts", "movesc", "guard", "spawnc"),
        ("stop", "defend", "moves", "hqtower", "spawn"),
        ("moves", "spawn", "mines"),
        ("stop", "moves", "guard", "spawn"),
        ("stop", "cuts", "moves", "guard", "spawn2"),
        ("stop", "defend", "movesc", "spawnc"),
    )

    def plan(self, board: Board) -> list[str]:
        """A finisher if there is one; else the variant that stands best against the reply.

        Time: no new variant step once the deadline is ``stop_margin + step_margin`` away, no new
        judgement once it is ``stop_margin`` away, and every search on the turn's boards stops at
        ``hard_margin`` before it (:class:`OutOfTime`): the work it interrupts is dropped, so a turn
        ends at a bounded time whatever a step or a judgement would have cost.
        """
        finish = finisher(board, ME, board.gold[ME])
        if finish is not None:
            return finish.commands
        if self.deadline is not None:
            hard, now = self.deadline - self.hard_margin, self.now
            board.abort = lambda: now() > hard
        # Variants share their first steps: each prefix is played once and kept (boards are copied).
        done: dict[tuple[str, ...], tuple[Board, list[str]]] = {(): (board, [])}
        played: dict[tuple[str, ...], tuple[int, Board]] = {}  # distinct turns: the first variant giving each
        self.chosen = -1
        commands: list[str] = []
        try:
            for index, steps in enumerate(self.variants):
                k = len(steps)
                while steps[:k] not in done:
                    k -= 1
                after, commands = done[steps[:k]]
                after, commands = after.copy(), list(commands)
                for j in range(k, len(steps)):
                    if played and self.out_of_time(self.stop_margin + self.step_margin):
                        break  # (the first variant runs on until the hard limit)
                    after = self.run_steps(after, steps[j : j + 1], commands)
                    done[steps[: j + 1]] = (after.copy(), list(commands))
                else:
                    played.setdefault(tuple(commands), (index, after))
                    continue
                break
        except OutOfTime:
            pass
        if not played:
            return commands  # even the first variant did not end in time: what it has so far
        # Judging a turn (the opponent's modelled reply) costs most: distinct turns only, in the
        # variants' order (the most useful first), while time remains.
        order = sorted(played.items(), key=lambda item: item[1][0])
        best: tuple[float, list[str]] | None = None
        for commands_key, (index, after) in order:
            if best is not None and self.out_of_time(self.stop_margin):
                break
            try:
                value = self.judge(board, after)
            except OutOfTime:
                break
            if best is None or value > best[0]:
                best = (value, list(commands_key))
                self.chosen = index
        if best is None:  # not one judgement in time: the first variant, unjudged
            commands_key, (index, _) = order[0]
            best = (0.0, list(commands_key))
            self.chosen = index
        return best[1]

    def run_steps(self, board: Board, steps: Sequence[str], commands: list[str]) -> Board:
        """Play the named steps on ``board``."""
        for step in steps:
            if board.won == ME:
                break
            if step == "stop":
                board = self.stop_finisher(board, commands)
            elif step == "fortify":
                board = self.stop_finisher(board, commands, turns=2)
            elif step == "defend":
                board = self.defend(board, commands)
            elif step == "cuts":
                board = self.cuts(board, commands)
            elif step == "moves":
                board = self.move_units(board, commands)
            elif step in ("movesc", "spawnc"):  # the compact style: fill in before reaching out
                usual, self.compact = self.compact, 1.0
                try:
                    if step == "movesc":
                        board = self.move_units(board, commands)
                    else:
                        board = self.spawn(board, commands)
                finally:
                    self.compact = usual
            elif step == "towers":
                board = self.towers(board, commands)
            elif step == "hqtower":
                board = self.hq_tower(board, commands)
            elif step == "guard":
                board = self.guard(board, commands)
            elif step == "spawn":
                board = self.spawn(board, commands)
            elif step == "spawn2":
                board = self.spawn(board, commands, limit=2)
            elif step == "mines":
                board = self.mines(board, commands)
            elif step == "mines3":
                for _ in range(3):
                    board = self.mines(board, commands, reserve=0)
        return board

    def modelled(self, light: bool = False) -> PostMortemBot:
        """The opponent model (``light``: without defence, towers and mines, fewer cuts; cheaper)."""
        if self.model is None:
            self.model = PostMortemBot()
            if self.model_light:
                self.model.light, self.model.cut_tries, self.model.cut_targets = True, 2, self.model_targets
        if not light:
            self.model.turns = self.turns
            return self.model
        if self.light_model is None:
            self.light_model = PostMortemBot()
            self.light_model.light, self.light_model.cut_tries = True, 2
            self.light_model.cut_targets = self.model_targets
        self.light_model.turns = self.turns
        return self.light_model

    def reply(self, after: Board, light: bool = False) -> Board:
        """The board at the start of our next turn if the opponent plays as ``postmortem`` would."""
        view = flipped(after)
        view.start_turn(ME)
        _, played = self.modelled(light).play_turn(view)
        back = flipped(played)
        if back.won is None:
            back.start_turn(ME)
        return back

    def judge(self, before: Board, after: Board) -> float:
        """The position after our turn (see :meth:`judge_threat`), or after the modelled reply."""
        if self.judge_mode == "threat" or after.won == ME:
            return self.judge_threat(before, after)
        back = self.reply(after)
        for k in range(self.rollout):
            # Look further: we play on as the model would, and the opponent answers again (the last
            # ``rollout_light`` pairs with the light model: errors far ahead weigh less).
            if back.won is not None:
                break
            light = k >= self.rollout - self.rollout_light
            _, ours = self.modelled(light).play_turn(back.copy())
            if ours.won == ME:
                back = ours
                break
            back = self.reply(ours, light)
        if back.won == ME:
            return WIN / 4
        if back.won == OPP:
            return -WIN / 2
        mine = territory(back, ME) - upkeep_of(back, ME)
        theirs = territory(back, OPP) - upkeep_of(back, OPP)
        lasting = min(self.income_horizon, max(self.horizon, 100 - self.turns))
        value = lasting * (mine - theirs) + self.gold_weight * (back.gold[ME] - back.gold[OPP])
        value += 0.5 * (units_value(back, ME) - units_value(back, OPP))
        for i in back.units(ME):
            if back.active[i]:
                value += self.room_weight * min(3, self.room(back, i))
        for i in back.units(OPP):
            if back.active[i]:
                value -= self.room_weight * min(3, self.room(back, i))
        budget = back.gold[OPP] + 2 * max(0, back.compute_income(OPP))
        if hq_chain_cost(back, OPP, budget) <= budget:
            value -= self.hq_danger
        return value

    def judge_threat(self, before: Board, after: Board) -> float:
        """The position after our turn, in gold: income lead over the horizon, units, gold, minus the
        opponent's best reply (its finisher counts as a lost game)."""
        if after.won == ME:
            return WIN
        mine = territory(after, ME) - upkeep_of(after, ME)
        theirs = territory(after, OPP) - upkeep_of(after, OPP)
        # An income lead lasts: the fewer turns remain, the less it is worth (spec 10: turn 100 ends it).
        lasting = min(self.income_horizon, max(self.horizon, 100 - self.turns))
        value = lasting * (mine - theirs) + 0.6 * after.gold[ME] - 0.5 * units_value(after, OPP)
        # A unit is worth half its price (military score, a wall) and the cells it can still claim.
        for i in after.units(ME):
            if after.active[i]:
                value += 0.5 * UNIT_COST[after.unit_level[i]] + 2.0 * min(3, self.room(after, i))
        if self.opp_room:
            for i in after.units(OPP):
                if after.active[i]:
                    value -= 2.0 * min(3, self.room(after, i))
        if self.finisher_bonus:
            budget = after.gold[ME] + max(0, after.compute_income(ME))
            if hq_chain_cost(after, ME, budget) <= budget:
                value += self.finisher_bonus
        threat = self.threat(after, self.judge_targets)
        if threat is not None:
            value -= WIN / 2 if threat.score >= WIN else self.threat_weight * max(0.0, threat.score)
        # Two turns ahead: could the opponent's savings take our HQ? Then the HQ needs walls now.
        income = max(0, after.compute_income(OPP))
        later = after.gold[OPP] + 2 * income
        if hq_chain_cost(after, OPP, later) <= later:
            value -= self.hq_danger
        return value

    def hq_tower(self, board: Board, commands: list[str]) -> Board:
        """A tower next to our HQ (it protects the HQ itself) once enemy territory is within reach."""
        hq = board.hq[ME]
        dist = board.info.dist
        near = min((dist[hq][i] for i in range(CELLS) if board.owner[i] == OPP), default=INF)
        if near > 6:
            return board
        if any(
            board.building[n] == TOWER and board.building_owner[n] == ME for n in board.info.neighbours[hq]
        ):
            return board
        for n in board.info.neighbours[hq]:
            if board.build(n, TOWER):
                x, y = xy(n)
                commands.append(f"BUILD TOWER {x} {y}")
                return board
        # No cell next to the HQ can hold a tower yet: claim one (a mine spot cannot).
        for n in board.info.neighbours[hq]:
            if board.owner[n] != ME and n not in board.info.spots and board.train(n, 1):
                x, y = xy(n)
                commands.append(f"TRAIN 1 {x} {y}")
                break
        return board

    def stop_finisher(self, board: Board, commands: list[str], turns: int = 1) -> Board:
        """If the opponent could take our HQ with ``turns`` turns of savings, the towers (or units)
        that make its chain dearest, up to three."""
        budget = board.gold[OPP] + turns * max(0, board.compute_income(OPP))
        if hq_chain_cost(board, OPP, budget) > budget:
            return board
        current = board
        for _ in range(3):
            best: tuple[int, Board, str] | None = None
            chains = chain_search(current, OPP, budget, all_units_act=True)
            path = chain_steps(chains, current, current.hq[ME])
            cells = {c for c, _, _ in path}
            candidates = {n for c in cells for n in (c, *current.info.neighbours[c])}
            for i in candidates:
                for kind in ("tower", "unit"):
                    b = current.copy()
                    if kind == "tower":
                        if not b.build(i, TOWER):
                            continue
                        x, y = xy(i)
                        text = f"BUILD TOWER {x} {y}"
                    else:
                        lv = 1 if b.owner[i] != OPP else b.min_level(i, ME)
                        if not lv or not b.train(i, lv):
                            continue
                        x, y = xy(i)
                        text = f"TRAIN {lv} {x} {y}"
                    cost = hq_chain_cost(b, OPP, budget + 100)
                    if best is None or cost > best[0]:
                        best = (cost, b, text)
            if best is None:
                return current
            commands.append(best[2])
            current = best[1]
            if best[0] > budget:
                return current
        return current

    def guard(self, board: Board, commands: list[str]) -> Board:
        """Towers where they take the most off the opponent's best cut, while that beats their price."""
        for _ in range(3):
            if board.gold[ME] < 15 or self.out_of_time(0.015):
                break
            threat = self.threat(board)
            if threat is None or threat.score < 15:
                break
            cells = set(threat.cells)
            candidates = {n for c in cells for n in (c, *board.info.neighbours[c])}
            candidates |= {n for c in list(candidates) for n in board.info.neighbours[c]}
            best: tuple[float, Board, str] | None = None
            for i in candidates:
                if not board.can_build(i, TOWER):
                    continue
                b = board.copy()
                b.build(i, TOWER)
                after = self.threat(b, stop_above=None if best is None else threat.score - best[0])
                gain = threat.score - (0.0 if after is None else after.score)
                if best is None or gain > best[0]:
                    x, y = xy(i)
                    best = (gain, b, f"BUILD TOWER {x} {y}")
            if best is None or best[0] < 20:
                break
            commands.append(best[2])
            board = best[1]
        return board

    def spawn_ok(self, board: Board, i: int) -> bool:
        """No spawn that leaves too little gold to stop a finisher of the opponent."""
        budget = self.opponent_budget(board)
        b = board.copy()
        b.train(i, 1)
        return hq_chain_cost(b, OPP, budget) > budget

    def cut_value(self, plan: Plan) -> float:
        """The cut's worth minus what the opponent's best reply takes back."""
        reply = self.threat(plan.board)
        return plan.score - (0.0 if reply is None else 0.5 * min(reply.score, WIN / 1000))

    def bank(self, board: Board) -> bool:
        """Keep the gold when a finisher is two turns of income away and nothing threatens us."""
        income = board.compute_income(ME)
        if income <= 0:
            return False
        need = hq_chain_cost(board, ME, board.gold[ME] + 2 * income)
        return need < INF and need > board.gold[ME]


def flipped(board: Board) -> Board:
    """The board from the opponent's side: players swapped, every unit free to act."""
    b = board.copy()
    swap = {ME: OPP, OPP: ME, NEUTRAL: NEUTRAL}
    b.owner = [swap[o] for o in board.owner]
    b.unit_owner = [swap[o] for o in board.unit_owner]
    b.building_owner = [swap[o] for o in board.building_owner]
    b.moved = [False] * CELLS
    b.changed()
    b.gold = [board.gold[OPP], board.gold[ME]]
    b.income = [board.income[OPP], board.income[ME]]
    b.hq = [board.hq[OPP], board.hq[ME]]
    b.red = not board.red
    b.won = None if board.won is None else swap[board.won]
    return b


def make_wood3_bot(game: Game[Any], seed: int | None = None) -> Wood3Boss:
    """Registry factory: the Wood 3 boss."""
    return Wood3Boss(seed)


def make_wood2_bot(game: Game[Any], seed: int | None = None) -> Wood2Boss:
    """Registry factory: the Wood 2 boss."""
    return Wood2Boss(seed)


def make_wood1_bot(game: Game[Any], seed: int | None = None) -> Wood1Boss:
    """Registry factory: the Wood 1 boss."""
    return Wood1Boss(seed)


def make_postmortem_bot(game: Game[Any], seed: int | None = None) -> PostMortemBot:
    """Registry factory: the second place's heuristics."""
    return PostMortemBot(seed)


def make_best_bot(game: Game[Any], seed: int | None = None) -> BestBot:
    """Registry factory: the strongest bot by measurement (docs/iceandfire.md)."""
    return BestBot(seed)


#: The bots that run standalone behind ``gridarena iceandfire bot NAME``.
STANDALONE: dict[str, type[CodinGameBot]] = {
    "wood3": Wood3Boss,
    "wood2": Wood2Boss,
    "wood1": Wood1Boss,
    "postmortem": PostMortemBot,
    "best": BestBot,
}
