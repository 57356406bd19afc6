"""The evaluation graph in the viewer: on request within bounds, stored by `gridarena analyze`, and in the export."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from test_web_browser import assert_board_is_engine, replay_path
from webtools import Served, engine_states


def graph_points(page: Any) -> list[int]:
    page.wait_for_selector("#eval-graph circle")
    return [
        int(p) for p in page.eval_on_selector_all("#eval-graph circle", "cs => cs.map(c => c.dataset.ply)")
    ]


def test_the_graph_opens_and_a_click_lands_on_that_ply(server: Served, page: Any, screenshots: Path) -> None:
    page.goto(server.url + "/tournaments/1")
    page.wait_for_selector("#games a.analysis")
    page.click("#games a.analysis[href='/tournaments/1/games/0/0?analysis=1']")
    states = engine_states(replay_path(server, 1, 0, 0))
    points = graph_points(page)
    assert sorted(set(points)) == list(range(len(states)))  # Isolation 7x7: every position, exact
    page.click("#eval-graph circle[data-ply='5']")
    assert_board_is_engine(page, states, 5)
    assert "ply=5" in page.url
    page.click(f"#eval-graph circle[data-ply='{len(states) - 2}']")
    assert_board_is_engine(page, states, len(states) - 2)
    analysis = server.json("/api/tournaments/1/games/0/0/analysis")
    marked = {p["ply"] + 1: p["mark"] for p in analysis["plies"] if p["mark"]}
    shown = dict(
        page.eval_on_selector_all(
            "#moves li.marked", "ls => ls.map(l => [Number(l.dataset.ply), l.dataset.mark])"
        )
    )
    assert shown == marked
    assert analysis["plies"][0]["before_text"] == "lost"  # 7x7 is a second-player win
    assert page.locator("#eval-players tr").count() == 3
    page.screenshot(path=str(screenshots / "web-analysis.png"), full_page=True)


def test_the_analysis_api_is_bounded_and_refuses_bad_paths(server: Served) -> None:
    analysis = server.json("/api/replays/analysis?path=2/0-0.json.gz")
    assert analysis["game"] == "slidingpuzzle" and analysis["kind"] == "distance"
    assert analysis["source"] == "made on request" and analysis["seconds_per_position"] <= 0.25
    status, _, body = server.get("/api/replays/analysis?path=../../etc/passwd")
    assert status == 400 and '"error"' in body
    status, _, _ = server.get("/api/tournaments/1/games/99/0/analysis")
    assert status == 404


def test_a_stored_analysis_is_shown(server: Served, page: Any) -> None:
    command = [sys.executable, "-m", "gridarena", "analyze", "--db", str(server.db), "--tournament", "2"]
    done = subprocess.run(
        [*command, "--backend", "inline", "--time", "0.2", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert '"solver"' in done.stdout
    analysis = server.json("/api/tournaments/2/games/0/0/analysis")
    assert analysis["source"] == "stored by gridarena analyze"
    assert server.json("/api/tournaments/2")["games"][0]["analysed"]
    page.goto(server.url + "/tournaments/2/games/0/0?analysis=1")
    points = graph_points(page)
    page.click(f"#eval-graph circle[data-ply='{points[3]}']")
    states = engine_states(replay_path(server, 2, 0, 0))
    assert_board_is_engine(page, states, points[3])


def test_the_export_carries_the_graph_and_works_from_disk(server: Served, page: Any, tmp_path: Path) -> None:
    source = replay_path(server, 1, 0, 0)
    out = tmp_path / "analysed.html"
    command = [sys.executable, "-m", "gridarena", "analyze", str(source), "--time", "0.2", "--html", str(out)]
    subprocess.run(command, check=True, capture_output=True)
    states = engine_states(source)
    page.goto(out.as_uri())
    points = graph_points(page)
    assert sorted(set(points)) == list(range(len(states)))
    page.click("#eval-graph circle[data-ply='4']")
    assert_board_is_engine(page, states, 4)


def test_one_analysis_at_a_time_and_answers_are_kept(server: Served) -> None:
    from starlette.exceptions import HTTPException

    from gridarena.web import analysis

    path = replay_path(server, 2, 0, 0)
    made = analysis.bounded_analysis(path)
    assert analysis.bounded_analysis(path) is made  # kept: no second analysis
    other = replay_path(server, 1, 1, 0)
    with analysis._busy:
        try:
            analysis.bounded_analysis(other)
        except HTTPException as exc:
            assert exc.status_code == 503
        else:
            raise AssertionError("a second analysis ran while one was running")
        assert analysis.bounded_analysis(path) is made  # a kept answer needs no turn
