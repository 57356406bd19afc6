"""Golden playthroughs of every registered game: after every ply, the state, the player to move, the
legal actions and the returns, then the action played.

A golden file is its own case: its first line names the game spec, the seed and the policy, e.g.

    # isolation(width=5,height=4), seed 3: random playthrough
    # slidingpuzzle(rows=3,cols=3,scramble=14), seed 5: shortest playthrough
    # pentocity, seed 1: random playthrough; text in full every 20 plies, else its first 2 lines

and the test regenerates the rest from it and diffs. Every registered game needs at least one file
``tests/golden/<game>-*.txt``: to add a game, write that first line into a new file and run
``pytest tests/test_golden.py --update-golden``, which rewrites every golden file from its first line;
review the diff like code.

Policies: ``random`` plays ``random_action`` with a seeded RNG (two-player games end by themselves).
``shortest`` plays the fewest actions that end the game, found by breadth-first search over the public
API (``gamewalks``): a single-agent puzzle played at random rarely reaches its goal, so its golden file
is a seeded short scramble solved optimally, which also pins the optimal length. Actions that cannot be
listed (Pentocity) show as ``legal: not enumerable``, and a chance node lists its outcomes with their
probabilities instead. A game whose ``to_text`` is large (Pentocity's 50 x 50 land) prints it in full
every K plies and at the end, and only its first lines (score and request) in between.
"""

from __future__ import annotations

import difflib
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeAlias

import pytest

from gamewalks import shortest_path_to_end
from gridarena.core.errors import NotEnumerableError
from gridarena.core.registry import available_games, make
from gridarena.core.seeding import derive_seed
from gridarena.core.specs import parse_spec
from gridarena.core.types import CHANCE, GameState

Policy: TypeAlias = Callable[[GameState[Any]], Any]
"""Chooses the action to play in a state."""

GOLDEN = Path(__file__).parent / "golden"
MAX_PLIES = 100_000
HEADER = re.compile(
    r"# (?P<spec>.+), seed (?P<seed>-?\d+): (?P<policy>\w+) playthrough"
    r"(?:; text in full every (?P<every>\d+) plies, else its first (?P<lines>\d+) lines?)?"
)


@dataclass(frozen=True, slots=True)
class Case:
    """One golden playthrough, as its file's first line describes it."""

    spec: str
    seed: int
    policy: str
    full_every: int = 1
    short_lines: int = 0

    @property
    def game(self) -> str:
        """The registered game the spec builds."""
        return parse_spec(self.spec)[0]


def read_case(path: Path) -> Case:
    """The case named by the first line of a golden file."""
    first = path.read_text().split("\n", 1)[0]
    match = HEADER.fullmatch(first)
    if match is None:
        raise AssertionError(f"{path}:1: {first!r} is not a golden header such as {HEADER.pattern!r}")
    every, lines = match["every"], match["lines"]
    return Case(match["spec"], int(match["seed"]), match["policy"], int(every or 1), int(lines or 0))


def header(case: Case) -> str:
    """Inverse of :func:`read_case`: the first line of the case's file."""
    text = f"# {case.spec}, seed {case.seed}: {case.policy} playthrough"
    if case.full_every > 1:
        text += f"; text in full every {case.full_every} plies, else its first {case.short_lines} lines"
    return text


def choices(state: GameState[Any]) -> str:
    """The line naming what may be played: chance outcomes, legal actions, or that they cannot be listed."""
    if state.current_player() == CHANCE:
        outcomes = (f"{state.action_to_string(o)} ({p:g})" for o, p in state.chance_outcomes())
        return f"chance: {', '.join(outcomes)}"
    try:
        actions = [] if state.is_terminal() else list(state.legal_actions())
    except NotEnumerableError:
        return "legal: not enumerable"
    texts = [state.action_to_string(a) for a in actions]
    # Isolation's "d4" reads well joined by spaces; the puzzle's "7 3" needs commas between actions.
    separator = ", " if any(" " in t for t in texts) else " "
    return f"legal: {separator.join(texts)}"


def ply_lines(case: Case, ply: int, state: GameState[Any]) -> list[str]:
    """The block of one ply: its number, the state as text, who moves, the choices and the returns."""
    text = state.to_text()
    if ply % case.full_every and not state.is_terminal():
        text = "\n".join(text.split("\n")[: case.short_lines])
    returns = f"returns: {list(state.returns())}"
    return [f"ply {ply}", text, f"current_player: {state.current_player()}", choices(state), returns, ""]


def random_policy(case: Case, start: GameState[Any]) -> Policy:
    """Seeded random actions (``random_action``), the RNG seeded from the case's seed."""
    rng = random.Random(derive_seed("golden", case.seed))
    return lambda state: state.random_action(rng)


def shortest_policy(case: Case, start: GameState[Any]) -> Policy:
    """The fewest actions that end the game from ``start``, one per call."""
    path = iter(shortest_path_to_end(start))
    return lambda state: next(path)


POLICIES: dict[str, Callable[[Case, GameState[Any]], Policy]] = {
    "random": random_policy,
    "shortest": shortest_policy,
}


def playthrough(case: Case) -> str:
    """The transcript of one case, from its header to the end of the game."""
    state = make(case.spec).new_initial_state(case.seed)
    policy = POLICIES[case.policy](case, state)
    lines = [header(case), ""]
    for ply in range(MAX_PLIES):
        lines += ply_lines(case, ply, state)
        if state.is_terminal():
            return "\n".join(lines)
        action = policy(state)
        lines.append(f"play: {state.action_to_string(action)}")
        state = state.apply_action(action)
    raise AssertionError(f"{case.spec}: no end after {MAX_PLIES} plies")


def golden_files(game: str) -> list[Path]:
    """The golden files of ``game``, sorted."""
    return sorted(GOLDEN.glob(f"{game}-*.txt"))


def golden_difference(path: Path, update: bool) -> str | None:
    """Regenerate ``path`` from its header: None if unchanged (or rewritten on update), else the diff."""
    expected = path.read_text()
    text = playthrough(read_case(path))
    if update:
        path.write_text(text)
        return None
    if text == expected:
        return None
    diff = difflib.unified_diff(expected.splitlines(True), text.splitlines(True), "golden", "now", n=2)
    return f"{path} differs (run pytest --update-golden if intended):\n{''.join(diff)[:4000]}"


@pytest.mark.parametrize("game", available_games())
def test_golden_playthroughs(game: str, update_golden: bool) -> None:
    paths = golden_files(game)
    if not paths:
        pytest.fail(
            f"{game} has no golden playthrough: create tests/golden/{game}-seed1.txt holding the line "
            f"'# {game}, seed 1: random playthrough' (policies and options: tests/test_golden.py), "
            "run pytest tests/test_golden.py --update-golden, then review and commit the file"
        )
    differences = [d for d in (golden_difference(p, update_golden) for p in paths) if d]
    assert not differences, "\n\n".join(differences)


def test_every_golden_file_belongs_to_a_registered_game() -> None:
    for path in GOLDEN.glob("*.txt"):
        case = read_case(path)
        assert path.name.startswith(f"{case.game}-"), f"{path.name}: name it {case.game}-<case>.txt"
        assert case.game in available_games(), f"{path}: {case.game} is not a registered game"
        assert case.policy in POLICIES, f"{path}: unknown policy {case.policy!r}; known: {sorted(POLICIES)}"
