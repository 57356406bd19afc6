"""``gridarena reversixt verify-trace | mapinfo | perft``, the arena's tournament on 2-8 seats, and bad input."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from rxt_data import folder

from gridarena.cli.main import main
from gridarena.games.reversixt.formats import read_map
from gridarena.games.reversixt.mapinfo import describe

EIGHT = "8\n0\n1 0\n2 4\n1 2 3 4\n8 7 6 5\n"
"""A tiny eight-player map: a ring of one stone each, one bomb of radius 0 each."""


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def maps(shared_data: Path) -> Path:
    return folder(shared_data) / "semmelsamu-reversixt-bot" / "maps"


# ---------------------------------------------------------------------------------------------
# verify-trace


def test_verify_trace_agrees(shared_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    trace = folder(shared_data) / "golden" / "crown.server.log.gz"
    code, out, _ = run(
        ["reversixt", "verify-trace", str(maps(shared_data) / "initialMaps/crown.map"), str(trace)], capsys
    )
    assert code == 0
    assert "84 moves and 10 bombs agree" in out


def test_verify_trace_reads_plain_text_and_reports_a_divergence(
    shared_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = gzip.decompress((folder(shared_data) / "golden" / "map1.server.log.gz").read_bytes()).decode()
    good = tmp_path / "map1.log"
    good.write_text(text)
    map1 = str(maps(shared_data) / "fightclub/map1.map")
    assert run(["reversixt", "verify-trace", map1, str(good), "--quiet"], capsys) == (0, "", "")
    bad = tmp_path / "bad.log"
    head, tail = text.rsplit("Player 2: ", 1)
    bad.write_text(head + "Player 2: 77" + tail[tail.index(" points") :])
    code, out, _ = run(["reversixt", "verify-trace", map1, str(bad)], capsys)
    assert code == 1
    first = out.splitlines()[0]
    assert first.startswith("move 11 (") and str(bad) in first and "final scores" in first


def test_verify_trace_of_another_map_is_one_line(
    shared_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    trace = folder(shared_data) / "golden" / "example.server.log.gz"
    code, out, err = run(
        ["reversixt", "verify-trace", str(maps(shared_data) / "initialMaps/crown.map"), str(trace)], capsys
    )
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and "3-player game but the map crown has 4 players" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["verify-trace", "nowhere.map", "x.log"], "nowhere.map: cannot read the map"),
        (["mapinfo", "nowhere.map"], "nowhere.map: cannot read the map"),
        (["perft", "othello8", "--depth", "-1"], "argument --depth: must be an integer from 0 to 100"),
    ],
)
def test_bad_input_is_one_clear_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(["reversixt", *args], capsys)
    assert code == 1 and err.count("\n") == 1 and message in err and "Traceback" not in err


def test_malformed_map_is_one_clear_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.map"
    bad.write_text("2\n0\n0 0\n1 2\n1 2\n0 0 0 -> 1 0 0\n")
    code, _, err = run(["reversixt", "mapinfo", str(bad)], capsys)
    assert code == 1 and err.strip().endswith(
        "bad.map:6:7: invalid delimiter (transition 0: '->' instead of '<->')"
    )
    trace = tmp_path / "t.log"
    trace.write_text("")
    code, _, err = run(["reversixt", "verify-trace", str(bad), str(trace)], capsys)
    assert code == 1 and err.count("\n") == 1


# ---------------------------------------------------------------------------------------------
# mapinfo and perft


def test_mapinfo_text_and_json(shared_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    example = str(maps(shared_data) / "example.map")
    code, out, _ = run(["reversixt", "mapinfo", example], capsys)
    assert code == 0
    assert "map example: 3 players, 15 rows x 15 columns, 125 fields, 100 holes" in out
    assert "special fields: choice 2, inversion 2, bonus 2, expansion 5" in out
    code, out, _ = run(["reversixt", "mapinfo", example, "--json"], capsys)
    data = json.loads(out)
    assert data["transitions"] == 2 and data["stones"] == [3, 3, 3] and data["isolated_regions"] == 0


def test_mapinfo_finds_isolated_regions_and_reachability() -> None:
    from gridarena.games.reversixt.formats import parse_map

    m = parse_map("2 1 0 0 3 4  1 2 - 0  - - - -  0 x - 0")
    info = describe(m)
    assert [r.size for r in info.regions] == [2, 1, 2, 1]
    assert info.reachable == (2, 2)
    assert [r.first for r in info.isolated] == [(3, 0), (0, 2), (3, 2)]
    assert info.isolated[1].expansions == 1
    assert "isolated regions" in info.to_text()


def test_mapinfo_regions_follow_transitions(shared_data: Path) -> None:
    info = describe(read_map(maps(shared_data) / "initialMaps/window.map"))
    assert sum(r.size for r in info.regions) == info.fields
    assert info.transitions == 20


def test_perft_uses_the_fast_engine(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["reversixt", "perft", "othello8", "--depth", "4", "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    assert data["leaves"] == 244 and data["seconds"] >= 0
    code, out, _ = run(["reversixt", "perft", "sampler", "--depth", "2"], capsys)
    assert code == 0 and out.startswith("perft(2) = 387 in ")


# ---------------------------------------------------------------------------------------------
# The arena: 2-8 seats through `gridarena tournament`, and the replay's picture


@pytest.mark.parametrize(
    ("spec", "players"),
    [("reversixt(map=othello8)", 2), ("reversixt(map=sampler)", 3), ("EIGHT", 8)],
)
def test_tournament_through_the_arena(
    spec: str,
    players: int,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    if spec == "EIGHT":
        (tmp_path / "maps").mkdir()
        (tmp_path / "maps" / "eight.map").write_text(EIGHT)
        spec = "reversixt(map=maps/eight.map)"
    code, out, err = run(
        ["tournament", spec, "--players", ",".join(["random"] * players), "--games", "2", "--seed", "3"],
        capsys,
    )
    assert code == 0, err
    assert "Forfeits: random 0" in out
    replays = sorted(tmp_path.rglob("*.json*"))
    assert replays
    code, _, err = run(["replay", str(replays[0]), "--check"], capsys)
    assert code == 0, err
    svg = tmp_path / "end.svg"
    code, _, err = run(["replay", str(replays[0]), "--svg", str(svg)], capsys)
    assert code == 0, err
    picture = svg.read_text()
    assert picture.startswith("<svg") and picture.count('class="field"') + picture.count('class="hole"') >= 8


def test_replay_ply_needs_svg(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = run(
        ["tournament", "reversixt(map=mini)", "--players", "random,random", "--games", "1"], capsys
    )
    assert code == 0, err
    replay = sorted(tmp_path.rglob("*.json*"))[0]
    code, _, err = run(["replay", str(replay), "--ply", "2"], capsys)
    assert code == 1 and "--ply chooses the ply of --svg" in err
