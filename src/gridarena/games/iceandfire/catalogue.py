"""Ice and Fire's entry in the catalogue: the game, its bots with their declared parameters, its pages."""

from __future__ import annotations

from typing import Final

from gridarena.core.catalogue import BotEntry, GameEntry
from gridarena.core.params import Choice, Flag, Int, Number, Pattern

_BOTS: Final = "gridarena.games.iceandfire.bots"
_MODEL_LIST: Final = r"(?:postmortem|pusher|light)(?:\+(?:postmortem|pusher|light)){0,2}"


def _share(default: float, help: str) -> Number:
    return Number(0, 1, closed=True, default=default, help=help)


def _margin(default: float, help: str) -> Number:
    # A margin is a range, never negative: no setting can make a turn run past its deadline.
    return Number(0.001, 1.0, closed=True, default=default, help=help)


_BEST: Final = {
    "judge_mode": Choice(
        ("model", "threat"), default="model", help="judge a variant by modelled replies or threats"
    ),
    "opponent_models": Pattern(
        _MODEL_LIST,
        "models joined by +, e.g. postmortem+pusher",
        optional=False,
        default="postmortem+pusher",
        help="the opponent models mixed by how well they predict",
    ),
    "model_floor": _share(0.25, "the least weight each model keeps"),
    "model_threshold": _share(0.5, "weight at which a second model is judged"),
    "fit_decay": _share(0.7, "how fast a model's fit forgets"),
    "other_rollout": Int(0, 8, default=1, help="turns rolled out with a second model"),
    "reach_weight": Number(
        0, 1e6, closed=True, default=0.0, help="the army's reach to our HQ as a judge term"
    ),
    "hq_defence": Flag(default=False, help="variants that guard the HQ"),
    "race": Flag(default=False, help="variants that race the opponent to its HQ"),
    "rollout": Int(0, 8, default=2, help="turns rolled out after a variant"),
    "rollout_light": Int(0, 8, default=1, help="turns rolled out for a light judgement"),
    "model_light": Flag(default=False, help="light model judgements"),
    "interleave": Flag(default=True, help="judge each variant as soon as it is played"),
    "reserve": Int(0, 1000, default=20, help="gold kept back from spawning once the territories touch"),
    "opening": Int(
        0, 3, default=3, help="the planned opening: 0 off, 1 judged first, 2 played, 3 played as red"
    ),
    "opening_contact": Int(0, 40, default=3, help="the opening holds while the sides are farther apart"),
    "race_weight": Number(0, 1e6, closed=True, default=0.0, help="the claim race's lead as a judge term"),
    "worst_models": Pattern(
        f"(?:{_MODEL_LIST})?",
        "models joined by +, or nothing",
        optional=False,
        default="",
        help="replies judged besides the mixture, the worst case taken",
    ),
    "worst_share": _share(1.0, "the share of the worst case in the judgement"),
    "room_weight": Number(0, 1e6, closed=True, default=2.0, help="the judge's weight of a unit's room"),
    "gold_weight": Number(0, 1e6, closed=True, default=0.6, help="the judge's weight of gold in hand"),
    "compact": Number(0, 1e6, closed=True, default=0.2, help="weight of own neighbours when claiming a cell"),
    "closer": Number(0, 1e6, closed=True, default=0.01, help="weight of getting closer to the enemy HQ"),
    "unit_weight": Number(0, 1e6, closed=True, default=0.5, help="the judge's weight of a unit's price"),
    "hq_tower_range": Int(
        0, 40, default=0, help="a tower beside our HQ once the enemy is this near (0: off)"
    ),
    "hq_danger": Number(0, 1e6, closed=True, default=60.0, help="the weight of danger to our HQ"),
    "stop_margin": _margin(0.012, "s before the deadline: no new judgement"),
    "step_margin": _margin(0.006, "s more: no new variant step"),
    "hard_margin": _margin(0.010, "s before the deadline: every search stops"),
    "replies": Pattern(
        r"(?:(?:cut|rush|postmortem|pusher|light)(?:\+(?:cut|rush|postmortem|pusher|light)){0,4})?",
        "replies joined by +, or nothing",
        optional=False,
        default="",
        help="the opponent's strongest replies, by our chain search or a model, the worst case taken",
    ),
    "reply_share": _share(1.0, "the share of the worst reply in the judgement"),
    "reply_cuts": Int(
        1, 8, default=2, help="how many of the opponent's best cuts are replies, with replies=cut"
    ),
    "exposure_weight": Number(
        0, 1e6, closed=True, default=0.0, help="per cell of our land the opponent can cut off next turn"
    ),
    "exposure_later": _share(0.5, "the share of that weight for the turn after"),
    "joins": Flag(default=False, help="chains run on through own cut-off land they reconnect"),
    "antiraid": Int(
        0,
        8,
        default=6,
        help="at most this many blocks against the opponent's raid after each variant (0: none)",
    ),
    "raid_penalty": Number(
        0, 1e6, closed=True, default=0.0, help="per cell of our land the opponent's raid next turn darkens"
    ),
    "cells_leaf": Number(
        0,
        1e6,
        closed=True,
        default=0.0,
        help="value a position by its active cells, ours less theirs (0: off)",
    ),
    "raid_units": Int(
        0, 20, default=0, help="the raid and its blocks count each of our units it darkens this much more"
    ),
    "opening_border": Number(
        0, 1e6, closed=True, default=0.0, help="the opening's race less this per side of our border"
    ),
    "opening_gain": Number(
        -1e6,
        1e6,
        closed=True,
        default=1.5,
        help="the opening trains while a unit gains this much of the race",
    ),
    "front": Flag(default=False, help="variants that hold the front with units, judged second"),
    "strike": Int(
        0, 144, default=4, help="a variant opening with our raid when it darkens this many cells (0: off)"
    ),
    "raid_cuts": Flag(
        default=False, help="our cuts step takes our raid when it scores more than the best cut"
    ),
}

BOTS: Final[dict[str, BotEntry]] = {
    "wood3": BotEntry(f"{_BOTS}:make_wood3_bot", "the Wood 3 league boss", title="Wood 3 boss"),
    "wood2": BotEntry(f"{_BOTS}:make_wood2_bot", "the Wood 2 league boss", title="Wood 2 boss"),
    "wood1": BotEntry(f"{_BOTS}:make_wood1_bot", "the Wood 1 league boss", title="Wood 1 boss"),
    "postmortem": BotEntry(
        f"{_BOTS}:make_postmortem_bot",
        "the contest's second place's heuristics, from its post-mortem",
        {
            "perturb": Number(
                0, 1, closed=True, default=0.0, help="scale each weight by a random factor within this share"
            ),
            "variant": Int(0, 2**31 - 1, default=0, help="the seed of the perturbation"),
        },
    ),
    "best": BotEntry(
        f"{_BOTS}:make_best_bot",
        "our strongest: the post-mortem's turn varied and judged against modelled replies",
        _BEST,
    ),
    "pusher": BotEntry(
        f"{_BOTS}:make_pusher_bot",
        "a rusher that pushes its front line toward the enemy HQ",
        {
            "cuts": Flag(default=False, help="also play its best cuts"),
            "guard": Flag(default=False, help="also guard its HQ"),
        },
    ),
    "climber": BotEntry(
        f"{_BOTS}:make_climber_bot",
        "hill-climbs its own turn with random restarts",
        {"iterations": Int(1, 100_000, default=120, help="climbing steps a turn (the clock still stops it)")},
    ),
}

ENTRY: Final = GameEntry(
    name="iceandfire",
    title="A Code of Ice and Fire (CodinGame 2019)",
    factory="gridarena.games.iceandfire.rules:IceAndFire",
    bots=BOTS,
    renderer="gridarena.games.iceandfire.render:render_svg",
    words="gridarena.games.iceandfire.render:WORDS",
    analyser="gridarena.games.iceandfire.analysis:make_analyser",
)
