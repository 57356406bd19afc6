"""The viewer in a real browser (Debian's chromium through Playwright), against `gridarena serve`.

What a person does: open a tournament, open a game, step, scrub, play, use the keys, follow a
`?ply=N` link, play Isolation by clicking, solve a puzzle with hints, open an exported file from
disk. After each step the board shown must be the engine's position after that many plies, read
from the picture's data attributes.
"""

from __future__ import annotations

import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import webbots
from webtools import Served, engine_states, expected_position, picture_stats, shown

from gridarena.arena.backends import InlineBackend
from gridarena.arena.replay import read_replay
from gridarena.arena.store import Store
from gridarena.arena.tournament import TournamentConfig, run_tournament
from gridarena.cli.replay import check_replay


def replay_path(server: Served, tournament: int, block: int, game: int) -> Path:
    return server.replays / str(tournament) / f"{block}-{game}.json.gz"


def wait_ply(page: Any, ply: int) -> None:
    page.wait_for_function(
        "(n) => document.querySelector('#board')?.dataset.ply === String(n) && document.querySelector('#board svg')",
        arg=ply,
    )


def assert_board_is_engine(page: Any, states: list[Any], ply: int) -> None:
    """The picture on the page after ``ply`` plies is the engine's position after ``ply`` plies."""
    wait_ply(page, ply)
    picture = shown(page)
    assert picture["data"]["ply"] == str(ply)
    for key, value in expected_position(states[ply]).items():
        assert picture["data"][key] == value, f"ply {ply}: data-{key} differs from the engine"


def test_open_a_tournament_then_a_game_step_scrub_and_play(server: Served, page: Any) -> None:
    page.goto(server.url + "/")
    page.click("#tournaments a[href='/tournaments/1']")
    page.wait_for_selector("#standings")
    rows = page.locator("#standings tr").count()
    assert rows == 4  # a header and three players
    assert "crash" in page.inner_text("#forfeits")
    assert "deliberate crash" in page.inner_text("#forfeit-details")
    assert page.locator("#crosstable").count() == 1
    report = server.json("/api/tournaments/1")["report"]
    shown_elo = page.inner_text("#standings tr:nth-child(2) td:nth-child(8)")
    assert shown_elo == f"{report['standings'][0]['elo']:.1f}"

    page.click("#games a[href='/tournaments/1/games/0/0']")  # greedy against random
    states = engine_states(replay_path(server, 1, 0, 0))
    plies = len(states) - 1
    assert plies > 12
    assert_board_is_engine(page, states, 0)
    for n in range(1, 4):
        page.keyboard.press("ArrowRight")
        assert_board_is_engine(page, states, n)
    assert "ply=3" in page.url
    turns = read_replay(replay_path(server, 1, 0, 0)).turns
    assert page.inner_text("#action") == turns[2]["action"]
    page.keyboard.press("Shift+ArrowRight")
    assert_board_is_engine(page, states, 13)
    page.keyboard.press("ArrowLeft")
    assert_board_is_engine(page, states, 12)
    page.keyboard.press("End")
    assert_board_is_engine(page, states, plies)
    page.keyboard.press("Home")
    assert_board_is_engine(page, states, 0)
    page.click("#forward")
    assert_board_is_engine(page, states, 1)
    page.click("#last")
    assert_board_is_engine(page, states, plies)
    page.click("#back")
    assert_board_is_engine(page, states, plies - 1)

    box = page.locator("#scrub").bounding_box()  # a click on the scrub bar lands on a ply
    page.mouse.click(box["x"] + box["width"] * 0.5, box["y"] + box["height"] / 2)
    page.wait_for_function("(n) => document.querySelector('#scrub').value !== String(n)", arg=plies - 1)
    landed = int(page.eval_on_selector("#scrub", "e => e.value"))
    assert 0 < landed < plies
    assert_board_is_engine(page, states, landed)

    page.click("#moves li[data-ply='7']")  # the move list jumps too
    assert_board_is_engine(page, states, 7)

    page.select_option("#speed", label="16×")
    page.click("#first")
    page.click("#play")
    assert_board_is_engine(page, states, plies)  # played through to the end and stopped
    page.wait_for_function("() => document.querySelector('#play').textContent === '▶'")


def test_keys_help_overlay_speed_and_seed(server: Served, page: Any) -> None:
    page.goto(server.url + "/tournaments/1/games/1/0")
    page.wait_for_selector("#board svg")
    assert page.locator("#help-overlay").is_hidden()
    page.keyboard.press("?")
    assert page.locator("#help-overlay").is_visible()
    assert "Shift" in page.inner_text("#help-overlay")
    page.keyboard.press("Escape")
    assert page.locator("#help-overlay").is_hidden()
    page.keyboard.press("+")
    assert page.input_value("#speed") == "3"  # 2x
    page.keyboard.press("-")
    page.keyboard.press("-")
    assert page.input_value("#speed") == "1"  # 0.5x
    header = read_replay(replay_path(server, 1, 1, 0)).header
    assert page.inner_text("#seed") == str(header["seed"])  # every digit of a 64-bit seed
    page.keyboard.press("d")
    assert "no-overlay" in (page.get_attribute("#board", "class") or "")


def test_a_forfeit_shows_as_a_banner_on_the_last_ply(server: Served, page: Any) -> None:
    games = server.json("/api/tournaments/1")["games"]
    crash = next(g for g in games if g["termination"] == "crash")
    page.goto(server.url + crash["url"])
    wait_ply(page, 0)
    assert page.locator("#banner").is_hidden()
    page.keyboard.press("End")
    page.wait_for_selector("#banner.forfeit", state="visible")
    banner = page.inner_text("#banner")
    assert "crasher (blue) crashed (" in banner and "deliberate crash" in banner and banner.endswith("wins")


def test_a_ply_link_opens_at_that_ply_and_out_of_range_clamps(server: Served, page: Any) -> None:
    states = engine_states(replay_path(server, 1, 0, 1))
    page.goto(server.url + "/tournaments/1/games/0/1?ply=5")
    assert_board_is_engine(page, states, 5)
    page.goto(server.url + "/tournaments/1/games/0/1?ply=9999")
    assert_board_is_engine(page, states, len(states) - 1)
    assert "outside" in page.inner_text("#notice")


@pytest.mark.parametrize(
    "tournament,name,ply",
    [(1, "isolation", 6), (2, "slidingpuzzle", 5), (3, "pentocity", 60)],
    ids=["isolation", "slidingpuzzle", "pentocity"],
)
def test_each_game_viewer_shows_the_engine_position_and_is_not_blank(
    server: Served, page: Any, screenshots: Path, tournament: int, name: str, ply: int
) -> None:
    states = engine_states(replay_path(server, tournament, 0, 0))
    page.goto(f"{server.url}/tournaments/{tournament}/games/0/0?ply={ply}")
    assert_board_is_engine(page, states, ply)
    cells = shown(page)["cells"]
    if name == "isolation":  # the drawn cells, read one by one, are the engine's board
        rows = states[ply].to_json()["board"].split("/")
        assert "".join(v for _, v in cells) == "".join(rows)
    if name == "slidingpuzzle":
        assert [int(v) for _, v in cells] == list(states[ply].board.cells)
    board = page.locator("#board").screenshot()
    stats = picture_stats(page, board)
    assert stats["std"] > 10 and stats["colours"] > 4, f"{name}: the board looks blank ({stats})"
    page.screenshot(path=str(screenshots / f"web-viewer-{name}.png"))


def test_tournament_list_and_page_screenshots(server: Served, page: Any, screenshots: Path) -> None:
    page.goto(server.url + "/")
    ids = [int(a) for a in page.locator("#tournaments td:first-child a").all_inner_texts()]
    assert ids == [6, 5, 4, 3, 2, 1]  # newest first
    page.screenshot(path=str(screenshots / "web-tournaments.png"))
    page.goto(server.url + "/tournaments/1")
    page.wait_for_selector("#games")
    page.screenshot(path=str(screenshots / "web-tournament.png"), full_page=True)


def test_play_a_whole_isolation_game_against_random_by_clicking(server: Served, page: Any) -> None:
    page.goto(server.url + "/play")
    page.select_option("#game", "isolation")
    page.fill("#spec", "isolation(width=5,height=5)")
    page.select_option("#opponent", "random")
    page.click("#start")
    page.wait_for_selector("#board svg")
    clicks = 0
    while True:
        page.wait_for_function(
            "() => ['true'].includes(document.querySelector('#status').dataset.yourTurn)"
            " || document.querySelector('#status').dataset.over === 'true'"
        )
        if page.get_attribute("#status", "data-over") == "true":
            break
        plies = page.get_attribute("#board", "data-plies")
        page.locator("#board [data-action]").first.click()
        clicks += 1
        page.wait_for_function("(n) => document.querySelector('#board').dataset.plies !== n", arg=plies)
    assert clicks >= 2
    assert "game over" in page.inner_text("#status")
    link = page.get_attribute("#replay-link", "href")
    assert link is not None
    path = server.replays / "web" / re.sub(r".*path=web%2F", "", link)
    replay = read_replay(path)
    assert replay.result is not None and replay.result["termination"] == "normal"
    assert [p["name"] for p in replay.header["players"]] == ["you", "random"]
    assert sum(t["player"] == 0 for t in replay.turns) == clicks
    assert check_replay(replay, str(path)) == len(replay.turns)  # the engine agrees with every ply
    page.goto(server.url + link)  # and it opens in the viewer
    wait_ply(page, 0)


def test_a_game_is_its_starters_others_watch_and_it_can_be_resigned(
    server: Served, page: Any, browser_context: Any, screenshots: Path
) -> None:
    page.goto(server.url + "/play")
    page.select_option("#game", "isolation")
    page.select_option("#opponent", "greedy")
    page.click("#start")
    page.wait_for_function("() => document.querySelector('#status').dataset.yourTurn === 'true'")
    page.locator("#board [data-action]").first.click()
    page.wait_for_function("() => document.querySelector('#board').dataset.plies === '2'")
    page.wait_for_function("() => document.querySelector('#status').dataset.yourTurn === 'true'")
    assert page.locator("#moves li").count() == 2 and page.locator("#resign").is_visible()
    page.screenshot(path=str(screenshots / "web-play-isolation.png"))
    url = page.url
    cookies = browser_context.cookies()
    browser_context.clear_cookies()  # another browser: no token
    page.goto(url)
    page.wait_for_function("() => document.querySelector('#status').textContent.includes('watching')")
    assert page.locator("#resign").is_hidden() and page.locator("#hint").is_hidden()
    page.locator("#board [data-action]").first.click()
    page.wait_for_selector("#message:not([hidden])")
    assert "belongs to whoever started it" in page.inner_text("#message")
    assert page.get_attribute("#board", "data-plies") == "2"
    browser_context.add_cookies(cookies)
    page.goto(url)
    page.wait_for_function("() => document.querySelector('#status').dataset.yourTurn === 'true'")
    assert page.locator("#moves li").count() == 2  # the moves the page had not seen, once
    page.click("#resign")
    page.wait_for_function("() => document.querySelector('#status').dataset.over === 'true'")
    assert "the player left the game" in page.inner_text("#status")


def test_solve_a_puzzle_by_clicking_tiles_with_hints(server: Served, page: Any, screenshots: Path) -> None:
    page.goto(server.url + "/play")
    page.select_option("#game", "slidingpuzzle")
    page.fill("#spec", "slidingpuzzle(rows=3,cols=3,scramble=12)")
    page.click("#start")
    page.wait_for_selector("#board svg")
    page.click("#hint")
    page.wait_for_function("() => document.querySelector('#hint').dataset.action")
    optimal = int(re.search(r"\((\d+) moves to the goal\)", page.inner_text("#message")).group(1))
    page.screenshot(path=str(screenshots / "web-play-puzzle.png"))
    for slide in range(optimal):
        if slide:
            page.click("#hint")
            page.wait_for_selector("#board .hinted")
        page.locator("#board .hinted").click()
        page.wait_for_function(
            "(n) => document.querySelector('#board').dataset.plies === String(n)", arg=slide + 1
        )
    assert page.get_attribute("#status", "data-over") == "true"
    assert shown(page)["data"]["solved"] == "true"
    assert shown(page)["data"]["moves"] == str(optimal)


def test_exported_html_opens_from_disk(server: Served, page: Any, tmp_path: Path, screenshots: Path) -> None:
    source = replay_path(server, 1, 0, 0)
    out = tmp_path / "game.html"
    command = [sys.executable, "-m", "gridarena", "replay", str(source), "--html", str(out)]
    subprocess.run(command, check=True, capture_output=True)
    states = engine_states(source)
    page.goto(out.as_uri())
    assert_board_is_engine(page, states, 0)
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert_board_is_engine(page, states, 3)
    assert "ply=3" in page.url
    assert page.inner_text("#action") == read_replay(source).turns[2]["action"]
    page.goto(out.as_uri() + "?ply=7")
    assert_board_is_engine(page, states, 7)
    page.screenshot(path=str(screenshots / "web-export.png"))


def test_live_standings_update_without_a_reload(server: Served, page: Any) -> None:
    """A tournament running in another thread (another writer) shows up game by game (kept last:
    it adds a tournament to the module's database)."""
    config = TournamentConfig(
        "isolation(width=5,height=5)",
        ("slowrandom(pause=0.1)", "greedy"),
        games=8,
        seed=11,
        extra_bots=webbots.BOTS,
    )

    def play() -> None:
        with Store(server.db) as store:
            run_tournament(config, store, InlineBackend(), warn=lambda _: None)

    before = {t["id"] for t in server.json("/api/tournaments")}
    thread = threading.Thread(target=play)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not (fresh := {t["id"] for t in server.json("/api/tournaments")} - before):
            assert time.monotonic() < deadline, "the tournament did not start"
            time.sleep(0.05)
        (tid,) = fresh
        page.goto(f"{server.url}/tournaments/{tid}")
        page.wait_for_selector("#live")
        page.evaluate("() => { window.sameDocument = true; }")
        seen = int(page.inner_text("#game-count"))
        page.wait_for_function(
            "(n) => Number(document.querySelector('#game-count').textContent) > n", arg=seen
        )
        page.wait_for_function(
            "() => document.querySelector('#status').textContent === 'done'", timeout=60_000
        )
        assert page.evaluate("() => window.sameDocument") is True  # updated in place, never reloaded
        assert page.inner_text("#game-count") == "8"
        assert page.locator("#live").count() == 0
        assert page.locator("#standings tr").count() == 3
    finally:
        thread.join(timeout=60)


def test_at_phone_width_the_panel_goes_under_the_board(server: Served, page: Any) -> None:
    page.set_viewport_size({"width": 390, "height": 800})
    page.goto(server.url + "/tournaments/1/games/0/0?ply=4")
    wait_ply(page, 4)
    board, panel = page.locator("#board").bounding_box(), page.locator("aside.panel").bounding_box()
    assert panel["y"] >= board["y"] + board["height"]
    assert board["width"] <= 390
