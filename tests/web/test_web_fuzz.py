"""A hypothesis fuzzer over the viewer's routes and JSON bodies (issue 23): any request gets a 2xx, 3xx
or 4xx answer, never a 5xx (a 503 with ``Retry-After`` is allowed: every worker busy), and the memory of
the server and its worker processes stays under :data:`MEMORY_BOUND_MIB`.

One example is one request to a real `gridarena serve` (uvicorn, as users run it): a route from the
table below with ids, paths and query values drawn at random (huge, negative, text, encoded, 4,301
digits and more), and a body that is a play request built from good and bad specs, arbitrary JSON, or
arbitrary bytes. A play request carries its game's token most of the time, a wrong one or none otherwise.
`make test` sends :data:`REQUESTS` of them; ``pytest -m slow`` sends :data:`SLOW_REQUESTS`.

Bots think for at most 0.2 s here (``seconds`` is drawn below 0.2, or as text, or out of range):
a request that asks a bot for 60 s a move is a legal wait, not a fault, and would only slow the run.
The live event stream (``/api/tournaments/ID/events``) is left out for the same reason: it answers
for as long as the client listens (tests/web/test_web_security.py covers its unknown ids).
"""

from __future__ import annotations

import http.client
import json
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from webtools import Served, pss_mib, serve, stop, tree

from gridarena.core.registry import available_bots, offered_bots

REQUESTS = 500
SLOW_REQUESTS = 10_000
#: The bound on the memory of the server and its workers together (the sum of their proportional set
#: sizes, sampled every :data:`SAMPLE_EVERY` requests): Python, Starlette, numpy, numba's compiled
#: kernels (loaded once, in the workers' fork server), up to 32 games in progress and their bots.
MEMORY_BOUND_MIB = 600
SAMPLE_EVERY = 25

SPECS = [
    "isolation",
    "isolation(width=5,height=5)",
    "isolation(width=26,height=26)",
    "isolation(width=0)",
    "isolation(width=1,height=1)",
    "isolation(width=1e9)",
    "isolation(depth=3)",
    "slidingpuzzle",
    "slidingpuzzle(rows=2,cols=3,scramble=5)",
    "slidingpuzzle(rows=100000,cols=100000)",
    "slidingpuzzle(width=1000,height=1000)",
    "slidingpuzzle(rows=16,cols=16,scramble=50)",
    "slidingpuzzle(variant=homework,scramble=10)",
    "slidingpuzzle(goal=[1,2,3,10000000000])",
    "slidingpuzzle(walls=[999])",
    "reversixt(map=/etc/passwd)",
    "reversixt(map=sampler)",
    "pentocity(cpu_time=x)",
    "isolation:greedy",
    "isolation(",
    "",
    "x" * 300,
]
BOTS = [
    *available_bots("isolation"),
    "greedy(seed=1)",
    "greedy(foo=1)",
    "alphabeta(depth=2)",
    "alphabeta(depth=1000000000)",
    "mcts(iterations=100)",
    "aind(file='/etc/passwd')",
    "aind(player=math)",
    "external(cmd=\"sh -c 'touch /tmp/gridarena-fuzz-pwned'\")",
    "solver(pdb_dir=/tmp)",
    "random(",
]
KEYS = ["game", "spec", "opponent", "seat", "seconds", "action"]


def texts(max_size: int = 40) -> st.SearchStrategy[str]:
    return st.text(max_size=max_size)


IDS = st.one_of(
    st.integers(0, 4).map(str),
    st.integers(-(2**70), 2**70).map(str),
    st.just("99999999999999999999999"),
    st.integers(4_301, 6_000).map(lambda n: "9" * n),
    texts(12).map(lambda t: urllib.parse.quote(t, safe="")),
)
SIDS = st.one_of(st.just("<session>"), texts(16).map(lambda t: urllib.parse.quote(t, safe="")))
QUERY = st.one_of(
    texts(),
    st.sampled_from(
        ["1/0-0.json.gz", "../../etc/passwd", "/etc/passwd", "%2e%2e/x", "web", "x" * 300 + ".jsonl"]
    ),
)
ROUTES = st.one_of(
    st.just("/"),
    st.builds("/tournaments/{}".format, IDS),
    st.builds("/tournaments/{}/games/{}/{}".format, IDS, IDS, IDS),
    st.just("/replays"),
    st.builds(lambda q: "/replays/view?path=" + urllib.parse.quote(q), QUERY),
    st.just("/play"),
    st.builds("/play/{}".format, SIDS),
    st.just("/api/tournaments"),
    st.builds("/api/tournaments/{}".format, IDS),
    st.builds("/api/tournaments/{}/games/{}/{}".format, IDS, IDS, IDS),
    st.builds("/api/tournaments/{}/games/{}/{}/frames/{}".format, IDS, IDS, IDS, IDS),
    st.just("/api/replays"),
    st.builds(lambda q: "/api/replays/view?path=" + urllib.parse.quote(q), QUERY),
    st.builds(
        lambda q, p: f"/api/replays/frame?path={urllib.parse.quote(q)}&ply={urllib.parse.quote(p)}",
        QUERY,
        texts(8),
    ),
    st.just("/api/play"),
    st.builds("/api/play/{}".format, SIDS),
    st.builds(
        lambda sid, since, wait: f"/api/play/{sid}?since={since}&wait={wait}",
        SIDS,
        st.sampled_from(["0", "1", "-1", "x", "9" * 5000, "3.5"]),
        st.sampled_from(["0", "0.1", "-1", "nan", "inf", "31"]),
    ),
    st.builds("/api/play/{}/move".format, SIDS),
    st.builds("/api/play/{}/hint".format, SIDS),
    st.builds("/api/play/{}/resign".format, SIDS),
    st.builds(lambda t: "/static/" + urllib.parse.quote(t), texts(20)),
    texts(30).map(lambda t: "/" + urllib.parse.quote(t)),
)

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | texts(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts(8), inner, max_size=4),
    max_leaves=12,
)
GOOD_SECONDS = st.floats(0.01, 0.2).map(str)
SECONDS = st.one_of(
    GOOD_SECONDS,
    GOOD_SECONDS,
    GOOD_SECONDS,
    st.floats(allow_nan=True).filter(lambda x: not 0.2 < x <= 60),
    texts(6),
    st.sampled_from(["0", "-1", "61", "inf", "nan"]),
)
GOOD_SPECS = st.sampled_from(
    ["isolation(width=5,height=5)", "slidingpuzzle(rows=2,cols=3,scramble=5)", "isolation"]
)
OFFERED = st.sampled_from(offered_bots("isolation"))
SEATS = st.sampled_from(["0", "1"])
ACTIONS = st.sampled_from(["a1", "b3", "c2", "d4", "0 1", "1 2", "3 0", "4 3"])
#: Play requests that should start a game or play a move (a random bot, seat, size and action).
WELL_FORMED = st.fixed_dictionaries(
    {
        "game": st.sampled_from(["isolation", "isolation", "slidingpuzzle"]),
        "seconds": GOOD_SECONDS,
        "opponent": OFFERED,
        "seat": SEATS,
        "action": ACTIONS,
    },
    optional={"spec": GOOD_SPECS},
).map(lambda d: {**d, "spec": d["game"] + d.get("spec", "").partition(d["game"])[2]})
#: Anything in a play request's fields.
ANY_PLAY = st.fixed_dictionaries(
    {
        "seconds": SECONDS,
        "game": st.sampled_from(["isolation", "slidingpuzzle", "reversixt", "chess", ""]) | texts(10),
    },
    optional={
        "spec": st.sampled_from(SPECS) | texts(),
        "opponent": st.sampled_from(BOTS) | texts(),
        "seat": st.sampled_from(["0", "1", "2", "-1", "99999999999999999999"]) | st.integers() | texts(4),
        "action": ACTIONS | st.sampled_from(["z9", "", "5 0"]) | texts(8) | st.integers(),
    },
)
PLAY = st.one_of(WELL_FORMED, WELL_FORMED, ANY_PLAY)
BODIES = st.one_of(
    PLAY.map(lambda d: json.dumps(d).encode()),
    st.dictionaries(st.sampled_from(KEYS) | texts(8), JSON, max_size=6).map(lambda d: json.dumps(d).encode()),
    JSON.map(lambda v: json.dumps(v).encode()),
    st.binary(max_size=200),
    PLAY.map(lambda d: urllib.parse.urlencode({k: str(v) for k, v in d.items()}).encode()),
    st.integers(1, 4000).map(lambda n: b"[" * n),
)


#: Requests of a game in the browser: start one (JSON or form), move, ask a hint, read its status.
PLAY_FLOW = st.one_of(
    st.tuples(st.just("POST"), st.just("/api/play"), PLAY.map(lambda d: json.dumps(d).encode())),
    st.tuples(st.just("POST"), st.just("/api/play"), PLAY.map(lambda d: json.dumps(d).encode())),
    st.tuples(
        st.just("POST"),
        st.just("/play"),
        PLAY.map(lambda d: urllib.parse.urlencode({k: str(v) for k, v in d.items()}).encode()),
    ),
    st.tuples(
        st.just("POST"), st.just("/api/play/<session>/move"), PLAY.map(lambda d: json.dumps(d).encode())
    ),
    st.tuples(st.just("POST"), st.just("/api/play/<session>/hint"), st.just(b"{}")),
    st.tuples(st.just("POST"), st.just("/api/play/<session>/resign"), st.just(b"{}")),
    st.tuples(
        st.just("GET"),
        st.sampled_from(["/api/play/<session>", "/play/<session>", "/api/play/<session>?since=1&wait=0.2"]),
        st.none(),
    ),
)


@st.composite
def requests(draw: st.DrawFn) -> tuple[str, str, bytes | None, dict[str, str]]:
    """(method, path, body, headers): a third of them play, the rest go anywhere."""
    if draw(st.integers(0, 2)) == 0:
        method, path, body = draw(PLAY_FLOW)
    else:
        method = draw(st.sampled_from(["GET", "GET", "POST", "POST", "POST", "PUT", "DELETE", "HEAD"]))
        path = draw(ROUTES)
        body = draw(BODIES) if method in ("POST", "PUT") else None
    headers = {
        "content-type": draw(
            st.sampled_from(["application/json", "application/x-www-form-urlencoded", "text/plain"])
        )
    }
    if draw(st.integers(0, 19)) == 0:
        headers["origin"] = draw(st.sampled_from(["http://evil.example", "null", "http://127.0.0.1"]))
    owner = draw(st.sampled_from(["<token>", "<token>", "<token>", "", "<session>", "x" * 300]))
    if owner:
        headers["x-gridarena-token"] = owner
    return method, path, body, headers


@dataclass
class Client:
    """One keep-alive connection to the server, reopened when the server closes it; counts answers."""

    served: Served
    sessions: list[str] = field(default_factory=list)
    tokens: dict[str, str] = field(default_factory=dict)
    sent: int = 0
    peak: float = 0.0
    connection: http.client.HTTPConnection | None = None

    def send(self, method: str, path: str, body: bytes | None, headers: dict[str, str]) -> tuple[int, bytes]:
        sid = self.sessions[-1] if self.sessions else "none"
        path = path.replace("<session>", sid)
        headers = {
            k: v.replace("<token>", self.tokens.get(sid, "none")).replace("<session>", sid)
            for k, v in headers.items()
        }
        if self.sent % SAMPLE_EVERY == 0:
            self.peak = max(self.peak, pss_mib(tree(self.served.process.pid)))
        for attempt in range(2):
            if self.connection is None:
                host, port = urllib.parse.urlsplit(self.served.url).netloc.split(":")
                self.connection = http.client.HTTPConnection(host, int(port), timeout=60)
            try:
                self.connection.request(method, path, body=body, headers=headers)
                response = self.connection.getresponse()
                data = response.read()
            except (http.client.HTTPException, ConnectionError):
                self.connection.close()
                self.connection = None
                if attempt:
                    raise
                continue
            if response.getheader("connection", "").lower() == "close":
                self.connection.close()
                self.connection = None
            self.sent += 1
            return response.status, data
        raise AssertionError("unreachable")


@pytest.fixture(scope="module")
def fuzz_server(results: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """A server of its own (its memory is this module's alone), capped at 3 GB of address space."""
    served = serve(results, tmp_path_factory.mktemp("fuzz-replays"), memory_cap=3 * 1024**3)
    yield served
    stop(served)


def check(client: Client, request: tuple[str, str, bytes | None, dict[str, str]]) -> None:
    method, path, body, headers = request
    status, data = client.send(method, path, body, headers)
    busy = status == 503 and b"busy" in data  # every worker busy: a Retry-After, not a fault
    assert status < 500 or busy, (
        f"{method} {path[:300]} {body[:200] if body else b''!r}: {status} {data[:300]!r}"
    )
    if status == 200 and method == "POST" and path == "/api/play":
        started = json.loads(data)
        client.sessions.append(started["id"])
        client.tokens[started["id"]] = started["token"]
    if path.startswith("/api/") and status >= 400 and method != "HEAD":
        error = json.loads(data)["error"]
        assert "\n" not in error and "Traceback" not in error


@pytest.mark.parametrize("count", [REQUESTS, pytest.param(SLOW_REQUESTS, marks=pytest.mark.slow)])
def test_any_request_is_answered_without_a_5xx_in_bounded_memory(fuzz_server: Served, count: int) -> None:
    client = Client(fuzz_server)

    @settings(
        max_examples=count,
        deadline=None,
        phases=[Phase.explicit, Phase.generate, Phase.shrink],
        suppress_health_check=list(HealthCheck),
        database=None,
    )
    @given(requests())
    def one(request: tuple[str, str, bytes | None, dict[str, str]]) -> None:
        check(client, request)

    one()
    peak = max(client.peak, pss_mib(tree(fuzz_server.process.pid)))
    print(
        f"{client.sent} requests, {len(client.sessions)} games started, peak {peak:.0f} MiB with the workers"
    )
    assert client.sent >= count
    assert peak < MEMORY_BOUND_MIB, f"the server and its workers held {peak:.0f} MiB"
    assert not Path("/tmp/gridarena-fuzz-pwned").exists()
