"""Registries, spec strings and the public surface."""

from __future__ import annotations

import keyword
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import gridarena
from gridarena.core import registry
from gridarena.core.errors import SpecError, UnknownNameError
from gridarena.core.specs import format_spec, parse_qualified_spec, parse_spec, split_players


def test_game_id_type_and_table_agree() -> None:
    from gridarena import catalogue

    assert set(registry.game_ids()) == set(catalogue.GAMES)


def random_policy(game: str, folder: Path) -> Path:
    """A policy file of random weights for ``game`` (the ``policy`` bot needs one to be built)."""
    import numpy as np

    from gridarena.adapters.policy import write_policy
    from gridarena.adapters.views import make_view

    view = make_view(game)
    inputs = len(view.plane_names) * view.shape[0] * view.shape[1]
    rng = np.random.default_rng(0)
    path = folder / f"{game}.npz"
    layers = [
        (rng.normal(size=(inputs, 4)), np.zeros(4)),
        (rng.normal(size=(4, view.num_actions)), np.zeros(view.num_actions)),
    ]
    write_policy(path, game, layers, {})
    return path


def test_a_bot_missing_a_required_parameter_says_so() -> None:
    with pytest.raises(SpecError, match="cmd"):
        registry.make_bot(registry.make("isolation"), "external")


def test_unknown_names_suggest_close_ones() -> None:
    with pytest.raises(UnknownNameError, match="did you mean 'isolation'"):
        gridarena.make("isolaton")
    with pytest.raises(UnknownNameError, match=r"unknown bot for isolation 'randon'.*'random'"):
        gridarena.make_bot(gridarena.make("isolation"), "randon")


def test_make_accepts_specs_and_keywords() -> None:
    assert gridarena.make("isolation(width=5,height=4)").params == {"width": 5, "height": 4}
    assert gridarena.make("isolation", width=9).params == {"width": 9, "height": 7}


@pytest.mark.parametrize(
    "bad", ["alphabeta(3)", "alphabeta(depth=)", "alpha beta", "x(**y)", "x(a=b+c)", "isolation:x(", ""]
)
def test_bad_specs_are_refused_with_the_spec_in_the_message(bad: str) -> None:
    with pytest.raises(SpecError):
        parse_spec(bad)


def test_qualified_specs() -> None:
    assert parse_qualified_spec("isolation:alphabeta(depth=5,heuristic=improved)") == (
        "isolation",
        "alphabeta",
        {"depth": 5, "heuristic": "improved"},
    )
    with pytest.raises(SpecError, match="game prefix"):
        parse_spec("isolation:random")


values = st.one_of(
    st.integers(), st.floats(allow_nan=False, allow_infinity=False), st.text(), st.booleans(), st.none()
)
keys = st.from_regex(r"[a-z_][a-z0-9_]{0,8}", fullmatch=True).filter(lambda k: not keyword.iskeyword(k))


@given(st.from_regex(r"[a-z][a-z0-9_]{0,10}", fullmatch=True), st.dictionaries(keys, values, max_size=4))
def test_format_and_parse_round_trip(name: str, params: dict[str, object]) -> None:
    assert parse_spec(format_spec(name, params)) == (name, params)


@given(
    st.lists(
        st.sampled_from(["random", "greedy", "ab(depth=3,h='a,b')", "x(y=(1, 2))"]), min_size=1, max_size=5
    )
)
def test_split_players_keeps_commas_inside_specs(players: list[str]) -> None:
    assert split_players(",".join(players)) == players


def test_split_players_refuses_empty_and_unbalanced() -> None:
    for bad in ["a,,b", "a(b", "a'b"]:
        with pytest.raises(SpecError):
            split_players(bad)


def test_a_keyword_cannot_be_a_parameter_name() -> None:
    with pytest.raises(SpecError, match="'or' is not an identifier or is a Python keyword"):
        format_spec("a", {"or": None})
    with pytest.raises(SpecError, match="cannot parse the parameters"):
        parse_spec("a(or=None)")
