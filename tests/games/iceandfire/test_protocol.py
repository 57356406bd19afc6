"""The CodinGame protocol with real programs: each peer ends as CodinGame would end it, with the
reason in the replay, and its process reaped; a C bot plays a whole game; the input rebuilds the state."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gridarena.arena.replay import ReplayRecorder, read_replay
from gridarena.bots.external import ExternalBot
from gridarena.core.gameclock import game_clock
from gridarena.core.play import play_game
from gridarena.core.registry import make, make_bot
from gridarena.games.iceandfire.protocol import LineReader, ProtocolError, read_turn, state_from_input

PEERS = Path(__file__).parent / "peers"
GAME = make("iceandfire")
#: CodinGame's limits; the grace absorbs a loaded machine's scheduling, not a sleeping bot.
CODINGAME = "1/0.05"


def python_peer(name: str) -> str:
    return f"{sys.executable} {PEERS / name}"


def play_peer(cmd: str, tmp_path: Path, first: float = 5.0) -> tuple[object, ExternalBot, int | None]:
    """The peer as red against the Wood 1 boss, with a replay; returns (record, bot, the peer's pid)."""
    bot = ExternalBot(cmd, name="peer", protocol="codingame")
    pids: list[int] = []

    class Pid:
        def turn(self, turn: object, state: object) -> None:
            if bot.process is not None and not pids:
                pids.append(bot.process.pid)

        def result(self, record: object) -> None:
            if bot.process is not None and not pids:
                pids.append(bot.process.pid)

    state = GAME.new_initial_state(5)
    replay = ReplayRecorder(tmp_path / "game.jsonl", GAME, ["peer", "wood1"], 5, state)
    record = play_game(
        GAME,
        [bot, make_bot(GAME, "wood1")],
        seed=5,
        names=["peer", "wood1"],
        state=state,
        clock=game_clock(f"{first}/0.05", 2),
        recorders=[Pid(), replay],
    )
    bot.close()
    return record, bot, pids[0] if pids else None


def reaped(pid: int | None) -> bool:
    """The process is gone: no /proc entry (a zombie keeps one)."""
    return pid is None or not Path(f"/proc/{pid}").exists()


@pytest.mark.parametrize(
    "peer,termination,detail",
    [
        ("crash_bot.py", "crash", "(exit code 3); stderr: reading the map... oops"),
        ("garbage_bot.py", "protocol", "unrecognised command 'hello world'"),
        ("sleep_bot.py", "timeout", "no answer to a turn in time; killed"),
    ],
)
def test_a_failing_peer_loses_as_on_codingame(
    peer: str, termination: str, detail: str, tmp_path: Path
) -> None:
    record, bot, pid = play_peer(python_peer(peer), tmp_path)
    outcome = record.outcome  # type: ignore[attr-defined]
    assert (outcome.termination, outcome.forfeit_player, outcome.returns) == (termination, 0, (-1.0, 1.0))
    assert detail in outcome.reason
    result = read_replay(tmp_path / "game.jsonl").result
    assert result is not None and detail in str(result["reason"])
    assert bot.process is None and reaped(pid)


def test_the_sleeping_peer_is_judged_by_the_50_ms_limit(tmp_path: Path) -> None:
    record, _, _ = play_peer(python_peer("sleep_bot.py"), tmp_path)
    turns = record.turns  # type: ignore[attr-defined]
    assert [t.player for t in turns] == [0, 1]  # its first answer counted; the second never came


def test_a_wait_peer_plays_to_the_end_with_its_stderr_in_the_replay(tmp_path: Path) -> None:
    record, _, pid = play_peer(python_peer("wait_bot.py"), tmp_path)
    outcome = record.outcome  # type: ignore[attr-defined]
    assert outcome.termination == "normal" and outcome.forfeit_player is None
    replay = read_replay(tmp_path / "game.jsonl")
    red = [t for t in replay.turns if t["player"] == 0]
    assert all(t["action"] == "WAIT" for t in red)
    assert red[0]["info"] == {"stderr": "turn 1 gold 21\n"}
    assert red[1]["info"] == {"stderr": "turn 2 gold 22\n"}
    assert reaped(pid)


def test_extra_lines_answer_the_next_turns(tmp_path: Path) -> None:
    script = tmp_path / "two_lines.py"
    # Three lines at once: the referee reads one per turn, the others wait in the pipe.
    script.write_text("import sys\nprint('WAIT\\nMSG second\\nMSG third', flush=True)\nsys.stdin.read()\n")
    bot = ExternalBot(f"{sys.executable} {script}", name="two", protocol="codingame")
    record = play_game(GAME, [bot, make_bot(GAME, "wood3")], seed=5, max_plies=6, clock=game_clock("5/5", 2))
    bot.close()
    red = [t.action for t in record.turns if t.player == 0]
    assert red == ["WAIT", "MSG second", "MSG third"]


def test_an_unknown_program_is_a_crash_not_a_traceback(tmp_path: Path) -> None:
    record, _, _ = play_peer("/nonexistent/bot --fast", tmp_path)
    outcome = record.outcome  # type: ignore[attr-defined]
    assert outcome.termination == "crash" and "cannot start" in outcome.reason


@pytest.fixture(scope="module")
def c_bot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    gcc = shutil.which("gcc")
    if gcc is None:
        pytest.skip("gcc is not installed: the C peer cannot be built")
    target = tmp_path_factory.mktemp("cbot") / "chain_bot"
    subprocess.run([gcc, "-O2", "-o", str(target), str(PEERS / "chain_bot.c")], check=True)
    return target


def test_a_c_bot_plays_a_whole_game(c_bot: Path, tmp_path: Path) -> None:
    record, _, pid = play_peer(str(c_bot), tmp_path, first=1.0)
    outcome = record.outcome  # type: ignore[attr-defined]
    assert outcome.termination == "normal", outcome.reason
    assert outcome.reason == "turn limit: red wins on military score 3494 to 82"
    assert len(record.turns) == 200  # type: ignore[attr-defined]
    assert reaped(pid)


def test_a_c_bot_in_a_tournament_through_the_registry(c_bot: Path) -> None:
    bot = make_bot(GAME, f"external(cmd='{c_bot}',protocol=codingame,name=cbot)")
    assert bot.name == "cbot"
    record = play_game(
        GAME, [make_bot(GAME, "wood2"), bot], seed=9, clock=game_clock(CODINGAME, 2, grace=0.2)
    )
    bot.close()
    assert record.outcome.termination == "normal", record.outcome.reason


def random_states(count: int, seed: int) -> list[object]:
    rng = random.Random(seed)
    states = []
    for k in range(count):
        state = GAME.new_initial_state(rng.getrandbits(63) - 2**62)
        for _ in range(rng.randrange(1, 60)):
            if state.is_terminal():
                break
            state = state.apply_action(state.random_action(rng))
            states.append(state)
        if k and len(states) > count:
            break
    return [s for s in states if not s.is_terminal()]  # type: ignore[attr-defined]


def test_the_input_rebuilds_a_state_that_shows_the_same_input() -> None:
    for state in random_states(40, 3)[:60]:
        player = state.current_player()  # type: ignore[attr-defined]
        init = state.codingame_init(player).splitlines()  # type: ignore[attr-defined]
        text = state.codingame_turn(player)  # type: ignore[attr-defined]
        rebuilt = state_from_input(init, text.splitlines(), GAME, state.turn)  # type: ignore[attr-defined]
        assert rebuilt.current_player() == player
        assert rebuilt.codingame_turn(player) == text
        assert rebuilt.codingame_init(player) == state.codingame_init(player)  # type: ignore[attr-defined]


def test_a_cut_off_turn_input_names_the_missing_line() -> None:
    lines = iter(["21", "1", "20", "2", *["." * 12] * 12, "2", "0 0 0 0"])
    reader = LineReader(lambda: next((line + "\n" for line in lines), ""))
    with pytest.raises(ProtocolError, match="line 19 \\(building 2 of 2\\)"):
        read_turn(reader)


def test_standalone_bot_answers_the_spec_example() -> None:
    example = GAME.new_initial_state(1)
    text = example.codingame_init(0) + example.codingame_turn(0)
    for name in ("best", "postmortem", "wood1", "random"):
        done = subprocess.run(
            [sys.executable, "-m", "gridarena.cli.iceandfire", "bot", name],
            input=text,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        line = done.stdout.splitlines()
        assert len(line) == 1
        example.string_to_action(line[0])  # a line the referee recognises


def test_json_of_a_match_between_our_bot_behind_the_protocol_and_our_referee(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from gridarena.cli.iceandfire import main

    cmd = f"{sys.executable} -m gridarena.cli.iceandfire bot wood1"
    # Limits far above the bosses' turns: the test compares moves, and a loaded machine once made the
    # in-process wood2 overrun CodinGame's 50 ms at ply 45.
    limits = ["--first-turn-ms", "5000", "--turn-ms", "1000"]
    assert main(["match", "--p1", cmd, "--p2", "wood2", "--seed", "11", "--json", *limits]) == 0
    external = json.loads(capsys.readouterr().out)
    assert main(["match", "--p1", "wood1", "--p2", "wood2", "--seed", "11", "--json", *limits]) == 0
    internal = json.loads(capsys.readouterr().out)
    same = {"returns", "ranks", "winner", "termination", "forfeit_player", "reason", "plies", "info", "moves"}
    # the same bot, move for move, in the arena and behind the protocol
    assert {k: external[k] for k in same} == {k: internal[k] for k in same}
    assert external["specs"][0].startswith("external(cmd=") and internal["specs"][0] == "wood1"
    assert external["players"][0] == "iceandfire" and internal["players"][0] == "wood1"  # names, not specs
