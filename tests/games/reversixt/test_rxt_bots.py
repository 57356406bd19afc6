"""ReversiXT's bots and the search kernels: values against a plain minimax over the clear rules, limits, registry.

The kernels' alpha-beta with its table and move ordering must return the plain minimax value of
the same tree (paranoid: R maximises, every opponent minimises) over ai_trivial's evaluation;
in the bomb phase with radius 0, where one target per player stands for all, the value must equal
the minimax over every field.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from gridarena.core.clock import TimeControl
from gridarena.core.registry import make, make_bot
from gridarena.games.reversixt.fast.engine import Engine, field_weights
from gridarena.games.reversixt.fast.evaluate import WIN_STEP
from gridarena.games.reversixt.formats import parse_map
from gridarena.games.reversixt.rules import ReversiState, ReversiXT


def stones(state: ReversiState, k: int) -> int:
    return state.cells.count(k)


def terminal_ref(state: ReversiState, r: int) -> int:
    p = state.game.num_players
    mine = stones(state, r)
    others = [stones(state, k) for k in range(1, p + 1) if k != r]
    steps = sum(1 for s in others if s < mine) - sum(1 for s in others if s > mine)
    return steps * WIN_STEP + mine - max(others)


def minimax_ref(state: ReversiState, depth: int, r: int) -> int:
    """Paranoid minimax over the clear rules with ai_trivial's evaluation (the kernels' semantics)."""
    if state.is_terminal():
        return terminal_ref(state, r)
    if depth == 0:
        p = state.game.num_players
        return stones(state, r) - max(stones(state, k) for k in range(1, p + 1) if k != r)
    values = [minimax_ref(state.child(a), depth - 1, r) for a in state.legal_actions()]
    return max(values) if state.mover == r else min(values)


def trivial_engine(game: ReversiXT, mode: str = "paranoid") -> Engine:
    return Engine(game.board, mode=mode, evaluation="trivial", tt_bits=12, eliminate=False)


@pytest.mark.parametrize("name, depth", [("othello8", 4), ("sampler", 3)])
def test_paranoid_value_equals_minimax(name: str, depth: int) -> None:
    game = ReversiXT(name)
    state = game.new_initial_state()
    result = trivial_engine(game).search(state, max_depth=depth)
    assert result.depth == depth
    assert result.score == minimax_ref(state, depth, state.mover)


def test_brs_with_two_players_is_alpha_beta() -> None:
    game = ReversiXT("othello8")
    state = game.new_initial_state()
    paranoid = trivial_engine(game).search(state, max_depth=5)
    brs = trivial_engine(game, "brs").search(state, max_depth=5)
    assert (brs.score, brs.depth) == (paranoid.score, paranoid.depth)


BOMBING_ONLY = """2 0 2 0 3 4
1 - 2 -
- 0 - 1
2 x 1 2
"""


def test_bomb_phase_search_equals_minimax_over_every_field() -> None:
    """Radius 0: one target per player (and one other field) gives the value of all targets."""
    game = ReversiXT.from_map(parse_map(BOMBING_ONLY))
    state = game.new_initial_state()
    assert state.phase == 2
    result = trivial_engine(game).search(state, max_depth=4)
    assert result.score == minimax_ref(state, 4, state.mover)
    assert state.illegal_reason(state.string_to_action(",".join(map(str, result.move)))) is None


def test_elimination_rule_ignores_players_out_of_reach() -> None:
    text = "3 0 1 0 2 6\n1 1 1 1 1 1\n1 1 2 - 3 -\n"  # no empty field: bombs at once
    game = ReversiXT.from_map(parse_map(text))
    state = game.new_initial_state()
    engine = Engine(game.board)
    engine.board.load(state)
    engine.board.mover()
    ignored = engine.out_of_reach(2)
    # player 1 leads player 2 by 7 stones; 3 bombs of radius 0 cannot close it; player 3 is 0 away
    assert ignored[1] == 1 and ignored[3] == 0


def test_field_weights_prefer_corners() -> None:
    game = ReversiXT("othello8")
    engine = Engine(game.board)
    weights = field_weights(game.board, engine.board.geo[2])
    assert weights[0] > weights[3] > weights[9]  # a1 corner, an edge, the field diagonal to the corner


@pytest.mark.parametrize("bot", ["trivial", "paranoid", "brs", "best"])
@pytest.mark.parametrize("name", ["othello8", "sampler"])
def test_bots_answer_legal_moves_within_the_depth_limit(bot: str, name: str) -> None:
    game = make(f"reversixt(map={name})")
    player = make_bot(game, bot)
    player.reset(game, 0, 1)
    state = game.new_initial_state()
    for _ in range(6):
        if state.is_terminal():
            break
        decision = player.act(state, TimeControl(depth=3))
        assert state.illegal_reason(decision.action) is None
        assert 1 <= decision.info["depth"] <= 3
        state = state.apply_action(decision.action)


def test_node_budget_makes_the_search_repeatable() -> None:
    game = ReversiXT("sampler")
    state = game.new_initial_state()
    first = Engine(game.board, mode="brs").search(state, nodes=3000)
    second = Engine(game.board, mode="brs").search(state, nodes=3000)
    assert (first.move, first.depth, first.score) == (second.move, second.depth, second.score)


def test_a_deadline_stops_the_search() -> None:
    import time

    game = ReversiXT("othello8")
    start = time.perf_counter()
    result = Engine(game.board).search(game.new_initial_state(), deadline=start + 0.2)
    assert result.move is not None and math.isfinite(result.score)
    assert time.perf_counter() - start < 1.0


# The swap term (two players, choice and inversion fields still empty): player 1 can take the choice
# field (flanking player 2's stone), player 2 cannot, and player 2 leads by two stones.
SWAP_MAP = """2 0 0 0 3 4
1 2 c 0
2 2 0 0
0 0 0 0
"""


def test_swap_term_gives_the_larger_colour_to_who_can_reach_more_swap_fields() -> None:
    from gridarena.games.reversixt.fast import evaluate, layout

    game = ReversiXT.from_map(parse_map(SWAP_MAP))
    engine = Engine(game.board)
    b = engine.board
    b.load(game.new_initial_state())
    ws = 8 + ((1024 * 4 // 12) * 56) // 1024  # the stone weight at 4 stones on 12 fields
    for r, d, ctrl in ((1, -2, 1), (2, 2, -1)):
        term = evaluate.swap_term(b.cells, b.geo, b.st, r, engine.swaps, engine.ctl)
        assert term == ws * (ctrl * abs(d) - d)  # the stone difference d replaced by ctrl * |d|
    engine.ctl[layout.W_SWAP] = 2  # half way
    assert evaluate.swap_term(b.cells, b.geo, b.st, 1, engine.swaps, engine.ctl) == ws * 4 // 2


def test_swap_term_is_zero_without_swap_fields_and_beyond_two_players() -> None:
    """On a map without choice or inversion fields the search is the one without the term."""
    game = ReversiXT("othello8")
    state = game.new_initial_state()
    with_term = Engine(game.board).search(state, max_depth=5)
    without = Engine(game.board, swap_weight=0).search(state, max_depth=5)
    assert (with_term.move, with_term.score, with_term.nodes) == (without.move, without.score, without.nodes)
    three = ReversiXT("sampler")
    assert three.num_players >= 3
    s3 = three.new_initial_state()
    a = Engine(three.board, mode="brs").search(s3, max_depth=4)
    b = Engine(three.board, mode="brs", swap_weight=0).search(s3, max_depth=4)
    assert (a.move, a.score, a.nodes) == (b.move, b.score, b.nodes)


def test_late_move_reductions_start_at_depth_three_and_save_nodes() -> None:
    game = ReversiXT("sampler")
    state = game.new_initial_state()
    for depth in (1, 2):
        plain = Engine(game.board, mode="brs").search(state, max_depth=depth)
        reduced = Engine(game.board, mode="brs", lmr=2, lmr2=6).search(state, max_depth=depth)
        assert (plain.move, plain.score, plain.nodes) == (reduced.move, reduced.score, reduced.nodes)
    plain = Engine(game.board, mode="brs").search(state, max_depth=7)
    reduced = Engine(game.board, mode="brs", lmr=2, lmr2=6).search(state, max_depth=7)
    assert reduced.depth == 7 and reduced.nodes < plain.nodes
    assert (
        reduced.move is not None
        and state.illegal_reason(state.string_to_action(",".join(map(str, reduced.move)))) is None
    )


def test_best_and_best_v1_take_their_multi_player_options(tmp_path: Path) -> None:
    """``best`` searches BRS from three players on with override moves at every ply and no late move
    reductions, against the rank neighbours with three players and against the leader from four on
    (MULTI_OPTIONS from LEADER_FROM_PLAYERS); ``best_v1`` keeps its pruning (V1_MULTI_OPTIONS) and the
    rank neighbours from three players on."""
    from gridarena.games.reversixt.ai.search import LEADER_FROM_PLAYERS, MULTI_OPTIONS, V1_MULTI_OPTIONS
    from gridarena.games.reversixt.fast import layout
    from gridarena.games.reversixt.fast.engine import Engine

    assert MULTI_OPTIONS == {"rank_ref": layout.LEADER} and LEADER_FROM_PLAYERS == 4
    assert V1_MULTI_OPTIONS["lmr"] > 0
    four = tmp_path / "four.map"
    four.write_text("4\n0\n0 0\n4 4\n1 2 3 4\n2 1 4 3\n0 0 0 0\n0 0 0 0\n")
    for name, players in (("othello8", 2), ("sampler", 3), (str(four), 4)):
        game = make(f"reversixt(map={name!r})")
        assert game.num_players == players
        plain = Engine(game.board).ctl
        best = make_bot(game, "best").engine(game.board).ctl  # type: ignore[attr-defined]
        v1 = make_bot(game, "best_v1").engine(game.board).ctl  # type: ignore[attr-defined]
        for ctl in (best, v1):
            assert (int(ctl[layout.MODE]) == layout.BRS) == (players >= 3)
        assert int(best[layout.LMR]) == 0 and int(best[layout.LMR2]) == 0
        assert int(best[layout.OVERRIDE_PLIES]) == int(plain[layout.OVERRIDE_PLIES])
        assert int(best[layout.RANK_REF]) == (layout.LEADER if players >= 4 else layout.NEIGHBOURS)
        assert int(v1[layout.RANK_REF]) == layout.NEIGHBOURS
        assert int(v1[layout.LMR]) == (V1_MULTI_OPTIONS["lmr"] if players >= 3 else 0)
        assert (int(v1[layout.OVERRIDE_PLIES]) == V1_MULTI_OPTIONS["override_plies"]) == (players >= 3)
    game = make(f"reversixt(map={str(four)!r})")
    on = make_bot(game, "best(lmr=3,override_plies=2,ref=neighbours)")
    ctl = on.engine(game.board).ctl  # type: ignore[attr-defined]
    assert int(ctl[layout.LMR]) == 3 and int(ctl[layout.OVERRIDE_PLIES]) == 2
    assert int(ctl[layout.RANK_REF]) == layout.NEIGHBOURS


def test_rank_reference_measures_the_searcher_against_neighbours_leader_or_field() -> None:
    """``best(ref=...)``: R's value minus the mean of his rank neighbours (the default), minus the
    strongest other player's, or minus the others' mean."""
    import random

    from gridarena.games.reversixt.ai.search import RANK_REFS
    from gridarena.games.reversixt.fast import evaluate, layout

    game = ReversiXT("sampler")
    state, rng = game.new_initial_state(), random.Random(3)
    for _ in range(12):
        state = state.child(rng.choice(state.legal_actions()))
    engine = Engine(game.board, evaluation="strong")
    b, ctl = engine.board, engine.ctl
    b.load(state)
    assert b.st[layout.PHASE] == 1
    total = sum(int(b.st[layout.COUNT + k]) for k in (1, 2, 3))
    fill = (1024 * total) // int(b.st[layout.NONHOLE])
    ws = 8 + (fill * 56) // 1024
    value = {k: int(evaluate._player_value(b.st, k, ws, fill, ctl, b.st, -1)) for k in (1, 2, 3)}
    assert len(set(value.values())) == 3
    middle = sorted(value, key=value.__getitem__)[1]
    others = [value[k] for k in value if k != middle]
    for name, ref in (("neighbours", sum(others) // 2), ("leader", max(others)), ("field", sum(others) // 2)):
        ctl[layout.RANK_REF] = RANK_REFS[name]
        assert evaluate.strong_value(b.st, middle, 0, 0, ctl) == value[middle] - ref
    top = max(value, key=value.__getitem__)
    second = sorted(value.values())[1]
    for name in RANK_REFS:
        ctl[layout.RANK_REF] = RANK_REFS[name]
        expected = {"neighbours": second, "leader": second, "field": (sum(value.values()) - value[top]) // 2}[
            name
        ]
        assert evaluate.strong_value(b.st, top, 0, 0, ctl) == value[top] - expected
    with pytest.raises(Exception, match="ref must be one of"):
        make_bot(make("reversixt(map=sampler)"), "best(ref=nobody)")


@pytest.mark.parametrize("mode", ["paranoid", "maxn"])
def test_static_leaves_drop_the_movers_mobility(mode: str) -> None:
    """``best(static=1)``: a leaf is the evaluation without the mover's moves, so at depth 1 the value
    is the best child's static value; with mobility (the default) it is another."""
    from gridarena.games.reversixt.fast import evaluate

    game = ReversiXT("sampler")
    state = game.new_initial_state()
    r = state.mover
    static = Engine(game.board, mode=mode, evaluation="map", static_leaves=1)
    result = static.search(state, max_depth=1)
    b, e = static.board, static
    values = []
    for action in state.legal_actions():
        b.load(state.child(action))
        values.append(
            int(evaluate.leaf_value(b.cells, b.geo, b.st, r, 0, 0, e.ctl, e.swaps, e.ev, b.buf, b.marks))
        )
    assert result.score == max(values)
    mobile = Engine(game.board, mode=mode, evaluation="map").search(state, max_depth=1)
    assert mobile.score != result.score


def test_the_catalogue_declares_the_searches_and_references_the_bots_take() -> None:
    """``search`` and ``ref`` are declared with the words :class:`.ai.search.SearchBot` knows, ``search``
    only on the bots that choose their search by the map (``paranoid(search=maxn)`` would do nothing)."""
    from gridarena.core.params import Choice
    from gridarena.games.reversixt.ai.search import RANK_REFS, SEARCHES
    from gridarena.games.reversixt.catalogue import BOTS

    for name in ("best", "best_v1"):
        search = BOTS[name].params["search"]
        assert isinstance(search, Choice) and search.options == SEARCHES
    for name in ("paranoid", "brs", "best", "best_v1"):
        ref = BOTS[name].params["ref"]
        assert isinstance(ref, Choice) and ref.options == tuple(RANK_REFS)
        assert not ref.reaches and not BOTS[name].params["static"].reaches
    assert "search" not in BOTS["paranoid"].params and "search" not in BOTS["brs"].params
    game = make("reversixt(map=sampler)")
    from gridarena.games.reversixt.fast import layout

    for search, mode in (("maxn", layout.MAXN), ("paranoid", layout.PARANOID), ("brs", layout.BRS)):
        bot = make_bot(game, f"best(search={search},ref=leader,static=1)")
        ctl = bot.engine(game.board).ctl  # type: ignore[attr-defined]
        assert int(ctl[layout.MODE]) == mode
        assert int(ctl[layout.RANK_REF]) == RANK_REFS["leader"] and int(ctl[layout.STATIC_LEAVES]) == 1
    with pytest.raises(Exception, match="search"):
        make_bot(game, "paranoid(search=maxn)")
    with pytest.raises(Exception, match="search"):
        make_bot(game, "best(search=expectimax)")
