"""ReversiXT's bots, by registry name: factories only (the strategies live in ``ai/``).

``trivial`` (after the course's ai_trivial), ``paranoid``, ``brs``, ``best``, the previous best
``best_v1`` and ``mcts``. The first five are :class:`.ai.search.SearchBot`, the fast engine's search
(:mod:`.fast.engine`) under the move's time control: the deadline less a margin, the depth limit (the
protocol's depth byte, in plies) and a node budget. They differ in the search and the evaluation:

* ``trivial``: paranoid alpha-beta with move sorting and iterative deepening over ai_trivial's
  evaluation, own stones minus the strongest opponent's (its README: "just counts stones of self and best
  opponent");
* ``paranoid``: the same search over the full evaluation (stones weighted up as the board fills,
  field weights from the board's shape, mobility, override stones and bombs, measured against the
  rank neighbours), with the elimination rule in the bomb phase;
* ``brs``: best-reply search over the full evaluation, static at the leaves (with two players it
  searches the same tree as ``paranoid``);
* ``best``: ``paranoid`` on two-player maps, ``brs`` on maps of three or more players
  (:data:`.ai.search.BRS_FROM_PLAYERS`: Schadd and Winands found BRS ahead of paranoid and max^n in
  multi-player Rolit, a Reversi for up to four; our own matches, in docs/reversixt.md, were
  inconclusive at equal node budgets, and BRS searches more nodes per second), there with override
  moves at every ply and no late move reductions (against a mixed field on the multi-player
  competition maps these took more first places than ``best_v1``'s pruning, which searches deeper),
  and from four players on measuring its value against the strongest other player
  (:data:`.ai.search.MULTI_OPTIONS`, :data:`.ai.search.LEADER_FROM_PLAYERS`); over the map-reading
  evaluation (:func:`.fast.evaluate.map_value`: stability, frontier, potential mobility, stones next
  to an empty corner, bonus fields within reach, weighted by how full the board is) and with time
  management on an account that carries over (:mod:`.timing`);
* ``best_v1``: ``best`` as it was before the map-reading evaluation and the time management (the
  full evaluation, each deadline spent whole; from three players on :data:`.ai.search.V1_MULTI_OPTIONS`,
  override moves only at the first two plies and late move reductions), kept to measure against.

``mcts`` is of another style (:class:`.ai.mcts.MctsBot`): UCT with random playouts on the fast kernels
(:mod:`.fast.mcts`).

With two players both evaluations have a swap term (:func:`.fast.evaluate.swap_term`): while a
choice or inversion field is empty, who can reach more of them expects the larger colour.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gridarena.core.types import Game
from gridarena.games.reversixt.ai.mcts import MctsBot
from gridarena.games.reversixt.ai.search import (
    BRS_FROM_PLAYERS,
    LEADER_FROM_PLAYERS,
    MARGIN,
    MULTI_OPTIONS,
    V1_MULTI_OPTIONS,
    SearchBot,
    parse_weights,
    rank_ref,
)


def make_trivial_bot(game: Game[Any], seed: int | None = None, margin: float = MARGIN) -> SearchBot:
    """ai_trivial's model: own stones minus the strongest opponent's, alpha-beta, move sorting, deepening."""
    return SearchBot("trivial", "paranoid", "trivial", seed, margin, eliminate=False)


def _strong_factory(
    name: str,
    mode: str,
    doc: str,
    evaluation: str = "strong",
    pacing: bool = False,
    multi: dict[str, int] = MULTI_OPTIONS,
    multi_from: int = LEADER_FROM_PLAYERS,
) -> Callable[..., SearchBot]:
    """The factory of a search bot; its algorithm is ``mode``, its evaluation ``evaluation``, and
    ``multi`` the search options of the mode ``best`` from ``multi_from`` players on.

    Its options: ``override_plies``: below this ply, override moves only for a player without
    another move; ``swap``: the swap term's weight in quarters (two players; 0 turns it off);
    ``lmr``, ``lmr2``: late move reductions by one ply from this move index on, by two from
    ``lmr2`` on (0: none); ``pacing``: time management on an account that carries over
    (:mod:`.timing`; 0 spends each deadline whole); ``weights``: the map-reading evaluation's
    weights to change, ``"stable=48/24,frontier=0/0"`` (term=early/late, :func:`.ai.search.parse_weights`).
    ``ref``: whom the searcher's value is measured against, ``neighbours`` (the players just above and
    below him), ``leader`` (the strongest other) or ``field`` (the others' mean); ``static``: 1 evaluates
    the leaves of paranoid and max^n search without the mover's mobility (faster, deeper);
    ``evaluation``: ``map`` (the map-reading evaluation) or ``strong`` (the full one); ``apart``: in
    phase 1 the search passes over the players with no stone within this many steps of the searcher's
    group, and measures him against the others (:meth:`.fast.engine.Engine.apart_from`; 0: never);
    ``survive``: 1 values a line where the searcher has no stone left (three or more players) as a
    game he ends last (:data:`.fast.layout.SURVIVE`; 0: by his gap to the reference).
    ``search`` (``best`` and ``best_v1`` only): ``paranoid``, ``brs`` or ``maxn`` instead of the
    map's choice. ``None`` keeps the algorithm's default."""

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
        ref: str | None = None,
        static: int | None = None,
        evaluation: str | None = None,
        apart: int | None = None,
        survive: int | None = None,
    ) -> SearchBot:
        return _build(
            name, mode, evaluation or default_evaluation, seed, margin,
            pacing if pacing is not None else int(default_pacing),
            None, override_plies, swap, lmr, lmr2, weights, swap_whole, ref, static, apart, survive, multi, multi_from,
        )  # fmt: skip

    def make_chosen(
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
        ref: str | None = None,
        static: int | None = None,
        evaluation: str | None = None,
        apart: int | None = None,
        survive: int | None = None,
        search: str | None = None,
    ) -> SearchBot:
        return _build(
            name, mode, evaluation or default_evaluation, seed, margin,
            pacing if pacing is not None else int(default_pacing),
            search, override_plies, swap, lmr, lmr2, weights, swap_whole, ref, static, apart, survive, multi, multi_from,
        )  # fmt: skip

    default_pacing, default_evaluation = pacing, evaluation
    factory = make_chosen if mode == "best" else make
    factory.__name__ = factory.__qualname__ = f"make_{name}_bot"
    factory.__doc__ = doc + "\n\n" + (_strong_factory.__doc__ or "").split("\n\n", 1)[1]
    return factory


def _build(
    name: str,
    mode: str,
    evaluation: str,
    seed: int | None,
    margin: float,
    pacing: int,
    search: str | None,
    override_plies: int | None,
    swap: int | None,
    lmr: int | None,
    lmr2: int | None,
    weights: str | None,
    swap_whole: int | None,
    ref: str | None,
    static: int | None,
    apart: int | None,
    survive: int | None,
    multi: dict[str, int],
    multi_from: int,
) -> SearchBot:
    """One :class:`.ai.search.SearchBot` of the declared parameters (None: the algorithm's default)."""
    terms = parse_weights(weights) if weights else None
    reference = None if ref is None else rank_ref(ref)
    return SearchBot(
        name, mode, evaluation, seed, margin, pacing=bool(pacing), search=search,
        override_plies=override_plies, swap_weight=swap, lmr=lmr, lmr2=lmr2, weights=terms, swap_whole=swap_whole,
        rank_ref=reference, static_leaves=static, apart=apart, survive=survive, multi=multi, multi_from=multi_from,
    )  # fmt: skip


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
    "Our strongest: paranoid with two players, BRS with more (:data:`.ai.search.BRS_FROM_PLAYERS`)\n"
    "with :data:`.ai.search.MULTI_OPTIONS` there, over the map-reading evaluation\n"
    "(:func:`.fast.evaluate.map_value`), with time management; each option given here overrides the default.",
    evaluation="map",
    pacing=True,
)
make_best_v1_bot = _strong_factory(
    "best_v1",
    "best",
    "The previous ``best`` (before time management and the map-reading evaluation), kept to measure\n"
    "against: it spends each move's deadline whole, and from three players on searches with\n"
    ":data:`.ai.search.V1_MULTI_OPTIONS` (override moves only at the first two plies, late move reductions).",
    multi=V1_MULTI_OPTIONS,
    multi_from=BRS_FROM_PLAYERS,
)


def make_mcts_bot(game: Game[Any], seed: int | None = None, margin: float = MARGIN) -> MctsBot:
    """UCT with random playouts on the fast kernels (another style than the alpha-beta bots)."""
    return MctsBot(seed, margin)
