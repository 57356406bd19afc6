"""``best``: ``postmortem``'s turn, varied, and judged against the opponent's modelled replies.

Of several whole-turn variants (the post-mortem's turn, our own raid, mines, an HQ tower, towers
that most lower the opponent's best cut, a compact expansion, banking, a tower/unit search against
the opponent's finisher...), it plays the one whose position is best after the opponent's reply and
two more turn pairs, the reply played by each of its opponent models (the post-mortem heuristics;
the rusher of ``ai/pusher.py`` when the opponent plays like one or its army nears our HQ), the
judgements mixed by how well each model has predicted the opponent's turns so far
(docs/iceandfire.md). Every variant
ends with blocks against the opponent's raid (:meth:`BestBot.block_raids`). Until the two
sides are within three cells it plays the planned opening of ``ai/opening.py`` (as red as it is, as
blue judged first among the variants).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace

from gridarena.core.errors import SpecError
from gridarena.games.iceandfire.ai.board import ME, OPP, Board
from gridarena.games.iceandfire.ai.defence import hq_guard, hq_tower, stop_finisher
from gridarena.games.iceandfire.ai.front import on_front, wall
from gridarena.games.iceandfire.ai.judge import MODELS, SEARCHED, Judge
from gridarena.games.iceandfire.ai.opening import contact, expand
from gridarena.games.iceandfire.ai.raid import raid, raid_loss, replay_raid, unit_mask
from gridarena.games.iceandfire.ai.tactics import INF, WIN, Plan, finisher, hq_chain_cost, hq_reach
from gridarena.games.iceandfire.geometry import TOWER, xy
from gridarena.search.errors import SearchAborted

#: The names of :attr:`BestBot.SETTINGS`, the knobs of ``best(...)``.
_SETTINGS = (
    "judge_mode opponent_models model_floor model_threshold fit_decay other_rollout "
    "reach_weight hq_defence race rollout rollout_light model_light interleave reserve opening "
    "opening_contact race_weight worst_models worst_share room_weight gold_weight compact "
    "closer unit_weight hq_tower_range hq_danger stop_margin step_margin hard_margin "
    "replies reply_share reply_cuts exposure_weight exposure_later joins front opening_border opening_gain "
    "antiraid raid_units raid_penalty cells_leaf strike raid_cuts"
)


class BestBot(Judge):
    """``postmortem`` plus a banked finisher, a tower search against the enemy finisher, and replies."""

    name = "best"
    bank_finisher = True
    reply_search = True
    defend_finisher = True
    #: The last turn's distinct variant turns and how many of them were judged (for the benchmarks).
    distinct = 0
    judged = 0
    #: When a list, each turn appends the list of its judged variants, (the turn's commands, the
    #: judge's value) in the order judged (``benchmarks/iceandfire_oracle.py``); None: not kept.
    variant_log: list[list[tuple[list[str], float]]] | None = None
    #: When set, a draw added to each judged value before the choice: a continuation that plays as
    #: ``best`` but breaks its close calls at random (``benchmarks/iceandfire_oracle.py --noise``).
    judge_noise: Callable[[], float] | None = None

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

    #: Variants against an army that could reach our HQ within two turns (see :meth:`variants_for`).
    hq_variants: tuple[tuple[str, ...], ...] = (
        ("stop", "hqguard", "cuts", "moves", "spawn"),
        ("hqguard", "moves", "guard", "spawn2"),
    )
    #: Play ``hq_variants``: first of all when the HQ is in danger, after the others otherwise.
    hq_defence = False
    #: Variants that hold the front (``ai/front.py``): border units stay unless they attack, and
    #: level-1 units wall the border cells whose loss would cut most; with ``front``, judged second.
    front_variants: tuple[tuple[str, ...], ...] = (
        ("stop", "defend", "cuts", "movesh", "guard", "wall", "spawn"),
        ("stop", "cuts", "movesh", "wall", "spawn"),
    )
    front = False
    #: Variants that race the opponent to its HQ, in the rusher's style (judged like the others).
    race_variants: tuple[tuple[str, ...], ...] = (("stop", "cuts", "push"),)
    race = False
    #: Judge each variant as soon as it is played (False: play them all, then judge them in order).
    #: When time is short, variants played and never judged were time lost: against the third
    #: perturbed ``postmortem`` the first variant was often played unjudged (docs/iceandfire.md).
    interleave = True
    #: Gold kept back from spawning once the territories touch (``postmortem``'s 0): what the next
    #: turn can spend on blocking a cut or striking back (docs/iceandfire.md, the sparring pool). 20
    #: since our own raid (``strike``), game by game against 10 over ``turpif``, ``roout``,
    #: ``morozec`` and ``postmortem`` (fresh seeds 15801-16100, 1,200 pairs): +9 Elo [+4, +14], SPRT
    #: [0, 10] nElo H1; against ``morozec`` 423 of 600 where 10 won 391; 0 lost (-15).
    reserve = 20
    #: While a ``movesh`` step runs: units on the front hold it (:meth:`stays`).
    holding = False
    #: The planned opening (``ai/opening.py``) while the two sides are more than ``opening_contact``
    #: cells apart: 0 off, 1 its turn judged first among the variants, 2 its turn played unjudged,
    #: 3 played unjudged as red (which moves first) and judged first as blue.
    #: Against the public Java bot as red on seeds 1001-1130: 105 of 130 games with 2 (and 3), 90
    #: with 1, 85 with 0; as blue 2 lost 16 of 30 where 1 lost 2 (docs/iceandfire.md).
    opening = 3
    opening_contact = 3
    #: What the opening's race counts off per side of our border (0: the race alone; a thin land has
    #: a long border).
    opening_border = 0.0
    #: The opening trains a unit while it gains at least this much of the race.
    opening_gain = 1.5
    #: A tower next to our HQ before anything else once enemy land is this near it (0: only as a variant).
    hq_tower_range = 0
    #: Points the judge takes off per cell of our land the opponent's gold can cut off next turn
    #: (``ai/threats.py``); off. At 3 it gained over ``turpif`` and ``postmortem`` (seeds 1-300 and
    #: 326-475, both seats: +4 Elo [+1, +8] game by game, SPRT [0, 30] nElo H1), but the SPRT over the
    #: whole pool on fresh seeds 601-700 decided H0: +0 Elo [-3, +3], against ``roout`` -14 [-32, +5]
    #: (docs/iceandfire.md). A change is accepted only by the whole pool.
    exposure_weight = 0.0
    #: Blocks against the opponent's raid at the end of every judged variant (:meth:`block_raids`; 0:
    #: none). Against ``morozec``, whose turns are raids, on fresh seeds 1001-1300 (both seats, 600
    #: games each): 407 won where 0 won 375, +27 and +10 Elo game by game on the two halves; the SPRT
    #: [0, 10] over ``turpif``, ``roout``, ``morozec`` and ``postmortem``: H1 after 1,100 pairs, +9 Elo
    #: [+4, +15] (docs/iceandfire.md).
    antiraid = 6
    #: The raid the blocks answer counts each of our units it darkens this much more than a cell, as
    #: ``morozec`` counts the units its trains kill (0: cells only, the default; measured, not kept).
    raid_units = 0
    opening_variant: tuple[str, ...] = ("stop", "cuts", "open", "mines")
    #: When above 0, a variant that opens with our own raid (:func:`raid` for us: our units that may
    #: act step in, then the chain of trains that darkens most of the opponent's active land) when it
    #: darkens at least this many cells, judged second (0: off). Our cuts step's chain Dijkstra misses
    #: the lines that only a unit's step opens. Game by game against ``best`` without it over
    #: ``turpif``, ``roout``, ``morozec`` and ``postmortem`` (fresh seeds 14001-14200 and
    #: 14801-15000, 1,600 pairs): +13 Elo [+9, +18], SPRT [0, 10] nElo H1, a gain against each; against
    #: ``morozec`` 528 of 800 where it won 472 (docs/iceandfire.md).
    strike = 4
    strike_variant: tuple[str, ...] = ("stop", "strike", "cuts", "moves", "guard", "spawn")
    #: Our cuts step takes our raid instead of the chain Dijkstra's best cut when it scores more (off:
    #: +12 Elo [+5, +19] over the pool alone, SPRT H1, but nothing on top of ``strike``).
    raid_cuts = False

    def variants_for(self, board: Board) -> tuple[tuple[str, ...], ...]:
        """The variants of this turn, in the order they are played and judged: ``hq_variants`` first
        when the opponent's army could take our HQ within two turns (:func:`hq_reach`), since under
        time pressure only the first ones are judged."""
        variants = (*self.variants, *self.race_variants) if self.race else self.variants
        if self.front:
            variants = (variants[0], *self.front_variants, *variants[1:])
        if self.strike:
            variants = (variants[0], self.strike_variant, *variants[1:])
        if self.antiraid:
            variants = tuple((*v, "antiraid") for v in variants)
        if self.opening and contact(board) > self.opening_contact:
            variants = (self.opening_variant, *variants)
        if not self.hq_defence:
            return variants
        budget = board.gold[OPP] + 2 * max(0, board.compute_income(OPP))
        if hq_reach(board, OPP, 2) <= budget:
            return (*self.hq_variants, *variants)
        return (*variants, *self.hq_variants)

    def plan(self, board: Board) -> list[str]:
        """:meth:`plan_turn`, after a tower next to our HQ once the enemy is within ``hq_tower_range``."""
        if self.variant_log is not None:
            self.variant_log.append([])
        if not self.hq_tower_range or finisher(board, ME, board.gold[ME]) is not None:
            return self.plan_turn(board)
        first: list[str] = []
        board = hq_tower(board, first, self.hq_tower_range)
        turn = self.plan_turn(board)
        if first and self.variant_log is not None:  # each variant's turn begins with the tower
            self.variant_log[-1] = [(first + commands, value) for commands, value in self.variant_log[-1]]
        return first + turn

    def plan_turn(self, board: Board) -> list[str]:
        """A finisher if there is one; else the variant that stands best against the reply.

        Time: no new variant step once the deadline is ``stop_margin + step_margin`` away, no new
        judgement once it is ``stop_margin`` away, and every search on the turn's boards stops at
        ``hard_margin`` before it (:class:`~gridarena.search.errors.SearchAborted`): the work it interrupts is dropped, so a turn
        ends at a bounded time whatever a step or a judgement would have cost.
        """
        self.observe(board)
        finish = finisher(board, ME, board.gold[ME])
        if finish is not None:
            return finish.commands
        if (self.opening == 2 or (self.opening == 3 and board.red)) and contact(board) > self.opening_contact:
            commands: list[str] = []
            self.run_steps(board, self.opening_variant, commands)
            return commands
        deadline = self.control.deadline
        if deadline is not None:
            board.stop = replace(self.control, deadline=deadline - self.hard_margin)
        try:
            self.weights = self.judged_models(board)
        except SearchAborted:  # no time to weigh the danger: the post-mortem model alone
            self.weights = {"postmortem": 1.0}
        self.chosen, self.judged, self.distinct = -1, 0, 0
        partial: list[str] = []
        variants: Iterator[tuple[int, list[str], Board]] = self.distinct_variants(board, partial)
        if not self.interleave:
            variants = iter(list(variants))
        best: tuple[float, list[str], Board, dict[str, bytearray]] | None = None
        first: tuple[int, list[str], Board] | None = None
        # Judging a turn (the opponent's modelled reply) costs most: distinct turns only, in the
        # variants' order (the most useful first), while time remains.
        for index, commands, after in variants:
            first = first or (index, commands, after)
            if best is not None and self.out_of_time(self.stop_margin):
                break
            self.predicted = {}
            try:
                value = self.judge(board, after)
            except SearchAborted:
                break
            self.judged += 1
            if self.judge_noise is not None:
                value += self.judge_noise()
            if self.variant_log is not None:
                self.variant_log[-1].append((list(commands), value))
            if best is None or value > best[0]:
                best = (value, commands, after, self.predicted)
                self.chosen = index
        if first is None:
            return partial  # even the first variant did not end in time: what it has so far
        if best is None:  # not one judgement in time: the first variant, unjudged
            index, commands, after = first
            best = (0.0, commands, after, {})
            self.chosen = index
        self.last_after, self.last_predicted = best[2].owner, best[3]
        self.foresee(best[2])
        return best[1]

    def distinct_variants(self, board: Board, partial: list[str]) -> Iterator[tuple[int, list[str], Board]]:
        """Each variant's turn that differs from the earlier ones: its index, commands and board.

        Variants share their first steps: each prefix is played once and kept (boards are copied). No
        new step once the deadline is ``stop_margin + step_margin`` away, except in the first variant,
        which runs on until the hard limit; if even that one does not end, ``partial`` gets what it
        has so far."""
        done: dict[tuple[str, ...], tuple[Board, list[str]]] = {(): (board, [])}
        seen: set[tuple[str, ...]] = set()
        commands: list[str] = []
        try:
            for index, steps in enumerate(self.variants_for(board)):
                k = len(steps)
                while steps[:k] not in done:
                    k -= 1
                after, commands = done[steps[:k]]
                after, commands = after.copy(), list(commands)
                for j in range(k, len(steps)):
                    if seen and self.out_of_time(self.stop_margin + self.step_margin):
                        return
                    after = self.run_steps(after, steps[j : j + 1], commands)
                    done[steps[: j + 1]] = (after.copy(), list(commands))
                if tuple(commands) not in seen:
                    seen.add(tuple(commands))
                    self.distinct += 1
                    yield index, commands, after
        except SearchAborted:
            if not seen:
                partial.extend(commands)

    #: The knobs :meth:`configure` may set (the registry's ``best(...)`` settings).
    SETTINGS = tuple(_SETTINGS.split())

    def configure(self, key: str, value: object) -> None:
        """Set one of :data:`SETTINGS` (``opponent_models`` from ``"postmortem+pusher"``); a
        :class:`~gridarena.core.errors.SpecError` names an unknown one."""
        if key not in self.SETTINGS:
            raise SpecError(f"iceandfire best: unknown setting {key!r}; known: {', '.join(self.SETTINGS)}")
        if key == "judge_mode" and value not in ("model", "threat"):
            raise SpecError(f"iceandfire best: judge_mode is model or threat, got {value!r}")
        if key in ("opponent_models", "worst_models", "replies"):
            known = (*MODELS, *SEARCHED) if key == "replies" else MODELS
            models = tuple(m for m in str(value).split("+") if m)
            unknown = [m for m in models if m not in known]
            if unknown or not (models or key != "opponent_models"):
                raise SpecError(f"iceandfire best: {key} are among {', '.join(known)}, got {value!r}")
            setattr(self, key, models)
        elif isinstance(getattr(self, key), bool):
            setattr(self, key, value in (True, 1, "1", "true", "yes"))
        else:
            setattr(self, key, type(getattr(self, key))(value))

    def run_steps(self, board: Board, steps: Sequence[str], commands: list[str]) -> Board:
        """Play the named steps on ``board``."""
        for step in steps:
            if board.won == ME:
                break
            if step == "stop":
                board = stop_finisher(board, commands)
            elif step == "fortify":
                board = stop_finisher(board, commands, turns=2)
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
            elif step == "movesh":  # units on the front hold it unless they attack
                self.holding = True
                try:
                    board = self.move_units(board, commands)
                finally:
                    self.holding = False
            elif step == "antiraid":
                board = self.block_raids(board, commands)
            elif step == "strike":
                board = self.our_raid(board, commands)
            elif step == "wall":
                board = wall(board, commands)
            elif step == "towers":
                board = self.towers(board, commands)
            elif step == "hqtower":
                board = hq_tower(board, commands)
            elif step == "guard":
                board = self.guard(board, commands)
            elif step == "hqguard":
                board = hq_guard(board, commands)
            elif step == "push":  # the rusher's style: units and trains towards the enemy HQ
                pusher = self.opponent("pusher")
                pusher.advance(board, commands)
                if not pusher.bank(board):
                    pusher.train_forward(board, commands)
            elif step == "open":
                board = expand(board, commands, min_gain=self.opening_gain, border_weight=self.opening_border)
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

    def own_raid(self, board: Board) -> Plan | None:
        """Our raid with our gold (:func:`raid` for us; None without the gold of one unit)."""
        return raid(board, ME, board.gold[ME], self.horizon) if board.gold[ME] >= 10 else None

    def our_raid(self, board: Board, commands: list[str]) -> Board:
        """The ``strike`` step: our own raid, played when it darkens ``strike`` cells or more."""
        plan = self.own_raid(board)
        if plan is None or raid_loss(board, plan, ME) < self.strike:
            return board
        return self._apply(plan, commands)

    def next_cut(self, board: Board) -> Plan | None:
        """Our best cut (the chain Dijkstra's); with ``raid_cuts``, our raid when it scores more."""
        plan = super().next_cut(board)
        ours = self.own_raid(board) if self.raid_cuts else None
        if ours is not None and (plan is None or ours.score > plan.score):
            return ours
        return plan

    def block_raids(self, board: Board, commands: list[str]) -> Board:
        """The ``antiraid`` step, at the end of every variant: up to ``antiraid`` blocks against the
        opponent's raid next turn (:func:`~gridarena.games.iceandfire.ai.raid.raid`: its units step
        in, then its chain of trains that darkens most of our land), while the raid darkens 6 cells
        or more. Each block is a level-1 unit on one of the raid's cells or a tower on or next to
        them, whichever leaves the least of that raid replayed on the board after it
        (:func:`~gridarena.games.iceandfire.ai.raid.replay_raid`), the cheaper of equal ones; it
        is placed only when it saves 4 cells or more. Then the next raid is searched. With
        ``raid_units``, each of our units the raid darkens counts that much more than a cell, in the
        raid's search and in these counts alike."""
        w = self.raid_units
        for _ in range(self.antiraid):
            if board.gold[ME] < 10 or self.out_of_time(self.stop_margin + self.step_margin):
                break
            budget = self.opponent_budget(board)
            plan = raid(board, OPP, budget, self.horizon, all_units_act=True, weight=w)
            if plan is None:
                break
            lost = raid_loss(board, plan, OPP, unit_mask(board, ME) if w else 0, w)
            if lost < 6:
                break
            cells = set(plan.cells)
            near = cells | {n for c in cells for n in board.info.neighbours[c]}
            best: tuple[int, int, Board, str] | None = None
            for i in sorted(near):
                for train, price, line in ((True, 10, "TRAIN 1 {} {}"), (False, 15, "BUILD TOWER {} {}")):
                    if train:
                        if i not in cells or board.owner[i] == OPP or not board.can_train(i, 1):
                            continue
                    elif not board.can_build(i, TOWER):
                        continue
                    b = board.copy()
                    if train:
                        b.train(i, 1)
                    else:
                        b.build(i, TOWER)
                    key = (lost - replay_raid(b, OPP, budget, plan.steps, w), -price)
                    if best is None or key > best[:2]:
                        x, y = xy(i)
                        best = (key[0], key[1], b, line.format(x, y))
            if best is None or best[0] < 4:
                break
            commands.append(best[3])
            board = best[2]
        return board

    def stays(self, board: Board, src: int, score: float) -> bool:
        """While ``holding``, a unit on the front (next to enemy land or units) stays unless it attacks
        (a step into enemy land scores 3 or more): an empty border is where a level-1 train cuts."""
        return self.holding and score < 3.0 and on_front(board, src)

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
