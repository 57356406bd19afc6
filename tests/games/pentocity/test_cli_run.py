"""``gridarena pentocity run`` and ``tournament``: seeds, statistics, JSON and errors (called directly)."""

from __future__ import annotations

import json

import pytest

from gridarena.arena.seeds import run_seed, to_java_long
from gridarena.cli import pentocity as cli
from gridarena.cli.options import Parser
from gridarena.core.errors import GridArenaError, UnknownNameError
from gridarena.core.registry import make_bot
from gridarena.games.pentocity.reference import REFERENCE_2016, SEEDS_2016
from gridarena.games.pentocity.rules import Pentocity
from gridarena.games.pentocity.simulator import play

# The random player on `starsandblocks` ends within a hundred requests, in a few hundredths of a second.
FAST = ["--player", "random", "--sequencer", "starsandblocks"]


def single(player: str, sequencer: str, seed: int) -> int:
    """The score of one game played directly on the loop (the player seeded like the stream)."""
    game = Pentocity(sequencer=sequencer)
    return int(play(game, make_bot(game, player), seed=seed).final_state.score)


def invoke(argv: list[str]) -> int:
    parser = Parser()  # the command line's parser: a value out of range is a GridArenaError
    cli.configure(parser)
    return cli.run(parser.parse_args(argv))


def test_run_with_seeds_prints_scores_mean_and_interval(capsys: pytest.CaptureFixture[str]) -> None:
    assert invoke(["run", *FAST, "--seeds", "869,84", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["seeds"] == [869, 84]
    assert len(data["scores"]) == 2 and data["n"] == 2
    low, high = data["ci95"]
    assert low <= data["mean"] == sum(data["scores"]) / 2 <= high
    assert data["scores"][1] == single("random", "starsandblocks", 84)


def test_run_with_one_seed_replays_its_stream(capsys: pytest.CaptureFixture[str]) -> None:
    assert invoke(["run", *FAST, "--seed", "400", "--repeats", "2", "--json", "--quiet"]) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert data["seeds"] == [400, 400]
    assert data["bot_seeds"] == [400, to_java_long(run_seed(400, 1))]
    assert captured.err == ""


def test_a_deterministic_player_repeats_its_score(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["run", "--player", "diagonal", "--sequencer", "g4", "--seed", "869", "--repeats", "2", "--json"]
    assert invoke(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["scores"][0] == data["scores"][1] > 1500
    assert data["sd"] == 0.0 and data["ci95"] == [data["mean"], data["mean"]]


def test_run_derives_seeds_from_the_master_seed(capsys: pytest.CaptureFixture[str]) -> None:
    assert invoke(["run", *FAST, "--master", "7", "--repeats", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["seeds"] == [to_java_long(run_seed(7, 0)), to_java_long(run_seed(7, 1))]


def test_run_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert invoke(["run", *FAST, "--seed", "869"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("random on starsandblocks: ") and "n = 1" in out[0]
    assert out[1].startswith("scores: ")


@pytest.mark.parametrize(
    ("argv", "error"),
    [
        (["run", "--player", "nobody", "--seed", "1"], UnknownNameError),
        (["run", *FAST, "--seed", "1", "--repeats", "0"], GridArenaError),
        (["run", "--player", "diagonal", "--sequencer", "g7", "--seed", "1"], UnknownNameError),
        (["run", *FAST, "--seeds", "1,x"], GridArenaError),
        (["run", *FAST, "--seeds", "1,2", "--repeats", "3"], GridArenaError),
        (
            ["tournament", "--players", "packer(depth=2)", "--sequencers", "g6", "--seeds", "1"],
            GridArenaError,
        ),
    ],
)
def test_bad_input_raises_a_named_error(argv: list[str], error: type[Exception]) -> None:
    with pytest.raises(error):
        invoke(argv)


def test_tournament_table_beside_the_2016_means(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "tournament",
        "--players",
        "random",
        "--sequencers",
        "starsandblocks,misfits",
        "--seeds",
        "869,84",
    ]
    assert invoke([*argv, "--workers", "1", "--quiet"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "2016 best" in lines[0] and "random" in lines[0]
    assert lines[1].split()[0] == "starsandblocks" and lines[1].split()[-3:] == ["1807", "(g5)", "1655"]
    assert lines[2].split()[0] == "misfits"


def test_tournament_json_on_a_pool_of_two(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["tournament", "--players", "random", "--sequencers", "starsandblocks", "--seeds", "869,84"]
    assert invoke([*argv, "--workers", "2", "--json", "--quiet"]) == 0
    data = json.loads(capsys.readouterr().out)
    (row,) = data["rows"]
    assert row["best_2016"] == 1807 and row["best_2016_player"] == "g5"
    scores = row["players"]["random"]["scores"]
    assert 0 < row["players"]["random"]["max_cpu_seconds"] <= row["players"]["random"]["max_seconds"] + 1
    assert scores == [single("random", "starsandblocks", s) for s in (869, 84)]


def test_the_reference_table_is_the_spec_table() -> None:
    assert len(REFERENCE_2016) == 14 and SEEDS_2016[0] == 869 and len(set(SEEDS_2016)) == 10
    assert REFERENCE_2016["random"].best == 2070 and REFERENCE_2016["g6"].group == "g6"


def test_sequence_still_works(capsys: pytest.CaptureFixture[str]) -> None:
    assert invoke(["sequence", "--sequencer", "random", "--seed", "869", "--count", "2"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 2
