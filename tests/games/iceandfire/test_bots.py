"""Ice and Fire's bots: the Wood bosses do what their ``Boss.py3`` does, the bots' board agrees with the
referee, our bots never send a command the referee skips, and the tactics find finishers and stop them."""

from __future__ import annotations

import random

import pytest

from gridarena.core.clock import TimeControl
from gridarena.core.play import play_game
from gridarena.core.registry import make, make_bot
from gridarena.games.iceandfire.ai.best import BestBot
from gridarena.games.iceandfire.ai.board import ME, OPP, board_from_input, parse_init
from gridarena.games.iceandfire.ai.tactics import chain_search, finisher, hq_chain_cost
from gridarena.games.iceandfire.bots import STANDALONE
from gridarena.games.iceandfire.formats import TurnInput
from gridarena.games.iceandfire.geometry import CELLS
from gridarena.games.iceandfire.geometry import cell_of as cell
from gridarena.games.iceandfire.positions import state_from_rows
from gridarena.games.iceandfire.rules import IceAndFire, IceAndFireState

GAME = make("iceandfire")
OPEN = ["." * 12] * 12


def answer(name: str, state: IceAndFireState, bot: object = None) -> str:
    """The bot's line for the player to move (a fresh bot unless one is given)."""
    if bot is None:
        bot = make_bot(GAME, name)
        bot.reset(GAME, state.current_player(), 0)  # type: ignore[attr-defined]
    return str(bot.act(state, TimeControl()).action)  # type: ignore[attr-defined]


def rows_with(marks: dict[tuple[int, int], str]) -> list[str]:
    grid = [list(row) for row in OPEN]
    for (x, y), ch in marks.items():
        grid[y][x] = ch
    return ["".join(r) for r in grid]


# -- the Wood bosses -------------------------------------------------------------------------------


def test_wood3_trains_at_its_spawn_cell_for_each_colour() -> None:
    state = GAME.new_initial_state(1)
    assert answer("wood3", state) == "WAIT;TRAIN 1 1 0"
    blue = state.apply_action(state.string_to_action("WAIT"))
    assert answer("wood3", blue) == "WAIT;TRAIN 1 10 11"


def test_wood3_moves_its_unit_diagonally_with_random_seeded_0() -> None:
    state = state_from_rows(rows_with({(0, 0): "R", (1, 0): "R", (11, 11): "B"}), units=[(1, 0, 1, 1, 0)])
    rng = random.Random(0)
    dx, dy = rng.choice([1, -1]), rng.choice([1, -1])
    expected = f"WAIT;MOVE 1 {min(11, max(0, 1 + dx))} {min(11, max(0, dy))}"
    assert answer("wood3", state) == expected  # a unit: no train, whatever the gold


def test_wood2_marches_its_first_unit_and_trains_level_2_when_rich() -> None:
    units = [(1, 0, 1, 1, 0), (2, 0, 1, 0, 1)]
    marks = {(0, 0): "R", (1, 0): "R", (0, 1): "R", (1, 1): "R", (2, 0): "R", (11, 11): "B"}
    state = state_from_rows(rows_with(marks), units=units, gold=(40, 20))
    line = answer("wood2", state)
    rng = random.Random(0)
    dx, dy = rng.choice([1, -1]), rng.choice([1, -1])
    second = f"MOVE 2 {max(0, dx)} {1 + dy}"
    income = state.income[0]
    train = "TRAIN 2 0 1" if income >= 4 else "TRAIN 1 1 0"
    assert line == f"WAIT;MOVE 1 11 11;{second};{train}"


def test_wood1_builds_on_the_first_own_spot_and_scans_from_the_far_corner() -> None:
    marks = {(0, 0): "R", (1, 0): "R", (2, 0): "R", (0, 1): "R", (11, 11): "B"}
    state = state_from_rows(rows_with(marks), spots=[(1, 0), (10, 11), (2, 0), (9, 11)], gold=(50, 20))
    line = answer("wood1", state).split(";")
    # No unit: no move. Gold 50 >= 20: a mine on (1, 0), the first own spot in input order; gold 30.
    # The boss does not mark the mine's cell occupied, so it still trains at its spawn (1, 0) (the
    # referee refuses that one), without paying for it. Red scans rows 11 -> 0 and columns 11 -> 0:
    # (0, 1) on row 1, then (2, 0) on row 0, each while gold >= 20 (30 -> 20 -> 10).
    assert line == ["WAIT", "BUILD MINE 1 0", "TRAIN 1 1 0", "TRAIN 1 0 1", "TRAIN 1 2 0"]


# -- the bots' board against the referee -------------------------------------------------------------


def positions(count: int, seed: int, game: IceAndFire | None = None) -> list[IceAndFireState]:
    game = game or IceAndFire()
    rng = random.Random(seed)
    found: list[IceAndFireState] = []
    while len(found) < count:
        state = game.new_initial_state(rng.getrandbits(62))
        bots = [make_bot(game, "postmortem"), make_bot(game, "wood1")]
        for seat, bot in enumerate(bots):
            bot.reset(game, seat, 0)
        for _ in range(rng.randrange(6, 50)):
            if state.is_terminal():
                break
            line = answer("", state, bots[state.current_player()])
            state = state.apply_action(state.string_to_action(line))
        if not state.is_terminal():
            found.append(state)
    return found


def board_of(state: IceAndFireState):  # type: ignore[no-untyped-def]
    player = state.current_player()
    spots = parse_init(state.codingame_init(player).splitlines())
    shown = TurnInput.parse(state.codingame_turn(player).splitlines())
    return board_from_input(shown, spots, rules=state.rules, league=state.league)


LEAGUES = [IceAndFire(), IceAndFire(league="wood3"), IceAndFire("multi", "wood1")]


@pytest.mark.parametrize("game", LEAGUES, ids=lambda g: f"{g.rules}-{g.league}")
def test_the_board_agrees_with_the_referee_on_who_may_enter_which_cell(game: IceAndFire) -> None:
    for state in positions(6, 1, game):
        board = board_of(state)
        me = state.current_player()
        for c in range(CELLS):
            if board.info.void[c]:
                continue
            for rel, absolute in ((ME, me), (OPP, 1 - me)):
                assert board.playable(c, rel) == state.playable(c, absolute), (c, rel)
                for level in range(1, state.max_level + 1):
                    assert board.capturable(c, rel, level) == state.capturable(c, absolute, level), (
                        c,
                        rel,
                        level,
                    )


def test_the_board_steps_units_as_the_referee_does() -> None:
    rng = random.Random(5)
    for state in positions(6, 2):
        board = board_of(state)
        me = state.current_player()
        for unit in [u for u in state.units if u.owner == me]:
            target = rng.choice([c for c in range(CELLS) if not board.info.void[c]])
            predicted = board.copy().move(unit.cell, target)
            x, y = target % 12, target // 12
            after = state.apply_action(state.string_to_action(f"MOVE {unit.id} {x} {y}"))
            moved = [u for u in after.units if u.id == unit.id]
            if after.is_terminal():
                continue
            where = moved[0].cell if moved else None
            assert (where if predicted >= 0 else unit.cell) == (predicted if predicted >= 0 else where)


def play_checked(
    game: IceAndFire, names: tuple[str, str], checked: set[int], seeds: tuple[int, ...] = (3, 4)
) -> None:
    """Play ``names`` on ``seeds``; after every turn of a seat in ``checked``, no command was skipped."""
    for seed in seeds:
        state = game.new_initial_state(seed)
        bots = [make_bot(game, name) for name in names]
        for seat, bot in enumerate(bots):
            bot.reset(game, seat, seed)
        while not state.is_terminal():
            player = state.current_player()
            line = answer("", state, bots[player])
            state = state.apply_action(state.string_to_action(line))
            if player in checked:
                assert not [entry for entry in state.log if "ignored" in entry], (seed, line, state.log)


@pytest.mark.parametrize("pair", [("postmortem", "best"), ("best", "wood1"), ("wood2", "postmortem")])
def test_our_bots_send_only_commands_the_referee_executes(pair: tuple[str, str]) -> None:
    play_checked(GAME, pair, {seat for seat, name in enumerate(pair) if name in ("postmortem", "best")})


@pytest.mark.parametrize("game", LEAGUES[1:], ids=lambda g: f"{g.rules}-{g.league}")
def test_our_bots_know_the_league(game: IceAndFire) -> None:
    """No building in Wood 3 and Wood 2, no tower in the multiplayer Wood 1, level 1 at most in
    Wood 3: our bots read the league from the game and send nothing the referee skips there."""
    play_checked(game, ("best", "postmortem"), {0, 1})


def test_in_wood3_level_1_kills_level_1_for_the_referee_and_the_bots() -> None:
    """The capture rule: a unit may enter a cell holding a unit of its level or higher only at the top
    level (``MAX_LEVEL``), which is 1 in Wood 3. So in Wood 3 a level-1 unit kills a level-1 unit;
    in Bronze it takes level 2."""
    marks = {(0, 0): "R", (1, 0): "R"} | {(x, 0): "B" for x in range(2, 12)}
    marks |= {(11, y): "B" for y in range(12)}
    units = [(1, 0, 1, 1, 0), (2, 1, 1, 2, 0)]
    for league, needed in (("wood3", 1), ("bronze", 2)):
        state = state_from_rows(rows_with(marks), game=IceAndFire(league=league), units=units, gold=(50, 0))
        board = board_of(state)
        assert [state.capturable(cell(2, 0), 0, lv) for lv in range(1, state.max_level + 1)] == [
            lv >= needed for lv in range(1, state.max_level + 1)
        ]
        assert board.min_level(cell(2, 0), ME) == needed == board.min_levels(ME)[cell(2, 0)]
        assert chain_search(board, ME, 50).cost[cell(2, 0)] == (0 if league == "wood3" else 20)  # a move
        after = state.apply_action(state.string_to_action("MOVE 1 2 0"))
        assert [u.id for u in after.units] == ([1] if league == "wood3" else [1, 2]), after.log


def test_every_bot_finishes_games_without_a_forfeit() -> None:
    names = ["best", "postmortem", "wood1", "wood2", "wood3", "random"]
    for k, name in enumerate(names):
        other = names[(k + 1) % len(names)]
        record = play_game(GAME, [make_bot(GAME, name), make_bot(GAME, other)], seed=k)
        assert record.outcome.termination == "normal", record.outcome.reason


# -- tactics --------------------------------------------------------------------------------------------


def test_a_finisher_takes_the_hq_when_the_gold_pays_the_chain() -> None:
    # Red owns a corridor to (8, 11); blue's HQ is 3 cells away: (9, 11), (10, 11), then the HQ.
    marks = {(x, 11): "R" for x in range(0, 9)} | {(0, y): "R" for y in range(0, 12)} | {(11, 11): "B"}
    state = state_from_rows(rows_with(marks), gold=(30, 20))
    board = board_of(state)
    plan = finisher(board, ME, board.gold[ME])
    assert plan is not None and plan.commands == ["TRAIN 1 9 11", "TRAIN 1 10 11", "TRAIN 1 11 11"]
    assert answer("best", state) == "TRAIN 1 9 11;TRAIN 1 10 11;TRAIN 1 11 11"
    poorer = board.copy()
    poorer.gold[ME] = 29
    assert finisher(poorer, ME, 29) is None


def test_the_chain_search_prices_levels_and_a_free_first_move() -> None:
    marks = {(0, 0): "R", (1, 0): "R", (2, 0): "B", (11, 11): "B"}
    state = state_from_rows(rows_with(marks), units=[(1, 0, 1, 1, 0), (2, 1, 1, 2, 0)])
    board = board_of(state)
    chains = chain_search(board, ME, 200)
    assert chains.cost[cell(1, 1)] == 0  # the unit on (1, 0) steps there for free
    assert chains.cost[cell(2, 0)] == 20  # a level-1 enemy unit needs level 2
    assert chains.cost[cell(2, 1)] == 10  # one train after the free move
    assert chains.cost[cell(3, 0)] == 30  # through the enemy unit (20) or around it (10 + 10 + 10)


def test_best_stops_a_finisher_it_can_stop() -> None:
    # Blue's unit on (2, 1) could walk to (1, 1)... red answers with a tower or a unit that makes the
    # HQ chain dearer than blue's gold.
    marks = {(0, 0): "R", (1, 0): "R", (0, 1): "R", (1, 1): "R", (2, 1): "B", (11, 11): "B"}
    marks |= {(x, 1): "B" for x in range(3, 12)} | {(11, y): "B" for y in range(1, 12)}
    state = state_from_rows(rows_with(marks), units=[(1, 1, 1, 2, 1)], gold=(40, 20))
    board = board_of(state)
    budget = BestBot().opponent_budget(board)
    assert hq_chain_cost(board, OPP, budget) <= budget
    line = answer("best", state)
    after = state.apply_action(state.string_to_action(line))
    reply = board_of(after)  # blue to move: blue's view
    assert hq_chain_cost(reply, ME, reply.gold[ME]) > reply.gold[ME], line


def test_standalone_table_names_registered_bots() -> None:
    from gridarena.core.registry import available_bots

    assert set(STANDALONE) <= set(available_bots("iceandfire"))
