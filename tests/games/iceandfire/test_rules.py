"""The referee, one rule family at a time (the contest and multiplayer referees), on positions drawn by hand.

Positions come from ``state_from_rows``: rows of ``#`` void, ``.`` neutral, ``R``/``B`` owned (activity
is recomputed), units as (id, owner, level, x, y), extra buildings as (owner, kind, x, y).
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gridarena import make, make_bot, play_game
from gridarena.core.bot import Decision
from gridarena.core.errors import ActionParseError, StateFormatError
from gridarena.games.iceandfire.formats import Build, Move, Train, Wait
from gridarena.games.iceandfire.geometry import (
    BLUE,
    HQ,
    HQ_CELLS,
    MINE,
    RED,
    RING,
    TOWER,
    cells_mask,
    flood,
    make_board,
    mask_indices,
    one_arc,
    simple_point,
)
from gridarena.games.iceandfire.positions import state_from_rows
from gridarena.games.iceandfire.referee import Referee
from gridarena.games.iceandfire.rules import IceAndFire, IceAndFireState


def rows(*marks: tuple[int, int, str], fill: str = ".") -> list[str]:
    """12 rows of ``fill`` with the HQ cells owned, then ``marks`` (x, y, char) written over them."""
    grid = [[fill] * 12 for _ in range(12)]
    grid[0][0], grid[11][11], grid[10][11] = "R", "B", "B"
    for x, y, ch in marks:
        grid[y][x] = ch
    return ["".join(row) for row in grid]


def line(x0: int, x1: int, y: int, ch: str) -> list[tuple[int, int, str]]:
    return [(x, y, ch) for x in range(x0, x1 + 1)]


def column(x: int, y0: int, y1: int, ch: str) -> list[tuple[int, int, str]]:
    return [(x, y, ch) for y in range(y0, y1 + 1)]


def play(state: IceAndFireState, text: str) -> IceAndFireState:
    return state.apply_action(state.string_to_action(text))


def unit_ids(state: IceAndFireState, owner: int) -> list[int]:
    return [u.id for u in state.units if u.owner == owner]


def owner_at(state: IceAndFireState, x: int, y: int) -> str:
    return state.to_json()["cells"][y][x]


# -- the start ----------------------------------------------------------------------------------


def test_initial_state_and_first_turns() -> None:
    state = IceAndFire().new_initial_state(seed=1)
    assert (state.gold, state.income, state.turn, state.player) == ((21, 20), (1, 2), 1, RED)
    assert [b.kind for b in state.buildings] == [HQ, HQ] and state.next_id == 1 and not state.units
    assert owner_at(state, 11, 10) == "B" and owner_at(state, 11, 11) == "B"
    state = play(state, "WAIT")
    assert (state.gold, state.income, state.player, state.turn) == ((21, 22), (1, 2), BLUE, 1)
    state = play(state, "WAIT")
    assert (state.gold, state.turn) == ((22, 22), 2)


def test_unit_ids_are_one_counter_for_both_players() -> None:
    state = IceAndFire().new_initial_state(seed=1)
    state = play(state, "TRAIN 1 1 0;TRAIN 1 9 9")  # the second is not playable: no id spent
    state = play(state, "TRAIN 1 10 11")
    assert [(u.id, u.owner) for u in state.units] == [(1, RED), (2, BLUE)]
    assert state.next_id == 3


# -- TRAIN: training chains -----------------------------------------------------------------------


def test_training_chains_across_enemy_ground() -> None:
    # Blue holds column 4 (joined to its HQ along row 11); red holds row 0 up to x = 3.
    cells = rows(*line(1, 3, 0, "R"), *column(4, 0, 11, "B"), *line(5, 10, 11, "B"))
    state = state_from_rows(cells, gold=(100, 0))
    assert state.active[4] and state.active[5 + 11 * 12]
    after = play(state, "TRAIN 1 5 0;TRAIN 1 4 0;TRAIN 1 5 0;TRAIN 1 6 0;TRAIN 1 7 1")
    assert after.log == (
        "TRAIN 1 5 0: ignored, (5,0) is not playable",
        "TRAIN 1 7 1: ignored, (7,1) is not playable",
    )
    assert [(u.x, u.y, u.level) for u in after.units] == [(4, 0, 1), (5, 0, 1), (6, 0, 1)]
    assert [owner_at(after, x, 0) for x in range(8)] == list("RRRRRRR.")
    assert after.gold[RED] == 70
    # Chained units cannot move in the turn they were trained, and a MOVE naming one is checked
    # against the position before the line: that unit does not exist yet.
    again = play(state, "TRAIN 1 4 0;MOVE 1 5 0")
    assert again.log == ("MOVE 1 5 0: ignored, no unit 1 alive at the start of the turn",)


def test_a_chain_to_the_enemy_hq_wins_at_once_and_drops_the_rest() -> None:
    cells = rows(*line(1, 11, 0, "R"), *column(11, 1, 8, "R"))
    state = state_from_rows(cells, gold=(100, 100))
    after = play(state, "TRAIN 1 11 9;TRAIN 1 11 10;TRAIN 1 11 11;TRAIN 1 10 0")
    assert after.is_terminal() and after.returns() == (1.0, -1.0)
    assert after.result is not None and after.result.scores == (100 - 30 + 30, -1)
    assert after.gold[RED] == 70 and len(after.units) == 3  # the fourth TRAIN never ran
    assert "captured blue's HQ" in after.outcome().reason  # type: ignore[union-attr]


# -- capture rules ------------------------------------------------------------------------------


def test_tower_protection() -> None:
    blue_land = [*column(11, 0, 9, "B"), *line(6, 10, 5, "B"), (6, 6, "B"), (6, 4, "B")]
    cells = rows(*line(1, 5, 0, "R"), *column(5, 1, 4, "R"), *blue_land)
    towers = [(BLUE, TOWER, 6, 5)]
    units = [(1, RED, 1, 5, 4), (2, RED, 2, 5, 3)]
    state = state_from_rows(cells, units=units, buildings=towers, gold=(100, 100))
    ref = Referee(state)
    c = lambda x, y: y * 12 + x  # noqa: E731
    assert ref.protected(c(6, 4)) and ref.protected(c(7, 5)) and ref.protected(c(6, 5))
    assert not ref.protected(c(8, 5)) and not ref.protected(c(5, 5))
    for level in (1, 2):
        assert not state.capturable(c(6, 4), RED, level) and not state.capturable(c(6, 5), RED, level)
    assert state.capturable(c(6, 4), RED, 3) and state.capturable(c(6, 5), RED, 3)
    after = play(state, "MOVE 1 6 4;TRAIN 2 6 3;TRAIN 1 6 4;TRAIN 3 6 4")
    assert after.log[:2] == (
        "MOVE 1 6 4: ignored, unit 1 cannot take (6,4)",
        "TRAIN 1 6 4: ignored, a level 1 unit cannot take (6,4)",
    )
    assert owner_at(after, 6, 4) == "R" and after.unit_at(c(6, 4)).level == 3  # type: ignore[union-attr]
    # Level 3 takes the tower itself, which is destroyed.
    after = play(after, "WAIT")
    after = play(after, "TRAIN 3 6 5")
    assert after.building_at(c(6, 5)) is None and owner_at(after, 6, 5) == "R"


def test_an_inactive_tower_protects_no_neighbour_but_guards_its_own_cell() -> None:
    # Blue's island (6..8, 5) is cut off from its HQ: inactive, with a tower on (7,5).
    cells = rows(*line(1, 5, 0, "R"), *column(5, 1, 5, "R"), *line(6, 8, 5, "B"))
    state = state_from_rows(cells, buildings=[(BLUE, TOWER, 7, 5)], gold=(100, 100))
    assert not state.active[5 * 12 + 6]
    assert state.capturable(5 * 12 + 6, RED, 1)
    assert not state.capturable(5 * 12 + 7, RED, 2) and state.capturable(5 * 12 + 7, RED, 3)


@pytest.mark.parametrize(
    ("attacker", "defender", "league", "takes"),
    [(1, 1, "bronze", False), (2, 1, "bronze", True), (2, 2, "bronze", False), (1, 3, "bronze", False),
     (3, 3, "bronze", True), (3, 2, "bronze", True), (1, 1, "wood3", True)],
)  # fmt: skip
def test_level_3_kills_anything_and_weaker_units_kill_less(
    attacker: int, defender: int, league: str, takes: bool
) -> None:
    cells = rows(*line(1, 5, 0, "R"), *column(6, 0, 11, "B"), *line(7, 10, 11, "B"))
    units = [(1, RED, attacker, 5, 0), (2, BLUE, defender, 6, 0)]
    state = state_from_rows(cells, units=units, game=IceAndFire(league=league), gold=(100, 100))
    after = play(state, "MOVE 1 6 0")
    assert (owner_at(after, 6, 0) == "R") == takes
    assert (unit_ids(after, BLUE) == []) == takes
    if not takes:
        assert after.log == ("MOVE 1 6 0: ignored, unit 1 cannot take (6,0)",)


def test_an_unprotected_mine_or_hq_falls_to_level_1() -> None:
    cells = rows(*line(1, 5, 0, "R"), *column(6, 0, 11, "B"), *line(7, 10, 11, "B"))
    state = state_from_rows(cells, buildings=[(BLUE, MINE, 6, 0)], spots=[(6, 0), (5, 11)])
    after = play(state, "TRAIN 1 6 0")
    assert after.building_at(6) is None and owner_at(after, 6, 0) == "R"


# -- activity: cutting --------------------------------------------------------------------------


def cut_position(player: int = RED, turn: int = 10) -> IceAndFireState:
    # Blue: column 11 from its HQ up to y = 5, then row 5 to x = 5, a level-1 unit on (6,5) and
    # a level-2 unit on (8,5). Red: row 0, column 10 down to y = 4, a branch down column 7 to
    # (7,4) and (6,4), a level-2 unit on (7,4) and a level-1 unit on (6,4).
    blue_land = [*column(11, 5, 9, "B"), *line(5, 10, 5, "B")]
    red_land = [*line(1, 10, 0, "R"), *column(10, 1, 4, "R"), *column(7, 1, 4, "R"), (6, 4, "R")]
    units = [(1, BLUE, 1, 6, 5), (2, BLUE, 2, 8, 5), (3, RED, 2, 7, 4), (4, RED, 1, 6, 4)]
    return state_from_rows(
        rows(*red_land, *blue_land), units=units, gold=(100, 100), player=player, turn=turn
    )


def test_cutting_deactivates_at_once_and_the_units_die_at_the_owners_next_turn() -> None:
    state = cut_position()
    assert all(state.active[5 * 12 + x] for x in range(5, 12))
    after = play(state, "TRAIN 1 10 5;MOVE 4 6 5;MOVE 3 7 5;MOVE 3 7 6")
    # The TRAIN cut row 5 off at once: unit 3 enters the now inactive (7,5), but the cut-off level-1
    # unit on (6,5) is still on the board and blocks the level-1 unit 4. Unit 3 cannot move twice.
    assert after.log == (
        "MOVE 4 6 5: ignored, unit 4 cannot take (6,5)",
        "MOVE 3 7 6: ignored, unit 3 has already moved or was trained this turn",
        "blue loses units 1, 2 cut off from its HQ",
    )
    # At blue's turn start units 1 and 2 are gone; the cells stay blue but inactive ('b').
    assert unit_ids(after, BLUE) == []
    assert [owner_at(after, x, 5) for x in range(5, 12)] == list("bbRbbRB")
    # Blue's income counts only its active cells: (11,5..9), (11,10), (11,11) = 7 cells.
    assert after.income[BLUE] == 7 and after.gold[BLUE] == 107


def test_cut_units_block_and_count_until_their_owners_turn() -> None:
    # Blue cuts red on blue's 100th turn: the game ends before red's turn start, so red's cut-off
    # units are still alive and count in red's military score.
    red_land = [*line(1, 6, 0, "R"), *column(6, 1, 3, "R")]
    blue_land = [*column(11, 0, 9, "B"), *line(7, 10, 0, "B")]
    units = [(1, RED, 3, 6, 3), (2, BLUE, 1, 7, 0)]
    state = state_from_rows(rows(*red_land, *blue_land), units=units, gold=(0, 0), player=BLUE, turn=100)
    after = play(state, "MOVE 2 6 0")
    assert after.is_terminal()
    assert owner_at(after, 6, 3) == "r"  # cut off, the unit on it not yet removed
    assert after.result is not None and after.result.scores == (30, 10)
    assert after.returns() == (1.0, -1.0)


# -- turn start and income: money ----------------------------------------------------------------


def test_the_negative_gold_wipe() -> None:
    cells = rows(*line(1, 3, 0, "R"))
    units = [(1, RED, 3, 1, 0), (2, RED, 1, 2, 0)]
    state = state_from_rows(cells, units=units, gold=(5, 20), player=BLUE)
    assert state.income[RED] == 4 - 20 - 1
    after = play(state, "WAIT")  # red's turn starts: 5 - 17 < 0
    assert after.player == RED and after.gold[RED] == 0 and unit_ids(after, RED) == []
    assert after.income[RED] == -17  # stale: not recomputed after the wipe
    assert "red cannot pay its upkeep" in after.log[0]
    after = play(after, "WAIT")
    assert after.income[RED] == 4  # recomputed at blue's turn start
    # Gold that covers the upkeep keeps the army.
    rich = play(state_from_rows(cells, units=units, gold=(17, 20), player=BLUE), "WAIT")
    assert rich.gold[RED] == 0 and len(rich.units) == 2


def test_income_counts_active_cells_mines_and_upkeep() -> None:
    cells = rows(*line(1, 4, 0, "R"), (1, 1, "R"), *line(5, 7, 5, "R"))  # (5..7, 5) inactive
    units = [(1, RED, 2, 2, 0), (2, RED, 3, 6, 5)]
    buildings = [(RED, MINE, 1, 0), (RED, MINE, 6, 5)]
    state = state_from_rows(cells, units=units, buildings=buildings, spots=[(1, 0), (6, 5), (10, 11), (5, 6)])
    assert state.income[RED] == 6 + 4 - 4  # the inactive mine and unit count for nothing


# -- the end ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("gold", "units", "returns"),
    [((10, 0), [(1, RED, 1, 1, 0), (2, BLUE, 2, 10, 11)], (0.0, 0.0)),
     ((31, 0), [(1, RED, 1, 1, 0), (2, BLUE, 3, 10, 11)], (1.0, -1.0)),
     ((0, 1), [], (-1.0, 1.0))],
)  # fmt: skip
def test_turn_limit_scoring(gold: tuple[int, int], units: list, returns: tuple[float, float]) -> None:
    cells = rows((1, 0, "R"), (10, 11, "B"))
    state = state_from_rows(cells, units=units, gold=gold, player=BLUE, turn=100)
    after = play(state, "WAIT")
    assert after.is_terminal() and after.returns() == returns
    assert after.gold == gold  # no income for a 101st turn
    assert after.result is not None and after.result.scores[0] == gold[0] + sum(
        10 * u[2] for u in units if u[1] == RED
    )
    assert after.result_info()["turns"] == 100


def state_dict(state: IceAndFireState) -> dict:
    return {name: getattr(state, name) for name in state.__dataclass_fields__ if name != "ENUMERABLE"}


def test_a_full_game_lasts_at_most_200_plies() -> None:
    game = make("iceandfire")
    record = play_game(game, [make_bot(game, "random"), make_bot(game, "random")], seed=3)
    assert record.plies <= 200 and record.outcome.termination == "normal"


# -- BUILD: buildings ----------------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "costs"), [("contest", [20, 24, 28]), ("multi", [15, 15, 15])])
def test_mine_cost_per_version(rules: str, costs: list[int]) -> None:
    cells = rows(*line(1, 4, 0, "R"))
    spots = [(1, 0), (2, 0), (3, 0), (4, 0)]
    state = state_from_rows(cells, spots=spots, gold=(200, 0), game=IceAndFire(rules=rules))
    paid = []
    for x in (1, 2, 3):
        gold = state.gold[RED]
        assert state.mine_cost(RED) == costs[x - 1]
        state = play(state, f"BUILD MINE {x} 0")
        paid.append(gold - state.gold[RED])
        state = play(state, "WAIT")
        gold = state.gold[RED]
        state = state.__class__(**{**state_dict(state), "gold": (gold, 0)})
    assert paid == costs


def test_inactive_mines_count_in_the_contest_price_and_destroyed_ones_do_not() -> None:
    cells = rows(*line(1, 3, 0, "R"), *line(5, 6, 0, "R"))  # (5,0), (6,0) inactive
    spots = [(1, 0), (5, 0), (6, 0), (2, 0)]
    state = state_from_rows(cells, spots=spots, buildings=[(RED, MINE, 5, 0), (RED, MINE, 6, 0)])
    assert state.mine_cost(RED) == 28
    after = play(state, "BUILD MINE 1 0;BUILD MINE 5 0")
    assert after.log == ("BUILD MINE 5 0: ignored, (5,0) is not playable",)
    assert after.gold[RED] == 100 - 28


def test_build_checks_and_leagues() -> None:
    cells = rows(*line(1, 4, 0, "R"), *line(1, 4, 1, "R"))
    spots = [(1, 0), (2, 0)]
    units = [(1, RED, 1, 3, 0)]
    text = "BUILD TOWER 1 0;BUILD MINE 4 0;BUILD TOWER 3 0;BUILD MINE 5 0;BUILD TOWER 4 1;BUILD MINE 2 0"
    state = state_from_rows(cells, spots=spots, units=units)
    after = play(state, text)
    assert after.log == (
        "BUILD TOWER 1 0: ignored, (1,0) is a mine spot",
        "BUILD MINE 4 0: ignored, (4,0) is not a mine spot",
        "BUILD TOWER 3 0: ignored, (3,0) is not free",
        "BUILD MINE 5 0: ignored, (5,0) is not red's",
    )
    assert after.gold[RED] == 100 - 15 - 20
    for rules, league, refused in [
        ("contest", "wood2", "TOWER"),
        ("contest", "wood1", None),
        ("multi", "wood1", "TOWER"),
        ("contest", "wood3", "TOWER"),
    ]:
        game = IceAndFire(rules=rules, league=league)
        after = play(state_from_rows(cells, spots=spots, game=game), "BUILD TOWER 4 1")
        assert (after.log == (f"BUILD TOWER 4 1: ignored, no TOWER in {league}",)) == (refused is not None)
    after = play(state_from_rows(cells, spots=spots, game=IceAndFire(league="wood2")), "BUILD MINE 1 0")
    assert after.log == ("BUILD MINE 1 0: ignored, no MINE in wood2",)


def test_not_enough_gold_is_checked_before_the_spot() -> None:
    cells = rows(*line(1, 4, 0, "R"))
    state = state_from_rows(cells, gold=(10, 0))
    assert play(state, "BUILD MINE 4 0").log == ("BUILD MINE 4 0: ignored, not enough gold (10 for 20)",)


# -- MOVE: movement ------------------------------------------------------------------------------


def test_movement_tie_order() -> None:
    # Both units are sent diagonally: two neighbours are equally closer; red takes the first of
    # UP, RIGHT, DOWN, LEFT (here RIGHT), blue the first of DOWN, LEFT, UP, RIGHT (here LEFT).
    cells = rows(*line(1, 5, 0, "R"), *column(5, 1, 5, "R"), *column(11, 5, 9, "B"), *line(6, 10, 5, "B"))
    units = [(1, RED, 1, 5, 5), (2, BLUE, 1, 6, 5)]
    state = state_from_rows(cells, units=units, gold=(0, 0))
    red = play(state, "MOVE 1 6 6")
    assert red.unit_at(5 * 12 + 5) is None and red.unit_at(6 * 12 + 5).id == 1  # type: ignore[union-attr]
    red = state_from_rows(cells, units=[(1, RED, 1, 5, 5)], gold=(0, 0))
    red = play(red, "MOVE 1 6 6")
    assert red.units[0][3:5] == (6, 5)  # RIGHT before DOWN
    blue = state_from_rows(cells, units=[(2, BLUE, 1, 6, 5)], gold=(0, 0), player=BLUE)
    blue = play(blue, "MOVE 2 5 4")
    assert blue.units[0][3:5] == (5, 5)  # LEFT (red's, free) before UP (neutral)
    blue = state_from_rows(cells, units=[(2, BLUE, 1, 6, 5)], gold=(0, 0), player=BLUE)
    blue = play(blue, "MOVE 2 5 6")
    assert blue.units[0][3:5] == (6, 6)  # DOWN before LEFT


def test_a_blocked_closer_cell_is_passed_over_and_an_adjacent_blocked_target_fails() -> None:
    cells = rows(*line(1, 5, 0, "R"), *column(5, 1, 5, "R"), (4, 5, "R"), (6, 5, "R"))
    units = [(1, RED, 1, 5, 5), (2, RED, 1, 6, 5), (3, RED, 1, 4, 5)]
    state = state_from_rows(cells, units=units)
    after = play(state, "MOVE 1 9 6")
    assert [u[3:5] for u in after.units if u.id == 1] == [(5, 6)]  # RIGHT is taken: DOWN is closer too
    after = play(state, "MOVE 1 6 5")
    assert after.log == ("MOVE 1 6 5: ignored, unit 1 cannot take (6,5)",)
    after = play(state, "MOVE 1 5 5")
    assert after.log == ("MOVE 1 5 5: ignored, unit 1 has no free cell closer to (5,5)",)


def test_a_long_move_can_attack() -> None:
    cells = rows(*line(1, 5, 0, "R"), *column(6, 0, 11, "B"), *line(7, 10, 11, "B"))
    units = [(1, RED, 2, 5, 0), (2, BLUE, 1, 6, 0)]
    after = play(state_from_rows(cells, units=units), "MOVE 1 11 0")
    assert unit_ids(after, BLUE) == [] and owner_at(after, 6, 0) == "R"


def test_moves_use_map_distances_around_void() -> None:
    # A wall of void on column 3 except at y = 11: the way from (2,0) to (4,0) goes down.
    marks = [(3, y, "#") for y in range(0, 11)]
    cells = rows(*line(1, 2, 0, "R"), *marks)
    state = state_from_rows(cells, units=[(1, RED, 1, 2, 0)])
    after = play(state, "MOVE 1 4 0")
    assert [u[3:5] for u in after.units] == [(2, 1)]


# -- parse-time checks and the lose/ignore split -------------------------------------------------


def test_parse_time_checks_are_ignored_not_lost() -> None:
    cells = rows(*line(1, 3, 0, "R"), (5, 0, "#"))
    units = [(1, RED, 1, 1, 0), (2, BLUE, 1, 11, 10)]
    state = state_from_rows(cells, units=units, game=IceAndFire(league="wood3"))
    after = play(
        state,
        "MOVE 2 1 1;MOVE 9 1 1;TRAIN 2 4 0;TRAIN 0 4 0;TRAIN 1 5 0;TRAIN 1 12 0;MOVE 1 2 2147483648;TRAIN  1 1",
    )
    assert after.log == (
        "MOVE 2 1 1: ignored, unit 2 is not red's",
        "MOVE 9 1 1: ignored, no unit 9 alive at the start of the turn",
        "TRAIN 2 4 0: ignored, level 2 is not trainable in wood3",
        "TRAIN 0 4 0: ignored, level 0 is not trainable in wood3",
        "TRAIN 1 5 0: ignored, (5,0) is not a cell of the map",
        "TRAIN 1 12 0: ignored, (12,0) is not a cell of the map",
        "MOVE 1 2 2147483648: ignored, y 2147483648 is not a Java int",
        "TRAIN  1 1: ignored, level is empty",
    )
    assert after.gold[RED] == state.gold[RED] and not after.is_terminal()


def test_a_losing_line_is_a_protocol_forfeit_in_the_game_loop() -> None:
    game = make("iceandfire")

    class Garbage:
        name = "garbage"

        def reset(self, game: object, seat: int, seed: int) -> None:
            pass

        def act(self, state: object, clock: object) -> Decision:
            return Decision("TRAIN 1 1 0;HELLO")

    record = play_game(game, [Garbage(), make_bot(game, "random")], seed=5)  # type: ignore[list-item]
    assert record.outcome.termination == "protocol" and record.outcome.returns == (-1.0, 1.0)
    assert "unrecognised command 'HELLO'" in record.outcome.reason
    assert record.final_state.result.scores[0] == -1  # type: ignore[attr-defined]
    with pytest.raises(ActionParseError):
        game.new_initial_state(1).illegal_reason((Train(1, 1, 0), Move(-1, 0, 0)))


def test_multi_loses_on_an_empty_field() -> None:
    state = IceAndFire(rules="multi").new_initial_state(seed=1)
    with pytest.raises(ActionParseError):
        state.string_to_action("TRAIN  1 1")
    assert IceAndFire().new_initial_state(seed=1).string_to_action("TRAIN  1 1")[0].reason == "level is empty"


# -- invariants over random games ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "league"), [("contest", "bronze"), ("multi", "wood1"), ("contest", "wood3")]
)
def test_activity_income_and_ids_hold_over_random_games(rules: str, league: str) -> None:
    game = IceAndFire(rules, league)
    rng = random.Random(7)
    for seed in (1, 42):
        state = game.new_initial_state(seed)
        ids = 0
        while not state.is_terminal():
            turn = state.random_action(rng)
            assert all(isinstance(c, Move | Train | Build | Wait) for c in turn)
            state = state.apply_action(turn)
            assert not any(": ignored," in entry for entry in state.log), (turn, state.log)
            for player in (RED, BLUE):
                expected = territory_bfs(state.owner, state.board.neighbours, player)
                assert {c for c in range(144) if state.owner[c] == player and state.active[c]} == expected
            if state.is_terminal():
                break
            ref = Referee(state)
            assert cells_mask(state.active, 1) == ref.act[RED] | ref.act[BLUE]
            assert all(u.can_act for u in state.units if u.owner == state.player)
            assert all(state.active[u.cell] for u in state.units if u.owner == state.player)
            assert len({u.cell for u in state.units} | {b.cell for b in state.buildings}) == len(
                state.units
            ) + len(state.buildings)
            assert state.units == tuple(sorted(state.units)) and all(u.id > ids or True for u in state.units)
            ids = max([ids, *(u.id for u in state.units)])
            assert state.next_id > ids


def test_activity_after_every_command_equals_a_full_recomputation(monkeypatch: pytest.MonkeyPatch) -> None:
    """The referee updates activity by the effect of a MOVE or TRAIN; mid-turn it must equal the
    referee's "recompute both players" (the opponent's is otherwise only recomputed at its turn start)."""
    checked = []
    update = Referee.update_activity

    def checked_update(self: Referee) -> None:
        update(self)
        for player in (RED, BLUE):
            expected = territory_bfs(bytes(self.owner), self.layout.neighbours, player)
            assert {c for c in range(144) if self.owner[c] == player and self.active[c]} == expected
        checked.append(1)

    monkeypatch.setattr(Referee, "update_activity", checked_update)
    rng = random.Random(11)
    for seed in (10, 117):
        state = IceAndFire().new_initial_state(seed)
        while not state.is_terminal():
            state = state.apply_action(state.random_action(rng))
    assert len(checked) > 1000


def test_state_json_round_trip_and_bad_fields_are_named() -> None:
    game = IceAndFire()
    state = game.new_initial_state(seed=42)
    state = play(state, "TRAIN 1 1 0;MSG hi")
    data = state.to_json()
    assert game.state_from_json(data) == state
    for field, value, words in [
        ("gold", [1], "'gold' must be two integers"),
        ("cells", ["R"] * 12, "'cells' must be 12 rows"),
        ("map", ["." * 12] * 11, "a map is 12 rows"),
        ("units", [[9, 0, 1, 5, 5, True]], "does not stand on a cell of its owner"),
        ("turn", "x", "field 'turn' has a bad value"),
    ]:
        with pytest.raises(StateFormatError, match=words):
            game.state_from_json({**data, field: value})
    with pytest.raises(StateFormatError, match="missing field 'player'"):
        game.state_from_json({k: v for k, v in data.items() if k != "player"})
    with pytest.raises(StateFormatError, match="not this game's"):
        IceAndFire(rules="multi").state_from_json(data)


def test_forfeit_and_result_info() -> None:
    state = play(IceAndFire().new_initial_state(seed=1), "TRAIN 1 1 0")
    lost = state.forfeit(BLUE, "timeout", "blue: too late")
    assert lost.is_terminal() and lost.returns() == (1.0, -1.0)
    assert lost.outcome().forfeit_player == BLUE  # type: ignore[union-attr]
    assert lost.result_info() == {
        "scores": [11 + 10, -1],
        "turns": 1,
        "termination": "timeout",
        "seed": 1,
        "rules": "contest",
        "league": "bronze",
    }


def test_a_move_onto_the_hq_wins_unless_a_tower_guards_it() -> None:
    cells = rows(*line(1, 11, 0, "R"), *column(11, 1, 9, "R"), *line(9, 10, 11, "B"), (10, 10, "B"))
    units = [(1, RED, 1, 11, 9)]
    state = state_from_rows(cells, units=units, gold=(0, 0))
    after = play(state, "MOVE 1 11 11;TRAIN 1 10 9")  # one step to (11,10), blue's free cell
    assert not after.is_terminal() and owner_at(after, 11, 10) == "R"
    after = play(play(after, "WAIT"), "MOVE 1 11 11")
    assert after.is_terminal() and after.returns() == (1.0, -1.0)
    guarded = state_from_rows(cells, units=units, gold=(0, 0), buildings=[(BLUE, TOWER, 10, 11)])
    after = play(play(play(guarded, "MOVE 1 11 10"), "WAIT"), "MOVE 1 11 11")
    assert not after.is_terminal()
    assert after.log[0] == "MOVE 1 11 11: ignored, unit 1 cannot take (11,11)"


# -- the activity flood against its readable twin -------------------------------------------------


def territory_bfs(owner: bytes, neighbours: Sequence[Sequence[int]], player: int) -> set[int]:
    """The active cells of ``player``, cell by cell: a breadth-first search from its HQ through its
    own cells. The statement's "Territory ownership" as it reads, and the oracle of the bit-mask flood."""
    hq = HQ_CELLS[player]
    if owner[hq] != player:
        return set()
    seen, queue = {hq}, deque([hq])
    while queue:
        cell = queue.popleft()
        for n in neighbours[cell]:
            if owner[n] == player and n not in seen:
                seen.add(n)
                queue.append(n)
    return seen


OPEN_MAP = make_board(tuple("." * 12 for _ in range(12)), ())


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from((0, 1, 2)), min_size=144, max_size=144), st.sampled_from((RED, BLUE)))
def test_the_bit_mask_flood_equals_a_breadth_first_search(owners: list[int], player: int) -> None:
    owner = bytes(owners)
    territory = flood(1 << HQ_CELLS[player], cells_mask(owner, player))
    assert set(mask_indices(territory)) == territory_bfs(owner, OPEN_MAP.neighbours, player)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from((0, 1, 1)), min_size=144, max_size=144), st.data())
def test_a_simple_point_leaves_the_territory_joined(owners: list[int], data: st.DataObject) -> None:
    """Taking a cell that the simple-point test passes cuts nothing off (the test the referee and the
    bots' board use to skip a flood); a cell it fails may or may not cut."""
    owner = bytes(owners)
    territory = flood(1 << HQ_CELLS[RED], cells_mask(owner, RED))
    cells = mask_indices(territory)[1:]  # not the HQ: losing it loses everything
    if not cells:
        return
    cell = data.draw(st.sampled_from(cells))
    rest = territory & ~(1 << cell)
    if simple_point(cell, rest):
        assert flood(1 << HQ_CELLS[RED], rest) == rest


@given(st.integers(0, 143), st.integers(0, 2**144 - 1))
def test_the_simple_point_table_reads_the_ring_as_the_rule_does(cell: int, inside: int) -> None:
    assert simple_point(cell, inside) == one_arc([bool(bit & inside) for bit in RING[cell]])
