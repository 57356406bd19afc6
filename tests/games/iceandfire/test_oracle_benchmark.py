"""``benchmarks/iceandfire_oracle.py``: `best`'s judged variants played out, and programs started in
mid-game."""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

BENCHMARKS = Path(__file__).resolve().parents[3] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import iceandfire_oracle as oracle  # noqa: E402

from gridarena.core.registry import make  # noqa: E402
from gridarena.games.iceandfire.ai.best import BestBot  # noqa: E402

# A CodinGame program that keeps everything it reads and waits; it fails (exit 1) on a turn whose
# input it cannot have expected: a first turn of its own with more than 2 cells (not the map's start).
RECORDER = r"""
import sys
seen = open(sys.argv[1], "w")
def line():
    text = sys.stdin.readline()
    if not text:
        sys.exit(0)
    seen.write(text)
    seen.flush()
    return text.strip()
first = True
spots = int(line())
for _ in range(spots):
    line()
while True:
    seen.write("--- turn\n")
    for _ in range(4):
        line()
    rows = [line() for _ in range(12)]
    if first and sum(row.count("O") + row.count("o") for row in rows) > 2:
        sys.exit(1)
    first = False
    for _ in range(int(line())):
        line()
    for _ in range(int(line())):
        line()
    print("WAIT", flush=True)
"""


def test_a_program_started_in_mid_game_reads_the_opening_first_then_the_position(tmp_path: Path) -> None:
    game = make("iceandfire")
    program = tmp_path / "recorder.py"
    program.write_text(RECORDER)
    seen = tmp_path / "seen.txt"
    state = game.new_initial_state(seed=3)
    for _ in range(12):  # six turns each: red trains a unit and waits, blue walks one along its edge
        state = state.apply_action(state.string_to_action(state.legal_texts()[-1]))
    log: list[Any] = []
    won, starts = oracle.play_from(game, state, "best", f"rec={sys.executable} {program} {seen}", 3, 0, log)
    assert won  # the recorder only waits (blue now holds 7 cells: it would fail on this as its first turn)
    blocks = seen.read_text().split("--- turn\n")
    opening = oracle.opening_text(game, 3, 0)
    init = state.codingame_init(1)
    assert blocks[0] == init  # read once, before the opening
    assert init + blocks[1] == opening  # then blue's first turn of the map's start
    assert len(blocks) >= 4  # and the position's turns after it, each read whole
    assert len(log) == len(starts)  # one list of judged variants per turn of the bot


def test_the_variant_log_holds_each_turns_judged_variants_with_the_commands_played() -> None:
    game = make("iceandfire")
    log: list[Any] = []
    won, starts = oracle.play_from(game, game.new_initial_state(seed=1), "best", "wood1", 1, 1, log)
    assert won and len(log) == len(starts)
    judged = [turn for turn in log if turn]
    assert judged, "best judged no variant in a whole game"
    for turn in judged:
        for commands, value in turn:
            assert isinstance(value, float) and all(isinstance(c, str) for c in commands)


def test_the_summary_compares_the_pick_with_the_other_variants() -> None:
    def position(seed: int, won: bool, variants: list[tuple[float, int, bool]]) -> dict[str, Any]:
        rows = [{"commands": [], "value": v, "won": w, "chosen": c} for v, w, c in variants]
        return {"opponent": "x", "seed": seed, "seat": 0, "game_won": won, "replays": 2, "variants": rows}

    positions = [
        position(1, False, [(10.0, 0, True), (5.0, 2, False), (1.0, 1, False)]),  # another variant wins
        position(2, True, [(10.0, 2, True), (5.0, 0, False)]),  # another variant loses every replay
    ]
    results = {(1, 0): False, (2, 0): True, (3, 0): True}  # seed 3: a game with no position
    row = oracle.summary(positions, results, random.Random(1))
    assert row[:3] == ("x", "3 (1 lost)", "2")
    assert row[3:5] == ("0.500", "0.375")  # picks 0 and 1; others (1 + 0.5) / 2 and 0
    assert row[5].startswith("+0.125 [")
    assert row[6] == "2 / 2"  # 10 > 5 and 10 > 1 against the outcomes, 5 > 1 and (seed 2) 10 > 5 with them
    assert row[7:] == ("1 of 1", "1 of 2", "4 of 5")


def test_a_run_prints_the_table_and_writes_every_position(tmp_path: Path) -> None:
    out = tmp_path / "oracle.json"
    command = [sys.executable, str(BENCHMARKS / "iceandfire_oracle.py"), "--opponent", "postmortem"]
    command += ["--seeds", "1", "--turns", "5-5", "--replays", "1", "--quiet", "--json", str(out)]
    run = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    assert "| opponent | games | positions | judge's pick won |" in run.stdout
    assert "| postmortem | 2 (" in run.stdout
    positions = json.loads(out.read_text())
    assert positions and all(p["turn"] == 5 and len(p["variants"]) >= 2 for p in positions)
    assert all(sum(v["chosen"] for v in p["variants"]) == 1 for p in positions)


def test_bad_options_are_one_line_each() -> None:
    for options, said in (
        (["--turns", "9-5"], "need 1 <= FIRST <= LAST"),
        (["--turns", "x"], "--turns is FIRST-LAST"),
        (["--replays", "0"], "at least 1"),
        (["--opponent", "programs"], "one opponent"),
    ):
        command = [sys.executable, str(BENCHMARKS / "iceandfire_oracle.py"), *options]
        run = subprocess.run(command, capture_output=True, text=True, timeout=120)
        assert run.returncode == 2 and said in run.stderr and "Traceback" not in run.stderr, run.stderr


def test_best_keeps_no_log_unless_asked() -> None:
    assert BestBot.variant_log is None


def test_a_variant_that_takes_the_hq_counts_as_won_without_a_replay() -> None:
    class Over:
        def is_terminal(self) -> bool:
            return True

        def outcome(self) -> Any:
            return type("Outcome", (), {"returns": (-1.0, 1.0)})()

    class Position:
        def string_to_action(self, text: str) -> str:
            return text

        def apply_action(self, action: str) -> Over:
            return Over()

    args = argparse.Namespace(bot="best", replays=3)
    variants = {("TRAIN 3 10 11",): 5.0, ("WAIT",): 1.0}
    rows = oracle.replay(make("iceandfire"), args, "wood1", 1, 1, Position(), variants, ("TRAIN 3 10 11",))
    assert [(r["won"], r["chosen"]) for r in rows] == [(3, True), (3, False)]


def test_ctrl_c_prints_the_row_of_the_positions_done_and_exits_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    game = make("iceandfire")
    state = game.new_initial_state(seed=1)
    calls: list[int] = []

    def one_game(game: Any, bot: str, spec: str, seed: int, seat: int, low: int, high: int) -> Any:
        calls.append(seed)
        if len(calls) > 1:
            raise KeyboardInterrupt
        return False, [(state, {("WAIT",): 2.0, ("MOVE 1 1 0",): 1.0}, ("WAIT",))]

    def played_out(*args: Any) -> list[dict[str, Any]]:
        return [
            {"commands": ["WAIT"], "value": 2.0, "won": 0, "chosen": True},
            {"commands": ["MOVE 1 1 0"], "value": 1.0, "won": 2, "chosen": False},
        ]

    monkeypatch.setattr(oracle, "positions_of", one_game)
    monkeypatch.setattr(oracle, "replay", played_out)
    monkeypatch.setattr(sys, "argv", ["iceandfire_oracle.py", "--seeds", "5", "--quiet"])
    with pytest.raises(SystemExit) as stop:
        oracle.main()
    assert stop.value.code == 130
    out, err = capsys.readouterr()
    assert "interrupted: the table below is of the 1 position done" in err
    assert "seeds 1-1 (stopped; 5 asked for)" in out
    assert "| postmortem | 1 (1 lost) | 1 | 0.000 | 1.000 |" in out


def test_ctrl_c_before_any_position_says_so_and_exits_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def stopped(*args: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(oracle, "positions_of", stopped)
    monkeypatch.setattr(sys, "argv", ["iceandfire_oracle.py", "--quiet"])
    with pytest.raises(SystemExit) as stop:
        oracle.main()
    assert stop.value.code == 130
    said = "interrupted before the first position was played out: no table, no --json file\n"
    assert capsys.readouterr().err == said
