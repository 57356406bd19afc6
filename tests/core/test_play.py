"""The game loop: bots' failures become forfeits with their reason, and nothing escapes the loop."""

from __future__ import annotations

import io
import time
from typing import Any

import pytest

from gridarena.bots.human import HumanBot
from gridarena.core.bot import BaseBot, Decision
from gridarena.core.clock import TimeControl
from gridarena.core.errors import GridArenaError
from gridarena.core.play import play_game
from gridarena.core.registry import make, make_bot
from gridarena.core.types import GameState


class Scripted(BaseBot):
    """Answers with the first legal action, or misbehaves in one chosen way."""

    def __init__(self, fault: str = "") -> None:
        super().__init__()
        self.fault = fault

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        if self.fault == "crash":
            raise ZeroDivisionError("bot bug")
        if self.fault == "slow":
            time.sleep(0.2)
        if self.fault == "garbage":
            return Decision("zz99")
        if self.fault == "illegal":
            return Decision(state.legal_actions()[0] + 10_000)
        return Decision(state.legal_actions()[0], {"depth": 1})


GAME = make("isolation(width=5,height=5)")


@pytest.mark.parametrize(
    "fault,termination,detail",
    [
        ("crash", "crash", "ZeroDivisionError: bot bug"),
        ("slow", "timeout", "limit 50 ms"),
        ("garbage", "protocol", "unreadable action 'zz99'"),
        ("illegal", "illegal", "not a cell of the 5x5 board"),
    ],
)
def test_a_faulty_bot_forfeits_with_its_reason(fault: str, termination: str, detail: str) -> None:
    record = play_game(
        GAME, [Scripted(), Scripted(fault)], seed=1, names=["good", "bad"], time_per_move=0.05, grace=0.02
    )
    outcome = record.outcome
    assert (outcome.termination, outcome.forfeit_player, outcome.returns) == (termination, 1, (1.0, -1.0))
    assert outcome.reason.startswith("bad: ") and detail in outcome.reason
    assert record.plies == 1  # the good bot's placement was played, the bad one's never


def test_bot_info_and_times_are_recorded() -> None:
    record = play_game(GAME, [Scripted(), Scripted()], seed=2)
    assert record.outcome.termination == "normal"
    assert all(turn.info == {"depth": 1} and turn.wall_ms >= 0 for turn in record.turns)


def test_the_move_cap_adjudicates_a_draw() -> None:
    record = play_game(GAME, [Scripted(), Scripted()], seed=2, max_plies=3)
    assert record.outcome.termination == "adjudicated" and record.outcome.returns == (0.0, 0.0)


def test_the_same_seed_repeats_the_game() -> None:
    first = play_game(GAME, [make_bot(GAME, "random"), make_bot(GAME, "random")], seed=9, names=["a", "b"])
    second = play_game(GAME, [make_bot(GAME, "random"), make_bot(GAME, "random")], seed=9, names=["a", "b"])
    assert [t.action for t in first.turns] == [t.action for t in second.turns]


def test_the_wrong_number_of_bots_is_refused() -> None:
    with pytest.raises(GridArenaError, match="needs 2 players"):
        play_game(GAME, [Scripted()])


def test_a_human_types_moves_and_retries_bad_ones() -> None:
    screen = io.StringIO()
    human = HumanBot(stdin=io.StringIO("zz\nc3\nquit\n"), stdout=screen)
    record = play_game(GAME, [human, Scripted()], seed=3, names=["me", "bot"])
    assert record.turns[0].action == "c3"
    assert record.outcome.termination == "crash" and "left the game" in record.outcome.reason
    assert "legal moves:" in screen.getvalue() and "'zz' is not a cell" in screen.getvalue()


class Leaves(Scripted):
    """Plays its first move, then crashes (``fault="crash-later"``) or leaves between moves (``withdrawn``)."""

    def __init__(self, how: str, after: int = 1) -> None:
        super().__init__()
        self.how, self.after, self.moves = how, after, 0

    def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
        if self.how == "crash" and self.moves >= self.after:
            raise ZeroDivisionError("bot bug")
        self.moves += 1
        return super().act(state, clock)

    def withdrawn(self) -> tuple[str, str] | None:
        return ("crash", "the connection broke") if self.how == "leave" and self.moves >= self.after else None


class Told:
    """A recorder that keeps what it is told, forfeits included."""

    def __init__(self) -> None:
        self.events: list[tuple[Any, ...]] = []

    def turn(self, turn: Any, state: GameState[Any]) -> None:
        self.events.append(("turn", turn.player, turn.forfeits))

    def forfeit(self, seat: int, termination: str, reason: str, state: GameState[Any]) -> None:
        self.events.append(("forfeit", seat, termination, reason, state.is_terminal()))

    def result(self, record: Any) -> None:
        self.events.append(("result", record.outcome.termination))


@pytest.mark.parametrize("how", ["crash", "leave"])
def test_a_forfeit_the_game_survives_is_told_at_once_kept_on_the_next_ply_and_replays(
    how: str, tmp_path: Any
) -> None:
    from gridarena.arena.replay import ReplayRecorder, read_replay
    from gridarena.cli.replay import check_replay
    from gridarena.web.frames import view_of

    game = make("reversixt(map=sampler)")  # three players: the game goes on without one
    told, path = Told(), tmp_path / "game.jsonl"
    names = ["a", "b", "c"]
    replay = ReplayRecorder(path, game, names, 0, game.new_initial_state(0))
    bots = [Scripted(), Leaves(how), Scripted()]
    record = play_game(game, bots, seed=0, names=names, recorders=[replay, told])
    (forfeit,) = [e for e in told.events if e[0] == "forfeit"]
    reason = "b: ZeroDivisionError: bot bug" if how == "crash" else "b: the connection broke"
    assert forfeit == ("forfeit", 1, "crash", reason, False)
    at = told.events.index(forfeit)
    assert told.events[at + 1] == ("turn", told.events[at + 1][1], ((1, "crash", reason),))
    assert all(e[2] == () for i, e in enumerate(told.events) if e[0] == "turn" and i != at + 1)
    assert record.final_state.scores()[1] is None and record.plies > 3
    # The replay keeps the forfeit on the ply after it, so the check and the viewer re-apply it.
    stored = read_replay(path)
    assert sum(bool(t.get("forfeits")) for t in stored.turns) == 1
    assert check_replay(stored, str(path)) == record.plies
    assert view_of(stored).problem is None


def test_a_seat_that_leaves_while_another_thinks_is_forfeited_before_that_answer() -> None:
    game = make("reversixt(map=sampler)")

    class LeavesDuringTheOthersMove(Scripted):
        gone = False

        def withdrawn(self) -> tuple[str, str] | None:
            return ("protocol", "spoke out of turn") if self.gone else None

    leaver = LeavesDuringTheOthersMove()

    class Thinker(Scripted):
        def act(self, state: GameState[Any], clock: TimeControl) -> Decision:
            leaver.gone = True  # the other seat leaves while this one thinks
            return super().act(state, clock)

    told = Told()
    play_game(game, [Thinker(), leaver, Scripted()], seed=0, recorders=[told])
    assert told.events[:2] == [
        ("forfeit", 1, "protocol", "bot: spoke out of turn", False),
        ("turn", 0, ((1, "protocol", "bot: spoke out of turn"),)),
    ]
