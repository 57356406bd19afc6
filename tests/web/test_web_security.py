"""What the server must refuse: paths outside its folders, unknown ids, databases that are not ours,
writes, and a non-loopback address nobody asked for. Every refusal is a plain 400 or 404 (JSON under
/api/), never a file from outside the package, never a traceback."""

from __future__ import annotations

import http.client
import json
import sqlite3
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from webtools import Served, assert_clean, raw, token

from gridarena.arena.store import Store
from gridarena.cli.main import main
from gridarena.core.errors import GridArenaError
from gridarena.web import server as web_server
from gridarena.web.server import check_host, is_loopback

TRAVERSALS = [
    "/static/../../etc/passwd",
    "/static/../../../../../../etc/passwd",
    "/static/%2e%2e/%2e%2e/etc/passwd",
    "/static/..%2f..%2f..%2fetc%2fpasswd",
    "/static/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd",
    "/static/%252e%252e/%252e%252e/etc/passwd",
    "/static/..%5c..%5c..%5cetc%5cpasswd",
    "/static//etc/passwd",
    "/static/%2fetc%2fpasswd",
    "/static/../web/app.py",
    "/static/../../gridarena/web/app.py",
    "/static/gridarena.css%00.js",
]


@pytest.mark.parametrize("path", TRAVERSALS)
def test_static_files_never_leave_the_package(server: Served, path: str) -> None:
    status, _, body = raw(server, "GET", path)
    assert_clean(status, body, (400, 404))
    assert "starlette" not in body.lower() or status == 404


def test_static_files_are_served(server: Served) -> None:
    for name, kind in (
        ("viewer.js", "javascript"),
        ("gridarena.css", "css"),
        ("tournament.js", "javascript"),
    ):
        status, content_type, body = raw(server, "GET", f"/static/{name}")
        assert status == 200 and kind in content_type and len(body) > 100


@pytest.mark.parametrize(
    "query,status",
    [
        ("path=../../etc/passwd", 400),
        ("path=/etc/passwd", 400),
        ("path=%2e%2e/results.sqlite", 400),
        ("path=1/../../results.sqlite", 400),
        ("path=..%2F..%2F..%2Fetc%2Fpasswd", 400),
        ("path=nothing-here.jsonl", 404),
        ("path=1/0-0.json.gz%00", 400),
        ("path=", 400),
        ("", 400),
    ],
)
def test_replay_files_stay_in_the_replays_folder(server: Served, query: str, status: int) -> None:
    for route in ("/replays/view", "/api/replays/view", "/api/replays/frame"):
        code, content_type, body = raw(server, "GET", f"{route}?{query}&ply=0")
        assert_clean(code, body, (status,))
        if route.startswith("/api/"):
            assert "json" in content_type and json.loads(body)["status"] == status


def test_a_replay_file_in_the_folder_opens(server: Served) -> None:
    status, _, body = raw(server, "GET", "/api/replays/frame?path=1/0-0.json.gz&ply=2")
    assert status == 200 and 'data-ply="2"' in body


@pytest.mark.parametrize(
    "path,status",
    [
        ("/tournaments/999", 404),
        ("/tournaments/abc", 404),
        ("/tournaments/-1", 404),
        ("/tournaments/1/games/9/9", 404),
        ("/tournaments/999/games/0/0", 404),
        ("/api/tournaments/999", 404),
        ("/api/tournaments/999/events", 404),
        ("/api/tournaments/1/games/0/0/frames/9999", 404),
        ("/api/tournaments/1/games/0/0/frames/-1", 404),
        ("/api/tournaments/1/games/0/0/frames/abc", 400),
        ("/api/tournaments/1/games/77/0/frames/0", 404),
        ("/play/nosuchgame", 404),
        ("/api/play/nosuchgame", 404),
        ("/no/such/page", 404),
    ],
)
def test_unknown_ids_are_clear_errors(server: Served, path: str, status: int) -> None:
    code, content_type, body = raw(server, "GET", path)
    assert_clean(code, body, (status,))
    if path.startswith("/api/"):
        assert json.loads(body)["error"]
    else:
        assert "text/html" in content_type or code == 404


@pytest.mark.parametrize(
    "path,body,status,words",
    [
        ("/api/play", {"game": "chess"}, 400, "not 'chess'"),
        ("/api/play", {"game": "isolation", "opponent": "nosuchbot"}, 400, "nosuchbot"),
        ("/api/play", {"game": "isolation", "seconds": "lots"}, 400, "numbers"),
        ("/api/play", {"game": "isolation", "spec": "slidingpuzzle"}, 400, "not a isolation spec"),
        ("/api/play/nosuch/move", {"action": "a1"}, 404, "no such game"),
    ],
)
def test_bad_play_requests_are_refused_with_the_reason(
    server: Served, path: str, body: dict[str, Any], status: int, words: str
) -> None:
    code, _, text = raw(server, "POST", path, json.dumps(body).encode())
    assert_clean(code, text, (status,))
    assert words in json.loads(text)["error"]


def test_a_body_that_is_not_json_is_a_400(server: Served) -> None:
    code, _, text = raw(server, "POST", "/api/play", b"{not json")
    assert_clean(code, text, (400,))


def test_illegal_and_out_of_turn_moves_are_refused(server: Served) -> None:
    start = {"game": "isolation", "spec": "isolation(width=4,height=4)", "opponent": "random"}
    code, _, text = raw(server, "POST", "/api/play", json.dumps(start).encode())
    assert code == 200, text
    sid, mine = json.loads(text)["id"], token(text)

    def move(action: object) -> tuple[int, str, str]:
        return raw(server, "POST", f"/api/play/{sid}/move", json.dumps({"action": action}).encode(), mine)

    code, _, text = move("z9")
    assert_clean(code, text, (400,))
    assert "off the 4x4 board" in json.loads(text)["error"]
    code, _, text = move("a1")
    assert code == 200
    taken = json.loads(text)["turns"][1]["action"]  # the bot's answer: a cell that is now blocked
    code, _, text = move(taken)
    assert_clean(code, text, (400,))
    assert "blocked" in json.loads(text)["error"] or "knight" in json.loads(text)["error"]
    code, _, text = move(5)
    assert_clean(code, text, (400,))


def test_the_server_never_writes_the_database(server: Served) -> None:
    before = server.db.read_bytes()
    for path in ("/", "/tournaments/1", "/api/tournaments/1", "/tournaments/1/games/0/0"):
        assert raw(server, "GET", path)[0] == 200
    assert server.db.read_bytes() == before
    with Store(server.db, readonly=True) as store, pytest.raises(sqlite3.OperationalError, match="readonly"):
        store.db.execute("DELETE FROM games")


def test_a_database_that_is_not_gridarenas_is_refused_at_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(
        web_server, "serve", lambda *a, **k: pytest.fail("served a database it should refuse")
    )
    text = tmp_path / "notes.txt"
    text.write_text("hello\n")
    foreign = tmp_path / "other.sqlite"
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE TABLE customers (name TEXT)")
    empty = tmp_path / "empty.sqlite"
    empty.touch()
    cases = {
        text: "not an SQLite database",
        foreign: "something else (tables customers)",
        empty: "no gridarena tables",
        tmp_path / "missing.sqlite": "no such database",
        tmp_path: "is a directory",
    }
    for path, words in cases.items():
        before = path.read_bytes() if path.is_file() else None
        assert main(["serve", "--db", str(path), "--port", "1"]) == 1
        err = capsys.readouterr().err
        assert words in err and err.count("\n") == 1 and err.startswith("gridarena serve: error:"), err
        if before is not None:
            assert path.read_bytes() == before  # refused untouched
    assert not (tmp_path / "missing.sqlite").exists()


def test_only_loopback_unless_the_host_is_given() -> None:
    assert is_loopback("127.0.0.1") and is_loopback("127.8.9.10") and is_loopback("::1")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.5") and not is_loopback("example.org")
    for host in ("0.0.0.0", "10.0.0.1", "::", "example.org"):
        with pytest.raises(GridArenaError, match="refusing to listen"):
            check_host(host, explicit=False)
        with pytest.raises(GridArenaError, match="refusing to listen"):
            web_server.serve(object(), host, 8000)  # refused before uvicorn is even imported
        assert check_host(host, explicit=True) == host


def test_the_command_binds_loopback_by_default(
    monkeypatch: pytest.MonkeyPatch, results: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    calls: list[tuple[str, int, bool]] = []
    monkeypatch.setattr(
        web_server, "serve", lambda app, host, port, explicit=False: calls.append((host, port, explicit))
    )
    assert main(["serve", "--db", str(results), "--port", "8123"]) == 0
    assert main(["serve", "--db", str(results), "--port", "8124", "--host", "0.0.0.0"]) == 0
    assert calls == [("127.0.0.1", 8123, False), ("0.0.0.0", 8124, True)]
    assert "anyone who reaches it" in capsys.readouterr().err


def test_a_post_from_another_site_is_refused(server: Served) -> None:
    host, port = urllib.parse.urlsplit(server.url).netloc.split(":")
    for origin, expected in (("http://evil.example", 403), (server.url, 400)):
        connection = http.client.HTTPConnection(host, int(port), timeout=30)
        headers = {"origin": origin, "content-type": "application/x-www-form-urlencoded"}
        connection.request("POST", "/play", body=b"game=chess", headers=headers)
        response = connection.getresponse()
        assert response.status == expected, response.read()
        connection.close()


def test_a_host_name_that_is_not_this_machine_is_refused(server: Served) -> None:
    """A page whose own name resolves to 127.0.0.1 (DNS rebinding) cannot read the viewer."""
    host, port = urllib.parse.urlsplit(server.url).netloc.split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    connection.request("GET", "/api/tournaments", headers={"host": f"evil.example:{port}"})
    response = connection.getresponse()
    assert response.status == 400 and b"tournament" not in response.read()


def test_every_answer_carries_the_security_headers(server: Served) -> None:
    with urllib.request.urlopen(server.url + "/tournaments/1", timeout=30) as response:
        policy = response.headers["content-security-policy"]
        assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
        assert response.headers["x-content-type-options"] == "nosniff"
