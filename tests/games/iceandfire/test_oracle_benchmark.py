"""``benchmarks/iceandfire_oracle.py``: `best`'s judged variants played out, and programs started in
mid-game."""

from __future__ import annotations

import argparse
import itertools
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

from gridarena.core.gameclock import game_clock  # noqa: E402
from gridarena.core.play import play_game  # noqa: E402
from gridarena.core.registry import make, make_bot  # noqa: E402
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

    args = argparse.Namespace(bot="best", replays=3, noise=0.0)
    variants: dict[tuple[str, ...], float] = {("TRAIN 3 10 11",): 5.0, ("WAIT",): 1.0}
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
        return False, [(state, {("WAIT",): 2.0, ("MOVE 1 1 0",): 1.0}, ("WAIT",))], ""

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


def test_judge_noise_is_added_to_each_judged_value_before_the_choice() -> None:
    game = make("iceandfire")
    bot = make_bot(game, "best")
    assert isinstance(bot, BestBot) and BestBot.judge_noise is None
    log: list[Any] = []
    bot.variant_log = log
    rising = itertools.count()
    bot.judge_noise = lambda: 1e6 * next(rising)  # each variant judged outweighs those before it
    record = play_game(
        game, [bot, make_bot(game, "wood1")], seed=1, clock=game_clock("1/0.05", 2, clock="cpu")
    )
    ours = [t.action for t in record.turns if t.player == 0]
    several = [(turn, action) for turn, action in zip(log, ours, strict=False) if len(turn) >= 2]
    assert several, "no turn of the game had two judged variants"
    for turn, action in several:
        assert turn[-1][1] > 5e5  # the noise is in the logged value
        assert action == ";".join(turn[-1][0]) or "WAIT"  # and the last variant judged was played


def earlier_position(seed: int, seat: int, outcomes: list[tuple[float, int, bool]]) -> dict[str, Any]:
    state = make("iceandfire").new_initial_state(seed=seed)
    rows = [
        {"commands": [f"MOVE {i} 1 1"], "value": value, "won": won, "chosen": chosen}
        for i, (value, won, chosen) in enumerate(outcomes)
    ]
    return {
        "opponent": "postmortem",
        "seed": seed,
        "seat": seat,
        "turn": 1,
        "game_won": False,
        "replays": 2,
        "state": state.to_json(),
        "variants": rows,
    }


def run_main(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *options: str) -> str:
    """The benchmark's ``main`` with ``options`` (and ``--quiet``): what it printed."""
    monkeypatch.setattr(sys, "argv", ["iceandfire_oracle.py", *options, "--quiet"])
    oracle.main()
    return capsys.readouterr().out


def test_positions_of_an_earlier_run_are_played_out_again_beside_their_outcomes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    earlier = tmp_path / "earlier.json"
    earlier.write_text(
        json.dumps(
            [
                earlier_position(4, 0, [(3.0, 0, True), (2.0, 2, False), (1.0, 1, False)]),
                earlier_position(7, 1, [(3.0, 2, True), (2.0, 0, False)]),
            ]
        )
    )
    now = {"MOVE 0 1 1": 1, "MOVE 1 1 1": 2, "MOVE 2 1 1": 0}  # the first position again, 0 and 2 swapped
    seen: list[Any] = []

    def played_out(
        game: Any, args: Any, spec: str, seed: int, seat: int, state: Any, variants: Any, played: Any
    ) -> Any:
        seen.append((seed, seat, state.turn, args.noise, played))
        won = now if seed == 4 else {"MOVE 0 1 1": 2, "MOVE 1 1 1": 1}
        return [
            {"commands": list(c), "value": v, "won": won[c[0]], "chosen": c == played}
            for c, v in variants.items()
        ]

    monkeypatch.setattr(oracle, "replay", played_out)
    out = tmp_path / "again.json"
    text = run_main(monkeypatch, capsys, "--positions", str(earlier), "--noise", "20", "--json", str(out))
    assert seen == [(4, 0, 1, 20.0, ("MOVE 0 1 1",)), (7, 1, 1, 20.0, ("MOVE 0 1 1",))]
    assert (
        "seeds 4-7, both seats, the positions of" in text
        and "(played against postmortem; the games won and lost are that run's)" in text
    )
    assert "judge noise 20" in text
    # The pairs the earlier outcomes order: 1 > 0, 1 > 2 and 2 > 0 in the first position (now 1 of 2,
    # 2 of 2 and 0 of 2 won: the last the other way), 0 > 1 in the second (now 2 of 2 against 1).
    assert "ordered alike now 3, the other way 1" in text
    # The earlier outcomes choose variant 1, then 0 (now won 1 and 1); the pick is variant 0 both
    # times (0.5 and 1); the mean variant 0.5 and 0.75.
    said = "won now by the variant they chose 1.000, by the judge's pick 0.750 (the difference +0.250 ["
    assert said in text and "by the mean variant 0.625" in text
    kept = json.loads(out.read_text())
    assert [[v["before"] for v in p["variants"]] for p in kept] == [[0.0, 1.0, 0.5], [1.0, 0.0]]
    assert all(p["noise"] == 20.0 for p in kept)


def test_the_agreement_is_perfect_when_the_outcomes_are_the_same() -> None:
    rows = [
        {"before": b, "won": 2 * b, "chosen": c, "value": 0.0}
        for b, c in ((1.0, False), (0.0, True), (0.5, False))
    ]
    line = oracle.again([{"seed": 1, "seat": 0, "replays": 2, "variants": rows}], random.Random(1))
    assert "correlation 1.00" in line and "ordered alike now 3, the other way 0" in line
    assert (
        "by the variant they chose 1.000, by the judge's pick 0.000 (the difference +1.000 [+1.000, +1.000])"
        in line
    )
    assert "by the mean variant 0.500" in line


def test_bad_positions_files_are_one_line_each(tmp_path: Path) -> None:
    good = earlier_position(4, 0, [(3.0, 0, True), (2.0, 2, False)])
    cases: list[tuple[Any, str]] = [
        (None, "No such file"),
        ("{", "not JSON"),
        ({"a": 1}, "not a list of positions"),
        (
            [good, {**good, "opponent": "morozec"}],
            "position 1 was played against morozec, position 0 against",
        ),
        ([{k: v for k, v in good.items() if k != "state"}], "position 0 has no field 'state'"),
        ([{**good, "variants": [good["variants"][0]]}], "not a list of two or more"),
        ([{**good, "variants": [{"commands": []}, {"commands": []}]}], "a variant without 'value'"),
        (
            [{**good, "variants": [{**v, "chosen": True} for v in good["variants"]]}],
            "not one variant marked chosen",
        ),
        ([{**good, "state": {**good["state"], "gold": "x"}}], "seed 4 seat 0: iceandfire state"),
        ([{**good, "seat": 2}], "seat 2, replays 2"),
        ([{**good, "seed": "4"}], "are not whole numbers"),
        (
            [{**good, "variants": [{**v, "commands": "MOVE"} for v in good["variants"]]}],
            "not a list of texts",
        ),
        (
            [{**good, "variants": [{**v, "won": 3} for v in good["variants"]]}],
            "'value' or 'won' is out of place",
        ),
        (
            [{**good, "variants": [{**v, "commands": ["FLY 1 2"]} for v in good["variants"]]}],
            "seed 4 seat 0: ",
        ),
    ]
    for content, said in cases:
        path = tmp_path / "positions.json"
        path.unlink(missing_ok=True)
        if content is not None:
            path.write_text(content if isinstance(content, str) else json.dumps(content))
        command = [
            sys.executable,
            str(BENCHMARKS / "iceandfire_oracle.py"),
            "--positions",
            str(path),
            "--quiet",
        ]
        run = subprocess.run(command, capture_output=True, text=True, timeout=120)
        assert run.returncode in (1, 2) and said in run.stderr and "Traceback" not in run.stderr, (
            said,
            run.stderr,
        )
    command = [sys.executable, str(BENCHMARKS / "iceandfire_oracle.py"), "--noise", "-1"]
    run = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and "a standard deviation from 0 to 10000" in run.stderr


def test_an_opponent_that_forfeits_every_game_is_named_when_no_position_remains(tmp_path: Path) -> None:
    dead = tmp_path / "dead.py"
    dead.write_text("import sys\nsys.exit(3)\n")
    command = [sys.executable, str(BENCHMARKS / "iceandfire_oracle.py"), "--seeds", "1", "--quiet"]
    run = subprocess.run(
        [*command, "--opponent", f"dead={sys.executable} {dead}"], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr
    said = "no position with two or more judged variants in the window; the opponent forfeited 2 of 2 games (dead: "
    assert said in run.stderr and "exit code 3" in run.stderr


def stopped_at_the_second_position(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    step: str,
    answer: Any,
) -> str:
    """``main`` on three earlier positions with the benchmark's ``step`` (``replay`` or ``foresee``)
    answering ``answer`` for the first and Ctrl-C on the second: what it printed (it exits 130)."""
    earlier = tmp_path / "earlier.json"
    positions = [earlier_position(seed, 0, [(2.0, 2, True), (1.0, 0, False)]) for seed in (4, 5, 6)]
    earlier.write_text(json.dumps(positions))
    calls: list[int] = []

    def stepped(game: Any, args: Any, spec: str, seed: int, *rest: Any) -> Any:
        calls.append(seed)
        if len(calls) > 1:
            raise KeyboardInterrupt
        return answer

    monkeypatch.setattr(oracle, step, stepped)
    options = ["--foresight", "0"] if step == "foresee" else []
    monkeypatch.setattr(
        sys, "argv", ["iceandfire_oracle.py", "--positions", str(earlier), *options, "--quiet"]
    )
    with pytest.raises(SystemExit) as stop:
        oracle.main()
    assert stop.value.code == 130
    return capsys.readouterr().out


def test_ctrl_c_while_playing_positions_again_names_the_positions_done(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [
        {"commands": ["MOVE 0 1 1"], "value": 2.0, "won": 1, "chosen": True},
        {"commands": ["MOVE 1 1 1"], "value": 1.0, "won": 0, "chosen": False},
    ]
    out = stopped_at_the_second_position(tmp_path, monkeypatch, capsys, "replay", rows)
    assert "seeds 4-5 (stopped; 1 of 3 positions)" in out
    assert "pairs they order, ordered alike now 1, the other way 0" in out


def test_positions_played_against_one_opponent_may_be_played_out_against_another(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    earlier = tmp_path / "earlier.json"
    earlier.write_text(
        json.dumps([{**earlier_position(4, 0, [(2.0, 2, True), (1.0, 0, False)]), "opponent": "morozec"}])
    )
    against: list[str] = []

    def played_out(game: Any, args: Any, spec: str, *rest: Any) -> Any:
        against.append(spec)
        return [
            {"commands": ["MOVE 0 1 1"], "value": 2.0, "won": 0, "chosen": True},
            {"commands": ["MOVE 1 1 1"], "value": 1.0, "won": 1, "chosen": False},
        ]

    monkeypatch.setattr(oracle, "replay", played_out)
    out = tmp_path / "again.json"
    text = run_main(
        monkeypatch, capsys, "--positions", str(earlier), "--opponent", "wood1", "--json", str(out)
    )
    assert against == ["wood1"]
    assert (
        "best against wood1: seeds 4-4, both seats, the positions of" in text
        and "(played against morozec; the games won and lost are that run's)" in text
    )
    assert "| wood1 | 1 (1 lost) | 1 |" in text
    assert "ordered alike now 0, the other way 1" in text
    assert json.loads(out.read_text())[0]["opponent"] == "wood1"


def test_foresight_measures_each_variant_after_the_opponents_real_turns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    earlier = tmp_path / "earlier.json"
    earlier.write_text(json.dumps([earlier_position(4, 0, [(2.0, 2, True), (1.0, 0, False)])]))
    out = tmp_path / "foresight.json"
    text = run_main(
        monkeypatch,
        capsys,
        "--positions",
        str(earlier),
        "--opponent",
        "wood1",
        "--foresight",
        "1",
        "--json",
        str(out),
    )
    assert "best against wood1: the positions of" in text and "their outcomes against postmortem" in text
    assert "then 1 turn pair (the bot's turn and the reply" in text
    assert "| the judge's choice | its modelled reply and rollout | 1 / 0 | +0.500 [" in text
    assert "| the real game | after the opponent's reply |" in text
    assert "| the real game | after 1 more turn pair |" in text
    kept = json.loads(out.read_text())
    assert kept[0]["foresight"] == 1 and [v["won"] for v in kept[0]["variants"]] == [
        2,
        0,
    ]  # the earlier outcomes
    for v in kept[0]["variants"]:  # two points (after the reply, after one pair), two measures each
        assert len(v["foresight"]) == 2 and all(len(point) == 2 for point in v["foresight"])
        assert all(abs(point[0]) < oracle.ENDED and point[1] == int(point[1]) for point in v["foresight"])


def test_the_measures_of_a_position_are_the_judges_value_and_the_active_cells() -> None:
    game = make("iceandfire")
    state = game.new_initial_state(seed=4)  # red holds its HQ's cell, blue two cells
    judge = make_bot(game, "best")
    assert isinstance(judge, BestBot)
    cells = []
    for command in ("TRAIN 1 1 0", "TRAIN 1 2 0"):  # red trains along the top row, blue waits
        state = state.apply_action(state.string_to_action(command))
        state = state.apply_action(state.string_to_action("WAIT"))
        value, lead = oracle.measures(judge, state, 0)
        assert value == round(value, 1) and judge.turns == state.turn - 1
        cells.append(lead)
    assert cells == [0.0, 1.0]  # 2 cells against 2, then 3 against 2
    assert oracle.measures(judge, state, 1)[1] == -1.0  # blue's view of the same position


def test_a_game_that_ends_before_a_point_counts_as_won_or_lost_there(monkeypatch: pytest.MonkeyPatch) -> None:
    game = make("iceandfire")
    start = game.new_initial_state(seed=4)
    from gridarena.core.types import Outcome

    def ended(game: Any, after: Any, bot: str, spec: str, seed: int, seat: int, **kw: Any) -> Any:
        assert kw["plies"] == 1 + 2 * 3
        kw["outcomes"].append(Outcome((1.0, -1.0), "normal") if seed == 1 else Outcome((-1.0, 1.0), "normal"))
        return True, [start]  # one point reached, then the game ended

    monkeypatch.setattr(oracle, "play_from", ended)
    args = argparse.Namespace(bot="best", foresight=3)
    won = oracle.foresee(game, args, "wood1", 1, 0, start, [["WAIT"]])
    lost = oracle.foresee(game, args, "wood1", 2, 0, start, [["WAIT"]])
    assert (
        won[0][1:] == [[oracle.ENDED, oracle.ENDED]] * 3
        and lost[0][1:] == [[-oracle.ENDED, -oracle.ENDED]] * 3
    )
    assert won[0][0] == lost[0][0] == oracle.measures(make_bot(game, "best"), start, 0)


def test_the_foresight_table_orders_variants_by_each_measure_against_the_outcomes() -> None:
    def position(seed: int, variants: list[tuple[float, int, list[list[float]]]]) -> dict[str, Any]:
        rows = [{"value": v, "won": won, "foresight": f} for v, won, f in variants]
        return {"seed": seed, "seat": 0, "replays": 2, "variants": rows}

    positions = [
        # The judge ranks the loser first; after the reply both measures rank the winner first.
        position(1, [(5.0, 0, [[1.0, -3.0]]), (1.0, 2, [[2.0, 4.0]]), (0.0, 1, [[0.0, 4.0]])]),
        position(2, [(1.0, 2, [[-1.0, 0.0]]), (0.0, 0, [[1.0, 0.0]])]),
    ]
    lines = oracle.foresight_table(positions, 0)
    judge, real = lines[2], lines[3]
    # The judge: pairs (0>1: against, 0>2: against, 1>2: alike; 1>0 in the second: alike) -> 2 / 2;
    # first-ranked won 0 (mean 0.5) and 1 (mean 0.5): -0.5 and +0.5 -> +0.000.
    assert "| 2 / 2 | +0.000 [" in judge
    # After the reply, the judge's value: 1>0 alike, 1>2 alike, 0>2 against; 1>0 in the second against
    # -> 2 / 2; first-ranked 1.0 (+0.5) and 0.0 (-0.5). Cells: 1>0, 2>0 alike, 1=2 not counted; the
    # second's equal values order nothing -> 2 / 0; first-ranked (of equals the first) 1.0 and 1.0.
    assert "| after the opponent's reply | 2 / 2 | +0.000 [" in real and "| 2 / 0 | +0.500 [" in real


def test_foresight_options_are_checked(tmp_path: Path) -> None:
    earlier = tmp_path / "earlier.json"
    earlier.write_text(json.dumps([earlier_position(4, 0, [(2.0, 2, True), (1.0, 0, False)])]))
    for options, said in (
        (["--foresight", "2"], "--foresight needs --positions FILE"),
        (["--positions", str(earlier), "--foresight", "11"], "--foresight 11: from 0 to 10"),
        (
            ["--positions", str(earlier), "--foresight", "1", "--bot", "wood1"],
            "--bot wood1: not a best(...) bot",
        ),
    ):
        command = [sys.executable, str(BENCHMARKS / "iceandfire_oracle.py"), *options]
        run = subprocess.run(command, capture_output=True, text=True, timeout=120)
        assert run.returncode == 2 and said in run.stderr and "Traceback" not in run.stderr, run.stderr


def test_ctrl_c_while_foreseeing_prints_the_table_of_the_positions_done(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = stopped_at_the_second_position(
        tmp_path, monkeypatch, capsys, "foresee", [[[1.0, 2.0]], [[0.0, 1.0]]]
    )
    assert "(stopped; 1 of 3 positions)" in out and "| after the opponent's reply | 1 / 0 | +0.500 [" in out


def test_an_opponent_that_forfeits_the_variants_games_is_named_under_the_foresight_table(
    tmp_path: Path,
) -> None:
    dead = tmp_path / "dead.py"
    dead.write_text("import sys\nsys.exit(3)\n")
    earlier = tmp_path / "earlier.json"
    earlier.write_text(json.dumps([earlier_position(4, 0, [(2.0, 2, True), (1.0, 0, False)])]))
    command = [sys.executable, str(BENCHMARKS / "iceandfire_oracle.py"), "--positions", str(earlier)]
    run = subprocess.run(
        [*command, "--foresight", "1", "--opponent", f"dead={sys.executable} {dead}", "--quiet"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr
    assert (
        "the opponent forfeited 2 of the 2 variants' games (dead: " in run.stdout
        and "exit code 3" in run.stdout
    )
