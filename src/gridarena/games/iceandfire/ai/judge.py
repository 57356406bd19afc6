"""The judge of ``best``: a whole turn valued by what the opponent can answer to it.

Each variant of our turn is played on a copy of the board and valued after the opponent's reply and
a short rollout, the reply played by each of the opponent models (the post-mortem heuristics; the
rusher of ``ai/pusher.py`` when the opponent plays like one or its army nears our HQ), mixed by how
well each model has predicted the opponent's turns so far (docs/iceandfire.md).
"""

from __future__ import annotations

from typing import Literal, overload

from gridarena.games.iceandfire.ai.board import ME, OPP, Board, BoardBot
from gridarena.games.iceandfire.ai.opening import race_value
from gridarena.games.iceandfire.ai.postmortem import PostMortemBot
from gridarena.games.iceandfire.ai.pusher import PusherBot
from gridarena.games.iceandfire.ai.raid import raid, raid_loss
from gridarena.games.iceandfire.ai.tactics import (
    WIN,
    hq_chain_cost,
    hq_reach,
    territory,
    units_value,
    upkeep_of,
)
from gridarena.games.iceandfire.ai.threats import exposure, strongest_replies, turn_start
from gridarena.games.iceandfire.geometry import CELLS, UNIT_COST
from gridarena.search.errors import SearchAborted

#: The opponent models the judge knows.
MODELS = ("postmortem", "pusher", "light")
#: The opponent's replies the judge finds by its own chain search (:meth:`Judge.worst_reply`).
SEARCHED = ("cut", "rush")


class Judge(PostMortemBot):
    """The valuation of a turn against the opponent's replies: the part of ``best`` that looks ahead."""

    #: No new judgement once the deadline is this close (seconds), no new variant step once it is
    #: ``stop_margin + step_margin`` close, and every search stops ``hard_margin`` before it. At
    #: CodinGame's 50 ms the deadline a bot is given is 45 ms (core.clock.bot_margin), so a turn ends
    #: by about 35 ms: p99 35.3 ms of CPU over 4,800 games (docs/iceandfire.md; 27 ms with the margins
    #: of 20 and 18 ms before 7 December 2026, which an SPRT over the sparring pool found weaker).
    stop_margin = 0.012
    step_margin = 0.006
    hard_margin = 0.010
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
    #: Turns over which the judge counts an income lead (mines pay back over many turns).
    income_horizon = 15.0
    #: Count the cells the opponent's units can still claim against it.
    opp_room = False
    #: What a position from which our next turn's gold takes the enemy HQ is worth.
    finisher_bonus = 0.0
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
    predicted: dict[str, bytearray]
    last_predicted: dict[str, bytearray]
    last_after: bytearray | None
    #: What a position is marked down by when the opponent's army could take our HQ in two turns
    #: whatever it plays (half for three turns; see :meth:`hq_danger_of`). 0: not looked at.
    reach_weight = 0.0
    #: What the judge counts per cell of the claim race's lead (``ai/opening.py``: the neutral cells
    #: each side reaches first) after the rollout: the territory still to come.
    race_weight = 0.0
    #: Replies judged besides the mixture of ``opponent_models`` (``light``, ``pusher``): the judge
    #: takes ``worst_share`` of the worst case among them and the mixture.
    worst_models: tuple[str, ...] = ()
    worst_share = 1.0
    #: The opponent's strongest replies found by our own chain search (``cut``, ``rush``) or played
    #: by a model (``light``, ``pusher``), each valued at the start of our next turn; the judgement
    #: takes ``reply_share`` of how much worse the worst of them leaves us than the modelled reply.
    replies: tuple[str, ...] = ()
    reply_share = 1.0
    #: How many of the opponent's best cuts (to different targets) are replies.
    reply_cuts = 2
    #: What the judge takes off per cell of our land that the opponent's gold can cut off or take
    #: next turn, and the share of that for the turn after (``ai/threats.py``, :func:`exposure`).
    exposure_weight = 0.0
    exposure_later = 0.5
    #: Points the judge takes off per cell of our active land the opponent's raid next turn darkens
    #: (``ai/raid.py``; all of them if it takes the HQ); off.
    raid_penalty = 0.0
    #: When above 0, a position that is not won or lost is valued at this much per active cell, ours
    #: less the opponent's, in place of the income lead, gold, units and dangers (0: off).
    cells_leaf = 0.0
    #: The value of the position after each model's first reply (:meth:`judge_model`).
    first: dict[str, float]

    def new_game(self) -> None:
        """Forget the map and what the opponent has shown."""
        super().new_game()
        self.fit = {}
        self.weights = {"postmortem": 1.0}
        self.predicted = {}
        self.last_after = None
        self.last_predicted = {}
        self.first = {}

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

    def modelled(self, light: bool = False) -> PostMortemBot:
        """The post-mortem model (``light``: without defence, towers and mines, fewer cuts; cheaper):
        the opponent's in the judge's first model, and ours in every rollout."""
        if self.model is None:
            self.model = PostMortemBot()
            if self.model_light:
                self.model.light, self.model.cut_tries, self.model.cut_targets = True, 2, self.model_targets
        if not light:
            self.model.turns, self.model.joins = self.turns, self.joins
            return self.model
        if self.light_model is None:
            self.light_model = PostMortemBot()
            self.light_model.light, self.light_model.cut_tries = True, 2
            self.light_model.cut_targets = self.model_targets
        self.light_model.turns, self.light_model.joins = self.turns, self.joins
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
        by the weights the opponent's play so far gives them (:meth:`model_weights`); less how much
        worse the opponent's strongest reply found by our own search leaves us than the modelled
        reply (:meth:`worst_reply`), what its gold can cut off of our land (:meth:`exposed`) and
        what its raid darkens (``raid_penalty`` a cell); minus what its whole army could reach of
        our HQ in two or three turns, whatever it plays (:meth:`hq_danger_of`)."""
        if self.judge_mode == "threat" or after.won == ME:
            return self.judge_threat(before, after)
        weights = self.weights
        value = 0.0
        self.first = {}
        for model, weight in weights.items():
            value += weight * self.judge_model(after, model)
        if self.worst_models:
            # The worst case among other replies: a model the opponent does not play cannot be
            # exploited (e.g. our banked gold scaring the post-mortem model into defending).
            worst = min(value, *(self.judge_model(after, m) for m in self.worst_models))
            value = (1.0 - self.worst_share) * value + self.worst_share * worst
        if self.replies and "postmortem" in self.first:
            value += self.reply_share * min(0.0, self.worst_reply(after) - self.first["postmortem"])
        if self.exposure_weight:
            value -= self.exposed(after)
        if self.raid_penalty:
            plan = raid(after, OPP, self.opponent_budget(after), self.horizon, all_units_act=True)
            if plan is not None:
                value -= self.raid_penalty * raid_loss(after, plan, OPP)
        if self.reach_weight:
            value -= self.hq_danger_of(after)
        return value

    def worst_reply(self, after: Board) -> float:
        """The worst of the opponent's strongest replies to our turn, valued as the position at the
        start of our next turn (:meth:`evaluate`): the replies of :attr:`replies` (``cut``: its
        finisher, or its ``reply_cuts`` best cuts by our own chain search; ``rush``: its chain nearest
        our HQ; ``light`` or ``pusher``: the model's whole turn)."""
        worst = float("inf")
        searched = [r for r in self.replies if r in SEARCHED]
        if searched:
            view = turn_start(after, OPP)
            cuts = self.reply_cuts if "cut" in searched else 0
            for plan in strongest_replies(view, OPP, self.horizon, cuts, "rush" in searched):
                back = plan.board
                if back.won is None:
                    back.start_turn(ME)
                worst = min(worst, self.evaluate(back))
        for model in self.replies:
            if model in MODELS:
                worst = min(worst, self.evaluate(self.reply(after, model == "light", model)))
        return worst

    def exposed(self, after: Board) -> float:
        """What the judge takes off for our land that the opponent's gold can cut off or take next
        turn (``exposure_weight`` a cell) and the turn after (``exposure_later`` of that): see
        :func:`~gridarena.games.iceandfire.ai.threats.exposure`."""
        risk = exposure(after, ME)
        return self.exposure_weight * (risk.soon + self.exposure_later * risk.later)

    def judge_model(self, after: Board, model: str) -> float:
        """The position after the opponent's reply as ``model`` plays it and ``rollout`` more turn
        pairs (ours as ``postmortem`` would play, then the model's reply)."""
        back = self.reply(after, model=model)
        self.predicted[model] = back.owner
        if self.replies:
            self.first[model] = self.evaluate(back)
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
        return self.evaluate(back)

    def evaluate(self, back: Board) -> float:
        """A position at the start of our turn, in gold: the income lead over the turns it lasts, gold,
        units and the cells they can still claim, less a danger to our HQ (a won game: ``WIN / 4``,
        a lost one ``-WIN / 2``)."""
        if back.won == ME:
            return WIN / 4
        if back.won == OPP:
            return -WIN / 2
        if self.cells_leaf:
            return self.cells_leaf * back.active_lead()
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
