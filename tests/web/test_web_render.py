"""The renderers and the frame around them, without a browser.

Every registered game draws every position of a seeded game as SVG whose data attributes are the
engine's position; `gridarena replay --svg/--html` writes them; a game the project does not know
(a toy registered by this test) is viewed, served and exported through the registry alone.
"""

from __future__ import annotations

import json
import random
import threading
import time
import urllib.request
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from webtools import expected_position, free_port

from gridarena import catalogue
from gridarena.arena.replay import ReplayRecorder, read_replay
from gridarena.cli.main import main
from gridarena.core import registry
from gridarena.core.play import play_game
from gridarena.core.registry import available_games, make, make_bot, renderer
from gridarena.web.frames import view_of
from gridarena.web.pages import export_html

SVG = "{http://www.w3.org/2000/svg}svg"
#: Small but real instances: every ply of one seeded random game is drawn.
SPECS = {
    "isolation": "isolation(width=5,height=4)",
    "slidingpuzzle": "slidingpuzzle(rows=3,cols=3,scramble=12,max_moves=30)",
    "pentocity": "pentocity",
}


def test_every_registered_game_has_a_renderer() -> None:
    assert all(registry.has_renderer(game) for game in available_games())


@pytest.mark.parametrize("name", available_games())
def test_the_picture_of_every_ply_is_the_engine_position(name: str) -> None:
    """Every registered game (a new one included): one SVG document per ply whose root names the game
    and the ply; for the games whose position attributes this test knows, they are the engine's."""
    game = make(SPECS.get(name, name))
    draw = renderer(name)
    rng = random.Random(5)
    state, last, ply = game.new_initial_state(5), None, 0
    while True:
        root = ET.fromstring(draw(state, last_action=last))
        assert root.tag == SVG and root.get("data-game") == name
        assert root.get("data-ply") == str(ply), f"{name}: ply {ply}"
        if name in SPECS:
            for key, value in expected_position(state).items():
                assert root.get(f"data-{key}") == value, f"{name}: ply {ply}: data-{key}"
        if state.is_terminal() or ply >= 60:
            break
        last = state.random_action(rng)
        state, ply = state.apply_action(last), ply + 1


def test_isolation_marks_the_last_jump_and_both_players_legal_cells() -> None:
    game = make("isolation")
    state = game.new_initial_state()
    for cell in ("a1", "g7", "b3"):
        state = state.apply_action(state.string_to_action(cell))
    root = ET.fromstring(renderer("isolation")(state, last_action=state.string_to_action("b3")))
    assert root.get("data-last") == "b3"
    assert root.get("data-legal-1") == " ".join(state.action_to_string(c) for c in state.moves_of(0))
    assert root.get("data-legal-2") == " ".join(state.action_to_string(c) for c in state.moves_of(1))
    dots = [c for c in root.iter("{http://www.w3.org/2000/svg}circle") if "legal" in (c.get("class") or "")]
    assert len(dots) == len(state.moves_of(0)) + len(state.moves_of(1))
    clickable = {e.get("data-action") for e in root.iter() if e.get("data-action")}
    assert clickable == {state.action_to_string(c) for c in state.legal_actions()}


def test_the_puzzle_picture_counts_slides_and_offers_each_tile_that_can_move() -> None:
    state = make("slidingpuzzle(rows=3,cols=3,scramble=5)").new_initial_state(2)
    root = ET.fromstring(renderer("slidingpuzzle")(state))
    offered = sorted(
        a for e in root.iter() if e.get("data-actions") for a in e.get("data-actions", "").split("|")
    )
    assert offered == sorted(state.action_to_string(a) for a in state.legal_actions())
    assert "slides 0" in "".join(root.itertext())


def test_pentocity_shows_the_running_score() -> None:
    game = make("pentocity")
    state, rng = game.new_initial_state(1), random.Random(1)
    while state.score == 0:
        state = state.apply_action(state.random_action(rng))
    svg = renderer("pentocity")(state)
    assert f"score {state.score}" in svg and f'data-score="{state.score}"' in svg


@pytest.fixture
def replay_file(tmp_path: Path) -> Path:
    game = make("isolation(width=5,height=5)")
    path = tmp_path / "game.jsonl"
    names = ["greedy", "random"]
    bots = [make_bot(game, n) for n in names]
    play_game(
        game,
        bots,
        seed=4,
        names=names,
        recorders=[ReplayRecorder(path, game, names, 4, game.new_initial_state(4))],
    )
    return path


def test_replay_svg_and_html(replay_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    replay = read_replay(replay_file)
    out = tmp_path / "board.svg"
    assert main(["replay", str(replay_file), "--svg", str(out), "--ply", "3"]) == 0
    root = ET.fromstring(out.read_text())
    assert root.get("data-ply") == "3" and root.get("data-last") == replay.turns[2]["action"]
    assert main(["replay", str(replay_file), "--svg", str(out)]) == 0  # default: the last ply
    assert ET.fromstring(out.read_text()).get("data-ply") == str(len(replay.turns))
    page = tmp_path / "game.html"
    assert main(["replay", str(replay_file), "--html", str(page)]) == 0
    text = page.read_text()
    assert "<script src" not in text and "http://" not in text.replace("http://www.w3.org", "")
    data = json.loads(text.split('id="replay-data">', 1)[1].split("</script>", 1)[0])
    assert len(data["frames"]) == len(replay.turns) + 1 and data["seed_text"] == "4"
    capsys.readouterr()
    assert main(["replay", str(replay_file), "--svg", str(out), "--ply", "999"]) == 1
    assert "plies 0 to" in capsys.readouterr().err
    assert main(["replay", str(replay_file), "--ply", "2"]) == 1
    assert main(["replay", str(tmp_path / "missing.jsonl"), "--html", str(page)]) == 1
    assert "no such file" in capsys.readouterr().err
    assert main(["replay", str(replay_file), "--svg", str(tmp_path / "no" / "dir" / "x.svg")]) == 1
    assert "cannot write" in capsys.readouterr().err


def test_a_replay_the_engine_refuses_still_shows_its_stored_text(replay_file: Path) -> None:
    replay = read_replay(replay_file)
    replay.turns[4]["action"] = "a1"  # already taken: the engine stops following here
    view = view_of(replay)
    assert view.problem is not None and "ply 4" in view.problem
    assert 'data-board="' in view.frame(4) and 'class="board text-board"' in view.frame(6)
    assert "data-text=" in view.frame(6)


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.read().decode()


def test_a_new_game_plugs_in_with_its_renderer_alone(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import uvicorn

    from gridarena.web.app import create_app

    monkeypatch.setitem(catalogue.GAMES, "toy", "toygame:ENTRY")  # type: ignore[index]
    game = make("toy(start=6)")
    names = ["random", "random#2"]
    path = tmp_path / "toy.jsonl"
    recorder = ReplayRecorder(path, game, names, 1, game.new_initial_state(1))
    record = play_game(
        game, [make_bot(game, "random"), make_bot(game, "random")], seed=1, names=names, recorders=[recorder]
    )
    view = view_of(read_replay(path))
    assert view.problem is None and view.plies == record.plies
    assert (
        'data-game="toy"' in view.frame(1)
        and 'data-ply="1"' in view.frame(1)
        and "toy-counter" in view.frame(0)
    )
    exported = export_html("toy", view.payload(kind="file"), view.frames())
    assert exported.count("toy-counter") >= 6

    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(create_app(None, tmp_path), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 20
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.05)
        base = f"http://127.0.0.1:{port}"
        frame = _get(f"{base}/api/replays/frame?path=toy.jsonl&ply=2")
        assert 'data-game="toy"' in frame and 'data-ply="2"' in frame
        assert "toy.jsonl" in _get(f"{base}/replays")
        assert '"game":"toy"' in _get(f"{base}/replays/view?path=toy.jsonl")
        listed: list[Any] = json.loads(_get(f"{base}/api/replays"))
        assert [r["path"] for r in listed] == ["toy.jsonl"]
    finally:
        server.should_exit = True
        thread.join(timeout=10)
    monkeypatch.setitem(catalogue.GAMES, "toy", "toygame:ENTRY_TEXT")  # type: ignore[index]  # no renderer: text
    assert "6 left" in view_of(read_replay(path)).frame(0)


def test_every_static_file_ships_in_the_package() -> None:
    import tomllib

    root = Path(__file__).resolve().parents[2]
    patterns = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"][
        "gridarena"
    ]
    suffixes = {p.rsplit("*", 1)[-1] for p in patterns if p.startswith("**/*.")}
    static = root / "src" / "gridarena" / "web" / "static"
    files = [p for p in static.iterdir() if p.is_file()]
    assert files and all(p.suffix in suffixes for p in files), (files, suffixes)
