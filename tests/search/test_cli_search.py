"""``gridarena search``, called through configure/run as the CLI would."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from gridarena.cli import search as command
from gridarena.core.errors import GridArenaError
from gridarena.games.isolation.rules import Isolation
from gridarena.search import minimax

from .positions import mobility


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    command.configure(parser)
    return parser.parse_args(argv)


def heuristic_args(*argv: str) -> argparse.Namespace:
    args = parse(*argv)
    args.heuristic = mobility  # a function passes through resolve_heuristic, as a name would
    return args


def test_json_lists_every_completed_depth(capsys: pytest.CaptureFixture[str]) -> None:
    args = heuristic_args("isolation(width=5,height=5)", "--moves", "c3,b1", "--depth", "4", "--json")
    assert command.run(args) == 0
    report = json.loads(capsys.readouterr().out)
    assert [row["depth"] for row in report["iterations"]] == [1, 2, 3, 4]
    state = Isolation(5, 5).new_initial_state().child(12).child(1)
    assert report["iterations"][-1]["score"] == minimax(state, 4, mobility).score
    assert report["total_nodes"] >= sum(row["nodes"] for row in report["iterations"])


@pytest.mark.parametrize("algorithm", sorted(command.ALGORITHMS))
def test_every_algorithm_answers_a_legal_move(algorithm: str, capsys: pytest.CaptureFixture[str]) -> None:
    args = heuristic_args(
        "isolation(width=4,height=4)", "--moves", "b2,c3", "--algorithm", algorithm, "--nodes", "3000"
    )
    assert command.run(args) == 0
    best = capsys.readouterr().out.strip()
    state = Isolation(4, 4).new_initial_state().child(5).child(10)
    assert state.string_to_action(best) in state.legal_actions()


def test_state_file_and_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = Isolation(4, 4).new_initial_state().child(5).child(10)
    saved = tmp_path / "position.json"
    saved.write_text(json.dumps(state.to_json()))
    assert (
        command.run(heuristic_args("isolation(width=4,height=4)", "--state", str(saved), "--depth", "2")) == 0
    )
    with pytest.raises(GridArenaError, match="move 2"):
        command.run(heuristic_args("isolation(width=4,height=4)", "--moves", "b2,b2"))
    with pytest.raises(GridArenaError, match="cannot read"):
        command.run(heuristic_args("isolation", "--state", str(tmp_path / "missing.json")))
    with pytest.raises(SystemExit):  # a node budget is at least 1 (cli/options.py): refused as it is read
        heuristic_args("isolation(width=4,height=4)", "--moves", "b2,c3", "--nodes", "0")
    assert "--nodes: must be an integer from 1" in capsys.readouterr().err
