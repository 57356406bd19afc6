"""The AIND Board: API, quirks, play() reasons, conversions, and loading an unmodified agent file."""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gridarena.games.isolation import aind
from gridarena.games.isolation.aind import (
    AgentLoadError,
    Board,
    board_from_state,
    load_agent_module,
    samples,
    state_from_aind,
)
from gridarena.games.isolation.aind.agents import MinimaxPlayer
from gridarena.games.isolation.rules import State, knight_targets

AGENT_FILE = Path(__file__).parent / "data" / "aind_agent" / "game_agent.py"


class Scripted:
    """A player that answers from a list (and may sleep first); hashable by identity."""

    def __init__(self, moves: list[Any], delay_ms: float = 0.0) -> None:
        self.moves, self.delay_ms = list(moves), delay_ms

    def get_move(self, game: Board, time_left: aind.TimeLeft) -> Any:
        if self.delay_ms:
            import time

            time.sleep(self.delay_ms / 1000)
        return self.moves.pop(0) if self.moves else (-1, -1)


def test_constants_and_initial_state() -> None:
    board = Board("a", "b")
    assert (Board.BLANK, Board.NOT_MOVED, aind.TIME_LIMIT_MILLIS) == (0, None, 150)
    assert len(board._board_state) == 7 * 7 + 3 and board._board_state[-3:] == [0, None, None]
    assert (board.active_player, board.inactive_player, board.move_count) == ("a", "b", 0)
    assert board.get_player_location("a") is Board.NOT_MOVED


def test_board_state_example_from_the_spec() -> None:
    board = Board("p1", "p2")
    board.apply_move((2, 3))
    assert board._board_state[-3:] == [1, None, 23]
    board.apply_move((0, 5))
    assert board._board_state[-3:] == [0, 35, 23]
    assert board._board_state[23] == board._board_state[35] == 1
    assert sum(board._board_state[:-3]) == 2 and len(board.get_blank_spaces()) == 49 - board.move_count


def test_column_major_blank_spaces_and_locations() -> None:
    board = Board("a", "b", width=3, height=2)
    assert board.get_blank_spaces() == [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2)]
    board.apply_move((1, 2))  # index 1 + 2 * 2 = 5
    assert board._board_state[5] == 1 and board.get_player_location("a") == (1, 2)


def test_to_string_layout() -> None:
    board = Board("p1", "p2")
    for move in [(2, 3), (0, 5), (1, 1), (2, 4)]:
        board.apply_move(move)
    lines = board.to_string().split("\n\r")
    assert lines[0] == "     0   1   2   3   4   5   6"
    assert lines[1] == "0  |   |   |   |   |   | - |   | "
    assert lines[2] == "1  |   | 1 |   |   |   |   |   | "
    assert lines[3] == "2  |   |   |   | - | 2 |   |   | "
    assert lines[-1] == "" and len(lines) == 9  # every line ends with "\n\r"
    assert board.print_board() == board.to_string()
    assert "X" in board.to_string(symbols=["X", "O"])


def test_to_string_wide_row_numbers() -> None:
    text = Board("a", "b", width=2, height=11).to_string()
    assert text.startswith(" " * 6 + "0   1\n\r")
    assert "\n\r10  |   |   | \n\r" in text  # row numbers left-aligned in a field of 3


def test_legal_moves_are_shuffled_by_the_board_rng() -> None:
    def moves(seed: int) -> list[tuple[int, int]]:
        board = Board("a", "b", rng=random.Random(seed))
        board.apply_move((3, 3))
        return board.get_legal_moves("a")

    assert moves(1) == moves(1)
    assert sorted(moves(1)) == [(1, 2), (1, 4), (2, 1), (2, 5), (4, 1), (4, 5), (5, 2), (5, 4)]
    assert len({tuple(moves(seed)) for seed in range(20)}) > 1  # the order does vary


def test_shared_rng_is_seedable() -> None:
    board = Board("a", "b")
    board.apply_move((3, 3))
    aind.seed(7)
    first = [board.get_legal_moves("a") for _ in range(3)]
    aind.seed(7)
    assert [board.get_legal_moves("a") for _ in range(3)] == first


def test_placement_moves_unshuffled_and_inactive_player() -> None:
    board = Board("a", "b")
    board.apply_move((0, 0))
    assert board.get_legal_moves() == board.get_blank_spaces()  # b unplaced: every blank cell, in order
    assert sorted(board.get_legal_moves("a")) == [(1, 2), (2, 1)]  # asked for the waiting player


def test_move_is_legal_checks_only_the_cell() -> None:
    board = Board("a", "b")
    board.apply_move((0, 0))
    board.apply_move((6, 6))
    assert board.move_is_legal((5, 5))  # not a knight move from (0, 0), yet "legal"
    assert (
        not board.move_is_legal((0, 0))
        and not board.move_is_legal((7, 0))
        and not board.move_is_legal((0, -1))
    )


def test_copy_forecast_and_errors() -> None:
    board = Board("a", "b")
    board.apply_move((3, 3))
    child = board.forecast_move((0, 0))
    assert board.move_count == 1 and child.move_count == 2
    assert child.get_player_location("b") == (0, 0) and board.get_player_location("b") is None
    assert child.hash() == board.forecast_move((0, 0)).hash()
    assert board.get_opponent("a") == "b" and board.get_opponent("b") == "a"
    with pytest.raises(RuntimeError):
        board.get_opponent("c")
    with pytest.raises(RuntimeError):
        board.get_player_location("c")


def test_winner_loser_utility() -> None:
    board = Board("a", "b", width=3, height=3)
    board.apply_move((1, 1))  # the centre of 3x3 has no knight move
    board.apply_move((0, 0))
    assert board.is_loser("a") and board.is_winner("b") and not board.is_winner("a")
    assert board.utility("a") == float("-inf") and board.utility("b") == float("inf")
    assert Board("a", "b").utility("a") == 0.0


def test_play_ordinary_end_is_illegal_move() -> None:
    a, b = Scripted([(1, 1)]), Scripted([(0, 0), (2, 1)])
    board = Board(a, b, width=3, height=3)
    winner, history, reason = board.play()
    assert (winner, history, reason) == (b, [[1, 1], [0, 0]], "illegal move")
    assert board.move_count == 2  # the final position; the losing "move" is not applied


def test_play_forfeit_and_list_moves() -> None:
    a, b = Scripted([(0, 0), (-1, -1)]), Scripted([(2, 2)])
    assert Board(a, b, 3, 3).play() == (b, [[0, 0], [2, 2]], "forfeit")
    c, d = Scripted([[0, 0]]), Scripted([])
    assert Board(c, d, 3, 3).play() == (d, [], "forfeit")  # a list is never equal to a tuple


def test_play_timeout_comes_first_and_history_excludes_earlier_moves() -> None:
    slow, quick = Scripted([(2, 2)], delay_ms=30), Scripted([])
    board = Board(quick, slow, 3, 3)
    board.apply_move((0, 0))  # applied before play(): not in the history
    winner, history, reason = board.play(time_limit=10)
    assert (winner, history, reason) == (quick, [], "timeout")


def test_time_left_counts_down() -> None:
    seen: list[float] = []

    class Probe:
        def get_move(self, game: Board, time_left: aind.TimeLeft) -> tuple[int, int]:
            seen.extend([time_left(), time_left()])
            return (-1, -1)

    Board(Probe(), Probe()).play(time_limit=50)
    assert 0 < seen[1] <= seen[0] <= 50


def aind_play(board: Board, time_limit: float) -> tuple[Any, list[list[int]], str]:
    """AIND's own Board.play loop, as in isolation/isolation.py (the oracle of the shared-loop version)."""
    move_history: list[list[int]] = []
    while True:
        legal_player_moves = board.get_legal_moves()
        game_copy = board.copy()
        move_start = 1000 * time.perf_counter()

        def time_left(start: float = move_start) -> float:
            return time_limit - (1000 * time.perf_counter() - start)

        curr_move = board._active_player.get_move(game_copy, time_left)
        move_end = time_left()
        if curr_move is None:
            curr_move = Board.NOT_MOVED
        if move_end < 0:
            return board._inactive_player, move_history, "timeout"
        if curr_move not in legal_player_moves:
            reason = "forfeit" if legal_player_moves else "illegal move"
            return board._inactive_player, move_history, reason
        move_history.append(list(curr_move))
        board.apply_move(curr_move)


class Sloppy:
    """A seeded player that now and then answers None, (-1, -1), a list or a blocked cell (AIND's ways to forfeit)."""

    def __init__(self, seed: int, rate: float) -> None:
        self.rng, self.rate = random.Random(seed), rate

    def get_move(self, game: Board, time_left: aind.TimeLeft) -> Any:
        legal = game.get_legal_moves()
        if not legal or self.rng.random() >= self.rate:
            return self.rng.choice(legal) if legal else (-1, -1)
        return self.rng.choice([None, (-1, -1), list(legal[0]), (0, 0) if game.move_count else (9, 9)])


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from([(7, 7), (5, 4), (4, 6)]),
    st.integers(0, 10**6),
    st.sampled_from([0.0, 0.05]),
    st.integers(0, 3),
)
def test_play_on_the_shared_loop_is_aind_s_loop(
    size: tuple[int, int], seed: int, rate: float, opening: int
) -> None:
    def game() -> tuple[Board, Any, Any]:
        first = Sloppy(seed, rate)
        second = (
            samples.GreedyPlayer()
            if seed % 2
            else MinimaxPlayer(search_depth=2, score_fn=samples.improved_score)
        )
        board = Board(first, second, *size, rng=random.Random(seed))
        for _ in range(opening):
            board.apply_move(random.Random(seed).choice(board.get_legal_moves()))
        return board, first, second

    ours, theirs = game()[0], game()[0]
    mine = ours.play(time_limit=10**9)
    expected = aind_play(theirs, time_limit=10**9)
    assert (mine[1], mine[2]) == (expected[1], expected[2])
    assert (mine[0] is ours._player_1) == (expected[0] is theirs._player_1)
    assert ours._board_state == theirs._board_state and ours.move_count == theirs.move_count
    assert ours._rng.random() == theirs._rng.random()  # the shuffles drew the same numbers


def test_play_lets_a_player_s_exception_through() -> None:
    class Broken:
        def get_move(self, game: Board, time_left: aind.TimeLeft) -> Any:
            raise KeyError("no move here")

    with pytest.raises(KeyError, match="no move here"):
        Board(Scripted([(0, 0)]), Broken(), 3, 3).play()


def test_play_asks_the_stuck_player_too() -> None:
    stuck, other = Scripted([], delay_ms=30), Scripted([])
    board = Board(stuck, other, 3, 3)
    board.apply_move((1, 1))  # the centre of 3x3 has no knight move
    board.apply_move((0, 0))
    assert board.play(time_limit=10) == (other, [], "timeout")  # AIND waits for its answer, which is late
    stuck.delay_ms = 0
    assert board.play(time_limit=10) == (other, [], "illegal move")


@settings(max_examples=50, deadline=None)
@given(st.sampled_from([(7, 7), (5, 4), (11, 9), (3, 8)]), st.integers(0, 40), st.integers(0, 10**6))
def test_board_agrees_with_reference_rules(size: tuple[int, int], plies: int, seed: int) -> None:
    rng = random.Random(seed)
    width, height = size
    state, board = State(width, height), Board("a", "b", width, height, rng)
    for _ in range(plies):
        moves = board.get_legal_moves()
        expected = state.legal_actions()
        assert sorted(r * width + c for r, c in moves) == expected
        if not expected:
            assert board.is_loser(board.active_player) and state.is_terminal()
            break
        cell = rng.choice(expected)
        board.apply_move(divmod(cell, width))
        state = state.apply_action(cell)
        assert state_from_aind(board) == state
        assert board_from_state(state, "a", "b")._board_state == board._board_state


def test_knight_moves_match_rules_everywhere() -> None:
    for cell in range(7 * 7):
        board = Board("a", "b")
        board.apply_move(divmod(cell, 7))
        got = sorted(r * 7 + c for r, c in board.get_legal_moves("a"))
        assert got == sorted(knight_targets(cell, 7, 7))


@pytest.mark.timing
def test_load_unmodified_agent_file() -> None:
    module = load_agent_module(AGENT_FILE)
    assert module.BOARD_CLASS_NAME == "Board"
    assert sys.modules["isolation"].Board is Board
    player = module.AlphaBetaPlayer(score_fn=module.custom_score_2, timeout=40.0)  # a wide margin: CI is busy
    board = Board(player, samples.RandomPlayer(random.Random(3)), rng=random.Random(3))
    board.apply_move((3, 3))
    board.apply_move((0, 0))
    _, history, reason = board.play(time_limit=60)
    assert reason in {"illegal move", "forfeit"} and len(history) >= 2
    minimax = module.MinimaxPlayer(search_depth=2, score_fn=module.custom_score)
    assert minimax.get_move(board_from_state(State(5, 5).child(12).child(0), minimax, "x"), lambda: 1e9) in {
        (0, 1), (0, 3), (1, 0), (1, 4), (3, 0), (3, 4), (4, 1), (4, 3),
    }  # fmt: skip


def test_load_errors(tmp_path: Path) -> None:
    with pytest.raises(AgentLoadError, match="no such agent file"):
        load_agent_module(tmp_path / "missing.py")
    broken = tmp_path / "broken.py"
    broken.write_text("import not_a_module_anywhere\n")
    with pytest.raises(AgentLoadError, match=r"broken.py: ModuleNotFoundError"):
        load_agent_module(broken)


def test_sample_players_beside_the_agent_win(tmp_path: Path) -> None:
    (tmp_path / "sample_players.py").write_text("def improved_score(game, player):\n    return 42.0\n")
    (tmp_path / "game_agent.py").write_text(
        "from sample_players import improved_score\nVALUE = improved_score(None, None)\n"
    )
    assert load_agent_module(tmp_path / "game_agent.py").VALUE == 42.0
    assert load_agent_module(AGENT_FILE).improved_score is samples.improved_score
