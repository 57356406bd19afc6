"""Running one game from plain data: tasks, seeds, openings, replays, and forfeits rebuilt from a prefix."""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path

import pytest
from arenabots import BOTS

from gridarena.arena.backends import InlineBackend
from gridarena.arena.players import program_name
from gridarena.arena.replay import read_replay
from gridarena.arena.runner import (
    SHORT_SPEC,
    GameTask,
    entrant_names,
    forfeit_result,
    random_opening,
    run_game_task,
    short_name,
    start_state,
)
from gridarena.arena.store import Store
from gridarena.arena.tournament import TournamentConfig, run_tournament
from gridarena.core.errors import SpecError
from gridarena.core.registry import make


def _task(tmp_path: Path | None = None, **changes: object) -> GameTask:
    base = {
        "tournament": 1,
        "block": 0,
        "game": 0,
        "game_spec": "isolation(width=5,height=5)",
        "players": ("greedy", "random"),
        "names": ("greedy", "random"),
        "seed": 11,
        "bot_seeds": (1, 2),
        "replay": None if tmp_path is None else str(tmp_path / "0-0.json.gz"),
    }
    base.update(changes)
    return GameTask(**base)  # type: ignore[arg-type]


def test_a_task_is_plain_json_and_repeats_exactly() -> None:
    task = _task()
    assert GameTask.from_json(json.loads(json.dumps(task.to_json()))) == task
    first, second = run_game_task(task), run_game_task(task)
    keys = ("seats", "returns", "ranks", "termination", "plies")
    assert [first[k] for k in keys] == [second[k] for k in keys]


def test_the_replay_is_compacted_with_its_hash(tmp_path: Path) -> None:
    result = run_game_task(_task(tmp_path))
    path = Path(str(result["replay"]))
    data = path.read_bytes()
    assert hashlib.sha256(data).hexdigest() == result["replay_sha256"]
    document = json.loads(gzip.decompress(data))
    assert document["header"]["players"][0]["name"] == "greedy"
    assert len(document["turns"]) == result["plies"] and document["result"]["termination"] == "normal"
    assert not (tmp_path / "0-0.jsonl").exists()


def test_openings_are_drawn_from_the_block_seed() -> None:
    game = make("isolation(width=5,height=5)")
    opened = game.new_initial_state(3)
    for action in random_opening(game, 3, plies=2):
        opened = opened.apply_action(action)
    assert start_state(game, 3, "random(plies=2)") == opened
    assert start_state(game, 3, None) == game.new_initial_state(3)
    with pytest.raises(SpecError, match="unknown opening"):
        start_state(game, 3, "book")


def test_display_names_are_unique() -> None:
    assert entrant_names(["random", "random", "random(name=x)", "x"]) == ["random", "random#2", "x", "x#2"]


def test_a_bot_is_shown_by_its_name_never_a_long_spec() -> None:
    """``name=`` when given, the spec when short, else the catalogue's short name (issue 32)."""
    program = "external(cmd='python3 /home/student/projects/isolation/bots/my_bot.py --depth 4')"
    agent = "aind(file='/home/student/AIND-Isolation/game_agent.py',score='custom_score_2')"
    assert len(program) > SHORT_SPEC and len(agent) > SHORT_SPEC
    named = "external(cmd='python3 /home/student/projects/isolation/bots/my_bot.py',name=mine)"
    names = entrant_names([named, program, agent, "alphabeta(depth=3)"], "isolation")
    assert names == ["mine", "my_bot", "custom_score_2", "alphabeta(depth=3)"]
    assert short_name("ab_improved(timeout=5.0)", "isolation") == "AB_Improved"  # the catalogue's title
    assert short_name("aind(file='/x/game_agent.py')", "isolation") == "game_agent"
    assert short_name("python(file='/x/y/my_bots.py',cls=Deep)", "isolation") == "Deep"
    assert short_name("unknown_bot(x=1)", "isolation") == "unknown_bot"  # an extra bot: its own name


def test_long_specs_of_one_bot_show_what_tells_them_apart() -> None:
    specs = [
        "alphabeta(depth=5,heuristic='improved',tt=False,aspiration=50)",
        "alphabeta(depth=5,heuristic='open_move',tt=False,aspiration=50)",
        "alphabeta(depth=6,heuristic='open_move',tt=False,aspiration=50)",
    ]
    assert entrant_names(specs, "isolation") == [
        "alphabeta(depth=5,heuristic=improved)",
        "alphabeta(depth=5,heuristic=open_move)",
        "alphabeta(depth=6,heuristic=open_move)",
    ]
    programs = [f"external(cmd='python3 /home/student/projects/isolation/{d}/bot.py')" for d in ("a", "b")]
    assert entrant_names(programs, "isolation") == ["bot", "bot#2"]  # the spec is in the report beside it


def test_programs_are_named_by_their_file_not_their_arguments() -> None:
    assert program_name("./mybot --level 3") == "mybot"
    assert program_name("python3 -u /home/me/my_bot.py --depth 4") == "my_bot"
    assert program_name("node dist/bot.js") == "bot"
    assert program_name("java -cp bin Player") == "Player"


def test_a_killed_game_is_scored_from_its_replay_prefix(tmp_path: Path) -> None:
    task = _task(tmp_path)
    full = run_game_task(task)
    turns = json.loads(gzip.decompress(Path(str(full["replay"])).read_bytes()))["turns"]
    # Rebuild the JSON Lines prefix a worker killed at ply 3 would have left behind.
    jsonl = task.jsonl_path()
    assert jsonl is not None
    header = read_replay(Path(str(full["replay"]))).header
    lines = [json.dumps(header), *(json.dumps(t) for t in turns[:3])]
    jsonl.write_text("\n".join(lines) + "\n")
    result = forfeit_result(task, turns[3]["player"], "timeout", "killed")
    assert (result["termination"], result["forfeit_seat"], result["plies"]) == (
        "timeout",
        turns[3]["player"],
        3,
    )
    assert "killed" in str(result["detail"])
    assert read_replay(Path(str(result["replay"]))).result["termination"] == "timeout"  # type: ignore[index]


def test_a_deterministic_bot_against_itself_scores_exactly_one_point_per_pair() -> None:
    config = TournamentConfig("isolation(width=5,height=5)", ("greedy", "greedy"), games=8, seed=3)
    outcome = run_tournament(config, Store(":memory:"), InlineBackend())
    assert outcome.report["match"]["penta"] == [0, 0, 4, 0, 0]
    assert [r["score"] for r in outcome.report["standings"]] == [0.5, 0.5]


def test_a_random_bot_against_a_copy_gives_an_interval_containing_zero() -> None:
    config = TournamentConfig("isolation(width=5,height=5)", ("random", "random"), games=40, seed=5)
    report = run_tournament(config, Store(":memory:"), InlineBackend()).report
    low, high = report["standings"][0]["elo_ci95"]
    assert low < 0 < high
    json.dumps(report, allow_nan=False)  # no inf, no nan anywhere


def test_warm_up_runs_before_the_clock_starts() -> None:
    task = _task(players=("warming(seconds=0.5)", "random"), time="0.2", extra_bots=BOTS)
    result = run_game_task(task)
    assert result["termination"] == "normal", result["detail"]
