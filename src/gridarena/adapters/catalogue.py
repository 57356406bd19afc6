"""The adapters' catalogue family: learned play (``policy``) and OpenSpiel's own bots (``openspiel``),
offered for every game (each has a view, :mod:`gridarena.adapters.views`)."""

from __future__ import annotations

from typing import Final

from gridarena.core.catalogue import BotEntry, GameEntry
from gridarena.core.params import REQUIRED, Choice, Int, Number, Path, Reach

_BOTS: Final[dict[str, BotEntry]] = {
    "policy": BotEntry(
        "gridarena.adapters.bots:make_policy_bot",
        "a trained network's most likely legal move (numpy alone; write one with adapters.policy)",
        {
            "file": Path("a policy file (.npz)", default=REQUIRED, optional=False),
            "temperature": Number(
                0, 100, closed=True, default=0.0, help="0: the most likely move; above: sample"
            ),
        },
        reaches=frozenset({Reach.FILE}),
    ),
    "openspiel": BotEntry(
        "gridarena.adapters.bots:make_openspiel_bot",
        "OpenSpiel's MCTSBot (random rollouts) or its uniform random bot (needs the rl extra)",
        {
            "bot": Choice(("mcts", "random"), default="mcts", help="which of OpenSpiel's bots"),
            "simulations": Int(1, 100_000, default=100, help="MCTS simulations a move"),
            "uct_c": Number(0, 100, closed=True, default=2.0, help="the UCT exploration constant"),
            "rollouts": Int(1, 1000, default=1, help="random rollouts per evaluation"),
        },
        reaches=frozenset({Reach.CLOCKLESS}),
    ),
}


def adapter_bots(entry: GameEntry) -> dict[str, BotEntry]:
    """``policy`` and ``openspiel``, for every game."""
    return dict(_BOTS)
