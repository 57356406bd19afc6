"""The speed-ups of ``best``'s searches change no answer: the incremental activity, the one-pass
minimum levels, the bucket-queue chain search, the chain scores from the touched cells and the
per-position search cache each equal their plain version on positions from real games, and ``best``
plays the turns it played before them. Its hard time limit ends a turn early with legal commands."""

from __future__ import annotations

import json
import random
from pathlib import Path

from gridarena.core.clock import TimeControl
from gridarena.core.gameclock import game_clock
from gridarena.core.play import play_game
from gridarena.core.registry import make, make_bot
from gridarena.games.iceandfire.ai.best import BestBot
from gridarena.games.iceandfire.ai.board import ME, OPP, Board
from gridarena.games.iceandfire.ai.tactics import (
    INF,
    best_cut,
    chain_search,
    chain_search_reference,
    chain_steps,
    play_chain,
    summary,
    summary_after,
)
from gridarena.games.iceandfire.geometry import CELLS

from .test_bots import board_of, positions

GAME = make("iceandfire")
GOLDEN = Path(__file__).with_name("best_turns_9811b53.json")


def flooded(board: Board) -> bytearray:
    fresh = board.copy()
    fresh.recompute_activity()
    return fresh.active


def test_fast_searches_equal_their_plain_versions_on_game_positions() -> None:
    rng = random.Random(14)
    chains_checked = floods_skipped = 0
    for state in positions(12, seed=14):
        board = board_of(state)
        assert board.active == flooded(board)
        for step in range(12):
            player = rng.choice((ME, OPP))
            assert board.min_levels(player) == [
                0
                if board.info.void[i] or (board.owner[i] == player and board.active[i])
                else board.min_level(i, player)
                for i in range(CELLS)
            ]
            budget = rng.choice((10, 30, 60, 200))
            everyone = rng.random() < 0.5
            chains = chain_search(board, player, budget, everyone)
            assert chains == chain_search_reference(board, player, budget, everyone)
            assert chain_search(board, player, budget, everyone) is chains  # cached for this position
            chains_checked += 1
            # A chain to a random reachable cell, deferred as the cut search plays it, then settled.
            targets = [i for i in range(CELLS) if 0 < chains.cost[i] < INF]
            if targets:
                base = board.copy()
                base.gold[player] = budget
                base.changed()
                after = base.copy()
                steps = chain_steps(chains, base, rng.choice(targets))
                floods = after.floods
                if play_chain(after, steps, player) is not None:
                    assert after.active == flooded(after), (step, steps)
                    floods_skipped += after.floods == floods
                    touched = {c for s in steps for c in (s[0], s[2]) if c >= 0}
                    assert summary_after(base, summary(base, player), after, player, touched) == summary(
                        after, player
                    )
                    assert chain_search(after, player, budget, everyone) == chain_search_reference(
                        after, player, budget, everyone
                    )  # the copy's change dropped the shared cache
                    board = after
            # Single commands, activity kept at once.
            cells = [i for i in range(CELLS) if not board.info.void[i]]
            i = rng.choice(cells)
            if rng.random() < 0.5:
                board.gold[player] += 30
                board.train(i, rng.choice((1, 2, 3)), player)
            else:
                units = [u for u in range(CELLS) if board.unit_level[u] and board.unit_owner[u] == player]
                if units:
                    board.move(rng.choice(units), i)
            assert board.active == flooded(board)
            assert chain_search(board, player, budget, everyone) == chain_search_reference(
                board, player, budget, everyone
            )
            if board.won is not None:
                break
    assert chains_checked >= 100 and floods_skipped > 0


def test_best_cut_and_threats_answer_as_before() -> None:
    for state in positions(6, seed=5):
        board = board_of(state)
        for player in (ME, OPP):
            plan = best_cut(board, player, 80, 5.0, limit=25, all_units_act=True)
            fresh = board.copy()
            fresh.changed()
            again = best_cut(fresh, player, 80, 5.0, limit=25, all_units_act=True)
            assert (plan is None) == (again is None)
            if plan is not None and again is not None:
                assert (plan.commands, plan.score) == (again.commands, again.score)
                # stop_above only shortens a search whose answer reaches the bound.
                early = best_cut(board, player, 80, 5.0, limit=25, all_units_act=True, stop_above=plan.score)
                assert early is not None and early.score >= plan.score


def test_best_plays_the_turns_it_played_before_the_speed_up() -> None:
    """Recorded at commit 9811b53 (before the speed-ups) with no time limit and one rollout pair by
    the full model, against the post-mortem model alone (the settings of then)."""
    golden = json.loads(GOLDEN.read_text())
    for seed in (3, 8):
        for seat in (0, 1):
            names = ["best", "postmortem"] if seat == 0 else ["postmortem", "best"]
            bots = [make_bot(GAME, n) for n in names]
            bots[seat].rollout, bots[seat].rollout_light = 1, 0  # type: ignore[attr-defined]
            bots[seat].opponent_models = ("postmortem",)  # type: ignore[attr-defined]
            bots[seat].reserve = 0  # type: ignore[attr-defined]
            bots[seat].opening = 0  # type: ignore[attr-defined]
            bots[seat].exposure_weight = 0.0  # type: ignore[attr-defined]
            bots[seat].antiraid = 0  # type: ignore[attr-defined]
            bots[seat].strike = 0  # type: ignore[attr-defined]
            record = play_game(GAME, bots, seed=seed, names=names, clock=game_clock(None, 2))
            turns = [t.action for t in record.turns if t.player == seat]
            assert turns == golden[f"seed {seed} seat {seat}"], (seed, seat)


class FakeClock:
    """Each reading advances ``step`` seconds: a turn that reads the clock often runs out of time."""

    def __init__(self, step: float) -> None:
        self.t, self.step = 0.0, step

    def __call__(self) -> float:
        self.t += self.step
        return self.t


def test_the_hard_limit_ends_a_turn_early_with_legal_commands() -> None:
    checked = 0
    for state in positions(8, seed=21):
        for step in (0.0005, 0.002, 0.02):
            bot = BestBot()
            bot.reset(GAME, state.current_player(), 0)
            clock = FakeClock(step)
            control = TimeControl(deadline=0.050, clock=clock)
            line = str(bot.act(state, control).action)
            # The searches stop at the hard limit: a few readings after it at most.
            assert clock.t <= 0.050 - BestBot.hard_margin + 6 * step + 1e-9, (step, clock.t)
            after = state.apply_action(state.string_to_action(line))
            assert not [entry for entry in after.log if "ignored" in entry], (line, after.log)
            checked += 1
    assert checked == 24


def test_a_turn_short_of_time_judges_the_variants_it_plays() -> None:
    """Each variant is judged as soon as it is played: when time runs out, at most the last one
    played goes unjudged. Played all first (``interleave=False``, as before), the turns short of
    time judged fewer of them, and some played several that none judged."""
    unjudged: dict[bool, list[int]] = {True: [], False: []}
    judged: dict[bool, int] = {True: 0, False: 0}
    for state in positions(8, seed=21):
        for step in (0.0002, 0.0005, 0.001):
            for interleave in (True, False):
                bot = BestBot()
                bot.interleave = interleave
                bot.reset(GAME, state.current_player(), 0)
                bot.act(state, TimeControl(deadline=0.050, clock=FakeClock(step)))
                unjudged[interleave].append(bot.distinct - bot.judged)
                judged[interleave] += bot.judged
    assert max(unjudged[True]) <= 1
    assert max(unjudged[False]) >= 2
    assert judged[True] > judged[False]


def test_spawning_keeps_the_reserve_once_the_territories_touch() -> None:
    kept = 0
    for state in positions(12, seed=4):
        board = board_of(state)
        bot = BestBot()
        if bot.contact(board) > 2 or board.gold[ME] < 10 + bot.reserve:
            continue
        commands: list[str] = []
        after = bot.spawn(board.copy(), commands)
        assert after.gold[ME] >= bot.reserve, (commands, after.gold[ME])
        bot.reserve = 0
        spent = bot.spawn(board.copy(), [])
        kept += spent.gold[ME] < after.gold[ME]
    assert kept > 0


def test_a_turn_asked_past_its_deadline_still_answers_legal_commands() -> None:
    """A loaded machine may hand the bot a turn whose hard limit has already passed: every search
    (the opponent models' reach included) stops at once and the turn is still a legal line."""
    for state in positions(4, seed=5):
        bot = BestBot()
        bot.reset(GAME, state.current_player(), 0)
        line = str(bot.act(state, TimeControl(deadline=0.0, clock=lambda: 1.0)).action)
        after = state.apply_action(state.string_to_action(line))
        assert not [entry for entry in after.log if "ignored" in entry], (line, after.log)
