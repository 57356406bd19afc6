"""Specs from the network (issue 23): the registry says per bot what it reaches beyond its game, and a
request may name only bots and game parameters that reach nothing (no program, no file, no terminal).
Every game parameter has a range, checked before anything is allocated."""

from __future__ import annotations

import inspect
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
    """Safe by construction: a new bot whose factory takes ``file=``, ``cmd=``, ... and does not say what it
    does with it fails here, before the viewer could offer it."""
    if entry.reaches:
        return
    factory = registry._load(entry.factory)
    for param in list(inspect.signature(factory).parameters)[1:]:
        if REACHING.search(param):
            assert param in entry.file_params, f"{game}:{name} takes {param!r}: declare it in file_params"


def test_the_offered_bots_are_the_ones_that_reach_nothing() -> None:
    for game in registry.available_games():
        offered = set(offered_bots(game))
        assert offered == {name for name, entry in bot_table(game).items() if not entry.reaches}
        assert "external" not in offered and "human" not in offered
        assert offered <= set(registry.available_bots(game))


@pytest.mark.parametrize(
    "game,spec,words",
    [
        ("isolation", "external(cmd='id')", "external starts a program on the server"),
        ("isolation", "human", "human reads the server's terminal"),
        ("isolation", "policy(file='p.npz')", "policy reads a policy file on the server"),
        (
            "isolation",
            "openspiel(simulations=1000000000)",
            "openspiel searches a fixed budget without a clock",
        ),
        ("isolation", "aind(file='/tmp/x.py')", "'file' imports a Python file"),
        ("slidingpuzzle", "solver(pdb_dir='/tmp')", "'pdb_dir' reads and writes"),
        ("slidingpuzzle", "solver(partition='6-6-3')", "'partition' reads or builds"),
        ("reversixt", "external(cmd=['sh'])", "starts a program"),
    ],
)
def test_a_request_cannot_name_a_bot_that_reaches_the_host(game: str, spec: str, words: str) -> None:
    with pytest.raises(UnsafeSpecError, match=re.escape(words)):
        check_request_bot(game, spec)


def test_nested_bot_specs_are_held_to_the_same_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot whose parameter is another bot's spec (an opponent model, a hint bot): the inner spec is checked too."""
    nested = BotEntry("gridarena.bots.base:make_random_bot", spec_params=("inner",))
    monkeypatch.setitem(registry._COMMON_BOTS, "mirror", nested)
    check_request_bot("isolation", "mirror(inner='greedy')")
    check_request_bot("isolation", "mirror(inner=\"mirror(inner='random')\")")
    with pytest.raises(UnsafeSpecError, match="external starts a program"):
        check_request_bot("isolation", "mirror(inner=\"external(cmd='id')\")")
    with pytest.raises(UnsafeSpecError, match="'file' imports"):
        check_request_bot("isolation", 'mirror(inner="mirror(inner=\\"aind(file=\'x.py\')\\")")')
    with pytest.raises(SpecError, match="must be a bot spec"):
        check_request_bot("isolation", "mirror(inner=3)")


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
