"""The referee at work on one turn: mutable copies of a position, the checks
and effects of every command in the referee's order, the turn start and the end of the game.

:class:`Referee` reads a state (anything with the attributes of :class:`Position`, in practice an
:class:`~gridarena.games.iceandfire.rules.IceAndFireState`), plays on its own lists, and ``rules.py``
freezes what it leaves into the next state. Who may enter a cell, activity and income are the rules of
:class:`~gridarena.games.iceandfire.cells.Cells`, which the bots' board shares.
"""

from __future__ import annotations

import random
from typing import NamedTuple, Protocol

from gridarena.core.types import Player
from gridarena.games.iceandfire.cells import Cells
from gridarena.games.iceandfire.formats import (
    JAVA_INT_MAX,
    Build,
    Command,
    Ignored,
    Move,
    Msg,
    Train,
    Turn,
    Wait,
    java_trim,
    viewer_message,
)
from gridarena.games.iceandfire.geometry import (
    BLUE,
    CELLS,
    FULL_MASK,
    HQ,
    HQ_CELLS,
    MAX_TURNS,
    MINE,
    NO_BUILDING,
    PLAYER_NAMES,
    RED,
    SIZE,
    TOWER,
    TOWER_COST,
    UNIT_COST,
    Board,
    build_refused,
    cell_of,
    cells_mask,
    mask_indices,
    max_level,
    spread,
    xy,
)


class Unit(NamedTuple):
    """A unit: its id (shared counter from 1), owner, level 1-3, place and whether it may still move."""

    id: int
    owner: Player
    level: int
    x: int
    y: int
    can_act: bool

    @property
    def cell(self) -> int:
        """The cell index it stands on."""
        return self.y * SIZE + self.x


class Building(NamedTuple):
    """A building: owner, kind (HQ 0, MINE 1, TOWER 2) and place."""

    owner: Player
    kind: int
    x: int
    y: int

    @property
    def cell(self) -> int:
        """The cell index it stands on."""
        return self.y * SIZE + self.x


class Result(NamedTuple):
    """How the game ended: returns, the arena's termination, a sentence, the forfeiter and the
    referee's numeric scores (-1 for a loser by HQ or deactivation, military scores otherwise)."""

    returns: tuple[float, float]
    termination: str
    reason: str
    forfeit_player: Player | None
    scores: tuple[int, int]


class Position(Protocol):
    """What the referee reads of a state."""

    @property
    def board(self) -> Board: ...
    @property
    def rules(self) -> str: ...
    @property
    def league(self) -> str: ...
    @property
    def owner(self) -> bytes: ...
    @property
    def active(self) -> bytes: ...
    @property
    def units(self) -> tuple[Unit, ...]: ...
    @property
    def buildings(self) -> tuple[Building, ...]: ...
    @property
    def gold(self) -> tuple[int, int]: ...
    @property
    def income(self) -> tuple[int, int]: ...
    @property
    def turn(self) -> int: ...
    @property
    def player(self) -> Player: ...
    @property
    def next_id(self) -> int: ...
    @property
    def messages(self) -> tuple[str, str]: ...
    @property
    def result(self) -> Result | None: ...


class Referee(Cells):
    """The referee at work on one turn: mutable copies of a state's lists, the checks and effects of
    every command in the referee's order (rules.py freezes the result into the next state)."""

    def __init__(self, state: Position) -> None:
        self.layout = state.board
        self.rules = state.rules
        self.league = state.league
        self.max_level = max_level(state.league)
        self.hq = list(HQ_CELLS)
        self.orders = self.layout.ordered
        self.owner = bytearray(state.owner)
        self.active = bytearray(state.active)
        self.owned = [cells_mask(state.owner, RED), cells_mask(state.owner, BLUE)]
        active_mask = cells_mask(state.active, 1)
        self.act = [active_mask & self.owned[RED], active_mask & self.owned[BLUE]]
        self.units: dict[int, list[int]] = {u.id: [u.owner, u.level, u.cell, u.can_act] for u in state.units}
        self.unit_at: list[int] = [0] * CELLS
        self.unit_level = bytearray(CELLS)
        for u in state.units:
            self.unit_at[u.cell] = u.id
            self.unit_level[u.cell] = u.level
        self.buildings: list[list[int]] = [[b.owner, b.kind, b.cell] for b in state.buildings]
        self.building_at: list[list[int] | None] = [None] * CELLS
        self.building = [NO_BUILDING] * CELLS
        for b in self.buildings:
            self.building_at[b[2]] = b
            self.building[b[2]] = b[1]
        self.gold = list(state.gold)
        self.income = list(state.income)
        self.turn = state.turn
        self.player = state.player
        self.next_id = state.next_id
        self.messages = list(state.messages)
        self.log: list[str] = []
        self.result: Result | None = state.result
        self.taken = (0, RED)  # the cell the last MOVE or TRAIN took, and its owner before

    # -- territory and money -------------------------------------------------------------------

    def set_owner(self, cell: int, player: Player) -> None:
        """``cell`` becomes ``player``'s (its activity is recomputed after the command)."""
        self.taken = (cell, self.claim(cell, player))

    def compute_active(self, player: Player) -> None:
        """Activity: ``player``'s cells joined to its HQ cell by own cells are active (a flood
        from the HQ over bit masks, :func:`~gridarena.games.iceandfire.geometry.flood`)."""
        self.activate(player)
        self.show_activity()

    def update_activity(self) -> None:
        """The referee's "recompute active cells of both players" after a MOVE or TRAIN, by its effect.

        The mover's territory gained one cell, so its active set grows by what that cell joins; the
        opponent's changes only if the cell was the opponent's, and is flooded again only when the
        loss may cut it. The result equals two full recomputations (the tests check it after every
        command of random games); it is just cheaper.
        """
        cell, old_owner = self.taken
        player = self.owner[cell]
        self.join(cell, player)
        if old_owner == 1 - player:
            self.lose(cell, old_owner)
        self.show_activity()

    def update_incomes(self) -> None:
        self.income = [self.compute_income(RED), self.compute_income(BLUE)]

    def military_score(self, player: Player) -> int:
        return self.gold[player] + sum(UNIT_COST[u[1]] for u in self.units.values() if u[0] == player)

    # -- the turn ------------------------------------------------------------------------------

    def note(self, text: str) -> None:
        self.log.append(text)

    def skip(self, command: Command, why: str) -> None:
        self.note(f"{command.to_text()}: ignored, {why}")

    def parse_checks(self, turn: Turn) -> list[Command]:
        """The parse-time checks, all on the position before any command runs."""
        queue: list[Command] = []
        player = self.player
        for command in turn:
            if isinstance(command, Wait):
                continue
            if isinstance(command, Msg):
                self.messages[player] = viewer_message(java_trim("MSG " + command.text)[4:])
                continue
            if isinstance(command, Ignored):
                self.skip(command, command.reason)
                continue
            numbers = command[1:] if isinstance(command, Build) else command
            if any(n > JAVA_INT_MAX for n in numbers):
                self.skip(command, "a number is not a Java int")
                continue
            x, y = command.x, command.y
            if not (x < SIZE and y < SIZE) or self.layout.void[cell_of(x, y)]:
                self.skip(command, f"({x},{y}) is not a cell of the map")
                continue
            if isinstance(command, Train) and not 1 <= command.level <= self.max_level:
                self.skip(command, f"level {command.level} is not trainable in {self.league}")
                continue
            if isinstance(command, Move):
                unit = self.units.get(command.id)
                if unit is None:
                    self.skip(command, f"no unit {command.id} alive at the start of the turn")
                    continue
                if unit[0] != player:
                    self.skip(command, f"unit {command.id} is not {PLAYER_NAMES[player]}'s")
                    continue
            queue.append(command)
        return queue

    def play(self, turn: Turn) -> None:
        """The player to move plays ``turn``; then the next turn starts, or the game ends."""
        self.log = []
        if self.run(turn) and self.result is None:
            # The referee recomputes both incomes after every action; nothing reads them before the
            # next recomputation, so once after the last action leaves the same values.
            self.update_incomes()
        if self.result is None:
            self.next_turn()

    def run(self, commands: Turn) -> bool:
        """The commands of a turn in order, after the parse-time checks; True when one was carried out.

        Stops at a captured HQ (the game is then over). The turn itself does not end here.
        """
        changed = False
        for command in self.parse_checks(commands):
            if isinstance(command, Move):
                done = self.move(command)
            elif isinstance(command, Train):
                done = self.train(command)
            else:
                assert isinstance(command, Build)
                done = self.build(command)
            if done is not None:
                self.skip(command, done)
                continue
            changed = True
            if isinstance(command, Move | Train):
                self.update_activity()
                if self.check_hqs():
                    return True
        return changed

    def remove_unit(self, unit_id: int) -> None:
        """Unit ``unit_id`` leaves the board (killed, cut off or bankrupt)."""
        cell = self.units.pop(unit_id)[2]
        self.unit_at[cell] = 0
        self.unit_level[cell] = 0

    def clear(self, cell: int) -> None:
        """An enemy unit on ``cell`` dies; an enemy MINE or TOWER is destroyed; an HQ stays."""
        unit_id = self.unit_at[cell]
        if unit_id:
            self.remove_unit(unit_id)
        building = self.building_at[cell]
        if building is not None and building[1] != HQ:
            self.buildings.remove(building)
            self.building_at[cell] = None
            self.building[cell] = NO_BUILDING

    def check_train(self, command: Train) -> str | None:
        """TRAIN's checks: why the TRAIN would be skipped now, or None when it would be done."""
        player, level, cell = self.player, command.level, cell_of(command.x, command.y)
        if not self.playable(cell, player):
            return f"({command.x},{command.y}) is not playable"
        if level > self.max_level:
            return f"level {level} is above {self.max_level}"
        if self.gold[player] < UNIT_COST[level]:
            return f"not enough gold ({self.gold[player]} for {UNIT_COST[level]})"
        if not self.capturable(cell, player, level):
            return f"a level {level} unit cannot take ({command.x},{command.y})"
        return None

    def train(self, command: Train) -> str | None:
        """TRAIN; the reason it is skipped, or None when done."""
        problem = self.check_train(command)
        if problem is not None:
            return problem
        player, level, cell = self.player, command.level, cell_of(command.x, command.y)
        self.clear(cell)
        self.set_owner(cell, player)
        self.units[self.next_id] = [player, level, cell, False]
        self.unit_at[cell] = self.next_id
        self.unit_level[cell] = level
        self.next_id += 1
        self.gold[player] -= UNIT_COST[level]
        return None

    def check_move(self, command: Move) -> int | str:
        """MOVE's checks and path-finding step: why the MOVE would be skipped now, else the
        cell the unit would enter."""
        player = self.player
        _, level, source, can_act = self.units[command.id]
        target = cell_of(command.x, command.y)
        if not can_act:
            return f"unit {command.id} has already moved or was trained this turn"
        sx, sy = xy(source)
        if abs(sx - command.x) + abs(sy - command.y) == 1 and not self.capturable(target, player, level):
            return f"unit {command.id} cannot take ({command.x},{command.y})"
        best = self.path_step(source, target, player, level)
        if best < 0:
            return f"unit {command.id} has no free cell closer to ({command.x},{command.y})"
        return best

    def move(self, command: Move) -> str | None:
        """MOVE, with the path-finding step; the reason it is skipped, or None."""
        best = self.check_move(command)
        if isinstance(best, str):
            return best
        unit = self.units[command.id]
        _, level, source, _ = unit
        self.clear(best)
        self.unit_at[source] = 0
        self.unit_level[source] = 0
        self.unit_at[best] = command.id
        self.unit_level[best] = level
        unit[2], unit[3] = best, False
        self.set_owner(best, self.player)
        return None

    def check_build(self, command: Build) -> tuple[int, int] | str:
        """BUILD's checks: why the BUILD would be skipped now, else the building's kind and cost."""
        player, cell = self.player, cell_of(command.x, command.y)
        kind = MINE if command.kind == "MINE" else TOWER
        where = f"({command.x},{command.y})"
        if not self.playable(cell, player):
            return f"{where} is not playable"
        if build_refused(self.rules, self.league, kind):
            return f"no {command.kind} in {self.league}"
        if self.unit_at[cell] or self.building_at[cell] is not None:
            return f"{where} is not free"
        if self.owner[cell] != player:
            return f"{where} is not {PLAYER_NAMES[player]}'s"
        cost = self.mine_cost(player) if kind == MINE else TOWER_COST
        if self.gold[player] < cost:
            return f"not enough gold ({self.gold[player]} for {cost})"
        if kind == MINE and not self.layout.spot[cell]:
            return f"{where} is not a mine spot"
        if kind == TOWER and self.layout.spot[cell]:
            return f"{where} is a mine spot"
        return kind, cost

    def build(self, command: Build) -> str | None:
        """BUILD; the reason it is skipped, or None."""
        checked = self.check_build(command)
        if isinstance(checked, str):
            return checked
        (kind, cost), player, cell = checked, self.player, cell_of(command.x, command.y)
        building = [player, kind, cell]
        self.buildings.append(building)
        self.building_at[cell] = building
        self.building[cell] = kind
        self.gold[player] -= cost
        return None

    def valid_commands(self) -> list[Command]:
        """Every one-cell command the referee would carry out if the mover gave it next.

        Each MOVE of a unit that may still act to a 4-neighbour it can take (a MOVE towards a farther
        target steps onto one of these, so they reach every effect a MOVE can have), each TRAIN on a
        playable cell at a level the mover can pay and that can take the cell, each BUILD the mover
        can pay on a free own cell that allows it; TRAINs and BUILDs by cell, then MOVEs by unit id.
        On a position inside a turn (``IceAndFireState.after_commands``) it answers for the turn's
        next command. Candidates are pruned where a check surely fails (TRAIN only where it may act,
        BUILD only on own cells); every candidate left is decided by the command's own checks.
        """
        player = self.player
        found: list[Command] = []
        reach = (self.act[player] | spread(self.act[player])) & ~cells_mask(self.layout.void, 1)
        for cell in mask_indices(reach):
            x, y = xy(cell)
            for level in range(1, self.max_level + 1):
                train = Train(level, x, y)
                if self.check_train(train) is None:
                    found.append(train)
            if self.owner[cell] == player:
                for kind in ("MINE", "TOWER"):
                    build = Build(kind, x, y)
                    if not isinstance(self.check_build(build), str):
                        found.append(build)
        for uid, (owner, _, cell, can_act) in sorted(self.units.items()):
            if owner == player and can_act:
                for n in self.layout.neighbours[cell]:
                    move = Move(uid, n % SIZE, n // SIZE)
                    if not isinstance(self.check_move(move), str):
                        found.append(move)
        return found

    def check_hqs(self) -> bool:
        """An HQ whose cell now has another owner: its owner loses at once (True if the game ended)."""
        for o, kind, cell in self.buildings:
            if kind == HQ and self.owner[cell] != o:
                self.update_incomes()
                scores = [self.military_score(RED), self.military_score(BLUE)]
                scores[o] = -1
                returns = (-1.0, 1.0) if o == RED else (1.0, -1.0)
                reason = f"{PLAYER_NAMES[1 - o]} captured {PLAYER_NAMES[o]}'s HQ on turn {self.turn}"
                self.result = Result(returns, "normal", reason, None, (scores[0], scores[1]))
                self.note(reason)
                return True
        return False

    def next_turn(self) -> None:
        """The next player's turn start, or the end by score after turn 100."""
        player = 1 - self.player
        self.player = player
        if player == RED:
            self.turn += 1
            if self.turn > MAX_TURNS:
                self.end_by_score()
                return
        self.compute_active(player)
        lost = [uid for uid, u in self.units.items() if u[0] == player and not self.active[u[2]]]
        for uid in lost:
            self.remove_unit(uid)
        if lost:
            self.note(f"{PLAYER_NAMES[player]} loses units {', '.join(map(str, lost))} cut off from its HQ")
        self.update_incomes()
        self.gold[player] += self.income[player]
        if self.gold[player] < 0:
            self.gold[player] = 0
            wiped = [uid for uid, u in self.units.items() if u[0] == player]
            for uid in wiped:
                self.remove_unit(uid)
            self.note(
                f"{PLAYER_NAMES[player]} cannot pay its upkeep: gold 0 and all {len(wiped)} units removed"
            )
        for u in self.units.values():
            if u[0] == player:
                u[3] = True
        self.messages[player] = ""

    def end_by_score(self) -> None:
        """The end after turn 100 (the statement's "Victory Conditions"): gold plus the cost of the units
        alive; the higher wins, equal is a draw."""
        scores = (self.military_score(RED), self.military_score(BLUE))
        if scores[0] == scores[1]:
            returns, reason = (0.0, 0.0), f"turn limit: a draw at {scores[0]} each"
        else:
            winner = 0 if scores[0] > scores[1] else 1
            returns = (1.0, -1.0) if winner == 0 else (-1.0, 1.0)
            reason = f"turn limit: {PLAYER_NAMES[winner]} wins on military score {scores[0]} to {scores[1]}"
        self.result = Result(returns, "normal", reason, None, scores)
        self.note(reason)

    def units_frozen(self) -> tuple[Unit, ...]:
        """The units as the state keeps them, by id."""
        return tuple(
            Unit(uid, o, level, cell % SIZE, cell // SIZE, bool(can_act))
            for uid, (o, level, cell, can_act) in sorted(self.units.items())
        )

    def buildings_frozen(self) -> tuple[Building, ...]:
        """The buildings as the state keeps them, in the referee's list order."""
        return tuple(Building(o, kind, cell % SIZE, cell // SIZE) for o, kind, cell in self.buildings)


def random_turn(state: Position, rng: random.Random) -> Turn:
    """A random turn whose commands all pass the referee's checks when played in order.

    Each unit that may move steps, with probability 3/4, to a random capturable neighbour; then up to
    three TRAINs on random playable cells at an affordable random level (level 1 most of the time);
    then, one turn in five, a TOWER or MINE on a random own free cell. Every command is run on a
    private referee first, so chains and spent gold are taken into account.

    For speed the private referee recomputes only the mover's activity, and only before and during
    the trains. Stale flags are safe here: during its own turn a player's territory only grows and the
    opponent's only shrinks, so a stale check refuses more than the referee would, never less, and a
    one-cell MOVE ends on its target whenever it is accepted.
    """
    referee = Referee(state)
    player = state.player
    commands: list[Command] = []

    def attempt(command: Move | Train | Build, action: str | None) -> None:
        if action is None:
            commands.append(command)
            if isinstance(command, Train):
                referee.compute_active(player)

    for unit in state.units:
        if unit.owner != player or rng.random() < 0.25:
            continue
        options = [n for n in state.board.neighbours[unit.cell] if referee.capturable(n, player, unit.level)]
        if options:
            x, y = xy(rng.choice(options))
            command = Move(unit.id, x, y)
            attempt(command, referee.move(command))
    land = FULL_MASK & ~cells_mask(state.board.void, 1)
    referee.compute_active(player)
    for _ in range(rng.randrange(4)):
        frontier = spread(referee.act[player]) & land & ~referee.owned[player]
        if not frontier or referee.gold[player] < UNIT_COST[1]:
            break
        level = 1 if rng.random() < 0.8 else rng.randint(1, referee.max_level)
        x, y = xy(rng.choice(mask_indices(frontier)))
        train = Train(level, x, y)
        attempt(train, referee.train(train))
    if rng.random() < 0.2 and state.league not in ("wood3", "wood2"):
        x, y = xy(rng.choice(mask_indices(referee.act[player])))
        build = Build(rng.choice(("MINE", "TOWER")), x, y)
        attempt(build, referee.build(build))
    return tuple(commands) if commands else (Wait(),)
