"""``best``: ``postmortem``'s turn, varied, and judged against the opponent's modelled replies.

Of several whole-turn variants (the post-mortem's turn, mines, an HQ tower, towers that most lower
the opponent's best cut, a compact expansion, banking, a tower/unit search against the opponent's
finisher...), it plays the one whose position is best after the opponent's reply and two more turn
pairs, the reply played by each of its opponent models (the post-mortem heuristics; the rusher of
``ai/pusher.py`` when the opponent plays like one or its army nears our HQ), the judgements mixed by
how well each model has predicted the opponent's turns so far (docs/iceandfire.md). Until the two
sides are within three cells it plays the planned opening of ``ai/opening.py`` (as red as it is, as
blue judged first among the variants).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Literal, overload

from gridarena.core.errors import SpecError
from gridarena.games.iceandfire.ai.board import ME, OPP, Board, BoardBot
from gridarena.games.iceandfire.ai.defence import hq_guard, hq_tower, stop_finisher
from gridarena.games.iceandfire.ai.opening import contact, expand, race_value
from gridarena.games.iceandfire.ai.postmortem import PostMortemBot
from gridarena.games.iceandfire.ai.pusher import PusherBot
from gridarena.games.iceandfire.ai.tactics import (
    INF,
    WIN,
    Plan,
    finisher,
    hq_chain_cost,
    hq_reach,
    territory,
    units_value,
    upkeep_of,
)
from gridarena.games.iceandfire.geometry import CELLS, TOWER, UNIT_COST, xy
from gridarena.search.errors import SearchAborted

#: The names of :attr:`BestBot.SETTINGS`, the knobs of ``best(...)``.
_SETTINGS = (
    "judge_mode opponent_models model_floor model_threshold fit_decay other_rollout "
    "reach_weight hq_defence race rollout rollout_light model_light interleave reserve opening "
    "opening_contact race_weight worst_models worst_share room_weight gold_weight compact "
    "closer unit_weight hq_tower_range hq_danger stop_margin step_margin hard_margin"
)

#: The opponent models the judge knows.
MODELS = ("postmortem", "pusher", "light")


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
    #: The judge's weight of a unit's price (the units on active cells, ours less the opponent's).
    unit_weight = 0.5
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
    #: The opponent models each variant is judged against (``postmortem``, ``pusher``), mixed by
    #: how well each predicted the opponent so far; each keeps at least ``model_floor`` of the weight.
    opponent_models: tuple[str, ...] = ("postmortem", "pusher")
    model_floor = 0.25
    #: A model other than ``postmortem`` is judged when its weight reaches this (or the HQ is in danger).
    model_threshold = 0.5
    #: The models this turn is judged against, with their weights (:meth:`judged_models`).
    weights: dict[str, float]
    #: How fast the fit forgets (the weight of the past in each update).
    fit_decay = 0.7
    #: Turn pairs after the reply for the models other than ``postmortem`` (cheaper models, fewer pairs).
    other_rollout = 1
    pusher_model: PusherBot | None = None
    #: Per model, how well it predicted the opponent's turns (0-1); the predictions of the turn being
    #: judged and those of the turn played, with the owners after it (to score them next turn).
    fit: dict[str, float]
    #: The last turn's distinct variant turns and how many of them were judged (for the benchmarks).
    distinct = 0
    judged = 0
    predicted: dict[str, bytearray]
    last_predicted: dict[str, bytearray]
    last_after: bytearray | None
    #: What a position is marked down by when the opponent's army could take our HQ in two turns
    #: whatever it plays (half for three turns; see :meth:`hq_danger_of`). 0: not looked at.
    reach_weight = 0.0

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
    #: Variants that race the opponent to its HQ, in the rusher's style (judged like the others).
    race_variants: tuple[tuple[str, ...], ...] = (("stop", "cuts", "push"),)
    race = False
    #: Judge each variant as soon as it is played (False: play them all, then judge them in order).
    #: When time is short, variants played and never judged were time lost: against the third
    #: perturbed ``postmortem`` the first variant was often played unjudged (docs/iceandfire.md).
    interleave = True
    #: Gold kept back from spawning once the territories touch (``postmortem``'s 0): what the next
    #: turn can spend on blocking a cut or striking back (docs/iceandfire.md, the sparring pool).
    reserve = 10
    #: The planned opening (``ai/opening.py``) while the two sides are more than ``opening_contact``
    #: cells apart: 0 off, 1 its turn judged first among the variants, 2 its turn played unjudged,
    #: 3 played unjudged as red (which moves first) and judged first as blue.
    #: Against the public Java bot as red on seeds 1001-1130: 105 of 130 games with 2 (and 3), 90
    #: with 1, 85 with 0; as blue 2 lost 16 of 30 where 1 lost 2 (docs/iceandfire.md).
    opening = 3
    opening_contact = 3
    #: A tower next to our HQ before anything else once enemy land is this near it (0: only as a variant).
    hq_tower_range = 0
    opening_variant: tuple[str, ...] = ("stop", "cuts", "open", "mines")
    #: What the judge counts per cell of the claim race's lead (``ai/opening.py``: the neutral cells
    #: each side reaches first) after the rollout: the territory still to come.
    race_weight = 0.0
    #: Replies judged besides the mixture of ``opponent_models`` (``light``, ``pusher``): the judge
    #: takes ``worst_share`` of the worst case among them and the mixture.
    worst_models: tuple[str, ...] = ()
    worst_share = 1.0

    def variants_for(self, board: Board) -> tuple[tuple[str, ...], ...]:
        """The variants of this turn, in the order they are played and judged: ``hq_variants`` first
        when the opponent's army could take our HQ within two turns (:func:`hq_reach`), since under
        time pressure only the first ones are judged."""
        variants = (*self.variants, *self.race_variants) if self.race else self.variants
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
        if not self.hq_tower_range or finisher(board, ME, board.gold[ME]) is not None:
            return self.plan_turn(board)
        first: list[str] = []
        board = hq_tower(board, first, self.hq_tower_range)
        return first + self.plan_turn(board)

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

    def judged_models(self, board: Board) -> dict[str, float]:
        """The models this turn's variants are judged against, with their weights: ``postmortem``
        always, another one when its weight reaches ``model_threshold`` or when the opponent's army
        could take our HQ within three turns (:func:`hq_reach`): an opponent that plays like
        ``postmortem`` costs no second judgement, a rusher gets one."""
        weights = self.model_weights()
        budget = board.gold[OPP] + 3 * max(0, board.compute_income(OPP))
        danger = len(weights) > 1 and hq_reach(board, OPP, 3) <= budget
        chosen = {
            m: w for m, w in weights.items() if m == "postmortem" or w >= self.model_threshold or danger
        }
        total = sum(chosen.values())
        return {m: w / total for m, w in chosen.items()}

    def foresee(self, after: Board) -> None:
        """What each model not judged this turn predicts the opponent will do after the turn played
        (one reply, no rollout), so that :meth:`observe` can score every model next turn; skipped
        when the turn's time is short."""
        for model in self.opponent_models:
            if model in self.last_predicted or self.out_of_time(self.stop_margin):
                continue
            try:
                self.last_predicted[model] = self.reply(after, model=model).owner
            except SearchAborted:
                return

    #: The knobs :meth:`configure` may set (the registry's ``best(...)`` settings).
    SETTINGS = tuple(_SETTINGS.split())

    def configure(self, key: str, value: object) -> None:
        """Set one of :data:`SETTINGS` (``opponent_models`` from ``"postmortem+pusher"``); a
        :class:`~gridarena.core.errors.SpecError` names an unknown one."""
        if key not in self.SETTINGS:
            raise SpecError(f"iceandfire best: unknown setting {key!r}; known: {', '.join(self.SETTINGS)}")
        if key == "judge_mode" and value not in ("model", "threat"):
            raise SpecError(f"iceandfire best: judge_mode is model or threat, got {value!r}")
        if key in ("opponent_models", "worst_models"):
            models = tuple(m for m in str(value).split("+") if m)
            unknown = [m for m in models if m not in MODELS]
            if unknown or not (models or key == "worst_models"):
                raise SpecError(
                    f"iceandfire best: opponent models are among {', '.join(MODELS)}, got {value!r}"
                )
            setattr(self, key, models)
        elif isinstance(getattr(self, key), bool):
            setattr(self, key, value in (True, 1, "1", "true", "yes"))
        else:
            setattr(self, key, type(getattr(self, key))(value))

    def new_game(self) -> None:
        """Forget the map and what the opponent has shown."""
        super().new_game()
        self.fit = {}
        self.weights = {"postmortem": 1.0}
        self.predicted = {}
        self.last_after = None
        self.last_predicted = {}

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
                board = expand(board, commands)
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
        """The post-mortem model (``light``: without defence, towers and mines, fewer cuts; cheaper):
        the opponent's in the judge's first model, and ours in every rollout."""
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

    @overload
    def opponent(self, model: Literal["pusher"], light: bool = False) -> PusherBot: ...
    @overload
    def opponent(self, model: str, light: bool = False) -> BoardBot: ...
    def opponent(self, model: str, light: bool = False) -> BoardBot:
        """The opponent as ``model`` plays it: ``postmortem`` (:meth:`modelled`), ``light`` (the same
        without defence, towers or mines: an expander that ignores our threats) or ``pusher``."""
        if model == "light":
            return self.modelled(True)
        if model == "pusher":
            if self.pusher_model is None:
                self.pusher_model = PusherBot()
            return self.pusher_model
        return self.modelled(light)

    def reply(self, after: Board, light: bool = False, model: str = "postmortem") -> Board:
        """The board at the start of our next turn if the opponent plays as ``model`` would."""
        view = after.flipped()
        view.start_turn(ME)
        _, played = self.opponent(model, light).play_turn(view)
        back = played.flipped()
        if back.won is None:
            back.start_turn(ME)
        return back

    def judge(self, before: Board, after: Board) -> float:
        """The position after our turn against each opponent model (see :meth:`judge_model`), mixed
        by the weights the opponent's play so far gives them (:meth:`model_weights`); minus what its
        whole army could reach of our HQ in two or three turns, whatever it plays (:meth:`hq_danger_of`)."""
        if self.judge_mode == "threat" or after.won == ME:
            return self.judge_threat(before, after)
        weights = self.weights
        value = 0.0
        for model, weight in weights.items():
            value += weight * self.judge_model(after, model)
        if self.worst_models:
            # The worst case among other replies: a model the opponent does not play cannot be
            # exploited (e.g. our banked gold scaring the post-mortem model into defending).
            worst = min(value, *(self.judge_model(after, m) for m in self.worst_models))
            value = (1.0 - self.worst_share) * value + self.worst_share * worst
        if self.reach_weight:
            value -= self.hq_danger_of(after)
        return value

    def judge_model(self, after: Board, model: str) -> float:
        """The position after the opponent's reply as ``model`` plays it and ``rollout`` more turn
        pairs (ours as ``postmortem`` would play, then the model's reply)."""
        back = self.reply(after, model=model)
        self.predicted[model] = back.owner
        rollout = self.rollout if model == "postmortem" else self.other_rollout
        for k in range(rollout):
            # Look further: we play on as the model would, and the opponent answers again (the last
            # ``rollout_light`` pairs with the light model: errors far ahead weigh less).
            if back.won is not None:
                break
            light = k >= rollout - self.rollout_light
            _, ours = self.modelled(light).play_turn(back.copy())
            if ours.won == ME:
                back = ours
                break
            back = self.reply(ours, light, model)
        if back.won == ME:
            return WIN / 4
        if back.won == OPP:
            return -WIN / 2
        mine = territory(back, ME) - upkeep_of(back, ME)
        theirs = territory(back, OPP) - upkeep_of(back, OPP)
        lasting = min(self.income_horizon, max(self.horizon, 100 - self.turns))
        value = lasting * (mine - theirs) + self.gold_weight * (back.gold[ME] - back.gold[OPP])
        value += self.unit_weight * (units_value(back, ME) - units_value(back, OPP))
        for i in back.units(ME):
            if back.active[i]:
                value += self.room_weight * min(3, self.room(back, i))
        for i in back.units(OPP):
            if back.active[i]:
                value -= self.room_weight * min(3, self.room(back, i))
        budget = back.gold[OPP] + 2 * max(0, back.compute_income(OPP))
        if hq_chain_cost(back, OPP, budget) <= budget:
            value -= self.hq_danger
        if self.race_weight:
            value += self.race_weight * race_value(back, owned_weight=0.0)
        return value

    def hq_danger_of(self, after: Board) -> float:
        """How much the opponent's army threatens our HQ after our turn, whatever it plays: ``reach_weight``
        if its units walking for two turns and its savings take the HQ (:func:`hq_reach`), half of it
        for three turns, nothing otherwise."""
        income = max(0, after.compute_income(OPP))
        for turns, share in ((2, 1.0), (3, 0.5)):
            if hq_reach(after, OPP, turns) <= after.gold[OPP] + turns * income:
                return share * self.reach_weight
        return 0.0

    def model_weights(self) -> dict[str, float]:
        """Each opponent model's weight: how well it predicted the opponent's turns so far (decayed
        agreement of the cells each predicted it would take with those it took), at least ``model_floor``."""
        raw = {m: 0.2 + self.fit.get(m, 0.5) for m in self.opponent_models}
        total = sum(raw.values())
        floor = min(self.model_floor, 1.0 / len(raw))
        return {m: floor + (1.0 - floor * len(raw)) * r / total for m, r in raw.items()}

    def observe(self, board: Board) -> None:
        """Score each model's prediction of the opponent's last turn against what it did (see
        :meth:`model_weights`): the agreement of the cells it took with those each model foresaw."""
        if self.last_after is None or not self.last_predicted:
            return
        before = self.last_after
        taken = {i for i in range(CELLS) if before[i] != OPP and board.owner[i] == OPP}
        for model, predicted in self.last_predicted.items():
            foreseen = {i for i in range(CELLS) if before[i] != OPP and predicted[i] == OPP}
            union = taken | foreseen
            agreement = len(taken & foreseen) / len(union) if union else 1.0
            self.fit[model] = self.fit_decay * self.fit.get(model, 0.5) + (1 - self.fit_decay) * agreement

    def judge_threat(self, before: Board, after: Board) -> float:
        """The position after our turn, in gold: income lead over the horizon, units, gold, minus the
        opponent's best reply (its finisher counts as a lost game)."""
        if after.won == ME:
            return WIN
        mine = territory(after, ME) - upkeep_of(after, ME)
        theirs = territory(after, OPP) - upkeep_of(after, OPP)
        # An income lead lasts: the fewer turns remain, the less it is worth (turn 100 ends the game).
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
