"""``climber``: a sparring bot that searches its own turn by random-restart hill climbing.

A style apart from the heuristic bots: no priorities, no opponent model, only a static judgement of
the position after the turn. A turn is an ordered list of atomic commands drawn from a candidate
pool (each unit's MOVE to a neighbour it may enter, a TRAIN at the lowest level on each cell next
to the active territory, a TOWER on each own free cell next to the enemy's land); it is played on
a copy of the board, skipping what no longer applies. From a random start the climber tries one
change at a time (add a command, drop one, swap two) and keeps it when the judgement improves;
when ``patience`` changes in a row fail it restarts from another random turn. It stops after
``iterations`` judgements or at the turn's deadline, and plays the best turn seen (the finisher,
when the gold takes the enemy HQ, before anything).

The judgement, in gold: the income lead over ``horizon`` turns, gold, units, minus the opponent's
best cut next turn (its finisher is a lost game).
"""

from __future__ import annotations

import random

from gridarena.games.iceandfire.ai.board import ME, OPP, Board, BoardBot
from gridarena.games.iceandfire.ai.tactics import WIN, best_cut, finisher, territory, units_value, upkeep_of
from gridarena.games.iceandfire.geometry import CELLS, TOWER, xy

Step = tuple[str, int, int]
"""One atomic command: ``("move", from, to)``, ``("train", cell, level)`` or ``("tower", cell, 0)``."""


class ClimberBot(BoardBot):
    """Random-restart hill climbing over the commands of one turn (see the module docstring)."""

    name = "climber"
    iterations = 120
    patience = 12
    horizon = 5.0
    margin = 0.012

    def new_game(self) -> None:
        """Forget the map; the search's generator follows the bot's seed."""
        super().new_game()
        self.search_rng = random.Random(self.rng.getrandbits(32))

    def plan(self, board: Board) -> list[str]:
        """The finisher, else the best turn the climb found."""
        finish = finisher(board, ME, board.gold[ME])
        if finish is not None:
            return finish.commands
        pool = self.candidates(board)
        if not pool:
            return []
        rng = self.search_rng
        best_steps: list[Step] = []
        best_value = self.judge(board, best_steps)[0]
        current, current_value, failures = list(best_steps), best_value, 0
        for _ in range(self.iterations):
            if self.out_of_time(self.margin):
                break
            if failures >= self.patience:
                current = rng.sample(pool, min(len(pool), rng.randint(1, 6)))
                current_value, failures = self.judge(board, current)[0], 0
            trial = self.mutate(current, pool, rng)
            value = self.judge(board, trial)[0]
            if value > current_value:
                current, current_value, failures = trial, value, 0
            else:
                failures += 1
            if current_value > best_value:
                best_steps, best_value = list(current), current_value
        return self.judge(board, best_steps)[1]

    @staticmethod
    def mutate(steps: list[Step], pool: list[Step], rng: random.Random) -> list[Step]:
        """One change: add a command from the pool, drop one, or swap two."""
        trial = list(steps)
        kind = rng.random()
        if kind < 0.5 or len(trial) < 2:
            trial.insert(rng.randint(0, len(trial)), rng.choice(pool))
        elif kind < 0.8:
            trial.pop(rng.randrange(len(trial)))
        else:
            a, b = rng.sample(range(len(trial)), 2)
            trial[a], trial[b] = trial[b], trial[a]
        return trial

    @staticmethod
    def candidates(board: Board) -> list[Step]:
        """Every atomic command that may apply this turn."""
        pool: list[Step] = []
        for src in board.units(ME):
            if board.moved[src]:
                continue
            pool += [("move", src, n) for n in board.info.neighbours[src] if board.step(src, n) == n]
        for i in range(CELLS):
            if board.info.void[i]:
                continue
            if not (board.owner[i] == ME and board.active[i]) and board.playable(i, ME):
                level = board.min_level(i, ME)
                if level and board.can_train(i, level):
                    pool.append(("train", i, level))
            elif board.can_build(i, TOWER) and any(board.owner[n] == OPP for n in board.info.neighbours[i]):
                pool.append(("tower", i, 0))
        return pool

    def judge(self, board: Board, steps: list[Step]) -> tuple[float, list[str]]:
        """Play ``steps`` on a copy of ``board`` (skipping what no longer applies): its value and commands."""
        after = board.copy()
        commands: list[str] = []
        for kind, a, b in steps:
            if kind == "move":
                uid = after.unit_id[a]
                if after.unit_level[a] and after.unit_owner[a] == ME and after.move(a, b) == b:
                    commands.append(f"MOVE {uid} {xy(b)[0]} {xy(b)[1]}")
            elif kind == "train" and after.train(a, b):
                commands.append(f"TRAIN {b} {xy(a)[0]} {xy(a)[1]}")
            elif kind == "tower" and after.build(a, TOWER):
                commands.append(f"BUILD TOWER {xy(a)[0]} {xy(a)[1]}")
            if after.won == ME:
                return float(WIN), commands
        mine = territory(after, ME) - upkeep_of(after, ME)
        theirs = territory(after, OPP) - upkeep_of(after, OPP)
        value = self.horizon * (mine - theirs) + 0.6 * after.gold[ME]
        value += 0.5 * (units_value(after, ME) - units_value(after, OPP))
        budget = after.gold[OPP] + max(0, after.compute_income(OPP))
        threat = best_cut(after, OPP, budget, self.horizon, limit=12, all_units_act=True)
        if threat is not None:
            value -= WIN / 2 if threat.score >= WIN else max(0.0, threat.score)
        return value, commands
