"""Fault injection: external programs and in-process bots that crash, hang, print garbage, answer late,
play illegal moves or exit early each forfeit with the right reason, and the tournament completes."""

from __future__ import annotations

import json
import os
import stat
import sys
import textwrap
import time
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from arenabots import BOTS

from gridarena.arena.backends import InlineBackend, ProcessBackend
from gridarena.arena.replay import ReplayRecorder, read_replay
from gridarena.arena.store import Store
from gridarena.arena.tournament import TournamentConfig, run_tournament
from gridarena.bots.external import MAX_LINE, ExternalBot
from gridarena.core.bot import BotForfeit
from gridarena.core.play import play_game
from gridarena.core.registry import make, make_bot

GAME = make("isolation(width=5,height=5)")

#: Each fault bot: what it does on a turn (the start-up is handled by the common prelude unless noted).
FAULTS = {
    "good": 'reply({"action": msg["legal"][0]})',
    "crash": 'print("segfault-ish trouble", file=sys.stderr, flush=True); sys.exit(7)',
    "hang": "time.sleep(60)",
    "garbage": 'print("e2e4 please", flush=True)',
    "late": 'time.sleep(1.0); reply({"action": msg["legal"][0]})',
    "illegal": 'reply({"action": "a1"})',
    "unreadable": 'reply({"action": "zz99"})',
    "noaction": 'reply({"move": 3})',
    # 64 MiB on stderr at its first turn (a log gone wild), then a last line and a good answer.
    "flood": 'flooded = globals().get("flooded") or sys.stderr.buffer.write(b"x" * (64 << 20) + b"\\nlast '
    'words\\n"); sys.stderr.flush(); reply({"action": msg["legal"][0]})',
    # One answer line of 50 MiB.
    "longline": 'sys.stdout.write("x" * (50 << 20) + "\\n"); sys.stdout.flush()',
    # Issue 31: JSON nested past Python's reader, an integer of 5,000 digits, JSON nested 100 levels.
    "deep": 'print("[" * 100000 + "]" * 100000, flush=True)',
    "digits": 'print(\'{"action": \' + "9" * 5000 + "}", flush=True)',
    "nested": 'reply({"action": msg["legal"][0], "info": json.loads("[" * 100 + "]" * 100)})',
    # Answers a good move with NaN, Infinity and 100 KB in its info.
    "odd_info": 'n = globals().get("n", 0) + 1; print(json.dumps({"action": msg["legal"][0], "info": '
    '{"score": float("nan"), "bound": float("inf")}}), flush=True) if n < 3 else reply({"action": '
    'msg["legal"][0], "info": {"log": "x" * 100000}})',
}

PRELUDE = """
import json, sys, time
def reply(obj):
    print(json.dumps(obj), flush=True)
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        {start}
    elif msg["type"] == "ping":
        reply({{"type": "pong"}})
    elif msg["type"] == "turn":
        {turn}
    else:
        break
"""


def write_bot(tmp_path: Path, turn: str, start: str = 'reply({"type": "ready", "name": "t"})') -> str:
    path = tmp_path / f"bot_{abs(hash((turn, start)))}.py"
    path.write_text(textwrap.dedent(PRELUDE).format(start=start, turn=turn))
    return f"{sys.executable} {path}"


def play_external(cmd: str, seconds: float | None = 0.5) -> tuple[str, int | None, str, ExternalBot]:
    bot = ExternalBot(cmd, name="ext", startup_timeout=2.0)
    record = play_game(
        GAME, [make_bot(GAME, "greedy"), bot], seed=2, names=["greedy", "ext"], time_per_move=seconds
    )
    bot.close()
    o = record.outcome
    return o.termination, o.forfeit_player, o.reason, bot


@pytest.mark.parametrize(
    "fault,termination,detail",
    [
        ("crash", "crash", "exit code 7"),
        ("hang", "timeout", "killed"),
        ("garbage", "protocol", "unparsable output"),
        ("late", "timeout", "killed"),
        ("illegal", "illegal", "a1 is"),
        ("unreadable", "protocol", "unreadable action 'zz99'"),
        ("noaction", "protocol", "expected {'action': text}"),
        ("deep", "protocol", "unparsable output"),
        ("digits", "protocol", "a number of more than 4300 digits"),
        ("nested", "protocol", "nested 17 levels deep (at most 16)"),
    ],
)
def test_an_external_fault_is_a_forfeit_with_its_reason(
    tmp_path: Path, fault: str, termination: str, detail: str
) -> None:
    got, seat, reason, bot = play_external(write_bot(tmp_path, FAULTS[fault]))
    assert (got, seat) == (termination, 1), reason
    assert reason.startswith("ext: ") and detail in reason
    assert bot.process is None  # killed and reaped: no zombie left behind


def test_odd_info_is_kept_readable_in_the_replay(tmp_path: Path) -> None:
    """NaN and the infinities stay as their text, a large info becomes a note: the replay reads back."""
    bot = ExternalBot(write_bot(tmp_path, FAULTS["odd_info"]), name="ext", startup_timeout=2.0)
    path = tmp_path / "odd.jsonl"
    state = GAME.new_initial_state(2)
    recorder = ReplayRecorder(path, GAME, ["greedy", "ext"], 2, state)
    record = play_game(
        GAME, [make_bot(GAME, "greedy"), bot], seed=2, names=["greedy", "ext"], recorders=[recorder]
    )
    bot.close()
    assert record.outcome.termination == "normal", record.outcome.reason
    infos = [turn.get("info") for turn in read_replay(path).turns if turn["player"] == 1]
    assert infos[0] == {"score": "NaN", "bound": "Infinity"}
    assert {"info_dropped": "100011 bytes, more than 4096"} in infos


def test_the_stderr_tail_is_in_the_detail(tmp_path: Path) -> None:
    _, _, reason, _ = play_external(write_bot(tmp_path, FAULTS["crash"]))
    assert "segfault-ish trouble" in reason


@pytest.mark.parametrize(
    "start,detail",
    [
        ('print("hello", flush=True)', "unparsable output during start-up"),
        ('reply({"type": "nope"})', "expected a ready message"),
        ("sys.exit(0)", "exited during start-up"),
        ("time.sleep(60)", "no answer to start-up"),
    ],
)
def test_a_failed_handshake_forfeits_the_first_move(tmp_path: Path, start: str, detail: str) -> None:
    bot = ExternalBot(write_bot(tmp_path, FAULTS["good"], start=start), name="ext", startup_timeout=0.3)
    record = play_game(GAME, [make_bot(GAME, "greedy"), bot], seed=2, names=["greedy", "ext"])
    assert record.outcome.forfeit_player == 1 and detail in record.outcome.reason
    assert record.outcome.termination in ("protocol", "crash", "timeout")


def open_file_bytes() -> int:
    """Bytes in the regular files this process holds open (where a spool of stderr would be)."""
    total = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            info = os.stat(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        total += info.st_size if stat.S_ISREG(info.st_mode) else 0
    return total


def test_a_flood_on_stderr_keeps_only_its_tail(tmp_path: Path) -> None:
    before = open_file_bytes()
    bot = ExternalBot(write_bot(tmp_path, FAULTS["flood"]), name="ext")
    seen: list[tuple[int, str]] = []

    class Watch:
        def turn(self, turn: Any, state: Any) -> None:
            if turn.player == 1 and not seen:
                seen.append((open_file_bytes() - before, bot.stderr_tail()))

        def result(self, record: Any) -> None:
            """Nothing to watch at the end."""

    tracemalloc.start()
    try:
        record = play_game(
            GAME, [make_bot(GAME, "greedy"), bot], seed=2, time_per_move=5.0, recorders=[Watch()]
        )
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        bot.close()
    assert record.outcome.termination == "normal", record.outcome.reason
    spooled, tail = seen[0]
    assert spooled < 1 << 20 and peak < 16 << 20  # not 64 MiB in a file, nor in memory
    assert tail.endswith("last words") and len(tail) <= 2048


@pytest.mark.parametrize("seconds", [1.0, None], ids=["timed", "untimed"])
def test_a_line_longer_than_the_limit_is_a_protocol_forfeit_as_it_is_read(
    tmp_path: Path, seconds: float | None
) -> None:
    tracemalloc.start()
    started = time.perf_counter()
    try:
        got, seat, reason, _ = play_external(write_bot(tmp_path, FAULTS["longline"]), seconds)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert (got, seat) == ("protocol", 1) and f"a line longer than {MAX_LINE} bytes during a turn" in reason
    assert time.perf_counter() - started < 5.0 and peak < 4 * MAX_LINE


def test_a_missing_program_is_a_crash_not_an_arena_error() -> None:
    bot = ExternalBot("/nonexistent/bot --fast", name="ext")
    record = play_game(GAME, [bot, make_bot(GAME, "greedy")], seed=2, names=["ext", "greedy"])
    assert record.outcome.termination == "crash" and "cannot start" in record.outcome.reason


def test_a_good_external_bot_plays_whole_games_and_reports_latency(tmp_path: Path) -> None:
    got, _, _, bot = play_external(write_bot(tmp_path, FAULTS["good"]), seconds=1.0)
    assert got == "normal" and len(bot.latency_ms) == 3


def test_a_tournament_with_faulty_entrants_completes_with_every_other_game_intact(tmp_path: Path) -> None:
    crash = write_bot(tmp_path, FAULTS["crash"])
    garbage = write_bot(tmp_path, FAULTS["garbage"])
    players = (
        "greedy",
        f"external(cmd={crash!r},name=crashy)",
        f"external(cmd={garbage!r},name=noisy)",
        "random",
    )
    config = TournamentConfig("isolation(width=5,height=5)", players, games=2, seed=1, time="0.5")
    store = Store(tmp_path / "t.sqlite")
    outcome = run_tournament(config, store, InlineBackend())
    report = outcome.report
    assert outcome.status == "done" and report["games"] == 12
    # Each faulty entrant forfeits every game it moves in; against each other, the first mover does.
    assert report["forfeits"]["crashy"] == {"crash": 5} and report["forfeits"]["noisy"] == {"protocol": 5}
    both = [g for g in store.games(1) if set(g["seats"]) == {"crashy", "noisy"}]
    assert [g["forfeit_seat"] for g in both] == [0, 0]
    clean = [g for g in store.games(1) if "crashy" not in g["seats"] and "noisy" not in g["seats"]]
    assert len(clean) == 2 and all(g["termination"] == "normal" for g in clean)
    assert (
        report["bots"]["noisy"]["latency_ms_median"] > 0
        and report["bots"]["greedy"]["latency_ms_median"] is None
    )
    json.dumps(report, allow_nan=False)


def test_in_process_faults_in_worker_processes(tmp_path: Path) -> None:
    """Raise, late answer, illegal, garbage, a hang killed at the hard limit, and a worker that dies."""
    faults = {
        "raise": "crash",
        "sleep": "timeout",
        "illegal": "illegal",
        "garbage": "protocol",
        "hang": "timeout",
        "exit": "crash",
    }
    players = ("greedy", *(f"faulty(fault='{f}',seconds=0.6,name='{f}')" for f in faults))
    config = TournamentConfig(
        "isolation(width=5,height=5)",
        players,
        games=2,
        seed=2,
        time="0.3",
        grace=0.1,
        format="gauntlet",
        extra_bots=BOTS,
    )
    store = Store(tmp_path / "t.sqlite")
    backend = ProcessBackend(2)
    try:
        outcome = run_tournament(config, store, backend)
    finally:
        backend.close()
    report = outcome.report
    assert outcome.status == "done" and report["games"] == 2 * len(faults)
    for name, reason in faults.items():
        assert report["forfeits"][name] == {reason: 2}, name
    details = {g["seats"][g["forfeit_seat"]]: g["detail"] for g in store.games(1)}
    assert "killed" in details["hang"] and "worker died" in details["exit"]
    assert "RuntimeError: deliberate bug" in details["raise"]


def test_a_program_that_stops_reading_cannot_block_the_arena(tmp_path: Path) -> None:
    # On its first turn it sleeps without reading: the next message, larger than the pipe, cannot go through.
    bot = ExternalBot(write_bot(tmp_path, FAULTS["hang"]), name="ext", startup_timeout=2.0)
    bot.reset(GAME, 0, 1)
    soon = time.perf_counter() + 1.0
    bot._send(
        {"type": "turn", "state": {}, "legal": ["a1"], "player": 0, "time_left_ms": None}, soon, "a turn"
    )
    started = time.perf_counter()
    with pytest.raises(BotForfeit, match="stopped reading its input during a test; killed"):
        bot._send({"type": "turn", "padding": "x" * 1_000_000}, time.perf_counter() + 0.3, "a test")
    assert time.perf_counter() - started < 2.0 and bot.process is not None and bot.process.poll() is not None
    bot.close()
