"""ReversiXT's search bots: :class:`SearchBot` runs the fast engine's search (:mod:`..fast.engine`)
under the move's time control, with the constants that choose its search (:data:`BRS_FROM_PLAYERS`,
:data:`MULTI_OPTIONS`, :data:`LEADER_FROM_PLAYERS`, :data:`V1_MULTI_OPTIONS`) and :func:`parse_weights` for the map-reading evaluation's weights.
"""

from __future__ import annotations

import time
from typing import Any, Final

from gridarena.core.bot import BaseBot, Decision
from gridarena.core.clock import TimeControl, TurnClock
from gridarena.core.errors import GridArenaError
from gridarena.core.types import Game, GameState
from gridarena.games.reversixt.fast.engine import Engine, SearchResult
from gridarena.games.reversixt.fast.layout import FIELD, LEADER, NEIGHBOURS, TERMS
from gridarena.games.reversixt.formats import Move, ReversiMap
from gridarena.games.reversixt.rules import ReversiState
from gridarena.games.reversixt.timing import Pacer

MARGIN: Final = 0.03
"""Seconds kept back from the deadline: the clock is polled every few hundred nodes, and loading the
position and the answer need the rest. A loaded machine's scheduler may need more: on 2 cores with a
load of 10, answers came up to 190 ms after a wall deadline, so the strength runs (docs) use 0.2 s."""
UNTIMED_DEPTH: Final = 6
"""Plies searched when nothing limits the search (no deadline, depth or node budget)."""
SEARCHES: Final = ("paranoid", "brs", "maxn")
"""The searches ``best(search=...)`` may be told to use instead of its own choice."""
RANK_REFS: Final[dict[str, int]] = {"neighbours": NEIGHBOURS, "leader": LEADER, "field": FIELD}
"""``best(ref=...)``: whom the searcher's value is measured against (:data:`.fast.layout.RANK_REF`)."""
BRS_FROM_PLAYERS: Final = 3
"""``best`` searches with BRS from this many players on, with paranoid alpha-beta below."""
MULTI_OPTIONS: Final[dict[str, int]] = {"rank_ref": LEADER}
"""``best``'s search options from :data:`LEADER_FROM_PLAYERS` players on (beyond the engine's
defaults): its value is measured against the strongest other player (``ref=leader``). From
:data:`BRS_FROM_PLAYERS` players on ``best`` searches override moves at every ply and reduces no
move (the engine's defaults). Against the mixed field of ``benchmarks/reversixt_multi.py`` on the
multi-player competition maps these took more first places and a better mean rank than
:data:`V1_MULTI_OPTIONS` (which search deeper) and, from four players on, than the rank
neighbours as the reference (docs/reversixt.md, "Three to eight players")."""
LEADER_FROM_PLAYERS: Final = 4
"""``best`` applies :data:`MULTI_OPTIONS` from this many players on. On the 3-player competition map
the rank neighbours took 26 first places of 45 against the leader's 15 (the same openings)."""
V1_MULTI_OPTIONS: Final[dict[str, int]] = {"override_plies": 2, "lmr": 2, "lmr2": 6}
"""``best_v1``'s (and ``best``'s before the measurement above): override moves only at the first two
plies (or without another move), late move reductions by a ply from the third move of a node and by
two from the seventh. On ``2014_comp_1_4p`` they take the completed depth in 2 s from 7-8 plies to 11
(docs/reversixt.md)."""


_KERNELS_READY = False
"""Whether a search ran in this process (every kernel compiled or loaded)."""


class SearchBot(BaseBot):
    """A bot over the fast engine; one engine (board, table) per map, kept across moves of a game.

    ``options`` go to :class:`~..fast.engine.Engine` (``override_plies``, ``swap_weight``, ``lmr``,
    ``lmr2``, ``rank_ref``); a None value takes the default, which for the mode ``best`` on a map of
    ``multi_from`` or more players (and at least :data:`BRS_FROM_PLAYERS`) is ``multi``
    (:data:`MULTI_OPTIONS` from :data:`LEADER_FROM_PLAYERS` players on for ``best``,
    :data:`V1_MULTI_OPTIONS` from three for ``best_v1``)."""

    def __init__(
        self,
        name: str,
        mode: str,
        evaluation: str,
        seed: int | None = None,
        margin: float = MARGIN,
        eliminate: bool = True,
        pacing: bool = False,
        search: str | None = None,
        multi: dict[str, int] = MULTI_OPTIONS,
        multi_from: int = LEADER_FROM_PLAYERS,
        **options: Any,
    ) -> None:
        super().__init__(seed)
        if search is not None and search not in SEARCHES:
            raise GridArenaError(f"{name}: search must be one of {', '.join(SEARCHES)}, got {search!r}")
        self.name, self.mode, self.evaluation = name, mode, evaluation
        self.search = search
        self.multi, self.multi_from = multi, multi_from
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
                mode, options = best_search(m.players, self.search, self.multi, self.multi_from)
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


def best_search(
    players: int,
    search: str | None = None,
    multi: dict[str, int] = MULTI_OPTIONS,
    multi_from: int = LEADER_FROM_PLAYERS,
) -> tuple[str, dict[str, Any]]:
    """The mode ``best``'s search on a map of ``players`` and the engine options it adds: ``search``
    or paranoid below :data:`BRS_FROM_PLAYERS` players and BRS from there on; ``multi`` from
    ``multi_from`` players on (and at least :data:`BRS_FROM_PLAYERS`)."""
    mode = search or ("brs" if players >= BRS_FROM_PLAYERS else "paranoid")
    return mode, dict(multi) if players >= max(BRS_FROM_PLAYERS, multi_from) else {}


def rank_ref(name: str) -> int:
    """The evaluation's reference of ``ref=NAME`` (:data:`RANK_REFS`); an unknown name is one line."""
    if name not in RANK_REFS:
        raise GridArenaError(f"ref must be one of {', '.join(RANK_REFS)}, got {name!r}")
    return RANK_REFS[name]


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
