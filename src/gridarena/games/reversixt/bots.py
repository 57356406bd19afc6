"""ReversiXT's bots: ``trivial`` (after the course's ai_trivial), ``paranoid``, ``brs``, ``best``, the
previous best ``best_v1`` and ``mcts``.

The first five run the fast engine's search (:mod:`.fast.engine`) under the move's time control: the
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
  which reach 11 plies in 2 s on the 2018 report's 4p map instead of 7-8; over the map-reading
  evaluation (:func:`.fast.search.map_value`: stability, frontier, potential mobility, stones next
  to an empty corner, bonus fields within reach, weighted by how full the board is) and with time
  management on an account that carries over (:mod:`.timing`);
* ``best_v1``: ``best`` as it was before the map-reading evaluation and the time management (the
  full evaluation, each deadline spent whole), kept to measure against.

``mcts`` is of another style: UCT with random playouts on the fast kernels (:mod:`.fast.mcts`).

With two players both evaluations have a swap term (:func:`.fast.search.swap_term`): while a
choice or inversion field is empty, who can reach more of them expects the larger colour.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Final

from gridarena.core.bot import BaseBot, Decision
from gridarena.core.clock import TimeControl, TurnClock
from gridarena.core.errors import GridArenaError
from gridarena.core.types import Game, GameState
from gridarena.games.reversixt.fast.engine import Engine, SearchResult
from gridarena.games.reversixt.fast.mcts import MctsEngine
from gridarena.games.reversixt.fast.search import TERMS
from gridarena.games.reversixt.formats import Move, ReversiMap
from gridarena.games.reversixt.rules import ReversiState
from gridarena.games.reversixt.timing import Pacer

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


_KERNELS_READY = False
"""Whether a search ran in this process (every kernel compiled or loaded)."""


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
        pacing: bool = False,
        **options: Any,
    ) -> None:
        super().__init__(seed)
        self.name, self.mode, self.evaluation = name, mode, evaluation
        self.margin, self.eliminate = margin, eliminate
        self.options = options
        self._engines: dict[ReversiMap, Engine] = {}
        self.last: SearchResult | None = None
        self.pacing = pacing
        self.time_control: str | None = None  # the arena's --time text; the network client sets account:T
        self._pacer: Pacer | None = None

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
        """Build the engine and load the compiled kernels (numba's cache) outside the clock.

        The kernels do not depend on the map: once a search ran in this process (the network client
        warms up on a small map before it connects), only the engine of this map is built."""
        global _KERNELS_READY
        state = game.new_initial_state()
        assert isinstance(state, ReversiState)
        engine = self.engine(state.game.board)
        if not _KERNELS_READY:
            engine.search(state, max_depth=2)
            _KERNELS_READY = True

    def reset(self, game: Game[Any], seat: int, seed: int) -> None:
        """A new game: the table and the history are cleared (the engine is built now, not on the clock)."""
        super().reset(game, seat, seed)
        state = game.new_initial_state()
        assert isinstance(state, ReversiState)
        self.engine(state.game.board).clear()
        self._pacer = None

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        """Deepen until the clock's deadline less the margin, its depth limit or its node budget."""
        assert isinstance(state, ReversiState)
        engine = self.engine(state.game.board)
        cpu = clock.clock is time.thread_time  # the arena's CPU clock: the kernel polls the same one
        deadline = None if clock.deadline is None else clock.clock() + clock.time_left() - self.margin
        depth = clock.depth
        if deadline is None and depth is None and clock.nodes is None:
            depth = UNTIMED_DEPTH
        pace = None
        if self.pacing and isinstance(clock, TurnClock) and clock.limit is not None and deadline is not None:
            if self._pacer is None:
                self._pacer = Pacer(self.time_control)
            pacer, account = self._pacer, clock.limit
            pace = lambda view: pacer.plan(account, view)  # noqa: E731
        result = engine.search(state, deadline, depth, clock.nodes, cpu, pace)
        self.last = result
        move = result.move
        if move is None:  # cannot happen while the game goes on; answer something legal
            move = tuple(state.legal_actions()[0])  # type: ignore[assignment]
        assert move is not None
        info: dict[str, Any] = {"depth": result.depth, "score": result.score, "nodes": result.nodes}
        if result.budget is not None:  # the time management's plan, in seconds
            info["target"], info["hard"] = round(result.budget.target, 3), round(result.budget.hard, 3)
        return Decision(Move(*move), info)


def make_trivial_bot(game: Game[Any], seed: int | None = None, margin: float = MARGIN) -> SearchBot:
    """ai_trivial's model: own stones minus the strongest opponent's, alpha-beta, move sorting, deepening."""
    return SearchBot("trivial", "paranoid", "trivial", seed, margin, eliminate=False)


def parse_weights(text: str) -> dict[str, tuple[int, int]]:
    """``"stable=48/24,mobility=30"`` as ``{"stable": (48, 24), "mobility": (30, 30)}`` (one value: both).

    >>> parse_weights("stable=48/24,mobility=30")
    {'stable': (48, 24), 'mobility': (30, 30)}
    """
    out: dict[str, tuple[int, int]] = {}
    for item in text.split(","):
        name, _, value = item.partition("=")
        name = name.strip()
        if name not in TERMS:
            raise GridArenaError(f"weights: unknown term {name!r} (terms: {', '.join(TERMS)})")
        try:
            parts = [int(v) for v in value.split("/")]
        except ValueError:
            raise GridArenaError(f"weights: {item!r} is not term=early/late with integers") from None
        if len(parts) not in (1, 2):
            raise GridArenaError(f"weights: {item!r} is not term=early/late with integers")
        out[name] = (parts[0], parts[-1])
    return out


def _strong_factory(
    name: str, mode: str, doc: str, evaluation: str = "strong", pacing: bool = False
) -> Callable[..., SearchBot]:
    """The factory of a search bot; its algorithm is ``mode``, its evaluation ``evaluation``.

    Its options: ``override_plies``: below this ply, override moves only for a player without
    another move; ``swap``: the swap term's weight in quarters (two players; 0 turns it off);
    ``lmr``, ``lmr2``: late move reductions by one ply from this move index on, by two from
    ``lmr2`` on (0: none); ``pacing``: time management on an account that carries over
    (:mod:`.timing`; 0 spends each deadline whole); ``weights``: the map-reading evaluation's
    weights to change, ``"stable=48/24,frontier=0/0"`` (term=early/late, :func:`parse_weights`).
    ``None`` keeps the algorithm's default."""

    def make(
        game: Game[Any],
        seed: int | None = None,
        margin: float = MARGIN,
        override_plies: int | None = None,
        swap: int | None = None,
        lmr: int | None = None,
        lmr2: int | None = None,
        pacing: int | None = None,
        weights: str | None = None,
        swap_whole: int | None = None,
    ) -> SearchBot:
        terms = parse_weights(weights) if weights else None
        return SearchBot(
            name, mode, evaluation, seed, margin, pacing=bool(default_pacing if pacing is None else pacing),
            override_plies=override_plies, swap_weight=swap, lmr=lmr, lmr2=lmr2, weights=terms, swap_whole=swap_whole,
        )  # fmt: skip

    default_pacing = pacing
    make.__name__ = make.__qualname__ = f"make_{name}_bot"
    make.__doc__ = doc + "\n\n" + (_strong_factory.__doc__ or "").split("\n\n", 1)[1]
    return make


make_paranoid_bot = _strong_factory(
    "paranoid", "paranoid", "Paranoid alpha-beta with table and move ordering over the full evaluation."
)
make_brs_bot = _strong_factory(
    "brs",
    "brs",
    "Best-reply search over the full evaluation (with two players: alpha-beta with static leaves).",
)
make_best_bot = _strong_factory(
    "best",
    "best",
    "Our strongest: paranoid with two players, BRS with more (:data:`BRS_FROM_PLAYERS`) and\n"
    ":data:`MULTI_OPTIONS` there, over the map-reading evaluation (:func:`.fast.search.map_value`), with\n"
    "time management; each option given here overrides the default.",
    evaluation="map",
    pacing=True,
)
make_best_v1_bot = _strong_factory(
    "best_v1",
    "best",
    "The previous ``best`` (before time management and the map-reading evaluation), kept to measure\n"
    "against: it spends each move's deadline whole.",
)


class MctsBot(BaseBot):
    """UCT with random playouts over the fast kernels (:mod:`.fast.mcts`): a sparring partner of
    another style. Plays until the move's deadline less the margin, or ``clock.nodes`` playouts;
    without either, :data:`UNTIMED_PLAYOUTS`."""

    name = "mcts"

    def __init__(self, seed: int | None = None, margin: float = MARGIN) -> None:
        super().__init__(seed)
        self.margin = margin
        self._engine: MctsEngine | None = None

    def _engine_for(self, m: ReversiMap) -> MctsEngine:
        if self._engine is None or self._engine.map != m:
            self._engine = MctsEngine(m)
        return self._engine

    def warm_up(self, game: Game[Any]) -> None:
        """Build the board and load the kernels outside the clock."""
        state = game.new_initial_state()
        assert isinstance(state, ReversiState)
        self._engine_for(state.game.board).search(state, None, 2)

    def reset(self, game: Game[Any], seat: int, seed: int) -> None:
        super().reset(game, seat, seed)
        state = game.new_initial_state()
        assert isinstance(state, ReversiState)
        self._engine_for(state.game.board).reseed(seed)

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        assert isinstance(state, ReversiState)
        engine = self._engine_for(state.game.board)
        cpu = clock.clock is time.thread_time
        deadline = None if clock.deadline is None else clock.clock() + clock.time_left() - self.margin
        playouts = clock.nodes if clock.nodes is not None or deadline is not None else UNTIMED_PLAYOUTS
        move, done = engine.search(state, deadline, playouts, cpu)
        if move is None:
            return Decision(state.legal_actions()[0], {"playouts": 0})
        return Decision(Move(*move), {"playouts": done})


UNTIMED_PLAYOUTS: Final = 2000
"""Playouts of a move when nothing limits the search."""


def make_mcts_bot(game: Game[Any], seed: int | None = None, margin: float = MARGIN) -> MctsBot:
    """UCT with random playouts on the fast kernels (another style than the alpha-beta bots)."""
    return MctsBot(seed, margin)
