"""Ice and Fire's bot factories, each called through its declaration in ``catalogue.py`` (the
strategies live in ``ai/``).

Every bot here reads the CodinGame input (the statement's "Game Input") through
:class:`~gridarena.games.iceandfire.protocol.CodinGameBot`, in the arena from the state's text and
standalone on stdin (``gridarena iceandfire bot NAME``), so the bot that plays our tournaments is the
one pasted behind a CodinGame submission.

* ``wood3``, ``wood2``, ``wood1``: the league bosses (``ai/bosses.py``, the referee's ``Boss.py3``);
* ``postmortem``: the contest's second place's heuristics (``ai/postmortem.py``);
* ``best``: ``postmortem``'s turn varied and judged against modelled replies (``ai/best.py``);
* ``pusher``: a sparring bot that rushes the enemy HQ along its front line (``ai/pusher.py``);
* ``climber``: a sparring bot that hill-climbs its own turn with random restarts (``ai/climber.py``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from gridarena.core.errors import SpecError
from gridarena.core.types import Game
from gridarena.games.iceandfire.ai.best import BestBot
from gridarena.games.iceandfire.ai.bosses import Wood1Boss, Wood2Boss, Wood3Boss
from gridarena.games.iceandfire.ai.climber import ClimberBot
from gridarena.games.iceandfire.ai.postmortem import PostMortemBot
from gridarena.games.iceandfire.ai.pusher import PusherBot
from gridarena.games.iceandfire.protocol import CodinGameBot


def make_wood3_bot(game: Game[Any], seed: int | None = None) -> Wood3Boss:
    """Registry factory: the Wood 3 boss."""
    return Wood3Boss(seed)


def make_wood2_bot(game: Game[Any], seed: int | None = None) -> Wood2Boss:
    """Registry factory: the Wood 2 boss."""
    return Wood2Boss(seed)


def make_wood1_bot(game: Game[Any], seed: int | None = None) -> Wood1Boss:
    """Registry factory: the Wood 1 boss."""
    return Wood1Boss(seed)


def make_postmortem_bot(
    game: Game[Any], seed: int | None = None, perturb: float = 0.0, variant: int = 0
) -> PostMortemBot:
    """Registry factory: the second place's heuristics; ``perturb=0.3,variant=K``: its weights
    scaled by random factors within 30 % (``variant`` seeds them), another style for sparring."""
    bot = PostMortemBot(seed)
    if perturb:
        bot.perturb(random.Random(variant), perturb)
        bot.name = f"postmortem~{variant}"
    return bot


#: ``best`` settings that act only with another one: what they need, and whether the bot has it.
_BEST_NEEDS: dict[str, tuple[str, Callable[[BestBot], bool]]] = {
    "reply_cuts": ("replies='cut'", lambda bot: "cut" in bot.replies),
    "reply_share": ("replies", lambda bot: bool(bot.replies)),
    "worst_share": ("worst_models", lambda bot: bool(bot.worst_models)),
    "exposure_later": ("exposure_weight", lambda bot: bool(bot.exposure_weight)),
    "raid_units": ("antiraid", lambda bot: bool(bot.antiraid)),
}


def make_best_bot(
    game: Game[Any],
    seed: int | None = None,
    judge_mode: str = BestBot.judge_mode,
    opponent_models: str = "+".join(BestBot.opponent_models),
    model_floor: float = BestBot.model_floor,
    model_threshold: float = BestBot.model_threshold,
    fit_decay: float = BestBot.fit_decay,
    other_rollout: int = BestBot.other_rollout,
    reach_weight: float = BestBot.reach_weight,
    hq_defence: bool = BestBot.hq_defence,
    race: bool = BestBot.race,
    rollout: int = BestBot.rollout,
    rollout_light: int = BestBot.rollout_light,
    model_light: bool = BestBot.model_light,
    interleave: bool = BestBot.interleave,
    reserve: int = BestBot.reserve,
    opening: int = BestBot.opening,
    opening_contact: int = BestBot.opening_contact,
    race_weight: float = BestBot.race_weight,
    worst_models: str = "+".join(BestBot.worst_models),
    worst_share: float = BestBot.worst_share,
    room_weight: float = BestBot.room_weight,
    gold_weight: float = BestBot.gold_weight,
    compact: float = BestBot.compact,
    closer: float = BestBot.closer,
    unit_weight: float = BestBot.unit_weight,
    hq_tower_range: int = BestBot.hq_tower_range,
    hq_danger: float = BestBot.hq_danger,
    stop_margin: float = BestBot.stop_margin,
    step_margin: float = BestBot.step_margin,
    hard_margin: float = BestBot.hard_margin,
    replies: str = "+".join(BestBot.replies),
    reply_share: float = BestBot.reply_share,
    reply_cuts: int = BestBot.reply_cuts,
    exposure_weight: float = BestBot.exposure_weight,
    exposure_later: float = BestBot.exposure_later,
    joins: bool = BestBot.joins,
    front: bool = BestBot.front,
    opening_border: float = BestBot.opening_border,
    opening_gain: float = BestBot.opening_gain,
    antiraid: int = BestBot.antiraid,
    raid_units: int = BestBot.raid_units,
    raid_penalty: float = BestBot.raid_penalty,
    cells_leaf: float = BestBot.cells_leaf,
    strike: int = BestBot.strike,
    raid_cuts: bool = BestBot.raid_cuts,
) -> BestBot:
    """Catalogue factory: the strongest bot by measurement (docs/iceandfire.md); each keyword sets one
    of its knobs (:data:`BestBot.SETTINGS`) for ablations and sparring (``best(reach_weight=0)``,
    ``best(opponent_models='postmortem+pusher')``)."""
    settings = {k: v for k, v in locals().items() if k in BestBot.SETTINGS}
    bot = BestBot(seed)
    for key, value in settings.items():
        bot.configure(key, value)
    for key, (needs, used) in _BEST_NEEDS.items():
        if getattr(bot, key) != getattr(BestBot, key) and not used(bot):
            # The setting is never read then: a run with it would be ``best`` itself.
            raise SpecError(
                f"iceandfire best: {key}={settings[key]!r} acts only with {needs}, which is not set"
            )
    return bot


def make_pusher_bot(
    game: Game[Any], seed: int | None = None, cuts: bool = False, guard: bool = False
) -> PusherBot:
    """Registry factory: the front-line rusher of the sparring pool (``pusher(cuts=1,guard=1)``: it
    also plays its best cuts and guards its HQ)."""
    bot = PusherBot(seed)
    bot.cuts, bot.guard = bool(cuts), bool(guard)
    if cuts or guard:
        bot.name = "pusher+"
    return bot


def make_climber_bot(game: Game[Any], seed: int | None = None, iterations: int = 120) -> ClimberBot:
    """Registry factory: the random-restart hill climber of the sparring pool."""
    bot = ClimberBot(seed)
    bot.iterations = iterations
    return bot


#: The bots that run standalone behind ``gridarena iceandfire bot NAME``.
STANDALONE: dict[str, type[CodinGameBot]] = {
    "wood3": Wood3Boss,
    "wood2": Wood2Boss,
    "wood1": Wood1Boss,
    "postmortem": PostMortemBot,
    "best": BestBot,
    "pusher": PusherBot,
    "climber": ClimberBot,
}
