"""ReversiXT's bots: ``trivial`` (after the course's ai_trivial), ``paranoid``, ``brs`` and ``best``.

All four run the fast engine's search (:mod:`.fast.engine`) under the move's time control: the
deadline less a margin, the depth limit (the protocol's depth byte, in plies) and a node budget.
They differ in the search and the evaluation:

* ``trivial``: paranoid alpha-beta with move sorting and iterative deepening over ai_trivial's
  evaluation, own stones minus the strongest opponent's (spec 11.1);
* ``paranoid``: the same search over the full evaluation (stones weighted up as the board fills,
  field weights from the board's shape, mobility, override stones and bombs, measured against the
  rank neighbours), with the elimination rule in the bomb phase;
* ``brs``: best-reply search over the full evaluation, static at the leaves (with two players it
  searches the same tree as ``paranoid``);
* ``best``: ``paranoid`` on two-player maps, ``brs`` on maps of three or more players
  (:data:`BRS_FROM_PLAYERS`: Schadd and Winands found BRS ahead of paranoid and max^n in
  multi-player Rolit, a Reversi for up to four; our own matches, in docs/reversixt.md, were
  inconclusive at equal node budgets, and BRS searches more nodes per second), there with
  :data:`MULTI_OPTIONS` (override moves only at the first two plies, late move reductions),
  which reach 11 plies in 2 s on the 2018 report's 4p map instead of 7-8.

With two players the full evaluation has a swap term (:func:`.fast.search.swap_term`): while a
choice or inversion field is empty, who can reach more of them expects the larger colour.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Final

from gridarena.core.bot import BaseBot, Decision
from gridarena.core.clock import TimeControl
from gridarena.core.types import Game, GameState
from gridarena.games.reversixt.fast.engine import Engine, SearchResult
from gridarena.games.reversixt.formats import Move, ReversiMap
from gridarena.games.reversixt.rules import ReversiState

MARGIN: Final = 0.03
"""Seconds kept back from the deadline: the clock is polled every few hundred nodes, and loading the
position and the answer need the rest. A loaded machine's scheduler may need more: on 2 cores with a
load of 10, answers came up to 190 ms after a wall deadline, so the strength runs (docs) use 0.2 s."""
UNTIMED_DEPTH: Final = 6
"""Plies searched when nothing limits the search (no deadline, depth or node budget)."""
BRS_FROM_PLAYERS: Final = 3
"""``best`` searches with BRS from this many players on, with paranoid alpha-beta below."""
MULTI_OPTIONS: Final[dict[str, int]] = {"override_plies": 2, "lmr": 2, "lmr2": 6}
"""``best``'s search options from :data:`BRS_FROM_PLAYERS` players on: override moves only at the
first two plies (or without another move), late move reductions by a ply from the third move of a
node and by two from the seventh. On ``2014_comp_1_4p`` they take the completed depth in 2 s
from 7-8 plies to 11 (docs/reversixt.md)."""


class SearchBot(BaseBot):
    """A bot over the fast engine; one engine (board, table) per map, kept across moves of a game.

    ``options`` go to :class:`~.fast.engine.Engine` (``override_plies``, ``swap_weight``, ``lmr``,
    ``lmr2``); a None value takes the default, which for ``best`` on a map of three or more players
    is :data:`MULTI_OPTIONS`."""

    def __init__(
        self,
        name: str,
        mode: str,
        evaluation: str,
        seed: int | None = None,
        margin: float = MARGIN,
        eliminate: bool = True,
        **options: int | None,
    ) -> None:
        super().__init__(seed)
        self.name, self.mode, self.evaluation = name, mode, evaluation
        self.margin, self.eliminate = margin, eliminate
        self.options = options
        self._engines: dict[ReversiMap, Engine] = {}
        self.last: SearchResult | None = None

    def engine(self, m: ReversiMap) -> Engine:
        """The engine of this map (built on first use: tables and a transposition table).

        Keyed by the map's value, not its identity: a state may come from another game object of the
        same map (a replay, an opening), and rebuilding the tables would cost time on the clock."""
        key = m
        if key not in self._engines:
            mode = self.mode
            options: dict[str, Any] = {}
            if mode == "best":
                mode = "brs" if m.players >= BRS_FROM_PLAYERS else "paranoid"
                if m.players >= BRS_FROM_PLAYERS:
                    options.update(MULTI_OPTIONS)
            options.update({k: v for k, v in self.options.items() if v is not None})
            self._engines.clear()
            self._engines[key] = Engine(
                m, mode=mode, evaluation=self.evaluation, eliminate=self.eliminate, **options
            )
        return self._engines[key]

    def warm_up(self, game: Game[Any]) -> None:
        """Build the engine and load the compiled kernels (numba's cache) outside the clock."""
        state = game.new_initial_state()
        assert isinstance(state, ReversiState)
        self.engine(state.game.board).search(state, max_depth=2)

    def reset(self, game: Game[Any], seat: int, seed: int) -> None:
        """A new game: the table and the history are cleared (the engine is built now, not on the clock)."""
        super().reset(game, seat, seed)
        state = game.new_initial_state()
        assert isinstance(state, ReversiState)
        self.engine(state.game.board).clear()

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        """Deepen until the clock's deadline less the margin, its depth limit or its node budget."""
        assert isinstance(state, ReversiState)
        engine = self.engine(state.game.board)
        cpu = clock.clock is time.thread_time  # the arena's CPU clock: the kernel polls the same one
        deadline = None if clock.deadline is None else clock.clock() + clock.time_left() - self.margin
        depth = clock.depth
        if deadline is None and depth is None and clock.nodes is None:
            depth = UNTIMED_DEPTH
        result = engine.search(state, deadline, depth, clock.nodes, cpu)
        self.last = result
        move = result.move
        if move is None:  # cannot happen while the game goes on; answer something legal
            move = tuple(state.legal_actions()[0])  # type: ignore[assignment]
        assert move is not None
        info: dict[str, Any] = {"depth": result.depth, "score": result.score, "nodes": result.nodes}
        return Decision(Move(*move), info)


def make_trivial_bot(game: Game[Any], seed: int | None = None, margin: float = MARGIN) -> SearchBot:
    """ai_trivial's model: own stones minus the strongest opponent's, alpha-beta, move sorting, deepening."""
    return SearchBot("trivial", "paranoid", "trivial", seed, margin, eliminate=False)


def _strong_factory(name: str, doc: str) -> Callable[..., SearchBot]:
    """The factory of a search bot over the full evaluation; its algorithm is ``name``.

    Its options: ``override_plies``: below this ply, override moves only for a player without
    another move; ``swap``: the swap term's weight in quarters (two players; 0 turns it off);
    ``lmr``, ``lmr2``: late move reductions by one ply from this move index on, by two from
    ``lmr2`` on (0: none). ``None`` keeps the algorithm's default."""

    def make(
        game: Game[Any],
        seed: int | None = None,
        margin: float = MARGIN,
        override_plies: int | None = None,
        swap: int | None = None,
        lmr: int | None = None,
        lmr2: int | None = None,
    ) -> SearchBot:
        return SearchBot(
            name, name, "strong", seed, margin,
            override_plies=override_plies, swap_weight=swap, lmr=lmr, lmr2=lmr2,
        )  # fmt: skip

    make.__name__ = make.__qualname__ = f"make_{name}_bot"
    make.__doc__ = doc + "\n\n" + (_strong_factory.__doc__ or "").split("\n\n", 1)[1]
    return make


make_paranoid_bot = _strong_factory(
    "paranoid", "Paranoid alpha-beta with table and move ordering over the full evaluation."
)
make_brs_bot = _strong_factory(
    "brs", "Best-reply search over the full evaluation (with two players: alpha-beta with static leaves)."
)
make_best_bot = _strong_factory(
    "best",
    "Our strongest: paranoid with two players, BRS with more (:data:`BRS_FROM_PLAYERS`) and\n"
    ":data:`MULTI_OPTIONS` there; each option given here overrides the default.",
)
