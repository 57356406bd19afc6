"""The conformance checker: small named checks of the game API, run over seeded random games.

``check_game`` plays ``games`` random games and applies every per-state check to every state on
the way, then the whole-game checks. The first broken invariant raises
:class:`ConformanceError` naming the check, the game, the seed and the ply.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from gridarena.core.errors import ConformanceError, GridArenaError, NotEnumerableError
from gridarena.core.seeding import derive_seed
from gridarena.core.types import CHANCE, TERMINAL, Game, GameState


@dataclass(frozen=True, slots=True)
class Where:
    """The place a check looks at: game, seed of the playout and ply."""

    game: str
    seed: int
    ply: int

    def fail(self, check: str, message: str) -> ConformanceError:
        """The error to raise, with the place in the message."""
        return ConformanceError(f"{check}: {self.game}, seed {self.seed}, ply {self.ply}: {message}")


StateCheck = Callable[[Game[Any], GameState[Any], Where], None]


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _sample_actions(state: GameState[Any], rng: random.Random, count: int = 8) -> list[Any]:
    if state.current_player() == CHANCE:
        return [a for a, _ in state.chance_outcomes()][:count]
    if state.game.enumerable_actions:
        return list(state.legal_actions())
    return [state.random_action(rng) for _ in range(count)]


def check_current_player(game: Game[Any], state: GameState[Any], where: Where) -> None:
    """``current_player()`` is a seat, CHANCE, or TERMINAL exactly when the game is over."""
    player = state.current_player()
    if state.is_terminal() != (player == TERMINAL):
        raise where.fail(
            "current_player", f"is_terminal()={state.is_terminal()} but current_player()={player}"
        )
    if player not in (TERMINAL, CHANCE) and not 0 <= player < game.num_players:
        raise where.fail("current_player", f"{player} is not a seat of a {game.num_players}-player game")


def check_legal_actions(game: Game[Any], state: GameState[Any], where: Where) -> None:
    """Legal actions are non-empty iff the game goes on (at a decision node), sorted and legal."""
    if state.current_player() == CHANCE:
        outcomes = state.chance_outcomes()
        total = sum(p for _, p in outcomes)
        if not outcomes or abs(total - 1.0) > 1e-9:
            raise where.fail(
                "legal_actions", f"chance outcomes {len(outcomes)} with total probability {total}"
            )
        return
    if not game.enumerable_actions:
        try:
            state.legal_actions()
        except NotEnumerableError:
            return
        raise where.fail("legal_actions", "the game says its actions are not enumerable, yet it lists them")
    actions = list(state.legal_actions())
    if bool(actions) == state.is_terminal():
        raise where.fail(
            "legal_actions", f"{len(actions)} legal actions but is_terminal()={state.is_terminal()}"
        )
    try:
        in_order = actions == sorted(actions)
    except TypeError:
        in_order = True  # actions without an order (command lists) need not be sorted
    if not in_order:
        raise where.fail("legal_actions", "legal actions are not sorted")
    for action in actions:
        if (reason := state.illegal_reason(action)) is not None:
            raise where.fail(
                "legal_actions", f"listed action {state.action_to_string(action)} is illegal: {reason}"
            )


def check_returns(game: Game[Any], state: GameState[Any], where: Where) -> None:
    """Returns are zeros and the outcome None until the end; at the end one value per player."""
    returns, outcome = state.returns(), state.outcome()
    if len(returns) != game.num_players:
        raise where.fail("returns", f"{len(returns)} returns for {game.num_players} players")
    if not state.is_terminal():
        if outcome is not None or any(returns):
            raise where.fail("returns", f"the game goes on but outcome={outcome} and returns={returns}")
        return
    if outcome is None or tuple(outcome.returns) != tuple(returns):
        raise where.fail("returns", f"terminal state with outcome {outcome} and returns {returns}")
    if game.zero_sum and abs(sum(returns)) > 1e-9:
        raise where.fail("returns", f"a zero-sum game returned {returns}")


def check_json_round_trip(game: Game[Any], state: GameState[Any], where: Where) -> None:
    """``state_from_json(to_json())`` gives an equal state, and the JSON survives ``json.dumps``."""
    data = json.loads(_json(state.to_json()))
    again = game.state_from_json(data)
    if again != state or _json(again.to_json()) != _json(data):
        raise where.fail("json_round_trip", f"state changed through JSON: {_json(data)[:200]}")


def check_action_text_round_trip(game: Game[Any], state: GameState[Any], where: Where) -> None:
    """``string_to_action(action_to_string(a)) == a`` for the actions on offer."""
    rng = random.Random(where.seed * 1_000 + where.ply)
    for action in [] if state.is_terminal() else _sample_actions(state, rng):
        text = state.action_to_string(action)
        if state.string_to_action(text) != action:
            raise where.fail(
                "action_text_round_trip", f"{action!r} -> {text!r} -> {state.string_to_action(text)!r}"
            )


def check_apply_is_pure(game: Game[Any], state: GameState[Any], where: Where) -> None:
    """Applying an action leaves the original state as it was; ``apply_action`` refuses when over."""
    before = _json(state.to_json())
    rng = random.Random(where.seed * 7_919 + where.ply)
    if state.is_terminal():
        try:
            state.apply_action(None)
        except GridArenaError:
            return
        raise where.fail("apply_is_pure", "apply_action accepted a move in a finished game")
    for action in _sample_actions(state, rng, 3):
        state.apply_action(action)
        if _json(state.to_json()) != before:
            raise where.fail("apply_is_pure", f"applying {state.action_to_string(action)} changed the state")


def check_to_text(game: Game[Any], state: GameState[Any], where: Where) -> None:
    """``to_text()`` returns a non-empty string."""
    text = state.to_text()
    if not isinstance(text, str) or not text.strip():
        raise where.fail("to_text", f"to_text() returned {text!r}")


def check_forfeit(game: Game[Any], state: GameState[Any], where: Where) -> None:
    """A forfeit by the player to move is recorded and never raises."""
    player = state.current_player()
    if player < 0:
        return
    after = state.forfeit(player, "timeout", "checker")
    if after.is_terminal():
        outcome = after.outcome()
        if outcome is None or outcome.termination != "timeout" or outcome.forfeit_player != player:
            raise where.fail("forfeit", f"outcome after a forfeit is {outcome}")
    elif after.current_player() == player:
        raise where.fail("forfeit", "the forfeiting player is still to move")


STATE_CHECKS: tuple[StateCheck, ...] = (
    check_current_player,
    check_legal_actions,
    check_returns,
    check_json_round_trip,
    check_action_text_round_trip,
    check_apply_is_pure,
    check_to_text,
    check_forfeit,
)


def playout(game: Game[Any], seed: int) -> Iterator[GameState[Any]]:
    """The states of one random game from ``new_initial_state(seed)``, initial and final included."""
    rng = random.Random(derive_seed("check", seed))
    state = game.new_initial_state(seed)
    cap = game.max_plies()
    yield state
    for _ in range(cap if cap is not None else 100_000):
        if state.is_terminal():
            return
        state = state.apply_action(state.random_action(rng))
        yield state
    if state.is_terminal():
        return
    raise ConformanceError(f"max_plies: {game.name}, seed {seed}: not over after {cap} plies")


def check_same_seed_same_game(game: Game[Any], seed: int) -> None:
    """Two playouts with the same seed visit the same states."""
    first = [_json(s.to_json()) for s in playout(game, seed)]
    second = [_json(s.to_json()) for s in playout(game, seed)]
    if first != second:
        ply = next(i for i, (a, b) in enumerate(zip(first, second, strict=False)) if a != b)
        raise Where(game.name, seed, ply).fail("same_seed_same_game", "two playouts with one seed differ")


def check_game(
    game: Game[Any], games: int = 20, seed: int = 0, progress: Callable[[int], None] | None = None
) -> int:
    """Play ``games`` seeded random games through every check; return the number of states checked."""
    states = 0
    for i in range(games):
        game_seed = seed + i
        for ply, state in enumerate(playout(game, game_seed)):
            for check in STATE_CHECKS:
                check(game, state, Where(game.name, game_seed, ply))
            states += 1
        if progress is not None:
            progress(i + 1)
    for i in range(min(games, 3)):
        check_same_seed_same_game(game, seed + i)
    return states
