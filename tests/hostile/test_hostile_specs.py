"""Specs from the network (issue 23): the registry says per bot what it reaches beyond its game, and a
request may name only bots and game parameters that reach nothing (no program, no file, no terminal).
Every game parameter has a range, checked before anything is allocated."""

from __future__ import annotations

import re
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gridarena.core import registry
from gridarena.core.errors import GridArenaError, SpecError
from gridarena.core.params import FileOrName, Int, Ints, Number, ParamError, table_rows
from gridarena.core.registry import (
    BotEntry,
    UnsafeSpecError,
    bot_table,
    check_request_bot,
    make,
    make_for_request,
    offered_bots,
    parameters,
)
from gridarena.core.specs import format_spec

DOCS = Path(__file__).resolve().parents[2] / "docs"

#: Parameter names that suggest a path, a program or the network: each must be declared in the entry.
REACHING = re.compile(
    r"file|path|dir|cmd|command|program|exe|argv|cwd|env|script|module|url|host|port|map|partition"
)


def all_entries() -> list[tuple[str, str, BotEntry]]:
    return [
        (game, name, entry) for game in registry.available_games() for name, entry in bot_table(game).items()
    ]


@pytest.mark.parametrize("game,name,entry", all_entries(), ids=lambda v: v if isinstance(v, str) else "")
def test_every_bot_parameter_that_may_reach_the_host_is_declared(
    game: str, name: str, entry: BotEntry
) -> None:
    """Safe by construction: a new bot whose declaration has ``file=``, ``cmd=``, ... and does not say what it
    reaches fails here, before the viewer could offer it."""
    if entry.reaches:
        return
    for param, declared in entry.params.items():
        if REACHING.search(param):
            assert declared.reaches, f"{game}:{name} takes {param!r}: declare what it reaches"


def test_the_offered_bots_are_the_ones_that_reach_nothing() -> None:
    for game in registry.available_games():
        offered = set(offered_bots(game))
        assert offered == {name for name, entry in bot_table(game).items() if not entry.reaches}
        assert not {"external", "human", "python", "policy", "aind", "openspiel"} & offered
        assert offered <= set(registry.available_bots(game))


@pytest.mark.parametrize(
    "game,spec,words",
    [
        ("isolation", "external(cmd='id')", "external starts a program on the server"),
        ("isolation", "human", "human reads the server's terminal"),
        ("isolation", "policy(file='p.npz')", "policy reads or writes files on the server"),
        ("isolation", "python(file='x.py')", "python reads or writes files on the server"),
        ("isolation", "openspiel(simulations=1000)", "openspiel searches a fixed budget"),
        ("isolation", "aind(file='/tmp/x.py')", "aind reads or writes files"),
        ("isolation", "aind(player=HumanPlayer)", "reads the server's terminal"),
        ("slidingpuzzle", "solver(pdb_dir='/tmp')", "pdb_dir='/tmp' reads or writes files"),
        ("slidingpuzzle", "solver(partition='6-6-3')", "partition='6-6-3' reads or writes files"),
        ("reversixt", "external(cmd=['sh'])", "starts a program"),
    ],
)
def test_a_request_cannot_name_a_bot_that_reaches_the_host(game: str, spec: str, words: str) -> None:
    with pytest.raises(UnsafeSpecError, match=re.escape(words)):
        check_request_bot(game, spec)


@pytest.mark.parametrize(
    "spec,words",
    [
        ("ab_open(file='evil.py')", "ab_open: unknown parameter 'file'; ab_open takes timeout, name, seed"),
        ("ab_open(player=x)", "ab_open: unknown parameter 'player'"),
        ("best(margin=-1e9)", "best: margin must be a number from 1 to 1000, got -1000000000.0"),
        ("ab_open(timeout=-1e18)", "ab_open: timeout must be a number from 1 to 1000"),
        ("ab_improved_cpu(limit=1e9)", "ab_improved_cpu: limit must be a number from 1 to 10000"),
        ("mm_open(search_depth=60,timeout=-1e18)", "mm_open: search_depth must be an integer from 1 to 12"),
        ("maxn(bounds=1)", "maxn: bounds must be 2 numbers"),
        ("mcts(rollout=1)", "mcts: rollout must be one of ('random', "),
        ("alphabeta(heuristic=1)", "alphabeta: heuristic must be one of ("),
        ("greedy(seed=[1,2])", "greedy: seed must be an integer from 0 to"),
        ("alphabeta(depth=" + "9" * 5000 + ")", "a number of 5000 characters"),
        ("greedy(seed=" + "-" * 20000 + "1)", "longer than the 8192 allowed"),
        ("greedy(seed=" + "-" * 2000 + "1)", "signed deeper than 8"),
    ],
)
def test_a_spec_is_checked_against_its_declaration_before_the_factory(spec: str, words: str) -> None:
    """Issue 31, items 1-3 and 9: each of these reached a factory (or Python's parser) on the old main."""
    game = make("isolation")
    for build in (registry.make_bot_for_request, registry.make_bot):
        with pytest.raises(SpecError) as caught:
            build(game, spec)
        assert words in str(caught.value) and "\n" not in str(caught.value)
        assert len(str(caught.value)) < 1000


def test_a_game_value_too_large_to_print_is_one_line() -> None:
    with pytest.raises(SpecError, match="rows must be an integer from"):
        make("slidingpuzzle(rows=0x" + "f" * 60 + ")")
    with pytest.raises(SpecError, match="a number of 2002 characters"):
        make("slidingpuzzle(rows=0x" + "f" * 2000 + ")")


def test_a_request_cannot_name_a_file_through_a_game_parameter(tmp_path: Path) -> None:
    secret = tmp_path / "secret.map"
    secret.write_text("not a map\n")
    for spec in (f"reversixt(map='{secret}')", "reversixt(map=../maps/x.map)", "reversixt(map=sampler.map)"):
        with pytest.raises(UnsafeSpecError, match="names a file on the server's disk"):
            make_for_request(spec)
    assert make_for_request("reversixt(map=othello8)").num_players == 2
    assert make_for_request("reversixt").num_players == 3


def test_a_packaged_map_name_means_the_packaged_map(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file in the working folder that happens to carry a packaged map's name is not read instead."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "othello8").write_text("garbage")
    assert make_for_request("reversixt(map=othello8)").board.width == 8


def test_every_file_parameter_of_a_game_is_a_file_or_a_packaged_name() -> None:
    for game in registry.available_games():
        for name, param in parameters(game).items():
            assert not param.reads_file or isinstance(param, FileOrName), (game, name)


# -- every game parameter has a range, checked before anything is allocated ----------------------


def test_every_game_declares_each_of_its_parameters() -> None:
    for game in registry.available_games():
        table = parameters(game)
        assert set(make(game).params) <= set(table), game
        assert table and all(param.describe() for param in table.values()), game


def too_large(param: object) -> object:
    """A value just beyond the parameter's range, or of the wrong kind."""
    if isinstance(param, Int):
        return 10**12
    if isinstance(param, Number):
        return 1e300
    if isinstance(param, Ints):
        return list(range(10_000))
    return 12345


@pytest.mark.parametrize(
    "game,name",
    [(game, name) for game in registry.available_games() for name in parameters(game)],
)
def test_a_parameter_out_of_range_is_one_line_before_any_allocation(game: str, name: str) -> None:
    param = parameters(game)[name]
    tracemalloc.start()
    try:
        with pytest.raises(ParamError) as caught:
            make(game, **{name: too_large(param)})
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    message = str(caught.value)
    assert message.startswith(f"{game}: {name} must be {param.describe()}, got ") and "\n" not in message
    assert len(message) < 400 + len(param.describe())
    assert peak < 2_000_000, f"{peak} bytes allocated before the refusal"


def test_unknown_parameters_name_the_known_ones() -> None:
    for game in registry.available_games():
        with pytest.raises(ParamError, match=f"{game}: unknown parameter 'bogus'; {game} takes "):
            make(game, bogus=1)


@pytest.mark.parametrize("game", registry.available_games())
def test_the_docs_list_each_parameter_with_its_range(game: str) -> None:
    text = (DOCS / f"{game}.md").read_text()
    for row in table_rows(parameters(game)):
        assert row in text, f"docs/{game}.md lacks the row starting {row!r}"


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=6),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(registry.available_games()), data=st.data())
def test_any_parameter_value_from_a_request_is_a_game_or_one_error(game: str, data: st.DataObject) -> None:
    """Fuzz: any literal for any parameter (or an unknown one) builds the game or raises a GridArenaError."""
    names = [*parameters(game), "bogus"]
    params = data.draw(st.dictionaries(st.sampled_from(names), JSON_VALUES, max_size=3))
    spec = format_spec(game, params)
    try:
        make_for_request(spec)
    except GridArenaError as exc:
        assert "\n" not in str(exc)


def test_a_replay_of_a_game_on_a_map_file_rebuilds_from_its_own_text(tmp_path: Path) -> None:
    """A game on a map file of yours keeps the map's text in its parameters, so its replays open in the
    viewer (rebuilt through the request-safe constructor, which reads no file); a header that names a
    file without the text is still refused."""
    from gridarena.games.reversixt.formats import MAPS_DIR
    from gridarena.web.frames import HeaderRefused, request_game

    mine = tmp_path / "mine.map"
    mine.write_text((MAPS_DIR / "othello8.map").read_text())
    game = make(f"reversixt(map='{mine}')")
    assert game.params["map"] == "mine" and "text" in game.params
    mine.unlink()  # the viewer needs no file
    rebuilt = request_game({"game": "reversixt", "options": dict(game.params)})
    assert rebuilt.num_players == 2 and rebuilt.board.width == 8
    assert make("reversixt(map=othello8)").params == {"map": "othello8"}
    with pytest.raises(HeaderRefused, match="names a file on the server's disk"):
        request_game({"game": "reversixt", "options": {"map": "/etc/passwd"}})
