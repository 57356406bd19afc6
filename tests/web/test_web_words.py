"""The viewer in words (issue 32), in a real browser: each game's replay page says how the game ended in
a sentence (never an array of returns), shows the game's parameters as a small table (never a map's
text), draws each seat in the colour its board uses, numbers every ply as the board counts them (an
opening included) without clipping, and the play page keeps each label beside its field.

Screenshots of every game's replay page and of the play page are written to ``build/screenshots/
web-words/`` (``GRIDARENA_SCREENSHOTS`` names another folder; ``build/`` is not committed): look at them.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from test_web_browser import replay_path, wait_ply
from webtools import SAMPLER_TEXT, Served

from gridarena import make, make_bot, play_game
from gridarena.arena.replay import ReplayRecorder, read_replay

SHOTS = Path(
    os.environ.get("GRIDARENA_SCREENSHOTS", Path(__file__).resolve().parents[2] / "build" / "screenshots")
)
#: A result printed as numbers: an array of returns, or a float with its 16 digits.
RAW_RESULT = re.compile(r"\[\s*-?\d|\d\.\d{5,}")
#: What each game's sentence says (the test database's games: see webtools.TOURNAMENTS).
GAMES = [
    (1, "isolation", "has no legal move left"),
    (2, "slidingpuzzle", "solved it in"),
    (3, "pentocity", "points with"),
    (4, "reversixt", "stones"),
    (5, "iceandfire", "HQ"),
    (6, "isolation", "has no legal move left"),
]


@pytest.fixture(scope="module")
def shots() -> Path:
    folder = SHOTS / "web-words"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def open_last_ply(server: Served, page: Any, tournament: int) -> Any:
    """The replay of game 0-0 at its last ply; its replay file's contents."""
    replay = read_replay(replay_path(server, tournament, 0, 0))
    page.goto(f"{server.url}/tournaments/{tournament}/games/0/0")
    page.wait_for_selector("#board svg")
    page.keyboard.press("End")
    page.wait_for_function(
        "(n) => document.querySelector('#board').dataset.ply === String(n)", arg=len(replay.turns)
    )
    return replay


@pytest.mark.parametrize(("tournament", "name", "says"), GAMES, ids=[f"{t}-{n}" for t, n, _ in GAMES])
def test_each_game_says_how_it_ended_in_words(
    server: Served, page: Any, shots: Path, screenshots: Path, tournament: int, name: str, says: str
) -> None:
    replay = open_last_ply(server, page, tournament)
    result = page.inner_text("#result")
    assert says in result and not RAW_RESULT.search(result), result
    names = [p["name"] for p in replay.header["players"]]
    winners = [names[s] for s, rank in enumerate(replay.result["ranks"]) if rank == 1]
    assert any(w in result for w in winners), f"the winner is not named: {result}"
    assert page.inner_text("#banner") == f"game over: {result}"  # the last ply says it too
    for label, value in page.eval_on_selector_all(
        "#options tr", "rs => rs.map(r => [r.cells[0].innerText, r.cells[1].innerText])"
    ):
        assert "\n" not in value and len(value) <= 40, f"{label}: {value!r} is no small table's value"
    page.screenshot(path=str(shots / f"replay-{tournament}-{name}.png"), full_page=True)
    if name in ("reversixt", "iceandfire"):  # docs/web.md shows these two (pytest --update-golden)
        page.screenshot(path=str(screenshots / f"web-viewer-{name}.png"))


@pytest.mark.parametrize(("tournament", "name"), [(1, "isolation"), (4, "reversixt"), (5, "iceandfire")])
def test_the_players_colours_are_the_boards(server: Served, page: Any, tournament: int, name: str) -> None:
    open_last_ply(server, page, tournament)
    colours = page.eval_on_selector_all("#players .player", "ps => ps.map(p => p.dataset.colour)")
    board = page.inner_html("#board").lower()
    assert colours and all(c and c.lower() in board for c in colours), f"{name}: {colours} not on the board"


def test_a_reversixt_replay_shows_no_map_text_and_no_raw_result(server: Served, page: Any) -> None:
    """The must-hold of issue 32: the game was given its map as text (as the course's server does)."""
    open_last_ply(server, page, 4)
    text = page.inner_text("body")
    map_rows = [line for line in SAMPLER_TEXT.splitlines()[4:] if len(line) > 6]
    assert map_rows and not [row for row in map_rows if row in text], "the map's text is on the page"
    assert not RAW_RESULT.search(text), RAW_RESULT.search(text)
    assert page.inner_text("#options").count("\n") < 12  # map, board, players, overrides, bombs
    assert "sampler" in page.inner_text("#options") and "7 × 6" in page.inner_text("#options")
    page.goto(server.url + "/")
    assert not [row for row in map_rows if row in page.inner_text("body")]


def test_an_opening_is_counted_and_listed_as_the_board_counts_it(
    server: Served, page: Any, shots: Path
) -> None:
    replay = read_replay(replay_path(server, 6, 0, 0))
    opening = replay.header["opening"]
    assert len(opening) == 2
    page.goto(f"{server.url}/tournaments/6/games/0/0")
    wait_ply(page, 0)
    board_ply = page.get_attribute("#board svg", "data-ply")
    last = 2 + len(replay.turns)
    assert board_ply == "2" and page.inner_text("#ply-label") == f"ply 2 / {last}"
    page.keyboard.press("ArrowRight")
    wait_ply(page, 1)
    assert (
        page.get_attribute("#board svg", "data-ply") == "3"
        and page.inner_text("#ply-label") == f"ply 3 / {last}"
    )
    assert "ply=3" in page.url
    numbers = page.eval_on_selector_all("#moves li .n", "ns => ns.map(n => n.innerText)")
    assert numbers == [str(n) for n in range(1, last + 1)]  # every ply, the two placements first
    items = page.eval_on_selector_all("#moves li .what", "ws => ws.map(w => w.innerText)")
    assert [i.split(": ")[1].split(" ")[0] for i in items[:2]] == [p["action"] for p in opening]
    page.goto(f"{server.url}/tournaments/6/games/0/0?ply=4")  # a link names the board's ply
    wait_ply(page, 2)
    page.screenshot(path=str(shots / "replay-6-isolation-opening.png"), full_page=True)


def test_three_digit_move_numbers_are_not_clipped(server: Served, page: Any, shots: Path) -> None:
    game = make("slidingpuzzle(rows=4,cols=4,scramble=60,max_moves=140)")
    folder = server.replays / "long"
    folder.mkdir(parents=True, exist_ok=True)
    recorder = ReplayRecorder(folder / "long.jsonl", game, ["random"], 9, game.new_initial_state(9))
    play_game(game, [make_bot(game, "random", seed=9)], seed=9, names=["random"], recorders=[recorder])
    page.goto(f"{server.url}/replays/view?path=long/long.jsonl&ply=120")
    wait_ply(page, 120)
    clipped = page.eval_on_selector_all(
        "#moves li .n",
        """ns => ns.filter(n => n.innerText.length >= 3).filter(n => {
             const box = n.getBoundingClientRect(), list = n.closest('ol').getBoundingClientRect();
             return n.scrollWidth > n.clientWidth + 1 || box.left < list.left; }).map(n => n.innerText)""",
    )
    assert page.locator("#moves li .n", has_text="120").count() == 1 and clipped == []
    page.screenshot(path=str(shots / "replay-long-puzzle.png"), full_page=True)


def test_the_play_form_keeps_labels_beside_their_fields_and_a_game_over_names_the_winner(
    server: Served, page: Any, shots: Path
) -> None:
    page.goto(server.url + "/play")
    gaps = page.eval_on_selector_all(
        "form.play label",
        """ls => ls.map(l => document.getElementById(l.htmlFor).getBoundingClientRect().left
                          - l.getBoundingClientRect().right)""",
    )
    assert gaps and all(0 <= gap <= 40 for gap in gaps), gaps
    page.screenshot(path=str(shots / "play-form.png"), full_page=True)
    page.select_option("#game", "isolation")
    page.fill("#spec", "isolation(width=4,height=4)")
    page.select_option("#opponent", "random")
    page.click("#start")
    page.wait_for_selector("#board svg")
    while page.get_attribute("#status", "data-over") != "true":
        page.wait_for_function(
            "() => document.querySelector('#status').dataset.yourTurn === 'true'"
            " || document.querySelector('#status').dataset.over === 'true'"
        )
        if page.get_attribute("#status", "data-over") == "true":
            break
        plies = page.get_attribute("#board", "data-plies")
        page.locator("#board [data-action]").first.click()
        page.wait_for_function("(n) => document.querySelector('#board').dataset.plies !== n", arg=plies)
    status = page.inner_text("#status")
    assert "game over:" in status and not RAW_RESULT.search(status), status
    assert "you (" in status and "random (" in status  # both players, by name and colour
    # the verb agrees with its subject: "you (orange) win", "you (orange) have no legal move left"
    assert re.search(r"you \(\w+\) (win|have)\b|random \(\w+\) wins\b", status), status
    assert not re.search(r"you \(\w+\) (wins|has)\b", status), status
    page.screenshot(path=str(shots / "play-over.png"), full_page=True)
