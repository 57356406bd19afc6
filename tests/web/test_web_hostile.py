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

import pytest
from webtools import Served, assert_clean, descendants, memory_kib, raw, serve, stop

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
    """Every offered bot plays a move, a puzzle gets a hint, a program is asked for: no process appears."""
    pid = server.process.pid
    assert descendants(pid) == set()
    # The person moves first: a program would be started with the game and wait for its turn.
    post(
        server,
        "/api/play",
        {"game": "isolation", "opponent": "external(cmd='sleep 30',protocol=codingame)", "seat": "0"},
    )
    assert descendants(pid) == set()
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
        assert descendants(pid) == set(), name
    status, text = post(server, "/api/play", {"game": "slidingpuzzle"})
    assert status == 200
    sid = json.loads(text)["id"]
    assert post(server, f"/api/play/{sid}/hint", {})[0] == 200
    assert descendants(pid) == set()


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
