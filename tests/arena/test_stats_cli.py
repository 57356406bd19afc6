"""``gridarena stats`` reproduces each Elo and SPRT test vector from the command line."""

from __future__ import annotations

import argparse
import json

import pytest

from gridarena.cli import stats as stats_cli
from gridarena.core.errors import GridArenaError


def _cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    parser = argparse.ArgumentParser()
    stats_cli.configure(parser)
    assert stats_cli.run(parser.parse_args(argv)) == 0
    return capsys.readouterr().out


def _cli_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    data: dict[str, object] = json.loads(_cli([*argv, "--json"], capsys))
    return data


def test_cli_cutechess_row(capsys: pytest.CaptureFixture[str]) -> None:
    out = _cli(["--wld", "3225", "3068", "3707"], capsys)
    assert out.splitlines()[:2] == [
        "Elo: 5.46 +/- 5.40, nElo: 6.88 +/- 6.81",
        "LOS: 97.61 %, DrawRatio: 37.1 %",
    ]
    match = _cli_json(["--wld", "3225", "3068", "3707"], capsys)["match"]
    assert isinstance(match, dict)
    assert [round(x, 2) for x in match["elo_ci95"]] == [0.05, 10.86]


def test_cli_pentanomial_rows(capsys: pytest.CaptureFixture[str]) -> None:
    out = _cli(["--penta", "13", "37", "50", "25", "3", "--wl", "20", "--sprt", "0,5,0.05,0.05"], capsys)
    assert "Elo: -43.66 +/- 29.43, nElo: -63.97 +/- 42.56" in out
    assert "LLR: -0.69 (-2.94, 2.94) [0.00, 5.00]" in out
    out = _cli(["--penta", "34", "54", "63", "64", "75", "--wl", "31"], capsys)
    assert out.startswith("Elo: 55.58 +/- 27.65, nElo: 57.94 +/- 28.28")
    data = _cli_json(["--penta", "13", "37", "50", "25", "3"], capsys)
    match = data["match"]
    assert isinstance(match, dict)
    assert match["penta"] == [13, 37, 50, 25, 3] and match["draw_ratio"] is None
    assert round(match["los"] * 100, 2) == 0.16


def test_cli_fastchess_trinomial_row(capsys: pytest.CaptureFixture[str]) -> None:
    assert _cli(["--wld", "136", "96", "111"], capsys).startswith(
        "Elo: 40.70 +/- 30.43, nElo: 49.77 +/- 36.77"
    )


@pytest.mark.parametrize(
    ("argv", "llr"),
    [
        (["--wld", "36433", "36027", "68692", "--sprt", "0,2,0.05,0.05"], 0.92),
        (
            ["--penta", "365", "16618", "36229", "16974", "390", "--wl", "36029", "--sprt", "0,2,0.05,0.05"],
            2.25,
        ),
        (
            ["--wld", "21404", "21184", "40708", "--sprt", "0.5,2.5,0.05,0.05", "--sprt-model", "logistic"],
            -1.57,
        ),
    ],
)
def test_cli_sprt_rows(argv: list[str], llr: float, capsys: pytest.CaptureFixture[str]) -> None:
    match = _cli_json(argv, capsys)["match"]
    assert isinstance(match, dict)
    assert round(match["sprt"]["llr"], 2) == llr
    assert match["sprt"]["decision"] is None


def test_cli_six_nil(capsys: pytest.CaptureFixture[str]) -> None:
    out = _cli(["--wld", "6", "0", "0", "--sprt", "0,5,0.05,0.05"], capsys)
    assert out.startswith("Elo: > +77.5 (95 %), nElo: —")
    assert "LOS: 99.28 %" in out
    raw = _cli(["--wld", "6", "0", "0", "--json"], capsys)
    assert "Infinity" not in raw and "NaN" not in raw
    data = json.loads(raw)
    assert data["standings"][0]["elo"] is None
    assert round(data["standings"][0]["elo_ci95"][0], 1) == 77.5
    assert data["standings"][1]["elo_ci95"][0] is None
    assert round(data["standings"][1]["elo_ci95"][1], 1) == -77.5


def test_cli_table_and_names(capsys: pytest.CaptureFixture[str]) -> None:
    out = _cli(["--penta", "13", "37", "50", "25", "3", "--table", "--names", "new,old"], capsys)
    assert "new vs old" in out and "-43.66" in out
    data = _cli_json(["--wld", "5", "3", "2", "--names", "new,old"], capsys)
    standings = data["standings"]
    assert isinstance(standings, list)
    assert [row["player"] for row in standings] == ["new", "old"]
    assert standings[1]["wins"] == 3 and standings[1]["losses"] == 5


@pytest.mark.parametrize(
    "argv",
    [
        ["--wld", "0", "0", "0"],
        ["--wld", "1", "2", "3", "--wl", "1"],
        ["--wld", "1", "2", "3", "--sprt", "5,0,0.05,0.05"],
        ["--wld", "1", "2", "3", "--names", "solo"],
    ],
)
def test_cli_bad_input_raises_gridarena_error(argv: list[str]) -> None:
    parser = argparse.ArgumentParser()
    stats_cli.configure(parser)
    with pytest.raises(GridArenaError):
        stats_cli.run(parser.parse_args(argv))
