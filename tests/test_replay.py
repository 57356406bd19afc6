"""Replays: incremental writing, cut-off files, compaction, re-simulation and clear errors."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from gridarena.arena.replay import ReplayRecorder, compact, format_replay, read_replay
from gridarena.cli.main import main
from gridarena.cli.replay import check_replay
from gridarena.core.bot import Decision
from gridarena.core.errors import GridArenaError, ReplayFormatError
from gridarena.core.files import FileReadError
from gridarena.core.play import play_game
from gridarena.core.registry import make, make_bot


def record_game(path: Path, seed: int = 5) -> int:
    game = make("isolation(width=5,height=5)")
    names = ["greedy", "random"]
    recorder = ReplayRecorder(path, game, names, seed, game.new_initial_state(seed))
    record = play_game(game, [make_bot(game, n) for n in names], seed=seed, names=names, recorders=[recorder])
    return record.plies


def test_a_replay_holds_header_every_ply_and_the_result(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    plies = record_game(path)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines[0]["format"] == "gridarena-replay" and lines[0]["game"] == "isolation"
    assert lines[0]["options"] == {"width": 5, "height": 5} and lines[0]["seed"] == 5
    assert [line["ply"] for line in lines[1:-1]] == list(range(plies))
    assert lines[-1]["result"]["termination"] == "normal" and lines[-1]["result"]["plies"] == plies
    replay = read_replay(path)
    assert check_replay(replay, str(path)) == plies
    assert "result: returns" in format_replay(replay)


def test_a_replay_kept_in_memory_matches_the_file(tmp_path: Path) -> None:
    game = make("isolation(width=5,height=5)")
    names = ["greedy", "random"]
    path = tmp_path / "game.jsonl"
    on_disk = ReplayRecorder(path, game, names, 5, game.new_initial_state(5))
    memory = ReplayRecorder(None, game, names, 5, game.new_initial_state(5))
    play_game(game, [make_bot(game, n) for n in names], seed=5, names=names, recorders=[on_disk, memory])
    assert [p.name for p in tmp_path.iterdir()] == ["game.jsonl"]  # the memory copy wrote no file
    expected = json.dumps(read_replay(path).to_json(), separators=(",", ":")).encode()
    assert memory.writer.document() == expected
    with pytest.raises(ValueError, match="closed"):
        memory.writer.turn({"ply": 99})


def test_a_cut_off_replay_keeps_its_prefix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.jsonl"
    record_game(path)
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:5]) + "\n" + lines[5][: len(lines[5]) // 2])  # killed mid-write
    messages: list[str] = []
    replay = read_replay(path, warn=messages.append)
    assert len(replay.turns) == 4 and replay.result is None
    assert messages == [f"{path}:6: dropped an incomplete last line"]
    assert "cut off" in format_replay(replay)
    assert check_replay(replay, str(path)) == 4
    with pytest.warns(UserWarning, match="dropped an incomplete last line"):
        read_replay(path)  # without a callback: a Python warning
    assert main(["replay", str(path)]) == 0
    assert f"warning: {path}:6: dropped an incomplete last line\n" in capsys.readouterr().err


def test_compact_writes_one_gzipped_document(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    record_game(path)
    digest = compact(path, tmp_path / "game.json.gz")
    document = json.loads(gzip.decompress((tmp_path / "game.json.gz").read_bytes()))
    assert set(document) == {"header", "turns", "result"} and len(digest) == 64
    assert read_replay(tmp_path / "game.json.gz").to_json() == read_replay(path).to_json()


def test_a_tampered_replay_fails_the_check(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    record_game(path)
    lines = path.read_text().splitlines()
    turn = json.loads(lines[3])
    turn["action"] = "a1" if turn["action"] != "a1" else "b1"
    lines[3] = json.dumps(turn)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(GridArenaError, match="ply 2"):
        check_replay(read_replay(path), str(path))


@pytest.mark.parametrize(
    "content,message",
    [
        ("", "empty file"),
        ('{"format": "other"}\n', "not a gridarena replay"),
        ('{"format": "gridarena-replay", "version": 9}\n', "version 9"),
        ('{"format": "gridarena-replay", "version": 1}\nnot json\n{"ply": 0}\n', ":2: invalid JSON"),
        ('{"format": "gridarena-replay", "version": 1}\n{"x": 1}\n', ":2: expected a turn"),
        ('{"format": "gridarena-replay", "version": 1}\n[1]\n', ":2: each line must be a JSON object"),
    ],
)
def test_bad_replays_name_file_and_line(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(content)
    with pytest.raises(ReplayFormatError, match=message):
        read_replay(path)


def test_a_missing_or_corrupt_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(FileReadError, match=r"missing\.jsonl: cannot read the replay: no such file"):
        read_replay(tmp_path / "missing.jsonl")
    (tmp_path / "x.json.gz").write_bytes(b"\x1f\x8b\x08garbage")
    with pytest.raises(FileReadError, match="corrupt gzip"):
        read_replay(tmp_path / "x.json.gz")


class _InfiniteScore:
    """A bot whose info holds what Python's json writes but JSON lacks: the reader refuses NaN and the
    infinities (issue 31), so the writer must never put them in a replay."""

    def __init__(self) -> None:
        self.inner = make_bot(make("isolation(width=4,height=4)"), "greedy")

    def reset(self, game: Any, seat: int, seed: int) -> None:
        self.inner.reset(game, seat, seed)

    def act(self, state: Any, clock: Any) -> Decision:
        decision = self.inner.act(state, clock)
        return Decision(decision.action, {"score": float("inf"), "spread": [float("nan"), -float("inf")]})


def test_a_bots_infinite_score_is_written_as_text_and_reads_back(tmp_path: Path) -> None:
    game = make("isolation(width=4,height=4)")
    path = tmp_path / "inf.jsonl"
    recorder = ReplayRecorder(path, game, ["inf", "random"], 1, game.new_initial_state(1))
    play_game(game, [_InfiniteScore(), make_bot(game, "random")], seed=1, recorders=[recorder])
    assert "NaN" not in path.read_text().replace('"NaN"', "")
    first = read_replay(path).turns[0]
    assert first["info"] == {"score": "Infinity", "spread": ["NaN", "-Infinity"]}
