"""Hostile requests to the viewer (issue 23): no spec from a request starts a program or reads a file,
no game parameter allocates without bound, no body is read past its limit, and every bad request is
one line with a 4xx status, never a 500."""

from __future__ import annotations

import json
import os
import re
import socket
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from webtools import Served, assert_clean, cpu_seconds, memory_kib, programs, raw, serve, stop, token

from gridarena.core.registry import available_bots, offered_bots
from gridarena.web.guard import MAX_BODY

#: The address-space cap of the server of the memory tests: a memory bomb fails there, not on the machine.
MEMORY_CAP = 3 * 1024**3


def post(served: Served, path: str, body: dict[str, object]) -> tuple[int, str]:
    """POST a JSON body; (status, the error line or the body)."""
    status, _, text = raw(served, "POST", path, json.dumps(body).encode())
    assert_clean(status, text, (200, 303, 400, 403, 404, 413))
    return status, text


def error_line(text: str) -> str:
    """The one-line error of a JSON answer."""
    message: str = json.loads(text)["error"]
    assert "\n" not in message and len(message) < 2000, message
    return message


def post_form(served: Served, fields: dict[str, str]) -> tuple[int, str]:
    """POST the play form, url-encoded, as the browser does."""
    host, port = urllib.parse.urlsplit(served.url).netloc.split(":")
    import http.client

    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    body = urllib.parse.urlencode(fields).encode()
    connection.request(
        "POST", "/play", body=body, headers={"content-type": "application/x-www-form-urlencoded"}
    )
    response = connection.getresponse()
    result = response.status, response.read().decode("utf-8", "replace")
    connection.close()
    return result


def wait_absent(path: Path, seconds: float = 1.0) -> bool:
    """True if ``path`` still does not exist after ``seconds`` (a started program would have made it)."""
    time.sleep(seconds)
    return not path.exists()


# -- item 1: no program, no file ----------------------------------------------------------------


def program_specs(marker: Path) -> list[str]:
    return [
        f"external(cmd=\"sh -c 'touch {marker}'\",protocol=jsonl)",
        f"external(cmd=['sh', '-c', 'touch {marker}'])",
        f'isolation:external(cmd="touch {marker}")',
    ]


def test_a_bot_that_starts_a_program_is_refused_by_the_api_and_the_form(
    server: Served, tmp_path: Path
) -> None:
    marker = tmp_path / "pwned.txt"
    for spec in program_specs(marker):
        status, text = post(server, "/api/play", {"game": "isolation", "opponent": spec, "seat": "1"})
        assert status == 400, text
        assert "starts a program" in error_line(text) or "game prefix" in error_line(text)
        status, page = post_form(server, {"game": "isolation", "opponent": spec, "seat": "1"})
        assert status == 400 and ("starts a program" in page or "game prefix" in page)
    assert wait_absent(marker), "a request started a program on the server"


def test_a_bot_that_imports_a_file_is_refused(server: Served, tmp_path: Path) -> None:
    marker = tmp_path / "imported.txt"
    agent = tmp_path / "game_agent.py"
    agent.write_text(f"open({str(marker)!r}, 'w').write('imported')\nclass AlphaBetaPlayer:\n    pass\n")
    refusals = {
        f"aind(file='{agent}')": "aind reads or writes files on the server",
        f"ab_open(file='{agent}')": "ab_open: unknown parameter 'file'",  # issue 31: imported before refusing
        f"python(file='{agent}')": "python reads or writes files on the server",
        "aind(player=HumanPlayer)": "reads the server's terminal",
    }
    for spec, words in refusals.items():
        status, text = post(server, "/api/play", {"game": "isolation", "opponent": spec})
        assert status == 400 and words in error_line(text), (spec, text)
    assert wait_absent(marker, 0.2), "a request imported a Python file on the server"


def test_the_terminal_bot_is_refused(server: Served) -> None:
    status, text = post(server, "/api/play", {"game": "isolation", "opponent": "human", "seat": "1"})
    assert status == 400 and "reads the server's terminal" in error_line(text)


def test_a_game_spec_cannot_name_a_file_on_the_server(server: Served, tmp_path: Path) -> None:
    """A FIFO blocks whoever opens it: a server that tried to read the map would not answer."""
    fifo = tmp_path / "secret.map"
    os.mkfifo(fifo)
    for game, spec in (
        ("isolation", f"reversixt(map='{fifo}')"),
        ("slidingpuzzle", f"reversixt(map={fifo})"),
    ):
        status, text = post(server, "/api/play", {"game": game, "spec": spec})
        assert status == 400 and "not a" in error_line(text) and "spec" in error_line(text)


def test_the_form_lists_exactly_the_bots_a_request_may_name(server: Served) -> None:
    status, _, page = server.get("/play")
    listed = re.findall(
        r'<option value="([^"]+)"[^>]*>\1</option>', page.split('id="opponent"')[1].split("</select>")[0]
    )
    assert status == 200 and listed == offered_bots("isolation")
    assert "external" not in listed and "human" not in listed
    for name in sorted(set(available_bots("isolation")) - set(listed)):
        status, text = post(server, "/api/play", {"game": "isolation", "opponent": name})
        assert status == 400 and "a request may name only" in error_line(text), name


def test_the_play_page_starts_no_process(server: Served, tmp_path: Path) -> None:
    """Every offered bot plays a move, a puzzle gets a hint, a program is asked for: no process appears
    but the worker pool's own (the fork server, its resource tracker and the workers forked from it)."""
    pid = server.process.pid
    assert programs(pid) == {}
    # The person moves first: a program would be started with the game and wait for its turn.
    post(
        server,
        "/api/play",
        {"game": "isolation", "opponent": "external(cmd='sleep 30',protocol=codingame)", "seat": "0"},
    )
    assert programs(pid) == {}
    for name in offered_bots("isolation"):
        body = {
            "game": "isolation",
            "spec": "isolation(width=5,height=5)",
            "opponent": name,
            "seat": "1",
            "seconds": "0.1",
        }
        status, text = post(server, "/api/play", body)
        assert status == 200, (name, text)
        assert programs(pid) == {}, name
    status, text = post(server, "/api/play", {"game": "slidingpuzzle"})
    assert status == 200
    sid = json.loads(text)["id"]
    status, _, _ = raw(server, "POST", f"/api/play/{sid}/hint", b"{}", token(text))
    assert status == 200
    assert programs(pid) == {}


# -- item 2: every game parameter has a range, checked before anything is allocated --------------


@pytest.fixture(scope="module")
def capped(results: Path) -> Iterator[Served]:
    """A server whose address space is capped: a memory bomb ends in a MemoryError, not a full machine."""
    served = serve(results, results.with_name("capped.replays"), memory_cap=MEMORY_CAP)
    yield served
    stop(served)


@pytest.mark.parametrize(
    "spec,words",
    [
        ("slidingpuzzle(rows=100000,cols=100000)", "rows must be an integer from 1 to 16, got 100000"),
        ("slidingpuzzle(rows=3,cols=3,scramble=1000000000)", "scramble must be an integer from 0 to 10000"),
        (
            "slidingpuzzle(rows=3,cols=3,goal=[1,2,3,4,5,6,7,8,10000000000])",
            "goal must be a list of at most 256",
        ),
        ("slidingpuzzle(width=1000,height=1000)", "unknown parameter 'width'"),
        ("slidingpuzzle(rows=3,cols='x')", "cols must be an integer"),
    ],
)
def test_a_game_parameter_out_of_range_is_one_line_before_any_allocation(
    capped: Served, spec: str, words: str
) -> None:
    before = memory_kib(capped.process.pid)["VmRSS"]
    status, text = post(capped, "/api/play", {"game": "slidingpuzzle", "spec": spec})
    assert status == 400 and words in error_line(text), text
    status, page = post_form(capped, {"game": "slidingpuzzle", "spec": spec})
    assert status == 400 and words.split(",")[0].replace("'", "&#x27;") in page
    assert memory_kib(capped.process.pid)["VmRSS"] < before + 50 * 1024


# -- item 4: bodies are bounded ------------------------------------------------------------------


def open_socket(served: Served) -> socket.socket:
    host, port = urllib.parse.urlsplit(served.url).netloc.split(":")
    return socket.create_connection((host, int(port)), timeout=10)


def status_of(sock: socket.socket) -> int:
    head = b""
    while b"\r\n" not in head:
        chunk = sock.recv(4096)
        if not chunk:
            break
        head += chunk
    return int(head.split()[1])


@pytest.mark.parametrize("path", ["/api/play", "/play", "/api/play/nosuch/move"])
def test_a_declared_large_body_is_refused_before_it_is_sent(capped: Served, path: str) -> None:
    with open_socket(capped) as sock:
        sock.sendall(
            f"POST {path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n"
            f"content-length: {400 * 1024**2}\r\n\r\n{{".encode()
        )
        assert status_of(sock) == 413  # answered at once: the server does not wait for 400 MB


def test_a_chunked_body_is_cut_at_the_limit(capped: Served) -> None:
    before = memory_kib(capped.process.pid)["VmRSS"]
    with open_socket(capped) as sock:
        sock.sendall(
            b"POST /api/play HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n"
            b"transfer-encoding: chunked\r\n\r\n"
        )
        chunk = b" " * 65536
        try:
            for _ in range(256):  # 16 MiB, unless the server stops us first
                sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            sock.sendall(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass
        assert status_of(sock) == 413
    assert memory_kib(capped.process.pid)["VmRSS"] < before + 50 * 1024


def test_a_body_within_the_limit_is_read(capped: Served) -> None:
    body = {"game": "isolation", "padding": " " * (MAX_BODY - 200)}
    status, text = post(capped, "/api/play", body)
    assert status in (200, 400), text


# -- item 5: 4xx, never 500 ----------------------------------------------------------------------

HUGE = "99999999999999999999999"


@pytest.mark.parametrize(
    "path",
    [
        f"/api/tournaments/{HUGE}",
        f"/tournaments/{HUGE}",
        f"/api/tournaments/{HUGE}/events",
        f"/api/tournaments/1/games/{HUGE}/0",
        f"/api/tournaments/1/games/0/{HUGE}",
        f"/tournaments/1/games/{HUGE}/0",
        f"/api/tournaments/1/games/0/{HUGE}/frames/0",
        f"/api/tournaments/1/games/0/0/frames/{HUGE}",
        "/api/tournaments/9223372036854775808",
    ],
)
def test_ids_beyond_the_database_range_are_404(server: Served, path: str) -> None:
    status, _, text = raw(server, "GET", path)
    assert_clean(status, text, (404,))


@pytest.mark.parametrize(
    "body",
    [
        b"[" * 50_000,
        b'{"game": ' + b"[" * 50_000,
        b'{"game": "isolation", "spec": ' + b"[" * 900 + b"]" * 900 + b"}",
        b'{"game": {"a": {"b": []}}}',
        b'{"game": "isolation", "seat": null}',
    ],
)
def test_nested_or_non_text_json_is_a_400(server: Served, body: bytes) -> None:
    for path in ("/api/play", "/api/play/nosuch/move"):
        status, _, text = raw(server, "POST", path, body)
        assert_clean(status, text, (400, 404))


def test_a_form_with_too_many_fields_is_a_400(server: Served) -> None:
    status, page = post_form(server, {f"f{i}": "x" for i in range(50)})
    assert status == 400 and "fields" in page


@pytest.mark.parametrize("name", ["x" * 300 + ".jsonl", "d/" * 3000 + "x.jsonl", "%00.jsonl", "x" * 5000])
def test_a_replay_path_the_file_system_refuses_is_a_4xx(server: Served, name: str) -> None:
    """A name longer than the file system allows (ENAMETOOLONG) names no replay: 400 or 404, never 500."""
    for route in ("/replays/view", "/api/replays/view", "/api/replays/frame"):
        status, _, text = raw(server, "GET", f"{route}?path={urllib.parse.quote(name)}&ply=0")
        assert_clean(status, text, (400, 404))


@pytest.mark.parametrize(
    "method,path,body",
    [
        ("GET", "/api/replays/view?path=%0A", None),  # found by the fuzzer: the path was echoed as it came
        ("GET", "/api/replays/frame?path=a%0Ab.jsonl&ply=0", None),
        ("POST", "/api/play", b'{"game": "a\\nb"}'),
    ],
)
def test_an_error_is_one_line_whatever_the_request_echoes(
    server: Served, method: str, path: str, body: bytes | None
) -> None:
    status, _, text = raw(server, method, path, body)
    assert_clean(status, text, (400, 404))
    error_line(text)


# -- issue 31, item 6: a game belongs to whoever started it ----------------------------------------


def test_only_the_games_token_moves_hints_or_resigns(server: Served) -> None:
    """The id is in the replay's file name, which /api/replays lists: it is no token."""
    start = {"game": "isolation", "spec": "isolation(width=5,height=5)", "opponent": "random"}
    status, text = post(server, "/api/play", start)
    assert status == 200, text
    sid, mine = json.loads(text)["id"], token(text)
    assert any(sid in replay["path"] for replay in server.json("/api/replays"))
    strangers: list[dict[str, str]] = [
        {},
        {"x-gridarena-token": sid},
        {"cookie": f"gridarena-play-{sid}={sid}"},
        {"x-gridarena-token": mine["x-gridarena-token"][:-1]},
        {"x-gridarena-token": "x" * 5000},
    ]
    for route, body in (("move", {"action": "c3"}), ("hint", {}), ("resign", {})):
        for headers in strangers:
            code, _, answer = raw(
                server, "POST", f"/api/play/{sid}/{route}", json.dumps(body).encode(), headers
            )
            assert code == 403 and "belongs to whoever started it" in error_line(answer), (route, headers)
    assert not server.json(f"/api/play/{sid}")["over"]  # anyone may watch, nobody else may act
    code, _, answer = raw(server, "POST", f"/api/play/{sid}/move", b'{"action": "c3"}', mine)
    assert code == 200 and json.loads(answer)["plies"] == 2
    assert raw(server, "POST", f"/api/play/{sid}/hint", b"{}", mine)[0] == 200
    code, _, answer = raw(server, "POST", f"/api/play/{sid}/resign", b"{}", mine)
    assert code == 200 and json.loads(answer)["over"]


def test_the_page_carries_the_token_in_a_cookie_for_its_own_game_only(server: Served) -> None:
    host, port = urllib.parse.urlsplit(server.url).netloc.split(":")
    import http.client

    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    form = urllib.parse.urlencode({"game": "isolation", "opponent": "random"}).encode()
    connection.request(
        "POST", "/play", body=form, headers={"content-type": "application/x-www-form-urlencoded"}
    )
    response = connection.getresponse()
    response.read()
    cookie = response.getheader("set-cookie") or ""
    sid = (response.getheader("location") or "").rsplit("/", 1)[1]
    assert response.status == 303 and f"gridarena-play-{sid}=" in cookie
    assert f"Path=/api/play/{sid}" in cookie and "HttpOnly" in cookie and "SameSite=strict" in cookie
    sent = {"cookie": cookie.split(";")[0]}
    assert raw(server, "POST", f"/api/play/{sid}/move", b'{"action": "d4"}', sent)[0] == 200


# -- issue 31, item 7: the view cache and the move answers are bounded ------------------------------


def test_a_replay_rewritten_by_a_game_in_progress_does_not_fill_the_memory(capped: Served) -> None:
    """Each version of a growing replay was kept (32 of them); now one per file, within a byte budget."""
    from gridarena import make, make_bot, play_game
    from gridarena.arena.replay import ReplayRecorder

    game = make("slidingpuzzle(rows=16,cols=16,scramble=50,max_moves=1500)")
    played = capped.replays / "growing-full.jsonl"
    capped.replays.mkdir(parents=True, exist_ok=True)
    recorder = ReplayRecorder(played, game, ["random"], 1, game.new_initial_state(1))
    play_game(game, [make_bot(game, "random")], seed=1, names=["random"], recorders=[recorder])
    lines = played.read_text().splitlines()[:-1]  # no result: a game in progress
    growing = capped.replays / "growing.jsonl"
    rounds = 24
    growing.write_text("\n".join(lines[: len(lines) - rounds]) + "\n")
    raw(capped, "GET", "/api/replays/frame?path=growing.jsonl&ply=0")
    before = memory_kib(capped.process.pid)["VmRSS"]
    for line in lines[len(lines) - rounds :]:
        with growing.open("a") as out:
            out.write(line + "\n")
        status, _, text = raw(capped, "GET", "/api/replays/frame?path=growing.jsonl&ply=1")
        assert status == 200, text
    grown = (memory_kib(capped.process.pid)["VmRSS"] - before) / 1024
    assert grown < 60, f"the server grew by {grown:.0f} MiB over {rounds} versions of one replay"


def test_a_move_answer_carries_only_the_turns_the_page_lacks(server: Served) -> None:
    status, text = post(
        server, "/api/play", {"game": "slidingpuzzle", "spec": "slidingpuzzle(rows=3,cols=3,scramble=40)"}
    )
    assert status == 200, text
    game, mine = json.loads(text), token(text)
    sizes = []
    for ply in range(30):
        if game["over"]:
            break
        action = re.findall(r'data-action="([^"|]+)', game["svg"])[ply % 2]
        body = json.dumps({"action": action, "since": ply}).encode()
        code, _, answer = raw(server, "POST", f"/api/play/{game['id']}/move", body, mine)
        assert code == 200, answer
        game = json.loads(answer)
        assert game["since"] == ply and [t["ply"] for t in game["turns"]] == [ply], game["turns"]
        sizes.append(len(answer) - len(game["svg"]))
    assert max(sizes) - min(sizes) < 200, sizes  # the same size at every ply, not growing with the game
    later = server.json(f"/api/play/{game['id']}?since=3")
    assert [t["ply"] for t in later["turns"]] == list(range(3, later["plies"]))


# -- issue 31, item 5: a replay's header is rebuilt as a request would name its game ----------------


@pytest.mark.parametrize("target", ["/etc/passwd", "/dev/zero"])
def test_a_replay_header_cannot_make_the_server_read_a_file(capped: Served, target: str) -> None:
    folder = capped.replays / "hostile"
    folder.mkdir(parents=True, exist_ok=True)
    header = {
        "format": "gridarena-replay",
        "version": 1,
        "game": "reversixt",
        "options": {"map": target},
        "seed": 1,
        "players": [{"seat": 0, "name": "a"}, {"seat": 1, "name": "b"}],
    }
    name = f"map-{Path(target).name}.jsonl"
    (folder / name).write_text(json.dumps(header) + "\n")
    before = memory_kib(capped.process.pid)["VmRSS"]
    for route in ("/api/replays/view", "/replays/view", "/api/replays/frame", "/api/replays/analysis"):
        began = time.monotonic()
        status, _, text = raw(capped, "GET", f"{route}?path=hostile/{name}&ply=0", timeout=30)
        assert_clean(status, text, (400,))
        assert "root:" not in text and time.monotonic() - began < 10
        if route.startswith("/api/"):
            assert "names a file on the server" in error_line(text)
    assert memory_kib(capped.process.pid)["VmRSS"] < before + 50 * 1024


# -- issue 31, item 9: no 500s ------------------------------------------------------------------------

LONG_ID = "9" * 4301


@pytest.mark.parametrize(
    "path",
    [
        f"/tournaments/{LONG_ID}",
        f"/tournaments/{LONG_ID}/games/0/0",
        f"/tournaments/1/games/{LONG_ID}/0",
        f"/tournaments/1/games/0/{LONG_ID}",
        f"/api/tournaments/{LONG_ID}",
        f"/api/tournaments/{LONG_ID}/events",
        f"/api/tournaments/{LONG_ID}/games/0/0",
        f"/api/tournaments/1/games/{LONG_ID}/0",
        f"/api/tournaments/1/games/0/{LONG_ID}",
        f"/api/tournaments/{LONG_ID}/games/0/0/frames/0",
        f"/api/tournaments/1/games/0/0/frames/{LONG_ID}",
        f"/api/tournaments/{LONG_ID}/games/0/0/analysis",
        f"/api/tournaments/1/games/{LONG_ID}/0/analysis",
        f"/api/tournaments/1/{'1' + '0' * 9000}",
    ],
)
def test_integer_paths_of_any_length_are_a_4xx(server: Served, path: str) -> None:
    """Starlette's int converter called int() on any digit string: 4,301 digits or more was a 500."""
    status, _, text = raw(server, "GET", path)
    assert_clean(status, text, (400, 404))


def test_a_replay_holding_nan_is_refused_by_its_line(capped: Served) -> None:
    from gridarena import make, make_bot, play_game
    from gridarena.arena.replay import ReplayRecorder

    game = make("isolation(width=4,height=4)")
    folder = capped.replays / "hostile"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "nan.jsonl"
    recorder = ReplayRecorder(path, game, ["a", "b"], 3, game.new_initial_state(3))
    play_game(game, [make_bot(game, "random"), make_bot(game, "random")], seed=3, recorders=[recorder])
    path.write_text(
        re.sub(r'"wall_ms": ?[0-9.]+', '"wall_ms": NaN', path.read_text()).replace(
            '"seed": 3', '"seed": Infinity'
        )
    )
    assert "NaN" in path.read_text()

    def strict(text: str) -> Any:
        return json.loads(text, parse_constant=lambda word: pytest.fail(f"{word} in an answer"))

    # Our replays never hold NaN (written with allow_nan=False); one that does is refused as the command
    # line refuses it (core/numbers.load_json): a 400 naming the file and the line, never a 500.
    for route in (
        "/api/replays/view?path=hostile/nan.jsonl",
        "/api/replays/frame?path=hostile/nan.jsonl&ply=2",
    ):
        status, _, text = raw(capped, "GET", route)
        assert status == 400, text
        assert "nan.jsonl:2: NaN is not a JSON number" in strict(text)["error"]
    status, _, page = raw(capped, "GET", "/replays/view?path=hostile/nan.jsonl")
    assert status in (200, 400) and "Traceback" not in page


def test_a_hint_where_no_tile_can_slide_is_not_a_500(server: Served) -> None:
    spec = "slidingpuzzle(rows=2,cols=2,start=[0,0,0,0])"  # all blank, under a goal with tiles
    status, text = post(server, "/api/play", {"game": "slidingpuzzle", "spec": spec})
    if status == 200:
        code, _, answer = raw(server, "POST", f"/api/play/{json.loads(text)['id']}/hint", b"{}", token(text))
        assert_clean(code, answer, (400, 409))
    else:
        assert status == 400 and "no tile that can slide" in error_line(text)


@pytest.mark.parametrize(
    "body",
    [
        {"game": "isolation", "spec": "isolation(width=" + "-" * 20_000 + "1)"},
        {"game": "isolation", "spec": "isolation(width=0x" + "f" * 20_000 + ")"},
        {"game": "isolation", "spec": "isolation(width=" + "9" * 4_000 + ")"},
        {"game": "isolation", "opponent": "greedy(seed=" + "-" * 20_000 + "1)"},
        {"game": "isolation", "opponent": "ab_open(player=x)"},
        {"game": "isolation", "opponent": "maxn(bounds=1)"},
        {"game": "isolation", "opponent": "mcts(rollout=1)"},
        {"game": "isolation", "opponent": "alphabeta(heuristic=1)"},
        {"game": "isolation", "opponent": "greedy(seed=[1,2])"},
        {"game": "isolation", "seat": "9" * 5000},
        {"game": "isolation", "seconds": "1" + "0" * 400},
    ],
)
def test_a_spec_that_cannot_be_read_or_built_is_one_line_400(server: Served, body: dict[str, str]) -> None:
    status, _, text = raw(server, "POST", "/api/play", json.dumps(body).encode())
    assert status == 400, text[:300]
    error_line(text)
    status, page = post_form(server, body)
    assert status == 400 and 'class="error"' in page, page[:300]


# -- issue 31, item 8: the HTTP server's own limits -------------------------------------------------

SLOW_SOCKETS = 1100


def test_slow_headers_do_not_stop_the_viewer(results: Path, tmp_path: Path) -> None:
    """1,100 sockets sending a request's head a byte at a time, at a server with the usual 1,024 file
    descriptors: they took every descriptor and the viewer stopped answering until they closed."""
    import resource
    import threading

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4 * SLOW_SOCKETS), hard))
    served = serve(results, tmp_path / "replays", "--workers", "1", open_files=1024)
    host, port = urllib.parse.urlsplit(served.url).netloc.split(":")
    done = threading.Event()
    opened = [0]

    def attack() -> None:
        sockets: list[socket.socket] = []
        while not done.is_set():
            while len(sockets) < SLOW_SOCKETS and not done.is_set():
                try:
                    sock = socket.create_connection((host, int(port)), timeout=2)
                    sock.sendall(b"GET /api/tournaments HTTP/1.1\r\n")
                except OSError:
                    break
                sock.setblocking(False)
                sockets.append(sock)
                opened[0] += 1
            for sock in list(sockets):
                try:
                    sock.send(b"x")
                except OSError:  # closed by the server: open another one
                    sock.close()
                    sockets.remove(sock)
            done.wait(0.5)
        for sock in sockets:
            sock.close()

    attacker = threading.Thread(target=attack)
    attacker.start()
    try:
        while opened[0] < SLOW_SOCKETS:
            time.sleep(0.1)
        cpu, began_all = cpu_seconds({served.process.pid}), time.monotonic()
        slowest = 0.0
        for _ in range(20):
            began = time.monotonic()
            status, _, text = raw(served, "GET", "/api/tournaments", timeout=10)
            slowest = max(slowest, time.monotonic() - began)
            assert status == 200 and time.monotonic() - began < 5, (status, text[:200])
            time.sleep(0.2)
        used = cpu_seconds({served.process.pid})[served.process.pid] - cpu[served.process.pid]
        print(
            f"{opened[0]} slow sockets opened; slowest answer {slowest:.2f} s; server CPU {used / (time.monotonic() - began_all):.0%}"
        )
    finally:
        done.set()
        attacker.join()
        stop(served)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


@pytest.mark.parametrize("count", ["0", "-1", "65", "100000"])
def test_the_worker_count_is_checked(count: str, capsys: pytest.CaptureFixture[str]) -> None:
    from gridarena.cli.main import main

    assert main(["serve", "--replays", "/nonexistent", "--port", "1", "--workers", count]) == 1
    err = capsys.readouterr().err
    assert f"--workers: must be an integer from 1 to 64, not '{count}'" in err and err.count("\n") == 1
